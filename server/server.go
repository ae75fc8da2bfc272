package server

import (
	"context"
	"crypto/rand"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// dropWait is how long DROP DATABASE waits for other sessions to end.
const dropWait = 5 * time.Second

// DefaultDatabase exists from the first start, so a bare psql works.
const DefaultDatabase = "postgres"

// Server owns the DuckDB engine, the catalog and every session.
type Server struct {
	cfg     Config
	log     *slog.Logger
	engine  *duckdb.Connector
	catalog *catalog.Catalog

	// admin is a DuckDB connection used for ATTACH, DETACH and CHECKPOINT.
	adminMu sync.Mutex
	admin   driver.Conn

	// dbMu guards attached and the session counts; it is held across
	// attach/detach so that no session starts on a database being dropped.
	dbMu     sync.Mutex
	attached map[string]int // database name → sessions using it

	sessMu   sync.Mutex
	sessions map[uint32]*Session
	conns    map[*pgwire.Conn]struct{}
	nextPID  atomic.Uint32
	active   atomic.Int32

	listener net.Listener
}

// Open prepares the repository (creating it and the postgres database on
// first start) and the DuckDB engine. It does not listen yet.
func Open(ctx context.Context, cfg Config) (*Server, error) {
	cfg.setDefaults()
	for _, dir := range []string{cfg.DataDir, filepath.Join(cfg.DataDir, "live"), filepath.Join(cfg.DataDir, "staging")} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("create repository directory: %w", err)
		}
	}
	// Staging files of interrupted work are never resumed from disk.
	if err := clearDir(filepath.Join(cfg.DataDir, "staging")); err != nil {
		return nil, err
	}
	cat, err := catalog.Open(ctx, filepath.Join(cfg.DataDir, "catalog.db"))
	if err != nil {
		return nil, err
	}
	q := url.Values{}
	if cfg.Threads > 0 {
		q.Set("threads", strconv.Itoa(cfg.Threads))
	}
	if cfg.MemoryLimit != "" {
		q.Set("memory_limit", cfg.MemoryLimit)
	}
	dsn := ":memory:"
	if len(q) > 0 {
		dsn += "?" + q.Encode()
	}
	engine, err := duckdb.NewConnector(dsn, nil)
	if err != nil {
		cat.Close()
		return nil, fmt.Errorf("start DuckDB: %w", err)
	}
	admin, err := engine.Connect(ctx)
	if err != nil {
		engine.Close()
		cat.Close()
		return nil, fmt.Errorf("connect to DuckDB: %w", err)
	}
	s := &Server{
		cfg: cfg, log: cfg.Logger, engine: engine, catalog: cat, admin: admin,
		attached: map[string]int{},
		sessions: map[uint32]*Session{},
		conns:    map[*pgwire.Conn]struct{}{},
	}
	if err := s.ensureDefaultDatabase(ctx); err != nil {
		s.closeEngine()
		return nil, err
	}
	// Attach every database up front (1–2 ms each), so that qualified names
	// such as retail.main.orders work from any session.
	if err := s.attachAll(ctx); err != nil {
		s.closeEngine()
		return nil, err
	}
	return s, nil
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
		if _, err := tx.CreateDatabase(ctx, DefaultDatabase); err != nil {
			return err
		}
		return nil
	})
}

func (s *Server) attachAll(ctx context.Context) error {
	var dbs []catalog.Database
	if err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		dbs, err = tx.Databases(ctx)
		return err
	}); err != nil {
		return err
	}
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	for _, d := range dbs {
		if err := s.attachFile(ctx, d.Name); err != nil {
			return err
		}
		s.attached[d.Name] = 0
	}
	return nil
}

// liveFile is the DuckDB file of a database's main branch.
func (s *Server) liveFile(db string) string {
	return filepath.Join(s.cfg.DataDir, "live", db, "main.duckdb")
}

// adminExec runs one statement on the admin connection.
func (s *Server) adminExec(ctx context.Context, query string) error {
	s.adminMu.Lock()
	defer s.adminMu.Unlock()
	_, err := s.admin.(driver.ExecerContext).ExecContext(ctx, query, nil)
	return err
}

// acquireDatabase attaches a database if needed and counts one more session
// on it. Unknown databases fail with 3D000.
func (s *Server) acquireDatabase(ctx context.Context, name string) error {
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	if _, ok := s.attached[name]; !ok {
		err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
			_, err := tx.Database(ctx, name)
			return err
		})
		if errors.Is(err, catalog.ErrNotFound) {
			return vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", name)
		}
		if err != nil {
			return err
		}
		if err := s.attachFile(ctx, name); err != nil {
			return err
		}
		s.attached[name] = 0
	}
	s.attached[name]++
	return nil
}

func (s *Server) attachFile(ctx context.Context, name string) error {
	path := s.liveFile(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create database directory: %w", err)
	}
	if err := s.adminExec(ctx, "ATTACH "+sqltext.QuoteString(path)+" AS "+sqltext.QuoteIdent(name)); err != nil {
		return fmt.Errorf("attach database %q: %w", name, err)
	}
	return nil
}

