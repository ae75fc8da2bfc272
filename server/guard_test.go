package server

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/sqltext"
)

func TestProtectedPath(t *testing.T) {
	g := &guard{roots: []string{"/srv/vsql"}, files: []string{"/etc/vsql/users"}, cwd: "/home/op", home: "/home/op"}
	for lit, want := range map[string]bool{
		"/srv/vsql":                   true,
		"/srv/vsql/users":             true,
		"/srv/vsql/blocks/aa/bb/x":    true,
		"/srv/vsql/live/db/main.csv":  true,
		"file:///srv/vsql/catalog.db": true,
		"/srv/other/../vsql/users":    true,
		"/srv/vsql/../elsewhere":      true, // names the repository: refused wherever it resolves
		"/srv/vsqlx/users":            false,
		"/etc/vsql/users":             true,
		"/etc/vsql/users2":            true, // holds the users file's path
		"/etc/vsql/other":             false,
		"/srv/*/users":                true, // the glob's directory holds the repository
		"/s*":                         true,
		"/srv/vsql/live/*.duckdb":     true,
		"/import/*.csv":               false,
		"/etc/vsql/*":                 true,
		"../../srv/vsql/users":        true, // relative to /home/op
		"~/../../srv/vsql/users":      true,
		"s3://bucket/vsql/users":      false,
		"users":                       false, // cwd is outside the repository
		"a.*b":                        false,
		"":                            false,
	} {
		if got := g.protectedPath(lit); got != want {
			t.Errorf("protectedPath(%q) = %v, want %v", lit, got, want)
		}
	}
	// The default layout: ./vsql-data beside the working directory. JSON
	// with slashes is not a path ({ is no glob character to DuckDB, an
	// unclosed [ matches nothing), globs that reach the repository are.
	g = &guard{roots: []string{"/home/op/vsql-data"}, cwd: "/home/op"}
	for lit, want := range map[string]bool{
		`{"path":"a/b"}`:                false,
		`{"path":"a/b", "tags":[1, 2]}`: false,
		`["a/b"]`:                       false,
		`{"note":"and/or?"}`:            false,
		`[{"url":"/x"},[1]]`:            false,
		"vsql-data/users":               true,
		"*/users":                       true,
		"vsql-*/live/*":                 true,
		"v[s]ql-data/*":                 true,
		"[!x]sql-data/users":            true,
		"[!v]sql-data/users":            false,
		"**/users":                      true,
		"x*/../vsql-data/*":             true,
		`x[/../vsql-data/users`:         true,
		"other/*.csv":                   false,
		"*.csv":                         false,
	} {
		if got := g.protectedPath(lit); got != want {
			t.Errorf("default layout: protectedPath(%q) = %v, want %v", lit, got, want)
		}
	}
	// vsqld started inside its repository: relative names count when
	// they exist, so that ordinary strings stay strings.
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, "live", "db"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "users"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	g = &guard{roots: []string{repo}, cwd: repo, cwdInRoot: true}
	for lit, want := range map[string]bool{
		"users":             true,
		"live":              true,
		"live/db/new.csv":   true,
		"hello":             false,
		"retail/dev":        false,
		"live/*":            true,
		"./users":           true,
		"nothing/like/this": false,
	} {
		if got := g.protectedPath(lit); got != want {
			t.Errorf("in the repository: protectedPath(%q) = %v, want %v", lit, got, want)
		}
	}
}

// benchSession is a session whose guard has the shape of a running
// server's (the denied sets hold DuckDB 1.5's ~90 table functions).
func benchSession(role auth.Role) *Session {
	srv := &Server{}
	srv.guard = guard{roots: []string{"/srv/vsql"}, files: []string{"/srv/vsql/users"}, cwd: "/home/op", home: "/home/op",
		denyCall: map[string]bool{}, denyTable: map[string]bool{}}
	for _, f := range []string{"read_csv", "read_csv_auto", "read_text", "read_blob", "read_json", "read_parquet", "parquet_scan",
		"glob", "sniff_csv", "query", "query_table", "duckdb_secrets", "duckdb_settings", "duckdb_databases", "checkpoint"} {
		srv.guard.denyCall[f], srv.guard.denyTable[f] = true, true
	}
	srv.guard.denyTable["histogram"] = true
	return &Session{srv: srv, principal: principal{user: "bob", role: role}}
}

var benchStatements = map[string]string{
	"select": "SELECT o.id, o.total, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.created_at > $1 AND c.region = 'EU' ORDER BY o.total DESC LIMIT 50",
	"insert": "INSERT INTO events (id, kind, payload, at) VALUES ($1, 'click', '{\"path\": \"/home\", \"ref\": \"/campaign/42\"}', now())",
	"update": "UPDATE accounts SET balance = balance - $1, note = 'transfer to /acct/7' WHERE id = $2",
	"ddl":    "CREATE TABLE IF NOT EXISTS line_items (id bigint PRIMARY KEY, order_id bigint REFERENCES orders(id), sku varchar(32), qty int CHECK (qty > 0))",
}

func BenchmarkGuard(b *testing.B) {
	for _, role := range []auth.Role{auth.RoleWrite, auth.RoleAdmin} {
		s := benchSession(role)
		for name, q := range benchStatements {
			st := sqltext.Parse(q)
			b.Run(string(role)+"/"+name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if err := s.guard(st); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// The benchmark's statements pass, and a denied one is refused: the
// bench measures the path every ordinary statement takes.
func TestBenchStatementsPass(t *testing.T) {
	s := benchSession(auth.RoleWrite)
	for name, q := range benchStatements {
		if err := s.guard(sqltext.Parse(q)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := s.guard(sqltext.Parse("SELECT * FROM read_csv('/etc/passwd')")); err == nil {
		t.Error("read_csv passed")
	}
}
