package clients_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

var update = flag.Bool("update", false, "rewrite expected/*.out from the clients' output")

// vsqld is the server every client talks to: a fresh binary on a fresh
// repository and a free port.
var vsqld struct {
	host, port string
	logs       bytes.Buffer
}

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "vsql-clients-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "vsqld")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/vsqld").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build vsqld: %v\n%s", err, out)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	addr := ln.Addr().String()
	ln.Close()
	vsqld.host, vsqld.port, _ = net.SplitHostPort(addr)
	cmd := exec.Command(bin, "serve", "--listen", addr, "--data", filepath.Join(dir, "data"), "--threads", "2")
	cmd.Stdout, cmd.Stderr = &vsqld.logs, &vsqld.logs
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { cmd.Process.Signal(os.Interrupt); cmd.Wait() }()
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if i == 300 {
			fmt.Fprintf(os.Stderr, "vsqld did not start:\n%s", vsqld.logs.String())
			return 1
		}
		time.Sleep(20 * time.Millisecond)
	}
	return m.Run()
}

func connString(db string) string {
	return fmt.Sprintf("host=%s port=%s user=client dbname='%s' sslmode=disable", vsqld.host, vsqld.port, db)
}

// prepare creates the client's database with a seed table, snapshots it
// and creates the branch dev: clients work on "<db>/dev".
func prepare(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, connString("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, connString(db))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for _, q := range []string{
		"CREATE TABLE seed (id integer PRIMARY KEY, label varchar NOT NULL)",
		"INSERT INTO seed VALUES (1, 'from main')",
		"SELECT * FROM vsql_create_snapshot()",
		"SELECT * FROM vsql_create_branch(NULL, 'dev')",
	} {
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// check compares a client's output with expected/<name>.out.
func check(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("expected", name+".out")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("output of %s differs from %s:\n--- want\n%s\n--- got\n%s\n--- vsqld log (tail)\n%s", name, path, want, got, tail(vsqld.logs.String(), 3000))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// runClient runs one external client program with the connection in its
// environment (PGHOST, PGPORT, PGUSER, VSQL_DB = the database).
func runClient(t *testing.T, db string, name string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Env = append(os.Environ(), "PGHOST="+vsqld.host, "PGPORT="+vsqld.port, "PGUSER=client", "PGSSLMODE=disable", "VSQL_DB="+db)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\nstdout:\n%s\nstderr:\n%s\nvsqld log (tail):\n%s", name, err, stdout.String(), stderr.String(), tail(vsqld.logs.String(), 3000))
	}
	return stdout.String()
}

// python is Debian's interpreter, which sees the Debian client packages.
const python = "/usr/bin/python3"

func TestClients(t *testing.T) {
	clients := []struct {
		name string
		args []string
	}{
		{"psycopg2", []string{python, "python/psycopg2_client.py"}},
		{"psycopg3", []string{python, "python/psycopg3_client.py"}},
		{"asyncpg", []string{python, "python/asyncpg_client.py"}},
		{"node_pg", []string{"node", "node/pg_client.js"}},
		{"postgresjs", []string{"node", "node/postgresjs_client.js"}},
	}
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			db := "c_" + c.name
			prepare(t, db)
			check(t, c.name, runClient(t, db, c.name, c.args...))
		})
	}
}

// lines joins output lines.
func lines(parts ...string) string { return strings.Join(parts, "\n") + "\n" }
