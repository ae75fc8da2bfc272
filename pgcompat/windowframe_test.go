package pgcompat

import (
	"errors"
	"testing"

	"github.com/vsql/vsql/sqltext"
)

// TestWindowFrameRewrite: frame offsets written as strings, and the
// statements refused before they run (windowframe.go, fetchties.go).
func TestWindowFrameRewrite(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT min(i) OVER (ORDER BY i RANGE BETWEEN '1 day' PRECEDING AND '10 days' FOLLOWING) FROM t",
			"SELECT min(i) OVER (ORDER BY i RANGE BETWEEN CAST('1 day' AS INTERVAL) PRECEDING AND CAST('10 days' AS INTERVAL) FOLLOWING) FROM t"},
		{"SELECT sum(x) OVER (ORDER BY t RANGE '-1 day +2:00' PRECEDING) FROM t",
			"SELECT sum(x) OVER (ORDER BY t RANGE CAST('0 months -1 days 7200000000 microseconds' AS INTERVAL) PRECEDING) FROM t"},
		{"SELECT sum(x) OVER (ORDER BY n RANGE BETWEEN ' 1.5' PRECEDING AND 'inf' FOLLOWING) FROM t",
			"SELECT sum(x) OVER (ORDER BY n RANGE BETWEEN (1.5) PRECEDING AND 'inf' FOLLOWING) FROM t"},
		{"SELECT lead(ten * 2, 1, -1.4) OVER w, lag(f(a, b), 2, 7e-1) OVER w, lag(x, 1, 0) OVER w, t.lag(x, 1, 0.5) FROM t",
			"SELECT lead(CASE WHEN false THEN -1.4 ELSE ten * 2 END, 1, -1.4) OVER w, lag(CASE WHEN false THEN 7e-1 ELSE f(a, b) END, 2, 7e-1) OVER w, lag(x, 1, 0) OVER w, t.lag(x, 1, 0.5) FROM t"},
		{"SELECT nth_value(x, 2) OVER w, nth_value(x, 0) OVER w, nth_value(x, n - 1) OVER w FROM t",
			"SELECT nth_value(x, 2) OVER w, nth_value(x, " + schema + ".pg_nth_arg(0)) OVER w, nth_value(x, " + schema + ".pg_nth_arg(n - 1)) OVER w FROM t"},
		{"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY b), percentile_cont(array[0.25, 0.5]) within group (order by f(a, b) desc nulls first), percentile_disc(0.5) WITHIN GROUP (ORDER BY b) FROM t",
			"SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY CAST((b) AS DOUBLE)), percentile_cont(array[0.25, 0.5]) within group (order by CAST((f(a, b)) AS DOUBLE) desc nulls first), percentile_disc(0.5) WITHIN GROUP (ORDER BY b) FROM t"},
		{"SELECT string_agg(x, NULL), string_agg(x, NULL::text ORDER BY y), string_agg(x, CAST(NULL AS varchar)), string_agg(x, ','), string_agg(x, NULL || 'a') FROM t",
			"SELECT string_agg(x, ''), string_agg(x, '' ORDER BY y), string_agg(x, ''), string_agg(x, ','), string_agg(x, NULL || 'a') FROM t"},
		{"SELECT sum(x) OVER (ORDER BY n ROWS 2 PRECEDING), 'a' following FROM t",
			"SELECT sum(x) OVER (ORDER BY n ROWS 2 PRECEDING), 'a' following FROM t"},
	} {
		if got, _ := Rewrite(c.in); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		sql  string
		fail bool
	}{
		{"SELECT sum(x) OVER (PARTITION BY a GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t", true},
		{"SELECT sum(x) OVER (GROUPS UNBOUNDED PRECEDING) FROM t", true},
		{"SELECT sum(x) OVER (PARTITION BY a ORDER BY b GROUPS 1 PRECEDING) FROM t", false},
		{"SELECT sum(x) OVER (w GROUPS 1 PRECEDING) FROM t WINDOW w AS (ORDER BY b)", false},
		{"SELECT groups FROM t", false},
		{"SELECT count() FROM t", true},
		{"SELECT count(*), s.count() FROM t", false},
		{"CREATE VIEW v AS SELECT a FROM t ORDER BY a FETCH FIRST NULL ROWS WITH TIES", true},
		{"SELECT 'abcdefg' SIMILAR TO '_bcd#%' ESCAPE '##'", true},
		{"SELECT 'abcdefg' SIMILAR TO '_bcd#%' ESCAPE '#'", false},
		{"CREATE VIEW v AS SELECT a FROM t ORDER BY a FETCH FIRST (NULL + 1) ROWS WITH TIES", false},
	} {
		_, _, err := rewriteChecked(sqltext.Parse(c.sql), Session{})
		if (err != nil) != c.fail {
			t.Errorf("%s: error %v, want an error: %v", c.sql, err, c.fail)
		}
	}
}

// The server's retry of a sum over interval that a macro cannot take.
func TestIntervalSumCall(t *testing.T) {
	st := sqltext.Parse("SELECT sum(d), sum(DISTINCT d), sum(d) FILTER (WHERE g > 1) OVER w FROM t")
	if !SumRefused(errors.New("Binder Error: No function matches the given name and argument types 'sum(INTERVAL)'.")) {
		t.Error("SumRefused of sum(INTERVAL)")
	}
	if _, ok := IntervalSumCall(st, 0); ok {
		t.Error("IntervalSumCall of sum(DISTINCT d)")
	}
	out, ok := IntervalSumCall(st, 1)
	f := func(name string) string {
		return "sum(" + schema + ".pg_interval_" + name + "(d)) FILTER (WHERE g > 1) OVER w"
	}
	want := "SELECT sum(d), sum(DISTINCT d), " + schema + ".pg_interval_of(" + f("months") + ", " + f("days") + ", " + f("micros") + ") FROM t"
	if !ok || out.SQL != want {
		t.Errorf("IntervalSumCall: %q, %t; want %q", out.SQL, ok, want)
	}
	// the call made is no longer a call to retry
	p := pass{src: out.SQL, toks: out.Tokens()}
	if n := len(sumCalls(&p)); n != 2 {
		t.Errorf("%d calls of sum after IntervalSumCall, want 2", n)
	}
}
