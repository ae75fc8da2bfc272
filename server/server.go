package server

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/internal/sqlrows"
	"github.com/vsql/vsql/lakehouse"
	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/sqlfuncs"
	"github.com/vsql/vsql/vsqlerr"
)

// DefaultDatabase exists from the first start, so a bare psql works.
const DefaultDatabase = "postgres"

// Server owns the DuckDB engine, the catalog, the branch manager and every
// session.
type Server struct {
	// commits counts, per branch (the DuckDB catalog's alias), the commits
	// of sessions' statements and blocks that may have written to it
	// (savepoint.go: a block that must run again checks that none
	// happened since it began): alias → *atomic.Int64.
	commits   sync.Map
	cfg       Config
	log       *slog.Logger
	lock      *branches.RepoLock
	connector *duckdb.Connector
	workers   *duckstream.Workers // DuckDB's helper threads
	engine    *sql.DB             // pooled connections for ATTACH/DETACH/CHECKPOINT and internal queries
	catalog   *catalog.Catalog
	versions  *branches.Manager
	merger    *merge.Merger
	metrics   *metrics
	tls       *tls.Config // nil: SSLRequest is answered 'N'
	users     *auth.Store
	remotes   *s3sync.Remotes
	remote    *remoteState
	lake      *lakehouse.Exporter
	guard     guard       // what clients may reach (guard.go)
	access    accessRules // grants and protected branches (access.go)
	// pgAccessMu serializes syncPGAccess; pgUsersSig is the users file's
	// names and roles it last copied into pg_roles.
	pgAccessMu sync.Mutex
	pgUsersSig string
	// allowRemotes are Config.AllowRemotes, parsed.
	allowRemotes []s3sync.Location

	sessMu   sync.Mutex
	sessions map[uint32]*Session
	// background are the works vsqld runs on its own, listed in
	// pg_stat_activity (activity.go); under sessMu like sessions.
	background map[uint32]*backgroundWork
	conns      map[*pgwire.Conn]struct{}
	nextPID    atomic.Uint32
	active     atomic.Int32
	spares     spares // a DuckDB connection made ahead of the next session (spare.go)
}

// engineExec adapts the engine pool to branches.Engine; its statements
// count as running for DuckDB's helper threads (workers, nil before they
// start).
type engineExec struct {
	db      *sql.DB
	workers *duckstream.Workers
}

func (e engineExec) Exec(ctx context.Context, q string) error {
	ctx, done := e.workers.TrackContext(ctx)
	defer done()
	_, err := e.db.ExecContext(ctx, q)
	return err
}

func (e engineExec) Query(ctx context.Context, q string, fn func(row []any) error) error {
	ctx, done := e.workers.TrackContext(ctx)
	defer done()
	rows, err := e.db.QueryContext(ctx, q)
	return sqlrows.Each(rows, err, fn)
}

// engineExec runs statements on the engine pool.
func (s *Server) engineExec() engineExec { return engineExec{s.engine, s.workers} }

