package sqltext

import (
	"reflect"
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
