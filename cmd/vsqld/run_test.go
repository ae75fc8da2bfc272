package main

import (
	"bytes"
	"context"
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

func TestHelpExplainsEveryFlag(t *testing.T) {
	var out bytes.Buffer
	m := &Main{Stdout: &out, Stderr: &out}
	if err := m.Run(context.Background(), []string{"--help"}); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []string{"-listen", "-data", "-threads", "-memory-limit", "-max-connections", "-log-level", "-authentication-timeout", "-allow-remote", "-lakehouse", "-file-access", "-allow-extensions", "-read-spin", "VSQL_READ_SPIN", "-unix-socket-dir", "VSQL_UNIX_SOCKET_DIR", "VSQL_LISTEN", "VSQL_DATA", "VSQL_AUTHENTICATION_TIMEOUT", "VSQL_ALLOW_REMOTE", "VSQL_LAKEHOUSE", "VSQL_FILE_ACCESS"} {
		if !strings.Contains(out.String(), flag) {
			t.Errorf("--help does not mention %s", flag)
		}
	}
}

// --file-access repeats and adds to VSQL_FILE_ACCESS (a PATH-like list).
func TestFileAccessFlag(t *testing.T) {
	env := map[string]string{"VSQL_FILE_ACCESS": "/a" + string(filepath.ListSeparator) + "/b", "VSQL_ALLOW_EXTENSIONS": "true"}
	m := &Main{Getenv: func(k string) string { return env[k] }}
	fs, o := m.serveFlags()
	if err := fs.Parse([]string{"--file-access", "/c", "--file-access", "/d"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(o.fileAccess, ","); got != "/a,/b,/c,/d" || !o.allowExtensions {
		t.Errorf("file access %q, allow extensions %v", got, o.allowExtensions)
	}
}

func TestBadArguments(t *testing.T) {
	for _, args := range [][]string{{"--no-such-flag"}, {"frobnicate"}, {"serve", "extra"}, {"--log-level", "loud"}, {"--allow-remote", "bucket/prefix/"}, {"--lakehouse", "/srv/lake"}, {"--authentication-timeout", "soon"}, {"--unix-socket-dir", "relative/dir"}} {
		var out bytes.Buffer
		m := &Main{Stdout: &out, Stderr: &out}
		err := m.Run(context.Background(), args)
		if !errors.Is(err, errUsage) || out.Len() == 0 {
			t.Errorf("%v: err=%v output=%q", args, err, out.String())
		}
	}
}

// --allow-remote: repeated, comma-separated, and replacing the environment.
func TestAllowRemoteList(t *testing.T) {
	env := map[string]string{"VSQL_ALLOW_REMOTE": "s3://env/a/, s3://env/b/"}
	m := &Main{Getenv: func(k string) string { return env[k] }}
	fs, o := m.serveFlags()
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	if got := o.allowRemotes.String(); got != "s3://env/a/,s3://env/b/" {
		t.Errorf("from the environment: %q", got)
	}
	fs, o = m.serveFlags()
	if err := fs.Parse([]string{"--allow-remote", "s3://x/1/,s3://x/2/", "--allow-remote", "s3://y/"}); err != nil {
		t.Fatal(err)
	}
	if got := o.allowRemotes.String(); got != "s3://x/1/,s3://x/2/,s3://y/" {
		t.Errorf("from flags: %q", got)
	}
}

// Flags come from the environment; SIGINT (a cancelled context) stops the
// server with a nil error after running statements have finished.
func TestServeFromEnvironmentAndStop(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"VSQL_LISTEN": "127.0.0.1:0", "VSQL_DATA": filepath.Join(dir, "repo"), "VSQL_THREADS": "1"}
	addrCh := make(chan net.Addr, 1)
	var logs bytes.Buffer
	m := &Main{Stdout: &logs, Stderr: &logs, Getenv: func(k string) string { return env[k] }, Ready: func(a net.Addr) { addrCh <- a }}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, nil) }()
	var addr net.Addr
	select {
	case addr = <-addrCh:
	case err := <-done:
		t.Fatalf("serve: %v\n%s", err, logs.String())
	}
	conn, err := pgx.Connect(context.Background(), "postgres://u@"+addr.String()+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	// A statement in flight when shutdown starts still completes.
	result := make(chan error, 1)
	go func() {
		var n int64
		result <- conn.QueryRow(context.Background(), "SELECT count(*) FROM range(200000000) WHERE range % 3 = 0").Scan(&n)
	}()
	// Stop once the statement runs (not in the gap between pgx's prepare
	// and its execute, when it is not in flight yet).
	watch, err := pgx.Connect(context.Background(), "postgres://u@"+addr.String()+"/postgres?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		var n int
		if err := watch.QueryRow(context.Background(), "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT count(*) FROM range(200000000)%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the statement never showed as running in pg_stat_activity")
		}
		time.Sleep(5 * time.Millisecond)
	}
	watch.Close(context.Background())
	stop()
	if err := <-result; err != nil {
		t.Errorf("running statement did not finish during shutdown: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("serve returned %v", err)
	}
	if !strings.Contains(logs.String(), "vsqld stopped") {
		t.Errorf("no clean stop in the logs:\n%s", logs.String())
	}
}
