package server_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestSavepointRollback runs the same transaction blocks on PostgreSQL 15
// and on vsqld: ROLLBACK TO after a failed statement and after writes,
// twice to one savepoint, nested savepoints, RELEASE, settings set after a
// savepoint, DDL before and after one. vsqld runs the block's statements
// before the savepoint again; the answers (and SQLSTATEs) must be
// PostgreSQL's.
func TestSavepointRollback(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	steps := []string{
		"CREATE TABLE sp_t (a int PRIMARY KEY, b text)",
		"BEGIN",
		"INSERT INTO sp_t VALUES (1, 'one')",
		"SAVEPOINT s1",
		"INSERT INTO sp_t VALUES (2, 'two')",
		"INSERT INTO sp_t VALUES (1, 'duplicate')", // fails: the block is aborted
		"SELECT * FROM sp_t",
		"ROLLBACK TO SAVEPOINT s1",
		"SELECT * FROM sp_t ORDER BY a",
		"INSERT INTO sp_t VALUES (3, 'three')",
		"SAVEPOINT s2",
		"UPDATE sp_t SET b = 'changed'",
		"DELETE FROM sp_t WHERE a = 1",
		"SET extra_float_digits = 0",
		"ROLLBACK TO s2",
		"SHOW extra_float_digits",
		"SELECT * FROM sp_t ORDER BY a",
		"UPDATE sp_t SET b = 'again'",
		"ROLLBACK TO s2", // a savepoint stays after ROLLBACK TO
		"SELECT * FROM sp_t ORDER BY a",
		"RELEASE s1", // releases s2 too
		"ROLLBACK TO s2",
		"ROLLBACK",
		"SELECT count(*) FROM sp_t",
		"BEGIN",
		"CREATE TABLE sp_u (x int)",
		"INSERT INTO sp_u VALUES (1), (2)",
		"SAVEPOINT a",
		"CREATE TABLE sp_v (y int)",
		"INSERT INTO sp_u SELECT x + 10 FROM sp_u",
		"SAVEPOINT b",
		"DROP TABLE sp_u",
		"ROLLBACK TO b",
		"SELECT * FROM sp_u ORDER BY x",
		"ROLLBACK TO a",
		"SELECT * FROM sp_u ORDER BY x",
		"SELECT * FROM sp_v", // created after a: gone
		"ROLLBACK TO a",
		"INSERT INTO sp_u VALUES (3)",
		"COMMIT",
		"SELECT * FROM sp_u ORDER BY x",
		"BEGIN",
		"SET extra_float_digits = 0",
		"SELECT * INTO sp_w FROM sp_u",
		"INSERT INTO sp_w VALUES (0.1::float8 * 3)",
		"SAVEPOINT z",
		"SET extra_float_digits = 3",
		"INSERT INTO sp_w VALUES (NULL), ('x')",
		"ROLLBACK TO z",
		"SHOW extra_float_digits",
		"SELECT * FROM sp_w ORDER BY 1",
		"COMMIT",
		"DROP TABLE sp_w",
		"BEGIN",
		"SAVEPOINT first",
		"INSERT INTO sp_t VALUES (5, 'five')",
		"SELECT 1/0",
		"ROLLBACK TO first",
		"INSERT INTO sp_t VALUES (6, 'six')",
		"COMMIT",
		"SELECT * FROM sp_t ORDER BY a",
		"ROLLBACK TO first", // outside a block
		"BEGIN",
		"ROLLBACK TO nosuch",
		"ROLLBACK",
		"DROP TABLE sp_t, sp_u",
	}
	compareSteps(t, pg, vs, steps)
}

