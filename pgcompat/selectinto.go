package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// selectInto: PostgreSQL's SELECT … INTO [TEMPORARY | TEMP | UNLOGGED]
// [TABLE] name FROM … creates the table from the query, as CREATE TABLE
// name AS SELECT … FROM … does (its tag is SELECT n too); DuckDB refuses
// SELECT INTO. The INTO must belong to the statement's own SELECT (depth
// 0, in a statement that starts with SELECT or WITH): INSERT INTO and
// the INTO of a subquery are left alone.
func selectInto(p *pass, i int) {
	if len(p.toks) == 0 {
		return
	}
	if misplacedInto(p, i) {
		return
	}
	if !(p.isWord(0, "select") || p.isWord(0, "with")) || p.enclosing(i) >= 0 {
		return
	}
	// the statement's own SELECT: the last depth-0 SELECT before INTO
	depth, sel := 0, -1
	for j := 0; j < i; j++ {
		switch p.toks[j].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		case sqltext.Word:
			if depth == 0 && p.isWord(j, "select") {
				sel = j
			}
			if depth == 0 && (p.isWord(j, "insert") || p.isWord(j, "merge") || p.isWord(j, "union") || p.isWord(j, "intersect") || p.isWord(j, "except")) {
				return
			}
		}
	}
	if sel < 0 {
		return
	}
	j := i + 1
	temp := ""
	switch {
	case p.isWord(j, "temporary"), p.isWord(j, "temp"):
		temp = "TEMPORARY "
		j++
	case p.isWord(j, "unlogged"):
		j++
	}
	if p.isWord(j, "table") {
		j++
	}
	nameStart := j
	if j = p.nameEnd(j); j < 0 {
		return
	}
	// What follows the name: the rest of the query, or its end.
	switch {
	case j >= len(p.toks), p.kind(j) == sqltext.Semi,
		p.isWord(j, "from"), p.isWord(j, "where"), p.isWord(j, "group"), p.isWord(j, "having"),
		p.isWord(j, "window"), p.isWord(j, "order"), p.isWord(j, "limit"), p.isWord(j, "offset"), p.isWord(j, "fetch"):
	default:
		return
	}
	name := p.src[p.toks[nameStart].Start:p.toks[j-1].End]
	p.insert(p.toks[0].Start, "CREATE "+temp+"TABLE "+name+" AS ")
	p.replace(p.toks[i].Start, p.toks[j-1].End, "")
}

// misplacedInto refuses, as PostgreSQL does before running anything, a
// SELECT … INTO that is not the statement's own query: in a subquery or
// a WITH query (42601), in the query of INSERT … SELECT (42601) or of a
// view (0A000). It reports whether it did.
func misplacedInto(p *pass, i int) bool {
	if p.kind(0) == sqltext.Open || p.isWord(0, "copy") {
		return false // (SELECT … INTO t), COPY (…): left to DuckDB
	}
	// the word this INTO belongs to: the nearest clause word before it at
	// its depth
	belongs := ""
	for j := i - 1; j >= 0 && belongs == ""; j-- {
		switch {
		case p.kind(j) == sqltext.Close:
			if j = p.matchBackward(j); j < 0 {
				return false
			}
		case p.kind(j) == sqltext.Open:
			j = -1
		case p.kind(j) == sqltext.Word:
			switch w := strings.ToLower(p.text(j)); w {
			case "select", "insert", "merge", "update", "delete", "copy", "values", "replace", "ignore", "returning":
				belongs = w
			}
		}
	}
	if belongs != "select" {
		return false
	}
	switch {
	case p.isWord(0, "create") && p.hasWordBefore(i, "view"):
		p.err = vsqlerr.New(vsqlerr.FeatureNotSupported, "views must not contain SELECT INTO").
			WithHint("Create the view from the query without INTO.")
	case p.enclosing(i) >= 0 || !(p.isWord(0, "select") || p.isWord(0, "with")) || p.hasWordBefore(i, "insert"):
		p.err = vsqlerr.New(vsqlerr.SyntaxError, "SELECT ... INTO is not allowed here").
			WithHint("SELECT … INTO creates a table only as a statement of its own; use CREATE TABLE … AS, or INSERT INTO … SELECT.")
	default:
		return false
	}
	return true
}

// SelectsInto reports whether st is SELECT … INTO t (a query that
// creates a table), which PostgreSQL refuses where only a query is
// allowed (DECLARE … CURSOR FOR: 42601).
func SelectsInto(st sqltext.Statement) bool {
	p := pass{src: st.SQL, toks: st.Tokens()}
	if !p.isWord(0, "select") && !p.isWord(0, "with") {
		return false
	}
	depth := 0
	for j := range p.toks {
		switch {
		case p.kind(j) == sqltext.Open:
			depth++
		case p.kind(j) == sqltext.Close:
			depth--
		case depth == 0 && (p.isWord(j, "insert") || p.isWord(j, "update") || p.isWord(j, "delete") || p.isWord(j, "merge")):
			return false
		case depth == 0 && p.isWord(j, "into"):
			return true
		}
	}
	return false
}

// hasWordBefore reports whether word w occurs among the tokens before i.
func (p *pass) hasWordBefore(i int, w string) bool {
	for j := 0; j < i; j++ {
		if p.isWord(j, w) {
			return true
		}
	}
	return false
}

// nameEnd returns the token after a name starting at token j — name,
// schema.name, catalog.schema.name, quoted or not — or -1 when none
// starts there.
func (p *pass) nameEnd(j int) int {
	start := j
	for p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted {
		j++
		if !p.isOp(j, ".") {
			break
		}
		j++
	}
	if j == start || p.isOp(j-1, ".") {
		return -1
	}
	return j
}
