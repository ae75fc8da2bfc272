package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestRowOfStar: t.* as an argument of row(…) is t's columns, as on
// PostgreSQL 15 (pgcompat/records.go, rowStar).
func TestRowOfStar(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE rs (two int, four int, name text)",
		"INSERT INTO rs SELECT g % 2, g % 4, 'n' || g FROM generate_series(1, 12) g",
		"SELECT array(SELECT row(v.a, s1.*) FROM (SELECT two, four, count(*) FROM rs GROUP BY cube(two, four) ORDER BY two, four) s1) FROM (VALUES (1), (2)) v(a)",
		"SELECT row(v.a, s.*) FROM (SELECT 1 AS a, 'x' AS b) s, (VALUES (5)) v(a)",
		"SELECT row(rs.*) FROM rs WHERE name = 'n3'",
		"SELECT name FROM rs WHERE row(rs.*) = row(1, 1, 'n5')",
		"SELECT rs.*, count(*) OVER () FROM rs WHERE name = 'n4'",
	})
}
