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
