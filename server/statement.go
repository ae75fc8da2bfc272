package server

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqlfuncs"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// duckStatement is a statement prepared in DuckDB.
type duckStatement struct {
	sess   *Session
	st     sqltext.Statement
	stmt   *duckdb.Stmt
	params []uint32
	cols   []pgwire.Column
	// gates are the branch aliases whose gates the statement holds (shared)
	// while it runs, in sorted order.
	gates []string
	// needs are the privileges it needs, checked again at every Execute (a
	// revoke or a protection stops prepared statements too).
	needs []accessNeed

	// chunky: every column is of a type pgwire encodes from DuckDB's
	// chunks, so a run (ExecuteStreaming) streams (see duckstream).
	chunky bool
	// materialize: a chunky statement that writes (INSERT … RETURNING
	// (a, b), whose unnamed struct the row path cannot read): its result
	// is materialized by DuckDB before the first chunk, so the write
	// completes whether or not the client reads every row, and it is
	// never run a second time on the row path.
	materialize bool
	// heavy: the statement may call a heavy vsql_* function (execute).
	heavy bool
	// changesCatalog: DDL or a vsql_* call; each run counts in
	// catalogGeneration when it ends (catalogcache.go).
	changesCatalog bool

	// shown: the client's statement when DuckDB runs another (an upsert
	// as MERGE, upsert.go): its kind gives the command tag; nil: st.
	shown *sqltext.Statement

	// upsertCheck: for INSERT … VALUES … ON CONFLICT (keys) DO UPDATE,
	// the query that answers whether the rows propose a key twice, run
	// first (upsert.go).
	upsertCheck *duckStatement

	mu   sync.Mutex
	busy bool // stmt has an open result (a suspended portal)
}

// streamResults switches the chunk path of ExecuteStreaming (on by default;
// Config.RowResults turns it off).
var streamResults atomic.Bool

// chunkRuns counts the results sent through the chunk path.
var chunkRuns atomic.Int64

// prefetchChunks: the chunk path fetches the next chunk in the background
// while the current one is encoded and written. Off: over pgx on 2 shared
// CPUs it measured within noise of fetching in line (BenchmarkWireSelect).
var prefetchChunks atomic.Bool

func init() { streamResults.Store(true) }

// ExecuteStreaming implements pgwire.StreamingStatement: the rows stream
// from DuckDB a chunk at a time when every column has a chunk encoder;
// otherwise it is Execute.
func (d *duckStatement) ExecuteStreaming(ctx context.Context, args []any) (pgwire.Rows, error) {
	return d.execute(ctx, args, d.chunky && streamResults.Load())
}

func (d *duckStatement) ParamOIDs() []uint32      { return d.params }
func (d *duckStatement) Columns() []pgwire.Column { return d.cols }
func (d *duckStatement) Close() {
	_ = d.stmt.Close()
	if d.upsertCheck != nil {
		d.upsertCheck.Close()
	}
}

// tagged is the statement whose kind gives the command tag.
func (d *duckStatement) tagged() sqltext.Statement {
	if d.shown != nil {
		return *d.shown
	}
	return d.st
}

// Execute implements pgwire.Statement. A DuckDB statement can hold one open
// result at a time; a second portal on a busy statement gets a fresh copy.
func (d *duckStatement) Execute(ctx context.Context, args []any) (pgwire.Rows, error) {
	return d.execute(ctx, args, false)
}

// maxOffThreadRuns bounds the executions of a statement whose heavy
// vsql_* calls run off DuckDB's thread: one per distinct call, plus one.
const maxOffThreadRuns = 8

// execute runs the statement. One that may call heavy vsql_* functions
// (merges, diffs, snapshots), outside a transaction block, runs with the
// session's OffThread armed: an execution that reaches such a call stops,
// the session runs the call, and the statement runs again with its
// result (sqlfuncs.OffThread). Its result is materialized, never
// streamed: the call must have run before the first row is sent.
func (d *duckStatement) execute(ctx context.Context, args []any, stream bool) (pgwire.Rows, error) {
	s := d.sess
	if d.upsertCheck != nil {
		if err := d.upsertCheck.refuseDuplicateKeys(ctx, args); err != nil {
			return nil, s.failed(err)
		}
	}
	if !d.heavy || s.InTransaction() {
		return d.executeOnce(ctx, args, stream)
	}
	s.offThread.Arm()
	defer s.offThread.Disarm()
	for range maxOffThreadRuns {
		rows, err := d.executeOnce(ctx, args, false)
		if err == nil || !s.offThread.Pending() {
			return rows, err
		}
		runCtx, done := s.running(sqlfuncs.WithCaller(ctx, s))
		err = s.offThread.RunPending(runCtx)
		err = canceled(runCtx, err)
		done()
		if err != nil {
			return nil, s.failed(err)
		}
	}
	return nil, vsqlerr.New(vsqlerr.Internal, "a statement making more than %d distinct heavy vsql_* calls", maxOffThreadRuns-1)
}

