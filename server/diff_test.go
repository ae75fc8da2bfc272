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
}
