package pgcompat

import "github.com/vsql/vsql/sqltext"

// selectInto: PostgreSQL's SELECT … INTO [TEMPORARY | TEMP | UNLOGGED]
// [TABLE] name FROM … creates the table from the query, as CREATE TABLE
// name AS SELECT … FROM … does (its tag is SELECT n too); DuckDB refuses
// SELECT INTO. The INTO must belong to the statement's own SELECT (depth
// 0, in a statement that starts with SELECT or WITH): INSERT INTO and
// the INTO of a subquery are left alone.
func selectInto(p *pass, i int) {
	if len(p.toks) == 0 || !(p.isWord(0, "select") || p.isWord(0, "with")) || p.enclosing(i) >= 0 {
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
