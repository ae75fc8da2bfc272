package pgcompat

import (
	"database/sql/driver"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// ts_rank and ts_rank_cd, computed as PostgreSQL computes them (in
// float4 where it does, so that the printed values agree).

// tsDefaultWeights are the weights of D, C, B and A.
var tsDefaultWeights = [4]float32{0.1, 0.2, 0.4, 1.0}

// Normalization flags of ts_rank and ts_rank_cd.
const (
	rankLogLength = 1 << iota
	rankLength
	rankExtDist
	rankUniq
	rankLogUniq
	rankRDivRPlus1
)

// tsqOperands are the query's distinct lexemes (negated ones too), in
// order.
func tsqOperands(q *tsqNode) []*tsqNode {
	var all []*tsqNode
	var walk func(n *tsqNode)
	walk = func(n *tsqNode) {
		if n == nil {
			return
		}
		if n.op == tsqValue {
			all = append(all, n)
		}
		walk(n.left)
		walk(n.right)
	}
	walk(q)
	sort.SliceStable(all, func(i, j int) bool { return all[i].word < all[j].word })
	out := all[:0]
	for _, n := range all {
		if len(out) > 0 && out[len(out)-1].word == n.word {
			continue
		}
		out = append(out, n)
	}
	return out
}

// entries are the lexemes of v op matches (a prefix: each one so).
func (v tsvector) entries(op *tsqNode) []tsLexeme {
	var out []tsLexeme
	i := sort.Search(len(v), func(i int) bool { return v[i].word >= op.word })
	for ; i < len(v); i++ {
		if v[i].word == op.word || op.prefix && len(v[i].word) > len(op.word) && v[i].word[:len(op.word)] == op.word {
			out = append(out, v[i])
			if op.prefix {
				continue
			}
		}
		break
	}
	return out
}

// wordDistance is the weight of two lexemes dist positions apart.
func wordDistance(dist int) float32 {
	if dist > 100 {
		return 1e-30
	}
	return float32(1.0 / (1.005 + 0.05*math.Exp(float64(dist)/1.5-2)))
}

// rankOr is the rank of a query of alternatives.
func rankOr(w [4]float32, v tsvector, ops []*tsqNode) float32 {
	var res float32
	for _, op := range ops {
		for _, e := range v.entries(op) {
			pos := e.pos
			if len(pos) == 0 {
				pos = []tsPos{{}}
			}
			var resj float32
			wjm := float32(-1)
			jm := 0
			for j, p := range pos {
				resj += w[p.weight] / float32((j+1)*(j+1))
				if w[p.weight] > wjm {
					wjm, jm = w[p.weight], j
				}
			}
			res = float32(float64(res) + float64(wjm+resj-wjm/float32((jm+1)*(jm+1)))/1.64493406685)
		}
	}
	if len(ops) > 0 {
		res /= float32(len(ops))
	}
	return res
}

// rankAnd is the rank of a query of lexemes all wanted: their proximity.
func rankAnd(w [4]float32, v tsvector, ops []*tsqNode) float32 {
	if len(ops) < 2 {
		return rankOr(w, v, ops)
	}
	res := float32(-1)
	seen := make([][]tsPos, len(ops))
	noposAt := make([]bool, len(ops))
	for i, op := range ops {
		for _, e := range v.entries(op) {
			pos := e.pos
			nopos := len(pos) == 0
			if nopos {
				pos = []tsPos{{pos: tsMaxPos}}
			}
			seen[i], noposAt[i] = pos, nopos
			for k := 0; k < i; k++ {
				for _, p := range pos {
					for _, c := range seen[k] {
						dist := p.pos - c.pos
						if dist < 0 {
							dist = -dist
						}
						if dist != 0 || nopos || noposAt[k] {
							if dist == 0 {
								dist = tsMaxPos + 1
							}
							curw := float32(math.Sqrt(float64(w[p.weight] * w[c.weight] * wordDistance(dist))))
							if res < 0 {
								res = curw
							} else {
								res = float32(1 - (1-float64(res))*(1-float64(curw)))
							}
						}
					}
				}
			}
		}
	}
	return res
}

// lengthOf is the number of positions of v (a stripped lexeme counts one).
func (v tsvector) lengthOf() int {
	n := 0
	for _, l := range v {
		n += max(len(l.pos), 1)
	}
	return n
}

// tsRank is ts_rank(weights, v, q, normalization).
func tsRank(w [4]float32, v tsvector, q *tsqNode, method int) float32 {
	if len(v) == 0 || q == nil {
		return 0
	}
	ops := tsqOperands(q)
	var res float32
	if q.op == tsqAnd || q.op == tsqPhrase {
		res = rankAnd(w, v, ops)
	} else {
		res = rankOr(w, v, ops)
	}
	if res < 0 {
		res = 1e-20
	}
	if method&rankLogLength != 0 {
		res = float32(float64(res) / (math.Log(float64(v.lengthOf()+1)) / math.Log(2)))
	}
	if method&rankLength != 0 {
		if n := v.lengthOf(); n > 0 {
			res /= float32(n)
		}
	}
	if method&rankUniq != 0 {
		res /= float32(len(v))
	}
	if method&rankLogUniq != 0 {
		res = float32(float64(res) / (math.Log(float64(len(v)+1)) / math.Log(2)))
	}
	if method&rankRDivRPlus1 != 0 {
		res /= res + 1
	}
	return res
}

// docEntry is a position of the document and the query operands there.
type docEntry struct {
	pos    int
	weight uint8
	ops    []*tsqNode
}

// tsRankCD is ts_rank_cd(weights, v, q, normalization): the density of
// the covers, the shortest extents of v matching q.
func tsRankCD(w [4]float32, v tsvector, q *tsqNode, method int) float32 {
	if len(v) == 0 || q == nil {
		return 0
	}
	var inv [4]float64
	for i := range w {
		inv[i] = 1 / float64(w[i])
	}
	byPos := map[int]*docEntry{}
	for _, op := range tsqOperands(q) {
		for _, e := range v.entries(op) {
			for _, p := range e.pos {
				if op.weights != 0 && op.weights&(1<<p.weight) == 0 {
					continue
				}
				d := byPos[p.pos]
				if d == nil {
					d = &docEntry{pos: p.pos, weight: p.weight}
					byPos[p.pos] = d
				}
				d.weight = min(d.weight, p.weight) // PostgreSQL keeps the lightest
				d.ops = append(d.ops, op)
			}
		}
	}
	doc := make([]*docEntry, 0, len(byPos))
	for _, d := range byPos {
		doc = append(doc, d)
	}
	sort.Slice(doc, func(i, j int) bool { return doc[i].pos < doc[j].pos })
	var wdoc, sumDist, prevExt float64
	nExtent := 0
	for start := 0; start < len(doc); {
		begin, end, ok := nextCover(doc, q, &start)
		if !ok {
			break
		}
		var invSum float64
		for k := begin; k <= end; k++ {
			invSum += inv[doc[k].weight]
		}
		cpos := float64(end-begin+1) / invSum
		noise := (doc[end].pos - doc[begin].pos) - (end - begin)
		if noise < 0 {
			noise = (end - begin) / 2
		}
		wdoc += cpos / float64(1+noise)
		cur := float64(doc[end].pos+doc[begin].pos) / 2
		if nExtent > 0 && cur > prevExt {
			sumDist += 1 / (cur - prevExt)
		}
		prevExt = cur
		nExtent++
	}
	if method&rankLogLength != 0 {
		wdoc /= math.Log(float64(v.lengthOf() + 1)) // natural, unlike ts_rank's
	}
	if method&rankLength != 0 {
		if n := v.lengthOf(); n > 0 {
			wdoc /= float64(n)
		}
	}
	if method&rankExtDist != 0 && nExtent > 0 && sumDist > 0 {
		wdoc /= float64(nExtent) / sumDist
	}
	if method&rankUniq != 0 {
		wdoc /= float64(len(v))
	}
	if method&rankLogUniq != 0 {
		wdoc /= math.Log(float64(len(v)+1)) / math.Log(2)
	}
	if method&rankRDivRPlus1 != 0 {
		wdoc /= wdoc + 1
	}
	return float32(wdoc)
}

// nextCover finds the next cover from doc[*start]: the first entry where
// q matches reading forward, then the last where it matches reading back
// from there; *start moves past the cover's beginning.
func nextCover(doc []*docEntry, q *tsqNode, start *int) (begin, end int, ok bool) {
	for *start < len(doc) {
		seen := map[string][]int{}
		lookup := func(op *tsqNode) ([]int, bool) {
			p, ok := seen[op.word]
			return p, ok
		}
		end = -1
		for k := *start; k < len(doc); k++ {
			for _, op := range doc[k].ops {
				seen[op.word] = append(seen[op.word], doc[k].pos)
			}
			if tsExecute(q, lookup) {
				end = k
				break
			}
		}
		if end < 0 {
			return 0, 0, false
		}
		seen = map[string][]int{}
		begin = -1
		for k := end; k >= *start; k-- {
			for _, op := range doc[k].ops {
				seen[op.word] = append([]int{doc[k].pos}, seen[op.word]...)
			}
			if tsExecute(q, lookup) {
				begin = k
				break
			}
		}
		if begin >= 0 && doc[begin].pos <= doc[end].pos {
			*start = begin + 1
			return begin, end, true
		}
		*start++
	}
	return 0, 0, false
}

// rankWeights reads the weights array of ts_rank (D, C, B, A; NULL
// elements the defaults).
func rankWeights(v driver.Value) ([4]float32, error) {
	w := tsDefaultWeights
	var list []string
	switch x := v.(type) {
	case string:
		elems, err := parseArrayLiteral(x)
		if err != nil {
			return w, err
		}
		for _, e := range elems {
			if e == nil {
				list = append(list, "NULL")
			} else {
				list = append(list, *e)
			}
		}
	case []any:
		for _, e := range x {
			if e == nil {
				list = append(list, "NULL")
			} else {
				list = append(list, fmt.Sprint(e))
			}
		}
	}
	if len(list) < 4 {
		return w, vsqlerr.New(vsqlerr.ArrayDimensions, "array of weight is too short")
	}
	for i := 0; i < 4; i++ {
		if strings.EqualFold(list[i], "NULL") {
			continue
		}
		f64, err := strconv.ParseFloat(list[i], 32)
		if err != nil {
			return w, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type real: %q", list[i])
		}
		f := float32(f64)
		if f > 1 {
			return w, vsqlerr.New(vsqlerr.InvalidArgument, "weight out of range")
		}
		if f >= 0 {
			w[i] = f
		}
	}
	return w, nil
}

// rankFunctions are ts_rank and ts_rank_cd in Go: (weights or NULL,
// tsvector, tsquery, normalization).
func rankFunctions() map[string][]scalar {
	fn := func(rank func([4]float32, tsvector, *tsqNode, int) float32) []scalar {
		return []scalar{{in: []duckdb.Type{duckdb.TYPE_ANY, tText, tText, tInt4}, out: duckdb.TYPE_FLOAT, nulls: true, run: func(a []driver.Value) (any, error) {
			if a[1] == nil || a[2] == nil || a[3] == nil {
				return nil, nil
			}
			w := tsDefaultWeights
			if a[0] != nil {
				var err error
				if w, err = rankWeights(a[0]); err != nil {
					return nil, err
				}
			}
			v, q, err := readBoth(a[1], a[2], tsvectorArg, tsqueryArg)
			if err != nil {
				return nil, err
			}
			return rank(w, v, q, int(a[3].(int32))), nil
		}}}
	}
	return map[string][]scalar{"__vsql_ts_rank": fn(tsRank), "__vsql_ts_rank_cd": fn(tsRankCD)}
}
