package pgcompat

import (
	"database/sql/driver"
	"testing"

	"github.com/vsql/vsql/vsqlerr"
)

// TestJSONPath: the evaluator's answers (PostgreSQL's, checked against
// PostgreSQL 15 through the server in TestPostgresSemantics) and its
// errors: malformed paths are syntax errors, unread parts are refused;
// no prefix of a path makes the parser panic.
func TestJSONPath(t *testing.T) {
	doc := `{"a": [1, 2, {"b": "x"}], "c": null, "d": {"e": true}}`
	for _, tc := range []struct {
		path  string
		match any // @@ (silent)
		exist bool
	}{
		{"$.a[*] == 2", true, true},
		{"$.a[*].b == \"x\"", true, true},
		{"$.c == null", true, true},
		{"$.d.e", true, true},
		{"exists($.nope)", false, true},
		{"$.a[*] > \"s\"", nil, true},
		{"!(exists($.a ? (@[*] == 3)))", true, true},
		{"$.nope", nil, false},
		{"$.a[0, 2]", nil, true},
		{"$.* ? (@ == true)", nil, false},
		{"$.d.* ? (@ == true)", true, true},
	} {
		got, err := jsonpathMatch([]driver.Value{doc, tc.path, true})
		if err != nil || got != tc.match {
			t.Errorf("%s @@: %v, %v; want %v", tc.path, got, err, tc.match)
		}
		ex, err := jsonpathExists([]driver.Value{doc, tc.path})
		if err != nil || ex != tc.exist {
			t.Errorf("%s @?: %v, %v; want %v", tc.path, ex, err, tc.exist)
		}
	}
	for path, code := range map[string]vsqlerr.Code{
		"$.a ? (@ == 1":            vsqlerr.SyntaxError,
		"$.":                       vsqlerr.SyntaxError,
		"\"open":                   vsqlerr.SyntaxError,
		"$.a.size()":               vsqlerr.FeatureNotSupported,
		"$.a + 1":                  vsqlerr.FeatureNotSupported,
		"strict $.a":               vsqlerr.FeatureNotSupported,
		"$ ? (@ like_regex \"x\")": vsqlerr.FeatureNotSupported,
	} {
		_, err := parseJSONPath(path)
		if vsqlerr.From(err).Code != code {
			t.Errorf("%q: %v, want %s", path, err, code)
		}
	}
	full := `exists($.a[*] ? (@.b == "x" && !(@ < 2) || @ != null)) && $."d".e == true`
	for i := range full {
		_, _ = parseJSONPath(full[:i])
	}
}
