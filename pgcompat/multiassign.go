package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// MultiColumnSubquery reads UPDATE … SET (a, b) = (SELECT x, y FROM …),
// which DuckDB refuses ("Subquery returns 2 columns - expected 1"), as
// SET a = (SELECT x FROM …), b = (SELECT y FROM …): one scalar subquery
// per column, each with the subquery's FROM and what follows it. The
// answers are PostgreSQL's when the subquery is not volatile: no row sets
// every column to NULL, more than one is 21000 in both forms. A select
// list of * or t.* or DISTINCT is left to DuckDB; a count of items
// other than the columns' is PostgreSQL's 42601 (err). ok is false when
// the statement has no such assignment. The result is an edit of st
// (only the written text is lexed), to run before Translate.
func MultiColumnSubquery(st sqltext.Statement) (sqltext.Statement, bool, error) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	if !p.isWord(0, "update") && !p.isWord(0, "insert") && !p.isWord(0, "with") {
		return st, false, nil
	}
	var edits []sqltext.Edit
	for i := 0; i+4 < len(p.toks); i++ {
		if !p.isWord(i, "set") {
			continue
		}
		// SET (cols) = (SELECT …), possibly after other items: each item
		// of the SET list at its depth
		for k := i + 1; k < len(p.toks); {
			end, edit, ok, mismatch := p.multiAssignItem(k)
			if mismatch {
				return st, true, vsqlerr.New(vsqlerr.SyntaxError, "number of columns does not match number of values")
			}
			if ok {
				edits = append(edits, edit)
			}
			if end < 0 {
				break
			}
			k = end
			if !p.isOp(k, ",") {
				break
			}
			k++
		}
	}
	if len(edits) == 0 {
		return st, false, nil
	}
	return st.Edit(edits), true, nil
}

// multiAssignItem reads one SET item starting at token k; end is the token
// after it (-1 when it cannot tell), and edit its rewrite when it is
// (cols) = (SELECT …); mismatch when the select list has another number
// of items than cols (PostgreSQL's 42601).
func (p *pass) multiAssignItem(k int) (end int, edit sqltext.Edit, ok, mismatch bool) {
	// the item's end: a comma at this depth, or FROM, WHERE, RETURNING,
	// or the close of an enclosing parenthesis
	itemEnd := func(j int) int {
		for ; j < len(p.toks); j++ {
			switch {
			case p.kind(j) == sqltext.Open || p.isOp(j, "["):
				if j = p.matchForward(j); j < 0 {
					return -1
				}
			case p.kind(j) == sqltext.Close, p.kind(j) == sqltext.Semi, p.isOp(j, ","),
				p.isWord(j, "from"), p.isWord(j, "where"), p.isWord(j, "returning"):
				return j
			}
		}
		return j
	}
	end = itemEnd(k)
	if p.kind(k) != sqltext.Open {
		return end, edit, false, false
	}
	colsClose := p.matchForward(k)
	if colsClose < 0 || !p.isOp(colsClose+1, "=") || p.kind(colsClose+2) != sqltext.Open || !p.isWord(colsClose+3, "select") {
		return end, edit, false, false
	}
	var cols []string
	for j := k + 1; j < colsClose; j += 2 {
		if p.kind(j) != sqltext.Word && p.kind(j) != sqltext.Quoted || j+1 < colsClose && !p.isOp(j+1, ",") {
			return end, edit, false, false
		}
		cols = append(cols, p.text(j))
	}
	subClose := p.matchForward(colsClose + 2)
	if subClose < 0 || subClose+1 != end && end >= 0 {
		return end, edit, false, false // (SELECT …) + 1 and the like
	}
	sel := colsClose + 3
	if p.isWord(sel+1, "distinct") || p.isWord(sel+1, "all") {
		return end, edit, false, false
	}
	// the select list's items, up to FROM (or the subquery's end)
	var items []string
	itemStart, from := sel+1, subClose
	for j := sel + 1; j < subClose; j++ {
		if p.kind(j) == sqltext.Open || p.isOp(j, "[") {
			if j = p.matchForward(j); j < 0 {
				return end, edit, false, false
			}
			continue
		}
		if p.isOp(j, ",") || p.isWord(j, "from") {
			if j == itemStart {
				return end, edit, false, false
			}
			items = append(items, p.src[p.toks[itemStart].Start:p.toks[j-1].End])
			itemStart = j + 1
			if p.isWord(j, "from") {
				from = j
				break
			}
		}
	}
	if from == subClose {
		if itemStart >= subClose {
			return end, edit, false, false
		}
		items = append(items, p.src[p.toks[itemStart].Start:p.toks[subClose-1].End])
	}
	for _, item := range items {
		if t := strings.TrimSpace(item); t == "*" || strings.HasSuffix(t, ".*") {
			return end, edit, false, false // as many columns as the table has: DuckDB's
		}
	}
	if len(items) != len(cols) {
		return end, edit, false, true
	}
	rest := ""
	if from < subClose {
		rest = " " + p.src[p.toks[from].Start:p.toks[subClose-1].End]
	}
	parts := make([]string, len(cols))
	for n, item := range items {
		parts[n] = cols[n] + " = (SELECT " + item + rest + ")"
	}
	return end, sqltext.Edit{Start: p.toks[k].Start, End: p.toks[subClose].End, Text: strings.Join(parts, ", ")}, true, false
}
