package server_test

import (
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// askMessage is askCode with an error's message too: these statements
// are refused with PostgreSQL's own words.
func askMessage(t *testing.T, c *pgconn.PgConn, sql string) answer {
	t.Helper()
	res, err := execText(c, sql)
	if err != nil {
		var pe *pgconn.PgError
		if asPgError(err, &pe) {
			return answer{Class: pe.Code, Tag: pe.Message}
		}
		t.Fatalf("%s: %v", sql, err)
	}
	return answer{Tag: res[len(res)-1].CommandTag.String(), Rows: textRows(res[len(res)-1].Rows)}
}

// vsqlMessage strips vsql's [vsql:code] prefix from an error message.
func vsqlMessage(a answer) answer {
	if a.Class != "" {
		if k := len("[vsql:"); len(a.Tag) > k && a.Tag[:k] == "[vsql:" {
			for i := k; i < len(a.Tag); i++ {
				if a.Tag[i] == ']' {
					a.Tag = a.Tag[i+2:]
					break
				}
			}
		}
	}
	return a
}

// TestRecursiveQueryChecks: WITH RECURSIVE queries PostgreSQL refuses
// before running them are refused with its SQLSTATE and message (several
// ran on DuckDB until the statement timeout), and the well-formed ones
// around them still run, with their answers.
func TestRecursiveQueryChecks(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP TABLE IF EXISTS wr_y"},
		"CREATE TABLE wr_y (a int)",
		"INSERT INTO wr_y SELECT generate_series(1, 10)")
	refused := []string{
		"WITH x(n, b) AS (SELECT 1) SELECT * FROM x",
		"WITH RECURSIVE x(n, b) AS (SELECT 1 UNION ALL SELECT n + 1, 2 FROM x WHERE n < 3) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 INTERSECT SELECT n+1 FROM x) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 EXCEPT ALL SELECT n+1 FROM x) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT n FROM x) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT n FROM x UNION ALL SELECT 1) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT a FROM wr_y WHERE a = 1 UNION ALL SELECT x.n+1 FROM wr_y LEFT JOIN x ON x.n = wr_y.a WHERE n < 10) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT a FROM wr_y WHERE a = 1 UNION ALL SELECT x.n+1 FROM x RIGHT OUTER JOIN wr_y ON x.n = wr_y.a WHERE n < 10) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT a FROM wr_y WHERE a = 1 UNION ALL SELECT x.n+1 FROM x FULL JOIN wr_y ON x.n = wr_y.a WHERE n < 10) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT a FROM wr_y WHERE a = 1 UNION ALL SELECT x.n+1 FROM wr_y JOIN wr_y z ON true LEFT JOIN x ON x.n = z.a WHERE n < 10) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n IN (SELECT * FROM x)) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE EXISTS (SELECT 1 FROM x AS x2 WHERE x2.n > 3)) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM x) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT sum(n) FROM x WHERE n < 5) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x ORDER BY 1) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x LIMIT 10 OFFSET 1) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x LIMIT 10) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x FOR UPDATE) SELECT * FROM x",
		"WITH RECURSIVE x(id) AS (values (1) UNION ALL SELECT (SELECT * FROM x) FROM x WHERE id < 5) SELECT * FROM x",
		"WITH RECURSIVE x (id) AS (SELECT 1 UNION ALL SELECT id+1 FROM y WHERE id < 5), y (id) AS (SELECT 1 UNION ALL SELECT id+1 FROM x WHERE id < 5) SELECT * FROM x",
		"WITH RECURSIVE foo(i) AS (values (1) UNION ALL (SELECT i+1 FROM foo WHERE i < 10 UNION ALL SELECT i+1 FROM foo WHERE i < 5)) SELECT * FROM foo",
		"WITH RECURSIVE foo(i) AS (values (1) UNION ALL SELECT * FROM (SELECT i+1 FROM foo WHERE i < 10 UNION ALL SELECT i+1 FROM foo WHERE i < 5) AS t) SELECT * FROM foo",
		"WITH RECURSIVE foo(i) AS (values (1) UNION ALL (SELECT i+1 FROM foo WHERE i < 10 EXCEPT SELECT i+1 FROM foo WHERE i < 5)) SELECT * FROM foo",
		"WITH RECURSIVE foo(i) AS (values (1) UNION ALL (SELECT i+1 FROM foo WHERE i < 10 INTERSECT SELECT i+1 FROM foo WHERE i < 5)) SELECT * FROM foo",
		"WITH RECURSIVE foo(i) AS (values (1) UNION ALL (SELECT i+1 FROM foo WHERE i < 10 INTERSECT ALL SELECT i+1 FROM wr_y WHERE a < 5)) SELECT * FROM foo",
		"WITH RECURSIVE c AS (SELECT 1 AS a) MERGE INTO wr_y USING c ON wr_y.a = c.a WHEN MATCHED THEN DELETE",
	}
	for _, sql := range refused {
		want, got := askMessage(t, pg, sql), vsqlMessage(askMessage(t, vs, sql))
		if want.Class == "" {
			t.Errorf("%s: PostgreSQL answered it (the test expects a refusal)", sql)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", sql, want, got)
		}
	}
	// well-formed: a reference in a subquery in FROM, an inner join, a
	// nested WITH of the same name, GROUP BY without aggregates, a window
	// function, an aggregate in a subquery, forward references
	answered := []string{
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM (SELECT * FROM x) AS s WHERE n < 5) SELECT * FROM x ORDER BY n",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM wr_y JOIN x ON x.n = wr_y.a WHERE n < 10) SELECT * FROM x ORDER BY n",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM x LEFT JOIN wr_y ON x.n = wr_y.a WHERE n < 10) SELECT * FROM x ORDER BY n",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 5 AND n IN (SELECT a FROM wr_y)) SELECT * FROM x ORDER BY n",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < (SELECT max(a) FROM wr_y)) SELECT count(*), sum(n) FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL (WITH x AS (SELECT 7 AS n) SELECT n FROM x WHERE false)) SELECT * FROM x",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION (WITH q AS (SELECT * FROM x) SELECT n + 1 FROM q WHERE n < 4)) SELECT * FROM x ORDER BY n",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 5 GROUP BY n) SELECT * FROM x ORDER BY n",
		"WITH RECURSIVE x(n, r) AS (SELECT 1, 1::bigint UNION ALL SELECT n+1, row_number() OVER (ORDER BY n) FROM x WHERE n < 5) SELECT * FROM x ORDER BY n",
		"WITH RECURSIVE x(id) AS (SELECT * FROM y UNION ALL SELECT id+1 FROM x WHERE id < 5), y(id) AS (values (1)) SELECT * FROM x ORDER BY id",
		"WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT * FROM c), c(n) AS (VALUES (3)) SELECT * FROM a",
		"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n < 3), y(n) AS (SELECT * FROM x UNION ALL SELECT * FROM x) SELECT * FROM y ORDER BY n",
		"WITH x(n) AS (SELECT 1, 2) SELECT * FROM x",
		"WITH x(n, m) AS (SELECT * FROM wr_y, wr_y AS z WHERE wr_y.a = 1 AND z.a = 2) SELECT * FROM x",
		"WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n+1 FROM t WHERE n < 100) SELECT sum(n) FROM t",
		// data-modifying queries naming a later one run after it
		"CREATE TABLE wr_m (a int)",
		"INSERT INTO wr_m VALUES (1), (2), (3)",
		"WITH RECURSIVE t AS (INSERT INTO wr_m SELECT a + 100 FROM t2 WHERE a > 11 RETURNING *), t2 AS (UPDATE wr_m SET a = a + 10 RETURNING *) SELECT * FROM t ORDER BY a",
		"SELECT * FROM wr_m ORDER BY a",
		"WITH RECURSIVE t1 AS (INSERT INTO wr_y SELECT * FROM t2 RETURNING *), t2 AS (DELETE FROM wr_m WHERE a > 100 RETURNING *) SELECT count(*) FROM t1",
		"SELECT * FROM wr_m ORDER BY a",
		"SELECT * FROM wr_y ORDER BY a",
		"DROP TABLE wr_m",
	}
	compareSteps(t, pg, vs, answered)
}

