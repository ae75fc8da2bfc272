package pgcompat

import (
	"strings"
	"testing"
)

const p = schema + "."

func TestRewrite(t *testing.T) {
	cases := []struct{ in, want string }{
		{"SELECT 7/2", "SELECT 7//2"},
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

// The layer's cost per statement: a point query (no rule applies), an
// INSERT with parameters, and a statement several rules rewrite.
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
		`SELECT bool ' f ', 'on'::boolean, CAST('yes' AS bool)`:                                          `SELECT bool 'false', 'true'::boolean, CAST('true' AS bool)`,
		`SELECT '{1,2}'::int[], '{{1},{2}}'::int[]`:                                                      `SELECT ['1', '2']::int[], [['1'], ['2']]::int[][]`,
		`SELECT CAST('{a,"b c",NULL}' AS text[])`:                                                        `SELECT CAST(['a', 'b c', NULL] AS text[])`,
		`SELECT date 'January 8, 1999', '990108'::date, date '1/8/1999'`:                                 `SELECT date '1999-01-08', '1999-01-08'::date, date '1/8/1999'`,
		`SELECT overlay(s placing 'x' from 2 for 3), substring(s from 'a.c'), substring(s from 2 for 3)`: `SELECT overlay(s , 'x' , 2 , 3), memory.__vsql_pg.pg_substring_regex(s , 'a.c'), substring(s from 2 for 3)`,
		`SELECT i && '{32,"a b",NULL}', i && '{}', i && '{"x\"y"}'`:                                      `SELECT i && '["32", "a b", NULL]', i && '[]', i && '["x\"y"]'`,
		`SELECT a - b, '{}'::jsonb - 'k', x || y, '[1]'::jsonb || '[2]'`:                                 `SELECT a - b, memory.__vsql_pg.pg_jsonb_minus('{}'::JSON , 'k'), x || y, memory.__vsql_pg.pg_jsonb_concat('[1]'::JSON , '[2]')`,
		`SELECT interval '-1 +02:03', 'P1Y2M'::interval, interval '1 month - 1 second'`:                  `SELECT interval '0 months -1 days 7380000000 microseconds', '14 months 0 days 0 microseconds'::interval, interval '1 month - 1 second'`,
		`SELECT '[1:2]={1,2}'::int[], 'maybe'::bool, x::bool`:                                            `SELECT '[1:2]={1,2}'::int[], 'maybe'::bool, x::bool`,
	} {
		if got, _ := Rewrite(in); got != want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
