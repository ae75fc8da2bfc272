package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestFetchWithTies: FETCH FIRST n ROWS WITH TIES, which DuckDB's parser
// refused, answers as on PostgreSQL 15 (pgcompat/fetchties.go).
func TestFetchWithTies(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE ft (id int, score int, name text)",
		"INSERT INTO ft SELECT g, g / 3, 'n' || g FROM generate_series(1, 20) g",
		"SELECT score FROM ft WHERE score < 5 ORDER BY score FETCH FIRST 2 ROW WITH TIES",
		"SELECT score FROM ft ORDER BY score FETCH FIRST ROWS WITH TIES",
		"SELECT score, count(*) FROM ft GROUP BY score ORDER BY count(*) DESC, score FETCH FIRST 1 ROW WITH TIES",
		"SELECT score FROM ft ORDER BY score FETCH FIRST 5 ROWS WITH TIES OFFSET 4",
		"SELECT score FROM ft ORDER BY score OFFSET 4 ROWS FETCH NEXT 5 ROWS WITH TIES",
		"SELECT id / 4 AS q FROM ft ORDER BY id / 4 DESC FETCH FIRST 3 ROWS WITH TIES",
		"SELECT * FROM (SELECT name, score FROM ft ORDER BY score DESC FETCH FIRST 1 ROW WITH TIES) s ORDER BY name",
		"SELECT score FROM ft ORDER BY score FETCH FIRST NULL ROWS WITH TIES", // 2201W
		"SELECT score FROM ft ORDER BY score FETCH FIRST (NULL + 1) ROWS WITH TIES",
		"SELECT score FROM ft ORDER BY score FETCH FIRST 0 ROWS WITH TIES",
		"BEGIN",
		"DECLARE c5 CURSOR FOR SELECT id FROM ft ORDER BY score FETCH FIRST 2 ROWS WITH TIES",
		"FETCH ALL FROM c5",
		"COMMIT",
	})
}
