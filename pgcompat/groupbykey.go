package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL lets a grouped query select any column of a table whose
// primary key it groups by (the columns depend on the key): SELECT p.*,
// count(c.id) FROM posts p JOIN comments c … GROUP BY p.id, which ORMs
// write. DuckDB refuses the other columns ("must appear in the GROUP BY
// clause"). Grouping by the key and grouping by the key and those columns
// make the same groups, so the rule appends to the GROUP BY the columns of
// such a table that the query names (all of them under a star), qualified
// by the table's alias. It learns the tables' columns and keys from
// Session.TableColumns, and only for tables named directly in the FROM
// clause of the grouped query level.

// groupByKey: token i is GROUP (of GROUP BY).
func groupByKey(p *pass, i int) {
	if p.sess.TableColumns == nil || !p.isWord(i+1, "by") {
		return
	}
	// this query level: back to its SELECT, skipping parentheses
	sel := -1
	for k := i - 1; k >= 0; k-- {
		switch {
		case p.kind(k) == sqltext.Close:
			if k = p.matchBackward(k); k < 0 {
				return
			}
		case p.kind(k) == sqltext.Open:
			k = -1 // the start of this subquery: no SELECT before GROUP
		case p.isWord(k, "select"):
			sel = k
		}
		if sel >= 0 {
			break
		}
	}
	if sel < 0 {
		return
	}
	from := -1
	for k := sel + 1; k < i; k++ {
		if p.kind(k) == sqltext.Open {
			if k = p.matchForward(k); k < 0 {
				return
			}
			continue
		}
		if p.isWord(k, "from") {
			from = k
			break
		}
	}
	if from < 0 {
		return
	}
	refs := p.fromTables(from+1, i)
	if len(refs) == 0 {
		return
	}
	// the GROUP BY items, to the end of the clause
	end := i + 2
	var grouped [][2]string // (qualifier or "", column), lower-cased
	for item := end; ; {
		for end < len(p.toks) && !p.isOp(end, ",") && !groupByEnds(p, end) {
			if p.kind(end) == sqltext.Open {
				if end = p.matchForward(end); end < 0 {
					return
				}
			}
			end++
		}
		switch {
		case end == item+1:
			if name, ok := p.identifier(item); ok {
				grouped = append(grouped, [2]string{"", strings.ToLower(name)})
			}
			if p.isWord(item, "rollup") || p.isWord(item, "cube") || p.isWord(item, "all") || p.isWord(item, "distinct") {
				return
			}
		case end == item+3 && p.isOp(item+1, "."):
			q, ok1 := p.identifier(item)
			c, ok2 := p.identifier(item + 2)
			if ok1 && ok2 {
				grouped = append(grouped, [2]string{strings.ToLower(q), strings.ToLower(c)})
			}
		case p.isWord(item, "grouping") || p.isWord(item, "rollup") || p.isWord(item, "cube"):
			return
		}
		if !p.isOp(end, ",") {
			break
		}
		end++
		item = end
	}
	lastItem := end - 1
	// which column names the query level mentions, and whether it has a star
	named := map[string]bool{}
	star := false
	for k := sel + 1; k < len(p.toks); k++ {
		switch {
		case p.isOp(k, "*") && (p.isOp(k-1, ".") || p.isOp(k-1, ",") || k == sel+1 || p.isWord(k-1, "distinct")):
			star = true
		case p.kind(k) == sqltext.Word || p.kind(k) == sqltext.Quoted:
			if name, ok := p.identifier(k); ok {
				named[strings.ToLower(name)] = true
			}
		}
	}
	// columns of every table, to tell which table an unqualified key is
	owners := map[string]int{}
	for _, r := range refs {
		for _, c := range r.columns {
			owners[strings.ToLower(c.Name)]++
		}
	}
	isGrouped := func(r fromTable, col string) bool {
		col = strings.ToLower(col)
		for _, g := range grouped {
			if g[1] == col && (g[0] == r.qualifierName() || g[0] == "" && owners[col] == 1) {
				return true
			}
		}
		return false
	}
	var add []string
	for _, r := range refs {
		keyed := false
		for _, c := range r.columns {
			if c.Key {
				keyed = true
				if !isGrouped(r, c.Name) {
					keyed = false
					break
				}
			}
		}
		if !keyed {
			continue
		}
		for _, c := range r.columns {
			if !c.Key && !isGrouped(r, c.Name) && (star || named[strings.ToLower(c.Name)]) {
				add = append(add, r.qualifier+"."+sqltext.QuoteIdent(c.Name))
			}
		}
	}
	if len(add) > 0 {
		p.insert(p.toks[lastItem].End, ", "+strings.Join(add, ", "))
	}
}

