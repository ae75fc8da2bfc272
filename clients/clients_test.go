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
	"sync"
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
	cmd.Env = append(os.Environ(), "PGHOST="+vsqld.host, "PGPORT="+vsqld.port, "PGUSER=client", "PGSSLMODE=disable", "VSQL_DB="+db,
		"ODBCSYSINI="+odbcDir(t), "ODBCINI="+filepath.Join(odbcDir(t), "odbc.ini"))
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
		{"pyodbc", []string{python, "python/pyodbc_client.py"}},
		{"sqlalchemy", []string{python, "python/sqlalchemy_client.py"}},
		{"django", []string{python, "python/django_client.py"}},
		{"knex", []string{"node", "node/knex_client.js"}},
		{"sequelize", []string{"node", "node/sequelize_client.js"}},
		{"typeorm", []string{"node", "node/typeorm_client.js"}},
		{"dbt_replay", []string{python, "python/dbt_replay.py"}},
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

// odbcDir writes the unixODBC configuration: the psqlODBC driver and the
// DSN vsql pointing at the test's vsqld.
func odbcDir(t *testing.T) string {
	t.Helper()
	odbcOnce.Do(func() {
		dir, err := os.MkdirTemp("", "vsql-odbc-")
		if err != nil {
			odbcErr = err
			return
		}
		odbcPath = dir
		driver := "/usr/lib/x86_64-linux-gnu/odbc/psqlodbcw.so"
		if matches, _ := filepath.Glob("/usr/lib/*/odbc/psqlodbcw.so"); len(matches) > 0 {
			driver = matches[0]
		}
		odbcErr = os.WriteFile(filepath.Join(dir, "odbcinst.ini"), []byte("[PostgreSQL Unicode]\nDriver = "+driver+"\n"), 0o644)
		if odbcErr == nil {
			odbcErr = os.WriteFile(filepath.Join(dir, "odbc.ini"), []byte(fmt.Sprintf(
				"[vsql]\nDriver = PostgreSQL Unicode\nServername = %s\nPort = %s\nDatabase = postgres\nUsername = client\n", vsqld.host, vsqld.port)), 0o644)
		}
	})
	if odbcErr != nil {
		t.Fatal(odbcErr)
	}
	return odbcPath
}

var (
	odbcOnce sync.Once
	odbcPath string
	odbcErr  error
)

// TestIsql: psqlODBC through unixODBC's isql, as BI tools reach it.
func TestIsql(t *testing.T) {
	prepare(t, "c_isql")
	dir := odbcDir(t)
	ini := filepath.Join(dir, "odbc.ini")
	data, err := os.ReadFile(ini)
	if err != nil {
		t.Fatal(err)
	}
	// A DSN on the client's branch.
	branchIni := filepath.Join(dir, "odbc-isql.ini")
	if err := os.WriteFile(branchIni, []byte(strings.Replace(string(data), "Database = postgres", "Database = c_isql/dev", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	script := strings.Join([]string{
		"SELECT current_database(), label FROM seed",
		"CREATE TABLE stock (sku varchar(12) PRIMARY KEY, qty integer NOT NULL, price numeric(8, 2))",
		"INSERT INTO stock VALUES ('A-1', 5, 9.99), ('B-2', 0, NULL)",
		"SELECT sku, qty, price FROM stock ORDER BY sku",
		"SELECT count(*) FROM stock WHERE qty > 0",
	}, "\n") + "\n"
	cmd := exec.Command("isql", "-b", "-d|", "-c", "vsql")
	cmd.Env = append(os.Environ(), "ODBCSYSINI="+dir, "ODBCINI="+branchIni)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("isql: %v\n%s", err, out)
	}
	check(t, "isql", string(out))
}

// TestJdbc: pgjdbc (Debian's libpostgresql-jdbc-java) compiled and run here.
func TestJdbc(t *testing.T) {
	prepare(t, "c_jdbc")
	jar := "/usr/share/java/postgresql.jar"
	classes := t.TempDir()
	if out, err := exec.Command("javac", "-d", classes, "java/JdbcClient.java").CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	check(t, "jdbc", runClient(t, "c_jdbc", "jdbc", "java", "-cp", classes+":"+jar, "JdbcClient"))
}
