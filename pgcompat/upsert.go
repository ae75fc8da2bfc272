package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// aliasedTarget: token i is RETURNING of INSERT INTO t AS a …: t.c in
// the list is PostgreSQL's 42P01 (the alias hides the table's name;
// DuckDB reads it), and a.c is written t.c (DuckDB's RETURNING knows
// the table by its name only).
func aliasedTarget(p *pass, i int) {
	if p.err != nil || !p.isWord(0, "insert") || !p.isWord(1, "into") || p.enclosing(i) >= 0 {
		return
	}
	nameEnd := p.nameEnd(2)
	if nameEnd < 0 || !p.isWord(nameEnd, "as") || p.kind(nameEnd+1) != sqltext.Word && p.kind(nameEnd+1) != sqltext.Quoted {
		return
	}
	table := sqltext.UnquoteIdent(p.text(nameEnd - 1))
	alias := sqltext.UnquoteIdent(p.text(nameEnd + 1))
	if strings.EqualFold(table, alias) {
		return
	}
	for j := i + 1; j+1 < len(p.toks); j++ {
		if (p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted) && p.isOp(j+1, ".") && !p.isOp(j-1, ".") &&
			sqltext.UnquoteIdent(p.text(j)) == table && !p.inSubquery(j, i) {
			p.err = vsqlerr.New(vsqlerr.TableNotFound, "invalid reference to FROM-clause entry for table %q", table).
				WithHint("Perhaps you meant to reference the table alias %q.", alias)
			return
		}
	}
	for j := i + 1; j+1 < len(p.toks); j++ {
		if (p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted) && p.isOp(j+1, ".") && !p.isOp(j-1, ".") &&
			sqltext.UnquoteIdent(p.text(j)) == alias && !p.inSubquery(j, i) {
			p.replace(p.toks[j].Start, p.toks[j].End, p.text(nameEnd-1))
		}
	}
}

// inSubquery reports whether token j lies in a subquery that opens
// after token from.
func (p *pass) inSubquery(j, from int) bool {
	for k := p.enclosing(j); k > from; k = p.enclosing(k) {
		if p.isWord(k+1, "select") || p.isWord(k+1, "with") || p.isWord(k+1, "values") {
			return true
		}
	}
	return false
}

// onConflictTarget: ON CONFLICT DO UPDATE needs a conflict target,
// PostgreSQL's 42601 before anything runs (DuckDB takes the primary key).
// RETURNING excluded.c of an INSERT into a table neither named nor
// aliased excluded is PostgreSQL's 42P01 (DuckDB: 0A000, not yet
// supported).
func onConflictTarget(p *pass, i int) {
	if !p.isWord(i-1, "on") || p.err != nil {
		return
	}
	if p.isWord(i+1, "do") && p.isWord(i+2, "update") {
		p.err = vsqlerr.New(vsqlerr.SyntaxError, "ON CONFLICT DO UPDATE requires inference specification or constraint name").
			WithHint("For example, ON CONFLICT (column_name).")
		return
	}
	if !p.isWord(0, "insert") || !p.isWord(1, "into") {
		return
	}
	nameEnd := p.nameEnd(2)
	if nameEnd < 0 || p.isWord(nameEnd-1, "excluded") || p.isWord(nameEnd, "as") && p.isWord(nameEnd+1, "excluded") {
		return
	}
	returning := -1
	for j := i + 1; j < len(p.toks); j++ {
		if p.kind(j) == sqltext.Open {
			if j = p.matchForward(j); j < 0 {
				return
			}
			continue
		}
		if p.isWord(j, "returning") {
			returning = j
			break
		}
	}
	if returning < 0 {
		return
	}
	for j := returning + 1; j+1 < len(p.toks); j++ {
		if p.isWord(j, "excluded") && p.isOp(j+1, ".") && !p.isOp(j-1, ".") {
			p.err = vsqlerr.New(vsqlerr.TableNotFound, "invalid reference to FROM-clause entry for table \"excluded\"").
				WithHint("RETURNING reads the inserted or updated row: name the target table's columns (or its alias), not excluded.")
			return
		}
	}
}

// Upsert is INSERT INTO t [AS a] [(columns)] VALUES … ON CONFLICT
// (keys) … DO UPDATE, read by ReadUpsert. PostgreSQL refuses such a
// statement whose rows propose one key twice (21000, "ON CONFLICT DO
// UPDATE command cannot affect row a second time"); DuckDB inserts the
// first and drops the others without a word. The server checks the rows
// first with DuplicateKeysQuery.
type Upsert struct {
	Table   []string // unquoted parts
	Columns []string // as written; nil: the table's first NValues columns
	NValues int      // values in the first row
	Keys    []string // the conflict target's columns, unquoted

	st                     sqltext.Statement
	valuesStart, valuesEnd int // VALUES …: its bytes in st
}

