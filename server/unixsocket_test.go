package server_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/server"
)

// TestUnixSocketDirsOptional: with UnixSocketDirsOptional (vsqld's default
// list) a missing directory and one whose socket path is taken by a file
// are skipped, the file untouched, and the server serves on the socket of
// the directory that works; without it the missing directory fails Serve
// with its name.
func TestUnixSocketDirsOptional(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	missing := filepath.Join(t.TempDir(), "missing")
	taken, good := t.TempDir(), t.TempDir()
	file := filepath.Join(taken, fmt.Sprintf(".s.PGSQL.%d", port))
	if err := os.WriteFile(file, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	startServer(t, func(c *server.Config) {
		c.Listen = fmt.Sprintf("127.0.0.1:%d", port)
		c.UnixSocketDirs = []string{missing, taken, good}
		c.UnixSocketDirsOptional = true
	})
	if b, err := os.ReadFile(file); err != nil || string(b) != "mine" {
		t.Fatalf("the file in the socket's place: %q, %v", b, err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=%s port=%d user=t dbname=postgres", good, port))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var one int
	if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("over the socket: %d, %v", one, err)
	}

	srv, err := server.Open(ctx, server.Config{DataDir: t.TempDir(), Listen: "127.0.0.1:0", UnixSocketDirs: []string{missing}})
	if err != nil {
		t.Fatal(err)
	}
	err = srv.Serve(ctx, nil)
	if err == nil || !strings.Contains(err.Error(), missing) || !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a required directory that is missing: %v", err)
	}
}
