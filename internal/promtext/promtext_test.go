package promtext

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	in := "# HELP x_total Things.\n# TYPE x_total counter\nx_total 3\n\ny{op=\"a b\"} 1.5e+06\nz NaN\n"
	got, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got["x_total"] != 3 || got[`y{op="a b"}`] != 1.5e6 || got["z"] == got["z"] {
		t.Errorf("got %v", got)
	}
	if _, err := Parse(strings.NewReader("x one\n")); err == nil {
		t.Error("a bad value parsed")
	}
}
