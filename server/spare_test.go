package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestSpareConnection checks that a session starts on a connection made
// ahead with its token, id and secret, that sessions on spares keep their
// own sequence values, when the next spares are made, that a session
// takes the spare current on its branch first, and that a spare made
// current on one branch serves a session on another on that other.
func TestSpareConnection(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := Open(ctx, Config{DataDir: t.TempDir(), Listen: "127.0.0.1:0", Threads: 2,
		ShutdownTimeout: 5 * time.Second, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan net.Addr, 1)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, func(a net.Addr) { ready <- a }) }()
	addr := (<-ready).String()

	state := func() (ready []*spareConn, making bool) {
		srv.spares.mu.Lock()
		defer srv.spares.mu.Unlock()
		return slices.Clone(srv.spares.ready), srv.spares.making
	}
	// waitSpares waits until n spares are ready and none is being made.
	waitSpares := func(n int) []*spareConn {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if ready, making := state(); len(ready) == n && !making {
				return ready
			}
		}
		ready, making := state()
		t.Fatalf("want %d spare connections ready: %d, making %v", n, len(ready), making)
		return nil
	}
	connectTo := func(dbname string) *pgx.Conn {
		t.Helper()
		c, err := pgx.Connect(ctx, "postgres://postgres@"+addr+"/"+dbname+"?sslmode=disable")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	connect := func() *pgx.Conn { return connectTo("postgres") }
	aliasOf := func(pid uint32) string {
		srv.sessMu.Lock()
		defer srv.sessMu.Unlock()
		return srv.sessions[pid].alias
	}
	backendPID := func(c *pgx.Conn) uint32 {
		t.Helper()
		var pid int64
		if err := c.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
			t.Fatal(err)
		}
		return uint32(pid)
	}
	value := func(c *pgx.Conn, q string) (int64, error) {
		var v int64
		err := c.QueryRow(ctx, q).Scan(&v)
		return v, err
	}
	pids, tokens := map[uint32]bool{}, map[string]bool{}
	distinct := func(scs ...*spareConn) {
		t.Helper()
		for _, sc := range scs {
			if pids[sc.pid] || tokens[sc.token] {
				t.Fatalf("a spare reuses a process id or token: pid %d", sc.pid)
			}
			pids[sc.pid], tokens[sc.token] = true, true
		}
	}

	initial := waitSpares(spareTarget) // made when Serve starts, for no branch
	distinct(initial...)
	for _, sc := range initial {
		if sc.alias != "" {
			t.Fatalf("a first spare is current on %q", sc.alias)
		}
	}
	c1 := connect() // none is current on its branch: takes the oldest
	defer c1.Close(ctx)
	if got := backendPID(c1); got != initial[0].pid || c1.PgConn().PID() != initial[0].pid {
		t.Fatalf("session 1: pg_backend_pid %d, BackendKeyData %d; the spare's pid was %d", got, c1.PgConn().PID(), initial[0].pid)
	}
	if string(c1.PgConn().SecretKey()) != string(initial[0].secret) {
		t.Fatal("session 1's cancel secret is not the spare's")
	}
	// Taken at a session's start, spares are made again only at a
	// session's end or when a session finds none.
	if ready, making := state(); len(ready) != 1 || making {
		t.Fatalf("after a session's start: %d spares ready, making %v; want 1, false", len(ready), making)
	}
	for _, q := range []string{"CREATE SEQUENCE spare_s", "CREATE TABLE spare_t (i int)", "INSERT INTO spare_t VALUES (1)"} {
		if _, err := c1.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := value(c1, "SELECT nextval('spare_s')"); err != nil || v != 1 {
		t.Fatalf("session 1 nextval: %d, %v", v, err)
	}
	c2 := connect() // takes the other
	defer c2.Close(ctx)
	if got := backendPID(c2); got != initial[1].pid {
		t.Fatalf("session 2: pg_backend_pid %d, the spare's %d", got, initial[1].pid)
	}
	if ready, making := state(); len(ready) != 0 || making {
		t.Fatalf("after two sessions' starts: %d spares ready, making %v; want 0, false", len(ready), making)
	}

	c3 := connect() // finds none: connects on its own and starts the next
	defer c3.Close(ctx)
	pid3 := backendPID(c3)
	if pids[pid3] {
		t.Fatal("two sessions share a process id")
	}
	made := waitSpares(spareTarget)
	distinct(made...)
	mainAlias := aliasOf(pid3)
	for _, sc := range made {
		if sc.alias != mainAlias || sc.pid == pid3 {
			t.Fatalf("a spare made for session 3 (pid %d, branch %q): pid %d, current on %q", pid3, mainAlias, sc.pid, sc.alias)
		}
	}
	var pgErr *pgconn.PgError
	if _, err := value(c3, "SELECT currval('spare_s')"); !errors.As(err, &pgErr) || pgErr.Code != "55000" {
		t.Fatalf("session 3 currval before its nextval: %v, want 55000", err)
	}
	for i, c := range []*pgx.Conn{c2, c3} {
		if v, err := value(c, "SELECT nextval('spare_s')"); err != nil || v != int64(i+2) {
			t.Fatalf("session %d nextval: %d, %v", i+2, v, err)
		}
	}
	c4 := connect() // takes a spare current on its branch
	defer c4.Close(ctx)
	if got := backendPID(c4); got != made[0].pid {
		t.Fatalf("session 4: pg_backend_pid %d, the spare's %d", got, made[0].pid)
	}
	if v, err := value(c4, "SELECT nextval('spare_s')"); err != nil || v != 4 {
		t.Fatalf("session 4 nextval: %d, %v", v, err)
	}
	if v, err := value(c4, "SELECT count(*) FROM spare_t"); err != nil || v != 1 {
		t.Fatalf("session 4 (its USE skipped) reads spare_t: %d, %v", v, err)
	}
	for i, c := range []*pgx.Conn{c1, c2, c3, c4} {
		if v, err := value(c, "SELECT currval('spare_s')"); err != nil || v != int64(i+1) {
			t.Fatalf("session %d currval: %d, %v", i+1, v, err)
		}
	}

	// A session on another branch takes a spare current on main and runs
	// USE: what it writes is on its branch, not on the spare's.
	for _, q := range []string{"SELECT * FROM vsql_create_snapshot()", "SELECT * FROM vsql_create_branch(NULL, 'spare_side')"} {
		if _, err := c2.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	side := connectTo("postgres/spare_side")
	if got := backendPID(side); got != made[1].pid {
		t.Fatalf("side session: pg_backend_pid %d, the spare's %d", got, made[1].pid)
	}
	sideAlias := aliasOf(made[1].pid)
	if sideAlias == mainAlias {
		t.Fatal("the side session's alias is main's")
	}
	for _, q := range []string{"CREATE TABLE side_only (i int)", "INSERT INTO side_only VALUES (7)"} {
		if _, err := side.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := value(c2, "SELECT count(*) FROM side_only"); !errors.As(err, &pgErr) || pgErr.Code != "42P01" {
		t.Fatalf("main reads the side session's table: %v, want 42P01", err)
	}
	if v, err := value(side, "SELECT count(*) FROM side_only"); err != nil || v != 1 {
		t.Fatalf("side reads its table: %d, %v", v, err)
	}

	// A session's end makes spares on its branch, and a session takes the
	// one current on its branch before an older one.
	c1.Close(ctx)
	onMain := waitSpares(spareTarget)
	distinct(onMain...)
	for _, sc := range onMain {
		if sc.alias != mainAlias {
			t.Fatalf("a spare made at session 1's end is current on %q, want %q", sc.alias, mainAlias)
		}
	}
	c5 := connect()
	defer c5.Close(ctx)
	if got := backendPID(c5); got != onMain[0].pid {
		t.Fatalf("session 5: pg_backend_pid %d, the spare's %d", got, onMain[0].pid)
	}
	side.Close(ctx)
	mixed := waitSpares(spareTarget)
	if mixed[0].pid != onMain[1].pid || mixed[1].alias != sideAlias {
		t.Fatalf("after the side session's end: spares on %q and %q, want %q then %q", mixed[0].alias, mixed[1].alias, mainAlias, sideAlias)
	}
	distinct(mixed[1])
	side2 := connectTo("postgres/spare_side")
	defer side2.Close(ctx)
	if got := backendPID(side2); got != mixed[1].pid {
		t.Fatalf("second side session: pg_backend_pid %d, the side spare's %d (the main one's %d)", got, mixed[1].pid, mixed[0].pid)
	}
	if v, err := value(side2, "SELECT count(*) FROM side_only"); err != nil || v != 1 {
		t.Fatalf("second side session reads its branch's table: %d, %v", v, err)
	}

	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if ready, making := state(); len(ready) != 0 || making || !srv.spares.closed {
		t.Fatalf("after close: %d spares, making %v, closed %v", len(ready), making, srv.spares.closed)
	}
}
