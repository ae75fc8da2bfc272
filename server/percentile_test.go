package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestPercentileCont: percentile_cont reads its sort key as double
// precision and answers double precision, as on PostgreSQL 15
// (pgcompat/windowframe.go, percentileCont).
func TestPercentileCont(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE pc (g int, r real, n numeric(10, 2), i int)",
		"INSERT INTO pc VALUES (1, 56, 1.5, 1), (1, 100.0, 2.25, 2), (1, 0.09561, 7, 3), (2, 324.78, 3.1, 4), (2, NULL, NULL, NULL)",
		"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY r) FROM pc",
		"SELECT g, percentile_cont(0.5) WITHIN GROUP (ORDER BY n), percentile_cont(0.25) WITHIN GROUP (ORDER BY i DESC), pg_typeof(percentile_cont(0.5) WITHIN GROUP (ORDER BY n)) FROM pc GROUP BY g ORDER BY g",
		"SELECT percentile_cont(ARRAY[0, 0.5, 1]) WITHIN GROUP (ORDER BY n * 2) FROM pc",
		"SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n), percentile_disc(0.5) WITHIN GROUP (ORDER BY i) FROM pc",
		"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY i) FROM pc WHERE false",
	})
}
