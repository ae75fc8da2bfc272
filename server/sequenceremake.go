package server

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// DuckDB's sequences cannot be altered or moved back, and one that a
// column's DEFAULT calls cannot be dropped or replaced. So ALTER SEQUENCE
// (RESTART, INCREMENT, bounds, CYCLE, AS type), a setval that moves a
// sequence back, and TRUNCATE … RESTART IDENTITY make the sequence anew,
// in one transaction: the defaults that call it are dropped, the
// sequence is replaced (CREATE OR REPLACE SEQUENCE) with the new
// parameters, brought to its position by nextval calls from its start
// when the position is a whole number of increments ahead (else it starts
// at the position itself, which becomes its start value), and the
// defaults are set again.

// sequenceState is a sequence as duckdb_sequences() shows it.
type sequenceState struct {
	database, schema, name string
	temporary              bool
	params                 pgcompat.SequenceParams
	last                   int64
	called                 bool // last is set: nextval has been called
}

// qualified is the sequence's name as SQL text.
func (q sequenceState) qualified() string {
	return sqltext.QuoteIdent(q.database) + "." + sqltext.QuoteIdent(q.schema) + "." + sqltext.QuoteIdent(q.name)
}

// readSequence finds seq (a name as PostgreSQL reads it); found is false
// when there is none.
func (s *Session) readSequence(ctx context.Context, seq string) (q sequenceState, found bool, err error) {
	_, where := sequenceWhere(seq)
	err = s.queryRows(ctx, "SELECT database_name, schema_name, sequence_name, temporary, start_value, min_value, max_value, increment_by, cycle, last_value FROM duckdb_sequences() WHERE "+where,
		func(row []any) {
			if found {
				return
			}
			found = true
			q.database, _ = row[0].(string)
			q.schema, _ = row[1].(string)
			q.name, _ = row[2].(string)
			q.temporary, _ = row[3].(bool)
			q.params.Start, _ = pgwire.ToInt64(row[4])
			q.params.Min, _ = pgwire.ToInt64(row[5])
			q.params.Max, _ = pgwire.ToInt64(row[6])
			q.params.Increment, _ = pgwire.ToInt64(row[7])
			q.params.Cycle, _ = row[8].(bool)
			q.last, q.called = pgwire.ToInt64(row[9])
		})
	return q, found, err
}

// sequencePosition is where a remade sequence stands: after called
// nextval returned value (called), or with value as its next (not called).
type sequencePosition struct {
	value  int64
	called bool
}

// nextvalDefault finds the sequence a column default calls.
var nextvalDefault = regexp.MustCompile(`(?i)nextval\('([^']*)'`)

// remakeSequence replaces sequence q with parameters p standing at pos,
// in the client's transaction block or one of its own.
func (s *Session) remakeSequence(ctx context.Context, q sequenceState, p pgcompat.SequenceParams, pos sequencePosition) error {
	return s.remakeSequenceAs(ctx, q, p, pos, "")
}

