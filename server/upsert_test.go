package server_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestUpsertDuplicateKeys: INSERT … ON CONFLICT (keys) DO UPDATE whose rows
// propose one key twice is PostgreSQL's 21000 on vsqld too, as text and
// with parameters (DuckDB alone kept the first row and dropped the second
// row's update without a word).
func TestUpsertDuplicateKeys(t *testing.T) {
	pgConn := pgtest.Connect(t)
	vsConn := connectPgx(t, startServer(t, nil))
	pg, vs := pgConn.PgConn(), vsConn.PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE ups (f1 int PRIMARY KEY, f2 int, f3 text)",
		"INSERT INTO ups VALUES (4, 1), (4, 2) ON CONFLICT (f1) DO UPDATE SET f2 = 0", // 21000
		"SELECT * FROM ups",
		"INSERT INTO ups VALUES (4, 1), (5, 2) ON CONFLICT (f1) DO UPDATE SET f2 = excluded.f2 + 10",
		"INSERT INTO ups VALUES (4, 3), (6, 4) ON CONFLICT (f1) DO UPDATE SET f2 = excluded.f2 + 10",
		"INSERT INTO ups VALUES (7, 1), (7, 2) ON CONFLICT (f1) DO NOTHING",
		"INSERT INTO ups (f2, f1) VALUES (7, 8), (8, 8) ON CONFLICT (f1) DO UPDATE SET f2 = excluded.f2", // 21000
		"INSERT INTO ups AS u (f2, f1) VALUES (7, 9), (8, 10) ON CONFLICT (f1) DO UPDATE SET f2 = u.f2 + 1 RETURNING f1, f2",
		"INSERT INTO ups VALUES (NULL, 1), (NULL, 2) ON CONFLICT (f1) DO UPDATE SET f2 = 0", // 23502: NULL keys never conflict
		"CREATE TABLE ups2 (a int, b text, c int, UNIQUE (a, b))",
		"INSERT INTO ups2 VALUES (1, 'x', 1), (1, 'y', 2), (1, 'x', 3) ON CONFLICT (a, b) DO UPDATE SET c = 0", // 21000
		"INSERT INTO ups2 VALUES (1, 'x', 1), (1, 'y', 2), (NULL, 'x', 3) ON CONFLICT (a, b) DO UPDATE SET c = 0",
		"SELECT * FROM ups ORDER BY f1",
		"SELECT * FROM ups2 ORDER BY a, b, c",
	})
	// with parameters, as ORMs' bulk upserts send them
	const q = "INSERT INTO ups VALUES ($1, $2), ($3, $4) ON CONFLICT (f1) DO UPDATE SET f2 = excluded.f2"
	for _, c := range []struct {
		args []any
		code string
	}{{[]any{20, 1, 20, 2}, "21000"}, {[]any{21, 1, 22, 2}, ""}} {
		for name, conn := range map[string]*pgconn.PgConn{"PostgreSQL": pg, "vsqld": vs} {
			_, err := conn.ExecParams(context.Background(), q, encodeInts(c.args), nil, nil, nil).Close()
			var pe *pgconn.PgError
			code := ""
			if asPgError(err, &pe) {
				code = pe.Code
			} else if err != nil {
				t.Fatalf("%s %v: %v", name, c.args, err)
			}
			if code != c.code {
				t.Errorf("%s %v: SQLSTATE %q, want %q", name, c.args, code, c.code)
			}
		}
	}
}

// encodeInts are ints as text parameters.
func encodeInts(args []any) [][]byte {
	out := make([][]byte, len(args))
	for i, a := range args {
		out[i] = []byte(strconv.Itoa(a.(int)))
	}
	return out
}

// TestMultiColumnSubqueryUpdate: UPDATE … SET (a, b) = (SELECT x, y …),
// which DuckDB refused, answers as on PostgreSQL 15
// (pgcompat.MultiColumnSubquery).
func TestMultiColumnSubqueryUpdate(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE mcu (a int, b int, c text)",
		"INSERT INTO mcu VALUES (1, 10, 'car'), (2, 20, 'bike'), (3, 30, NULL)",
		"UPDATE mcu SET (b, a) = (SELECT a, b FROM mcu WHERE b = 20) WHERE a = 1",
		"SELECT * FROM mcu ORDER BY c NULLS LAST, a",
		// correlated
		"UPDATE mcu o SET (b, a) = (SELECT a + 1, b FROM mcu i WHERE i.a = o.a AND i.b = o.b AND i.c IS NOT DISTINCT FROM o.c)",
		"SELECT * FROM mcu ORDER BY c NULLS LAST, a",
		"UPDATE mcu SET (b, a) = (SELECT a + 1, b FROM mcu)", // 21000
		// no row: NULLs; after another item
		"UPDATE mcu SET c = 'x', (b, a) = (SELECT a + 1, b FROM mcu WHERE a = 1000) WHERE c = 'bike'",
		"SELECT * FROM mcu ORDER BY c NULLS LAST, a",
		"UPDATE mcu SET (a, b) = (SELECT 1)", // 42601
		"UPDATE mcu SET (a, b) = (SELECT 7, 8) WHERE c IS NULL RETURNING a, b, c",
		"UPDATE mcu SET (a, b) = (10, 20) WHERE c = 'car'",
		"SELECT * FROM mcu ORDER BY c NULLS LAST, a",
	})
}
