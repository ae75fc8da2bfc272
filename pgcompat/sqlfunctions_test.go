package pgcompat

import "testing"

func TestSQLFunctions(t *testing.T) {
	checkRewrites(t, map[string]string{
		"CREATE FUNCTION add1(a int) RETURNS int AS $$ SELECT a + 1; $$ LANGUAGE sql IMMUTABLE":            "CREATE MACRO add1(a) AS CAST((SELECT * FROM (SELECT a + 1) LIMIT 1) AS int)",
		"create or replace function eq(int8, text) returns boolean language sql as 'select $1::text = $2'": `CREATE OR REPLACE MACRO eq("$1", "$2") AS CAST((SELECT * FROM (select "$1"::text = "$2") LIMIT 1) AS boolean)`,
		"CREATE FUNCTION s(x int, y int) RETURNS int STRICT LANGUAGE sql RETURN x / y":                     "CREATE MACRO s(x, y) AS CAST(CASE WHEN x IS NULL OR y IS NULL THEN NULL ELSE (x // memory.__vsql_fn.pg_divisor(y, x)) END AS int)",
		"CREATE FUNCTION lit() RETURNS text AS 'SELECT ''it''''s''' LANGUAGE sql":                          "CREATE MACRO lit() AS CAST((SELECT * FROM (SELECT 'it''s') LIMIT 1) AS text)",
		"create function pick(anyelement) returns anyelement as 'select $1' language sql":                  `CREATE MACRO pick("$1") AS (SELECT * FROM (select "$1") LIMIT 1)`,
		"DROP FUNCTION add1(int)":                   "DROP MACRO add1",
		"DROP FUNCTION IF EXISTS s.f(int) CASCADE;": "DROP MACRO IF EXISTS s.f;",
		// left to DuckDB
		"CREATE FUNCTION v() RETURNS void AS 'select 1' LANGUAGE sql":                              "CREATE FUNCTION v() RETURNS void AS 'select 1' LANGUAGE sql",
		"CREATE FUNCTION r() RETURNS SETOF int AS 'values (1)' LANGUAGE sql":                       "CREATE FUNCTION r() RETURNS SETOF int AS 'values (1)' LANGUAGE sql",
		"CREATE FUNCTION p() RETURNS int AS 'begin return 1; end' LANGUAGE plpgsql":                "CREATE MACRO p() AS CAST((1) AS int)",
		"CREATE FUNCTION p() RETURNS int AS 'begin perform 1; return 1; end' LANGUAGE plpgsql":     "CREATE FUNCTION p() RETURNS int AS 'begin perform 1; return 1; end' LANGUAGE plpgsql",
		"CREATE FUNCTION p() RETURNS int AS 'declare x int; begin return 1; end' LANGUAGE plpgsql": "CREATE FUNCTION p() RETURNS int AS 'declare x int; begin return 1; end' LANGUAGE plpgsql",
		"CREATE FUNCTION two() RETURNS int AS 'select 1; select 2' LANGUAGE sql":                   "CREATE FUNCTION two() RETURNS int AS 'select 1; select 2' LANGUAGE sql",
		"CREATE FUNCTION ins(int) RETURNS int AS 'insert into t values ($1)' LANGUAGE sql":         "CREATE FUNCTION ins(int) RETURNS int AS 'insert into t values ($1)' LANGUAGE sql",
		"CREATE FUNCTION d(a int DEFAULT 1) RETURNS int AS 'select a' LANGUAGE sql":                "CREATE FUNCTION d(a int DEFAULT 1) RETURNS int AS 'select a' LANGUAGE sql",
		"CREATE FUNCTION o(OUT a int) RETURNS int AS 'select 1' LANGUAGE sql":                      "CREATE FUNCTION o(OUT a int) RETURNS int AS 'select 1' LANGUAGE sql",
		"CREATE FUNCTION c(int) RETURNS int AS 'lib', 'sym' LANGUAGE c":                            "CREATE FUNCTION c(int) RETURNS int AS 'lib', 'sym' LANGUAGE c",
		"DROP FUNCTION a(int), b(int)":                                                             "DROP FUNCTION a(int), b(int)",
		"CREATE FUNCTION w(int) RETURNS int AS 'with d as (delete from t) select 1' LANGUAGE sql":  "CREATE FUNCTION w(int) RETURNS int AS 'with d as (delete from t) select 1' LANGUAGE sql",
	})
}

func TestExplainOptions(t *testing.T) {
	checkRewrites(t, map[string]string{
		"EXPLAIN (COSTS OFF) SELECT 1":                            "EXPLAIN SELECT 1",
		"explain (analyze, costs off, summary off, timing off) x": "explain (ANALYZE) x",
		"EXPLAIN (FORMAT JSON, VERBOSE) SELECT 1":                 "EXPLAIN (FORMAT JSON) SELECT 1",
		"EXPLAIN (ANALYZE false, FORMAT yaml) SELECT 1":           "EXPLAIN SELECT 1",
		"EXPLAIN (BOGUS) SELECT 1":                                "EXPLAIN (BOGUS) SELECT 1",
		"EXPLAIN SELECT (1)":                                      "EXPLAIN SELECT (1)",
	})
}

func TestIntervalQualifiers(t *testing.T) {
	checkRewrites(t, map[string]string{
		"SELECT interval '1 2' day to hour":                "SELECT INTERVAL '0 months 1 days 7200000000 microseconds'",
		"SELECT INTERVAL '12:34.5678' MINUTE TO SECOND(2)": "SELECT INTERVAL '0 months 0 days 754570000 microseconds'",
		"SELECT interval(0) '1 day 01:23:45.6789'":         "SELECT INTERVAL '0 months 1 days 5026000000 microseconds'",
		"SELECT interval '1-2' year to month, x":           "SELECT INTERVAL '14 months 0 days 0 microseconds', x",
		"SELECT interval '1 2' hour to minute":             `SELECT CAST(error('[vsql:invalid_datetime_input] invalid input syntax for type interval: "1 2"') AS INTERVAL)`,
		"SELECT interval '3' day":                          "SELECT INTERVAL '0 months 3 days 0 microseconds'",
		"SELECT interval '1 day'":                          "SELECT interval '1 day'",
	})
}

// checkRewrites compares Rewrite's output for each input with the one
// wanted.
func checkRewrites(t *testing.T, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got, _ := Rewrite(in); got != want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func TestAnyLiteralArray(t *testing.T) {
	checkRewrites(t, map[string]string{
		"SELECT 33 = ALL ('{1,2,33}'), 2.5 >= any ('{3,2.5}')":   "SELECT 33 = ALL (['1', '2', '33']::int[]), 2.5 >= any (['3', '2.5']::numeric[])",
		"SELECT memory.__vsql_pg.vsql_any_eq(33 , ('{1,NULL}'))": "SELECT memory.__vsql_pg.vsql_any_eq(33 , (['1', NULL]::int[]))",
		"SELECT x = ALL ('{1,2}'), 1 + 33 = ANY ('{1}')":         "SELECT x = ALL ('{1,2}'), 1 + 33 = ANY ('{1}')",
	})
}
