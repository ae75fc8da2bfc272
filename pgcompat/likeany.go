package pgcompat

import (
	"fmt"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// likeAny: x [NOT] LIKE | ILIKE ANY | ALL (array), which DuckDB's parser
// refuses ("Unsupported comparison "~~" for ANY/ALL subquery"), becomes
// pg_like_any or pg_like_all (x, array, ilike, negated), with
// PostgreSQL's three-valued result: ANY is true when a pattern matches,
// else NULL when one comparison is NULL, else false (an empty array:
// false); ALL the converse. x is a primary (a column, a call, a literal,
// with casts and subscripts); anything else is left to DuckDB.
func likeAny(p *pass, i int) {
	like := i - 1
	if p.kind(like) == sqltext.Op && p.kind(i+1) == sqltext.Open {
		if !regexAny(p, i) {
			anyLiteralArray(p, i)
		}
		return
	}
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

// anyLiteralArray: 33 = ANY ('{1,2,33}'), 2.5 < ALL ('{3,4}') (token i
// is ANY or ALL after a comparison). PostgreSQL types the string literal
// as an array of the other operand's type; when that operand is a number
// literal the array is int[] or numeric[], which the rewrite writes out
// (DuckDB bound the untyped literal as a correlated UNNEST and refused
// it). Other operands are left to DuckDB.
func anyLiteralArray(p *pass, i int) {
	if p.kind(i+3) != sqltext.Close {
		return
	}
	op := i - 1
	for p.kind(op-1) == sqltext.Op && p.adjacent(op-1) {
		op-- // <=, >=, <>, !=
	}
	start := p.operandStart(op - 1)
	if start < 0 || p.kind(start-1) == sqltext.Op && !p.isOp(start-1, ",") && !p.isOp(start-1, "(") {
		return
	}
	typeLiteralArray(p, op-1, i+2)
}

// anyEqLiteralArray is anyLiteralArray for x = ANY (…) as sqltext wrote
// it: vsql_any_eq(33, ('{1,2,33}')) (token i is vsql_any_eq).
func anyEqLiteralArray(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open {
		return
	}
	close := p.matchForward(i + 1)
	if close < 0 {
		return
	}
	args := p.splitArgs(i+1, close)
	if len(args) == 2 && args[0][0] <= args[0][1] && p.kind(args[1][0]) == sqltext.Open && args[1][1] == args[1][0]+2 {
		typeLiteralArray(p, args[0][1], args[1][0]+1)
	}
}

// typeLiteralArray types the array literal at token lit by the operand
// that ends at token num: a number literal (int[] or numeric[]) or a cast
// to a one-word type (null::int, x::text: an array of that type).
func typeLiteralArray(p *pass, num, lit int) {
	if !p.plainString(lit) {
		return
	}
	typ := "int[]"
	switch {
	case p.kind(num) == sqltext.Number:
		if strings.ContainsAny(p.text(num), ".eE") {
			typ = "numeric[]"
		}
	case p.kind(num) == sqltext.Word && p.isOp(num-1, ":") && p.isOp(num-2, ":") && p.adjacent(num-2) &&
		!jsonTypeWords[strings.ToLower(p.text(num))]:
		typ = p.text(num) + "[]"
	default:
		return
	}
	p.readLiteral(lit, literalType{kind: litArray, dims: 1}, -1, -1)
	p.insert(p.toks[lit].End, "::"+typ)
}

// regexAny: x ~ ANY (array) and the other regular expression operators
// (~*, !~, !~*) with ANY or ALL (token i), which DuckDB's parser refuses
// as it does LIKE ANY: pg_regex_any or pg_regex_all (x, array,
// case-insensitive, negated), three-valued as likeAny's. False when the
// operator before ANY is another.
func regexAny(p *pass, i int) bool {
	first := i - 1
	for p.kind(first-1) == sqltext.Op && p.adjacent(first-1) {
		first--
	}
	var ci, negated bool
	switch p.src[p.toks[first].Start:p.toks[i-1].End] {
	case "~":
	case "~*":
		ci = true
	case "!~":
		negated = true
	case "!~*":
		ci, negated = true, true
	default:
		return false
	}
	closing := p.matchForward(i + 1)
	if closing < 0 || p.isWord(i+2, "select") || p.isWord(i+2, "with") {
		return true // a subquery: DuckDB's own
	}
	end := first - 1
	start := p.operandStart(end)
	if start < 0 || (start > 0 && p.kind(start-1) == sqltext.Op && !p.isOp(start-1, ",")) || p.edited(p.toks[start].Start, p.toks[i-1].End) {
		return true
	}
	fn := "pg_regex_any"
	if p.isWord(i, "all") {
		fn = "pg_regex_all"
	}
	flags := fmt.Sprintf(", %t, %t)", ci, negated)
	p.insert(p.toks[start].Start, schema+"."+fn+"(")
	p.replace(p.toks[end].End, p.toks[i+1].End, ", ")
	p.replace(p.toks[closing].Start, p.toks[closing].End, flags)
	return true
}

// jsonTypeWords are casts whose array literal is left as written.
var jsonTypeWords = map[string]bool{"json": true, "jsonb": true}
