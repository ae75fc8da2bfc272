package server

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's data-modifying WITH queries — WITH i AS (INSERT …
// RETURNING …) SELECT … FROM i, WITH d AS (DELETE … RETURNING *) INSERT
// INTO archive SELECT * FROM d (PostgREST and Hasura write every insert
// so) — which DuckDB refuses ("A CTE needs a SELECT"). vsqld runs each
// data-modifying query in turn, keeps its RETURNING rows in a temporary
// table of the session, and runs the main statement with that table in
// the query's place; all in the client's transaction block or in one of
// their own. Unlike PostgreSQL, where every part sees the data as it was
// before the statement, each part sees what the parts before it changed
// (docs/sql.md).

// withTablePrefix names the temporary tables (not __vsql…: the main
// statement, which names them, goes through Prepare's checks).
const withTablePrefix = "_vsql_with_"

// withPart is one data-modifying query: its statement, prepared, and the
// temporary table that holds its RETURNING rows ("" without RETURNING).
type withPart struct {
	stmt  *duckStatement
	table string
	types []string // the table's column types, as DuckDB names them
}

// modifyingWithStatement runs a data-modifying WITH.
type modifyingWithStatement struct {
	sess   *Session
	parts  []withPart
	main   pgwire.Statement
	tables []string
	// shown: the client's statement when vsqld wrote it as a
	// data-modifying WITH (RETURNING with a subquery: prepareReturning):
	// its tag is the statement's (INSERT 0 n), n the rows returned.
	shown *sqltext.Statement
}

// prepareModifyingWith prepares the parts of a data-modifying WITH: each
// data-modifying query with the queries before it, an empty temporary
// table per RETURNING (made by DuckDB with the RETURNING list's own types:
// CREATE TEMP TABLE … AS SELECT <list> FROM <target> LIMIT 0), and the
// main statement reading those tables. ok is false for other statements.
func (s *Session) prepareModifyingWith(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, bool, error) {
	recursive, ctes, main, ok := sqltext.ModifyingWith(st)
	if !ok {
		return nil, false, nil
	}
	w := &modifyingWithStatement{sess: s}
	fail := func(err error) (pgwire.Statement, bool, error) {
		w.Close()
		return nil, true, err
	}
	s.withSeq++
	head := "WITH "
	if recursive {
		head += "RECURSIVE "
	}
	var before []string // the queries so far, as later parts see them
	var silent []string // data-modifying queries without RETURNING
	// A later part naming one of those: PostgreSQL's error (DuckDB's
	// would be a missing table).
	unreturned := func(err error) error {
		for _, name := range silent {
			if strings.Contains(err.Error(), "Table with name "+name+" does not exist") {
				return vsqlerr.Wrap(err, vsqlerr.FeatureNotSupported, "WITH query %q does not have a RETURNING clause", name)
			}
		}
		return err
	}
	with := func(q string) string {
		if len(before) == 0 {
			return q
		}
		return head + strings.Join(before, ", ") + " " + q
	}
	for k, c := range ctes {
		if !c.Modifying {
			before = append(before, c.Head+" AS "+strings.TrimSpace(c.Materialized+" (")+c.Body+")")
			continue
		}
		ps, err := s.Prepare(ctx, sqltext.Parse(with(c.Body)), paramOIDs)
		if err != nil {
			return fail(unreturned(err))
		}
		ds, isDuck := ps.(*duckStatement)
		if !isDuck {
			ps.Close()
			return fail(vsqlerr.New(vsqlerr.FeatureNotSupported, "this data-modifying statement cannot be used in WITH"))
		}
		part := withPart{stmt: ds}
		if c.Returning {
			shape, ok := sqltext.ReturningShape(c.Body)
			if !ok {
				ds.Close()
				return fail(vsqlerr.New(vsqlerr.FeatureNotSupported, "RETURNING of a data-modifying WITH query: only the target table's columns can be returned here").
					WithHint("Return columns (and expressions) of the table the statement changes."))
			}
			part.table = fmt.Sprintf("%s%d_%d", withTablePrefix, s.withSeq, k+1)
			w.tables = append(w.tables, part.table)
			// (through Prepare: the list is translated as the part's is)
			if err := s.runText(ctx, "CREATE OR REPLACE TEMPORARY TABLE "+sqltext.QuoteIdent(part.table)+" AS "+with(shape)+" LIMIT 0"); err != nil {
				ds.Close()
				return fail(err)
			}
			part.types = s.queryStrings(ctx, "SELECT data_type FROM duckdb_columns() WHERE database_name = 'temp' AND table_name = "+
				sqltext.QuoteString(part.table)+" ORDER BY column_index")
			before = append(before, c.Head+" AS (SELECT * FROM "+sqltext.QuoteIdent(part.table)+")")
		}
		if !c.Returning {
			silent = append(silent, sqltext.UnquoteIdent(strings.Fields(strings.SplitN(c.Head, "(", 2)[0])[0]))
		}
		w.parts = append(w.parts, part)
	}
	m, err := s.Prepare(ctx, sqltext.Parse(with(main)), paramOIDs)
	if err != nil {
		return fail(unreturned(err))
	}
	w.main = m
	return w, true, nil
}

