package server_test

import (
	"context"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/sqltext"
)

// TestOneLexingPass: a statement's text is lexed once on its way through
// the server, when the query is split, whatever the PostgreSQL layer
// rewrites (names, semantics, literals, vsql_* named arguments) and
// whichever protocol sends it. Not parallel: the count is the process's.
func TestOneLexingPass(t *testing.T) {
	ctx := context.Background()
	c := connectPgx(t, startServer(t, nil))
	mustExec(t, c, "CREATE TABLE lp (id INTEGER PRIMARY KEY, at TIMESTAMPTZ, v VARCHAR, n INTEGER)")
	for _, q := range []string{
		"INSERT INTO lp VALUES (1, '2026-12-02 21:55:36.153 +00:00', 'a', 7 / 2) ON CONFLICT (id) DO UPDATE SET n = excluded.n / 2", // offset literal, integer division
		"SELECT id, at, v FROM lp WHERE id = 1",                                                                      // nothing to rewrite
		"UPDATE lp SET v = 'b', n = n % 2 WHERE id = 1 RETURNING *",                                                  // modulo
		"SELECT relname FROM pg_catalog.pg_class c WHERE c.relname = 'lp' AND pg_catalog.pg_table_is_visible(c.oid)", // catalogs
		"SELECT '{\"a\": 1}'::jsonb ->> 'a', 1259::regclass",                                                         // jsonb operator, regclass cast
		"SELECT count(*) FROM vsql_branches(NULL) WHERE head_snapshot_id >= 0",                                       // a vsql_* call
		"SELECT * FROM vsql_diff(NULL, from => 'main', to => 'main')",                                                // named arguments
		"SELECT B'0101' # X'A', '11'::bit(3), CAST(B'1' AS bit varying(4))",                                          // bit strings
	} {
		before := sqltext.LexPasses()
		if _, err := c.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n := sqltext.LexPasses() - before; n != 1 {
			t.Errorf("simple query %q: %d lexing passes, want 1", q, n)
		}
		// Extended protocol: Parse lexes; Describe, Bind and Execute do not.
		before = sqltext.LexPasses()
		if _, err := c.Exec(ctx, q, pgx.QueryExecModeDescribeExec); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n := sqltext.LexPasses() - before; n != 1 {
			t.Errorf("extended query %q: %d lexing passes, want 1", q, n)
		}
	}
}

// TestUnterminatedStatement: a statement that ends inside a string
// literal is DuckDB's syntax error, and the session goes on (the rules of
// % and @> read past the literal's end and closed the connection).
func TestUnterminatedStatement(t *testing.T) {
	ctx := context.Background()
	c := connectPgx(t, startServer(t, nil))
	for _, q := range []string{"SELECT 1 % '", "SELECT 0 @> '", "SELECT 7 / 'x"} {
		_, err := c.Exec(ctx, q, pgx.QueryExecModeSimpleProtocol)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "42601" {
			t.Errorf("%q: %v, want a syntax error (42601)", q, err)
		}
		var n int
		if err := c.QueryRow(ctx, "SELECT 1").Scan(&n); err != nil || n != 1 {
			t.Fatalf("after %q: %v", q, err)
		}
	}
}
