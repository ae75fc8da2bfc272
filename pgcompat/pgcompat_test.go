package pgcompat

import (
	"github.com/vsql/vsql/sqltext"
	"strings"
	"testing"
)

const p = schema + "."

func TestRewrite(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 7/2", "SELECT 7//2"},
		{"SELECT * FROM t, unnest(t.a, t.b) AS u(x, y)", "SELECT * FROM t, LATERAL (SELECT unnest(t.a) AS x, unnest(t.b) AS y) u"},
		{"SELECT * FROM unnest(ARRAY[1], f(a, b)) WITH ORDINALITY k(x, y, n)", "SELECT * FROM LATERAL (SELECT unnest(ARRAY[1]) AS x, unnest(f(a, b)) AS y, unnest(generate_series(1, greatest(len(ARRAY[1]), len(f(a, b))))) AS n) k"},
		{"SELECT unnest(a), unnest(b) FROM t, unnest(c) u", "SELECT unnest(a), unnest(b) FROM t, unnest(c) u"},
		{"SELECT f(x, unnest(a, b))", "SELECT f(x, unnest(a, b))"},
		{"SELECT generate_series(1, 3)", "SELECT CAST(unnest(generate_series(1, 3)) AS INTEGER) AS generate_series"},
		{"SELECT a, generate_series(1, n) AS i FROM t", "SELECT a, unnest(generate_series(1, n)) AS i FROM t"},
		{"SELECT x FROM generate_series(1, 3) g(x), LATERAL (SELECT generate_series(1, g.x) + 1) s", "SELECT x FROM generate_series(1, 3) g(x), LATERAL (SELECT unnest(generate_series(1, g.x)) + 1) s"},
		{"SELECT * FROM t WHERE x IN (SELECT generate_series(1, 2))", "SELECT * FROM t WHERE x IN (SELECT CAST(unnest(generate_series(1, 2)) AS INTEGER) AS generate_series)"},
		{"SELECT * FROM t JOIN generate_series(1, 2) g ON true", "SELECT * FROM t JOIN generate_series(1, 2) g ON true"},
		{"SELECT a / b FROM t", "SELECT a // " + p + "pg_divisor(b) FROM t"},
		{"SELECT a % (b - 1)", "SELECT a % " + p + "pg_divisor((b - 1))"},
		{"SELECT sum(x)/count(*) FROM t", "SELECT sum(x)//" + p + "pg_divisor(count(*)) FROM t"},
		{"SELECT x / -y::int", "SELECT x // " + p + "pg_divisor(-y::int)"},
		{"SELECT a / t.b[1]", "SELECT a // " + p + "pg_divisor(t.b[1])"},
		{"SELECT 7 // 2", "SELECT 7 // 2"},
		{"SELECT interval '3 days' / 2", "SELECT interval '3 days' / 2"},
		{"SELECT '1/0', \"a/b\" FROM t -- x / y", "SELECT '1/0', \"a/b\" FROM t -- x / y"},
		{"CREATE TABLE px(id int, at timestamptz)", `CREATE TABLE px(id int, "at" timestamptz)`},
		{"SELECT at AT TIME ZONE 'UTC' FROM px", `SELECT "at" AT TIME ZONE 'UTC' FROM px`},
		{"SELECT by FROM t GROUP BY by ORDER BY by", `SELECT "by" FROM t GROUP BY "by" ORDER BY "by"`},
		{"SHOW search_path", "SHOW search_path"},
		{"SELECT name FROM (SHOW TABLES)", "SELECT name FROM (SHOW TABLES)"},
		{"SELECT (show) FROM t", `SELECT ("show") FROM t`},
		{"SELECT t.show FROM t", `SELECT t."show" FROM t`},
		{"CREATE TABLE j(d jsonb, e jsonb[])", "CREATE TABLE j(d JSON, e JSON[])"},
		{"SELECT jsonb_build_object('a', 1)", "SELECT jsonb_build_object('a', 1)"},
		{"CREATE TABLE n(id int, name name NOT NULL, s name, \"q\" name[], d name)", "CREATE TABLE n(id int, name VARCHAR NOT NULL, s VARCHAR, \"q\" VARCHAR[], d VARCHAR)"},
		{"CREATE TEMP TABLE person (name text, age int4)", "CREATE TEMP TABLE person (name text, age int4)"},
		{"SELECT 'x'::name, CAST(y AS name), name 'z', n.name, name FROM n", "SELECT 'x'::VARCHAR, CAST(y AS VARCHAR), VARCHAR 'z', n.name, name FROM n"},
		{"SELECT a name, b AS name FROM n ORDER BY name", "SELECT a name, b AS name FROM n ORDER BY name"},
		{"CREATE TABLE c AS SELECT a name, b FROM n", "CREATE TABLE c AS SELECT a name, b FROM n"},
		{"CREATE TABLE c (a int CHECK (a > 0), b text DEFAULT (name))", "CREATE TABLE c (a int CHECK (a > 0), b text DEFAULT (name))"},
		{"ALTER TABLE n ADD COLUMN e name, ALTER COLUMN s TYPE name", "ALTER TABLE n ADD COLUMN e VARCHAR, ALTER COLUMN s TYPE VARCHAR"},
		{"SELECT (SELECT 1 AS name)", "SELECT (SELECT 1 AS name)"},
		{"CREATE TABLE large_tuple_test (a int, b text) WITH (fillfactor = 10)", "CREATE TABLE large_tuple_test (a int, b text) "},
		{"CREATE TABLE w (a int) WITH (fillfactor = 5)", "CREATE TABLE w (a int) WITH (fillfactor = 5)"},
		{"CREATE TABLE w (a int) WITH (oids = false)", "CREATE TABLE w (a int) WITH (oids = false)"},
		{"CREATE TABLE w (a int) WITH (autovacuum_enabled = off, parallel_workers = 2)", "CREATE TABLE w (a int) "},
		{"WITH t AS (SELECT 1) SELECT (1) FROM t", "WITH t AS (SELECT 1) SELECT (1) FROM t"},
		{"CREATE TABLE num_data (id int4, val numeric(210,10), w decimal(1000), n numeric(38,2), x numeric(100, 50))",
			"CREATE TABLE num_data (id int4, val numeric(38,10), w decimal(38), n numeric(38,2), x numeric(100, 50))"},
		{"CREATE TABLE tt (d1 timestamp(2) with time zone, t time(2), z time(2) with time zone, u timestamptz(3), v timestamp(2), w timestamp(0) without time zone)",
			"CREATE TABLE tt (d1 timestamp with time zone, t time, z time with time zone, u timestamptz, v timestamp, w timestamp without time zone)"},
		{"SELECT '10:00:00.5'::time(0), t.time(1), time '10:00' AT TIME ZONE 'UTC'", "SELECT '10:00:00.5'::time, t.time(1), time '10:00' AT TIME ZONE 'UTC'"},
		{`SELECT d @> '{"a":1}' FROM j`, "SELECT " + p + `pg_contains(d , '{"a":1}') FROM j`},
		{`SELECT '{"a":1}'::jsonb <@ j.d FROM j`, "SELECT " + p + `pg_contained('{"a":1}'::JSON , j.d) FROM j`},
		{`SELECT d->'a' @> '{"b":1}' FROM j`, "SELECT " + p + `pg_contains(d->'a' , '{"b":1}') FROM j`},
		{"SELECT id FROM j WHERE d ? 'n' AND d->>'a' = '1'", "SELECT id FROM j WHERE " + p + "pg_exists(d , 'n') AND d->>'a' = '1'"},
		{"SELECT d #> '{a}' ? $1 FROM j", "SELECT " + p + "pg_exists(" + p + "pg_path(d , " + p + "pg_text_array('{a}')) , $1) FROM j"},
		{"SELECT (t.d #>> ARRAY['a','0']) FROM t", "SELECT (" + p + "pg_path_text(t.d , ARRAY['a','0'])) FROM t"},
		{"SELECT d->'a' #> $1", "SELECT " + p + "pg_path(d->'a' , $1)"},
		{"SELECT #1 FROM t", "SELECT #1 FROM t"},
		{"SELECT d ?| array['a', 'b'], d ?& ARRAY['a']", "SELECT " + p + "pg_exists_any(d , array['a', 'b']), " + p + "pg_exists_all(d , ARRAY['a'])"},
		{"SELECT x FROM t WHERE y = ? AND z IN (?, ?)", "SELECT x FROM t WHERE y = ? AND z IN (?, ?)"},
		{"SELECT '2026-12-02 21:55:36.153 +00:00'::timestamptz", "SELECT '2026-12-02 21:55:36.153+00:00'::timestamptz"},
		{"SELECT timestamp with time zone '2026-12-02 21:55 -08'", "SELECT timestamp with time zone '2026-12-02 21:55-08'"},
		{"SELECT CAST('2026-12-02 21:55:36 +05:30' AS timestamptz)", "SELECT CAST('2026-12-02 21:55:36+05:30' AS timestamptz)"},
		{"SELECT '2026-12-02 21:55:36 +05:30'", "SELECT '2026-12-02 21:55:36 +05:30'"}, // untyped: text
		{`SELECT jsonb '{"a":null}' ? 'a', json '{"a":1}' @> jsonb '{"a":1}'`, "SELECT " + p + `pg_exists(JSON '{"a":null}' , 'a'), ` + p + `pg_contains(json '{"a":1}' , JSON '{"a":1}')`},
		{"SELECT 1", "SELECT 1"},
	}
	for _, c := range cases {
		got, changed := Rewrite(c.in)
		if got != c.want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if changed != (c.in != c.want) {
			t.Errorf("Rewrite(%q): changed = %v", c.in, changed)
		}
	}
}

