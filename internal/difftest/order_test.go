package difftest

import (
	"reflect"
	"testing"
)

func TestOrderColumns(t *testing.T) {
	fields := []string{"depname", "empno", "salary", "Sum"}
	for _, c := range []struct {
		sql     string
		ordered bool
		cols    []int
	}{
		{"SELECT depname, empno, salary, sum(salary) OVER (PARTITION BY depname ORDER BY salary) FROM e", false, nil},
		{"SELECT * FROM (SELECT * FROM e ORDER BY salary) s", false, nil},
		{"SELECT array_agg(x ORDER BY x) FROM t", false, nil},
		{"SELECT depname, empno, salary FROM e ORDER BY depname, e.salary DESC NULLS LAST LIMIT 3", true, []int{0, 2}},
		{"SELECT * FROM e ORDER BY 2, \"Sum\" USING >;", true, []int{1, 3}},
		{"SELECT * FROM e ORDER BY salary + 1", true, nil},
		{"SELECT * FROM e ORDER BY sum", true, nil},
		{"SELECT * FROM e ORDER BY 9", true, nil},
		{"SELECT a FROM t UNION SELECT b FROM u ORDER BY 1", true, []int{0}},
	} {
		ordered, cols := orderColumns(c.sql, fields)
		if ordered != c.ordered || !reflect.DeepEqual(cols, c.cols) {
			t.Errorf("orderColumns(%q) = %v %v, want %v %v", c.sql, ordered, cols, c.ordered, c.cols)
		}
	}
}

func TestTiesAgree(t *testing.T) {
	s := func(v ...string) []*string {
		out := make([]*string, len(v))
		for i := range v {
			out[i] = &v[i]
		}
		return out
	}
	pg := [][]*string{s("a", "1"), s("a", "2"), s("b", "3")}
	for _, c := range []struct {
		vs   [][]*string
		want bool
	}{
		{[][]*string{s("a", "2"), s("a", "1"), s("b", "3")}, true},  // a tie in another order
		{[][]*string{s("b", "3"), s("a", "1"), s("a", "2")}, false}, // keys out of order
		{[][]*string{s("a", "1"), s("a", "3"), s("b", "2")}, false}, // a row in another run
	} {
		if got := tiesAgree(Stmt{}, pg, c.vs, []int{0}); got != c.want {
			t.Errorf("tiesAgree(%v) = %v, want %v", c.vs, got, c.want)
		}
	}
}
