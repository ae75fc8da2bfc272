package pgcompat

import "testing"

// TestLikeBytes: LIKE of bytea (strfuncs.go), the cases PostgreSQL's
// MatchText answers.
func TestLikeBytes(t *testing.T) {
	for _, c := range []struct {
		s, p string
		esc  int
		want bool
	}{
		{"abc", "_b_", '\\', true}, {"abc", "a%", '\\', true}, {"abc", "%c", '\\', true}, {"abc", "%b%", '\\', true},
		{"abc", "a%d", '\\', false}, {"", "%", '\\', true}, {"", "_", '\\', false}, {"a%c", `a\%c`, '\\', true},
		{"abc", `a\%c`, '\\', false}, {"a_c", "a$__", '$', true}, {"abc", "a$__", '$', false}, {"ab", `ab\`, '\\', false},
		{"aXbXc", "%X%X_", '\\', true}, {"mississippi", "%iss%ppi", -1, true}, {"mississippi", "%iss%ppx", -1, false},
		{`a\c`, `a\c`, -1, true}, {"abcabc", "%abc", '\\', true}, {"ab", "a%%%b%", '\\', true},
	} {
		if got := likeBytes([]byte(c.s), []byte(c.p), c.esc); got != c.want {
			t.Errorf("%q LIKE %q (escape %q) = %t, want %t", c.s, c.p, rune(c.esc), got, c.want)
		}
	}
}