// Open prepares the repository (creating it and the postgres database on
// first start) and the DuckDB engine. It does not listen yet.
func Open(ctx context.Context, cfg Config) (*Server, error) {
	cfg.setDefaults()
	if cfg.RowResults {
		streamResults.Store(false)
	}
	lock, err := branches.LockRepository(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Logger, lock: lock, sessions: map[uint32]*Session{}, conns: map[*pgwire.Conn]struct{}{}}
	s.spares.made.L = &s.spares.mu
	if s.allowRemotes, err = parseAllowRemotes(cfg.AllowRemotes); err != nil {
		s.close()
		return nil, err
	}
	if err := s.openSecurity(); err != nil {
		s.close()
		return nil, err
	}
	if err := s.openGuard(); err != nil {
		s.close()
		return nil, err
	}
	if err := s.open(ctx); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *Server) open(ctx context.Context) error {
	cfg := s.cfg
	for _, dir := range []string{filepath.Join(cfg.DataDir, "live"), filepath.Join(cfg.DataDir, "staging")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create repository directory: %w", err)
		}
	}
	// Staging files of interrupted work are never resumed from disk.
	if err := clearDir(filepath.Join(cfg.DataDir, "staging")); err != nil {
		return err
	}
	var err error
	if s.catalog, err = catalog.Open(ctx, filepath.Join(cfg.DataDir, "catalog.db")); err != nil {
		return err
	}
	// Live files an in-place merge was changing when vsqld stopped are
	// rebuilt from their branch's head before anything attaches them.
	if n, err := branches.RecoverInPlace(ctx, cfg.DataDir, s.catalog); err != nil {
		return fmt.Errorf("recover interrupted in-place merges: %w", err)
	} else if n > 0 {
		s.log.Warn("rebuilt branches from their heads after interrupted in-place merges", "branches", n)
	}
	if err := s.ensureDefaultDatabase(ctx); err != nil {
		return err
	}
	if err := s.loadAccess(ctx); err != nil {
		return err
	}
	q := url.Values{}
	// Every DuckDB thread is external: DuckDB starts no worker of its
	// own, which it would wake for each task of every statement, and
	// s.workers runs the others while a statement runs long enough to
	// share them (duckstream.Workers).
	threads := cfg.Threads
	if threads <= 0 {
		threads = runtime.NumCPU()
	}
	q.Set("threads", strconv.Itoa(threads))
	q.Set("external_threads", strconv.Itoa(threads))
	if cfg.MemoryLimit != "" {
		q.Set("memory_limit", cfg.MemoryLimit)
	}
	// Blocks DuckDB frees go back to the system (malloc_trim) and are
	// faulted in again by the next statement, at about 20 µs a page here;
	// a merge's comparison took 40–50 ms with few faults and 60–90 ms with
	// ~1,700. Keeping DefaultBlockMemory for reuse removes most of them.
	switch blockMemory := cfg.BlockMemory; blockMemory {
	case "":
		q.Set("block_allocator_memory", DefaultBlockMemory)
	case "0":
		q.Set("block_allocator_memory", "0B") // DuckDB wants a unit
	default:
		q.Set("block_allocator_memory", blockMemory)
	}
	// DuckDB 1.5's compressed materialization sizes a plan's integers by
	// table statistics it does not refresh for a prepared statement run
	// again after the table changed: ORDER BY then returned 100000 as
	// 160 (a cached prepared statement is every pgx and JDBC client's
	// default). Off for the whole engine (TestPreparedAfterDataChanges).
	q.Set("disabled_optimizers", "compressed_materialization")
	s.engineOptions(q) // extensions, secrets, temp_directory (guard.go)
	dsn := ":memory:?" + q.Encode()
	if s.connector, err = duckdb.NewConnector(dsn, nil); err != nil {
		return fmt.Errorf("start DuckDB: %w", err)
	}
	s.engine = sql.OpenDB(s.connector)
	s.engine.SetMaxIdleConns(4)
	if s.workers, err = duckstream.StartWorkers(s.connector, threads); err != nil {
		return err
	}
	// File access and settings are fixed before anything is attached.
	if err := s.lockEngine(ctx); err != nil {
		return err
	}
	if s.versions, err = branches.NewManager(ctx, cfg.DataDir, s.catalog, s.engineExec(), s.log); err != nil {
		return err
	}
	s.versions.Busy = s.branchBusy
	s.metrics = newMetrics(s)
	if err := s.openRemotes(); err != nil {
		return err
	}
	s.lake = lakehouse.New(lakehouse.Config{DataDir: cfg.DataDir, S3: lakehouseS3(cfg), Log: s.log, Retry: cfg.LakehouseInterval,
		Observe: s.metrics.lakeExported},
		s.catalog, s.engineExec(), s.versions)
	for db, url := range cfg.Lakehouses {
		d, err := s.databaseRow(ctx, db)
		if err == nil {
			_, err = s.lake.Set(ctx, db, d.ID, url, "vsqld --lakehouse")
		}
		if err != nil {
			return fmt.Errorf("--lakehouse %s=%s: %w", db, url, err)
		}
	}
	reg, err := s.engine.Conn(ctx)
	if err != nil {
		return err
	}
	defer reg.Close()
	if s.merger, err = merge.New(ctx, s.engine, s.versions, s.catalog, s.log); err != nil {
		return err
	}
	s.merger.Working = s.workers.TrackContext
	s.merger.Remote = remotePublisher{s.remotes, s.versions.Store()}
	if err := sqlfuncs.Register(reg, backend{s.versions, s}, meteredMerges{s.merger, s.metrics, s.lake.Kick}); err != nil {
		return err
	}
	if err := s.registerActivity(reg); err != nil {
		return err
	}
	if err := s.registerSequenceFunctions(reg); err != nil {
		return err
	}
	if err := pgcompat.RegisterFunctions(reg); err != nil {
		return err
	}
	if err := pgcompat.RegisterCasts(reg); err != nil {
		return err
	}
	if err := s.setupPGCatalog(ctx); err != nil {
		return err
	}
	return s.loadFunctionGuard(ctx)
}

func clearDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("read %s: %w", dir, err)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("clear %s: %w", dir, err)
		}
	}
	return nil
}

func (s *Server) ensureDefaultDatabase(ctx context.Context) error {
	return s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		if _, err := tx.Database(ctx, DefaultDatabase); err == nil {
			return nil
		}
		_, err := tx.CreateDatabase(ctx, DefaultDatabase)
		if errors.Is(err, catalog.ErrExists) {
			// Another case of the name exists ("Postgres"): serve without it.
			s.log.Warn("default database not created", "db", DefaultDatabase, "err", err)
			return nil
		}
		return err
	})
}

// branchBusy reports whether a session attached to alias has an open
// transaction.
func (s *Server) branchBusy(alias string) bool {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	for _, sess := range s.sessions {
		if sess.alias == alias && sess.txStatus() != txIdle {
			return true
		}
	}
	return false
}

// newKey returns a fresh process id and secret for cancel requests.
func (s *Server) newKey() (uint32, []byte) {
	secret := make([]byte, 4)
	_, _ = rand.Read(secret)
	return s.nextPID.Add(1), secret
}

// Startup implements pgwire.Handler.
func (s *Server) Startup(ctx context.Context, params map[string]string, remote net.Addr) (pgwire.Session, error) {
	dbname := params["database"]
	if dbname == "" {
		dbname = params["user"]
	}
	if dbname == "" {
		dbname = DefaultDatabase
	}
	role, err := s.roleOf(params["user"])
	if err != nil {
		return nil, err
	}
	var alias string
	var release func()
	target, err := ParseDBName(dbname)
	if role != auth.RoleAdmin {
		// Connecting needs read on the version connected to; remote heads
		// are read with the server's S3 credentials, so only by admins.
		if strings.HasPrefix(dbname, "s3://") {
			return nil, vsqlerr.New(vsqlerr.PermissionDenied, "permission denied for %s: remote heads are for the admin role", dbname).Fatal()
		}
		if err == nil && s.databaseNamed(target.Database) != "" { // else 3D000, as for anyone
			if cerr := s.check(ctx, principal{params["user"], role}, targetNeed(target, catalog.Read)); cerr != nil {
				return nil, vsqlerr.From(cerr).Fatal()
			}
		}
	}
	if strings.HasPrefix(dbname, "s3://") {
		// A remote head, read-only, followed while attached.
		h, herr := s3sync.ParseHeadURL(dbname)
		if herr != nil {
			return nil, herr
		}
		target, err = Target{Database: h.DB, Branch: h.Branch, Remote: true}, nil
		if alias, _, err = s.AttachRemote(ctx, dbname, ""); err == nil {
			release, err = s.versions.AcquireAttached(alias)
		}
	} else if err == nil {
		alias, release, err = s.versions.Acquire(ctx, target.Database, target.Branch, target.Snapshot)
	}
	if err != nil {
		return nil, err
	}
	sess, err := s.newSession(ctx, target, alias, role, params, remote)
	if err != nil {
		release()
		return nil, err
	}
	sess.release = release
	s.metrics.connections.Inc()
	return sess, nil
}

// Cancel implements pgwire.Handler.
func (s *Server) Cancel(pid uint32, secret []byte) {
	s.sessMu.Lock()
	sess := s.sessions[pid]
	s.sessMu.Unlock()
	if sess == nil || string(sess.secret) != string(secret) {
		return
	}
	sess.cancelRunning()
}