// groupByEnds reports whether token k ends a GROUP BY list.
func groupByEnds(p *pass, k int) bool {
	switch p.kind(k) {
	case -1, sqltext.Close, sqltext.Semi:
		return true
	case sqltext.Word:
		switch strings.ToLower(p.text(k)) {
		case "having", "window", "order", "limit", "offset", "fetch", "union", "intersect", "except", "qualify", "for":
			return true
		}
	}
	return false
}

// fromTable is a table named in a FROM clause: how the query qualifies
// its columns (its alias, else its name as written) and its columns.
type fromTable struct {
	qualifier string
	columns   []TableColumn
}

// qualifierName is the qualifier as a name, lower-cased: without the
// quotes of a quoted one ("djangoapp_customer", as Django writes it).
func (r fromTable) qualifierName() string {
	return strings.ToLower(sqltext.UnquoteIdent(r.qualifier))
}

// fromTables reads the tables of FROM items start…end-1 (names, with an
// optional alias; subqueries, functions and join conditions skipped) and
// asks Session.TableColumns for each.
func (p *pass) fromTables(start, end int) []fromTable {
	var out []fromTable
	k := start
	for k < end {
		switch {
		case p.kind(k) == sqltext.Open: // a subquery or a parenthesized join, and its alias
			if k = p.matchForward(k); k < 0 {
				return nil
			}
			k++
			if p.isWord(k, "as") {
				k++
			}
			if p.kind(k) == sqltext.Quoted || p.kind(k) == sqltext.Word && !fromKeywords[strings.ToLower(p.text(k))] &&
				!p.isWord(k, "on") && !p.isWord(k, "using") && !p.isWord(k, "where") {
				k++
			}
			continue
		case p.isWord(k, "where"):
			return out
		case p.kind(k) == sqltext.Word && fromKeywords[strings.ToLower(p.text(k))], p.isOp(k, ","):
			k++
			continue
		case p.isWord(k, "on"), p.isWord(k, "using"):
			// the join condition: to the next join or comma at this level
			for k++; k < end && !p.isOp(k, ",") && !(p.kind(k) == sqltext.Word && joinWords[strings.ToLower(p.text(k))]); k++ {
				if p.kind(k) == sqltext.Open {
					if k = p.matchForward(k); k < 0 {
						return nil
					}
				}
			}
			continue
		}
		nameEnd := p.nameEnd(k)
		if nameEnd < 0 || nameEnd > end {
			return out
		}
		if p.kind(nameEnd) == sqltext.Open { // a table function
			k = nameEnd
			continue
		}
		parts := p.nameParts(k, nameEnd)
		qualifier := p.text(nameEnd - 1)
		k = nameEnd
		if p.isWord(k, "as") {
			k++
		}
		if k < end && (p.kind(k) == sqltext.Quoted || p.kind(k) == sqltext.Word && !fromKeywords[strings.ToLower(p.text(k))] &&
			!p.isWord(k, "on") && !p.isWord(k, "using") && !p.isWord(k, "where")) {
			qualifier = p.text(k)
			k++
			if p.kind(k) == sqltext.Open { // alias(column names): the key's name may differ
				k = p.matchForward(k) + 1
				continue
			}
		}
		if cols := p.sess.TableColumns(parts); len(cols) > 0 {
			out = append(out, fromTable{qualifier: qualifier, columns: cols})
		}
	}
	return out
}

// fromKeywords separate FROM items; joinWords start the next one after a
// join condition.
var (
	fromKeywords = map[string]bool{"join": true, "inner": true, "left": true, "right": true, "full": true, "outer": true,
		"cross": true, "natural": true, "lateral": true, "only": true}
	joinWords = map[string]bool{"join": true, "inner": true, "left": true, "right": true, "full": true, "cross": true, "natural": true}
)
