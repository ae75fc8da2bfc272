package pgcompat

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// varcharCast: an explicit cast to varchar(n) or character varying(n) —
// CAST(x AS varchar(n)), x::varchar(n) — cuts the value to n characters,
// as PostgreSQL's does; DuckDB's VARCHAR has no length and keeps the
// whole value. The cast becomes pg_varchar_cut(cast, n), a macro for
// left() that server/colnames.go sees through (the column keeps the name
// PostgreSQL gives the cast). Token i is the type's first word.
//
// A column's declared length is not enforced: a CHECK constraint could
// refuse longer values, but DuckDB can neither drop one nor change it when
// a migration widens the column (ALTER COLUMN … TYPE varchar(m)), so the
// old length would outlive the declaration.
func varcharCast(p *pass, i int) {
	if p.isOp(i-1, ".") {
		return
	}
	j := i + 1
	switch strings.ToLower(p.text(i)) {
	case "character", "char":
		if !p.isWord(j, "varying") {
			return
		}
		j++
	case "varchar":
	default:
		return
	}
	if p.kind(j) != sqltext.Open || p.kind(j+1) != sqltext.Number || p.kind(j+2) != sqltext.Close || p.isOp(j+3, "[") {
		return
	}
	n, err := strconv.Atoi(p.text(j + 1))
	if err != nil || n < 1 {
		return
	}
	end := j + 2
	start, stop := -1, -1
	switch {
	case p.isWord(i-1, "as"):
		open := p.enclosing(i - 1)
		if open > 0 && (p.isWord(open-1, "cast") || p.isWord(open-1, "try_cast")) && p.matchForward(open) == end+1 {
			start, stop = open-1, end+1
		}
	case p.isOp(i-1, ":") && p.isOp(i-2, ":") && p.adjacent(i-2):
		if k := p.operandStart(i - 3); k >= 0 {
			start, stop = k, end
		}
	}
	if start < 0 {
		return
	}
	p.insert(p.toks[start].Start, schema+".pg_varchar_cut(")
	p.insert(p.toks[stop].End, fmt.Sprintf(", %d)", n))
}
