package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL's || of arrays also appends and prepends an element
// (ARRAY[1,2] || 3, 0 || ARRAY[1,2], ROW(1,2) || array_agg(x)) and joins
// an array of n dimensions with one of n-1 as a new last or first
// element (ARRAY[[1,2],[3,4]] || ARRAY[5,6]); array_cat does the latter
// too. DuckDB's || and list_concat join lists of one depth only. The
// rewrite cannot see types, so it decides by what is visible: an operand
// is an array when it is ARRAY[…] or ARRAY(…), a cast to an array type
// (x::int[], CAST(x AS text[])) or a call of a function that returns one
// (array_agg, array_append, …, string_to_array); an element when it is a
// number, ROW(…), a typed literal (date '…') or a cast to a type that is
// no array. A chain a || b || c is read left to right (|| is
// left-associative), each step's result an array when it joined one:
// array || element is list_append, element || array list_prepend, and
// arrays whose visible depths differ by one likewise; any other step
// stays DuckDB's || (text, or lists of one depth).

// arrayReturning are functions whose result is an array.
var arrayReturning = map[string]bool{"array_agg": true, "array_append": true, "array_prepend": true, "array_cat": true,
	"string_to_array": true, "regexp_split_to_array": true, "array_remove": true, "array_replace": true,
	"trim_array": true, "array_positions": true, "list_value": true, "list_concat": true}

// operand kinds of a || chain
const (
	concatUnknown = iota
	concatArray
	concatElement
)

// arrayConcatChain reads the chain of || whose first || is at token i.
func arrayConcatChain(p *pass, i int) {
	first := p.operandStart(i - 1)
	if first < 0 || p.isOp(first-1, "|") && p.isOp(first-2, "|") && p.adjacent(first-2) {
		return // not the chain's first ||: the first one reads the whole chain
	}
	if arithmeticOp(p, first-1) {
		return // 1 + 2 || …: PostgreSQL's + binds tighter
	}
	type operand struct{ first, last, kind, depth int }
	kind, depth := p.concatOperand(first, i-1)
	ops := []operand{{first, i - 1, kind, depth}}
	var bars []int // each || (its first token)
	for op := i; p.isOp(op, "|") && p.isOp(op+1, "|") && p.adjacent(op) && !p.isOp(op+2, "/"); {
		start := op + 2
		end := p.operandEnd(start)
		if end < 0 {
			return
		}
		kind, depth := p.concatOperand(start, end)
		ops = append(ops, operand{start, end, kind, depth})
		bars = append(bars, op)
		op = end + 1
		if arithmeticOp(p, op) {
			return
		}
	}
	acc := ops[0]
	for k, o := range ops[1:] {
		fn := ""
		switch {
		case acc.kind == concatArray && o.kind == concatElement:
			fn = "list_append("
		case acc.kind == concatElement && o.kind == concatArray:
			fn = "list_prepend("
		case acc.kind == concatArray && o.kind == concatArray && acc.depth > 0 && o.depth > 0:
			switch acc.depth - o.depth {
			case 1:
				fn = "list_append("
			case -1:
				fn = "list_prepend("
			}
		}
		if fn != "" {
			p.open(p.toks[first].Start, fn)
			p.replace(p.toks[bars[k]].Start, p.toks[bars[k]+1].End, ",")
			p.insert(p.toks[o.last].End, ")")
		}
		switch {
		case acc.kind == concatArray && o.kind == concatArray:
			if acc.depth == 0 || o.depth == 0 {
				acc.depth = 0
			} else {
				acc.depth = max(acc.depth, o.depth)
			}
		case acc.kind == concatArray:
		case o.kind == concatArray:
			acc.kind, acc.depth = concatArray, o.depth
		default:
			acc.kind = concatUnknown
		}
	}
}

// arithmeticOp reports whether token k is an operator that binds more
// tightly than || (+ - * / % ^).
func arithmeticOp(p *pass, k int) bool {
	return p.kind(k) == sqltext.Op && strings.Contains("+-*/%^", p.text(k))
}

