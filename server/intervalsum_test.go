package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestIntervalSum: sum over interval, which DuckDB's sum lacks, answers as
// on PostgreSQL 15: fields added apart, also with FILTER, OVER and ORDER BY
// (pgcompat/intervalsum.go).
func TestIntervalSum(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE isum (g int, d interval, n int)",
		`INSERT INTO isum VALUES (1, '20 days', 1), (1, '20 days 25:00:01.5', 2), (1, '1 year 13 mons', 3), (2, '-3 days +02:00', 4),
			(2, '-00:00:00.000001', 5), (2, NULL, 6), (3, NULL, 7)`,
		"SELECT sum(d) FROM isum",
		"SELECT g, sum(d), count(d), sum(n) FROM isum GROUP BY g ORDER BY g",
		"SELECT sum(d) FROM isum WHERE false",
		"SELECT g, sum(d) FILTER (WHERE n > 1) AS f FROM isum GROUP BY g ORDER BY g",
		"SELECT n, sum(d) OVER (ORDER BY n ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM isum ORDER BY n",
		"SELECT n, sum(d) OVER (PARTITION BY g), sum(n) OVER (PARTITION BY g) FROM isum ORDER BY n",
		"SELECT n, sum(d) OVER w, sum(n) OVER w FROM isum WINDOW w AS (ORDER BY n) ORDER BY n",
		"SELECT sum(d ORDER BY n) FROM isum",
		"SELECT i, SUM(v::interval) OVER (ORDER BY i ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM (VALUES (1, '1 sec'), (2, '2 sec'), (3, NULL), (4, NULL)) t(i, v)",
		"SELECT sum(d) + interval '1 day', sum(n) FROM isum",
		"SELECT sum(x) FROM (VALUES (interval '2147483647 days'), (interval '1 day')) t(x)",
		"SELECT g FROM isum GROUP BY g HAVING sum(d) > interval '1 month' ORDER BY g",
	})
}
