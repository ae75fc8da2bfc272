package server

import (
	"context"
	"database/sql/driver"
	"fmt"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// ServerVersion is reported as server_version: PostgreSQL 15 form, so that
// clients (psql above all) pick their PostgreSQL 15 catalog queries.
const ServerVersion = "15.0 (vsql 0.1)"

// Session is one client session: its own DuckDB connection, whose default
// catalog is the connected database.
type Session struct {
	srv     *Server
	target  Target
	dbname  string
	conn    *duckdb.Conn
	pid     uint32
	secret  []byte
	params  map[string]string
	notices []*vsqlerr.Error

	// tx is the transaction state reported in ReadyForQuery.
	tx byte

	runMu  sync.Mutex
	cancel context.CancelFunc // of the running statement, nil when idle
}

func (s *Server) newSession(ctx context.Context, target Target, dbname string, params map[string]string) (*Session, error) {
	dc, err := s.engine.Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect to DuckDB: %w", err)
	}
	conn := dc.(*duckdb.Conn)
	for _, q := range []string{
		"USE " + sqltext.QuoteIdent(target.Database),
		"SET TimeZone = 'UTC'",
	} {
		if _, err := conn.ExecContext(ctx, q, nil); err != nil {
			conn.Close()
			return nil, fmt.Errorf("start session: %s: %w", q, err)
		}
	}
	pid, secret := s.newKey()
	sess := &Session{srv: s, target: target, dbname: dbname, conn: conn, pid: pid, secret: secret, params: params, tx: 'I'}
	s.sessMu.Lock()
	s.sessions[pid] = sess
	s.sessMu.Unlock()
	return sess, nil
}

// BackendKey implements pgwire.Session.
func (s *Session) BackendKey() (uint32, []byte) { return s.pid, s.secret }

// ParameterStatus implements pgwire.Session.
func (s *Session) ParameterStatus() [][2]string {
	return [][2]string{
		{"server_version", ServerVersion},
		{"server_encoding", "UTF8"},
		{"client_encoding", "UTF8"},
		{"DateStyle", "ISO, MDY"},
		{"TimeZone", "UTC"},
		{"IntervalStyle", "postgres"},
		{"integer_datetimes", "on"},
		{"standard_conforming_strings", "on"},
		{"is_superuser", "on"},
		{"session_authorization", s.params["user"]},
		{"application_name", s.params["application_name"]},
	}
}

// TxStatus implements pgwire.Session.
func (s *Session) TxStatus() byte { return s.tx }

// TakeNotices implements pgwire.Session.
func (s *Session) TakeNotices() []*vsqlerr.Error {
	n := s.notices
	s.notices = nil
	return n
}

func (s *Session) notice(code vsqlerr.Code, sqlstate, format string, args ...any) {
	n := vsqlerr.New(code, format, args...)
	n.Severity, n.SQLState, n.Hint = "WARNING", sqlstate, ""
	s.notices = append(s.notices, n)
}

// Close implements pgwire.Session.
func (s *Session) Close() {
	if s.tx != 'I' {
		_, _ = s.conn.ExecContext(context.Background(), "ROLLBACK", nil)
	}
	s.conn.Close()
	s.srv.sessMu.Lock()
	delete(s.srv.sessions, s.pid)
	s.srv.sessMu.Unlock()
	s.srv.releaseDatabase(s.target.Database)
}

// running registers ctx's cancel function as the running statement's, so
// that a CancelRequest interrupts exactly this statement.
func (s *Session) running(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	s.runMu.Lock()
	s.cancel = cancel
	s.runMu.Unlock()
	return ctx, func() {
		s.runMu.Lock()
		s.cancel = nil
		s.runMu.Unlock()
		cancel()
	}
}

func (s *Session) cancelRunning() {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
}

// failed records an error: inside a transaction block, it makes the
// transaction failed (DuckDB has rolled its work back already).
func (s *Session) failed(err error) error {
	if err != nil && s.tx == 'T' {
		s.tx = 'E'
	}
	return err
}

// Prepare implements pgwire.Session.
func (s *Session) Prepare(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, error) {
	kind := st.Kind()
	if s.tx == 'E' && kind != sqltext.KindRollback && kind != sqltext.KindCommit {
		return nil, vsqlerr.New(vsqlerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	switch kind {
	case sqltext.KindBegin, sqltext.KindCommit, sqltext.KindRollback:
		return &txStatement{sess: s, st: st}, nil
	case sqltext.KindSavepoint:
		return nil, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "savepoints are not supported").
			WithHint("DuckDB has no savepoints; commit or roll back the whole transaction instead."))
	case sqltext.KindCreateDatabase, sqltext.KindDropDatabase:
		return s.prepareDatabaseStatement(st)
	case sqltext.KindCopy:
		for _, k := range st.Keywords {
			if k == "STDIN" || k == "STDOUT" {
				return nil, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "COPY FROM STDIN and COPY TO STDOUT are not supported yet"))
			}
		}
	}
	return s.prepareDuckDB(ctx, st, paramOIDs)
}

// prepareDuckDB prepares a statement in DuckDB and describes it without
// running it.
func (s *Session) prepareDuckDB(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, error) {
	stmt, err := s.prepareRaw(ctx, st.SQL)
	if err != nil {
		return nil, s.failed(err)
	}
	ds := &duckStatement{sess: s, st: st, stmt: stmt}
	n := stmt.NumInput()
	ds.params = make([]uint32, n)
	for i := 0; i < n; i++ {
		if i < len(paramOIDs) && paramOIDs[i] != 0 {
			ds.params[i] = paramOIDs[i]
			continue
		}
		t, _ := stmt.ParamType(i + 1)
		ds.params[i] = pgwire.ParamOID(t, nil)
	}
	stype, _ := stmt.StatementType()
	if st.ReturnsRows() || returnsRows(stype) {
		ncol, _ := stmt.ColumnCount()
		ds.cols = make([]pgwire.Column, ncol)
		for i := 0; i < ncol; i++ {
			name, _ := stmt.ColumnName(i)
			info, err := stmt.ColumnTypeInfo(i)
			if err != nil {
				info = nil // unresolved until parameters are bound: text
			}
			ds.cols[i] = pgwire.ColumnOf(name, info)
		}
	}
	return ds, nil
}

func (s *Session) prepareRaw(ctx context.Context, query string) (*duckdb.Stmt, error) {
	ds, err := s.conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return ds.(*duckdb.Stmt), nil
}

func returnsRows(t duckdb.StmtType) bool {
	switch t {
	case duckdb.STATEMENT_TYPE_SELECT, duckdb.STATEMENT_TYPE_EXPLAIN, duckdb.STATEMENT_TYPE_PRAGMA,
		duckdb.STATEMENT_TYPE_CALL, duckdb.STATEMENT_TYPE_RELATION:
		return true
	}
	return false
}

// exec runs a fixed statement (no parameters, no rows) on the session's
// connection.
func (s *Session) exec(ctx context.Context, query string) error {
	_, err := s.conn.ExecContext(ctx, query, []driver.NamedValue{})
	return err
}