func (d *duckStatement) executeOnce(ctx context.Context, args []any, stream bool) (pgwire.Rows, error) {
	s := d.sess
	if d.changesCatalog {
		defer s.catalogChanged()
	}
	if err := s.checkAll(ctx, d.needs); err != nil {
		return nil, s.failed(err)
	}
	stmt, release := d.stmt, func() { d.mu.Lock(); d.busy = false; d.mu.Unlock() }
	d.mu.Lock()
	if d.busy {
		d.mu.Unlock()
		fresh, err := s.prepareRaw(ctx, d.st.SQL)
		if err != nil {
			return nil, s.failed(err)
		}
		stmt, release = fresh, func() { _ = fresh.Close() }
	} else {
		d.busy = true
		d.mu.Unlock()
	}
	nargs := make([]driver.NamedValue, len(args))
	for i, a := range args {
		nargs[i] = driver.NamedValue{Ordinal: i + 1, Value: a}
	}
	ctx, done := s.running(sqlfuncs.WithCaller(ctx, s))
	var leaves []func()
	leaveAll := func() {
		for i := len(leaves) - 1; i >= 0; i-- {
			leaves[i]()
		}
		leaves = nil
	}
	defer func() { leaveAll() }()
	for _, alias := range d.gates {
		s.waitingGate.Store(true)
		leave, err := s.srv.versions.Gate(alias).Shared(ctx)
		s.waitingGate.Store(false)
		if err != nil {
			done()
			release()
			return nil, s.failed(canceled(ctx, err))
		}
		// Materialized results do not need the gates while they are read;
		// a streaming one keeps them until it is closed.
		leaves = append(leaves, leave)
	}
	if stream {
		query := duckstream.QueryPrefetch
		if !prefetchChunks.Load() {
			query = duckstream.Query
		}
		res, err := query(ctx, s.conn, stmt, nargs, !materializeChunks.Load() && !d.materialize)
		if err != nil {
			err = s.readOnly(canceled(ctx, err))
			done()
			release()
			return nil, s.failed(err)
		}
		if pgwire.ChunkEncodable(d.cols, res.Columns) {
			held := leaves
			leaves = nil
			chunkRuns.Add(1)
			return &duckRows{sess: s, st: d.tagged(), res: res, ctx: ctx, loc: s.location, done: func() {
				done()
				release()
				for i := len(held) - 1; i >= 0; i-- {
					held[i]()
				}
			}}, nil
		}
		res.Close()
		if d.materialize {
			// The write has run: running it again on the row path would
			// write twice. PostgreSQL refuses a changed result type too.
			done()
			release()
			return nil, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "cached plan must not change result type").
				WithHint("The table changed since the statement was prepared (its rows were written); prepare the statement again."))
		}
		// types resolved differently at run time: the row path
	}
	if parts, ok := d.st.CreateTableAsIfNotExists(); ok && d.cols == nil && s.tableExists(ctx, parts) {
		// PostgreSQL skips it with a NOTICE and answers CREATE TABLE AS
		// (DuckDB's count would read SELECT 0).
		done()
		release()
		s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "42P07",
			Message: fmt.Sprintf("relation %q already exists, skipping", parts[len(parts)-1])})
		return &tagRows{tag: "CREATE TABLE AS"}, nil
	}
	if d.cols == nil && d.tagged().IsCreateTableAs() {
		// CREATE TABLE … AS answers SELECT n: DuckDB's result holds the
		// count as one row, which RowsAffected does not report.
		n, err := ctasCount(ctx, stmt, nargs)
		if err != nil {
			err = s.readOnly(canceled(ctx, err))
		}
		done()
		release()
		if err != nil {
			return nil, s.failed(err)
		}
		return &tagRows{tag: d.tagged().Tag(n)}, nil
	}
	if d.cols == nil {
		res, err := stmt.ExecContext(ctx, nargs)
		if err != nil {
			err = s.readOnly(canceled(ctx, err))
		}
		done()
		release()
		if err != nil {
			return nil, s.failed(err)
		}
		affected, _ := res.RowsAffected()
		return &tagRows{tag: d.tagged().Tag(affected)}, nil
	}
	rows, err := stmt.QueryContext(ctx, nargs)
	if err != nil {
		err = s.readOnly(canceled(ctx, err))
		done()
		release()
		return nil, s.failed(err)
	}
	r := &duckRows{sess: s, st: d.tagged(), rows: rows, ctx: ctx, done: func() { done(); release() }, buf: make([]driver.Value, len(rows.Columns()))}
	if s.location != nil && s.location != time.UTC {
		r.zoned = make([]bool, len(d.cols))
		for i, c := range d.cols {
			r.zoned[i] = c.OID == 1184 || c.OID == 1266 // timestamptz, timetz
		}
	}
	return r, nil
}