// ReadUpsert reads an upsert of VALUES rows; ok is false for another
// statement, a conflict target of expressions, DO NOTHING, or rows with
// DEFAULT (not a value a query can read).
func ReadUpsert(st sqltext.Statement) (u Upsert, ok bool) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	if !p.isWord(0, "insert") || !p.isWord(1, "into") {
		return u, false
	}
	i := 2
	start := i
	if i = p.nameEnd(i); i < 0 {
		return u, false
	}
	for j := start; j < i; j += 2 {
		u.Table = append(u.Table, sqltext.UnquoteIdent(p.text(j)))
	}
	if p.isWord(i, "as") {
		i += 2
	}
	if p.kind(i) == sqltext.Open {
		close := p.matchForward(i)
		if close < 0 {
			return u, false
		}
		for j := i + 1; j < close; j += 2 {
			if p.kind(j) != sqltext.Word && p.kind(j) != sqltext.Quoted || j+1 < close && !p.isOp(j+1, ",") {
				return u, false // f2[1], f3.if1: not plain columns
			}
			u.Columns = append(u.Columns, p.text(j))
		}
		i = close + 1
	}
	if !p.isWord(i, "values") || p.kind(i+1) != sqltext.Open {
		return u, false
	}
	valuesStart := i
	// the first row's values
	first := p.matchForward(i + 1)
	if first < 0 {
		return u, false
	}
	u.NValues = 1
	for j := i + 2; j < first; j++ {
		if p.kind(j) == sqltext.Open || p.isOp(j, "[") {
			if j = p.matchForward(j); j < 0 {
				return u, false
			}
			continue
		}
		if p.isOp(j, ",") {
			u.NValues++
		}
	}
	// the end of the rows: ON CONFLICT at depth 0
	on := -1
	for j := i + 1; j+1 < len(p.toks); j++ {
		if p.kind(j) == sqltext.Open {
			if j = p.matchForward(j); j < 0 {
				return u, false
			}
			continue
		}
		if p.isWord(j, "default") {
			return u, false
		}
		if p.isWord(j, "on") && p.isWord(j+1, "conflict") {
			on = j
			break
		}
	}
	if on < 0 || p.kind(on+2) != sqltext.Open {
		return u, false
	}
	for j := valuesStart; j < on; j++ {
		if p.isWord(j, "default") {
			return u, false
		}
	}
	u.st, u.valuesStart, u.valuesEnd = st, p.toks[valuesStart].Start, p.toks[on-1].End
	close := p.matchForward(on + 2)
	if close < 0 {
		return u, false
	}
	for j := on + 3; j < close; j += 2 {
		if p.kind(j) != sqltext.Word && p.kind(j) != sqltext.Quoted || j+1 < close && !p.isOp(j+1, ",") {
			return u, false // an expression or COLLATE: not checked
		}
		u.Keys = append(u.Keys, sqltext.UnquoteIdent(p.text(j)))
	}
	// [WHERE …] DO UPDATE
	for j := close + 1; j+1 < len(p.toks); j++ {
		if p.isWord(j, "do") {
			return u, len(u.Keys) > 0 && p.isWord(j+1, "update")
		}
	}
	return u, false
}

// DuplicateKeysQuery is the query that answers true when the rows propose
// one key twice (keys with a NULL never conflict), given the insert's
// columns (Columns, or the table's first NValues columns, unquoted); ok
// is false when a key column is not among them (it takes its default).
// The query is an edit of the statement (its VALUES kept), so that its
// text is not lexed again.
func (u Upsert) DuplicateKeysQuery(columns []string) (sqltext.Statement, bool) {
	names := make([]string, len(columns))
	for i, c := range columns {
		names[i] = sqltext.QuoteIdent(c)
	}
	var keys, notNull []string
	for _, k := range u.Keys {
		found := false
		for _, c := range columns {
			if strings.EqualFold(c, k) {
				found = true
				break
			}
		}
		if !found {
			return sqltext.Statement{}, false
		}
		keys = append(keys, sqltext.QuoteIdent(k))
		notNull = append(notNull, sqltext.QuoteIdent(k)+" IS NOT NULL")
	}
	return u.st.Edit([]sqltext.Edit{
		{Start: 0, End: u.valuesStart, Text: "SELECT EXISTS (SELECT 1 FROM ("},
		{Start: u.valuesEnd, End: len(u.st.SQL), Text: ") AS upsert_rows(" + strings.Join(names, ", ") + ") WHERE " +
			strings.Join(notNull, " AND ") + " GROUP BY " + strings.Join(keys, ", ") + " HAVING count(*) > 1)"},
	}), true
}
