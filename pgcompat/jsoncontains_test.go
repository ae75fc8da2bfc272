package pgcompat

import (
	"database/sql/driver"
	"testing"
)

// TestJSONBContains checks the containment test on pairs whose answers
// are PostgreSQL 15's (server's TestPostgresSemantics compares more
// through the wire).
func TestJSONBContains(t *testing.T) {
	cases := []struct {
		val, tmpl string
		want      bool
	}{
		{`{"a": 1, "b": 2}`, `{"a": 1}`, true},
		{`{"a": {"b": 1}}`, `{"b": 1}`, false},
		{`[1, [2, 3]]`, `[2]`, false},
		{`[1, [2, 3]]`, `[[3]]`, true},
		{`{"age": 25.0}`, `{"age": 25}`, true},
		{`{"age": 25.5}`, `{"age": 25}`, false},
		{`["foo"]`, `"foo"`, true},
		{`"foo"`, `["foo"]`, false},
		{`{}`, `[]`, false},
		{`{"a": 1, "a": 2}`, `{"a": 2}`, true},
		{`{"a": 1, "a": 2}`, `{"a": 1}`, false},
		{`{"a": 2}`, `{"a": 1, "a": 2}`, true},
		{`{"s": "caf\u00e9 \ud83d\ude00"}`, `{"s": "café 😀"}`, true},
		{`{"s": "a\"b\\c\n"}`, `{"s": "a\"b\\c\n"}`, true},
		{`[true, null]`, `[null]`, true},
		{`[1]`, `["1"]`, false},
	}
	for _, c := range cases {
		got, err := jsonbContains([]driver.Value{c.val, c.tmpl})
		if err != nil || got != c.want {
			t.Errorf("%s @> %s = %v, %v; want %v", c.val, c.tmpl, got, err, c.want)
		}
	}
	for _, bad := range []string{`{"a": }`, `[1,]`, `{"a" 1}`, `tru`, `"\x"`, `01x`} {
		if _, err := parseJSONValue(bad); err == nil {
			t.Errorf("parseJSONValue(%q): no error", bad)
		}
	}
}
