package sqltext_test

import (
	"strings"
	"testing"

	"github.com/vsql/vsql/sqltext"
)

func TestRewritePostgres(t *testing.T) {
	P, I := sqltext.PGCatalogSchema, sqltext.InfoSchema
	for _, c := range []struct{ in, want string }{
		// unchanged
		{"SELECT 1", ""},
		{"SELECT * FROM orders WHERE note = 'public.x'", ""},
		{"SELECT public FROM t", ""},
		{`SELECT "pg_class" FROM t`, ""},
		{"SELECT a, pg_type FROM t", ""},
		// public is main
		{"SELECT * FROM public.orders", "SELECT * FROM main.orders"},
		{`SELECT * FROM "public"."orders"`, `SELECT * FROM main."orders"`},
		{`SELECT * FROM "retail/dev".public.orders`, `SELECT * FROM "retail/dev".main.orders`},
		{"CREATE SCHEMA IF NOT EXISTS public", "CREATE SCHEMA IF NOT EXISTS main"},
		{"CREATE SCHEMA public", "CREATE SCHEMA main"},
		{"SELECT * FROM pg_temp.tt", "SELECT * FROM temp.tt"},
		{"SELECT * FROM pg_temp_1.tt", "SELECT * FROM temp.tt"},
		// catalog relations and functions
		{"SELECT oid FROM pg_catalog.pg_class c", "SELECT oid FROM " + P + ".pg_class c"},
		{"SELECT oid FROM pg_type WHERE typname = 'lo'", "SELECT oid FROM " + P + ".pg_type WHERE typname = 'lo'"},
		{"SELECT pg_class.relname FROM pg_class, pg_namespace", "SELECT pg_class.relname FROM " + P + ".pg_class, " + P + ".pg_namespace"},
		{"SELECT * FROM information_schema.tables", "SELECT * FROM " + I + ".tables"},
		{"SELECT * FROM information_schema.sql_features", ""},
		{`SELECT * FROM "retail".information_schema.columns`, `SELECT * FROM ` + I + ".columns"},
		{`SELECT * FROM retail.pg_catalog.pg_class`, `SELECT * FROM ` + P + ".pg_class"},
		{"SELECT x, pg_catalog.format_type(a, b) AS t FROM y", "SELECT x, " + P + ".format_type(a, b) AS t FROM y"},
		{"SELECT pg_catalog.lower(x) AS l FROM y", "SELECT lower(x) AS l FROM y"},
		{"SELECT x::pg_catalog.text AS l FROM y", "SELECT x::text AS l FROM y"},
		{"SELECT f(format_type(a, b)) AS t", "SELECT f(" + P + ".format_type(a, b)) AS t"},
		// PostgreSQL's column names for bare calls in a select list
		{"SELECT current_schema()", "SELECT " + P + `.current_schema() AS "current_schema"`},
		{"SELECT current_schema", "SELECT " + P + `.current_schema() AS "current_schema"`},
		{"SELECT version(), 1", "SELECT " + P + `.version() AS "version", 1`},
		{"SELECT 1 FROM t ORDER BY format_type(a, b)", "SELECT 1 FROM t ORDER BY " + P + ".format_type(a, b)"},
		// syntax
		{"WHERE c.relname OPERATOR(pg_catalog.~) '^(orders)$' COLLATE pg_catalog.default AND x",
			"WHERE c.relname ~ '(?s:.*)(?:^(orders)$)(?s:.*)'   AND x"},
		{"WHERE n !~ '^pg_'", "WHERE n !~ '(?s:.*)(?:^pg_)(?s:.*)'"},
		{"WHERE n ~* 'abc'", "WHERE n ~ '(?s:.*)(?i:abc)(?s:.*)'"},
		{"WHERE n !~* 'abc'", "WHERE n !~ '(?s:.*)(?i:abc)(?s:.*)'"},
		{"WHERE n OPERATOR(pg_catalog.=) 'abc'", "WHERE n = 'abc'"},
		{`WHERE n = 'a' COLLATE "default"`, "WHERE n = 'a'  "},
		{"SELECT 1 FROM a LEFT JOIN b ON t.oid = b.r AND b.n = ANY(i.k)", "SELECT 1 FROM a LEFT JOIN b ON t.oid = b.r AND " + P + ".vsql_any_eq(b.n , (i.k))"},
		{"WHERE n.nspname = ANY(current_schemas(true))", "WHERE " + P + ".vsql_any_eq(n.nspname , (" + P + ".current_schemas(true)))"},
		{"WHERE x + 1 = ANY(l)", ""},
		{"WHERE x = ANY(SELECT y FROM t)", ""},
		{"SELECT jsonb_build_object('a', 1) AS j", "SELECT json_object('a', 1) AS j"},
		{"SELECT json_build_object('a', 1) AS j", ""}, // pgcompat's (json)
		{"SELECT ix.indkey::varchar AS k FROM t", "SELECT array_to_string(ix.indkey, ' ')::varchar AS k FROM t"},
		// casts
		{"WHERE c.oid = 'orders'::regclass", "WHERE c.oid = " + P + ".regclass_oid('orders')"},
		{"WHERE c.oid = $1::pg_catalog.regclass", "WHERE c.oid = " + P + ".regclass_oid($1)"},
		{"SELECT x FROM t WHERE c.reloftype::pg_catalog.regtype::pg_catalog.text = 'a'",
			"SELECT x FROM t WHERE " + P + ".regtype_name(c.reloftype)::text = 'a'"},
		{"SELECT c.oid::regclass FROM t", "SELECT " + P + `.regclass_name(c.oid) AS "oid" FROM t`},
		{"SELECT 'orders'::regclass", "SELECT " + P + ".regclass_name(" + P + `.regclass_oid('orders')) AS "regclass"`},
		{"SELECT 1259::regclass AS r", "SELECT " + P + ".regclass_name(1259) AS r"},
		{"SELECT a::name AS n, b::\"char\" AS c", "SELECT a::VARCHAR AS n, b::VARCHAR AS c"},
		{"SELECT 1 FROM generate_series(0, 3) s WHERE a[s] > 0", "SELECT 1 FROM generate_series(0, 3) s(s) WHERE a[s] > 0"},
		{"SELECT 1 FROM t, pg_catalog.generate_series(0, 3) AS s", "SELECT 1 FROM t, generate_series(0, 3) AS s(s)"},
		{"SELECT generate_series(1, 3) AS x, 1 FROM t", ""},
		{"SELECT 1 FROM generate_series(1, 3) g(x)", ""},
	} {
		got, changed := sqltext.RewritePostgres(c.in)
		want := c.want
		if want == "" {
			want = c.in
		}
		if got != want || changed != (c.want != "") {
			t.Errorf("RewritePostgres(%q)\n got %q (changed %v)\nwant %q", c.in, got, changed, want)
		}
	}
}

// FuzzRewritePostgres: the rewrite never panics and leaves statements
// without PostgreSQL-only names alone.
func FuzzRewritePostgres(f *testing.F) {
	for _, s := range []string{"select c.oid::regclass from pg_class c", "x OPERATOR(pg_catalog.~", "'a'::", "public.", "OPERATOR(", "::regclass", "select current_schema"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, changed := sqltext.RewritePostgres(src)
		if !changed && out != src {
			t.Fatalf("unchanged rewrite altered %q to %q", src, out)
		}
		if changed && strings.Count(out, "(") < strings.Count(src, "(")-strings.Count(strings.ToLower(src), "operator(") {
			t.Fatalf("rewrite lost parentheses: %q to %q", src, out)
		}
	})
}