// remakeSequenceAs is remakeSequence that, when rename is set, makes the
// sequence under that name (as PostgreSQL folds it) and drops the old
// one, the defaults that called it calling the new one.
func (s *Session) remakeSequenceAs(ctx context.Context, q sequenceState, p pgcompat.SequenceParams, pos sequencePosition, rename string) error {
	type dependent struct{ table, column, def string }
	var deps []dependent
	err := s.queryRows(ctx, "SELECT schema_name, table_name, column_name, column_default FROM duckdb_columns() WHERE database_name = "+
		sqltext.QuoteString(q.database)+" AND column_default ILIKE '%nextval(%'", func(row []any) {
		schema, _ := row[0].(string)
		table, _ := row[1].(string)
		column, _ := row[2].(string)
		def, _ := row[3].(string)
		for _, m := range nextvalDefault.FindAllStringSubmatch(def, -1) {
			parts := pgcompat.SplitQualified(m[1])
			for i, part := range parts {
				parts[i] = sqltext.UnquoteIdent(part)
			}
			n := len(parts)
			if !strings.EqualFold(parts[n-1], q.name) || n >= 2 && !strings.EqualFold(pgcompat.PublicToMain(parts[n-2]), q.schema) ||
				n == 1 && schema != q.schema || n == 3 && !strings.EqualFold(parts[0], q.database) {
				continue
			}
			def = sqltext.UntrackDefault(def)
			if rename != "" {
				// the default calls the sequence by its new name
				ref := sequenceRef(rename)
				if q.schema != "main" {
					ref = sequenceRef(q.schema) + "." + ref
				}
				def = strings.Replace(def, "nextval('"+m[1]+"'", "nextval("+sqltext.QuoteString(ref), 1)
			}
			deps = append(deps, dependent{sqltext.QuoteIdent(q.database) + "." + sqltext.QuoteIdent(schema) + "." + sqltext.QuoteIdent(table), sqltext.QuoteIdent(column), def})
			break
		}
	})
	if err != nil {
		return err
	}
	start, steps := pos.value, int64(0)
	if d := pos.value - p.Start; d%p.Increment == 0 && d/p.Increment >= 0 {
		start, steps = p.Start, d/p.Increment
	}
	if pos.called {
		steps++
	} else if start != p.Start {
		steps = 0
	}
	if steps > maxSetvalSteps {
		start, steps = pos.value, 0
		if pos.called {
			steps = 1
		}
	}
	temp := ""
	if q.temporary {
		temp = "TEMPORARY "
	}
	cycle := "NO CYCLE"
	if p.Cycle {
		cycle = "CYCLE"
	}
	return s.untracked(func() error {
		return s.inTransaction(ctx, func() error {
			for _, d := range deps {
				if err := s.runText(ctx, "ALTER TABLE "+d.table+" ALTER COLUMN "+d.column+" DROP DEFAULT"); err != nil {
					return err
				}
			}
			target, replace := q.qualified(), "OR REPLACE "
			if rename != "" {
				target, replace = sqltext.QuoteIdent(q.database)+"."+sqltext.QuoteIdent(q.schema)+"."+sqltext.QuoteIdent(rename), ""
			}
			if err := s.runText(ctx, fmt.Sprintf("CREATE %s%sSEQUENCE %s INCREMENT BY %d MINVALUE %d MAXVALUE %d START WITH %d %s",
				replace, temp, target, p.Increment, p.Min, p.Max, start, cycle)); err != nil {
				return err
			}
			if steps > 0 {
				if err := s.runText(ctx, fmt.Sprintf("SELECT max(nextval(%s)) FROM range(%d)", sqltext.QuoteString(target), steps)); err != nil {
					return err
				}
			}
			if rename != "" {
				if err := s.runText(ctx, "DROP SEQUENCE "+q.qualified()); err != nil {
					return err
				}
			}
			for _, d := range deps {
				if err := s.runText(ctx, "ALTER TABLE "+d.table+" ALTER COLUMN "+d.column+" SET DEFAULT "+d.def); err != nil {
					return err
				}
			}
			return nil
		})
	})
}

// prepareAlterSequence answers ALTER SEQUENCE with the options
// pgcompat.AlterSequence reads; ok is false for the others.
func (s *Session) prepareAlterSequence(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	a, ok, err := pgcompat.ReadAlterSequence(st)
	if !ok || err != nil {
		return nil, ok, err
	}
	q, found, err := s.readSequence(ctx, a.Name)
	if err != nil {
		return nil, true, err
	}
	if !found {
		if a.IfExists {
			return &warningStatement{sess: s, tag: "ALTER SEQUENCE", notice: fmt.Sprintf("relation %q does not exist, skipping", a.Name)}, true, nil
		}
		return nil, true, vsqlerr.New(vsqlerr.SequenceNotFound, "relation %q does not exist", a.Name)
	}
	if a.NoChange {
		return &warningStatement{sess: s, tag: "ALTER SEQUENCE"}, true, nil
	}
	p, restart, at, err := a.Apply(q.params)
	if err != nil {
		return nil, true, err
	}
	if s.readOnlyTransaction() {
		return nil, true, refuseReadOnly(st)
	}
	pos := sequencePosition{value: p.Start}
	switch {
	case restart:
		pos = sequencePosition{value: at}
	case q.called:
		pos = sequencePosition{value: q.last, called: true}
	}
	return &sequenceRemakeStatement{sess: s, tag: "ALTER SEQUENCE", remakes: []sequenceRemake{{q, p, pos}}}, true, nil
}

// sequenceRemake is one remakeSequence call.
type sequenceRemake struct {
	q   sequenceState
	p   pgcompat.SequenceParams
	pos sequencePosition
}

