package pgcompat

import "github.com/vsql/vsql/sqltext"

// likeAny: x [NOT] LIKE | ILIKE ANY | ALL (array), which DuckDB's parser
// refuses ("Unsupported comparison "~~" for ANY/ALL subquery"), becomes
// pg_like_any or pg_like_all (x, array, ilike, negated), with
// PostgreSQL's three-valued result: ANY is true when a pattern matches,
// else NULL when one comparison is NULL, else false (an empty array:
// false); ALL the converse. x is a primary (a column, a call, a literal,
// with casts and subscripts); anything else is left to DuckDB.
func likeAny(p *pass, i int) {
	like := i - 1
	if !p.isWord(like, "like") && !p.isWord(like, "ilike") || p.kind(i+1) != sqltext.Open {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 || p.isWord(i+2, "select") || p.isWord(i+2, "with") {
		return // a subquery: DuckDB's own
	}
	end := like - 1
	negated := p.isWord(end, "not")
	if negated {
		end--
	}
	start := p.operandStart(end)
	if start < 0 || (start > 0 && p.kind(start-1) == sqltext.Op && !p.isOp(start-1, ",")) {
		return
	}
	fn := "pg_like_any"
	if p.isWord(i, "all") {
		fn = "pg_like_all"
	}
	flags := ", false"
	if p.isWord(like, "ilike") {
		flags = ", true"
	}
	if negated {
		flags += ", true)"
	} else {
		flags += ", false)"
	}
	p.insert(p.toks[start].Start, schema+"."+fn+"(")
	p.replace(p.toks[end].End, p.toks[i+1].End, ", ")
	p.replace(p.toks[closing].Start, p.toks[closing].End, flags)
}
