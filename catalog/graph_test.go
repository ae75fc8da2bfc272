package catalog

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"
)

// BestCommonAncestors finds, on random histories, exactly the common
// ancestors that are no proper ancestor of another common ancestor (the
// definition, checked the slow way).
func TestBestCommonAncestorsMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 300; trial++ {
		n := 2 + rng.Intn(40)
		parents := map[int64][]int64{}
		for id := int64(2); id <= int64(n); id++ {
			k := 1 + rng.Intn(2) // linear or merge snapshots
			if rng.Intn(8) == 0 {
				k = 0 // another root
			}
			seen := map[int64]bool{}
			for j := 0; j < k; j++ {
				p := 1 + rng.Int63n(id-1)
				if !seen[p] {
					seen[p] = true
					parents[id] = append(parents[id], p)
				}
			}
		}
		a, b := 1+rng.Int63n(int64(n)), 1+rng.Int63n(int64(n))
		got, _, _ := BestCommonAncestors(parents, a, b)
		fromA, fromB := Ancestors(parents, a), Ancestors(parents, b)
		var want []int64
		for c := range fromA {
			if !fromB[c] {
				continue
			}
			best := true
			for d := range fromA {
				if d != c && fromB[d] && Ancestors(parents, d)[c] {
					best = false
				}
			}
			if best {
				want = append(want, c)
			}
		}
		sort.Slice(want, func(i, j int) bool { return want[i] < want[j] })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("trial %d: parents %v, a %d, b %d: got %v, want %v", trial, parents, a, b, got, want)
		}
	}
}
