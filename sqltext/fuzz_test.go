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

// FuzzParseCopy: parsing any COPY statement never panics, and the names it
// returns come back through QualifiedName as quoted identifiers.
func FuzzParseCopy(f *testing.F) {
	for _, s := range []string{"COPY t FROM STDIN", `COPY "a"".b".c (x, "Y") FROM STDIN WITH (FORMAT csv, NULL E'\\x4', FORCE_QUOTE *)`,
		"COPY (SELECT (1)) TO STDOUT CSV HEADER", "COPY t FROM STDIN DELIMITER AS E'\\t' FORCE NOT NULL a, b", "COPY t FROM STDIN (x 12.5, y $$z$$)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		cp, err := sqltext.Parse("COPY " + src).ParseCopy()
		if err != nil || cp.Table == nil {
			return
		}
		q := sqltext.QualifiedName(cp.Table)
		if !strings.HasPrefix(q, `"`) || !strings.HasSuffix(q, `"`) {
			t.Fatalf("QualifiedName(%q) = %s", cp.Table, q)
		}
	})
}