// Serve accepts clients on the configured address until ctx ends, then
// shuts down gracefully: it stops accepting, lets running statements finish
// (up to ShutdownTimeout, then cancels them), ends every session,
// checkpoints every database and closes the engine.
func (s *Server) Serve(ctx context.Context, ready func(addr net.Addr)) error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		s.close()
		return fmt.Errorf("listen on %s: %w", s.cfg.Listen, err)
	}
	s.log.Info("vsqld listening", "addr", ln.Addr().String(), "data", s.cfg.DataDir)
	unixLns, err := s.listenUnix(ln.Addr().(*net.TCPAddr).Port)
	if err != nil {
		ln.Close()
		s.close()
		return err
	}
	// /metrics, /healthz and the console answer once vsqld is ready.
	stopHTTP := func() {}
	if s.cfg.HTTPListen != "" {
		if stopHTTP, err = s.serveHTTP(ctx); err != nil {
			ln.Close()
			closeListeners(unixLns)
			s.close()
			return fmt.Errorf("listen on %s (--http-listen): %w", s.cfg.HTTPListen, err)
		}
	}
	if ready != nil {
		ready(ln.Addr())
	}
	var wg sync.WaitGroup
	go func() {
		<-ctx.Done()
		ln.Close()
		closeListeners(unixLns)
	}()
	stopGC := s.startGC()
	stopLake := s.startLakehouse()
	s.refillSpare("")
	var accepting sync.WaitGroup
	for _, uln := range unixLns {
		accepting.Go(func() { s.accept(ctx, uln, &wg) })
	}
	s.accept(ctx, ln, &wg)
	accepting.Wait() // no connection is added to wg after this
	stopGC()
	stopLake()
	stopHTTP()
	s.shutdown(&wg)
	return nil
}

// accept serves the clients of ln, each on its own goroutine counted in
// wg, until ln is closed.
func (s *Server) accept(ctx context.Context, ln net.Listener, wg *sync.WaitGroup) {
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors (a flood of connections) and the
			// like pass: wait and accept again rather than stop serving.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			s.log.Warn("accept failed; retrying", "err", err, "after", backoff)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveConn(ctx, nc)
		}()
	}
}

func (s *Server) serveConn(ctx context.Context, nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	// The slot is taken once the startup packet is read (Admit): a
	// CancelRequest needs none, and a client that stays silent is dropped
	// after AuthenticationTimeout.
	conn := pgwire.NewConn(nc, s, pgwire.Options{MaxMessageSize: s.cfg.MaxMessageSize, Logger: s.log, TLS: s.tls, Auth: s,
		AuthenticationTimeout: s.cfg.AuthenticationTimeout, Admit: s.admit, Observer: s.metrics, ReadSpin: s.cfg.ReadSpin})
	s.sessMu.Lock()
	s.conns[conn] = struct{}{}
	s.sessMu.Unlock()
	defer func() {
		s.sessMu.Lock()
		delete(s.conns, conn)
		s.sessMu.Unlock()
	}()
	// Sessions run on their own context: shutdown ends them explicitly,
	// after their running statement, rather than by cancelling it at once.
	conn.Serve(context.WithoutCancel(ctx))
}

// admit takes a connection slot (pgwire.Options.Admit).
func (s *Server) admit() (func(), error) {
	if n := s.active.Add(1); int(n) > s.cfg.MaxConnections {
		s.active.Add(-1)
		return nil, vsqlerr.New(vsqlerr.TooManyConnections, "sorry, too many clients already (limit %d)", s.cfg.MaxConnections)
	}
	var once sync.Once
	return func() { once.Do(func() { s.active.Add(-1) }) }, nil
}

func (s *Server) shutdown(wg *sync.WaitGroup) {
	s.log.Info("shutting down: waiting for running statements", "timeout", s.cfg.ShutdownTimeout)
	s.sessMu.Lock()
	conns := make([]*pgwire.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.sessMu.Unlock()
	for _, c := range conns {
		go c.Shutdown() // waits for the running statement, then ends the session
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(s.cfg.ShutdownTimeout):
		s.log.Warn("shutdown timeout: cancelling running statements")
		s.sessMu.Lock()
		for _, sess := range s.sessions {
			sess.cancelRunning()
		}
		s.sessMu.Unlock()
		// Clients in the middle of an exchange (no Sync sent) are cut off.
		for _, c := range conns {
			go c.ForceShutdown()
		}
		<-done
	}
	s.merger.Wait() // background (async) merges finish before the engine closes
	s.versions.CheckpointAll(context.Background())
	s.close()
	s.log.Info("vsqld stopped")
}

func (s *Server) close() {
	s.stopRemotes()
	if s.lake != nil {
		s.lake.Close()
	}
	s.closeSpares()
	s.workers.Close(func() { _, _ = s.engine.Exec("SELECT 1") })
	if s.engine != nil {
		s.engine.Close() // closes the connector too
	} else if s.connector != nil {
		s.connector.Close()
	}
	if s.catalog != nil {
		s.catalog.Close()
	}
	s.lock.Unlock()
}
