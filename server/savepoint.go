package server

import (
	"context"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Savepoints are emulated: DuckDB has none. SAVEPOINT and RELEASE succeed
// inside a transaction block (they only name a point), and ROLLBACK TO
// succeeds when no statement ran since that savepoint — what psqlODBC's
// statement-level rollback and psycopg's nested transaction blocks do when
// nothing fails. A ROLLBACK TO that would have to undo statements cannot be
// honoured: it fails and the whole transaction fails with it, so nothing of
// the block is ever committed by mistake.
type savepointStatement struct {
	noRowsStatement
	sess *Session
	st   sqltext.Statement
}

type savepoint struct {
	name string
	seq  int64 // the session's statement count when it was set
}

func (p *savepointStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := p.sess
	words := p.st.Keywords
	name := savepointName(p.st.SQL)
	if s.txStatus() == 'I' {
		e := vsqlerr.New(vsqlerr.TransactionBlock, "%s can only be used in transaction blocks", words[0]).WithHint("Start a transaction with BEGIN first.")
		e.SQLState = "25P01"
		return nil, e
	}
	switch words[0] {
	case "SAVEPOINT":
		if s.txStatus() == 'E' {
			return nil, vsqlerr.New(vsqlerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
		}
		s.savepoints = append(s.savepoints, savepoint{name: name, seq: s.stmtSeq.Load()})
		return &tagRows{tag: "SAVEPOINT"}, nil
	case "RELEASE":
		i := s.findSavepoint(name)
		if i < 0 {
			return nil, s.failed(noSavepoint(name))
		}
		s.savepoints = s.savepoints[:i]
		return &tagRows{tag: "RELEASE"}, nil
	default: // ROLLBACK TO [SAVEPOINT] name
		i := s.findSavepoint(name)
		if i < 0 {
			return nil, s.failed(noSavepoint(name))
		}
		if s.txStatus() == 'E' || s.stmtSeq.Load() != s.savepoints[i].seq {
			s.setTx('E')
			return nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot roll back to savepoint %q: statements ran since it, and DuckDB cannot undo part of a transaction; the whole transaction is aborted", name).
				WithHint("Roll back the whole transaction (ROLLBACK) and retry it; savepoints only name points here.")
		}
		s.savepoints = s.savepoints[:i+1]
		return &tagRows{tag: "ROLLBACK"}, nil
	}
}

func (s *Session) findSavepoint(name string) int {
	for i := len(s.savepoints) - 1; i >= 0; i-- {
		if s.savepoints[i].name == name {
			return i
		}
	}
	return -1
}

// savepointName is the last word of SAVEPOINT x, RELEASE [SAVEPOINT] x,
// ROLLBACK TO [SAVEPOINT] x (unquoted names fold to lower case).
func savepointName(sql string) string {
	f := strings.Fields(strings.TrimRight(strings.TrimSpace(sql), ";"))
	if len(f) == 0 {
		return ""
	}
	return foldName(f[len(f)-1])
}

// foldName reads a name as PostgreSQL does: quoted as written, unquoted
// folded to lower case.
func foldName(s string) string {
	if strings.HasPrefix(s, `"`) {
		return sqltext.UnquoteIdent(s)
	}
	return strings.ToLower(s)
}

func noSavepoint(name string) error {
	e := vsqlerr.New(vsqlerr.InvalidArgument, "savepoint %q does not exist", name).WithHint("Name a savepoint set earlier in this transaction (SAVEPOINT name).")
	e.SQLState = "3B001"
	return e
}

// serialStatement is a CREATE TABLE with serial or identity columns,
// rewritten for DuckDB (sqltext.RewriteSerial): it creates the columns'
// sequences, then the table, under the branch's gate like any write.
type serialStatement struct {
	noRowsStatement
	sess      *Session
	sequences []string
	create    string
}

func (st *serialStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := st.sess
	for _, q := range append(append([]string{}, st.sequences...), st.create) {
		if err := s.gatedExec(ctx, q); err != nil {
			return nil, s.failed(err)
		}
	}
	s.stmtSeq.Add(1)
	return &tagRows{tag: "CREATE TABLE"}, nil
}

// warningStatement does nothing but warn: a statement vsql accepts for
// compatibility although DuckDB cannot carry it out.
type warningStatement struct {
	noRowsStatement
	sess    *Session
	tag     string
	warning string
}

func (st *warningStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	if st.warning != "" {
		st.sess.notices = append(st.sess.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "01000", Message: st.warning})
	}
	return &tagRows{tag: st.tag}, nil
}

// splitStatement runs one PostgreSQL statement that DuckDB takes only in
// parts as those parts, each through Prepare like any statement, in the
// client's transaction block or in one of its own: all of them or none.
// ALTER TABLE with several actions (one ALTER TABLE per action,
// sqltext.AlterActions), DROP of several objects (one DROP per object,
// sqltext.DropList) and CREATE SCHEMA with elements (the schema, then each
// table, sequence or index in it, sqltext.SchemaElements).
type splitStatement struct {
	noRowsStatement
	sess    *Session
	actions []string
	tag     string
}

func (a *splitStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	err := a.sess.inTransaction(ctx, func() error {
		for _, q := range a.actions {
			if err := a.sess.runText(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &tagRows{tag: a.tag}, nil
}

// inTransaction runs fn in the client's transaction block, or in one of
// its own (committed when fn succeeds, rolled back when it fails).
func (s *Session) inTransaction(ctx context.Context, fn func() error) error {
	own := !s.InTransaction()
	if own {
		if err := s.runText(ctx, "BEGIN"); err != nil {
			return err
		}
	}
	if err := fn(); err != nil {
		if own {
			_ = s.runText(ctx, "ROLLBACK")
		}
		return err
	}
	if own {
		return s.runText(ctx, "COMMIT")
	}
	return nil
}

// runText prepares and runs one statement vsql wrote as if the client had
// sent it, its rows (if any) discarded.
func (s *Session) runText(ctx context.Context, query string) error {
	stmt, err := s.Prepare(ctx, sqltext.Parse(query), nil)
	if err != nil {
		return err
	}
	defer stmt.Close()
	rows, err := stmt.Execute(ctx, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	var vals []any
	if cols := stmt.Columns(); cols != nil {
		vals = make([]any, len(cols))
	}
	for rows.Next(vals) {
	}
	return rows.Err()
}
