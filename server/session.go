package server

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqlfuncs"
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
	alias   string // the DuckDB catalog the session USEs
	release func() // ends the session's claim on its branch or snapshot
	conn    *duckdb.Conn
	pid     uint32
	secret  []byte
	params  map[string]string
	notices []*vsqlerr.Error
	// cursors are the open SQL cursors (cursor.go), by name.
	cursors map[string]*sqlCursor
	// prepared are the statements of SQL PREPARE (sqlprepare.go)
	prepared map[string]*sqlPrepared
	// offThread runs the statement's heavy vsql_* calls on the session's
	// goroutine rather than in DuckDB's callback (sqlfuncs.OffThread).
	offThread sqlfuncs.OffThread
	// withSeq numbers the data-modifying WITH statements prepared (their
	// temporary tables, withdml.go).
	withSeq int
	// principal is the login (current_user) and its server-wide role, read
	// at startup.
	principal

	// activity is what pg_stat_activity shows of the session (activity.go);
	// waitingGate is true while a statement waits for a branch's gate.
	activity    *activity
	waitingGate atomic.Bool

	// tx is the transaction state (a txState) reported in ReadyForQuery;
	// other goroutines read it (restore checks for open transactions).
	tx atomic.Int32

	runMu  sync.Mutex
	cancel context.CancelFunc // of the running statement, nil when idle
	runCtx context.Context    // of the running statement, nil when idle
	// inQuery: the client's query is being answered (from Active to Idle).
	// cancelPending: a cancel arrived then while no statement ran (the
	// query still being parsed or prepared, or between two steps of one):
	// the query's next statement starts canceled, as PostgreSQL's cancel
	// takes effect at the query's next check. Without it such a cancel was
	// lost, and the statement ran to its end.
	inQuery, cancelPending bool

	notify func(*vsqlerr.Error)

	// savepoints are the emulated ones of the open transaction block;
	// txLog the statements it ran, to run again for ROLLBACK TO
	// (savepoint.go), with the count of commits and the settings it began
	// with; replaying is set while they run again.
	savepoints      []savepoint
	txLog           []txLogEntry
	txLogBytes      int
	txStartChanges  int64
	txStartSettings map[string]string
	replaying       bool

	settings map[string]string // PostgreSQL session settings changed from their defaults
	// txSettings are the values before the open transaction block changed them.
	txSettings map[string]txSetting
	txQueried  bool // a statement reached DuckDB in the open transaction block
	// settingsStale is true when settings changed since they were last
	// copied into the DuckDB variable that current_setting() reads.
	settingsStale bool
	// loginPublished is true once the login's DuckDB variables are set.
	loginPublished bool
	// searchPathSet is true once the session set search_path;
	// searchPathGeneration is the catalogGeneration at which its schemas
	// were last given to DuckDB (searchpath.go).
	searchPathSet        bool
	searchPathGeneration int64
	reports              [][2]string      // ParameterStatus to send after the statement
	location             *time.Location   // TimeZone for timestamptz output (nil = UTC)
	zone                 string           // the TimeZone setting applied ("" = the default, UTC)
	dateOrder            pgdatetime.Order // DateStyle's order of day, month and year
	// enumColumns is the last answer to pgcompat's EnumColumns;
	// catalogChangedInTx: the open transaction block ran a statement that
	// may change a catalog (catalogcache.go).
	enumColumns        *enumColumnsCache
	tableColumns       *tableColumnsCache // pgcompat's TableColumns (catalogcache.go)
	partTrees          *partTrees         // partitioned tables (partition.go)
	domainCache        *domainSet         // domains (domain.go)
	selfRefs           *selfReferences    // tables with a foreign key to themselves (selfref.go)
	catalogChangedInTx bool
	seqs               seqValues // what nextval returned (seqvalues.go)
	droppingOwned      bool      // a DROP TABLE's owned sequences are being dropped (truncate.go)
}

// admin reports whether the session's login has the admin role.
func (s *Session) admin() bool { return s.role == auth.RoleAdmin }

// Warning sends a WARNING to the client at once.
func (s *Session) Warning(message string) {
	if s.notify != nil {
		s.notify(&vsqlerr.Error{Severity: "WARNING", SQLState: "01000", Message: message})
	}
}

// SetNotifier implements pgwire.NoticeSink.
func (s *Session) SetNotifier(notify func(*vsqlerr.Error)) { s.notify = notify }

// Notice implements sqlfuncs.Caller: a NOTICE sent to the client at once.
func (s *Session) Notice(message string) {
	if s.notify != nil {
		n := &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000", Message: message}
		s.notify(n)
	}
}

