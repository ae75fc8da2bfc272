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

// SelectBase computes the ancestry of snapshots ours and theirs.
func SelectBase(snaps []catalog.Snapshot, ours, theirs int64) Ancestry {
	parents := catalog.ParentMap(snaps)
	kinds := map[int64]string{}
	for _, s := range snaps {
		kinds[s.ID] = s.Kind
	}
	best, fromOurs, fromTheirs := catalog.BestCommonAncestors(parents, ours, theirs)
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
