package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestUnixSocket: vsqld also accepts clients on .s.PGSQL.<port> in each
// --unix-socket-dir: psql given the directory as its host, pgx with its
// defaults (a cancel request included), pg_stat_activity showing the
// session as PostgreSQL shows a socket's; a socket file left by a server
// that died is replaced, and the sockets are gone after the shutdown.
func TestUnixSocket(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatalf("psql is needed (scripts/test-deps.sh installs it): %v", err)
	}
	bin := vsqldBinary(t)
	addr := freeAddr(t)
	_, port, _ := net.SplitHostPort(addr)
	dirA, dirB := t.TempDir(), t.TempDir()
	// A socket file whose server is gone: it refuses connections.
	stale := filepath.Join(dirA, ".s.PGSQL."+port)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	ln.Close()

	c := startChildAt(t, bin, addr, t.TempDir(), "", "--unix-socket-dir", dirA+","+dirB)
	// The child answers over TCP as soon as its TCP listener is up (the
	// kernel queues the connection); its sockets follow, each made and then
	// opened to everyone (chmod 0777), as PostgreSQL makes its own. So each
	// gets a few seconds to be there and open.
	for _, dir := range []string{dirA, dirB} {
		var fi os.FileInfo
		var err error
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			fi, err = os.Stat(filepath.Join(dir, ".s.PGSQL."+port))
			if err == nil && fi.Mode()&os.ModeSocket != 0 && fi.Mode().Perm() == 0o777 || time.Now().After(deadline) {
				break
			}
		}
		if err != nil || fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o777 {
			t.Fatalf("socket in %s: %v, %v\n%s", dir, fi, err, c.logs)
		}
	}

	// What a socket's session shows in pg_stat_activity, as PostgreSQL 15
	// shows its own (client_addr NULL, client_port -1).
	const whoAmI = "SELECT coalesce(client_addr::text, 'null') || ' ' || client_port FROM pg_stat_activity WHERE pid = pg_backend_pid()"
	pgDir, pgPort := pgtest.Socket(t)
	want, err := exec.Command(psql, "-h", pgDir, "-p", strconv.Itoa(pgPort), "-U", "postgres", "-d", "postgres", "-XAt", "-c", whoAmI).CombinedOutput()
	if err != nil {
		t.Fatalf("psql over PostgreSQL's socket: %v: %s", err, want)
	}
	out, err := exec.Command(psql, "-h", dirA, "-p", port, "-U", "t", "-d", "postgres", "-XAt", "-c", whoAmI).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != strings.TrimSpace(string(want)) {
		t.Fatalf("psql over the socket: %v: %q, PostgreSQL 15: %q", err, out, want)
	}

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, fmt.Sprintf("host=%s port=%s user=t dbname=postgres", dirB, port))
	if err != nil {
		t.Fatal(err)
	}
	exec1(t, conn, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")
	exec1(t, conn, "INSERT INTO t VALUES (1, 'over the socket')")
	if v := scalar[string](t, conn, "SELECT v FROM t WHERE id = 1"); v != "over the socket" {
		t.Fatalf("read back %q", v)
	}
	// A cancel request reaches the session over the socket too.
	done := make(chan error, 1)
	go func() {
		_, err := conn.Exec(ctx, "SELECT count(*) FROM range(10000000000) r(i) WHERE i % 7 = 3")
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	if err := conn.PgConn().CancelRequest(ctx); err != nil {
		t.Fatalf("cancel request over the socket: %v", err)
	}
	select {
	case err := <-done:
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "57014" {
			t.Fatalf("canceled over the socket: %v, want SQLSTATE 57014", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the statement was not canceled")
	}
	conn.Close(ctx)

	c.stop(t)
	for _, dir := range []string{dirA, dirB} {
		if _, err := os.Lstat(filepath.Join(dir, ".s.PGSQL."+port)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("socket in %s after the shutdown: %v", dir, err)
		}
	}
}

// TestUnixSocketRefused: a directory given explicitly must take the
// socket: vsqld does not start beside a live server's socket of the same
// port, nor over a file that is no socket, and says why.
func TestUnixSocketRefused(t *testing.T) {
	bin := vsqldBinary(t)
	for _, tc := range []struct {
		name, want string
		prepare    func(path string) func()
	}{
		{"live server", "in use by another server", func(path string) func() {
			ln, err := net.Listen("unix", path)
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				for {
					c, err := ln.Accept()
					if err != nil {
						return
					}
					c.Close()
				}
			}()
			return func() { ln.Close() }
		}},
		{"not a socket", "exists and is not a socket", func(path string) func() {
			if err := os.WriteFile(path, []byte("mine"), 0o600); err != nil {
				t.Fatal(err)
			}
			return func() {}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := freeAddr(t)
			_, port, _ := net.SplitHostPort(addr)
			dir := t.TempDir()
			path := filepath.Join(dir, ".s.PGSQL."+port)
			defer tc.prepare(path)()
			out, err := runBinary(bin, "serve", "--listen", addr, "--data", t.TempDir(), "--unix-socket-dir", dir)
			if err == nil || !strings.Contains(out, tc.want) {
				t.Fatalf("vsqld beside %s: %v\n%s", tc.name, err, out)
			}
			if _, err := os.Lstat(path); err != nil {
				t.Fatalf("the other file was touched: %v", err)
			}
		})
	}
}

// --unix-socket-dir: the default list is tried, not required; one from
// the environment or the command line is required; an empty value and
// none create no socket; a relative directory is refused.
func TestUnixSocketDirFlag(t *testing.T) {
	for _, tc := range []struct {
		env      string
		args     []string
		dirs     string
		optional bool
	}{
		{"", nil, defaultUnixSocketDirs, true},
		{"/run/a,/run/b", nil, "/run/a,/run/b", false},
		{"/run/a", []string{"--unix-socket-dir", "/x", "--unix-socket-dir", "/y"}, "/x,/y", false},
		{"", []string{"--unix-socket-dir", ""}, "", false},
		{"", []string{"--unix-socket-dir", "none"}, "", false},
		{"none", nil, "", false},
	} {
		m := &Main{Getenv: func(k string) string {
			if k == "VSQL_UNIX_SOCKET_DIR" {
				return tc.env
			}
			return ""
		}}
		fs, o := m.serveFlags()
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		dirs, optional, err := o.unixSocketDirList(m)
		if err != nil || strings.Join(dirs, ",") != tc.dirs || optional != tc.optional {
			t.Errorf("env %q, args %q: %q, optional %v, %v; want %q, optional %v", tc.env, tc.args, dirs, optional, err, tc.dirs, tc.optional)
		}
	}
	m := &Main{}
	fs, o := m.serveFlags()
	if err := fs.Parse([]string{"--unix-socket-dir", "run/relative"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := o.unixSocketDirList(m); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("a relative directory: %v", err)
	}
}
