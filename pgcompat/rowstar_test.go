package pgcompat

import "testing"

// TestRowStar: t.* inside row(…) becomes *COLUMNS(t.*) (records.go).
func TestRowStar(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT array(SELECT row(v.a, s1.*) FROM s1) FROM v", "SELECT array(SELECT struct_pack(f1 := v.a, *COLUMNS(s1.*)) AS \"row\" FROM s1) FROM v"},
		{"SELECT x FROM t WHERE row(t.*) = row(1, 2)", "SELECT x FROM t WHERE row(*COLUMNS(t.*)) = row(1, 2)"},
		{"SELECT t.*, count(*), f(t.*) FROM t", "SELECT t.*, count(*), f(t.*) FROM t"},
	} {
		if got, _ := Rewrite(c.in); got != c.want {
			t.Errorf("%s\n got  %s\n want %s", c.in, got, c.want)
		}
	}
}