// sequenceRemakeStatement remakes sequences when executed, after first
// (TRUNCATE's emptying) when set, in one transaction.
type sequenceRemakeStatement struct {
	noRowsStatement
	sess    *Session
	tag     string
	first   pgwire.Statement
	remakes []sequenceRemake
}

func (st *sequenceRemakeStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	err := st.sess.inTransaction(ctx, func() error {
		if st.first != nil {
			rows, err := st.first.Execute(ctx, nil)
			if err != nil {
				return err
			}
			rows.Close()
		}
		for _, r := range st.remakes {
			if err := st.sess.remakeSequence(ctx, r.q, r.p, r.pos); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, st.sess.failed(err)
	}
	return &tagRows{tag: st.tag}, nil
}

// sequenceRef is a sequence's name as a nextval argument: bare when
// PostgreSQL would read it back unchanged, else quoted.
func sequenceRef(name string) string {
	if plainName.MatchString(name) {
		return name
	}
	return sqltext.QuoteIdent(name)
}

var plainName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// prepareSequenceRename answers ALTER SEQUENCE [IF EXISTS] s RENAME TO n,
// and ALTER TABLE s RENAME TO n of a sequence (PostgreSQL renames any
// relation so): DuckDB cannot rename a sequence, so it is made anew
// under the new name at its position (remakeSequenceAs), the defaults
// that call it calling the new one. ok is false for another statement,
// and for ALTER TABLE of what is not a sequence.
func (s *Session) prepareSequenceRename(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == sqltext.Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	end := len(toks)
	if end > 0 && toks[end-1].Kind == sqltext.Semi {
		end--
	}
	asTable := word(1, "table")
	if !word(0, "alter") || !word(1, "sequence") && !asTable || end < 6 || !word(end-3, "rename") || !word(end-2, "to") ||
		toks[end-1].Kind != sqltext.Word && toks[end-1].Kind != sqltext.Quoted {
		return nil, false, nil
	}
	i, ifExists := 2, false
	if word(2, "if") && word(3, "exists") {
		i, ifExists = 4, true
	}
	for k := i; k < end-3; k++ {
		if t := toks[k]; t.Kind != sqltext.Word && t.Kind != sqltext.Quoted && sql[t.Start:t.End] != "." {
			return nil, false, nil
		}
	}
	if i >= end-3 {
		return nil, false, nil
	}
	name := sql[toks[i].Start:toks[end-4].End]
	q, found, err := s.readSequence(ctx, name)
	if err != nil {
		return nil, true, err
	}
	if asTable {
		parts := pgcompat.SplitQualified(pgcompat.PublicToMain(name))
		for k, p := range parts {
			parts[k] = sqltext.UnquoteIdent(p)
		}
		if !found || s.queryString(ctx, "SELECT table_name FROM duckdb_tables()"+tableWhere(parts)) != "" {
			return nil, false, nil // a table (or nothing): DuckDB's answer
		}
	}
	if !found {
		if ifExists {
			return &warningStatement{sess: s, tag: "ALTER SEQUENCE", notice: fmt.Sprintf("relation %q does not exist, skipping", name)}, true, nil
		}
		return nil, true, vsqlerr.New(vsqlerr.SequenceNotFound, "relation %q does not exist", name)
	}
	if s.readOnlyTransaction() {
		return nil, true, refuseReadOnly(st)
	}
	to := sql[toks[end-1].Start:toks[end-1].End]
	if toks[end-1].Kind == sqltext.Quoted {
		to = sqltext.UnquoteIdent(to)
	} else {
		to = strings.ToLower(to)
	}
	pos := sequencePosition{value: q.params.Start}
	if q.called {
		pos = sequencePosition{value: q.last, called: true}
	}
	tag := "ALTER SEQUENCE"
	if asTable {
		tag = "ALTER TABLE"
	}
	return &sequenceRenameStatement{sess: s, tag: tag, q: q, pos: pos, from: name, to: to}, true, nil
}

// sequenceRenameStatement renames a sequence (prepareSequenceRename).
type sequenceRenameStatement struct {
	noRowsStatement
	sess     *Session
	tag      string
	q        sequenceState
	pos      sequencePosition
	from, to string
}

func (st *sequenceRenameStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := st.sess
	if err := s.remakeSequenceAs(ctx, st.q, st.q.params, st.pos, st.to); err != nil {
		return nil, s.failed(err)
	}
	s.seqs.rename(st.from, st.to) // the session's currval follows it
	return &tagRows{tag: st.tag}, nil
}
