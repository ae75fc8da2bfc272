package pgcompat

import (
	"errors"
	"testing"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

func TestInsertIndirection(t *testing.T) {
	table := []TableColumn{{Name: "id", Type: "INTEGER"}, {Name: "f2", Type: "INTEGER[]"},
		{Name: "f3", Type: "STRUCT(if1 INTEGER, if2 VARCHAR[])"}, {Name: "f4", Type: "STRUCT(if1 INTEGER, if2 VARCHAR[])[]"}}
	sess := Session{TableColumns: func([]string) []TableColumn { return table }}
	cases := []struct{ in, want string }{
		// elements with a gap, a field's literal read as its type, RETURNING kept after the rows
		{"INSERT INTO t (id, f2[1], f2[3], f3.if2) VALUES (1, 2, 3, '{a,b}') RETURNING *",
			`INSERT INTO t ("id", "f2", "f3") SELECT CAST(__vsql_insert.c1 AS INTEGER), CAST([CAST(__vsql_insert.c2 AS INTEGER), CAST(NULL AS INTEGER), CAST(__vsql_insert.c3 AS INTEGER)] AS INTEGER[]), ` +
				`CAST(struct_pack("if1" := CAST(NULL AS INTEGER), "if2" := CAST(__vsql_insert.c4 AS VARCHAR[])) AS STRUCT(if1 INTEGER, if2 VARCHAR[])) FROM (VALUES (1, 2, 3, ['a', 'b'])) AS __vsql_insert(c1, c2, c3, c4) RETURNING *`},
		// a SELECT's literal, ON CONFLICT after the rows
		{"INSERT INTO t (f4[1].if2[1], f3.if2) SELECT 'x', '{y}' ON CONFLICT DO NOTHING",
			`INSERT INTO t ("f4", "f3") SELECT CAST([CAST(struct_pack("if1" := CAST(NULL AS INTEGER), "if2" := CAST([CAST(__vsql_insert.c1 AS VARCHAR)] AS VARCHAR[])) AS STRUCT(if1 INTEGER, if2 VARCHAR[]))] AS STRUCT(if1 INTEGER, if2 VARCHAR[])[]), ` +
				`CAST(struct_pack("if1" := CAST(NULL AS INTEGER), "if2" := CAST(__vsql_insert.c2 AS VARCHAR[])) AS STRUCT(if1 INTEGER, if2 VARCHAR[])) FROM (SELECT 'x', ['y']) AS __vsql_insert(c1, c2) ON CONFLICT DO NOTHING`},
		// one subscript per column, no field: assigned.go's; no indirection: untouched
		{"INSERT INTO t (id) VALUES (1)", "INSERT INTO t (id) VALUES (1)"},
	}
	for _, c := range cases {
		out, _, err := rewriteChecked(sqltext.Parse(c.in), sess)
		if err != nil || out.SQL != c.want {
			t.Errorf("rewrite(%q)\n got %q (%v)\nwant %q", c.in, out.SQL, err, c.want)
		}
	}
	refused := []struct {
		in   string
		code vsqlerr.Code
	}{
		{"INSERT INTO t (f2[1], f2[2]) VALUES (1, DEFAULT)", vsqlerr.FeatureNotSupported},
		{"INSERT INTO t (f2[2], f2[3]) VALUES (1, 2)", vsqlerr.FeatureNotSupported}, // PostgreSQL's array would start at 2
		{"INSERT INTO t (f2[1:2], f2[3]) VALUES ('{1,2}', 3)", vsqlerr.FeatureNotSupported},
		{"INSERT INTO t (f3.nope) VALUES (1)", vsqlerr.UndefinedColumn},
		{"INSERT INTO t (id.x) VALUES (1)", vsqlerr.DatatypeMismatch},
		{"INSERT INTO t (f2, f2[1]) VALUES ('{1}', 2)", vsqlerr.DuplicateColumn},
		{"INSERT INTO t (nope.x) VALUES (1)", vsqlerr.UndefinedColumn},
		{"INSERT INTO t (f3.if1, f3.if2) VALUES (1)", vsqlerr.SyntaxError},
	}
	for _, c := range refused {
		_, _, err := rewriteChecked(sqltext.Parse(c.in), sess)
		var e *vsqlerr.Error
		if !errors.As(err, &e) || e.Code != c.code {
			t.Errorf("rewrite(%q): error %v, want %s", c.in, err, c.code)
		}
	}
}