func (s *Server) newSession(ctx context.Context, target Target, alias string, role auth.Role, params map[string]string, remote net.Addr) (*Session, error) {
	// The connection comes with the session's token set (nextval records
	// its values for the session by it: seqvalues.go), made ahead when a
	// spare is ready (spare.go); TimeZone is the engine's global UTC, the
	// login's variables are set by the first statement that needs them
	// (publishLogin).
	sc := s.takeSpare(alias)
	if sc == nil {
		var err error
		if sc, err = s.makeSessionConn(ctx, alias); err != nil {
			return nil, fmt.Errorf("connect to DuckDB: %w", err)
		}
	}
	conn, pid, secret := sc.conn, sc.pid, sc.secret
	s.syncPGAccessIfUsersChanged(ctx)
	act := newActivity(sc.token, remote)
	if sc.alias != alias { // (DuckDB resolves it by name: spare.go)
		if _, err := conn.ExecContext(ctx, "USE "+sqltext.QuoteIdent(alias), nil); err != nil {
			conn.Close()
			return nil, fmt.Errorf("start session: %w", err)
		}
	}
	sess := &Session{srv: s, target: target, alias: alias, conn: conn, pid: pid, secret: secret, params: params, principal: principal{user: params["user"], role: role},
		activity: act}
	sess.setTx(txIdle)
	// Settings the client sent in its startup packet (pgjdbc sends TimeZone,
	// psql application_name); invalid ones fall back to the defaults.
	for name := range settings {
		if v := sess.initialSetting(name); v != settings[name].def && !settings[name].readOnly {
			if err := sess.applySetting(name, v); err != nil {
				conn.Close()
				return nil, err
			}
		}
	}
	sess.reports = nil
	s.sessMu.Lock()
	s.sessions[pid] = sess
	s.sessMu.Unlock()
	return sess, nil
}

// BackendKey implements pgwire.Session.
func (s *Session) BackendKey() (uint32, []byte) { return s.pid, s.secret }

// ParameterStatus implements pgwire.Session.
func (s *Session) ParameterStatus() [][2]string {
	out := [][2]string{}
	for _, name := range []string{"server_version", "server_encoding", "client_encoding", "datestyle", "timezone", "intervalstyle",
		"integer_datetimes", "standard_conforming_strings", "is_superuser", "application_name"} {
		out = append(out, [2]string{canonical(name), s.settingValue(name)})
	}
	return append(out, [2]string{"session_authorization", s.params["user"]})
}

// TxStatus implements pgwire.Session.
func (s *Session) TxStatus() byte { return byte(s.txStatus()) }

// txState is a session's transaction state, as ReadyForQuery reports it.
type txState byte

const (
	txIdle   txState = 'I' // no transaction block
	txOpen   txState = 'T' // in a transaction block
	txFailed txState = 'E' // in a transaction block a statement failed in
)

func (s *Session) txStatus() txState { return txState(s.tx.Load()) }
func (s *Session) setTx(b txState) {
	s.tx.Store(int32(b))
	if b == txIdle {
		s.savepoints = nil
		s.txLog, s.txLogBytes = nil, 0
		s.closeCursors(true) // the block ended: only WITH HOLD cursors stay
	}
}

// Database implements sqlfuncs.Caller.
func (s *Session) Database() string { return s.target.Database }

// Branch implements sqlfuncs.Caller: "" for a session on a snapshot.
func (s *Session) Branch() string {
	if s.target.Snapshot != "" {
		return ""
	}
	if s.target.Branch == "" {
		return "main"
	}
	return s.target.Branch
}

// StatementContext implements sqlfuncs.Caller.
func (s *Session) StatementContext() context.Context {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	return s.runCtx
}

// OffThread lets sqlfuncs defer heavy calls to the session (see
// duckStatement.execute).
func (s *Session) OffThread() *sqlfuncs.OffThread { return &s.offThread }

// InTransaction implements sqlfuncs.Caller.
func (s *Session) InTransaction() bool { return s.txStatus() != txIdle }

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
	s.closeCursors(false)
	if s.txStatus() != txIdle {
		_, _ = s.conn.ExecContext(context.Background(), "ROLLBACK", nil)
	}
	s.conn.Close()
	pgcompat.SessionZone(s.zone, "")
	pgcompat.SessionDateOrder(s.dateOrder, pgdatetime.MDY)
	s.srv.sessMu.Lock()
	delete(s.srv.sessions, s.pid)
	s.srv.sessMu.Unlock()
	if s.release != nil {
		s.release()
	}
	s.srv.refillSpare(s.alias)
}

