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
			"UPDATE t SET a = ['3'], note = 'x', tz = (now()) WHERE a = CAST(['1'] AS INTEGER[])"},
		{"UPDATE ONLY t AS u SET b = 'of', a = (SELECT '{1}') RETURNING *", "UPDATE ONLY t AS u SET b = 'false', a = (SELECT '{1}') RETURNING *"},
		// a jsonb column's subscripted assignment (a slice of one is left to DuckDB), an element of an array, a wrong number of subscripts
		{"UPDATE t SET j['a'][n + 1] = '1', note = 'x' WHERE id = 2", "UPDATE t SET j = memory.__vsql_fn.pg_jsonb_assign(j, json_array('a', n + 1), '1'), note = 'x' WHERE id = 2"},
		{"UPDATE t SET A[1] = 2, j[1:2] = '1', m[1] = 'x'", "UPDATE t SET A = memory.__vsql_fn.pg_array_assign(A, 1, CAST(2 AS INTEGER)), j[1:2] = '1', m = memory.__vsql_fn.pg_array_wrong_subscripts(m, 1, 2, (1) IS NULL, CAST('x' AS VARCHAR))"},
		{"UPDATE t SET m[i][2] = 'x'", "UPDATE t SET m = memory.__vsql_fn.pg_array_set_elem2(m, i, 2, CAST('x' AS VARCHAR))"},
		// slices: a literal source read serially, bounds left out, [k] among slices, an expression flattened, nested assignments to one column
		{"UPDATE t SET a[1:2] = '{{16},{25}}' WHERE id = 1", "UPDATE t SET a = memory.__vsql_fn.pg_array_set_slice1(a, 1, 1, 2, true, true, CAST(['16', '25'] AS INTEGER[])) WHERE id = 1"},
		{"UPDATE t SET m[2:][1] = ARRAY[['x']], note = 'n', m[:1] = NULL", "UPDATE t SET m = memory.__vsql_fn.pg_array_set_slice2(memory.__vsql_fn.pg_array_set_slice2(m, 2, 2, NULL, true, false, 1, 1, true, true, CAST(flatten(ARRAY[['x']]) AS VARCHAR[])), 1, NULL, 1, false, true, NULL, NULL, false, false, CAST(NULL AS VARCHAR[])), note = 'n'"},
		// a column list's subscripts: the assignment to a NULL array, in every row
		{"INSERT INTO t (id, a[1:2]) VALUES (1, '{1,2}'), (2, x)", "INSERT INTO t (id, a) VALUES (1, memory.__vsql_fn.pg_array_set_slice1(CAST(NULL AS INTEGER[]), 1, 1, 2, true, true, CAST(['1', '2'] AS INTEGER[]))), (2, memory.__vsql_fn.pg_array_set_slice1(CAST(NULL AS INTEGER[]), 1, 1, 2, true, true, CAST(x AS INTEGER[])))"},
		{"INSERT INTO t (a[1]) VALUES ('{1}')", "INSERT INTO t (a) VALUES (memory.__vsql_fn.pg_array_assign(CAST(NULL AS INTEGER[]), 1, CAST('{1}' AS INTEGER)))"},
		// ON CONFLICT … DO UPDATE SET
		{"INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET a[2] = excluded.a[2]", "INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET a = memory.__vsql_fn.pg_array_assign(a, 2, CAST(excluded.a[2] AS INTEGER))"},
		// left alone: an expression, a text column, an unknown table
		{"INSERT INTO t VALUES (1, '{1}' || '{2}')", "INSERT INTO t VALUES (1, '{1}' || '{2}')"},
		// a column listed twice with subscripts: insertindirection.go's
		{"INSERT INTO t (a[1], a[2]) VALUES (1, 2)", `INSERT INTO t ("A") SELECT CAST([CAST(__vsql_insert.c1 AS INTEGER), CAST(__vsql_insert.c2 AS INTEGER)] AS INTEGER[]) FROM (VALUES (1, 2)) AS __vsql_insert(c1, c2)`},
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
