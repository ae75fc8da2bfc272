package server_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"

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

// TestUpsertSubquery: INSERT … ON CONFLICT (k) DO UPDATE whose SET or
// WHERE holds a subquery (uncorrelated, correlated with the target row
// or with excluded, after a WITH), run as DuckDB's MERGE
// (server/upsert.go): the same tags, rows (RETURNING of one row; the
// order of several is not compared) and errors as PostgreSQL's.
func TestUpsertSubquery(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE us_t (a int PRIMARY KEY, b text, c int UNIQUE)",
		"INSERT INTO us_t VALUES (1, 'Boo', 10), (3, 'Zoo', 30)",
		"WITH aaa AS (SELECT 1 AS a, 'Foo' AS b) INSERT INTO us_t (a, b) VALUES (1, 'Bar') ON CONFLICT (a) DO UPDATE SET (b, a) = (SELECT b, a FROM aaa) RETURNING *",
		"INSERT INTO us_t (a, b) VALUES (1, 'Baz'), (3, 'Zaz') ON CONFLICT (a) DO UPDATE SET (b, a) = (SELECT b || ', Correlated', a FROM us_t i WHERE i.a = us_t.a)",
		"SELECT * FROM us_t ORDER BY a",
		"INSERT INTO us_t (a, b) VALUES (1, 'Bat') ON CONFLICT (a) DO UPDATE SET b = (SELECT b || ', ' || excluded.b FROM us_t i WHERE i.a = excluded.a) RETURNING b",
		"INSERT INTO us_t AS t VALUES (1, 'x', 11), (5, 'new', 50) ON CONFLICT (a) DO UPDATE SET b = (SELECT 'z') WHERE t.b LIKE '%nothing%'",
		"INSERT INTO us_t AS t VALUES (3, 'x', 31), (6, 'new', 60) ON CONFLICT (a) DO UPDATE SET b = 'w' WHERE EXISTS (SELECT 1 FROM us_t i WHERE i.a = t.a - 2)",
		"INSERT INTO us_t (a) VALUES ('7') ON CONFLICT (a) DO UPDATE SET b = (SELECT 'z') RETURNING a, b",
		"INSERT INTO us_t (a) VALUES (7) ON CONFLICT (a) DO UPDATE SET b = (SELECT 'z') RETURNING a, b",
		"INSERT INTO us_t (a, c) VALUES (8, 10) ON CONFLICT (a) DO UPDATE SET b = (SELECT 'z')", // 23505 on c
		"SELECT * FROM us_t ORDER BY a",
		// refused as PostgreSQL refuses them
		"INSERT INTO us_t (a, b) VALUES (9, 'x'), (9, 'y') ON CONFLICT (a) DO UPDATE SET b = (SELECT 'z')",   // 21000
		"INSERT INTO us_t (a, b) VALUES (9, 'x') ON CONFLICT (b) DO UPDATE SET b = (SELECT 'z')",             // 42P10
		"INSERT INTO us_t (a, b) VALUES (9, 'x') ON CONFLICT DO UPDATE SET b = (SELECT 'z')",                 // 42601
		"INSERT INTO us_t (a, b) VALUES (9, 'x') ON CONFLICT (a) DO UPDATE SET b = 'y' RETURNING excluded.b", // 42P01
		"INSERT INTO us_t AS u (a, b) VALUES (9, 'x') RETURNING us_t.b",                                      // 42P01: the alias hides the name
		"INSERT INTO us_t AS u (a, b) VALUES (9, 'x') RETURNING u.b",
		"INSERT INTO us_t AS u (a, b) VALUES (9, 'q') ON CONFLICT (a) DO UPDATE SET b = (SELECT u.b || '!') RETURNING u.b, u.a",
		"SELECT * FROM us_t ORDER BY a",
	})
}

// TestSelectIntoPlacement: SELECT … INTO only as a statement of its own,
// as PostgreSQL (42601, 0A000 for a view), and CREATE TABLE AS … WITH NO
// DATA's tag.
func TestSelectIntoPlacement(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE si_t (a int)",
		"SELECT * FROM (SELECT 1 INTO si_f) bar",
		"CREATE VIEW si_v AS SELECT 1 INTO si_t",
		"INSERT INTO si_t SELECT 1 INTO si_f",
		"DECLARE si_c CURSOR FOR SELECT 1 INTO si_t",
		"SELECT count(*) FROM si_t",
		"SELECT 2 AS a INTO si_g",
		"SELECT * FROM si_g",
		"CREATE TABLE si_h (x) AS SELECT a FROM si_t WITH NO DATA",
		"CREATE TABLE si_i (x) AS SELECT generate_series(1, 3) WITH DATA",
		"SELECT count(*) FROM si_h",
	})
}