// running registers ctx's cancel function as the running statement's, so
// that a CancelRequest interrupts exactly this statement.
func (s *Session) running(ctx context.Context) (context.Context, func()) {
	var cancel context.CancelFunc
	ctx, tracked := s.srv.workers.TrackContext(ctx)
	if d := s.statementTimeout(); d > 0 {
		ctx, cancel = context.WithTimeout(ctx, d) // statement_timeout
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	s.runMu.Lock()
	s.cancel, s.runCtx = cancel, ctx
	if s.cancelPending {
		s.cancelPending = false
		cancel()
	}
	s.runMu.Unlock()
	return ctx, func() {
		tracked()
		s.runMu.Lock()
		s.cancel, s.runCtx = nil, nil
		s.runMu.Unlock()
		cancel()
	}
}

func (s *Session) cancelRunning() {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if s.cancel != nil {
		s.cancel()
	} else if s.inQuery {
		s.cancelPending = true
	}
}

// answering marks the span of a client's query for cancelRunning: from
// Active (true) to Idle (false). A cancel pending from the last query
// never carries over to the next one.
func (s *Session) answering(active bool) {
	s.runMu.Lock()
	s.inQuery, s.cancelPending = active, false
	s.runMu.Unlock()
}

// failed records an error: inside a transaction block, it makes the
// transaction failed (DuckDB has rolled its work back already).
func (s *Session) failed(err error) error {
	if err != nil && s.txStatus() == txOpen {
		s.setTx(txFailed)
	}
	return err
}

// Prepare implements pgwire.Session.
func (s *Session) Prepare(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, error) {
	kind := st.Kind()
	if s.txStatus() == txFailed && kind != sqltext.KindRollback && kind != sqltext.KindCommit && !(kind == sqltext.KindSavepoint && st.Keyword(0) == "ROLLBACK") {
		return nil, vsqlerr.New(vsqlerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
	}
	// What clients may reach (guard.go): judged on the text as the client
	// wrote it, before vsql or DuckDB prepares anything.
	if err := s.guard(st); err != nil {
		return nil, s.failed(err)
	}
	if junk, ok := sqltext.TrailingJunk(st); ok {
		// 123abc: PostgreSQL 15's lexer refuses it, DuckDB reads 123 AS abc
		what := "numeric literal"
		if strings.HasPrefix(junk, "$") {
			what = "parameter"
		}
		return nil, s.failed(vsqlerr.New(vsqlerr.SyntaxError, "trailing junk after %s at or near %q", what, junk).
			WithHint("Separate the number from the word that follows it (123 AS abc); PostgreSQL 15 does not read 1_000 either."))
	}
	if st.Keyword(0) == "DROP" && st.Keyword(1) == "SEQUENCE" {
		s.forgetDropped(st)
	}
	if st.Keyword(0) == "CREATE" && st.Keyword(2) == "SEQUENCE" {
		s.noteCreated(st.SQL) // CREATE TEMP SEQUENCE
	}
	if stmt, ok := s.prepareDiscardSequences(st); ok {
		return stmt, nil
	}
	switch kind {
	case sqltext.KindBegin, sqltext.KindCommit, sqltext.KindRollback:
		return &txStatement{sess: s, st: st}, nil
	case sqltext.KindSavepoint:
		return &savepointStatement{sess: s, st: st}, nil
	case sqltext.KindCreateDatabase, sqltext.KindDropDatabase:
		return s.prepareDatabaseStatement(st)
	}
	if err := s.applySearchPath(ctx); err != nil {
		return nil, s.failed(err)
	}
	if actions, ok := sqltext.AlterActions(st); ok {
		return &splitStatement{sess: s, actions: actions, tag: "ALTER TABLE"}, nil
	}
	if st.Keyword(0) == "ALTER" {
		if stmt, ok, err := s.prepareSequenceRename(ctx, st); ok || err != nil {
			return stmt, s.failed(err)
		}
		if stmt, ok, err := s.prepareAlterTable(ctx, st); ok {
			return stmt, err
		}
	}
	if drops, tag, ok := sqltext.DropList(st); ok {
		if tag == "DROP TABLE" {
			// referencing tables first: DuckDB refuses to drop a table
			// another table's foreign key references
			ordered, err := s.referencingFirst(ctx, drops)
			if err != nil {
				return nil, s.failed(err)
			}
			drops = ordered
		}
		return &splitStatement{sess: s, actions: drops, tag: tag}, nil
	}
	if st.Keyword(0) == "DROP" && st.Keyword(1) == "TABLE" && !s.droppingOwned {
		// the sequences of its serial columns go with the table
		if stmt, ok, err := s.prepareDropOwned(ctx, st); ok || err != nil {
			return stmt, s.failed(err)
		}
	}
	if stmt, ok := s.prepareAlterEnum(st); ok {
		return stmt, nil
	}
	if kw := st.Keyword(0); kw == "CREATE" || kw == "ALTER" || kw == "DROP" || kw == "COMMENT" {
		// domains (domain.go): their DDL, and the columns of a domain
		// type that CREATE TABLE declares
		if stmt, ok, err := s.prepareDomainDDL(ctx, st); ok || err != nil {
			return stmt, s.failed(err)
		}
		if kw == "CREATE" {
			expanded, ok, err := s.domainColumns(ctx, st)
			if err != nil {
				return nil, s.failed(err)
			}
			if ok {
				st = expanded
			}
		}
		if stmt, ok, err := s.preparePartitionDDL(ctx, st); ok || err != nil {
			return stmt, s.failed(err)
		}
	}
	if st.Keyword(0) == "INSERT" {
		if stmt, ok := s.prepareSelfReferencingInsert(ctx, st); ok {
			return stmt, nil
		}
	}
	if stmt, ok, err := s.prepareExtension(st); ok || err != nil {
		return stmt, s.failed(err)
	}
	if kind, name, ifExists, ok := dropNeverCreated(st); ok {
		return &dropNeverCreatedStatement{sess: s, kind: kind, name: name, ifExists: ifExists}, nil
	}
	if parts, ok := sqltext.SchemaElements(st); ok {
		return &splitStatement{sess: s, actions: parts, tag: "CREATE SCHEMA"}, nil
	}
	if stmt, ok, err := s.prepareCursorStatement(ctx, st, paramOIDs); ok || err != nil {
		return stmt, s.failed(err)
	}
	if stmt, ok, err := s.prepareSQLPrepared(ctx, st); ok || err != nil {
		return stmt, s.failed(err)
	}
	if stmt, ok, err := s.prepareCurrentOf(ctx, st, paramOIDs); ok || err != nil {
		return stmt, err // (the statement went through Prepare, or failed)
	}
	if stmt, ok, err := s.prepareSetting(st); ok || err != nil {
		return stmt, s.failed(err)
	}
	if stmt, ok, err := s.prepareVsqlSetting(st); ok || err != nil {
		return stmt, s.failed(err)
	}
	if stmt, ok := s.prepareSchemaGrant(st); ok {
		return stmt, nil
	}
	if stmt, ok, err := s.prepareSetval(ctx, st, paramOIDs); ok || err != nil {
		return stmt, err // (the argument query went through Prepare)
	}
	if stmt, ok, err := s.prepareAlterSequence(ctx, st); ok || err != nil {
		if err != nil {
			return nil, s.failed(err)
		}
		return stmt, nil
	}
	if stmt, ok, err := s.prepareSequenceOwnedBy(ctx, st); ok || err != nil {
		return stmt, s.failed(err)
	}
	switch st.Keyword(0) {
	case "ATTACH", "DETACH", "USE":
		// vsql attaches every branch and snapshot itself (each live file under
		// exactly one name); a client's ATTACH, DETACH or USE would break that.
		return nil, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "%s is managed by vsql", st.Keyword(0)).
			WithHint("Connect with dbname db, db/branch or db@snapshot, and read other versions by qualified name (\"db/branch\".table)."))
	}
	if kind == sqltext.KindCopy {
		// COPY … FROM STDIN / TO STDOUT; COPY of server files goes to DuckDB.
		if stmt, ok, err := s.prepareCopy(ctx, st); ok || err != nil {
			return stmt, s.failed(err)
		}
	}
	scan := sqltext.ScanStatement(st)
	if scan.Reserved {
		return nil, s.failed(vsqlerr.New(vsqlerr.ReservedName, "names starting with __vsql are reserved"))
	}
	// Privileges: read on every version the statement names, before
	// anything is attached; write is checked once DuckDB has classified
	// the statement.
	if err := s.checkAll(ctx, s.statementNeeds(scan, false)); err != nil {
		return nil, s.failed(err)
	}
	for _, alias := range scan.Catalogs {
		// "retail/dev".t and "retail@4".t: attach on first use.
		if err := s.srv.versions.EnsureAttached(ctx, alias); err != nil {
			return nil, s.failed(err)
		}
	}
	st, err := s.onConstraint(ctx, st)
	if err != nil {
		return nil, s.failed(err)
	}
	if multi, ok, err := pgcompat.MultiColumnSubquery(st); ok {
		if err != nil {
			return nil, s.failed(err)
		}
		st = multi // SET (a, b) = (SELECT …)
	}
	if stars, ok, err := pgcompat.RowStars(st, s.tableColumnsFunc(ctx)); ok {
		if err != nil {
			return nil, s.failed(err)
		}
		st = stars // i.* = excluded.*, ROW(v.*)
	}
	if stmt, ok, err := s.prepareModifyingWith(ctx, st, paramOIDs); ok || err != nil {
		return stmt, err // (each part went through Prepare)
	}
	if stmt, ok, err := s.prepareReturning(ctx, st, paramOIDs); ok || err != nil {
		return stmt, err // RETURNING with a subquery, as a data-modifying WITH
	}
	if stmt, ok, err := s.prepareTruncate(ctx, st, scan); ok || err != nil {
		return stmt, s.failed(err)
	}
	if kw := st.Keyword(0); kw == "CREATE" || kw == "ALTER" {
		for _, w := range pgcompat.NumericWarnings(st) {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "01000", Message: w})
		}
	}
	// PostgreSQL's SQL as DuckDB runs it: names, semantics, literals
	// (package pgcompat, one entry point).
	if scan.CallsVsql {
		s.catalogChanged() // (a merge or checkout may change tables)
	}
	sess := pgcompat.Session{Order: s.dateOrder, Location: s.location, EnumColumns: s.enumColumnsFunc(ctx), ArrayColumns: s.arrayColumnsFunc(ctx),
		TableColumns: s.tableColumnsFunc(ctx), Domains: s.domainsFunc(ctx)}
	tr := pgcompat.TranslateIn(st, scan.CallsVsql, sess)
	if tr.Err != nil {
		return nil, s.failed(tr.Err)
	}
	st = tr.Statement
	switch st.Keyword(0) {
	case "INSERT", "UPDATE", "DELETE":
		// writes to a partitioned table or a partition (partitiondml.go)
		if st, err = s.partitionRewrite(ctx, st, sess); err != nil {
			return nil, s.failed(err)
		}
	case "SELECT":
		if st, err = s.partitionTableoid(ctx, st, sess); err != nil {
			return nil, s.failed(err)
		}
	}
	if tr.Catalogs {
		if err := s.publishSettings(ctx, st.SQL); err != nil {
			return nil, s.failed(err)
		}
		if err := s.publishLogin(ctx, st.SQL); err != nil {
			return nil, s.failed(err)
		}
	}
	if kw := st.Keyword(0); kw == "CREATE" || kw == "ALTER" {
		s.catalogChanged()
		var stmt pgwire.Statement
		var err error
		if stmt, st, err = s.prepareDDLText(ctx, st, scan); stmt != nil || err != nil {
			return stmt, err
		}
	}
	// ON CONFLICT … DO UPDATE with a subquery: DuckDB's MERGE (upsert.go)
	ds, merged, err := s.prepareUpsertMerge(sqlfuncs.WithCaller(ctx, s), st, sess, paramOIDs)
	if !merged {
		ds, err = s.prepareDuckDB(sqlfuncs.WithCaller(ctx, s), st, paramOIDs)
	}

	if n, ok := pgcompat.FewerValues(err); ok {
		// INSERT INTO t VALUES (1): PostgreSQL fills the other columns
		// with their defaults; DuckDB wants a column list for that.
		if withList, ok := s.insertFirstColumns(ctx, st, n); ok {
			if s.txStatus() == txFailed {
				s.setTx(txOpen) // the failed attempt only prepared
			}
			st = withList
			ds, err = s.prepareDuckDB(sqlfuncs.WithCaller(ctx, s), st, paramOIDs)
		}
	}
	if err != nil {
		return nil, err
	}
	if st.Keyword(0) == "INSERT" && !merged {
		ds.upsertCheck = s.prepareUpsertCheck(ctx, st, paramOIDs)
	}
	stype, _ := ds.stmt.StatementType()
	if err := s.guardPrepared(stype); err != nil {
		ds.Close()
		return nil, s.failed(err)
	}
	switch stype {
	case duckdb.STATEMENT_TYPE_CREATE, duckdb.STATEMENT_TYPE_ALTER, duckdb.STATEMENT_TYPE_DROP, duckdb.STATEMENT_TYPE_ATTACH,
		duckdb.STATEMENT_TYPE_DETACH, duckdb.STATEMENT_TYPE_LOAD, duckdb.STATEMENT_TYPE_MULTI:
		ds.changesCatalog = true
	}
	ds.changesCatalog = ds.changesCatalog || scan.CallsVsql
	if ds.changesCatalog {
		s.catalogChanged()
	}
	writes := writesData(stype, st)
	if writes && stype != duckdb.STATEMENT_TYPE_PREPARE && s.readOnlyTransaction() {
		ds.Close()
		return nil, s.failed(refuseReadOnly(st))
	}
	if s.txStatus() != txIdle {
		s.txQueried = true
	}
	ds.needs = s.statementNeeds(scan, writes)
	if err := s.checkAll(ctx, ds.needs); err != nil {
		ds.Close()
		return nil, s.failed(err)
	}
	// Statements hold the gates of the branches they touch: the session's
	// own, and branches named by qualified name ("retail/dev".t). Statements
	// that call vsql_* functions run without gates: the functions take them
	// (a snapshot takes its branch's exclusively).
	if !scan.CallsVsql {
		ds.gates = s.gatesOf(scan)
	} else {
		ds.chunky = false // vsql_* calls take gates and run statements of their own
	}
	return ds, nil
}

