package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestGroupByQuantifier: GROUP BY ALL and GROUP BY DISTINCT over
// grouping sets answer as on PostgreSQL 15 (pgcompat/groupingsets.go).
func TestGroupByQuantifier(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE gq (a int, b int, c int, v int)",
		"INSERT INTO gq VALUES (1, 2, 3, 10), (4, NULL, 6, 20), (7, 8, 9, 30), (1, 2, 5, 40)",
		"SELECT a, b, c FROM gq GROUP BY ALL rollup(a, b), rollup(a, c) ORDER BY a, b, c",
		"SELECT a, b, c FROM gq GROUP BY DISTINCT rollup(a, b), rollup(a, c) ORDER BY a, b, c",
		"SELECT a, b, c, sum(v), grouping(a, b, c) FROM gq GROUP BY DISTINCT cube(a, (b, c)), grouping sets ((), a) ORDER BY a, b, c, 5",
		"SELECT a, count(*) FROM gq GROUP BY DISTINCT a, a HAVING count(*) > 0 ORDER BY a",
		"SELECT a, b, count(*) FROM gq GROUP BY ALL a, b ORDER BY a, b",
		"SELECT a, b, sum(v) FROM gq GROUP BY DISTINCT grouping sets ((a), (a), (a, b), ()) ORDER BY a, b",
	})
}
