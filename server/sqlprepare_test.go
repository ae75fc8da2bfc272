package server_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestSQLPrepare runs SQL-level PREPARE, EXECUTE and DEALLOCATE on
// PostgreSQL 15 and on vsqld: declared parameter types (the arguments
// converted to them, the errors of a wrong count, a type that does not
// convert, a subquery), parameters left to inference, a name used twice,
// CREATE TABLE AS EXECUTE, DISCARD ALL and pg_prepared_statements (its
// statement is the query string the client sent).
func TestSQLPrepare(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	steps := []string{
		"CREATE TABLE sp (a int PRIMARY KEY, b text, c float8)",
		"INSERT INTO sp VALUES (1, 'one', 1.5), (2, 'two', 2.5), (3, 'three', NULL)",
		"SELECT name, statement, parameter_types FROM pg_prepared_statements",
		"PREPARE q1 AS SELECT 1 AS a;",
		"EXECUTE q1;",
		"PREPARE q1 AS SELECT 2;",
		"SELECT name, statement, parameter_types, from_sql FROM pg_prepared_statements",
		"DEALLOCATE q1",
		"PREPARE q1 AS SELECT 2",
		"EXECUTE q1",
		"DEALLOCATE PREPARE q1",
		"DEALLOCATE q1",
		"EXECUTE q1",
		"PREPARE q3(text, int, float, boolean, smallint) AS SELECT * FROM sp WHERE b = $1 OR a = $2 OR c = $3::float8 OR $4 OR a = $5::int ORDER BY a",
		"EXECUTE q3('one', 2, 2.5, false, 3::bigint)",
		"EXECUTE q3('zzz', '3', '0', 'no', 9)",
		"EXECUTE q3('bool')",
		"EXECUTE q3('x', 5::smallint, 10.5::float, false, 4::bigint, true)",
		"EXECUTE q3(5::smallint, 10.5::float, false, 4::bigint, 'x')",
		"EXECUTE q3('x', 1, 2, 1::int, 3)",
		"EXECUTE q3('x', (SELECT 1), 2, true, 3)",
		"EXECUTE q3('x', 1 + 1, 2 * 1.25, 1 > 2, 3)",
		"SELECT name, parameter_types FROM pg_prepared_statements ORDER BY name",
		"PREPARE q4(nonexistenttype) AS SELECT $1",
		"PREPARE q5(int, text) AS SELECT * FROM sp WHERE a = $1 OR b = $2 ORDER BY a",
		"CREATE TEMPORARY TABLE q5_results AS EXECUTE q5(1, 'three')",
		"SELECT * FROM q5_results ORDER BY a",
		"CREATE TEMPORARY TABLE q5_nodata AS EXECUTE q5(1, 'three') WITH NO DATA",
		"SELECT * FROM q5_nodata",
		"PREPARE q6 AS SELECT * FROM sp WHERE a = $1 AND b = $2",
		"EXECUTE q6(2, 'two')",
		"PREPARE q7(int) AS SELECT $2",
		"PREPARE q8 AS SELECT * FROM no_such_table",
		"PREPARE q9(int, text) AS INSERT INTO sp VALUES ($1, $2) RETURNING a, b",
		"EXECUTE q9(4, 'four')",
		"PREPARE q10 AS UPDATE sp SET b = $2 WHERE a = $1",
		"EXECUTE q10(4, 'FOUR')",
		"SELECT * FROM sp ORDER BY a",
		"SELECT name, parameter_types FROM pg_prepared_statements ORDER BY name",
		"BEGIN",
		"PREPARE q11 AS SELECT 11",
		"ROLLBACK",
		"EXECUTE q11",
		"DEALLOCATE ALL",
		"SELECT count(*) FROM pg_prepared_statements",
		"PREPARE q12 AS SELECT 12",
		"DISCARD ALL",
		"EXECUTE q12",
		// a write prepared in a READ ONLY transaction is refused when it runs
		"BEGIN READ ONLY",
		"PREPARE w AS UPDATE sp SET b = 'x'",
		"SELECT 1",
		"EXECUTE w",
		"ROLLBACK",
		"EXECUTE w",
		"SELECT count(*) FROM sp WHERE b = 'x'",
		"DEALLOCATE w",
		"DROP TABLE sp",
	}
	compareSteps(t, pg, vs, steps)
}

// TestSelectOfUntypedParameters: a statement whose result has parameters
// DuckDB cannot type (SELECT $1, $2: asyncpg's fetchrow of two
// arguments, psycopg's unknown strings) describes its columns as
// PostgreSQL does, as text or as the declared type, and answers them;
// it used to describe one placeholder column and then send two, which
// closed the connection.
func TestSelectOfUntypedParameters(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]*pgconn.PgConn{"PostgreSQL": pgtest.Connect(t).PgConn(), "vsqld": connectPgx(t, startServer(t, nil)).PgConn()} {
		for _, q := range []struct {
			sql  string
			oids []uint32
		}{{"SELECT $1, $2", nil}, {"SELECT $1, $2", []uint32{25, 23}}, {"SELECT $1, $2", []uint32{0, 20}}, {"SELECT $1 || 'x', $2", nil}} {
			sd, err := c.Prepare(ctx, "", q.sql, q.oids)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, q.sql, err)
			}
			if len(sd.Fields) != 2 {
				t.Fatalf("%s: %s %v: %d columns described, want 2", name, q.sql, q.oids, len(sd.Fields))
			}
			if q.oids == nil && q.sql == "SELECT $1, $2" && (sd.Fields[0].Name != "?column?" || sd.Fields[1].Name != "?column?") {
				t.Errorf("%s: %s: columns named %q and %q, want ?column?", name, q.sql, sd.Fields[0].Name, sd.Fields[1].Name)
			}
			res := c.ExecPrepared(ctx, "", [][]byte{[]byte("7"), []byte("8")}, nil, nil).Read()
			if res.Err != nil {
				t.Fatalf("%s: %s %v: %v", name, q.sql, q.oids, res.Err)
			}
			if len(res.Rows) != 1 || len(res.Rows[0]) != 2 || string(res.Rows[0][1]) != "8" {
				t.Errorf("%s: %s %v: rows %q", name, q.sql, q.oids, res.Rows)
			}
		}
	}
}
