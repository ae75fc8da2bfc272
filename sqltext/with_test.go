package sqltext

import (
	"reflect"
	"strings"
	"testing"
)

func TestModifyingWith(t *testing.T) {
	rec, ctes, main, ok := ModifyingWith(Parse(`WITH RECURSIVE s AS (SELECT 1), "I"(id) AS MATERIALIZED (INSERT INTO t SELECT * FROM s RETURNING (id)), d AS (DELETE FROM u) SELECT * FROM "I";`))
	want := []CTE{
		{Head: "s", Body: "SELECT 1"},
		{Head: `"I"(id)`, Body: "INSERT INTO t SELECT * FROM s RETURNING (id)", Materialized: "MATERIALIZED", Modifying: true, Returning: true},
		{Head: "d", Body: "DELETE FROM u", Modifying: true},
	}
	if !ok || !rec || !reflect.DeepEqual(ctes, want) || main != `SELECT * FROM "I"` {
		t.Errorf("got %v %v %#v %q", ok, rec, ctes, main)
	}
	for _, sql := range []string{
		"WITH s AS (SELECT 1) SELECT * FROM s",
		"WITH s AS (SELECT 1) INSERT INTO t SELECT * FROM s",
		"WITH s AS (INSERT INTO t VALUES (1) RETURNING *)",
		"SELECT 1",
	} {
		if _, _, _, ok := ModifyingWith(Parse(sql)); ok {
			t.Errorf("ModifyingWith(%q) read a data-modifying WITH", sql)
		}
	}
}

func TestReturningShape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"INSERT INTO s.t (a) VALUES (1) RETURNING id, a + 1 AS b", "SELECT id, a + 1 AS b FROM s.t"},
		{"INSERT INTO t AS x SELECT * FROM u RETURNING x.*", "SELECT x.* FROM t AS x"},
		{"UPDATE ONLY t x SET a = 1 WHERE f(a) RETURNING *", "SELECT * FROM t AS x"},
		{`DELETE FROM "T" WHERE a IN (SELECT 1 RETURNING) RETURNING a;`, `SELECT a FROM "T"`},
		{"UPDATE t SET a = 1", ""},
	} {
		got, ok := ReturningShape(c.in)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("ReturningShape(%q) = %q %v, want %q", c.in, got, ok, c.want)
		}
	}
}

// TestModifyingWithOrder: a data-modifying WITH RECURSIVE list whose
// query reads a later one comes in PostgreSQL's order; without such a
// reference, or without RECURSIVE, as written.
func TestModifyingWithOrder(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want []string
	}{
		{"WITH RECURSIVE t AS (INSERT INTO y SELECT a FROM t2 RETURNING *), t2 AS (UPDATE y SET a = 1 RETURNING *) SELECT * FROM t", []string{"t2", "t"}},
		{"WITH RECURSIVE a AS (SELECT * FROM c), b AS (DELETE FROM y RETURNING *), c AS (SELECT * FROM b) SELECT * FROM a", []string{"b", "c", "a"}},
		{"WITH t AS (INSERT INTO y SELECT a FROM t2 RETURNING *), t2 AS (UPDATE y SET a = 1 RETURNING *) SELECT * FROM t", []string{"t", "t2"}},
		{"WITH RECURSIVE t AS (DELETE FROM y RETURNING *), t2 AS (SELECT * FROM t) SELECT * FROM t2", []string{"t", "t2"}},
	} {
		_, ctes, _, ok := ModifyingWith(Parse(c.sql))
		if !ok {
			t.Fatalf("%s: not read", c.sql)
		}
		var got []string
		for _, cte := range ctes {
			got = append(got, cte.Head)
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: order %v, want %v", c.sql, got, c.want)
		}
	}
}
