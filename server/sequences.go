package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's sequence statements that DuckDB lacks, as pg_dump writes
// them after a table's data and ORMs send them to reset a key's sequence:
//
//	SELECT pg_catalog.setval('public.t_id_seq', 42, true);
//	SELECT setval(pg_get_serial_sequence('"t"','id'), coalesce(max("id"), 1), max("id") IS NOT null) FROM "t";  -- Django
//	ALTER SEQUENCE public.t_id_seq OWNED BY public.t.id;
//
// DuckDB has no setval and cannot restart a sequence. A statement whose
// select list is one setval call is run here: its arguments are read by
// the same query without the call (through Prepare, like any statement),
// then each sequence is moved forward by calling nextval the number of
// times that makes its last value the one asked for, or, to move it back,
// between increments or very far, made anew (sequenceremake.go). ALTER
// SEQUENCE … OWNED BY alone is accepted and not recorded.

// maxSetvalSteps bounds the nextval calls of one setval (10M take about
// 0.4 s).
const maxSetvalSteps = 100_000_000

// setvalStatement is SELECT setval(a, b[, c]) [FROM …].
type setvalStatement struct {
	sess *Session
	args pgwire.Statement // SELECT a, b[, c] [FROM …]: the arguments, row by row
	name string           // the result column's name
}

// ParamOIDs are the argument query's: SELECT setval($1, $2) takes them.
func (st *setvalStatement) ParamOIDs() []uint32 { return st.args.ParamOIDs() }
func (st *setvalStatement) Close()              { st.args.Close() }
func (st *setvalStatement) Columns() []pgwire.Column {
	return []pgwire.Column{{Name: st.name, OID: pgtype.Int8OID, Size: 8}}
}

// prepareSetval recognizes SELECT [pg_catalog.]setval(…) [[AS] name]
// [FROM …] with the call as the only item of the select list.
func (s *Session) prepareSetval(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, bool, error) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == sqltext.Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	if !word(0, "select") {
		return nil, false, nil
	}
	i := 1
	if word(i, "pg_catalog") && i+1 < len(toks) && sql[toks[i+1].Start:toks[i+1].End] == "." {
		i += 2
	}
	if !word(i, "setval") || i+1 >= len(toks) || toks[i+1].Kind != sqltext.Open {
		return nil, false, nil
	}
	depth, close := 0, -1
	var commas []int
	for j := i + 1; j < len(toks) && close < 0; j++ {
		switch toks[j].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			if depth--; depth == 0 {
				close = j
			}
		case sqltext.Op:
			if depth == 1 && sql[toks[j].Start:toks[j].End] == "," {
				commas = append(commas, j)
			}
		}
	}
	if close < 0 || len(commas) < 1 || len(commas) > 2 {
		return nil, false, nil
	}
	name, k := "setval", close+1
	if word(k, "as") {
		k++
	}
	if k < len(toks) && (toks[k].Kind == sqltext.Quoted || toks[k].Kind == sqltext.Word && !word(k, "from")) {
		name = sqltext.UnquoteIdent(sql[toks[k].Start:toks[k].End])
		k++
	}
	rest := ""
	switch {
	case k >= len(toks), toks[k].Kind == sqltext.Semi:
	case word(k, "from"):
		rest = " " + sql[toks[k].Start:toks[len(toks)-1].End]
		if toks[len(toks)-1].Kind == sqltext.Semi {
			rest = " " + sql[toks[k].Start:toks[len(toks)-2].End]
		}
	default:
		return nil, false, nil
	}
	// the sequence as text: 'public.s'::regclass names it by OID otherwise
	first := strings.TrimSpace(sql[toks[i+2].Start:toks[commas[0]-1].End])
	if low := strings.ToLower(first); strings.HasSuffix(low, "::regclass") {
		first = first[:len(first)-len("::regclass")]
	}
	// each argument with setval's type (a parameter takes it from there)
	args := "SELECT CAST(" + first + " AS VARCHAR)"
	bounds := append(append([]int{}, commas...), close)
	for n, typ := range []string{"BIGINT", "BOOLEAN"}[:len(commas)] {
		args += ", CAST(" + sql[toks[bounds[n]+1].Start:toks[bounds[n+1]-1].End] + " AS " + typ + ")"
	}
	args += rest
	stmt, err := s.Prepare(ctx, sqltext.Parse(args), paramOIDs)
	if err != nil {
		return nil, true, err
	}
	return &setvalStatement{sess: s, args: stmt, name: name}, true, nil
}

func (st *setvalStatement) Execute(ctx context.Context, params []any) (pgwire.Rows, error) {
	s := st.sess
	stmt := st.args
	rows, err := stmt.Execute(ctx, params)
	if err != nil {
		return nil, s.failed(err)
	}
	type call struct {
		seq    any
		value  any
		called any
	}
	var calls []call
	vals := make([]any, len(stmt.Columns()))
	for rows.Next(vals) {
		c := call{seq: vals[0], value: vals[1], called: true}
		if len(vals) > 2 {
			c.called = vals[2]
		}
		calls = append(calls, c)
	}
	err = rows.Err()
	rows.Close()
	if err != nil {
		return nil, s.failed(err)
	}
	out := &heldRows{tag: func(n int64) string { return fmt.Sprintf("SELECT %d", n) }}
	for _, c := range calls {
		if c.seq == nil || c.value == nil || c.called == nil {
			out.rows = append(out.rows, []any{nil}) // setval is strict
			continue
		}
		seq, _ := c.seq.(string)
		v, ok := pgwire.ToInt64(c.value)
		called, okb := c.called.(bool)
		if !ok || !okb {
			return nil, s.failed(vsqlerr.New(vsqlerr.InvalidParameter, "setval takes a sequence name, a bigint and a boolean"))
		}
		if err := s.readOnlySequence("setval", seq); err != nil {
			return nil, s.failed(err)
		}
		if err := s.untracked(func() error { return s.setval(ctx, seq, v, called) }); err != nil {
			return nil, s.failed(err)
		}
		if called {
			s.seqs.record(seq, v, false) // the session's currval (not lastval's sequence)
		}
		out.rows = append(out.rows, []any{v})
	}
	return out, nil
}

