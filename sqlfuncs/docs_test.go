package sqlfuncs_test

import (
	"github.com/vsql/vsql/sqltext"
	"os"
	"strings"
	"testing"

	"github.com/vsql/vsql/sqlfuncs"
)

// Every vsql_* function is documented in docs/sql.md under a heading of
// its own, and every documented function exists.
func TestEveryFunctionDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/sql.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	names := map[string]bool{}
	for _, n := range sqlfuncs.Names() {
		names[n] = true
		if !strings.Contains(text, "### `"+n+"(") && !strings.Contains(text, "and `"+n+"(") {
			t.Errorf("%s has no heading in docs/sql.md", n)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, "### `vsql_") {
			continue
		}
		for _, part := range strings.Split(line, "`") {
			if i := strings.Index(part, "("); strings.HasPrefix(part, "vsql_") && i > 0 && !names[part[:i]] {
				t.Errorf("docs/sql.md documents %s, which does not exist", part[:i])
			}
		}
	}
}

// The macros the server creates name each function once, in the schema
// given, with the internal function behind it.
func TestMacros(t *testing.T) {
	macros := sqlfuncs.Macros("memory.s")
	if len(macros) != len(sqlfuncs.Names()) {
		t.Fatalf("%d macros for %d functions", len(macros), len(sqlfuncs.Names()))
	}
	for i, n := range sqlfuncs.Names() {
		if !strings.Contains(macros[i], "MACRO memory.s."+n+"(") || !strings.Contains(macros[i], "__"+n+"(") {
			t.Errorf("macro %d: %s", i, macros[i])
		}
	}
}

// A bare call of every function is sent to the macros' schema.
func TestCallsRewritten(t *testing.T) {
	for _, n := range sqlfuncs.Names() {
		out, _ := sqltext.RewritePostgres("SELECT * FROM " + n + "(branch => 'x')")
		if want := "SELECT * FROM " + sqltext.PGCatalogSchema + "." + n + "(branch => 'x')"; out != want {
			t.Errorf("%s: rewritten as %q, want %q", n, out, want)
		}
	}
}
