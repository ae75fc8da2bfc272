package pgcompat

import (
	"database/sql/driver"
	"testing"

	"github.com/vsql/vsql/vsqlerr"
)

// format()'s templates as PostgreSQL 15 applies them (the expected
// strings were checked on PostgreSQL 15; server's TestPostgresSemantics
// runs the same calls on both).
func TestPGFormat(t *testing.T) {
	s := func(x string) any { return x }
	for _, c := range []struct {
		f    string
		args []any
		want string
		code string
	}{
		{f: "Hello %s, %I, %L", args: []any{s("World"), s("a b"), s("it's")}, want: `Hello World, "a b", 'it''s'`},
		{f: "%s|%L|%L", args: []any{nil, nil, s(`a\b`)}, want: `|NULL|E'a\\b'`},
		{f: "%I %I %I", args: []any{s("abc"), s("select"), s("Abc")}, want: `abc "select" "Abc"`},
		{f: "%-5s|%5s|%*s|%-*s|%*s|", args: []any{s("ab"), s("cd"), s("4"), s("e"), s("3"), s("f"), s("-3"), s("g")}, want: "ab   |   cd|   e|f  |g  |"},
		{f: "%2$s %1$s %s", args: []any{s("a"), s("b")}, want: "b a b"},
		{f: "%*2$s|", args: []any{s("x"), s("3"), s("y")}, want: "  y|"},
		{f: "%1$*2$s|", args: []any{s("x"), s("3")}, want: "  x|"},
		{f: "%*2$s|", args: []any{s("x"), s("3")}, code: "22023"},
		{f: "100%%", want: "100%"},
		{f: "%s", args: []any{s("é")}, want: "é"},
		{f: "%3s|", args: []any{s("é")}, want: "  é|"},
		{f: "%s %s", args: []any{s("a")}, code: "22023"},
		{f: "%x", args: []any{s("a")}, code: "22023"},
		{f: "abc %", code: "22023"},
		{f: "%0$s", args: []any{s("a")}, code: "22023"},
		{f: "%I", args: []any{nil}, code: "22004"},
	} {
		got, err := pgFormat(c.f, c.args)
		if c.code != "" {
			if err == nil || vsqlerr.From(err).SQLState != c.code {
				t.Errorf("format(%q, %v): %q %v, want SQLSTATE %s", c.f, c.args, got, err, c.code)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("format(%q, %v) = %q %v, want %q", c.f, c.args, got, err, c.want)
		}
	}
}

// Arguments reach format() as PostgreSQL's output functions write them.
func TestPGText(t *testing.T) {
	for _, c := range []struct {
		v         any
		typ, duck string
		want      string
	}{
		{true, "BOOLEAN", "true", "t"},
		{1e20, "DOUBLE", "1e+20", "1e+20"},
		{0.1, "DOUBLE", "0.1", "0.1"},
		{float32(1.5), "FLOAT", "1.5", "1.5"},
		{`{"b":[1,2],"a":1}`, "JSON", `{"b":[1,2],"a":1}`, `{"a": 1, "b": [1, 2]}`},
		{[]any{int32(1), nil, int32(3)}, "INTEGER[]", "[1, NULL, 3]", "{1,NULL,3}"},
		{[]any{"a b", "", "x"}, "VARCHAR[]", "", `{"a b","",x}`},
		{[]any{[]any{true}, []any{false}}, "BOOLEAN[][]", "", "{{t},{f}}"},
		{"2026-12-05", "DATE", "2026-12-05", "2026-12-05"},
	} {
		got, err := pgText([]driver.Value{c.v, c.typ, c.duck})
		if err != nil || got != c.want {
			t.Errorf("%v (%s): %q %v, want %q", c.v, c.typ, got, err, c.want)
		}
	}
}
