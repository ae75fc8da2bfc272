package server_test

import (
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestPostgresSetupStatements runs statements of PostgreSQL's own
// regression setup (test_setup.sql) and of the settings its files change
// on PostgreSQL 15 and on vsqld and compares the answers: the type name,
// the planner's and executor's settings (SET, SHOW, RESET, SET LOCAL,
// settings undone by ROLLBACK), unknown settings, VACUUM ANALYZE and
// GRANT … ON SCHEMA public TO PUBLIC.
func TestPostgresSetupStatements(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	steps := []struct {
		sql     string
		anyOIDs bool // name is VARCHAR on vsqld (text), 19 on PostgreSQL
	}{
		{sql: "SET synchronous_commit = on"},
		{sql: "GRANT ALL ON SCHEMA public TO public"},
		// the type name (onek, tenk1 and others of test_setup.sql)
		{sql: "CREATE TABLE setup_nm (unique1 int4, stringu1 name, s name NOT NULL, name text)"},
		{sql: "INSERT INTO setup_nm VALUES (1, 'AAAAxx', 'x', 'n1'), (2, 'BB', 'y', 'n2')"},
		{sql: "SELECT unique1, stringu1, s, name FROM setup_nm ORDER BY unique1", anyOIDs: true},
		{sql: "SELECT name FROM setup_nm WHERE stringu1 = 'BB'"},
		{sql: "SELECT 'abc'::name = 'abc', CAST('q' AS name) || 'r', name 'lit' = 'lit'"},
		{sql: "ALTER TABLE setup_nm ADD COLUMN e name"},
		{sql: "SELECT count(*) FROM setup_nm WHERE e IS NULL"},
		{sql: "CREATE TABLE setup_nm2 AS SELECT * FROM setup_nm"},
		{sql: "VACUUM ANALYZE setup_nm2"},
		{sql: "SELECT stringu1 FROM setup_nm2 ORDER BY 1", anyOIDs: true},
		// time and timestamptz with a precision (timestamptz.sql, time.sql)
		{sql: "CREATE TABLE setup_tm (d1 timestamp(2) with time zone, t time(2), tz timestamptz(0))"},
		{sql: "INSERT INTO setup_tm VALUES ('2026-12-03 10:00:01.25+00', '10:00:01.5', '2026-12-03 10:00:01+00')"},
		{sql: "SELECT d1, t, tz FROM setup_tm"},
		// numeric wider than DuckDB's 38 digits (numeric.sql's tables)
		{sql: "CREATE TABLE setup_num (id int4, val numeric(210,10))"},
		{sql: "INSERT INTO setup_num VALUES (1, '-34338492.215397047'), (2, '0'), (3, '7799461.4119'), (4, '-83028485')"},
		{sql: "SELECT id, val, val * 2, round(val, 2) FROM setup_num ORDER BY id"},
		{sql: "SELECT sum(val) FROM setup_num"},
		// storage parameters (insert.sql's large_tuple_test)
		{sql: "CREATE TABLE setup_ff (a int, b text) WITH (fillfactor = 10)"},
		{sql: "INSERT INTO setup_ff VALUES (1, 'x')"},
		{sql: "SELECT a, b FROM setup_ff"},
		// planner switches and costs
		{sql: "SHOW enable_hashagg"},
		{sql: "SET enable_hashagg = false"},
		{sql: "SHOW enable_hashagg"},
		{sql: "SET enable_seqscan TO off"},
		{sql: "SHOW enable_seqscan"},
		{sql: "RESET enable_seqscan"},
		{sql: "SHOW enable_seqscan"},
		{sql: "SET enable_sort TO 0"},
		{sql: "SHOW enable_sort"},
		{sql: "SET enable_sort = 'maybe'"},
		{sql: "SET enable_sort TO DEFAULT"},
		{sql: "SHOW enable_sort"},
		{sql: "set enable_mergejoin = yes"},
		{sql: "SHOW enable_mergejoin"},
		{sql: "SET parallel_setup_cost = 0"},
		{sql: "SHOW parallel_setup_cost"},
		{sql: "SET parallel_tuple_cost = 0.5"},
		{sql: "SHOW parallel_tuple_cost"},
		{sql: "SET max_parallel_workers_per_gather = 4"},
		{sql: "SHOW max_parallel_workers_per_gather"},
		{sql: "SET max_parallel_workers_per_gather = -1"},
		{sql: "SET jit_above_cost = 0"},
		{sql: "SHOW jit_above_cost"},
		{sql: "SET jit_above_cost TO DEFAULT"},
		{sql: "SHOW jit_above_cost"},
		{sql: "SET hash_mem_multiplier = 1.5"},
		{sql: "SHOW hash_mem_multiplier"},
		// memory sizes
		{sql: "SHOW work_mem"},
		{sql: "SET work_mem = '64kB'"},
		{sql: "SHOW work_mem"},
		{sql: "SET work_mem = 2048"},
		{sql: "SHOW work_mem"},
		{sql: "SET work_mem = '10'"},
		{sql: "SET work_mem = '1XB'"},
		{sql: "RESET work_mem"},
		{sql: "SHOW work_mem"},
		{sql: "SET min_parallel_table_scan_size = 0"},
		{sql: "SHOW min_parallel_table_scan_size"},
		{sql: "RESET min_parallel_table_scan_size"},
		{sql: "SHOW min_parallel_table_scan_size"},
		// others
		{sql: "SHOW synchronous_commit"},
		{sql: "SET synchronous_commit TO local"},
		{sql: "SHOW synchronous_commit"},
		{sql: "SET synchronous_commit = sometimes"},
		{sql: "RESET synchronous_commit"},
		{sql: "SET lc_numeric = 'C'"},
		{sql: "SHOW lc_numeric"},
		{sql: "RESET lc_numeric"},
		{sql: "SET escape_string_warning = off"},
		{sql: "SHOW escape_string_warning"},
		{sql: "SET force_parallel_mode = regress"},
		{sql: "SHOW force_parallel_mode"},
		// transactions: SET LOCAL ends with the block, ROLLBACK undoes SET
		{sql: "BEGIN"},
		{sql: "SET LOCAL enable_hashjoin = off"},
		{sql: "SHOW enable_hashjoin"},
		{sql: "COMMIT"},
		{sql: "SHOW enable_hashjoin"},
		{sql: "BEGIN"},
		{sql: "SET enable_nestloop = off"},
		{sql: "RESET work_mem"},
		{sql: "ROLLBACK"},
		{sql: "SHOW enable_nestloop"},
		{sql: "BEGIN"},
		{sql: "SET enable_nestloop = off"},
		{sql: "COMMIT"},
		{sql: "SHOW enable_nestloop"},
		{sql: "SET LOCAL enable_memoize = off"},
		{sql: "SHOW enable_memoize"},
		{sql: "SET DateStyle TO 'US,ISO'"},
		{sql: "SHOW DateStyle"},
		{sql: "SET DateStyle TO 'European,ISO'"},
		{sql: "SHOW DateStyle"},
		{sql: "RESET DateStyle"},
		// the session's identity: back to the login changes nothing
		{sql: "RESET SESSION AUTHORIZATION"},
		{sql: "SET SESSION AUTHORIZATION DEFAULT"},
		{sql: "RESET ROLE"},
		{sql: "SET ROLE NONE"},
		{sql: "SHOW TIME ZONE"},
		// unknown settings
		{sql: "SET vsql_no_such_setting = 1"},
		{sql: "SHOW vsql_no_such_setting"},
		{sql: "RESET vsql_no_such_setting"},
	}
	for _, s := range []string{"setup_nm", "setup_nm2", "setup_tm", "setup_num", "setup_ff"} {
		ask(t, pg, "DROP TABLE IF EXISTS "+s, nil)
	}
	for _, s := range []string{"enable_hashagg", "enable_mergejoin", "parallel_setup_cost", "parallel_tuple_cost",
		"max_parallel_workers_per_gather", "hash_mem_multiplier", "escape_string_warning", "force_parallel_mode", "enable_nestloop"} {
		t.Cleanup(func() { ask(t, pg, "RESET "+s, nil) })
	}
	t.Cleanup(func() { ask(t, pg, "DROP TABLE IF EXISTS setup_nm, setup_nm2, setup_tm, setup_num, setup_ff", nil) })
	agree := 0
	for _, s := range steps {
		want, got := ask(t, pg, s.sql, nil), ask(t, vs, s.sql, nil)
		if s.anyOIDs {
			want.OIDs, got.OIDs = nil, nil
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", s.sql, want, got)
			continue
		}
		agree++
	}
	t.Logf("%d of %d statements answered as PostgreSQL 15 does", agree, len(steps))
	// Becoming another user is refused (a superuser may on PostgreSQL;
	// vsql's users are not superusers): permission_denied, 42501.
	for _, q := range []string{"SET SESSION AUTHORIZATION someone_else", "SET ROLE someone_else", "SET LOCAL ROLE x"} {
		if got := ask(t, vs, q, nil); got.Class != "42" {
			t.Errorf("%s: %v, want ERROR class 42", q, got)
		}
	}
}

// TestPostgresErrorClasses compares the SQLSTATE class of errors DuckDB
// raises where PostgreSQL refuses the same statement: a zone it does not
// know, a zero step, features DuckDB's parser knows and lacks (FOR
// UPDATE, data-modifying WITH), COPY of a query without RETURNING, an
// unknown setting, a cast DuckDB has not, a subquery of many rows, a
// column in DEFAULT.
func TestPostgresErrorClasses(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setup := []string{"DROP TABLE IF EXISTS setup_err", "CREATE TABLE setup_err(x int)", "INSERT INTO setup_err VALUES (1), (2)"}
	for _, q := range setup {
		ask(t, pg, q, nil)
		ask(t, vs, q, nil)
	}
	t.Cleanup(func() { ask(t, pg, "DROP TABLE IF EXISTS setup_err", nil) })
	agreeWithPostgres(t, pg, vs, []string{
		"SELECT make_timestamptz(1910, 12, 24, 0, 0, 0, 'Nehwon/Lankhmar')",
		"SELECT * FROM generate_series('2020-01-01 00:00'::timestamp, '2020-01-02 03:00'::timestamp, '0 hour'::interval)",
		"SELECT min(x) FROM setup_err FOR UPDATE",
		"WITH t AS (INSERT INTO setup_err VALUES (0)) SELECT * FROM t",
		"COPY (DELETE FROM setup_err) TO STDOUT",
		"SET vsql_no_such_setting TO 'x'",
		"SELECT CAST(interval '02:03' AS time with time zone)",
		"SELECT (SELECT x FROM setup_err)",
		"CREATE TABLE setup_err2 (a int, b int DEFAULT (a + 1))",
		"SELECT count(*) FROM setup_err",
	})
}

// TestPostgresTransactionModes compares transaction modes: BEGIN and
// START TRANSACTION modes, SET TRANSACTION, SET SESSION CHARACTERISTICS,
// SHOW transaction_read_only / transaction_deferrable /
// transaction_isolation, and the refusal of writes in a read-only
// transaction.
func TestPostgresTransactionModes(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	ask(t, pg, "DROP TABLE IF EXISTS setup_tx", nil)
	t.Cleanup(func() {
		ask(t, pg, "ROLLBACK", nil)
		ask(t, pg, "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE, ISOLATION LEVEL READ COMMITTED, NOT DEFERRABLE", nil)
		ask(t, pg, "DROP TABLE IF EXISTS setup_tx", nil)
	})
	steps := []string{
		"CREATE TABLE setup_tx (a int)",
		"SHOW transaction_read_only",
		"SHOW transaction_deferrable",
		"SET TRANSACTION READ ONLY",
		"SHOW transaction_read_only",
		"BEGIN",
		"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE",
		"SHOW transaction_read_only",
		"SHOW transaction_deferrable",
		"SHOW transaction_isolation",
		"SELECT * FROM setup_tx",
		"SET TRANSACTION READ WRITE",
		"COMMIT",
		"SHOW transaction_read_only",
		"BEGIN",
		"SET TRANSACTION READ ONLY",
		"SET TRANSACTION READ WRITE",
		"SET TRANSACTION READ ONLY",
		"SELECT * FROM setup_tx",
		"SET TRANSACTION READ ONLY",
		"INSERT INTO setup_tx VALUES (1)",
		"ROLLBACK",
		"BEGIN READ ONLY",
		"SHOW transaction_read_only",
		"SET transaction_read_only = off",
		"SHOW transaction_read_only",
		"INSERT INTO setup_tx VALUES (1)",
		"COMMIT",
		"START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ WRITE, DEFERRABLE",
		"SHOW transaction_deferrable",
		"SHOW transaction isolation level",
		"SELECT count(*) FROM setup_tx",
		"SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
		"ROLLBACK",
		"SHOW transaction_deferrable",
		"SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
		"SHOW transaction_read_only",
		"SHOW default_transaction_read_only",
		"INSERT INTO setup_tx VALUES (2)",
		"COPY setup_tx FROM STDIN",
		"DROP TABLE setup_tx",
		"SELECT count(*) FROM setup_tx",
		"START TRANSACTION READ WRITE",
		"INSERT INTO setup_tx VALUES (3)",
		"COMMIT",
		"SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
		"SELECT a FROM setup_tx ORDER BY a",
		"BEGIN ISOLATION LEVEL SOMETIMES",
		"SET TRANSACTION SNAPSHOT '0001'",
	}
	agreeWithPostgres(t, pg, vs, steps)
}

// TestPostgresCursors compares SQL cursors: DECLARE (SCROLL, NO SCROLL,
// WITH HOLD), FETCH and MOVE in each direction, CLOSE, and cursors ending
// with their transaction block.
func TestPostgresCursors(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	ask(t, pg, "DROP TABLE IF EXISTS setup_cur", nil)
	t.Cleanup(func() {
		ask(t, pg, "ROLLBACK", nil)
		ask(t, pg, "CLOSE ALL", nil)
		ask(t, pg, "DROP TABLE IF EXISTS setup_cur", nil)
	})
	steps := []string{
		"CREATE TABLE setup_cur (a int, b text)",
		"INSERT INTO setup_cur SELECT g, 'r' || g FROM generate_series(1, 10) g",
		"DECLARE c0 CURSOR FOR SELECT * FROM setup_cur",
		"BEGIN",
		"DECLARE c1 SCROLL CURSOR FOR SELECT a, b FROM setup_cur ORDER BY a",
		"FETCH 1 IN c1",
		"FETCH 2 FROM c1",
		"FETCH c1",
		"FETCH NEXT FROM c1",
		"FETCH BACKWARD 2 IN c1",
		"FETCH PRIOR FROM c1",
		"FETCH ABSOLUTE 8 FROM c1",
		"FETCH RELATIVE -2 FROM c1",
		"FETCH RELATIVE 0 FROM c1",
		"FETCH FORWARD 3 FROM c1",
		"FETCH FORWARD 5 FROM c1",
		"FETCH c1",
		"FETCH BACKWARD ALL FROM c1",
		"FETCH FIRST FROM c1",
		"FETCH LAST FROM c1",
		"FETCH ABSOLUTE -3 FROM c1",
		"MOVE BACKWARD 2 IN c1",
		"FETCH 1 FROM c1",
		"MOVE FORWARD ALL IN c1",
		"FETCH -1 FROM c1",
		"FETCH ALL FROM c1",
		"MOVE ABSOLUTE 0 IN c1",
		"FETCH ALL IN c1",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH 2 FROM c2",
		"FETCH BACKWARD 1 FROM c2",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH ABSOLUTE 1 FROM c2",
		"FETCH ABSOLUTE 2 FROM c2",
		"FETCH 3 FROM c2",
		"FETCH ABSOLUTE 9 FROM c2",
		"FETCH ABSOLUTE 4 FROM c2",
		"ROLLBACK",
		// NO SCROLL: PostgreSQL 15 refuses every move that would read a
		// row again, also forward ones that land on the current row
		"BEGIN",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH ABSOLUTE 0 FROM c2",
		"MOVE RELATIVE 0 IN c2",
		"FETCH 2 FROM c2",
		"MOVE RELATIVE 0 IN c2",
		"FETCH ABSOLUTE 3 FROM c2",
		"FETCH RELATIVE 2 FROM c2",
		"FETCH RELATIVE 0 FROM c2",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH 2 FROM c2",
		"FETCH ABSOLUTE 2 FROM c2",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH ALL FROM c2",
		"FETCH RELATIVE 0 FROM c2",
		"FETCH ABSOLUTE 12 FROM c2",
		"FETCH ABSOLUTE 11 FROM c2",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH ABSOLUTE -1 FROM c2",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH 1 FROM c2",
		"FETCH ABSOLUTE 0 FROM c2",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c2 NO SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH 1 FROM c2",
		"FETCH 0 FROM c2",
		"ROLLBACK",
		// pg_cursors: the statement as sent, is_scrollable from the plan,
		// is_binary
		"BEGIN",
		"DECLARE p1 CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"DECLARE p2 CURSOR FOR SELECT count(*) FROM setup_cur",
		"DECLARE p3 CURSOR FOR SELECT 1",
		"DECLARE p4 BINARY CURSOR FOR SELECT a FROM setup_cur",
		"DECLARE p5 NO SCROLL CURSOR FOR VALUES (1), (2)",
		"DECLARE p6 CURSOR FOR VALUES (1), (2)",
		"SELECT name, statement, is_holdable, is_binary, is_scrollable FROM pg_cursors ORDER BY name",
		"ROLLBACK",
		"BEGIN; DECLARE p7 CURSOR FOR SELECT 1; SELECT statement FROM pg_cursors",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c2 SCROLL CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH 3 FROM c2",
		"FETCH BACKWARD FROM c2",
		"FETCH FORWARD FROM c2",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c3 CURSOR WITH HOLD FOR SELECT a FROM setup_cur ORDER BY a DESC",
		"DECLARE c4 CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"DECLARE c4 CURSOR FOR SELECT 1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c3 CURSOR WITH HOLD FOR SELECT a FROM setup_cur ORDER BY a DESC",
		"DECLARE c4 CURSOR FOR SELECT a FROM setup_cur ORDER BY a",
		"FETCH 2 FROM c3",
		"COMMIT",
		"FETCH 2 FROM c3",
		"FETCH 1 FROM c4",
		"CLOSE c3",
		"FETCH 1 FROM c3",
		"CLOSE nosuch",
		"DECLARE c5 CURSOR WITH HOLD FOR SELECT count(*) FROM setup_cur",
		"FETCH ALL FROM c5",
		"CLOSE ALL",
		"FETCH c5",
		"DECLARE c6 CURSOR WITH HOLD FOR SELECT 1",
		"DISCARD ALL",
		"FETCH c6",
	}
	agreeWithPostgres(t, pg, vs, steps)
}

// agreeWithPostgres runs each statement on PostgreSQL and on vsqld, in
// order, and reports every answer that differs.
func agreeWithPostgres(t *testing.T, pg, vs *pgconn.PgConn, steps []string) {
	t.Helper()
	agree := 0
	for _, q := range steps {
		want, got := ask(t, pg, q, nil), ask(t, vs, q, nil)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", q, want, got)
			continue
		}
		agree++
	}
	t.Logf("%d of %d statements answered as PostgreSQL 15 does", agree, len(steps))
}