func TestTimestampParam(t *testing.T) {
	for in, want := range map[string]string{
		"2026-12-02 21:55:36.153 +00:00":  "2026-12-02 21:55:36.153+00:00",
		"2026-12-02 21:55:36 -08":         "2026-12-02 21:55:36-08",
		"2026-12-02 21:55:36+01":          "2026-12-02 21:55:36+01",
		"2026-12-02 21:55:36 Europe/Rome": "2026-12-02 21:55:36 Europe/Rome",
		"2026-12-02":                      "2026-12-02",
	} {
		if got := TimestampParam(in); got != want {
			t.Errorf("TimestampParam(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzRewrite: any input, no panic, and a statement without a trigger
// byte is returned unchanged.
func FuzzRewrite(f *testing.F) {
	for _, s := range []string{"SELECT a/b", "x @> y", "(((", "a / ", "@>", "SELECT at", "'a'::timestamptz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, changed := Rewrite(s)
		if !changed && out != s {
			t.Fatalf("unchanged but different: %q", out)
		}
		if !strings.ContainsAny(s, triggerBytes) && changed {
			t.Fatalf("changed without a trigger: %q", s)
		}
	})
}

// The cost per statement of the rule pass (Rewrite) and of the whole
// layer (Translate): a point query (no rule applies), an INSERT with
// parameters, and a statement several rules rewrite.
func BenchmarkRewrite(b *testing.B) {
	for _, c := range []struct{ name, sql string }{
		{"point", "SELECT id, name, price FROM items WHERE id = $1"},
		{"insert", "INSERT INTO orders (id, customer_id, total, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)"},
		{"rewritten", `SELECT at, total / qty, doc @> '{"a":1}' FROM px WHERE doc ->> 'k' = $1 AND id % 2 = 0`},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Rewrite(c.sql)
			}
		})
		b.Run(c.name+"/translate", func(b *testing.B) {
			st := sqltext.Parse(c.sql)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Translate(st, false)
			}
		})
	}
}

