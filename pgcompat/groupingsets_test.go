package pgcompat

import "testing"

// TestGroupByQuantifier: GROUP BY ALL and GROUP BY DISTINCT
// (groupingsets.go).
func TestGroupByQuantifier(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT a FROM t GROUP BY ALL rollup(a, b), c ORDER BY 1", "SELECT a FROM t GROUP BY rollup(a, b), c ORDER BY 1"},
		{"SELECT a, count(*) FROM t GROUP BY ALL", "SELECT a, count(*) FROM t GROUP BY ALL"},
		{"SELECT a FROM t GROUP BY DISTINCT rollup(a, b), rollup(a, c) ORDER BY a",
			"SELECT a FROM t GROUP BY GROUPING SETS ((a, b, c), (a, b), (a, c), (a), ()) ORDER BY a"},
		{"SELECT a FROM t GROUP BY DISTINCT cube(a, (b, c)), grouping sets ((), a, (A))",
			"SELECT a FROM t GROUP BY GROUPING SETS ((a, b, c), (a), (b, c), ())"},
		{"SELECT a FROM t GROUP BY DISTINCT a, a / 2 HAVING count(*) > 1", "SELECT a FROM t GROUP BY GROUPING SETS ((a, a // 2)) HAVING count(*) > 1"},
		{"SELECT (SELECT 1 FROM u GROUP BY DISTINCT x) FROM t", "SELECT (SELECT 1 FROM u GROUP BY GROUPING SETS ((x))) FROM t"},
	} {
		if got, _ := Rewrite(c.in); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.in, got, c.want)
		}
	}
}
