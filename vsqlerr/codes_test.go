package vsqlerr_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vsql/vsql/vsqlerr"
)

// Every code is documented in docs/errors.md with its SQLSTATE, and every
// documented code exists.
func TestCodesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/errors.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	codes := vsqlerr.Codes()
	for code, info := range codes {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(string(code)) + "` \\| ([0-9A-Z]{5}) \\|")
		m := row.FindStringSubmatch(text)
		if m == nil {
			t.Errorf("code %s is not documented in docs/errors.md", code)
			continue
		}
		if m[1] != info[0] {
			t.Errorf("code %s: docs say SQLSTATE %s, code says %s", code, m[1], info[0])
		}
		if strings.TrimSpace(info[1]) == "" {
			t.Errorf("code %s has no hint", code)
		}
		if len(info[0]) != 5 {
			t.Errorf("code %s: bad SQLSTATE %q", code, info[0])
		}
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(text, -1) {
		if _, ok := codes[vsqlerr.Code(m[1])]; !ok {
			t.Errorf("docs/errors.md documents unknown code %s", m[1])
		}
	}
}

func TestNewCarriesCodeStateHint(t *testing.T) {
	e := vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", "x")
	if e.SQLState != "3D000" || e.Hint == "" || e.Error() != `[vsql:database_not_found] database "x" does not exist` {
		t.Errorf("got %+v / %q", e, e.Error())
	}
	if !vsqlerr.IsCode(e, vsqlerr.DatabaseNotFound) {
		t.Error("IsCode")
	}
}

// A hint of its own survives the trip through DuckDB's error text (an
// error raised inside a vsql_* function).
func TestOwnHintInEngineText(t *testing.T) {
	e := vsqlerr.New(vsqlerr.MergeTargetDirty, "branch %q is dirty", "main").WithHint("Snapshot it; then retry.")
	if got := vsqlerr.ForEngine(e).Error(); got != "[vsql:merge_target_dirty] branch \"main\" is dirty\n[vsql:hint] Snapshot it; then retry." {
		t.Errorf("ForEngine(e).Error() = %q", got)
	}
	if got := vsqlerr.ForEngine(vsqlerr.New(vsqlerr.MergeTargetDirty, "x")).Error(); got != "[vsql:merge_target_dirty] x" {
		t.Errorf("default hint in the text: %q", got)
	}
	if !vsqlerr.IsCode(vsqlerr.ForEngine(e), vsqlerr.MergeTargetDirty) {
		t.Error("IsCode through ForEngine")
	}
}