// readOnly explains a write refused by a snapshot session.
func (s *Session) readOnly(err error) error {
	if s.target.Snapshot != "" && vsqlerr.From(err).SQLState == "25006" {
		return vsqlerr.Wrap(err, vsqlerr.SnapshotReadOnly, "%s is a snapshot and read-only", s.alias)
	}
	return err
}

// canceled turns the error of an interrupted statement into query_canceled.
func canceled(ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return vsqlerr.Wrap(err, vsqlerr.QueryCanceled, "canceling statement due to statement timeout").
			WithHint("The statement ran longer than statement_timeout; raise it (SET statement_timeout = '1min') or set it to 0.")
	case ctx.Err() != nil:
		return vsqlerr.Wrap(err, vsqlerr.QueryCanceled, "canceling statement due to user request")
	}
	var de *duckdb.Error
	if errors.As(err, &de) && de.Type == duckdb.ErrorTypeInterrupt {
		// No cancel request, no timeout: DuckDB's own race, where an error
		// raised by one of its threads while a streaming result is read can
		// surface as "Interrupted!" instead (seen under load, a few runs in
		// a hundred); the error itself is lost.
		return vsqlerr.Wrap(err, vsqlerr.Internal, "DuckDB interrupted the statement though no cancel was requested: the error one of its threads raised was lost").
			WithHint("Run the statement again: the error it hit is reported on most runs.")
	}
	return err
}

// duckRows streams a DuckDB result.
type duckRows struct {
	sess   *Session
	st     sqltext.Statement
	rows   driver.Rows
	ctx    context.Context
	done   func()
	buf    []driver.Value
	n      int
	err    error
	closed bool
	zoned  []bool // columns shown in the session's TimeZone (nil: UTC)
	// res is set for a result read a chunk at a time (pgwire.ChunkRows);
	// rows is nil then.
	res *duckstream.Result
	loc *time.Location
}

// ExtraFloatDigits implements pgwire.FloatRows: the session's
// extra_float_digits.
func (r *duckRows) ExtraFloatDigits() int {
	n, err := strconv.Atoi(r.sess.settingValue("extra_float_digits"))
	if err != nil {
		return 1
	}
	return n
}

// DateStyle implements pgwire.StyleRows: the session's DateStyle.
func (r *duckRows) DateStyle() string { return r.sess.settingValue("datestyle") }

// IntervalStyle implements pgwire.StyleRows: the session's IntervalStyle.
func (r *duckRows) IntervalStyle() string { return r.sess.settingValue("intervalstyle") }

// ByteaOutput implements pgwire.StyleRows: the session's bytea_output.
func (r *duckRows) ByteaOutput() string { return r.sess.settingValue("bytea_output") }

// Chunks implements pgwire.ChunkRows.
func (r *duckRows) Chunks() (*duckstream.Result, *time.Location) {
	if r.res == nil {
		return nil, nil
	}
	loc := r.loc
	if loc == time.UTC {
		loc = nil
	}
	return r.res, loc
}

func (r *duckRows) Next(dst []any) bool {
	if r.closed || r.err != nil || r.res != nil {
		return false
	}
	r.n++
	if r.n%1024 == 0 && r.ctx.Err() != nil {
		r.err = r.sess.failed(vsqlerr.New(vsqlerr.QueryCanceled, "canceling statement due to user request"))
		return false
	}
	if err := r.rows.Next(r.buf); err != nil {
		if !errors.Is(err, io.EOF) {
			r.err = r.sess.failed(canceled(r.ctx, err))
		}
		return false
	}
	for i := range dst {
		dst[i] = r.buf[i]
		if t, ok := dst[i].(time.Time); ok && r.zoned != nil && r.zoned[i] {
			dst[i] = t.In(r.sess.location) // timestamptz in the session's TimeZone
		}
	}
	return true
}

