package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// IndexedAlter is an ALTER TABLE action that DuckDB refuses on a table
// with an index made by CREATE INDEX ("Cannot alter entry … because there
// are entries that depend on it"): SET or DROP NOT NULL, a column's TYPE,
// DROP COLUMN, RENAME COLUMN and RENAME TO. For NOT NULL and the renames
// the session drops the table's indexes, runs the action and creates them
// again (RebuiltIndex), as PostgreSQL keeps a table's indexes across
// them; DROP COLUMN and TYPE it refuses with a hint (server/altertable.go
// says why).
type IndexedAlter struct {
	Parts   []string // the table's name, unquoted parts
	Action  string   // "column" (NOT NULL, TYPE), "drop", "rename-column", "rename"
	Column  string   // the column the action names (unquoted)
	NewName string   // RENAME … TO's name (unquoted)
	// ChangesType: ALTER COLUMN … TYPE (or SET DATA TYPE)
	ChangesType bool
}

// AlterOnIndexedTable reads the ALTER TABLE statements of IndexedAlter;
// ok is false for every other statement.
func AlterOnIndexedTable(st sqltext.Statement) (IndexedAlter, bool) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	_, i, parts, isAlter := p.alterTable()
	if !isAlter {
		return IndexedAlter{}, false
	}
	a := IndexedAlter{Parts: parts}
	ident := func(j int) bool { return p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted }
	switch {
	case p.isWord(i, "alter"):
		i++
		if p.isWord(i, "column") {
			i++
		}
		if !ident(i) {
			return IndexedAlter{}, false
		}
		a.Action, a.Column = "column", sqltext.UnquoteIdent(p.text(i))
		switch {
		case p.isWord(i+1, "set") && p.isWord(i+2, "not") && p.isWord(i+3, "null"),
			p.isWord(i+1, "drop") && p.isWord(i+2, "not") && p.isWord(i+3, "null"),
			p.isWord(i+1, "type"),
			p.isWord(i+1, "set") && p.isWord(i+2, "data") && p.isWord(i+3, "type"):
			a.ChangesType = !p.isWord(i+2, "not")
			return a, true
		}
	case p.isWord(i, "drop") && !p.isWord(i+1, "constraint"):
		i++
		if p.isWord(i, "column") {
			i++
		}
		if p.isWord(i, "if") && p.isWord(i+1, "exists") {
			i += 2
		}
		if ident(i) {
			a.Action, a.Column = "drop", sqltext.UnquoteIdent(p.text(i))
			return a, true
		}
	case p.isWord(i, "rename") && p.isWord(i+1, "to") && ident(i+2):
		a.Action, a.NewName = "rename", sqltext.UnquoteIdent(p.text(i+2))
		return a, true
	case p.isWord(i, "rename"):
		i++
		if p.isWord(i, "column") {
			i++
		}
		if ident(i) && p.isWord(i+1, "to") && ident(i+2) {
			a.Action, a.Column, a.NewName = "rename-column", sqltext.UnquoteIdent(p.text(i)), sqltext.UnquoteIdent(p.text(i+2))
			return a, true
		}
	}
	return IndexedAlter{}, false
}

// RebuiltIndex is the CREATE INDEX statement (DuckDB's own text of it,
// duckdb_indexes().sql) that makes the index again after the action a:
// with the column's new name, or on the table's new name. keep is false
// when the action dropped a column the index uses: PostgreSQL drops such
// an index with the column.
func RebuiltIndex(createSQL string, a IndexedAlter) (sql string, keep bool) {
	st := sqltext.Parse(strings.TrimSpace(createSQL))
	p := pass{src: st.SQL, toks: st.Tokens()}
	on := -1
	for j := range p.toks {
		if p.isWord(j, "on") {
			on = j
			break
		}
	}
	if on < 0 {
		return createSQL, true
	}
	open := p.nameEnd(on + 1)
	if open < 0 || p.kind(open) != sqltext.Open {
		return createSQL, true
	}
	closing := p.matchForward(open)
	if closing < 0 {
		return createSQL, true
	}
	names := func(fn func(j int)) {
		for j := open + 1; j < closing; j++ {
			if (p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted) && strings.EqualFold(sqltext.UnquoteIdent(p.text(j)), a.Column) &&
				!p.isOp(j-1, ".") && p.kind(j+1) != sqltext.Open {
				fn(j)
			}
		}
	}
	switch a.Action {
	case "drop":
		uses := false
		names(func(int) { uses = true })
		return createSQL, !uses

	case "rename-column":
		names(func(j int) { p.replace(p.toks[j].Start, p.toks[j].End, sqltext.QuoteIdent(a.NewName)) })
	case "rename":
		p.replace(p.toks[open-1].Start, p.toks[open-1].End, sqltext.QuoteIdent(a.NewName))
	}
	if len(p.edits) == 0 {
		return createSQL, true
	}
	return st.Edit(p.apply()).SQL, true
}