// TestDefaultCursorWindow: a cursor declared with neither SCROLL nor NO
// SCROLL moves backward within the last rows it read (defaultCursorWindow)
// and answers PostgreSQL's "cursor can only scan forward" (55000) beyond
// them, so that a large result still streams in bounded memory.
func TestDefaultCursorWindow(t *testing.T) {
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	for _, q := range []string{"BEGIN", "DECLARE w CURSOR FOR SELECT g::int AS g FROM generate_series(1, 5000) g ORDER BY g", "MOVE FORWARD 3000 w"} {
		if a := ask(t, vs, q, nil); a.Class != "" {
			t.Fatalf("%s: %v", q, a)
		}
	}
	if a := ask(t, vs, "FETCH BACKWARD 2 w", nil); a.Class != "" || len(a.Rows) != 2 || a.Rows[0][0] != "2999" || a.Rows[1][0] != "2998" {
		t.Fatalf("FETCH BACKWARD 2 inside the window: %v", a)
	}
	if a := ask(t, vs, "FETCH ABSOLUTE 3000 w", nil); a.Class != "" || len(a.Rows) != 1 || a.Rows[0][0] != "3000" {
		t.Fatalf("FETCH ABSOLUTE 3000: %v", a)
	}
	if a := ask(t, vs, "FETCH ABSOLUTE 10 w", nil); a.Class != "55" {
		t.Fatalf("FETCH ABSOLUTE 10, behind the window: %v, want class 55", a)
	}
	ask(t, vs, "ROLLBACK", nil)
}