// TestSearchCycle: SEARCH DEPTH|BREADTH FIRST and CYCLE clauses give
// PostgreSQL's extra columns (arrays of rows, a depth row, the cycle
// mark and path), and their errors are PostgreSQL's.
func TestSearchCycle(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP VIEW IF EXISTS wr_v", "DROP TABLE IF EXISTS wr_graph"},
		"CREATE TABLE wr_graph (f int, t int, label text)",
		"INSERT INTO wr_graph VALUES (1, 2, 'arc 1 -> 2'), (1, 3, 'arc 1 -> 3'), (2, 3, 'arc 2 -> 3'), (1, 4, 'arc 1 -> 4'), (4, 5, 'arc 4 -> 5'), (5, 1, 'arc 5 -> 1')")
	const body = `(SELECT * FROM wr_graph g UNION ALL SELECT g.* FROM wr_graph g, sg WHERE g.f = sg.t)`
	steps := []string{
		"WITH RECURSIVE sg(f, t, label) AS (SELECT * FROM wr_graph g WHERE f <> 5 UNION ALL SELECT g.* FROM wr_graph g, sg WHERE g.f = sg.t AND g.f <> 5) SEARCH DEPTH FIRST BY f, t SET seq SELECT * FROM sg ORDER BY seq",
		"WITH RECURSIVE sg(f, t, label) AS (SELECT * FROM wr_graph g WHERE f <> 5 UNION DISTINCT SELECT g.* FROM wr_graph g, sg WHERE g.f = sg.t AND g.f <> 5) SEARCH DEPTH FIRST BY f, t SET seq SELECT * FROM sg ORDER BY seq",
		"WITH RECURSIVE sg(f, t, label) AS (SELECT * FROM wr_graph g WHERE f <> 5 UNION ALL SELECT g.* FROM wr_graph g, sg WHERE g.f = sg.t AND g.f <> 5) SEARCH BREADTH FIRST BY f, t SET seq SELECT * FROM sg ORDER BY seq",
		"WITH RECURSIVE sg(f, t, label) AS (SELECT * FROM wr_graph g WHERE f <> 5 UNION ALL SELECT g.* FROM wr_graph g JOIN sg AS prev ON g.f = prev.t WHERE g.f <> 5) SEARCH DEPTH FIRST BY t SET \"Order\" SELECT f, t, \"Order\" FROM sg ORDER BY \"Order\" DESC, f",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE f, t SET is_cycle USING path SELECT * FROM sg ORDER BY path",
		"WITH RECURSIVE sg(f, t, label) AS (SELECT * FROM wr_graph g UNION DISTINCT SELECT g.* FROM wr_graph g, sg WHERE g.f = sg.t) CYCLE f, t SET is_cycle TO 'Y' DEFAULT 'N' USING path SELECT * FROM sg ORDER BY path",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE t SET c TO 1 DEFAULT 0 USING p SELECT * FROM sg ORDER BY p, f",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " SEARCH DEPTH FIRST BY f, t SET seq CYCLE f, t SET is_cycle USING path SELECT * FROM sg ORDER BY seq",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " SEARCH BREADTH FIRST BY f, t SET seq CYCLE f, t SET is_cycle USING path SELECT * FROM sg ORDER BY seq",
		"WITH RECURSIVE a AS (SELECT 1 AS b UNION ALL SELECT * FROM a) CYCLE b SET c USING p SELECT * FROM a ORDER BY p",
		"WITH RECURSIVE a(b) AS (VALUES (1) UNION ALL SELECT b + 1 FROM a WHERE b < 4) SEARCH DEPTH FIRST BY b SET s SELECT * FROM a ORDER BY s DESC",
		"WITH RECURSIVE g(f, t, label) AS (SELECT * FROM wr_graph), sg(f, t, label) AS " + body + " CYCLE f, t SET is_cycle TO true DEFAULT false USING path SELECT f, t, label FROM sg ORDER BY path",
		"CREATE VIEW wr_v AS WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE f, t SET is_cycle USING path SELECT f, t, label, is_cycle FROM sg",
		"SELECT * FROM wr_v ORDER BY 1, 2, 3, 4",
		"SELECT count(*) FROM wr_v WHERE is_cycle",
	}
	compareSteps(t, pg, vs, steps)
	refused := []string{
		"WITH RECURSIVE sg(f, t, label) AS " + body + " SEARCH DEPTH FIRST BY foo, tar SET seq SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " SEARCH DEPTH FIRST BY f, t SET label SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " SEARCH DEPTH FIRST BY f, t, f SET seq SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS (SELECT * FROM wr_graph g UNION ALL SELECT * FROM wr_graph g UNION ALL SELECT g.* FROM wr_graph g, sg WHERE g.f = sg.t) SEARCH DEPTH FIRST BY f, t SET seq SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS (SELECT * FROM wr_graph g UNION ALL (SELECT * FROM wr_graph g UNION ALL SELECT g.* FROM wr_graph g, sg WHERE g.f = sg.t)) SEARCH DEPTH FIRST BY f, t SET seq SELECT * FROM sg",
		"WITH RECURSIVE x(col) AS (SELECT 1 UNION (WITH x AS (SELECT * FROM x) SELECT * FROM x)) SEARCH DEPTH FIRST BY col SET seq SELECT * FROM x",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE foo, tar SET is_cycle USING path SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE f, t SET is_cycle TO true DEFAULT 55 USING path SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE f, t SET label TO true DEFAULT false USING path SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE f, t SET is_cycle TO true DEFAULT false USING label SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE f, t SET foo TO true DEFAULT false USING foo SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " CYCLE f, t, f SET is_cycle TO true DEFAULT false USING path SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " SEARCH DEPTH FIRST BY f, t SET foo CYCLE f, t SET foo TO true DEFAULT false USING path SELECT * FROM sg",
		"WITH RECURSIVE sg(f, t, label) AS " + body + " SEARCH DEPTH FIRST BY f, t SET foo CYCLE f, t SET is_cycle TO true DEFAULT false USING foo SELECT * FROM sg",
		"WITH sg(f, t, label) AS (SELECT * FROM wr_graph) SEARCH DEPTH FIRST BY f SET seq SELECT * FROM sg",
		"WITH RECURSIVE a(b) AS (SELECT 1 UNION ALL SELECT b+1 FROM (SELECT * FROM a) q WHERE b < 3) SEARCH DEPTH FIRST BY b SET s SELECT * FROM a",
	}
	for _, sql := range refused {
		want, got := askMessage(t, pg, sql), vsqlMessage(askMessage(t, vs, sql))
		if want.Class == "" {
			t.Errorf("%s: PostgreSQL answered it (the test expects a refusal)", sql)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", sql, want, got)
		}
	}
}

// setupBoth runs setup on PostgreSQL and on vsqld, and cleanup on both
// when the test ends.
func setupBoth(t *testing.T, pg, vs *pgconn.PgConn, cleanup []string, setup ...string) {
	t.Helper()
	for _, q := range setup {
		for _, c := range []*pgconn.PgConn{pg, vs} {
			if _, err := execText(c, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	t.Cleanup(func() {
		for _, c := range []*pgconn.PgConn{pg, vs} {
			for _, q := range cleanup {
				_, _ = execText(c, q)
			}
		}
	})
}
