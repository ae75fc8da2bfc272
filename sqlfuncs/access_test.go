package sqlfuncs

import "testing"

// Every function has exactly one entry in the privilege table, and the
// table names no function that does not exist: a new function cannot
// ship without saying what it needs.
func TestEveryFunctionHasNeeds(t *testing.T) {
	names := map[string]bool{}
	for _, f := range functions {
		names[f.name] = true
		if _, ok := needsOf[f.name]; !ok {
			t.Errorf("%s has no entry in needsOf", f.name)
		}
		for _, r := range needsOf[f.name].reqs {
			if r.arg == "" {
				continue
			}
			found := false
			for _, p := range f.params {
				found = found || p.name == r.arg
			}
			if !found {
				t.Errorf("%s: needsOf names argument %q, which it does not take", f.name, r.arg)
			}
		}
	}
	for n := range needsOf {
		if !names[n] {
			t.Errorf("needsOf names %s, which does not exist", n)
		}
	}
}