// prepareDDLText runs the text steps for CREATE and ALTER statements that
// DuckDB would refuse or get wrong: a statement vsql answers itself, or st
// as DuckDB should prepare it.
func (s *Session) prepareDDLText(ctx context.Context, st sqltext.Statement, scan sqltext.Scan) (pgwire.Statement, sqltext.Statement, error) {
	if likes, ok := pgcompat.CreateTableLike(st); ok {
		// CREATE TABLE t (LIKE s …): s's columns written out (altertable.go)
		expanded, err := s.expandLike(ctx, st, likes)
		if err != nil {
			return nil, st, s.failed(err)
		}
		st = expanded
	}
	if sqltext.IsAddForeignKey(st.SQL) {
		// DuckDB cannot add a foreign key to an existing table; ORMs add
		// theirs this way after CREATE TABLE. Accepted with a warning.
		return &warningStatement{sess: s, tag: "ALTER TABLE", warning: "foreign keys cannot be added to an existing table (DuckDB); the constraint was not created and is not enforced"}, st, nil
	}
	if rewritten, removed, ok := sqltext.StripForeignKeyActions(st.SQL); ok {
		offset := st.Offset
		st = sqltext.Parse(rewritten)
		st.Offset = offset
		if len(removed) > 0 {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "01000",
				Message: "DuckDB's foreign keys take no actions: " + strings.Join(removed, ", ") + " removed; the key is enforced as NO ACTION"})
		}
	}
	if parts, asView, ok := sqltext.AlterTableOnView(st.SQL); ok && s.isView(ctx, parts) {
		offset := st.Offset
		st = sqltext.Parse(asView)
		st.Offset = offset
	}
	if table, column, typ, ok := sqltext.AlterColumnType(st.SQL); ok && s.sameColumnType(ctx, table, column, typ) {
		// ORMs "change" a column to the type it has (GORM's text for a
		// VARCHAR): a no-op here, where DuckDB would refuse an indexed one.
		return &warningStatement{sess: s, tag: "ALTER TABLE"}, st, nil
	}
	// CREATE [OR REPLACE] VIEW: temporary when it reads temporary tables,
	// and a replacement keeps the view's columns (viewddl.go)
	var err error
	if st, err = s.prepareViewDefinition(ctx, st); err != nil {
		return nil, st, s.failed(err)
	}
	if seqs, rewritten, ok := sqltext.RewriteSerial(st.SQL); ok {
		if err := s.checkAll(ctx, s.statementNeeds(scan, true)); err != nil {
			return nil, st, s.failed(err)
		}
		// serial / identity columns: their sequences are created first.
		return &serialStatement{sess: s, sequences: seqs, create: rewritten}, st, nil
	}
	return nil, st, nil
}

