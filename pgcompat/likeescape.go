package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// likeEscape: x [NOT] LIKE | ILIKE pattern without an ESCAPE clause.
// PostgreSQL's LIKE takes a backslash as its escape character unless told
// otherwise ('a_b' LIKE 'a\_b' is true; Django escapes % and _ in the
// value of __contains this way); DuckDB's LIKE has none, so \_ matched a
// backslash and any character and such queries silently found nothing.
// The rule adds ESCAPE '\' when the pattern is not a literal (a
// parameter, an expression: its text may hold a backslash) or is a
// literal holding a backslash; a literal without one means the same
// either way and keeps DuckDB's faster LIKE. LIKE ANY/ALL (likeany.go)
// and CREATE TABLE (LIKE t) are not this rule's.
func likeEscape(p *pass, i int) {
	if p.kind(i+1) == -1 || p.isWord(i+1, "any") || p.isWord(i+1, "all") || p.isWord(i+1, "some") {
		return
	}
	before := i - 1
	if p.isWord(before, "not") {
		before--
	}
	if !binaryOperand(p, before) {
		return // CREATE TABLE t (LIKE s), LIKE at the start of a list
	}
	// the pattern: to the next token that ends it at this level
	end := i + 1
	for ; end < len(p.toks); end++ {
		if p.kind(end) == sqltext.Open {
			if end = p.matchForward(end); end < 0 {
				return
			}
			continue
		}
		if likePatternEnds(p, end) {
			break
		}
	}
	if end == i+1 || p.isWord(end, "escape") {
		return
	}
	if end == i+2 && p.kind(i+1) == sqltext.String && !strings.Contains(p.text(i+1), `\`) {
		return // a literal without a backslash
	}
	p.insert(p.toks[end-1].End, ` ESCAPE '\'`)
}

// likePatternEnds reports whether token k ends the pattern of a LIKE:
// an operator of lower precedence, a keyword that goes on the statement,
// a comma, a closing bracket or the end.
func likePatternEnds(p *pass, k int) bool {
	switch p.kind(k) {
	case -1, sqltext.Close, sqltext.Semi:
		return true
	case sqltext.Op:
		switch p.text(k) {
		case ",", "=", "<", ">", "!", "]":
			return true
		}
	case sqltext.Word:
		switch strings.ToLower(p.text(k)) {
		case "escape", "and", "or", "then", "when", "else", "end", "order", "group", "having", "limit", "offset", "union", "intersect",
			"except", "window", "from", "as", "is", "returning", "on", "where", "not", "between", "in", "like", "ilike", "similar", "isnull",
			"notnull", "for", "fetch", "qualify", "using", "join", "inner", "left", "right", "full", "cross", "natural", "do", "set":
			return true
		}
	}
	return false
}
