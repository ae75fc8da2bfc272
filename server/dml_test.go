package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestInsertIndirection: INSERT INTO t (f2[1], f2[2], f3.if1, f4[1].if2[1])
// assigns array elements and composite fields of the new row
// (pgcompat/insertindirection.go), from VALUES and from a SELECT, with
// RETURNING and ON CONFLICT after the rows; the forms PostgreSQL refuses
// with its SQLSTATEs, and the one vsql refuses (an array that would not
// start at 1) with an error where PostgreSQL answers, run on both only
// where both refuse.
func TestInsertIndirection(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TYPE ii_type AS (if1 int, if2 text[])",
		"CREATE TABLE ii_t (id int PRIMARY KEY, f2 int[], f3 ii_type, f4 ii_type[])",
		"INSERT INTO ii_t (id, f2[1], f2[2]) VALUES (1, 1, 2)",
		"INSERT INTO ii_t (id, f2[1], f2[2]) VALUES (2, 3, 4), (3, 5, 6)",
		"INSERT INTO ii_t (id, f2[1], f2[2]) SELECT 4, 7, 8",
		"INSERT INTO ii_t (id, f2[1], f2[2]) VALUES (5, 1, DEFAULT)", // 0A000
		"INSERT INTO ii_t (id, f3.if1, f3.if2) VALUES (6, 1, array['foo'])",
		"INSERT INTO ii_t (id, f3.if1, f3.if2) VALUES (7, 1, '{foo}'), (8, 2, '{bar}')",
		"INSERT INTO ii_t (id, f3.if1, f3.if2) SELECT 9, 3, '{baz,quux}'",
		"INSERT INTO ii_t (id, f3.if1, f3.if2) VALUES (10, 1, DEFAULT)", // 0A000
		"INSERT INTO ii_t (id, f3.if2[1], f3.if2[2]) VALUES (11, 'foo', 'bar'), (12, 'baz', 'quux')",
		"INSERT INTO ii_t (id, f4[1].if2[1], f4[1].if2[2]) SELECT 13, 'bear', 'beer'",
		"INSERT INTO ii_t (id, f4[1].if1, f4[2].if2[1]) VALUES (14, 5, 'x') RETURNING id, f3",
		"INSERT INTO ii_t (id, f2[1], f2[3]) VALUES (15, 10, 30) RETURNING f2",
		"INSERT INTO ii_t (id, f3.if2[1], f3.if1) VALUES (16, 'x', '5') RETURNING f3",
		"INSERT INTO ii_t (id, f2[1], f2[1]) VALUES (17, 1, 2) RETURNING f2",
		"INSERT INTO ii_t (ID, \"f3\".if1) VALUES (18, 1) RETURNING f3",
		"INSERT INTO ii_t (id, f2[1], f2[2]) VALUES (1, 9, 9) ON CONFLICT (id) DO UPDATE SET f2 = excluded.f2 RETURNING *",
		"INSERT INTO ii_t (id, f2[1], f2[2]) VALUES (1, 8, 8) ON CONFLICT (id) DO NOTHING",
		"INSERT INTO ii_t (id, f2[1], f2[2]) SELECT 19, 1, 2 UNION ALL SELECT 20, 3, NULL",
		"SELECT * FROM ii_t ORDER BY id",
		// refused by both
		"INSERT INTO ii_t (id, f3.nope) VALUES (30, 1)",            // 42703
		"INSERT INTO ii_t (id, id.x) VALUES (30, 1)",               // 42701
		"INSERT INTO ii_t (id, f2, f2[1]) VALUES (30, '{1}', 2)",   // 42701
		"INSERT INTO ii_t (id, f2[1], f2[2]) VALUES (30, 1, 2, 3)", // 42601
		"SELECT count(*) FROM ii_t",
	})
}