// gatesOf lists the gates a statement holds while it runs: the session's
// own branch and the branches and snapshot images it names by qualified
// name ("db/dev".t, "db@4".t; deleting a snapshot waits for statements
// reading its image), in one sorted order for everyone (no lock cycles).
func (s *Session) gatesOf(scan sqltext.Scan) []string {
	var gates []string
	if s.target.Snapshot == "" {
		gates = append(gates, s.alias)
	}
	for _, alias := range scan.Catalogs {
		if _, branch, snapshot, ok := branches.ParseAlias(alias); ok && (branch != "" || snapshot != "") && alias != s.alias {
			gates = append(gates, alias)
		}
	}
	sort.Strings(gates)
	return gates
}

// prepareDuckDB prepares a statement in DuckDB and describes it without
// running it.
func (s *Session) prepareDuckDB(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (*duckStatement, error) {
	return s.prepareDuckDBAs(ctx, st, nil, paramOIDs)
}

// prepareDuckDBAs is prepareDuckDB of st standing for the statement
// shown (non-nil): the client's, whose kind decides whether rows are
// returned and the command tag (an upsert run as MERGE: upsert.go).
func (s *Session) prepareDuckDBAs(ctx context.Context, st sqltext.Statement, shown *sqltext.Statement, paramOIDs []uint32) (*duckStatement, error) {
	stmt, err := s.prepareRaw(ctx, st.SQL)
	if err != nil {
		if again, fixed, ok := s.prepareMoney(ctx, st, err); ok {
			stmt, st, err = again, fixed, nil
		}
	}
	if err != nil {
		return nil, s.failed(err)
	}
	ds := &duckStatement{sess: s, st: st, stmt: stmt, heavy: sqlfuncs.MayCallHeavy(st.SQL), shown: shown}
	returns := func() bool {
		if shown != nil {
			return shown.ReturnsRows()
		}
		return st.ReturnsRows()
	}
	n := stmt.NumInput()
	ds.params = make([]uint32, n)
	var unresolved, declared []bool
	for i := 0; i < n; i++ {
		t, _ := stmt.ParamType(i + 1)
		if t == duckdb.TYPE_INVALID && unresolved == nil {
			unresolved, declared = make([]bool, n), make([]bool, n)
		}
		if i < len(paramOIDs) && paramOIDs[i] != 0 {
			ds.params[i] = paramOIDs[i]
			if t == duckdb.TYPE_INVALID {
				declared[i] = true
			}
			continue
		}
		ds.params[i] = pgwire.ParamOID(t, nil)
		if t == duckdb.TYPE_INVALID {
			unresolved[i] = true
		}
	}
	if unresolved != nil {
		// paraminfer.go: n + $1 takes n's type, prepared again with the cast
		if typed, ok := s.inferParamTypes(ctx, st, ds.params, unresolved, declared); ok {
			if again, err := s.prepareRaw(ctx, typed.SQL); err == nil {
				_ = stmt.Close()
				stmt, ds.stmt, ds.st, st = again, again, typed, typed
			}
		}
	}
	stype, _ := stmt.StatementType()
	if unresolved != nil && (returns() || returnsRows(stype)) {
		if typed, ok := castUnresolved(st, stmt, ds.params, paramOIDs); ok {
			if again, err := s.prepareRaw(ctx, typed.SQL); err == nil {
				_ = stmt.Close()
				stmt, ds.stmt, ds.st, st = again, again, typed, typed
			}
		}
	}
	if returns() || returnsRows(stype) {
		ncol, _ := stmt.ColumnCount()
		ds.cols = make([]pgwire.Column, ncol)
		// SELECT streams. INSERT/UPDATE/DELETE … RETURNING take the row
		// path, except when it cannot read a column (RETURNING (a, b), a
		// struct without field names): then chunks, materialized.
		writes := stype == duckdb.STATEMENT_TYPE_INSERT || stype == duckdb.STATEMENT_TYPE_UPDATE || stype == duckdb.STATEMENT_TYPE_DELETE
		ds.chunky = (stype == duckdb.STATEMENT_TYPE_SELECT || writes) && ncol > 0
		types, err := duckstream.StatementColumns(stmt)
		ds.chunky = ds.chunky && err == nil && len(types) == ncol
		unreadable := false
		for i := 0; i < ncol; i++ {
			name, _ := stmt.ColumnName(i)
			name = postgresColumnName(name)
			info, err := stmt.ColumnTypeInfo(i)
			if err != nil {
				// Unresolved until parameters are bound, or a struct
				// with unnamed fields (row(1, 2)): text.
				info = nil
				unreadable = unreadable || i < len(types) && types[i].Type != duckdb.TYPE_INVALID
			}
			ds.cols[i] = pgwire.ColumnOf(name, info)
			ds.chunky = ds.chunky && pgwire.ChunkColumn(types[i], &ds.cols[i])
		}
		if noColumns(ds.cols) {
			// SELECT FROM t: PostgreSQL's result of no columns
			ds.cols, ds.chunky = []pgwire.Column{}, false
		}
		if writes {
			ds.chunky = ds.chunky && unreadable
			ds.materialize = ds.chunky
		}
	}
	return ds, nil
}

// prepareMoney prepares again a statement DuckDB refused (err) for
// money's sake (pgcompat/money.go) or interval's: sum over money or
// interval (pgcompat/intervalsum.go), which DuckDB's sum has no overload of (the plain calls at once, then the others one at a
// time, each kept unless it was no sum over money), and a number the
// rewrite unquoted beside money in + or - (quoted again one at a time,
// each kept when DuckDB's refusal moved on). ok is false when the
// statement still fails: the caller reports err.
func (s *Session) prepareMoney(ctx context.Context, st sqltext.Statement, err error) (*duckdb.Stmt, sqltext.Statement, bool) {
	last := err
	var stmt *duckdb.Stmt
	for round := 0; round < 4 && last != nil; round++ {
		before := last.Error()
		switch {
		case pgcompat.SumRefused(last):
			summed, pending, _ := pgcompat.MoneySum(st, last)
			if summed.SQL != st.SQL {
				st = summed
				stmt, last = s.prepareRaw(ctx, st.SQL)
			}
			for k := 0; last != nil && k < pending && pgcompat.SumRefused(last); {
				try := pgcompat.MoneySumCall(st, k)
				next, err := s.prepareRaw(ctx, try.SQL)
				if pgcompat.NotMoney(err) {
					// not money: a sum over interval (intervalsum.go)?
					var ok bool
					if try, ok = pgcompat.IntervalSumCall(st, k); !ok {
						k++
						continue
					}
					if next, err = s.prepareRaw(ctx, try.SQL); pgcompat.NotInterval(err) {
						k++
						continue
					}
				}
				st, stmt, last, pending = try, next, err, pending-1
			}
		case pgcompat.MoneyOperand(last):
			for k, n := 0, pgcompat.MoneyNumbers(st); k < n && pgcompat.MoneyOperand(last); k++ {
				try := pgcompat.MoneyNumber(st, k)
				next, err := s.prepareRaw(ctx, try.SQL)
				if err == nil || err.Error() != last.Error() && (pgcompat.MoneyOperand(err) || pgcompat.SumRefused(err)) {
					st, stmt, last, n, k = try, next, err, n-1, k-1
				}
			}
		default:
			return nil, st, false
		}
		if last != nil && last.Error() == before {
			return nil, st, false // no progress
		}
	}
	return stmt, st, last == nil
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

// gatedExec is exec under the session's branch gate (COMMIT writes).
func (s *Session) gatedExec(ctx context.Context, query string) error {
	if s.target.Snapshot == "" {
		leave, err := s.srv.versions.Gate(s.alias).Shared(ctx)
		if err != nil {
			return err
		}
		defer leave()
	}
	return s.exec(ctx, query)
}

// exec runs a fixed statement (no parameters, no rows) on the session's
// connection.
func (s *Session) exec(ctx context.Context, query string) error {
	_, err := s.conn.ExecContext(ctx, query, []driver.NamedValue{})
	return err
}

// noColumns reports whether every column is pgcompat.NoColumn, the
// placeholder of an empty select list.
func noColumns(cols []pgwire.Column) bool {
	for _, c := range cols {
		if c.Name != pgcompat.NoColumn {
			return false
		}
	}
	return len(cols) > 0
}

// sameColumnType reports whether a column of the session's database
// already has the DuckDB type that typ names.
func (s *Session) sameColumnType(ctx context.Context, table, column, typ string) bool {
	current := s.queryString(ctx, "SELECT data_type FROM duckdb_columns() WHERE database_name = current_database() AND schema_name = 'main' AND table_name = "+
		sqltext.QuoteString(table)+" AND column_name = "+sqltext.QuoteString(column))
	// typ comes from the client's own statement and is only cast to here.
	wanted := s.queryString(ctx, "SELECT typeof(CAST(NULL AS "+typ+"))")
	return current != "" && current == wanted
}

// queryRows runs a query vsql wrote on the session's connection, fn
// seeing each row's values (valid only during the call).
func (s *Session) queryRows(ctx context.Context, q string, fn func(row []any)) error {
	rows, err := s.conn.QueryContext(ctx, q, []driver.NamedValue{})
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]driver.Value, len(rows.Columns()))
	row := make([]any, len(vals))
	for {
		if err := rows.Next(vals); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		for i, v := range vals {
			row[i] = v
		}
		fn(row)
	}
}