func (r *duckRows) Err() error {
	if r.err == nil && r.res != nil && r.res.Err() != nil {
		r.err = r.sess.failed(canceled(r.ctx, r.res.Err()))
	}
	return r.err
}
func (r *duckRows) Tag(rows int64) string { return r.st.Tag(rows) }
func (r *duckRows) Close() {
	if r.closed {
		return
	}
	r.closed = true
	if r.res != nil {
		r.res.Close()
	} else {
		_ = r.rows.Close()
	}
	r.done()
}

// tagRows is the result of a statement that returns no rows.
type tagRows struct{ tag string }

func (t *tagRows) Next([]any) bool  { return false }
func (t *tagRows) Err() error       { return nil }
func (t *tagRows) Tag(int64) string { return t.tag }
func (t *tagRows) Close()           {}

// noRowsStatement is the shape shared by statements vsql runs itself.
type noRowsStatement struct{}

func (noRowsStatement) ParamOIDs() []uint32      { return nil }
func (noRowsStatement) Columns() []pgwire.Column { return nil }
func (noRowsStatement) Close()                   {}

// txStatement is BEGIN, COMMIT or ROLLBACK with PostgreSQL's semantics:
// warnings (not errors) for BEGIN inside a transaction and COMMIT outside
// one, and COMMIT of a failed transaction rolls it back.
type txStatement struct {
	noRowsStatement
	sess *Session
	st   sqltext.Statement
}

func (t *txStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := t.sess
	switch t.st.Kind() {
	case sqltext.KindBegin:
		var modes txModes
		if m := beginModes.FindStringSubmatch(t.st.SQL); m != nil {
			var err error
			if modes, err = parseTxModes(m[1]); err != nil {
				return nil, err
			}
		}
		tag := "BEGIN"
		if t.st.Keyword(0) == "START" {
			tag = "START TRANSACTION"
		}
		if s.txStatus() != txIdle {
			s.notice(vsqlerr.TransactionBlock, "25001", "there is already a transaction in progress")
			return &tagRows{tag: tag}, nil
		}
		if err := s.exec(ctx, "BEGIN TRANSACTION"); err != nil {
			return nil, err
		}
		s.setTx(txOpen)
		s.beginTransactionModes(modes)
		return &tagRows{tag: tag}, nil
	case sqltext.KindCommit:
		chain := andChain(t.st)
		if chain && s.txStatus() == txIdle {
			return nil, vsqlerr.New(vsqlerr.ChainOutsideBlock, "COMMIT AND CHAIN can only be used in transaction blocks")
		}
		modes := s.currentTxModes()
		switch s.txStatus() {
		case txIdle:
			s.notice(vsqlerr.TransactionBlock, "25P01", "there is no transaction in progress")
			return &tagRows{tag: "COMMIT"}, nil
		case txFailed:
			_ = s.exec(ctx, "ROLLBACK")
			s.setTx(txIdle)
			s.endTransaction(false)
			return s.chain(ctx, chain, modes, "ROLLBACK")
		}
		s.setTx(txIdle)
		if err := s.gatedExec(ctx, "COMMIT"); err != nil {
			s.endTransaction(false)
			return nil, err
		}
		s.endTransaction(true)
		return s.chain(ctx, chain, modes, "COMMIT")
	default: // rollback
		chain := andChain(t.st)
		if s.txStatus() == txIdle {
			if chain {
				return nil, vsqlerr.New(vsqlerr.ChainOutsideBlock, "ROLLBACK AND CHAIN can only be used in transaction blocks")
			}
			s.notice(vsqlerr.TransactionBlock, "25P01", "there is no transaction in progress")
			return &tagRows{tag: "ROLLBACK"}, nil
		}
		modes := s.currentTxModes()
		_ = s.exec(ctx, "ROLLBACK") // DuckDB may have ended a failed transaction already
		s.setTx(txIdle)
		s.endTransaction(false)
		return s.chain(ctx, chain, modes, "ROLLBACK")
	}
}

// andChain reports whether COMMIT or ROLLBACK ends with AND CHAIN (not AND
// NO CHAIN).
func andChain(st sqltext.Statement) bool {
	n := len(st.Keywords)
	return n >= 2 && st.Keyword(n-1) == "CHAIN" && st.Keyword(n-2) == "AND"
}

