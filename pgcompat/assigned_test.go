package pgcompat

import (
	"reflect"
	"testing"

	"github.com/vsql/vsql/sqltext"
)

func TestAssignedLiterals(t *testing.T) {
	table := []TableColumn{{Name: "id", Type: "INTEGER"}, {Name: "A", Type: "INTEGER[]"}, {Name: "tz", Type: "TIMESTAMP WITH TIME ZONE"},
		{Name: "b", Type: "BOOLEAN"}, {Name: "m", Type: "VARCHAR[][]"}, {Name: "note", Type: "VARCHAR"}, {Name: "j", Type: "JSON"}}
	cases := []struct{ in, want string }{
		// the table's order, several rows, a nested item skipped
		{"INSERT INTO t VALUES (1, '{1,2}', 'Mon Feb 10 17:32:01 1997 PST', ' yes '), (f('x', 2), '{}', '1997-02-10 17:32:01 -08:00', 'off')",
			"INSERT INTO t VALUES (1, ['1', '2'], '1997-02-11 01:32:01+00', 'true'), (f('x', 2), [], '1997-02-11 01:32:01+00', 'false')"},
		// a column list (names in any case, quoted), a schema, an alias, RETURNING
		{`insert into public.T as x ("tz", a, NOTE) values ('today', '{"a b",NULL}', '{1}') returning a`,
			`insert into public.T as x ("tz", a, NOTE) values ((CAST(current_date AS TIMESTAMPTZ)), ['a b', NULL], '{1}') returning a`},
		{"INSERT INTO t (m) VALUES ('{{a},{b}}')", "INSERT INTO t (m) VALUES ([['a'], ['b']])"},
		// UPDATE … SET
		{"UPDATE t SET a = '{3}', note = 'x', tz = 'now' WHERE a = '{1}'",
			"UPDATE t SET a = ['3'], note = 'x', tz = (now()) WHERE a = '{1}'"},
		{"UPDATE ONLY t AS u SET b = 'of', a = (SELECT '{1}') RETURNING *", "UPDATE ONLY t AS u SET b = 'false', a = (SELECT '{1}') RETURNING *"},
		// a jsonb column's subscripted assignment, an element of a one-dimensional array; slices and arrays of arrays are left to DuckDB
		{"UPDATE t SET j['a'][n + 1] = '1', note = 'x' WHERE id = 2", "UPDATE t SET j = memory.__vsql_fn.pg_jsonb_assign(j, json_array('a', n + 1), '1'), note = 'x' WHERE id = 2"},
		{"UPDATE t SET A[1] = 2, j[1:2] = '1', m[1] = 'x'", "UPDATE t SET A = memory.__vsql_fn.pg_array_assign(A, 1, CAST(2 AS INTEGER)), j[1:2] = '1', m[1] = 'x'"},
		// left alone: an expression, a text column, a subscripted column list, an unknown table
		{"INSERT INTO t VALUES (1, '{1}' || '{2}')", "INSERT INTO t VALUES (1, '{1}' || '{2}')"},
		{"INSERT INTO t (a[1]) VALUES ('{1}')", "INSERT INTO t (a[1]) VALUES ('{1}')"},
		{"INSERT INTO other VALUES ('{1}')", "INSERT INTO other VALUES ('{1}')"},
	}
	for _, c := range cases {
		var asked [][]string
		sess := Session{TableColumns: func(parts []string) []TableColumn {
			asked = append(asked, parts)
			if parts[len(parts)-1] == "other" {
				return nil
			}
			return table
		}}
		got, _ := rewrite(sqltext.Parse(c.in), sess)
		if got.SQL != c.want {
			t.Errorf("rewrite(%q)\n got %q\nwant %q", c.in, got.SQL, c.want)
		}
		if len(asked) > 1 {
			t.Errorf("rewrite(%q) asked for the columns %d times", c.in, len(asked))
		}
	}
	// the name as written, and only for a statement that assigns a literal
	var asked [][]string
	sess := Session{TableColumns: func(parts []string) []TableColumn { asked = append(asked, parts); return table }}
	rewrite(sqltext.Parse(`INSERT INTO db."My Schema".t VALUES ('{1}')`), sess)
	if want := [][]string{{"db", "My Schema", "t"}}; !reflect.DeepEqual(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
	asked = nil
	rewrite(sqltext.Parse("INSERT INTO t VALUES ($1, $2); UPDATE t SET a = $1 WHERE note = 'x'"), sess)
	if asked != nil {
		t.Errorf("asked %q for statements that assign no string literal", asked)
	}
}
