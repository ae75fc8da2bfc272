package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"

	"github.com/vsql/vsql/server"
)

// startServer runs a vsqld in-process on a free port with a fresh
// repository and returns its address. The server stops when the test ends.
func startServer(t testing.TB, tweak func(*server.Config)) string {
	t.Helper()
	cfg := server.Config{DataDir: t.TempDir()}
	if tweak != nil {
		tweak(&cfg)
	}
	addr, _ := runServer(t, cfg)
	return addr
}

// runServer opens a server on cfg (its DataDir kept by the caller, so a
// test can restart on it) and returns its address and a stop function,
// also run when the test ends. Listen, Threads, ShutdownTimeout and Logger
// get test defaults where cfg leaves them zero.
func runServer(t testing.TB, cfg server.Config) (string, func()) {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Threads == 0 {
		cfg.Threads = 2
	}
	if cfg.ShutdownTimeout == 0 {
		cfg.ShutdownTimeout = 5 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.Open(ctx, cfg)
	if err != nil {
		cancel()
		t.Fatalf("open: %v", err)
	}
	addrCh := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, func(a net.Addr) { addrCh <- a.String() }) }()
	var addr string
	select {
	case addr = <-addrCh:
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v", err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("server: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return addr, stop
}

func dsn(addr, db string) string {
	host, port, _ := net.SplitHostPort(addr)
	return fmt.Sprintf("postgres://tester@%s:%s/%s?sslmode=disable", host, port, db)
}

// connectPgx opens a pgx connection whose context cancellation sends a
// CancelRequest (and keeps the connection), as applications configure it.
func connectPgx(t testing.TB, addr string) *pgx.Conn {
	t.Helper()
	cfg, err := pgx.ParseConfig(dsn(addr, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 5 * time.Second}
	}
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// freeAddr is a loopback address with a port free a moment ago.
func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