// concatOperand classifies the operand of tokens first…last, with its
// visible number of dimensions (0 when unknown).
func (p *pass) concatOperand(first, last int) (kind, depth int) {
	for p.isOp(first, "-") || p.isOp(first, "+") {
		first++
	}
	switch {
	case p.isWord(first, "array") && p.isOp(first+1, "[") && p.matchForward(first+1) == last:
		return concatArray, p.arrayConstructorDepth(first, last)
	case p.isWord(first, "array") && p.kind(first+1) == sqltext.Open && p.matchForward(first+1) == last:
		return concatArray, 1
	case first == last && p.kind(first) == sqltext.Number:
		return concatElement, 0
	case p.isWord(first, "row") && p.kind(first+1) == sqltext.Open && p.matchForward(first+1) == last:
		return concatElement, 0
	case first+1 == last && p.kind(last) == sqltext.String && p.kind(first) == sqltext.Word &&
		(p.isWord(first, "date") || p.isWord(first, "timestamp") || p.isWord(first, "interval") || p.isWord(first, "time")):
		return concatElement, 0
	case p.isOp(last, "]") && p.isOp(last-1, "["):
		// x::type[] …
		k := last
		for p.isOp(k, "]") && p.isOp(k-1, "[") {
			k -= 2
			depth++
		}
		if p.kind(k) == sqltext.Word && p.isOp(k-1, ":") && p.isOp(k-2, ":") {
			return concatArray, depth
		}
		return concatUnknown, 0
	case p.kind(last) == sqltext.Word && p.isOp(last-1, ":") && p.isOp(last-2, ":") && last > first:
		// x::int (a cast to a type that is no array; jsonb is its own rule's)
		if w := strings.ToLower(p.text(last)); w != "json" && w != "jsonb" && w != "unknown" {
			return concatElement, 0
		}
	case p.isWord(first, "cast") && p.kind(first+1) == sqltext.Open && p.matchForward(first+1) == last:
		if p.isOp(last-1, "]") {
			k := last - 1
			for p.isOp(k, "]") && p.isOp(k-1, "[") {
				k -= 2
				depth++
			}
			return concatArray, depth
		}
		if w := strings.ToLower(p.text(last - 1)); p.kind(last-1) == sqltext.Word && w != "json" && w != "jsonb" {
			return concatElement, 0
		}
	case p.kind(first) == sqltext.Word && p.kind(first+1) == sqltext.Open && p.matchForward(first+1) == last &&
		arrayReturning[strings.ToLower(p.text(first))] && !p.isOp(first-1, "."):
		return concatArray, 0
	}
	return concatUnknown, 0
}

// arrayCat: array_cat(a, b) of ARRAY[…] constructors whose depths differ
// by one appends or prepends the shallower one, as PostgreSQL's does
// (DuckDB refuses lists of different depths).
func arrayCat(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) != sqltext.Open {
		return
	}
	close := p.matchForward(i + 1)
	if close < 0 {
		return
	}
	args := p.splitArgs(i+1, close)
	if len(args) != 2 {
		return
	}
	ka, da := p.concatOperand(args[0][0], args[0][1])
	kb, db := p.concatOperand(args[1][0], args[1][1])
	if ka != concatArray || kb != concatArray || da == 0 || db == 0 {
		return
	}
	switch da - db {
	case 1:
		p.replace(p.toks[i].Start, p.toks[i].End, "list_append")
	case -1:
		p.replace(p.toks[i].Start, p.toks[i].End, "list_prepend")
	}
}

