package server_test

import (
	"context"
	"strings"
	"testing"
)

// TestDiffInPlace: vsql_diff of an UPDATE-only change (compared row by row,
// no join) and of a change that moves keys while keeping the row count
// (compared by the key) list exactly the changed rows.
func TestDiffInPlace(t *testing.T) {
	c := connectDB(t, startServer(t, nil), "postgres")
	mustExec(t, c,
		"CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR, n INTEGER)",
		"INSERT INTO t SELECT i, 'v' || i, i FROM range(5000) r(i)",
		"SELECT * FROM vsql_create_snapshot()", // 1
		"UPDATE t SET n = -n WHERE id IN (7, 4000)",
		"UPDATE t SET v = NULL WHERE id = 9",
		"SELECT * FROM vsql_create_snapshot()", // 2
		"DELETE FROM t WHERE id = 100",
		"INSERT INTO t VALUES (9000, 'new', 1)",
		"UPDATE t SET n = 0 WHERE id = 4000",
		"SELECT * FROM vsql_create_snapshot()", // 3
		"CREATE TABLE u (a INTEGER, b VARCHAR, x INTEGER, PRIMARY KEY (a, b))",
		"INSERT INTO u VALUES (1, 'p', NULL), (1, 'q', 2)",
		"SELECT * FROM vsql_create_snapshot()", // 4
		"DELETE FROM u WHERE b = 'p'",
		"INSERT INTO u VALUES (0, 'z', 3)",
		"UPDATE u SET x = 5 WHERE b = 'q'",
		"SELECT * FROM vsql_create_snapshot()", // 5
	)
	diff := func(from, to string) string {
		rows, err := c.Query(context.Background(), "SELECT key, change, coalesce(before, '-'), coalesce(after, '-') FROM vsql_diff(NULL, '"+from+"', '"+to+"')")
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for rows.Next() {
			var k, ch, b, a string
			if err := rows.Scan(&k, &ch, &b, &a); err != nil {
				t.Fatal(err)
			}
			out = append(out, k+" "+ch+" "+b+" "+a)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return strings.Join(out, "\n")
	}
	if got, want := diff("1", "2"), `{"id":7} update {"id":7,"v":"v7","n":7} {"id":7,"v":"v7","n":-7}
{"id":9} update {"id":9,"v":"v9","n":9} {"id":9,"v":null,"n":9}
{"id":4000} update {"id":4000,"v":"v4000","n":4000} {"id":4000,"v":"v4000","n":-4000}`; got != want {
		t.Errorf("UPDATE-only diff:\n%s\nwant\n%s", got, want)
	}
	if got, want := diff("2", "3"), `{"id":100} delete {"id":100,"v":"v100","n":100} -
{"id":4000} update {"id":4000,"v":"v4000","n":-4000} {"id":4000,"v":"v4000","n":0}
{"id":9000} insert - {"id":9000,"v":"new","n":1}`; got != want {
		t.Errorf("diff with a key moved:\n%s\nwant\n%s", got, want)
	}
	// A table on one side only: every row inserted, or deleted.
	if got, want := diff("3", "4"), `{"a":1,"b":"p"} insert - {"a":1,"b":"p","x":null}
{"a":1,"b":"q"} insert - {"a":1,"b":"q","x":2}`; got != want {
		t.Errorf("diff with a new table:\n%s\nwant\n%s", got, want)
	}
	if got, want := diff("4", "3"), `{"a":1,"b":"p"} delete {"a":1,"b":"p","x":null} -
{"a":1,"b":"q"} delete {"a":1,"b":"q","x":2} -`; got != want {
		t.Errorf("diff with a dropped table:\n%s\nwant\n%s", got, want)
	}
	// A two-column key, a NULL cell changed: rows pair by both columns.
	if got, want := diff("4", "5"), `{"a":0,"b":"z"} insert - {"a":0,"b":"z","x":3}
{"a":1,"b":"p"} delete {"a":1,"b":"p","x":null} -
{"a":1,"b":"q"} update {"a":1,"b":"q","x":2} {"a":1,"b":"q","x":5}`; got != want {
		t.Errorf("diff with a two-column key:\n%s\nwant\n%s", got, want)
	}
}