func (w *modifyingWithStatement) ParamOIDs() []uint32 {
	oids := w.main.ParamOIDs()
	for _, p := range w.parts {
		if po := p.stmt.ParamOIDs(); len(po) > len(oids) {
			oids = append(append([]uint32(nil), oids...), po[len(oids):]...)
		}
	}
	return oids
}

func (w *modifyingWithStatement) Columns() []pgwire.Column { return w.main.Columns() }

func (w *modifyingWithStatement) Close() {
	for _, p := range w.parts {
		p.stmt.Close()
	}
	if w.main != nil {
		w.main.Close()
	}
	for _, t := range w.tables {
		_ = w.sess.exec(context.Background(), "DROP TABLE IF EXISTS temp.main."+sqltext.QuoteIdent(t))
	}
	w.parts, w.main, w.tables = nil, nil, nil
}

// Execute runs the parts in order, then the main statement; in a
// transaction of its own when none is open, committed after the main
// statement's rows are read (and held: they are sent once it commits).
func (w *modifyingWithStatement) Execute(ctx context.Context, args []any) (pgwire.Rows, error) {
	s := w.sess
	own := !s.InTransaction()
	if own {
		if err := s.runText(ctx, "BEGIN"); err != nil {
			return nil, err
		}
	}
	abort := func(err error) (pgwire.Rows, error) {
		if own {
			_ = s.runText(ctx, "ROLLBACK")
		} else {
			err = s.failed(err)
		}
		return nil, err
	}
	for _, p := range w.parts {
		if err := w.runPart(ctx, p, args); err != nil {
			return abort(err)
		}
	}
	rows, err := w.main.Execute(ctx, argsFor(w.main, args))
	if err != nil {
		return abort(err)
	}
	if !own && w.shown == nil {
		return rows, nil
	}
	held, err := holdRows(rows, len(w.main.Columns()))
	if err != nil {
		return abort(err)
	}
	if w.shown != nil {
		tag := w.shown.Tag(int64(len(held.rows)))
		held.tag = func(int64) string { return tag }
	}
	if !own {
		return held, nil
	}
	if err := s.runText(ctx, "COMMIT"); err != nil {
		return nil, err
	}
	return held, nil
}

// argsFor passes a part the parameters it takes (the first ones: a part
// that names $3 takes three).
func argsFor(st pgwire.Statement, args []any) []any {
	if n := len(st.ParamOIDs()); n < len(args) {
		return args[:n]
	}
	return args
}