// queryStrings runs a one-column query on the session's connection (nil
// on any error).
func (s *Session) queryStrings(ctx context.Context, q string) []string {
	var out []string
	if err := s.queryRows(ctx, q, func(row []any) {
		v, _ := row[0].(string)
		out = append(out, v)
	}); err != nil {
		return nil
	}
	return out
}

// queryString runs a one-value query on the session's connection ("" on
// any error or no row).
func (s *Session) queryString(ctx context.Context, q string) string {
	rows, err := s.conn.QueryContext(ctx, q, []driver.NamedValue{})
	if err != nil {
		return ""
	}
	defer rows.Close()
	vals := make([]driver.Value, len(rows.Columns()))
	if err := rows.Next(vals); err != nil || len(vals) == 0 {
		return ""
	}
	v, _ := vals[0].(string)
	return v
}

// tableExists reports whether a (possibly qualified) table name, as
// DuckDB reads it, names a table: in the named database and schema, else
// the session's database's main schema or the session's temporary
// tables.
func (s *Session) tableExists(ctx context.Context, parts []string) bool {
	return s.queryString(ctx, "SELECT table_name FROM duckdb_tables() WHERE "+catalogWhere("table_name", parts)+" LIMIT 1") != ""
}

// catalogWhere is the condition on a row of DuckDB's catalog functions
// (duckdb_tables(), duckdb_sequences(), …) naming parts (name,
// schema.name or database.schema.name, unquoted) as DuckDB resolves it:
// in the named database and schema, else the session's database's main
// schema or its temporary objects; nameColumn is the name's column.
func catalogWhere(nameColumn string, parts []string) string {
	where := nameColumn + " = " + sqltext.QuoteString(parts[len(parts)-1])
	switch len(parts) {
	case 1:
		return where + " AND ((database_name = current_database() AND schema_name = 'main') OR database_name = 'temp')"
	case 2:
		return where + " AND schema_name = " + sqltext.QuoteString(parts[0]) + " AND database_name IN (current_database(), 'temp')"
	}
	n := len(parts)
	return where + " AND database_name = " + sqltext.QuoteString(parts[n-3]) + " AND schema_name = " + sqltext.QuoteString(parts[n-2])
}

// isView reports whether a (possibly qualified) name is a view: in the
// named database for three parts, else in the session's.
func (s *Session) isView(ctx context.Context, parts []string) bool {
	db := "current_database()"
	if len(parts) == 3 {
		db = sqltext.QuoteString(parts[0])
	}
	name := parts[len(parts)-1]
	return s.queryString(ctx, "SELECT view_name FROM duckdb_views() WHERE database_name = "+db+" AND view_name = "+sqltext.QuoteString(name)) != ""
}