// multiDimSearch: array_position, array_positions and array_remove of an
// array that is visibly multidimensional (ARRAY[[…]], '{{…}}', x::int[][])
// are PostgreSQL's feature_not_supported (DuckDB would search the
// sub-lists, or fail to bind).
func multiDimSearch(p *pass, i int) {
	start := i
	if p.isOp(i-1, ".") {
		if p.text(i-2) != "__vsql_fn" || !p.isOp(i-3, ".") {
			return
		}
		start = i - 4 // memory.__vsql_fn.array_positions (sqltext's)
	}
	if p.kind(i+1) != sqltext.Open {
		return
	}
	close := p.matchForward(i + 1)
	if close < 0 {
		return
	}
	args := p.splitArgs(i+1, close)
	if len(args) < 2 {
		return
	}
	from, to := args[0][0], args[0][1]
	_, depth := p.concatOperand(from, to)
	if from == to && p.plainString(from) {
		if _, d, ok := arrayLiteralList(p.stringText(from)); ok {
			depth = d
		}
	}
	if depth < 2 {
		return
	}
	what := "searching for elements in"
	if p.isWord(i, "array_remove") {
		what = "removing elements from"
	}
	p.replace(p.toks[start].Start, p.toks[close].End, "error('[vsql:feature_not_supported] "+what+" multidimensional arrays is not supported')")
}

// arrayCastDepth: a cast to an array type keeps the dimensions of the
// array it casts in PostgreSQL (ARRAY[['a','b']]::text[] is still
// two-dimensional), where DuckDB's TEXT[] would make text of each inner
// list. A cast of an ARRAY[…] constructor deeper than the type (directly,
// or through other such casts, ARRAY[[…]]::text[]::varchar[]) gets the
// missing [] (token i is the first ':' of ::, or CAST's AS).
func arrayCastDepth(p *pass, i int) {
	var typeStart, base int
	if p.isWord(i, "as") {
		open := p.enclosing(i)
		if open < 1 || !p.isWord(open-1, "cast") {
			return
		}
		typeStart, base = i+1, i-1
		if end := p.operandEnd(open + 1); end != base {
			return
		}
	} else {
		if !p.isOp(i+1, ":") || !p.adjacent(i) || p.isOp(i-1, ":") {
			return
		}
		typeStart, base = i+2, i-1
	}
	end := p.typeEnd(typeStart)
	if end < 0 || !p.isOp(end, "]") || !p.isOp(end-1, "[") {
		return
	}
	dims := 0
	for k := end; p.isOp(k, "]") && p.isOp(k-1, "["); k -= 2 {
		dims++
	}
	// the depth of what is cast: an ARRAY[…] constructor, through casts
	depth := 0
	for k := base; ; {
		start := p.operandStart(k)
		if start < 0 {
			return
		}
		if p.isWord(start, "array") && p.isOp(start+1, "[") {
			if close := p.matchForward(start + 1); close == k {
				depth = p.arrayConstructorDepth(start, close)
				break
			}
			// ARRAY[…]::t[]: the constructor's end, the cast after it
			close := p.matchForward(start + 1)
			if close < 0 || !p.isOp(close+1, ":") || !p.isOp(close+2, ":") {
				return
			}
			depth = p.arrayConstructorDepth(start, close)
			break
		}
		return
	}
	if depth > dims {
		p.insert(p.toks[end].End, strings.Repeat("[]", depth-dims))
	}
}

// castArrayDepth is arrayCastDepth for CAST(x AS type) (token i is CAST).
func castArrayDepth(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || !p.isWord(i+2, "array") {
		return
	}
	if words, _ := p.callWords(i+1, "as"); len(words) == 1 {
		arrayCastDepth(p, words[0])
	}
}

// emptyArray: ARRAY[] that is not cast (ARRAY[]::int[], CAST(ARRAY[] AS
// int[])) is PostgreSQL's 42P18, cannot determine type of empty array
// (DuckDB makes a list of NULL's type).
func emptyArray(p *pass, i int) {
	if !p.isOp(i+1, "[") || !p.isOp(i+2, "]") || p.isOp(i-1, ".") {
		return
	}
	if p.isOp(i+3, ":") && p.isOp(i+4, ":") || p.isWord(i+3, "as") && p.kind(i-1) == sqltext.Open && p.isWord(i-2, "cast") {
		return
	}
	p.replace(p.toks[i].Start, p.toks[i+2].End, "error('[vsql:indeterminate_datatype] cannot determine type of empty array')")
}
