package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// columnsOrder: a query of information_schema.columns with no ORDER BY
// gets PostgreSQL's order, which clients read as the columns' order
// (Sequelize's describeTable has no ORDER BY): PostgreSQL returns the rows
// as its catalog holds them, table by table in column order, and vsql's
// view keeps that order only until a join or a subquery of the query
// rearranges its rows. Only a plain outermost SELECT … FROM
// information_schema.columns [alias] without GROUP BY, DISTINCT, a set
// operation or an aggregate gets ORDER BY alias.table_schema,
// alias.table_name, alias.ordinal_position (before LIMIT / OFFSET).
// Token i is the view's name, already rewritten into sqltext.InfoSchema.
func columnsOrder(p *pass, i int) {
	if !p.isWord(0, "select") || p.enclosing(i) >= 0 || !p.isOp(i-1, ".") || p.text(i-2) != "__vsql_is" {
		return
	}
	alias := "columns"
	j := i + 1
	if p.isWord(j, "as") {
		j++
	}
	if (p.kind(j) == sqltext.Word && !columnsFollow[strings.ToLower(p.text(j))]) || p.kind(j) == sqltext.Quoted {
		alias = p.text(j)
	}
	end := len(p.toks)
	depth := 0
	for k := 1; k < len(p.toks); k++ {
		switch p.kind(k) {
		case sqltext.Open:
			depth++
			continue
		case sqltext.Close:
			depth--
			continue
		case sqltext.Semi:
			if end == len(p.toks) {
				end = k
			}
			continue
		}
		if depth != 0 || p.kind(k) != sqltext.Word {
			continue
		}
		w := strings.ToLower(p.text(k))
		switch {
		case w == "order" || w == "group" || w == "distinct" || w == "union" || w == "intersect" || w == "except" || w == "having" || w == "window":
			return
		case (w == "limit" || w == "offset" || w == "fetch" || w == "for") && k < end:
			end = k
		case aggregateNames[w] && p.kind(k+1) == sqltext.Open:
			return
		}
	}
	at := len(p.src)
	if end < len(p.toks) {
		at = p.toks[end].Start
	} else {
		at = p.toks[len(p.toks)-1].End
	}
	p.insert(at, " ORDER BY "+alias+".table_schema, "+alias+".table_name, "+alias+".ordinal_position ")
}

// columnsFollow are the words after the view's name that are no alias.
var columnsFollow = map[string]bool{"where": true, "left": true, "right": true, "inner": true, "full": true,
	"cross": true, "join": true, "natural": true, "on": true, "using": true, "limit": true, "offset": true,
	"order": true, "group": true, "union": true, "fetch": true, "for": true, "window": true, "having": true}