func (s *Server) releaseDatabase(name string) {
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	if n, ok := s.attached[name]; ok && n > 0 {
		s.attached[name] = n - 1
	}
}

// createDatabase records and creates a new, empty database.
func (s *Server) createDatabase(ctx context.Context, name string) error {
	if err := sqltext.ValidName("database", name); err != nil {
		return vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		if _, err := tx.CreateDatabase(ctx, name); err != nil {
			return err
		}
		// Create the file inside the catalog transaction: if it fails, the
		// database is not recorded.
		if err := s.attachFile(ctx, name); err != nil {
			return err
		}
		s.attached[name] = 0
		return nil
	})
	if errors.Is(err, catalog.ErrExists) {
		return vsqlerr.New(vsqlerr.DatabaseExists, "database %q already exists", name)
	}
	return err
}

// dropDatabase removes a database that no session uses. current is the
// database of the calling session.
func (s *Server) dropDatabase(ctx context.Context, name, current string, ifExists bool) (notice *vsqlerr.Error, err error) {
	if name == current {
		return nil, vsqlerr.New(vsqlerr.DatabaseInUse, "cannot drop the currently open database %q", name).
			WithHint("Connect to another database (for example postgres) and drop it from there.")
	}
	// As PostgreSQL does, give sessions that are just ending a few seconds
	// to go before refusing.
	deadline := time.Now().Add(dropWait)
	s.dbMu.Lock()
	for s.attached[name] > 0 && time.Now().Before(deadline) && ctx.Err() == nil {
		s.dbMu.Unlock()
		time.Sleep(10 * time.Millisecond)
		s.dbMu.Lock()
	}
	defer s.dbMu.Unlock()
	if n := s.attached[name]; n > 0 {
		return nil, vsqlerr.New(vsqlerr.DatabaseInUse, "database %q is being accessed by %d other session(s)", name, n)
	}
	err = s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		if err := tx.DropDatabase(ctx, name); err != nil {
			return err
		}
		if _, ok := s.attached[name]; ok {
			if err := s.adminExec(ctx, "DETACH "+sqltext.QuoteIdent(name)); err != nil {
				return fmt.Errorf("detach database %q: %w", name, err)
			}
			delete(s.attached, name)
		}
		return nil
	})
	if errors.Is(err, catalog.ErrNotFound) {
		if ifExists {
			n := vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist, skipping", name)
			n.Severity, n.SQLState, n.Hint = "NOTICE", "00000", ""
			return n, nil
		}
		return nil, vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", name)
	}
	if err != nil {
		return nil, err
	}
	// The record is gone; remove the files. A failure here leaves garbage,
	// never a half-visible database.
	if err := os.RemoveAll(filepath.Dir(s.liveFile(name))); err != nil {
		s.log.Warn("remove dropped database files", "database", name, "err", err)
	}
	return nil, nil
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
	target, err := ParseDBName(dbname)
	if err != nil {
		return nil, err
	}
	if target.Branch != "" || target.Snapshot != "" {
		return nil, vsqlerr.New(vsqlerr.DbnameNotSupported, "dbname %q selects a branch or snapshot; branches and snapshots are not supported yet", dbname)
	}
	if err := s.acquireDatabase(ctx, target.Database); err != nil {
		return nil, err
	}
	sess, err := s.newSession(ctx, target, dbname, params)
	if err != nil {
		s.releaseDatabase(target.Database)
		return nil, err
	}
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
		s.closeEngine()
		return fmt.Errorf("listen on %s: %w", s.cfg.Listen, err)
	}
	s.listener = ln
	s.log.Info("vsqld listening", "addr", ln.Addr().String(), "data", s.cfg.DataDir)
	if ready != nil {
		ready(ln.Addr())
	}
	var wg sync.WaitGroup
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(10 * time.Millisecond)
				continue
			}
			s.log.Error("accept", "err", err)
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.serveConn(ctx, nc)
		}()
	}
	s.shutdown(&wg)
	return nil
}

func (s *Server) serveConn(ctx context.Context, nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	conn := pgwire.NewConn(nc, s, pgwire.Options{MaxMessageSize: s.cfg.MaxMessageSize, Logger: s.log})
	if n := s.active.Add(1); int(n) > s.cfg.MaxConnections {
		s.active.Add(-1)
		conn.Refuse(vsqlerr.New(vsqlerr.TooManyConnections, "sorry, too many clients already (limit %d)", s.cfg.MaxConnections))
		return
	}
	defer s.active.Add(-1)
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
		<-done
	}
	s.checkpointAll()
	s.closeEngine()
	s.log.Info("vsqld stopped")
}

// checkpointAll writes every attached database's WAL into its file.
func (s *Server) checkpointAll() {
	s.dbMu.Lock()
	defer s.dbMu.Unlock()
	for name := range s.attached {
		if err := s.adminExec(context.Background(), "CHECKPOINT "+sqltext.QuoteIdent(name)); err != nil {
			s.log.Error("checkpoint", "database", name, "err", err)
		}
	}
}

func (s *Server) closeEngine() {
	if s.admin != nil {
		s.admin.Close()
	}
	s.engine.Close()
	s.catalog.Close()
}