// setval makes v the last value of sequence seq (a name as PostgreSQL
// reads it), or, when called is false, the value its next nextval
// returns.
func (s *Session) setval(ctx context.Context, seq string, v int64, called bool) error {
	name, where := sequenceWhere(seq)
	var last, start, inc, lo, hi any
	found := false
	err := s.queryRows(ctx, "SELECT last_value, start_value, increment_by, min_value, max_value FROM duckdb_sequences() WHERE "+where,
		func(row []any) {
			if !found {
				last, start, inc, lo, hi, found = row[0], row[1], row[2], row[3], row[4], true
			}
		})
	if err != nil {
		return err
	}
	if !found {
		return vsqlerr.New(vsqlerr.SequenceNotFound, "relation %q does not exist", seq)
	}
	step, _ := pgwire.ToInt64(inc)
	if step == 0 {
		return vsqlerr.New(vsqlerr.Internal, "sequence %q has increment 0", seq)
	}
	min, _ := pgwire.ToInt64(lo)
	max, _ := pgwire.ToInt64(hi)
	if v < min || v > max {
		return vsqlerr.New(vsqlerr.SequenceOutOfBounds, "setval: value %d is out of bounds for sequence %q (%d..%d)", v, seq, min, max)
	}
	current, ok := pgwire.ToInt64(last)
	if !ok { // never called: the first nextval returns the start value
		first, _ := pgwire.ToInt64(start)
		current = first - step
	}
	target := v
	if !called {
		target = v - step
	}
	diff := target - current
	n := diff / step
	if diff != 0 && (diff < 0) != (step < 0) || diff%step != 0 || n > maxSetvalSteps {
		// back, or not a whole number of increments ahead, or far ahead:
		// the sequence is made anew at the value (sequenceremake.go)
		q, found, err := s.readSequence(ctx, seq)
		if err != nil {
			return err
		}
		if !found {
			return vsqlerr.New(vsqlerr.SequenceNotFound, "relation %q does not exist", seq)
		}
		return s.remakeSequence(ctx, q, q.params, sequencePosition{value: v, called: called})
	}
	if n == 0 {
		return nil
	}
	// (through Prepare: the branch's gate and the caller's privileges, as
	// nextval itself)
	return s.runText(ctx, fmt.Sprintf("SELECT max(nextval(%s)) FROM range(%d)", sqltext.QuoteString(name), n))
}

// prepareSequenceOwnedBy accepts ALTER SEQUENCE name OWNED BY t.c | NONE
// (and nothing else) for a sequence that exists: ownership is not
// recorded (DROP TABLE leaves the sequence).
func (s *Session) prepareSequenceOwnedBy(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	toks, sql := st.Tokens(), st.SQL
	if st.Keyword(0) != "ALTER" || st.Keyword(1) != "SEQUENCE" {
		return nil, false, nil
	}
	end := len(toks)
	if toks[end-1].Kind == sqltext.Semi {
		end--
	}
	k := 2
	nameStart := k
	for k < end && (toks[k].Kind == sqltext.Word || toks[k].Kind == sqltext.Quoted) {
		k++
		if k < end && sql[toks[k].Start:toks[k].End] == "." {
			k++
			continue
		}
		break
	}
	if k+2 >= end || !strings.EqualFold(sql[toks[k].Start:toks[k].End], "owned") ||
		!strings.EqualFold(sql[toks[k+1].Start:toks[k+1].End], "by") {
		return nil, false, nil
	}
	for j := k + 2; j < end; j++ {
		if t := toks[j]; t.Kind != sqltext.Word && t.Kind != sqltext.Quoted && sql[t.Start:t.End] != "." {
			return nil, false, nil
		}
	}
	seq := sql[toks[nameStart].Start:toks[k-1].End]
	_, where := sequenceWhere(seq)
	if s.queryString(ctx, "SELECT sequence_name FROM duckdb_sequences() WHERE "+where) == "" {
		return nil, true, vsqlerr.New(vsqlerr.SequenceNotFound, "relation %q does not exist", seq)
	}
	return &warningStatement{sess: s, tag: "ALTER SEQUENCE"}, true, nil
}

// sequenceWhere reads a sequence's name as PostgreSQL does (quoted parts
// keep their case, schema public is main) and returns it as DuckDB's
// nextval takes it and the condition on duckdb_sequences() that finds it.
func sequenceWhere(seq string) (name, where string) {
	name = pgcompat.PublicToMain(seq)
	parts := pgcompat.SplitQualified(name)
	for i, p := range parts {
		parts[i] = sqltext.UnquoteIdent(p)
	}
	return name, catalogWhere("sequence_name", parts)
}
