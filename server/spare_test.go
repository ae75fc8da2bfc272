package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestSpareConnection checks that a session starts on the connection made
// ahead with its token, id and secret, that sessions on spares keep their
// own sequence values, when the next spare is made, and that a spare made
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

	state := func() (sc *spareConn, making bool) {
		srv.spares.mu.Lock()
		defer srv.spares.mu.Unlock()
		return srv.spares.ready, srv.spares.making
	}
	waitSpare := func() *spareConn {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
			if sc, _ := state(); sc != nil {
				return sc
			}
		}
		t.Fatal("no spare connection made")
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

	first := waitSpare() // made when Serve starts, for no branch
	if first.alias != "" {
		t.Fatalf("the first spare is current on %q", first.alias)
	}
	c1 := connect()
	defer c1.Close(ctx)
	if got := backendPID(c1); got != first.pid || c1.PgConn().PID() != first.pid {
		t.Fatalf("session 1: pg_backend_pid %d, BackendKeyData %d; the spare's pid was %d", got, c1.PgConn().PID(), first.pid)
	}
	if string(c1.PgConn().SecretKey()) != string(first.secret) {
		t.Fatal("session 1's cancel secret is not the spare's")
	}
	// Taken at a session's start, the next spare is made only at a session's
	// end or when a session finds none.
	if sc, making := state(); sc != nil || making {
		t.Fatalf("a spare was made at a session's start (ready %v, making %v)", sc != nil, making)
	}
	for _, q := range []string{"CREATE SEQUENCE spare_s", "CREATE TABLE spare_t (i int)", "INSERT INTO spare_t VALUES (1)"} {
		if _, err := c1.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if v, err := value(c1, "SELECT nextval('spare_s')"); err != nil || v != 1 {
		t.Fatalf("session 1 nextval: %d, %v", v, err)
	}

	c2 := connect() // finds no spare: connects on its own and starts the next
	defer c2.Close(ctx)
	pid2 := backendPID(c2)
	if pid2 == first.pid {
		t.Fatal("two sessions share a process id")
	}
	second := waitSpare()
	if second.pid == pid2 || second.pid == first.pid || second.token == first.token {
		t.Fatalf("the second spare reuses an id or token: pid %d (sessions %d, %d)", second.pid, first.pid, pid2)
	}
	mainAlias := aliasOf(pid2)
	if second.alias != mainAlias {
		t.Fatalf("the spare made for session 2's branch is current on %q, want %q", second.alias, mainAlias)
	}
	var pgErr *pgconn.PgError
	if _, err := value(c2, "SELECT currval('spare_s')"); !errors.As(err, &pgErr) || pgErr.Code != "55000" {
		t.Fatalf("session 2 currval before its nextval: %v, want 55000", err)
	}
	if v, err := value(c2, "SELECT nextval('spare_s')"); err != nil || v != 2 {
		t.Fatalf("session 2 nextval: %d, %v", v, err)
	}
	c3 := connect() // takes the second spare
	defer c3.Close(ctx)
	if got := backendPID(c3); got != second.pid {
		t.Fatalf("session 3: pg_backend_pid %d, the spare's %d", got, second.pid)
	}
	if v, err := value(c3, "SELECT nextval('spare_s')"); err != nil || v != 3 {
		t.Fatalf("session 3 nextval: %d, %v", v, err)
	}
	if v, err := value(c3, "SELECT count(*) FROM spare_t"); err != nil || v != 1 {
		t.Fatalf("session 3 (its USE skipped) reads spare_t: %d, %v", v, err)
	}
	for i, c := range []*pgx.Conn{c1, c2, c3} {
		if v, err := value(c, "SELECT currval('spare_s')"); err != nil || v != int64(i+1) {
			t.Fatalf("session %d currval: %d, %v", i+1, v, err)
		}
	}
	c1.Close(ctx)
	third := waitSpare() // a session's end makes the next, on its branch
	if third.alias != mainAlias {
		t.Fatalf("the spare made at session 1's end is current on %q, want %q", third.alias, mainAlias)
	}
	// A session on another branch takes it and runs USE: what it writes is
	// on its branch, not on the spare's.
	for _, q := range []string{"SELECT * FROM vsql_create_snapshot()", "SELECT * FROM vsql_create_branch(NULL, 'spare_side')"} {
		if _, err := c2.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	side := connectTo("postgres/spare_side")
	defer side.Close(ctx)
	if got := backendPID(side); got != third.pid {
		t.Fatalf("side session: pg_backend_pid %d, the spare's %d", got, third.pid)
	}
	if aliasOf(third.pid) == mainAlias {
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

	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if sc, making := state(); sc != nil || making || !srv.spares.closed {
		t.Fatalf("after close: spare %v, making %v, closed %v", sc != nil, making, srv.spares.closed)
	}
}
