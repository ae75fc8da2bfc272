package sqlfuncs_test

import (
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

// The macros that sessions create name each function once, with the
// internal function behind it.
func TestMacros(t *testing.T) {
	macros := sqlfuncs.Macros()
	if len(macros) != len(sqlfuncs.Names()) {
		t.Fatalf("%d macros for %d functions", len(macros), len(sqlfuncs.Names()))
	}
	for i, n := range sqlfuncs.Names() {
		if !strings.Contains(macros[i], "MACRO "+n+"(") || !strings.Contains(macros[i], "__"+n+"(") {
			t.Errorf("macro %d: %s", i, macros[i])
		}
	}
}
