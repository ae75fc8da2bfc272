package merge

import (
	"sort"

	"github.com/vsql/vsql/catalog"
)

// Selection states of a base selection.
const (
	SelectionUnique      = "unique"
	SelectionAmbiguous   = "ambiguous"
	SelectionUnavailable = "unavailable"
)

// AncestryRow is one snapshot of the graph behind a base selection.
type AncestryRow struct {
	Snapshot      int64
	Kind          string
	Parents       []int64
	ReachableFrom string // ours, theirs or both
	Candidate     bool   // a best common ancestor
	SelectedBase  int64  // 0 unless the selection is unique
	State         string
}

// Ancestry is the recorded parent graph of two snapshots and the base it
// selects: the best common ancestors are the common ancestors that are not
// ancestors of another common ancestor. Exactly one is selected; several
// are ambiguous; none is unavailable. Only recorded parent edges count,
// never ids, times or equal contents.
type Ancestry struct {
	Rows       []AncestryRow
	Base       int64
	State      string
	Candidates []int64
}

// ancestors returns id and every snapshot reachable from it by parent edges.
func ancestors(parents map[int64][]int64, id int64) map[int64]bool {
	seen := map[int64]bool{}
	stack := []int64{id}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, parents[n]...)
	}
	return seen
}

// SelectBase computes the ancestry of snapshots ours and theirs.
func SelectBase(snaps []catalog.Snapshot, ours, theirs int64) Ancestry {
	parents := map[int64][]int64{}
	kinds := map[int64]string{}
	for _, s := range snaps {
		parents[s.ID] = s.Parents
		kinds[s.ID] = s.Kind
	}
	fromOurs := ancestors(parents, ours)
	fromTheirs := ancestors(parents, theirs)
	var common []int64
	for id := range fromOurs {
		if fromTheirs[id] {
			common = append(common, id)
		}
	}
	// A common ancestor is best unless it is a proper ancestor of another
	// common ancestor.
	dominated := map[int64]bool{}
	for _, c := range common {
		for a := range ancestors(parents, c) {
			if a != c {
				dominated[a] = true
			}
		}
	}
	var best []int64
	for _, c := range common {
		if !dominated[c] {
			best = append(best, c)
		}
	}
	sort.Slice(best, func(i, j int) bool { return best[i] < best[j] })
	a := Ancestry{Candidates: best}
	switch len(best) {
	case 0:
		a.State = SelectionUnavailable
	case 1:
		a.State, a.Base = SelectionUnique, best[0]
	default:
		a.State = SelectionAmbiguous
	}
	isBest := map[int64]bool{}
	for _, b := range best {
		isBest[b] = true
	}
	var ids []int64
	for id := range fromOurs {
		ids = append(ids, id)
	}
	for id := range fromTheirs {
		if !fromOurs[id] {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		r := AncestryRow{Snapshot: id, Kind: kinds[id], Parents: parents[id], Candidate: isBest[id], SelectedBase: a.Base, State: a.State}
		switch {
		case fromOurs[id] && fromTheirs[id]:
			r.ReachableFrom = "both"
		case fromOurs[id]:
			r.ReachableFrom = "ours"
		default:
			r.ReachableFrom = "theirs"
		}
		a.Rows = append(a.Rows, r)
	}
	return a
}
