package merge

import (
	"testing"

	"github.com/vsql/vsql/catalog"
)

func graph(edges map[int64][]int64) []catalog.Snapshot {
	var out []catalog.Snapshot
	for id, ps := range edges {
		out = append(out, catalog.Snapshot{ID: id, Parents: ps})
	}
	return out
}

func TestSelectBase(t *testing.T) {
	// 1 ← 2 (cleanup), 1 ← 3 (main), 4 = merge(3, 2)
	g := graph(map[int64][]int64{1: nil, 2: {1}, 3: {1}, 4: {3, 2}})
	cases := []struct {
		ours, theirs, base int64
		state              string
	}{
		{3, 2, 1, SelectionUnique},
		{4, 2, 2, SelectionUnique}, // theirs is an ancestor of ours
		{2, 4, 2, SelectionUnique}, // fast-forward
		{4, 4, 4, SelectionUnique},
	}
	for _, c := range cases {
		a := SelectBase(g, c.ours, c.theirs)
		if a.Base != c.base || a.State != c.state {
			t.Errorf("SelectBase(%d, %d) = %d %s, want %d %s", c.ours, c.theirs, a.Base, a.State, c.base, c.state)
		}
	}
	// criss-cross: 4 = (2,3), 5 = (3,2), 6 ← 4, 7 ← 5
	cc := graph(map[int64][]int64{1: nil, 2: {1}, 3: {1}, 4: {2, 3}, 5: {3, 2}, 6: {4}, 7: {5}})
	a := SelectBase(cc, 6, 7)
	if a.State != SelectionAmbiguous || len(a.Candidates) != 2 || a.Candidates[0] != 2 || a.Candidates[1] != 3 {
		t.Errorf("criss-cross: %+v", a)
	}
	// two unrelated roots
	if a := SelectBase(graph(map[int64][]int64{1: nil, 2: nil}), 1, 2); a.State != SelectionUnavailable {
		t.Errorf("unrelated: %+v", a)
	}
}