// chain starts, after COMMIT or ROLLBACK AND CHAIN, a transaction with the
// modes of the one that ended (isolation, read only, deferrable), as
// PostgreSQL does; tag is the ending's.
func (s *Session) chain(ctx context.Context, chain bool, modes txModes, tag string) (pgwire.Rows, error) {
	if chain {
		if err := s.exec(ctx, "BEGIN TRANSACTION"); err != nil {
			return nil, err
		}
		s.setTx(txOpen)
		s.beginTransactionModes(modes)
	}
	return &tagRows{tag: tag}, nil
}

// dropForce is DROP DATABASE's option list [WITH] (FORCE).
var dropForce = regexp.MustCompile(`(?is)^(?:WITH\s*)?\(\s*FORCE\s*\)\s*;?$`)

// databaseStatement is CREATE DATABASE or DROP DATABASE.
type databaseStatement struct {
	noRowsStatement
	sess     *Session
	create   bool
	name     string
	ifExists bool
}

func (s *Session) prepareDatabaseStatement(st sqltext.Statement) (pgwire.Statement, error) {
	create := st.Kind() == sqltext.KindCreateDatabase
	name, ifExists, rest, ok := st.DatabaseTarget()
	verb := "DROP DATABASE"
	if create {
		verb = "CREATE DATABASE"
	}
	if !ok {
		return nil, s.failed(&vsqlerr.Error{SQLState: "42601", Message: "syntax error: " + verb + " needs a database name"})
	}
	if !create && dropForce.MatchString(rest) {
		// PostgreSQL's FORCE ends the database's other sessions; vsql never
		// does (branches.Manager.DropDatabase refuses while they are
		// connected), so it reads FORCE as the plain DROP DATABASE.
		rest = ""
	}
	if rest != "" {
		return nil, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "%s options are not supported: %s", verb, rest).
			WithHint("Write just %s name.", verb))
	}
	return &databaseStatement{sess: s, create: create, name: name, ifExists: ifExists}, nil
}

func (d *databaseStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := d.sess
	verb := "DROP DATABASE"
	if d.create {
		verb = "CREATE DATABASE"
	}
	if s.txStatus() != txIdle {
		return nil, s.failed(vsqlerr.New(vsqlerr.TransactionBlock, "%s cannot run inside a transaction block", verb))
	}
	if d.create {
		if !s.admin() && !(s.srv.cfg.CreateDatabases == CreateDatabasesWrite && s.role == auth.RoleWrite) {
			return nil, s.failed(vsqlerr.New(vsqlerr.PermissionDenied, "permission denied to create database: user %q has the %s role", s.user, s.role).
				WithHint("CREATE DATABASE is for admins; a server started with --create-databases write lets write users create databases (they become their admins)."))
		}
		if err := s.srv.versions.CreateDatabase(ctx, d.name); err != nil {
			return nil, err
		}
		if !s.admin() {
			// The creator administers what it created.
			if err := (backend{s.srv.versions, s.srv}).Grant(ctx, s.user, d.name, s.user, catalog.Admin, catalog.AllBranches); err != nil {
				return nil, err
			}
		}
		s.srv.reloadAccess(ctx)
		if err := s.srv.syncPGDatabases(ctx); err != nil {
			s.srv.log.Warn("pg_database not updated", "err", err)
		}
		return &tagRows{tag: verb}, nil
	}
	if s.srv.databaseNamed(d.name) != "" && !s.IsDatabaseAdmin(s.srv.databaseNamed(d.name)) {
		return nil, s.failed(vsqlerr.New(vsqlerr.PermissionDenied, "permission denied to drop database %q: only its admins may", d.name))
	}
	if d.name == s.target.Database {
		return nil, vsqlerr.New(vsqlerr.DatabaseInUse, "cannot drop the currently open database %q", d.name).
			WithHint("Connect to another database (for example postgres) and drop it from there.")
	}
	notice, err := s.srv.versions.DropDatabase(ctx, d.name, d.ifExists)
	if err != nil {
		return nil, err
	}
	if notice != nil {
		s.notices = append(s.notices, notice)
	}
	s.srv.reloadAccess(ctx)
	if err := s.srv.syncPGDatabases(ctx); err != nil {
		s.srv.log.Warn("pg_database not updated", "err", err)
	}
	return &tagRows{tag: verb}, nil
}

