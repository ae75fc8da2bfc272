package sqltext_test

import (
	"strings"
	"testing"

	"github.com/vsql/vsql/sqltext"
)

// FuzzSplit: splitting never panics, statements appear in order at their
// offsets, and nothing but separators and blank statements is dropped.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"select 1; select 2", "select ';' ; $$;$$", "/* ; */ select E'\\';'", "--x\n;", `"a;b"`, "$a$ $b$ ; $a$"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		stmts := sqltext.Split(src)
		prev := 0
		for _, st := range stmts {
			if st.Offset < prev || st.Offset+len(st.SQL) > len(src) || src[st.Offset:st.Offset+len(st.SQL)] != st.SQL {
				t.Fatalf("statement %q not at offset %d of %q", st.SQL, st.Offset, src)
			}
			prev = st.Offset + len(st.SQL)
			if strings.TrimSpace(st.SQL) == "" {
				t.Fatalf("blank statement returned for %q", src)
			}
			_ = st.Tag(1)
			_, _, _, _ = st.DatabaseTarget()
		}
	})
}
