package sqltext_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/vsql/vsql/sqltext"
)

func TestParseCopy(t *testing.T) {
	opt := func(name, value string) sqltext.CopyOption {
		return sqltext.CopyOption{Name: name, Value: value, HasValue: true}
	}
	cases := []struct {
		src  string
		want sqltext.Copy
	}{
		{"COPY t FROM STDIN", sqltext.Copy{Table: []string{"t"}, From: true, Stdio: true}},
		{`copy "db/dev".Main."T x" (A, "b") from stdin`, sqltext.Copy{Table: []string{"db/dev", "main", "T x"}, Columns: []string{"a", "b"}, From: true, Stdio: true}},
		{"COPY t FROM STDIN WITH (FORMAT csv, HEADER, DELIMITER ';', NULL '', QUOTE '\"', FORCE_NOT_NULL (a, b), ENCODING 'UTF8')",
			sqltext.Copy{Table: []string{"t"}, From: true, Stdio: true, Options: []sqltext.CopyOption{
				opt("format", "csv"), {Name: "header"}, opt("delimiter", ";"), opt("null", ""), opt("quote", `"`),
				{Name: "force_not_null", Columns: []string{"a", "b"}, HasValue: true}, opt("encoding", "UTF8")}}},
		{"COPY t FROM STDIN (header match, delimiter E'\\t')", sqltext.Copy{Table: []string{"t"}, From: true, Stdio: true, Options: []sqltext.CopyOption{
			opt("header", "match"), opt("delimiter", "\t")}}},
		{"COPY t FROM STDIN WITH CSV HEADER DELIMITER AS ',' NULL ''  FORCE NOT NULL a", sqltext.Copy{Table: []string{"t"}, From: true, Stdio: true, Options: []sqltext.CopyOption{
			opt("format", "csv"), {Name: "header"}, opt("delimiter", ","), opt("null", ""), {Name: "force_not_null", Columns: []string{"a"}, HasValue: true}}}},
		{"COPY (SELECT '(', 1) TO STDOUT WITH (FORMAT csv, FORCE_QUOTE *)", sqltext.Copy{Query: "SELECT '(', 1", Stdio: true, Options: []sqltext.CopyOption{
			opt("format", "csv"), {Name: "force_quote", Star: true, HasValue: true}}}},
		{"COPY t TO '/tmp/x.csv'", sqltext.Copy{Table: []string{"t"}}},
		{"COPY BINARY t FROM STDIN", sqltext.Copy{Table: []string{"t"}, From: true, Stdio: true, Options: []sqltext.CopyOption{opt("format", "binary")}}},
	}
	for _, c := range cases {
		got, err := sqltext.Parse(c.src).ParseCopy()
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.src, got, c.want)
		}
	}
	for _, bad := range []string{"COPY FROM STDIN", "COPY t STDIN", "COPY (SELECT 1) FROM STDIN", "COPY t FROM STDIN (FORMAT", "COPY a.b.c.d FROM STDIN", "COPY t FROM STDIN junk"} {
		if _, err := sqltext.Parse(bad).ParseCopy(); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if q := sqltext.QualifiedName([]string{"db/dev", `a"b`}); q != `"db/dev"."a""b"` {
		t.Errorf("QualifiedName = %s", q)
	}
	if _, err := sqltext.Parse("COPY t FROM STDIN junk").ParseCopy(); err == nil || !strings.Contains(err.Error(), "junk") {
		t.Errorf("error does not name the token: %v", err)
	}
}
