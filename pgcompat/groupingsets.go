package pgcompat

import (
	"slices"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// groupByQuantifier is the rule of group (token i): GROUP BY ALL list and
// GROUP BY DISTINCT list (PostgreSQL 14's quantifiers of a grouping
// list). ALL is the default, so it is dropped (DuckDB reads GROUP BY ALL
// as grouping by every column that is not aggregated; a bare GROUP BY ALL,
// which PostgreSQL refuses, stays DuckDB's). DISTINCT groups by each
// grouping set of the list once: the list's ROLLUP, CUBE and GROUPING SETS
// are expanded into their grouping sets, the product of the list's items
// is taken, as PostgreSQL does, and the sets that hold the same
// expressions are written once, as GROUPING SETS ((…), …). Expressions are
// compared by their text (case and spaces aside), so a set that names one
// expression in two spellings is kept twice. The list is copied once every
// rule has run (pass.deferred).
func groupByQuantifier(p *pass, i int) {
	if !p.isWord(i+1, "by") || !p.isWord(i+2, "all") && !p.isWord(i+2, "distinct") {
		return
	}
	start := i + 3
	end := p.groupListEnd(start)
	if end < start {
		return // GROUP BY ALL alone
	}
	if p.isWord(i+2, "all") {
		p.replace(p.toks[i+2].Start, p.toks[start].Start, "")
		return
	}
	p.deferred = append(p.deferred, func() {
		sets, ok := p.groupingItems(start, end)
		if !ok {
			return
		}
		var out []string
		seen := map[string]bool{}
		for _, set := range sets {
			var keys, texts []string
			for _, e := range set {
				k := strings.ToLower(strings.Join(strings.Fields(e), ""))
				if !slices.Contains(keys, k) {
					keys, texts = append(keys, k), append(texts, e)
				}
			}
			slices.Sort(keys)
			if id := strings.Join(keys, "\x00"); !seen[id] {
				seen[id] = true
				out = append(out, "("+strings.Join(texts, ", ")+")")
			}
		}
		p.replace(p.toks[i+2].Start, p.toks[end].End, "GROUPING SETS ("+strings.Join(out, ", ")+")")
	})
}

// groupListEnd is the last token of a grouping list starting at token
// start: before the clause that follows it, the end of its query level or
// of the statement (start-1 when the list is empty).
func (p *pass) groupListEnd(start int) int {
	j := start
	for ; j < len(p.toks); j++ {
		switch {
		case p.kind(j) == sqltext.Open:
			if j = p.matchForward(j); j < 0 {
				return start - 1
			}
			continue
		case p.kind(j) == sqltext.Close, p.kind(j) == sqltext.Semi:
			return j - 1
		case p.kind(j) == sqltext.Word:
			switch strings.ToLower(p.text(j)) {
			case "having", "order", "limit", "offset", "window", "qualify", "union", "intersect", "except", "fetch", "for", "returning":
				return j - 1
			}
		}
	}
	return j - 1
}

// groupingItems expands the grouping list of tokens from…to into its
// grouping sets, each a list of expressions as SQL text: the product of
// the comma-separated items' sets.
func (p *pass) groupingItems(from, to int) ([][]string, bool) {
	sets := [][]string{{}}
	for _, item := range p.items(from, to) {
		its, ok := p.groupingElement(item[0], item[1])
		if !ok {
			return nil, false
		}
		var product [][]string
		for _, a := range sets {
			for _, b := range its {
				product = append(product, append(slices.Clone(a), b...))
			}
		}
		sets = product
	}
	return sets, true
}

// items are the comma-separated items of tokens from…to at their own
// level, as first and last tokens.
func (p *pass) items(from, to int) [][2]int {
	var out [][2]int
	if from > to {
		return nil
	}
	start := from
	for j := from; j <= to; j++ {
		switch {
		case p.kind(j) == sqltext.Open:
			if j = p.matchForward(j); j < 0 || j > to {
				return nil
			}
		case p.isOp(j, ","):
			out = append(out, [2]int{start, j - 1})
			start = j + 1
		}
	}
	return append(out, [2]int{start, to})
}

// groupingElement expands one grouping element, tokens from…to: an
// expression, a parenthesized list of them, (), ROLLUP (…), CUBE (…) or
// GROUPING SETS (…).
func (p *pass) groupingElement(from, to int) ([][]string, bool) {
	if from > to {
		return nil, false
	}
	switch {
	case p.isWord(from, "grouping") && p.isWord(from+1, "sets") && p.kind(from+2) == sqltext.Open && p.matchForward(from+2) == to:
		var sets [][]string
		for _, item := range p.items(from+3, to-1) {
			its, ok := p.groupingElement(item[0], item[1])
			if !ok {
				return nil, false
			}
			sets = append(sets, its...)
		}
		if len(sets) == 0 {
			return [][]string{{}}, true
		}
		return sets, true
	case (p.isWord(from, "rollup") || p.isWord(from, "cube")) && p.kind(from+1) == sqltext.Open && p.matchForward(from+1) == to:
		var units [][]string
		for _, item := range p.items(from+2, to-1) {
			unit, ok := p.exprList(item[0], item[1])
			if !ok {
				return nil, false
			}
			units = append(units, unit)
		}
		if len(units) == 0 || len(units) > 12 {
			return nil, false
		}
		var sets [][]string
		if p.isWord(from, "rollup") {
			for n := len(units); n >= 0; n-- {
				sets = append(sets, slices.Concat(units[:n]...))
			}
			return sets, true
		}
		for mask := (1 << len(units)) - 1; mask >= 0; mask-- {
			var set []string
			for k, u := range units {
				if mask&(1<<(len(units)-1-k)) != 0 {
					set = append(set, u...)
				}
			}
			sets = append(sets, set)
		}
		return sets, true
	}
	set, ok := p.exprList(from, to)
	if !ok {
		return nil, false
	}
	return [][]string{set}, true
}

// exprList reads tokens from…to as an expression or a parenthesized list
// of them ((a, b), ()), as SQL text with the other rules' rewrites.
func (p *pass) exprList(from, to int) ([]string, bool) {
	if p.kind(from) == sqltext.Open && p.matchForward(from) == to {
		var list []string
		for _, item := range p.items(from+1, to-1) {
			e, ok := p.editedSource(p.toks[item[0]].Start, p.toks[item[1]].End)
			if !ok || item[0] > item[1] {
				return nil, false
			}
			list = append(list, e)
		}
		return list, true
	}
	e, ok := p.editedSource(p.toks[from].Start, p.toks[to].End)
	return []string{e}, ok
}
