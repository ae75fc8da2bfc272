package pgcompat

import (
	"testing"

	"github.com/vsql/vsql/sqltext"
)

func TestRowStars(t *testing.T) {
	cols := func([]string) []TableColumn {
		return []TableColumn{{Name: "key", Type: "INTEGER"}, {Name: "fruit", Type: "VARCHAR"}}
	}
	cases := []struct{ in, want string }{
		{"insert into t as i values (1, 'a') on conflict (key) do update set fruit = excluded.fruit where i.* != excluded.* returning *",
			`insert into t as i values (1, 'a') on conflict (key) do update set fruit = excluded.fruit where (ROW(i."key", i."fruit") IS DISTINCT FROM ROW(excluded."key", excluded."fruit")) returning *`},
		{"insert into t values (1, 'a') on conflict (key) do update set (key, fruit) = row(excluded.*) where t.* = excluded.*",
			`insert into t values (1, 'a') on conflict (key) do update set (key, fruit) = row(excluded."key", excluded."fruit") where (ROW(t."key", t."fruit") IS NOT DISTINCT FROM ROW(excluded."key", excluded."fruit"))`},
		{"UPDATE u SET (a, b) = ROW(v.*) FROM (VALUES (1, 2)) AS v(i, j)", `UPDATE u SET (a, b) = ROW(v."i", v."j") FROM (VALUES (1, 2)) AS v(i, j)`},
		// left alone: a select list's star, a cast, a row constructor on one side
		{"insert into t select * from s", "insert into t select * from s"},
		{"insert into t values (1) on conflict (key) do update set fruit = excluded.*::text", "insert into t values (1) on conflict (key) do update set fruit = excluded.*::text"},
		{"update t set fruit = 'x' where t.* = (1, 'a')", "update t set fruit = 'x' where t.* = (1, 'a')"},
	}
	for _, c := range cases {
		out, _, err := RowStars(sqltext.Parse(c.in), cols)
		if err != nil || out.SQL != c.want {
			t.Errorf("RowStars(%q)\n got %q (%v)\nwant %q", c.in, out.SQL, err, c.want)
		}
	}
	if _, ok, err := RowStars(sqltext.Parse("UPDATE u SET (a, b) = (v.*) FROM (VALUES (1, 2)) AS v(i, j)"), cols); !ok || err == nil {
		t.Errorf("SET (a, b) = (v.*): want PostgreSQL's 0A000, got ok %v, %v", ok, err)
	}
}

func TestReturningSubquery(t *testing.T) {
	cases := []struct {
		in, want    string
		readsTarget bool
	}{
		{"DELETE FROM foo AS x WHERE f1 = 1 RETURNING x.f2, (SELECT count(*) FROM o) AS n",
			"WITH _vsql_returning AS (DELETE FROM foo AS x WHERE f1 = 1 RETURNING *) SELECT x.f2, (SELECT count(*) FROM o) AS n FROM _vsql_returning AS x", false},
		{"update t u set a = 1 returning *, exists (select 1 from o);",
			"WITH _vsql_returning AS (update t u set a = 1 RETURNING *) SELECT *, exists (select 1 from o) FROM _vsql_returning AS u", false},
		{"INSERT INTO foo VALUES (1) RETURNING (SELECT count(*) FROM foo)", "", true},
		{"UPDATE t SET a = 1 FROM o RETURNING (SELECT 1)", "", false},
		{"DELETE FROM foo RETURNING (SELECT max(q) FROM o WHERE q > foo.f1)",
			"WITH _vsql_returning AS (DELETE FROM foo RETURNING *) SELECT (SELECT max(q) FROM o WHERE q > foo.f1) FROM _vsql_returning AS foo", false},
		{"INSERT INTO foo VALUES (1) RETURNING f1 + 1", "", false},
	}
	for _, c := range cases {
		got, ok, reads := ReturningSubquery(sqltext.Parse(c.in))
		if got != c.want || ok != (c.want != "") || reads != c.readsTarget {
			t.Errorf("ReturningSubquery(%q) = %q, %v, %v; want %q, reads %v", c.in, got, ok, reads, c.want, c.readsTarget)
		}
	}
}

// TestRowStar: t.* inside row(…) becomes *COLUMNS(t.*) (records.go).
func TestRowStar(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT array(SELECT row(v.a, s1.*) FROM s1) FROM v", "SELECT array(SELECT struct_pack(f1 := v.a, *COLUMNS(s1.*)) AS \"row\" FROM s1) FROM v"},
		{"SELECT x FROM t WHERE row(t.*) = row(1, 2)", "SELECT x FROM t WHERE row(*COLUMNS(t.*)) = row(1, 2)"},
		{"SELECT t.*, count(*), f(t.*) FROM t", "SELECT t.*, count(*), f(t.*) FROM t"},
	} {
		if got, _ := Rewrite(c.in); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.in, got, c.want)
		}
	}
}
