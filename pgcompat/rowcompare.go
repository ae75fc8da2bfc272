package pgcompat

import (
	"fmt"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// Row comparisons. PostgreSQL compares row constructors element by
// element with SQL's three-valued logic: (a, b) = (c, d) is a = c AND
// b = d, (a, b) <> (c, d) is a <> c OR b <> d, and <, <=, >, >= compare
// left to right, the first unequal or NULL pair deciding (NULL when it is
// NULL). DuckDB compares the two rows as structs, in a total order where
// NULL is a value: (1, NULL) < (1, 2) is false there and NULL in
// PostgreSQL, (1, 2) <> (1, NULL) true and NULL, (1, 0) NOT IN (SELECT 0,
// NULL) NULL and true — keyset pagination (WHERE (created, id) > ($1, $2))
// over a NULL and anti-joins over rows answered differently. The rules
// below write such a comparison out element by element (each element's
// text, as the other rules rewrote it, copied in: the copies are made
// once every rule has run, pass.deferred):
//
//   - ROW(…) or (a, b, …) compared by =, <>, !=, <, <=, >, >= with
//     another row of as many elements;
//   - (a, b) [NOT] IN ((1, 2), (3, 4)): the OR of the row equalities;
//   - (a, b) NOT IN (SELECT …): CASE on EXISTS of an equal row (false)
//     and of a row whose equality is NULL (NULL), else true. (a, b) IN
//     (SELECT …) is left to DuckDB, whose answer differs only where
//     PostgreSQL's is false and DuckDB's NULL.
//
// An element that appears in more than one comparison is evaluated again
// for each (an element with a side effect or a subquery costs more).

// rowWords are the words a row constructor's parenthesis may follow; after
// any other word the parenthesis is a call's (f(a, b)).
var rowWords = map[string]bool{"where": true, "and": true, "or": true, "not": true, "on": true, "when": true,
	"then": true, "else": true, "select": true, "having": true, "return": true, "returning": true, "case": true}

// rowBefore reads the row constructor that ends at token closing: its
// first token, its elements and whether it is one.
func (p *pass) rowBefore(closing int) (first int, elems [][2]int, ok bool) {
	if p.kind(closing) != sqltext.Close {
		return 0, nil, false
	}
	open := p.matchBackward(closing)
	if open < 0 {
		return 0, nil, false
	}
	first = open
	explicit := p.isWord(open-1, "row")
	switch {
	case explicit:
		first = open - 1
	case open == 0:
	case p.kind(open-1) == sqltext.Word:
		if !rowWords[strings.ToLower(p.text(open-1))] {
			return 0, nil, false
		}
	case p.kind(open-1) == sqltext.Op:
		if p.isOp(open-1, "]") || p.isOp(open-1, ".") {
			return 0, nil, false
		}
	case p.kind(open-1) != sqltext.Open:
		return 0, nil, false
	}
	elems, ok = p.rowElements(open, closing, explicit)
	return first, elems, ok
}

// rowAfter reads the row constructor that starts at token i: its last
// token, its elements and whether it is one.
func (p *pass) rowAfter(i int) (last int, elems [][2]int, ok bool) {
	explicit := p.isWord(i, "row")
	open := i
	if explicit {
		open = i + 1
	}
	if p.kind(open) != sqltext.Open {
		return 0, nil, false
	}
	closing := p.matchForward(open)
	if closing < 0 || p.isOp(closing+1, ":") || p.isOp(closing+1, ".") || p.isOp(closing+1, "[") {
		return 0, nil, false // a cast to a composite type, a field, a subscript
	}
	elems, ok = p.rowElements(open, closing, explicit)
	return closing, elems, ok
}

// rowElements splits a row constructor's parentheses into its elements:
// at least two, or one after ROW; not a subquery.
func (p *pass) rowElements(open, closing int, explicit bool) ([][2]int, bool) {
	if p.isWord(open+1, "select") || p.isWord(open+1, "with") || p.isWord(open+1, "values") {
		return nil, false
	}
	elems := p.splitArgs(open, closing)
	if len(elems) < 2 && !(explicit && len(elems) == 1) {
		return nil, false
	}
	return elems, true
}

// rowRule is the rule of =, <, >, ! (with the operator's second
// character, <=, >=, <>, !=) between two row constructors; false when
// token i is not one.
func rowRule(p *pass, i int) bool {
	if p.kind(i-1) != sqltext.Close {
		return false
	}
	op, next := p.text(i), i+1
	if p.adjacent(i) && (p.isOp(i+1, "=") || p.text(i) == "<" && p.isOp(i+1, ">")) {
		op, next = op+p.text(i+1), i+2
	}
	switch op {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
	default:
		return false
	}
	if p.kind(next) == sqltext.Op {
		return false // a longer operator (<=>, <<, …)
	}
	first, left, ok := p.rowBefore(i - 1)
	if !ok || p.assignment(first) {
		return false
	}
	last, right, ok := p.rowAfter(next)
	if !ok || len(left) != len(right) {
		return false
	}
	p.deferred = append(p.deferred, func() {
		l, ok1 := p.elementTexts(left)
		r, ok2 := p.elementTexts(right)
		if !ok1 || !ok2 {
			return
		}
		p.replace(p.toks[first].Start, p.toks[last].End, "("+rowComparison(op, l, r)+")")
	})
	return true
}

// assignment reports whether the row starting at token first is the
// target of UPDATE … SET (a, b) = (…), not a comparison.
func (p *pass) assignment(first int) bool {
	depth := 0
	for j := first - 1; j >= 0; j-- {
		switch {
		case p.kind(j) == sqltext.Close:
			depth++
		case p.kind(j) == sqltext.Open:
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && p.kind(j) == sqltext.Word:
			switch strings.ToLower(p.text(j)) {
			case "set":
				return true
			case "where", "from", "returning", "on", "when", "having", "select", "join", "using":
				return false
			}
		}
	}
	return false
}

// elementTexts are the elements' texts with the other rules' rewrites.
func (p *pass) elementTexts(elems [][2]int) ([]string, bool) {
	out := make([]string, len(elems))
	for k, e := range elems {
		text, ok := p.editedSource(p.toks[e[0]].Start, p.toks[e[1]].End)
		if !ok {
			return nil, false
		}
		out[k] = "(" + text + ")"
	}
	return out, true
}

// rowComparison writes l op r out element by element.
func rowComparison(op string, l, r []string) string {
	switch op {
	case "=":
		return joinPairs(l, r, " = ", " AND ")
	case "<>", "!=":
		return joinPairs(l, r, " <> ", " OR ")
	}
	strict := op[:1] // < or >
	// l1 < r1 OR (l1 = r1 AND (l2 < r2 OR (l2 = r2 AND … ln op rn)))
	out := l[len(l)-1] + " " + op + " " + r[len(r)-1]
	for k := len(l) - 2; k >= 0; k-- {
		out = fmt.Sprintf("%s %s %s OR (%s = %s AND (%s))", l[k], strict, r[k], l[k], r[k], out)
	}
	return out
}

func joinPairs(l, r []string, op, join string) string {
	parts := make([]string, len(l))
	for k := range l {
		parts[k] = l[k] + op + r[k]
	}
	return strings.Join(parts, join)
}

// rowIn is the rule of in (token i): a row constructor before [NOT] IN
// and a list of row constructors, or NOT IN and a subquery.
func rowIn(p *pass, i int) {
	not := p.isWord(i-1, "not")
	end := i - 1
	if not {
		end = i - 2
	}
	if p.kind(i+1) != sqltext.Open || p.kind(end) != sqltext.Close {
		return
	}
	first, left, ok := p.rowBefore(end)
	if !ok {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	if p.isWord(i+2, "select") || p.isWord(i+2, "with") || p.isWord(i+2, "values") {
		if !not {
			return
		}
		p.deferred = append(p.deferred, func() {
			l, ok := p.elementTexts(left)
			sub, ok2 := p.editedSource(p.toks[i+2].Start, p.toks[closing-1].End)
			if !ok || !ok2 {
				return
			}
			cols := make([]string, len(l))
			for k := range cols {
				cols[k] = fmt.Sprintf("__vsql_c%d", k+1)
			}
			from := " FROM (" + sub + ") __vsql_in(" + strings.Join(cols, ", ") + ") WHERE "
			eq := joinPairs(l, cols, " = ", " AND ")
			p.replace(p.toks[first].Start, p.toks[closing].End, "(CASE WHEN EXISTS (SELECT 1"+from+eq+") THEN false WHEN EXISTS (SELECT 1"+
				from+"("+eq+") IS NULL) THEN NULL ELSE true END)")
		})
		return
	}
	var rows [][][2]int
	for _, item := range p.splitArgs(i+1, closing) {
		last, elems, ok := p.rowAfter(item[0])
		if !ok || last != item[1] || len(elems) != len(left) {
			return
		}
		rows = append(rows, elems)
	}
	if len(rows) == 0 {
		return
	}
	p.deferred = append(p.deferred, func() {
		l, ok := p.elementTexts(left)
		if !ok {
			return
		}
		var alts []string
		for _, row := range rows {
			r, ok := p.elementTexts(row)
			if !ok {
				return
			}
			alts = append(alts, "("+joinPairs(l, r, " = ", " AND ")+")")
		}
		text := "(" + strings.Join(alts, " OR ") + ")"
		if not {
			text = "(NOT " + text + ")"
		}
		p.replace(p.toks[first].Start, p.toks[closing].End, text)
	})
}

// equalsRule is the rule of =: a row comparison.
func equalsRule(p *pass, i int) { rowRule(p, i) }

// greaterRule is the rule of >: a row comparison, else enum < 'label'.
func greaterRule(p *pass, i int) {
	if !rowRule(p, i) {
		enumCompare(p, i)
	}
}

// bangRule is the rule of !: a row comparison (!=), else !!tsquery.
func bangRule(p *pass, i int) {
	if !rowRule(p, i) {
		tsqueryNot(p, i)
	}
}

// NoColumn names the column vsql gives a select list PostgreSQL leaves
// empty (SELECT FROM t, SELECT; and the sides of SELECT UNION SELECT):
// DuckDB has no result of zero columns, so the rule of select writes
// NULL AS __vsql_no_column there, and the server describes a result whose
// every column is named so as one of no columns (each row with no value),
// as PostgreSQL's. Not in CREATE (a view or table would keep the column).
const NoColumn = "__vsql_no_column"

// emptySelectEnd are the tokens that may follow SELECT when its list is
// empty.
var emptySelectEnd = map[string]bool{"from": true, "where": true, "group": true, "having": true, "order": true,
	"limit": true, "offset": true, "union": true, "intersect": true, "except": true, "window": true}

// emptySelectList is the rule of select (token i).
func emptySelectList(p *pass, i int) {
	if p.isWord(0, "create") || p.isOp(i-1, ".") {
		return
	}
	next := i + 1
	switch {
	case next >= len(p.toks), p.kind(next) == sqltext.Semi, p.kind(next) == sqltext.Close:
	case p.kind(next) == sqltext.Word && emptySelectEnd[strings.ToLower(p.text(next))]:
	default:
		return
	}
	p.insert(p.toks[i].End, " NULL AS "+NoColumn)
}

// betweenEnd are the words that end BETWEEN's upper bound.
var betweenEnd = map[string]bool{"and": true, "or": true, "then": true, "when": true, "else": true, "end": true,
	"from": true, "where": true, "group": true, "order": true, "limit": true, "offset": true, "having": true,
	"union": true, "intersect": true, "except": true, "window": true, "as": true, "is": true, "not": true,
	"returning": true, "on": true, "using": true, "join": true}

// betweenSymmetric is the rule of symmetric after BETWEEN (token i):
// x [NOT] BETWEEN SYMMETRIC a AND b, true when x lies between a and b in
// either order, becomes x [NOT] BETWEEN least(a, b) AND greatest(a, b)
// (DuckDB's parser has no SYMMETRIC); ASYMMETRIC, the default, is
// dropped.
func betweenSymmetric(p *pass, i int) {
	if !p.isWord(i-1, "between") {
		return
	}
	if strings.EqualFold(p.text(i), "asymmetric") {
		p.replace(p.toks[i].Start, p.toks[i].End, "")
		return
	}
	and, depth := -1, 0
	for j := i + 1; j < len(p.toks) && and < 0; j++ {
		switch {
		case p.kind(j) == sqltext.Open:
			depth++
		case p.kind(j) == sqltext.Close:
			if depth--; depth < 0 {
				return
			}
		case depth == 0 && p.isWord(j, "and"):
			and = j
		}
	}
	if and < 0 || and == i+1 {
		return
	}
	last := -1
	depth = 0
	for j := and + 1; j < len(p.toks); j++ {
		k := p.kind(j)
		if depth == 0 && (k == sqltext.Semi || k == sqltext.Close || p.isOp(j, ",") || k == sqltext.Word && betweenEnd[strings.ToLower(p.text(j))]) {
			break
		}
		if depth == 0 && j > and+1 && (k == sqltext.Word || k == sqltext.Quoted) {
			switch p.kind(j - 1) {
			case sqltext.Number, sqltext.String, sqltext.Close, sqltext.Word, sqltext.Quoted, sqltext.Param:
				goto done // a name after an operand: the column's alias
			}
		}
		switch k {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		}
		last = j
	}
done:
	if last <= and {
		return
	}
	p.deferred = append(p.deferred, func() {
		lo, ok1 := p.editedSource(p.toks[i+1].Start, p.toks[and-1].End)
		hi, ok2 := p.editedSource(p.toks[and+1].Start, p.toks[last].End)
		if !ok1 || !ok2 {
			return
		}
		p.replace(p.toks[i].Start, p.toks[last].End, "least("+lo+", "+hi+") AND greatest("+lo+", "+hi+")")
	})
}