func TestFixOffsetLiterals(t *testing.T) {
	got, ok := FixOffsetLiterals(`INSERT INTO p VALUES ('2026-12-03 13:17:57.722 +00:00', 'x +00:00', '2026-12-03 13:17 -08', E'2026-12-03 13:17 +01')`)
	want := `INSERT INTO p VALUES ('2026-12-03 13:17:57.722+00:00', 'x +00:00', '2026-12-03 13:17-08', E'2026-12-03 13:17 +01')`
	if !ok || got != want {
		t.Errorf("got %v %s", ok, got)
	}
	if _, ok := FixOffsetLiterals(`SELECT '2026-12-03 13:17:57'`); ok {
		t.Error("a timestamp without an offset changed")
	}
}

func TestLiteralCasts(t *testing.T) {
	for in, want := range map[string]string{
		`SELECT bool ' f ', 'on'::boolean, CAST('yes' AS bool)`:                                                  `SELECT bool 'false', 'true'::boolean, CAST('true' AS bool)`,
		`SELECT '{1,2}'::int[], '{{1},{2}}'::int[]`:                                                              `SELECT ['1', '2']::int[], [['1'], ['2']]::int[][]`,
		`SELECT CAST('{a,"b c",NULL}' AS text[])`:                                                                `SELECT CAST(['a', 'b c', NULL] AS text[])`,
		`SELECT 'Mon Feb 10 17:32:01 1997 PST'::timestamptz, timestamptz 'Jan 8 1999 04:05', 'now'::timestamptz`: `SELECT '1997-02-11 01:32:01+00'::timestamptz, timestamptz '1999-01-08 04:05:00', 'now'::timestamptz`,
		`SELECT date 'January 8, 1999', '990108'::date`:                                                          `SELECT date 'January 8, 1999', '990108'::date`, // the engine's cast reads them (casts.go)
		`SELECT overlay(s placing 'x' from 2 for 3), substring(s from 'a.c'), substring(s from 2 for 3)`:         `SELECT overlay(s , 'x' , 2 , 3), memory.__vsql_fn.pg_substring_regex(s , 'a.c'), substring(s from 2 for 3)`,
		`SELECT i && '{32,"a b",NULL}', i && '{}', i && '{"x\"y"}'`:                                              `SELECT i && '["32", "a b", NULL]', i && '[]', i && '["x\"y"]'`,
		`SELECT a - b, '{}'::jsonb - 'k', x || y, '[1]'::jsonb || '[2]'`:                                         `SELECT a - b, memory.__vsql_fn.pg_jsonb_minus('{}'::JSON , 'k'), x || y, memory.__vsql_fn.pg_jsonb_concat('[1]'::JSON , '[2]')`,
		`SELECT interval '-1 +02:03', 'P1Y2M'::interval, interval '1 month - 1 second'`:                          `SELECT interval '0 months -1 days 7380000000 microseconds', '14 months 0 days 0 microseconds'::interval, interval '1 month - 1 second'`,
		`SELECT '[1:2]={1,2}'::int[], 'maybe'::bool, x::bool`:                                                    `SELECT '[1:2]={1,2}'::int[], 'maybe'::bool, x::bool`,
	} {
		if got, _ := Rewrite(in); got != want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