// runPart runs one data-modifying query and appends its RETURNING rows
// to its table.
func (w *modifyingWithStatement) runPart(ctx context.Context, p withPart, args []any) error {
	s := w.sess
	rows, err := p.stmt.Execute(ctx, argsFor(p.stmt, args))
	if err != nil {
		return err
	}
	defer rows.Close()
	if p.table == "" {
		for rows.Next(nil) {
		}
		return rows.Err()
	}
	dr, ok := rows.(*duckRows)
	if !ok || dr.rows == nil {
		return vsqlerr.New(vsqlerr.Internal, "the RETURNING rows of a data-modifying WITH query were not read")
	}
	// The appender writes values as the table's types: they must be the
	// rows' own (the same RETURNING list, translated the same way).
	typed, _ := dr.rows.(driver.RowsColumnTypeDatabaseTypeName)
	cols := dr.rows.Columns()
	if typed == nil || len(cols) != len(p.types) {
		return vsqlerr.New(vsqlerr.Internal, "the RETURNING rows of a data-modifying WITH query do not match their table")
	}
	for i := range cols {
		if got := typed.ColumnTypeDatabaseTypeName(i); got != p.types[i] {
			return vsqlerr.New(vsqlerr.Internal, "the RETURNING column %q of a data-modifying WITH query is %s, its table's %s", cols[i], got, p.types[i])
		}
	}
	// All rows are read before anything else runs on the connection:
	// another statement would invalidate DuckDB's open result.
	var all [][]driver.Value
	for {
		vals := make([]driver.Value, len(cols))
		if err := dr.rows.Next(vals); err != nil {
			if !errors.Is(err, io.EOF) {
				return canceled(ctx, err)
			}
			break
		}
		all = append(all, vals)
	}
	rows.Close()
	if err := s.exec(ctx, "DELETE FROM temp.main."+sqltext.QuoteIdent(p.table)); err != nil {
		return err
	}
	// Rows go in through a prepared INSERT (DuckDB converts each value
	// to its column's type), a batch at a time.
	const batch = 256
	for start := 0; start < len(all); start += batch {
		chunk := all[start:min(start+batch, len(all))]
		var q strings.Builder
		q.WriteString("INSERT INTO temp.main." + sqltext.QuoteIdent(p.table) + " VALUES ")
		args := make([]driver.NamedValue, 0, len(chunk)*len(cols))
		for r, vals := range chunk {
			if r > 0 {
				q.WriteString(", ")
			}
			q.WriteByte('(')
			for c, v := range vals {
				if c > 0 {
					q.WriteString(", ")
				}
				args = append(args, driver.NamedValue{Ordinal: len(args) + 1, Value: v})
				fmt.Fprintf(&q, "$%d", len(args))
			}
			q.WriteByte(')')
		}
		if _, err := s.conn.ExecContext(ctx, q.String(), args); err != nil {
			return err
		}
	}
	return nil
}

// heldRows are rows read to the end already (a FETCH's; a statement's
// read before its own transaction commits, since a COMMIT that fails must
// be the statement's error, not follow its CommandComplete).
type heldRows struct {
	rows [][]any
	tag  func(sent int64) string
	next int
}

func (r *heldRows) Next(dst []any) bool {
	if r.next >= len(r.rows) {
		return false
	}
	copy(dst, r.rows[r.next])
	r.next++
	return true
}
func (r *heldRows) Err() error            { return nil }
func (r *heldRows) Tag(sent int64) string { return r.tag(sent) }
func (r *heldRows) Close()                {}

// holdRows reads rows to the end.
func holdRows(rows pgwire.Rows, ncol int) (*heldRows, error) {
	defer rows.Close()
	h := &heldRows{}
	for {
		row := make([]any, ncol)
		if !rows.Next(row) {
			break
		}
		h.rows = append(h.rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	tag := rows.Tag(int64(len(h.rows)))
	h.tag = func(int64) string { return tag }
	return h, nil
}

// prepareReturning prepares INSERT, UPDATE or DELETE … RETURNING with a
// subquery in its list, which DuckDB refuses, as the data-modifying WITH
// pgcompat.ReturningSubquery writes (the list over the RETURNING *
// rows), tagged as the statement. ok is false for other statements.
func (s *Session) prepareReturning(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, bool, error) {
	if !st.Returning {
		return nil, false, nil
	}
	text, ok, readsTarget := pgcompat.ReturningSubquery(st)
	if readsTarget {
		return nil, true, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "a subquery in RETURNING that reads the table the statement changes is not supported").
			WithHint("Run the subquery in a statement of its own before this one (PostgreSQL evaluates it over the table as it was before the statement)."))
	}
	if !ok {
		return nil, false, nil
	}
	with := sqltext.Parse(text)
	with.Offset = st.Offset
	stmt, ok, err := s.prepareModifyingWith(ctx, with, paramOIDs)
	if !ok || err != nil {
		return stmt, ok, err
	}
	if w, isWith := stmt.(*modifyingWithStatement); isWith {
		shown := st
		w.shown = &shown
	}
	return stmt, true, nil
}