// vsqlSetting matches SET/SHOW/RESET of vsql's own process-wide setting.
var (
	setMergeConcurrency  = regexp.MustCompile(`(?is)^\s*SET\s+(?:GLOBAL\s+|SESSION\s+)?vsql_merge_max_concurrent\s*(?:=|\bTO\b)\s*'?(-?\d+)'?\s*$`)
	showMergeConcurrency = regexp.MustCompile(`(?is)^\s*SHOW\s+vsql_merge_max_concurrent\s*$`)
	anyMergeConcurrency  = regexp.MustCompile(`(?i)\bvsql_merge_max_concurrent\b`)
)

// prepareVsqlSetting handles SET vsql_merge_max_concurrent = n and SHOW
// vsql_merge_max_concurrent: how many merges may run at once in this
// process. ok is false for every other statement.
func (s *Session) prepareVsqlSetting(st sqltext.Statement) (pgwire.Statement, bool, error) {
	if !anyMergeConcurrency.MatchString(st.SQL) || (st.Keyword(0) != "SET" && st.Keyword(0) != "SHOW" && st.Keyword(0) != "RESET") {
		return nil, false, nil
	}
	if st.Keyword(0) != "SHOW" && !s.admin() {
		return nil, true, vsqlerr.New(vsqlerr.PermissionDenied, "permission denied to set vsql_merge_max_concurrent: it is process-wide, for the admin role")
	}
	if st.Keyword(0) == "RESET" {
		return &settingStatement{apply: func() error { return s.srv.merger.SetMaxConcurrent(merge.MaxConcurrent) }}, true, nil
	}
	if m := setMergeConcurrency.FindStringSubmatch(st.SQL); m != nil {
		n, err := strconv.Atoi(m[1])
		if err != nil {
			return nil, true, vsqlerr.New(vsqlerr.InvalidArgument, "vsql_merge_max_concurrent must be a whole number")
		}
		return &settingStatement{apply: func() error { return s.srv.merger.SetMaxConcurrent(n) }}, true, nil
	}
	if showMergeConcurrency.MatchString(st.SQL) {
		return &showStatement{name: "vsql_merge_max_concurrent", value: func() string { return strconv.Itoa(s.srv.merger.MaxConcurrentNow()) }}, true, nil
	}
	return nil, true, vsqlerr.New(vsqlerr.InvalidArgument, "write SET vsql_merge_max_concurrent = n (1 to 64), SHOW vsql_merge_max_concurrent or RESET vsql_merge_max_concurrent")
}

type settingStatement struct {
	noRowsStatement
	apply func() error
	tag   string // "" = SET
}

func (st *settingStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	if err := st.apply(); err != nil {
		return nil, err
	}
	if st.tag == "" {
		return &tagRows{tag: "SET"}, nil
	}
	return &tagRows{tag: st.tag}, nil
}

type showStatement struct {
	name  string
	value func() string
	apply func() error // run first (set_config), nil for SHOW
	tag   string       // "" = SHOW
}

func (st *showStatement) ParamOIDs() []uint32 { return nil }
func (st *showStatement) Columns() []pgwire.Column {
	return []pgwire.Column{{Name: st.name, OID: 25, TypeMod: -1, Size: -1}}
}
func (st *showStatement) Close() {}
func (st *showStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	if st.apply != nil {
		if err := st.apply(); err != nil {
			return nil, err
		}
	}
	tag := st.tag
	if tag == "" {
		tag = "SHOW"
	}
	return &valueRows{vals: []any{st.value()}, tag: tag}, nil
}

// valueRows is a one-row result.
type valueRows struct {
	vals []any
	tag  string
	done bool
}

func (r *valueRows) Next(dst []any) bool {
	if r.done {
		return false
	}
	r.done = true
	copy(dst, r.vals)
	return true
}
func (r *valueRows) Err() error       { return nil }
func (r *valueRows) Tag(int64) string { return r.tag }
func (r *valueRows) Close()           {}

// ctasCount runs a CREATE TABLE … AS and returns the number of rows it
// inserted (the Count row of DuckDB's result; 0 when there is none).
func ctasCount(ctx context.Context, stmt *duckdb.Stmt, args []driver.NamedValue) (int64, error) {
	rows, err := stmt.QueryContext(ctx, args)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var n int64
	buf := make([]driver.Value, len(rows.Columns()))
	if len(buf) > 0 && rows.Next(buf) == nil {
		switch v := buf[0].(type) {
		case int64:
			n = v
		case int32:
			n = int64(v)
		}
	}
	return n, nil
}