// TestRowStars: x.* as a whole row in ON CONFLICT … DO UPDATE and UPDATE
// (pgcompat.RowStars): two records compared with =, <>, != (excluded,
// the target by name or alias; NULL fields equal each other), ROW(v.*) as the source of SET (a, b) = …, and
// PostgreSQL's 0A000 for SET (a, b) = (v.*).
func TestRowStars(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE rs_t (key int PRIMARY KEY, fruit text)",
		"INSERT INTO rs_t VALUES (23, 'Jackfruit'), (24, NULL)",
		"INSERT INTO rs_t AS i VALUES (23, 'Jackfruit') ON CONFLICT (key) DO UPDATE SET fruit = excluded.fruit WHERE i.* != excluded.* RETURNING *",
		"INSERT INTO rs_t AS i VALUES (23, 'Jackfruit') ON CONFLICT (key) DO UPDATE SET fruit = excluded.fruit WHERE i.* = excluded.* RETURNING *",
		"INSERT INTO rs_t AS i VALUES (23, 'Kiwi') ON CONFLICT (key) DO UPDATE SET fruit = excluded.fruit WHERE i.* <> excluded.* RETURNING *",
		"INSERT INTO rs_t VALUES (24, 'Fig') ON CONFLICT (key) DO UPDATE SET fruit = excluded.fruit WHERE rs_t.* = excluded.* RETURNING *", // a NULL field: records unequal
		"INSERT INTO rs_t VALUES (24, 'Fig') ON CONFLICT (key) DO UPDATE SET fruit = excluded.fruit WHERE rs_t.* <> excluded.* RETURNING *",
		"INSERT INTO rs_t VALUES (25, NULL), (26, 'x')",
		"INSERT INTO rs_t AS i VALUES (25, NULL) ON CONFLICT (key) DO UPDATE SET fruit = 'was null' WHERE i.* = excluded.* RETURNING *", // NULLs equal in records
		"INSERT INTO rs_t AS i VALUES (26, 'x') ON CONFLICT (key) DO UPDATE SET fruit = 'same' WHERE excluded.* = i.* RETURNING *",
		"SELECT * FROM rs_t ORDER BY key",
		"CREATE TABLE rs_u (a int, b int, c text)",
		"INSERT INTO rs_u VALUES (21, 1, 'x')",
		"UPDATE rs_u SET (a, b) = ROW(v.*) FROM (VALUES (21, 100)) AS v(i, j) WHERE rs_u.a = v.i",
		"UPDATE rs_u SET (a, b) = (v.*) FROM (VALUES (21, 101)) AS v(i, j) WHERE rs_u.a = v.i", // 0A000
		"SELECT * FROM rs_u",
		"CREATE TABLE rs_p (a int, b text, c int, UNIQUE (a, b))",
		"INSERT INTO rs_p VALUES (50, 'cincuenta', 1)",
		"INSERT INTO rs_p VALUES (50, 'cincuenta', 2) ON CONFLICT (a, b) DO UPDATE SET (a, b, c) = ROW(excluded.*) WHERE rs_p.c = 1",
		"SELECT * FROM rs_p",
	})
}

// TestReturningSubquery: INSERT, UPDATE and DELETE … RETURNING with a
// subquery in the list (server/withdml.go, prepareReturning), in and out
// of a transaction block, and the tags of CREATE TABLE AS … WITH NO DATA
// (AS EXECUTE keeps SELECT 0).
func TestReturningSubquery(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE rq_foo (f1 int, f2 text, f3 int DEFAULT 42)",
		"CREATE TABLE rq_other (q int)",
		"INSERT INTO rq_other VALUES (123), (5)",
		"INSERT INTO rq_foo VALUES (1, 'test', DEFAULT), (2, 'more', 11)",
		"INSERT INTO rq_foo SELECT f1 + 10, f2, f3 + 99 FROM rq_foo RETURNING *, f1 + 112 IN (SELECT q FROM rq_other) AS subplan, EXISTS (SELECT * FROM rq_other) AS initplan",
		"UPDATE rq_foo SET f3 = f3 * 2 WHERE f1 > 10 RETURNING *, f1 + 112 IN (SELECT q FROM rq_other) AS subplan",
		"BEGIN",
		"DELETE FROM rq_foo AS x WHERE f1 = 1 RETURNING x.f2, (SELECT count(*) FROM rq_other) AS n",
		"ROLLBACK",
		"DELETE FROM rq_foo WHERE f1 > 10 RETURNING f1, (SELECT max(q) FROM rq_other WHERE q > rq_foo.f1) AS above",
		"SELECT * FROM rq_foo ORDER BY f1",
		"PREPARE rq_sel AS SELECT generate_series(1, 3)",
		"CREATE TABLE rq_nodata (a) AS EXECUTE rq_sel WITH NO DATA",
		"CREATE TABLE rq_nodata2 (a) AS SELECT 1 WITH NO DATA",
		"CREATE TABLE rq_data (a) AS EXECUTE rq_sel WITH DATA",
	})
}

// TestUpsertSubqueryParameters: the upsert run as MERGE, prepared with
// parameters through the extended protocol (pgx), answers as PostgreSQL.
func TestUpsertSubqueryParameters(t *testing.T) {
	ctx := context.Background()
	answers := map[string][]string{}
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		if _, err := c.Exec(ctx, "CREATE TABLE us_p (a int PRIMARY KEY, b text)"); err != nil {
			t.Fatal(name, err)
		}
		for _, args := range [][]any{{1, "x"}, {1, "y"}, {2, "z"}} {
			var a int
			var b string
			err := c.QueryRow(ctx, "INSERT INTO us_p VALUES ($1, $2) ON CONFLICT (a) DO UPDATE SET b = (SELECT us_p.b || $2::text) RETURNING a, b", args...).Scan(&a, &b)
			if err != nil {
				t.Fatal(name, err)
			}
			answers[name] = append(answers[name], fmt.Sprint(a, " ", b))
		}
	}
	if !reflect.DeepEqual(answers["PostgreSQL"], answers["vsqld"]) {
		t.Errorf("PostgreSQL %v, vsqld %v", answers["PostgreSQL"], answers["vsqld"])
	}
}
