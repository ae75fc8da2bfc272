package sqltext

import (
	"reflect"
	"testing"
)

// TestEditTokens: the tokens and classification Edit gives a statement
// are those a lexing pass over its new text finds, for edits that replace
// tokens, cut into them, insert beside them touching or not, and several
// inside one token.
func TestEditTokens(t *testing.T) {
	cases := []struct {
		sql   string
		edits []Edit
		want  string
	}{
		{"SELECT a / b FROM t", []Edit{{7, 7, "f("}, {9, 10, ","}, {12, 12, ")"}}, "SELECT f(a , b) FROM t"},
		{"SELECT abc FROM t", []Edit{{8, 9, "x y"}}, "SELECT ax yc FROM t"},
		{"SELECT a FROM t", []Edit{{7, 7, "b"}}, "SELECT ba FROM t"},                             // joins the word after it
		{"SELECT a FROM t", []Edit{{8, 8, "b"}}, "SELECT ab FROM t"},                             // and the word before it
		{"SELECT 'a b c' FROM t", []Edit{{10, 11, "X"}, {12, 13, "Y"}}, "SELECT 'a X Y' FROM t"}, // two inside one string
		{"INSERT INTO t VALUES ($1, 2)", []Edit{{22, 22, "("}, {22, 24, "$7"}, {24, 24, ")::INT"}}, "INSERT INTO t VALUES (($7)::INT, 2)"},
		{"x::regclass", []Edit{{0, 0, "f("}, {1, 11, ")"}}, "f(x)"},
		{"SELECT 1 -- note\n, 2", []Edit{{19, 20, "3"}}, "SELECT 1 -- note\n, 3"},
		{"SELECT 'open", []Edit{{0, 6, "VALUES"}}, "VALUES 'open"},                       // unterminated: lexed whole
		{"SELECT 1", []Edit{{8, 8, " /* open"}}, "SELECT 1 /* open"},                     // an edit opens a comment
		{"SELECT 1 RETURNING", []Edit{{0, 6, "DELETE FROM"}}, "DELETE FROM 1 RETURNING"}, // classification follows
	}
	for _, c := range cases {
		st := Parse(c.sql)
		st.Offset = 7
		got := st.Edit(c.edits)
		if got.SQL != c.want {
			t.Errorf("Edit(%q) = %q, want %q", c.sql, got.SQL, c.want)
			continue
		}
		fresh := Parse(got.SQL)
		if !reflect.DeepEqual(got.Tokens(), fresh.Tokens()) || !reflect.DeepEqual(got.Keywords, fresh.Keywords) ||
			got.Returning != fresh.Returning || got.Params != fresh.Params || !reflect.DeepEqual(got.lead, fresh.lead) {
			t.Errorf("Edit(%q) → %q:\n tokens %v %v\n lexed  %v %v", c.sql, got.SQL, got.Tokens(), got.Keywords, fresh.Tokens(), fresh.Keywords)
		}
		if got.Offset != 7 {
			t.Errorf("Edit(%q): offset %d, want 7", c.sql, got.Offset)
		}
	}
}

// TestEditLexesOnlyWhatChanged: Edit does not lex the statement again.
func TestEditLexesOnlyWhatChanged(t *testing.T) {
	st := Parse("SELECT a / b, c FROM t WHERE d = 'x'")
	before := LexPasses()
	got := st.Edit([]Edit{{7, 7, "f("}, {9, 10, ","}, {12, 12, ")"}})
	if n := LexPasses() - before; n != 0 {
		t.Fatalf("%d lexing passes", n)
	}
	if got.SQL != "SELECT f(a , b), c FROM t WHERE d = 'x'" {
		t.Fatal(got.SQL)
	}
}
