package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
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
	cfg := server.Config{
		Listen:          "127.0.0.1:0",
		DataDir:         t.TempDir(),
		Threads:         2,
		ShutdownTimeout: 5 * time.Second,
		Logger:          slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if tweak != nil {
		tweak(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := server.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	addrCh := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, func(a net.Addr) { addrCh <- a.String() }) }()
	var addr string
	select {
	case addr = <-addrCh:
	case err := <-done:
		t.Fatalf("server did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	})
	return addr
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
