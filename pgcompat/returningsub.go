package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// ReturningTable names the WITH query ReturningSubquery writes (not
// __vsql…: the statement goes through the server's checks of names).
const ReturningTable = "_vsql_returning"

// ReturningSubquery reads INSERT, UPDATE or DELETE … RETURNING whose list
// holds a subquery (RETURNING *, x IN (SELECT …) AS s, EXISTS (…)),
// which DuckDB refuses ("SUBQUERY is not supported in returning
// statements"), and writes it as the data-modifying WITH the server
// runs (withdml.go):
//
//	WITH _vsql_returning AS (<statement> RETURNING *)
//	SELECT <list> FROM _vsql_returning AS <target or its alias>
//
// The list is evaluated after the write, where PostgreSQL evaluates it
// during it: the two agree when no subquery reads the target table, so
// a list whose subqueries name it is not written (DuckDB's refusal
// stands), nor is an UPDATE … FROM or DELETE … USING (whose list may
// name the other tables) or a statement after WITH. ok is false when
// the statement is not one to write; readsTarget tells that its list's
// subqueries read the target table.
func ReturningSubquery(st sqltext.Statement) (text string, ok, readsTarget bool) {
	if !strings.Contains(st.SQL, "(") {
		return "", false, false
	}
	p := pass{src: st.SQL, toks: st.Tokens()}
	nameStart := -1
	switch {
	case p.isWord(0, "insert") && p.isWord(1, "into"), p.isWord(0, "delete") && p.isWord(1, "from"):
		nameStart = 2
	case p.isWord(0, "update"):
		nameStart = 1
	default:
		return "", false, false
	}
	if p.isWord(nameStart, "only") {
		nameStart++
	}
	nameEnd := p.nameEnd(nameStart)
	if nameEnd < 0 {
		return "", false, false
	}
	target := strings.ToLower(sqltext.UnquoteIdent(p.text(nameEnd - 1)))
	ref := p.text(nameEnd - 1)
	switch {
	case p.isWord(nameEnd, "as") && (p.kind(nameEnd+1) == sqltext.Word || p.kind(nameEnd+1) == sqltext.Quoted):
		ref = p.text(nameEnd + 1)
	case !p.isWord(0, "insert") && (p.kind(nameEnd) == sqltext.Word || p.kind(nameEnd) == sqltext.Quoted) &&
		!p.isWord(nameEnd, "set") && !p.isWord(nameEnd, "where") && !p.isWord(nameEnd, "using") && !p.isWord(nameEnd, "returning"):
		ref = p.text(nameEnd)
	}
	returning, end := -1, len(p.toks)
	for k := nameEnd; k < len(p.toks); k++ {
		switch {
		case p.kind(k) == sqltext.Open:
			if k = p.matchForward(k); k < 0 {
				return "", false, false
			}
		case p.kind(k) == sqltext.Semi:
			end = k
		case returning < 0 && (p.isWord(0, "update") && p.isWord(k, "from") || p.isWord(0, "delete") && p.isWord(k, "using")):
			return "", false, false
		case p.isWord(k, "returning") && returning < 0:
			returning = k
		}
		if end == k {
			break
		}
	}
	if returning < 0 || returning+1 >= end {
		return "", false, false
	}
	sub := false
	for k := returning + 1; k < end; k++ {
		if p.isWord(k, "select") {
			sub = true
		}
		if (p.kind(k) == sqltext.Word || p.kind(k) == sqltext.Quoted) && strings.ToLower(sqltext.UnquoteIdent(p.text(k))) == target &&
			p.enclosing(k) > returning && !p.isOp(k+1, ".") {
			return "", false, true // a subquery reading the target (not t.c, a correlation)
		}
	}
	if !sub {
		return "", false, false
	}
	list := p.src[p.toks[returning+1].Start:p.toks[end-1].End]
	return "WITH " + ReturningTable + " AS (" + p.src[:p.toks[returning].Start] + "RETURNING *) SELECT " + list +
		" FROM " + ReturningTable + " AS " + ref, true, false
}
