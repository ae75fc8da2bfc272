package pgcompat

import "github.com/vsql/vsql/sqltext"

// aggregateFilter is the rule of filter (token i): agg(x …) FILTER (WHERE
// c). PostgreSQL evaluates an aggregate's argument only for the rows c
// keeps; DuckDB evaluates it for every row, so sum(1/d) FILTER (WHERE d >
// 0) failed with division by zero where PostgreSQL answers. The first
// argument becomes CASE WHEN (c) THEN (x) END, which DuckDB evaluates for
// c's rows only (the FILTER stays, so a row c drops is still not counted).
// The condition is copied once every rule has run (pass.deferred), with
// their rewrites.
func aggregateFilter(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || !p.isWord(i+2, "where") || p.kind(i-1) != sqltext.Close {
		return
	}
	open := p.matchBackward(i - 1)
	if open < 1 || p.kind(open-1) != sqltext.Word && p.kind(open-1) != sqltext.Quoted {
		return
	}
	condEnd := p.matchForward(i+1) - 1
	if condEnd < i+3 {
		return
	}
	argStart := open + 1
	if p.isWord(argStart, "distinct") || p.isWord(argStart, "all") {
		argStart++
	}
	argEnd := argStart - 1
	for j := argStart; j < i-1; j++ {
		if p.isOp(j, ",") || p.isWord(j, "order") && p.isWord(j+1, "by") {
			break
		}
		if p.kind(j) == sqltext.Open {
			if j = p.matchForward(j); j < 0 {
				return
			}
		}
		argEnd = j
	}
	if argEnd < argStart || argEnd == argStart && p.isOp(argStart, "*") {
		return
	}
	condStart := i + 3
	p.deferred = append(p.deferred, func() {
		cond, ok := p.editedSource(p.toks[condStart].Start, p.toks[condEnd].End)
		if !ok {
			return
		}
		for _, e := range p.edits {
			if at := p.toks[argStart].Start; e.start == at || e.end == at && e.start < e.end {
				return // another rule wraps the argument (jsonb_agg's to_json): left as it is
			}
		}
		p.open(p.toks[argStart].Start, "CASE WHEN ("+cond+") THEN (")
		p.insert(p.toks[argEnd].End, ") END")
	})
}
