package pgcompat

import (
	"testing"

	"github.com/vsql/vsql/sqltext"
)

func TestGroupByKey(t *testing.T) {
	tables := map[string][]TableColumn{
		"posts":    {{Name: "id", Type: "INTEGER", Key: true}, {Name: "title", Type: "VARCHAR"}, {Name: "body", Type: "VARCHAR"}},
		"comments": {{Name: "id", Type: "INTEGER", Key: true}, {Name: "post_id", Type: "INTEGER"}, {Name: "text", Type: "VARCHAR"}},
		"pairs":    {{Name: "a", Type: "INTEGER", Key: true}, {Name: "b", Type: "INTEGER", Key: true}, {Name: "v", Type: "VARCHAR"}},
	}
	sess := Session{TableColumns: func(parts []string) []TableColumn { return tables[parts[len(parts)-1]] }}
	for in, want := range map[string]string{
		"SELECT p.*, count(c.id) FROM posts p LEFT JOIN comments c ON c.post_id = p.id GROUP BY p.id ORDER BY 1": `SELECT p.*, count(c.id) FROM posts p LEFT JOIN comments c ON c.post_id = p.id GROUP BY p.id, p."title", p."body" ORDER BY 1`,
		"SELECT * FROM posts GROUP BY id":                               `SELECT * FROM posts GROUP BY id, posts."title", posts."body"`,
		"SELECT title FROM public.posts AS x GROUP BY x.id HAVING true": `SELECT title FROM public.posts AS x GROUP BY x.id, x."title" HAVING true`,
		"SELECT a, b, v FROM pairs GROUP BY b, a":                       `SELECT a, b, v FROM pairs GROUP BY b, a, pairs."v"`,
		// not the whole key, no key grouped, a subquery's own GROUP BY, grouping sets
		"SELECT a, v FROM pairs GROUP BY a":                                                               "SELECT a, v FROM pairs GROUP BY a",
		"SELECT title, count(*) FROM posts GROUP BY title":                                                "SELECT title, count(*) FROM posts GROUP BY title",
		"SELECT (SELECT count(*) FROM comments c GROUP BY c.post_id) FROM posts":                          "SELECT (SELECT count(*) FROM comments c GROUP BY c.post_id) FROM posts",
		"SELECT id, title FROM (SELECT * FROM posts) posts GROUP BY id":                                   "SELECT id, title FROM (SELECT * FROM posts) posts GROUP BY id",
		"SELECT id, title FROM posts GROUP BY ROLLUP (id)":                                                "SELECT id, title FROM posts GROUP BY ROLLUP (id)",
		"SELECT x.n, p.title FROM posts p, (SELECT 1 AS n FROM comments GROUP BY 1) x GROUP BY p.id, x.n": "SELECT x.n, p.title FROM posts p, (SELECT 1 AS n FROM comments GROUP BY 1) x GROUP BY p.id, x.n, p.\"title\"",
	} {
		got, _ := rewrite(sqltext.Parse(in), sess)
		if got.SQL != want {
			t.Errorf("rewrite(%q)\n got %q\nwant %q", in, got.SQL, want)
		}
	}
}
