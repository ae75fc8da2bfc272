package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// fetchWithTies is the rule of ties (token i): ORDER BY k FETCH {FIRST |
// NEXT} [n] {ROW | ROWS} WITH TIES [OFFSET m], which DuckDB's parser
// lacks, keeps the first n rows in k's order and every row that ties
// with the last of them, after skipping m. It becomes a QUALIFY clause
// before the ORDER BY: rank() OVER (ORDER BY k) <= n, with an offset
// row_number() OVER (ORDER BY k) > m AND rank() OVER (ORDER BY k) <= m +
// n (the rows tied with the (m+n)th rank at most m+n). As in PostgreSQL,
// a count written NULL is 2201W (before the statement runs, as
// PostgreSQL's parser refuses it), a negative one too, and a count that
// evaluates to NULL is no limit. Left to DuckDB's error: a
// query of UNION, INTERSECT or EXCEPT at that level, SELECT DISTINCT
// (QUALIFY comes before DISTINCT), and an ORDER BY of positions (ORDER BY
// 1), which a window's ORDER BY would read as constants.
func fetchWithTies(p *pass, i int) {
	if !p.isWord(i-1, "with") || !(p.isWord(i-2, "row") || p.isWord(i-2, "rows")) {
		return
	}
	// FETCH {FIRST | NEXT} [count] ROW(S): the count's tokens
	fetch := -1
	for j := i - 3; j >= 0 && j >= i-64; j-- {
		if p.kind(j) == sqltext.Close {
			if j = p.matchBackward(j); j < 0 {
				return
			}
			continue
		}
		if p.isWord(j, "fetch") && (p.isWord(j+1, "first") || p.isWord(j+1, "next")) {
			fetch = j
			break
		}
	}
	if fetch < 0 {
		return
	}
	count := "1"
	if fetch+2 < i-2 {
		c, ok := p.editedSource(p.toks[fetch+2].Start, p.toks[i-3].End)
		if !ok {
			return
		}
		count = c
	}
	if strings.EqualFold(count, "null") {
		// refused before anything runs, as PostgreSQL's parser refuses
		// it (CREATE VIEW too)
		p.fail(vsqlerr.New(vsqlerr.InvalidRowCount, "row count cannot be null in FETCH FIRST ... WITH TIES clause"))
		return
	}
	// the level of the query: from its opening parenthesis (or the
	// statement's start) to the end of the clause
	level := p.enclosing(fetch)
	orderBy, offset, offsetEnd := -1, -1, -1
	for j := level + 1; j < fetch; j++ {
		switch {
		case p.kind(j) == sqltext.Open:
			if j = p.matchForward(j); j < 0 {
				return
			}
		case p.isWord(j, "union"), p.isWord(j, "intersect"), p.isWord(j, "except"),
			p.isWord(j, "distinct") && p.isWord(j-1, "select"):
			return
		case p.isWord(j, "order") && p.isWord(j+1, "by"):
			orderBy = j
		case p.isWord(j, "offset") && orderBy >= 0:
			offset = j
		}
	}
	if orderBy < 0 {
		return
	}
	keysEnd := fetch - 1
	if offset >= 0 {
		keysEnd, offsetEnd = offset-1, fetch-1
	} else if p.isWord(i+1, "offset") {
		offset, offsetEnd = i+1, i+1
		for offsetEnd+1 < len(p.toks) && p.kind(offsetEnd+1) != sqltext.Semi && p.kind(offsetEnd+1) != sqltext.Close {
			offsetEnd++
		}
	}
	keys, ok := p.editedSource(p.toks[orderBy+2].Start, p.toks[keysEnd].End)
	if !ok {
		return
	}
	for _, key := range p.splitTopLevel(orderBy+2, keysEnd) {
		if p.kind(key) == sqltext.Number {
			return // ORDER BY 1
		}
	}
	over := " OVER (ORDER BY " + keys + ")"
	// a NULL count (not written NULL) is no limit, as in PostgreSQL
	cond := "(" + count + ") IS NULL OR rank()" + over + " <= CASE WHEN (" + count + ") < 0 THEN error('[vsql:invalid_row_count] LIMIT must not be negative') ELSE (" + count + ") END"
	for j := i + 1; j+1 < len(p.toks); j++ {
		if p.isWord(j, "skip") && p.isWord(j+1, "locked") {
			cond = "rank()" + over + " <= CAST(error('[vsql:syntax_error] SKIP LOCKED and WITH TIES options cannot be used together') AS BIGINT)"
		}
	}
	if offset >= 0 {
		last := offsetEnd
		if p.isWord(last, "row") || p.isWord(last, "rows") {
			last--
		}
		m, ok := p.editedSource(p.toks[offset+1].Start, p.toks[last].End)
		if !ok {
			return
		}
		m = "coalesce((" + m + "), 0)"
		cond = "row_number()" + over + " > " + m + " AND (" + strings.Replace(cond, " <= ", " <= "+m+" + ", 1) + ")"
		p.replace(p.toks[offset].Start, p.toks[offsetEnd].End, "")
	}
	p.insert(p.toks[orderBy].Start, "QUALIFY "+cond+" ")
	p.replace(p.toks[fetch].Start, p.toks[i].End, "")
}

// callItems reads the call of the unqualified function named at token i:
// its closing parenthesis (-1: not a call) and the first token of each
// argument (splitTopLevel).
func (p *pass) callItems(i int) (closing int, items []int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return -1, nil
	}
	if closing = p.matchForward(i + 1); closing < 0 {
		return -1, nil
	}
	return closing, p.splitTopLevel(i+2, closing-1)
}

// splitTopLevel returns the first token of each comma-separated item of
// tokens from…to (inclusive) at their own level.
func (p *pass) splitTopLevel(from, to int) []int {
	starts := []int{from}
	for j := from; j <= to; j++ {
		switch {
		case p.kind(j) == sqltext.Open:
			if j = p.matchForward(j); j < 0 {
				return starts
			}
		case p.isOp(j, ","):
			starts = append(starts, j+1)
		}
	}
	return starts
}
