package pgcompat

import (
	"errors"
	"testing"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// TestDMLErrors: statements PostgreSQL refuses before running anything,
// refused so here (SELECT … INTO out of place, ON CONFLICT DO UPDATE
// without a target), and their valid neighbours left alone.
func TestDMLErrors(t *testing.T) {
	cases := []struct {
		in   string
		code vsqlerr.Code // "" when the statement is not refused
	}{
		{"SELECT * FROM (SELECT 1 INTO f) bar", vsqlerr.SyntaxError},
		{"INSERT INTO int4_tbl SELECT 1 INTO f", vsqlerr.SyntaxError},
		{"CREATE VIEW foo AS SELECT 1 INTO int4_tbl", vsqlerr.FeatureNotSupported},
		{"WITH x AS (SELECT 1 INTO f) SELECT * FROM x", vsqlerr.SyntaxError},
		{"insert into t values (1) on conflict do update set b = excluded.b", vsqlerr.SyntaxError},
		{"SELECT 1 AS a INTO f", ""},
		{"WITH x AS (SELECT 1) SELECT * INTO f FROM x", ""},
		{"INSERT INTO t SELECT * FROM (SELECT 1) s", ""},
		{"WITH x AS (INSERT INTO t VALUES (1) RETURNING *) SELECT * FROM x", ""},
		{"INSERT OR REPLACE INTO t VALUES (1)", ""},
		{"MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN DELETE", ""},
		{"insert into t values (1) on conflict do nothing", ""},
		{"insert into t values (1) on conflict (a) do update set b = excluded.b returning excluded.b", vsqlerr.TableNotFound},
		{"insert into excluded values (1) on conflict (a) do update set b = 3 returning excluded.*", ""},
		{"insert into t as excluded values (1) on conflict (a) do update set b = 3 returning excluded.b", ""},
		{"insert into t values (1) on conflict (a) do update set b = excluded.b returning t.b", ""},
		{"INSERT INTO foo AS bar DEFAULT VALUES RETURNING foo.*", vsqlerr.TableNotFound},
		{"INSERT INTO foo AS bar DEFAULT VALUES RETURNING bar.*, (SELECT foo.x FROM foo)", ""},
		{"INSERT INTO foo AS foo VALUES (1) RETURNING foo.a", ""},
		{"INSERT INTO foo AS bar VALUES (1) RETURNING lower(foo.b)", vsqlerr.TableNotFound},
		{"insert into t values (1) on conflict (a) do update set b = 1", ""},
	}
	for _, c := range cases {
		_, _, err := rewriteChecked(sqltext.Parse(c.in), Session{})
		var e *vsqlerr.Error
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%q: unexpected error %v", c.in, err)
		case c.code != "" && (!errors.As(err, &e) || e.Code != c.code):
			t.Errorf("%q: error %v, want %s", c.in, err, c.code)
		}
	}
}

func TestSelectsInto(t *testing.T) {
	for in, want := range map[string]bool{
		"SELECT 1 INTO t": true,
		"WITH x AS (SELECT 1) SELECT * INTO t FROM x":        true,
		"SELECT * FROM (SELECT 1) s":                         false,
		"WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x": false,
		"INSERT INTO t VALUES (1)":                           false,
	} {
		if got := SelectsInto(sqltext.Parse(in)); got != want {
			t.Errorf("SelectsInto(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestAliasedReturning: RETURNING a.c of INSERT INTO t AS a is written
// t.c (DuckDB's RETURNING knows the table by its name), outside
// subqueries.
func TestAliasedReturning(t *testing.T) {
	in := "INSERT INTO foo AS bar VALUES (1) RETURNING bar.a, (SELECT bar.x FROM o AS bar)"
	want := "INSERT INTO foo AS bar VALUES (1) RETURNING foo.a, (SELECT bar.x FROM o AS bar)"
	if got, _ := rewrite(sqltext.Parse(in), Session{}); got.SQL != want {
		t.Errorf("rewrite(%q)\n got %q\nwant %q", in, got.SQL, want)
	}
}