// TestSavepointRollbackParameters: the statements run again keep their
// parameters (extended protocol, pgx), as get_or_create-style code sends
// them: a savepoint, an INSERT that fails on a key, ROLLBACK TO, then
// the block goes on.
func TestSavepointRollbackParameters(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		exec := func(q string, args ...any) error {
			_, err := c.Exec(ctx, q, args...)
			return err
		}
		if err := exec("CREATE TABLE sp_p (k text PRIMARY KEY, n int, at timestamptz)"); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, step := range []struct {
			q       string
			args    []any
			wantErr string
		}{
			{q: "BEGIN"},
			{q: "INSERT INTO sp_p VALUES ($1, $2, $3)", args: []any{"a", 1, "2024-01-02 03:04:05+00"}},
			{q: "UPDATE sp_p SET n = n + $1::int WHERE k = $2", args: []any{10, "a"}},
			{q: "SAVEPOINT get_or_create"},
			{q: "INSERT INTO sp_p VALUES ($1, $2, NULL)", args: []any{"a", 2}, wantErr: "23505"},
			{q: "ROLLBACK TO SAVEPOINT get_or_create"},
			{q: "INSERT INTO sp_p VALUES ($1, $2, NULL)", args: []any{"b", 3}},
			{q: "COMMIT"},
		} {
			err := exec(step.q, step.args...)
			var pe *pgconn.PgError
			switch {
			case step.wantErr == "" && err != nil:
				t.Fatalf("%s: %s: %v", name, step.q, err)
			case step.wantErr != "" && (!asPgError(err, &pe) || pe.Code != step.wantErr):
				t.Fatalf("%s: %s: want %s, got %v", name, step.q, step.wantErr, err)
			}
		}
		var got []string
		rows, err := c.Query(ctx, "SELECT k || ':' || n || ':' || coalesce(to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), '-') FROM sp_p ORDER BY k")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			got = append(got, s)
		}
		if want := []string{"a:11:2024-01-02 03:04:05", "b:3:-"}; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: rows %v, want %v", name, got, want)
		}
		// psycopg 3 follows ROLLBACK TO with DEALLOCATE ALL, through the
		// extended protocol
		if err := c.PgConn().ExecParams(ctx, "DEALLOCATE ALL", nil, nil, nil, nil).Read().Err; err != nil {
			t.Errorf("%s: DEALLOCATE ALL (extended protocol): %v", name, err)
		}
	}
}

// TestSavepointRollbackRefused: where running the block again would not
// give the same result, ROLLBACK TO refuses (0A000) and the whole block
// is aborted — nothing of it is committed, as PostgreSQL's docs promise
// for an aborted block: a serial column's sequence, now() in a default,
// random(), and another session's commit in between.
func TestSavepointRollbackRefused(t *testing.T) {
	ctx := context.Background()
	addr := startServer(t, nil)
	c, other := connectPgx(t, addr).PgConn(), connectPgx(t, addr).PgConn()
	run := func(conn *pgconn.PgConn, q string) error {
		_, err := conn.Exec(ctx, q).ReadAll()
		return err
	}
	for _, q := range []string{"CREATE TABLE sp_serial (id serial PRIMARY KEY, v text)", "CREATE TABLE sp_now (v text, at timestamptz DEFAULT now())", "CREATE TABLE sp_plain (v text)"} {
		if err := run(c, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ name, before string }{
		{"serial", "INSERT INTO sp_serial (v) VALUES ('x')"},
		{"now() default", "INSERT INTO sp_now (v) VALUES ('x')"},
		{"random()", "INSERT INTO sp_plain SELECT random()::text"},
		{"SET c = DEFAULT", "UPDATE sp_now SET at = DEFAULT"},
		{"another session's commit", "INSERT INTO sp_plain VALUES ('x')"},
	} {
		for _, q := range []string{"BEGIN", tc.before, "SAVEPOINT s", "INSERT INTO sp_plain VALUES ('after')"} {
			if err := run(c, q); err != nil {
				t.Fatalf("%s: %s: %v", tc.name, q, err)
			}
		}
		if tc.name == "another session's commit" {
			if err := run(other, "INSERT INTO sp_plain VALUES ('other')"); err != nil {
				t.Fatal(err)
			}
		}
		var pe *pgconn.PgError
		if err := run(c, "ROLLBACK TO s"); !asPgError(err, &pe) || pe.Code != "0A000" {
			t.Errorf("%s: ROLLBACK TO: want 0A000, got %v", tc.name, err)
		}
		if err := run(c, "SELECT 1"); !asPgError(err, &pe) || pe.Code != "25P02" {
			t.Errorf("%s: after the refusal the block must be aborted, got %v", tc.name, err)
		}
		if err := run(c, "COMMIT"); err != nil {
			t.Fatal(err)
		}
	}
	res, err := c.Exec(ctx, "SELECT (SELECT count(*) FROM sp_serial) || ',' || (SELECT count(*) FROM sp_now) || ',' || (SELECT count(*) FROM sp_plain WHERE v <> 'other')").ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res[0].Rows[0][0]); got != "0,0,0" {
		t.Errorf("rows committed by refused blocks (serial, now, plain): %s, want 0,0,0", got)
	}
}
