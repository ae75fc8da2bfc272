package pgcompat

import (
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// UpsertMerge is an INSERT … VALUES … ON CONFLICT (keys) DO UPDATE whose
// SET or WHERE holds a subquery (SET b = (SELECT …), SET (b, a) =
// (SELECT …) once MultiColumnSubquery split it, WHERE EXISTS (…)),
// which DuckDB refuses ("DO UPDATE SET clause cannot contain a
// subquery"), written as the MERGE that does the same:
//
//	[WITH …] MERGE INTO t [AS a]
//	USING (SELECT CAST(r.c1 AS <type of col1>) AS col1, …
//	       FROM (VALUES …) AS __vsql_rows(c1, …)) AS excluded
//	ON t.k1 = excluded.k1 AND …
//	WHEN MATCHED [AND (where)] THEN UPDATE SET …
//	WHEN NOT MATCHED THEN INSERT (col1, …) VALUES (excluded.col1, …)
//	[RETURNING …]
//
// The proposed rows are cast to the columns' types, as the INSERT's
// assignment would; a row whose keys equal a stored row's is updated
// (a NULL key matches none, as a unique index's), the others inserted;
// the subqueries read the table as it was before the statement, as
// PostgreSQL's do. What MERGE does not do as PostgreSQL's upsert does
// is left to the server: Probe (the INSERT with DO NOTHING, prepared
// only) checks that the keys are a unique index's or the primary key's;
// rows that propose one key twice are refused by the upsert check
// (ReadUpsert, on Insert), which DuckDB's MERGE would apply both.
type UpsertMerge struct {
	Merge  sqltext.Statement // what runs
	Probe  sqltext.Statement // INSERT … ON CONFLICT (keys) DO NOTHING: binds the target
	Insert sqltext.Statement // the INSERT without its WITH, for the upsert check
	Rows   int               // VALUES rows
}

// ReadUpsertMerge reads st (as translated) as an UpsertMerge; ok is
// false for any other statement and for forms it does not write: rows
// with DEFAULT, a conflict target with a WHERE or expressions, a
// reference to excluded.c of a column the INSERT does not list (its
// default), excluded.*, and, after a WITH, several rows whose values
// hold a subquery. columns gives a table's columns (Session.TableColumns).
func ReadUpsertMerge(st sqltext.Statement, columns func(parts []string) []TableColumn) (UpsertMerge, bool) {
	var u UpsertMerge
	p := pass{src: st.SQL, toks: st.Tokens()}
	ins := 0
	if p.isWord(0, "with") {
		ins = -1
		for j := 1; j < len(p.toks); j++ {
			if p.kind(j) == sqltext.Open {
				if j = p.matchForward(j); j < 0 {
					return u, false
				}
				continue
			}
			if p.isWord(j, "insert") {
				ins = j
				break
			}
		}
		if ins < 0 {
			return u, false
		}
	}
	if !p.isWord(ins, "insert") || !p.isWord(ins+1, "into") {
		return u, false
	}
	nameEnd := p.nameEnd(ins + 2)
	if nameEnd < 0 {
		return u, false
	}
	target := p.src[p.toks[ins+2].Start:p.toks[nameEnd-1].End]
	ref := target
	j := nameEnd
	if p.isWord(j, "as") {
		if p.kind(j+1) != sqltext.Word && p.kind(j+1) != sqltext.Quoted {
			return u, false
		}
		ref = p.text(j + 1)
		j += 2
	}
	targetEnd := j
	var listed []string // as written
	if p.kind(j) == sqltext.Open {
		end := p.matchForward(j)
		if end < 0 {
			return u, false
		}
		for k := j + 1; k < end; k += 2 {
			if p.kind(k) != sqltext.Word && p.kind(k) != sqltext.Quoted || k+1 < end && !p.isOp(k+1, ",") {
				return u, false
			}
			listed = append(listed, p.text(k))
		}
		j = end + 1
	}
	if !p.isWord(j, "values") || p.kind(j+1) != sqltext.Open {
		return u, false
	}
	valuesAt := j
	// the rows, up to ON CONFLICT
	on, rows, nvalues, sub := -1, 0, 0, false
	for k := j + 1; k < len(p.toks); k++ {
		switch {
		case p.kind(k) == sqltext.Open:
			end := p.matchForward(k)
			if end < 0 {
				return u, false
			}
			if p.isWord(k-1, "values") || p.isOp(k-1, ",") && rows > 0 {
				rows++
				if rows == 1 {
					nvalues = len(p.splitArgs(k, end))
				}
			}
			for m := k; m < end; m++ {
				if p.isWord(m, "default") {
					return u, false
				}
				sub = sub || p.isWord(m, "select")
			}
			k = end
		case p.isWord(k, "on") && p.isWord(k+1, "conflict"):
			on = k
		case p.isOp(k, ","):
		default:
			return u, false
		}
		if on >= 0 {
			break
		}
	}
	if on < 0 || rows == 0 || nvalues == 0 || ins > 0 && rows > 1 && sub {
		return u, false
	}
	u.Rows = rows
	if p.kind(on+2) != sqltext.Open {
		return u, false
	}
	keysEnd := p.matchForward(on + 2)
	if keysEnd < 0 {
		return u, false
	}
	var keys []string
	for k := on + 3; k < keysEnd; k += 2 {
		if p.kind(k) != sqltext.Word && p.kind(k) != sqltext.Quoted || k+1 < keysEnd && !p.isOp(k+1, ",") {
			return u, false
		}
		keys = append(keys, sqltext.UnquoteIdent(p.text(k)))
	}
	if len(keys) == 0 || !p.isWord(keysEnd+1, "do") || !p.isWord(keysEnd+2, "update") || !p.isWord(keysEnd+3, "set") {
		return u, false
	}
	set := keysEnd + 4
	// SET items, [WHERE cond], [RETURNING …] at depth 0
	where, returning, end := -1, -1, len(p.toks)
	hasSub := false
	for k := set; k < len(p.toks); k++ {
		switch {
		case p.kind(k) == sqltext.Open:
			m := p.matchForward(k)
			if m < 0 {
				return u, false
			}
			for n := k; n < m; n++ {
				hasSub = hasSub || p.isWord(n, "select")
			}
			k = m
			continue
		case p.kind(k) == sqltext.Semi:
			end = k
		case p.isWord(k, "where") && where < 0 && returning < 0:
			where = k
		case p.isWord(k, "returning") && returning < 0:
			returning = k
		}
		if end == k {
			break
		}
	}
	if !hasSub {
		return u, false
	}
	// the columns the rows give, and their types
	parts := p.nameParts(ins+2, nameEnd)
	cols := columns(parts)
	if len(cols) == 0 {
		return u, false
	}
	var names, types []string // unquoted, DuckDB types
	if listed == nil {
		if nvalues > len(cols) {
			return u, false
		}
		for _, c := range cols[:nvalues] {
			names, types = append(names, c.Name), append(types, c.Type)
		}
	} else {
		if len(listed) != nvalues {
			return u, false
		}
		for _, l := range listed {
			name := sqltext.UnquoteIdent(l)
			found := false
			for _, c := range cols {
				if strings.EqualFold(c.Name, name) {
					names, types, found = append(names, c.Name), append(types, c.Type), true
					break
				}
			}
			if !found {
				return u, false
			}
		}
	}
	has := func(name string) bool {
		for _, n := range names {
			if strings.EqualFold(n, name) {
				return true
			}
		}
		return false
	}
	for _, k := range keys {
		if !has(k) {
			return u, false // a key left to its default
		}
	}
	// excluded.c only of the listed columns (the others are defaults)
	for k := set; k+2 < end; k++ {
		if p.isWord(k, "excluded") && p.isOp(k+1, ".") && !p.isOp(k-1, ".") {
			if p.kind(k+2) != sqltext.Word && p.kind(k+2) != sqltext.Quoted || !has(sqltext.UnquoteIdent(p.text(k+2))) {
				return u, false
			}
			if returning >= 0 && k > returning {
				return u, false
			}
		}
	}
	if strings.EqualFold(sqltext.UnquoteIdent(ref), "excluded") {
		return u, false // the target named excluded: the source's name
	}
	span := func(from, to int) string { // tokens from…to-1, as written
		if from >= to {
			return ""
		}
		return p.src[p.toks[from].Start:p.toks[to-1].End]
	}
	var b strings.Builder
	if ins > 0 {
		b.WriteString(p.src[:p.toks[ins].Start])
	}
	b.WriteString("MERGE INTO ")
	b.WriteString(span(ins+2, targetEnd))
	b.WriteString(" USING (SELECT ")
	quoted := make([]string, len(names))
	for n, name := range names {
		quoted[n] = sqltext.QuoteIdent(name)
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString("CAST(__vsql_rows.c" + strconv.Itoa(n+1) + " AS " + types[n] + ") AS " + quoted[n])
	}
	b.WriteString(" FROM (")
	b.WriteString(span(valuesAt, on))
	b.WriteString(") AS __vsql_rows(")
	for n := range names {
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString("c" + strconv.Itoa(n+1))
	}
	b.WriteString(")) AS excluded ON ")
	for n, k := range keys {
		if n > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(ref + "." + sqltext.QuoteIdent(k) + " = excluded." + sqltext.QuoteIdent(k))
	}
	b.WriteString(" WHEN MATCHED")
	setEnd := end
	if where >= 0 {
		setEnd = where
		condEnd := end
		if returning >= 0 {
			condEnd = returning
		}
		b.WriteString(" AND (" + span(where+1, condEnd) + ")")
	} else if returning >= 0 {
		setEnd = returning
	}
	b.WriteString(" THEN UPDATE SET " + span(set, setEnd))
	b.WriteString(" WHEN NOT MATCHED THEN INSERT (" + strings.Join(quoted, ", ") + ") VALUES (")
	for n, q := range quoted {
		if n > 0 {
			b.WriteString(", ")
		}
		b.WriteString("excluded." + q)
	}
	b.WriteString(")")
	if returning >= 0 {
		// MERGE's RETURNING knows the target by its alias only (the
		// INSERT's, by its name: aliasedTarget wrote t.c for a.c)
		b.WriteByte(' ')
		from := returning
		if ref != target {
			name := sqltext.UnquoteIdent(p.text(nameEnd - 1))
			for k := returning + 1; k+1 < end; k++ {
				if (p.kind(k) == sqltext.Word || p.kind(k) == sqltext.Quoted) && p.isOp(k+1, ".") && !p.isOp(k-1, ".") &&
					sqltext.UnquoteIdent(p.text(k)) == name && !p.inSubquery(k, returning) {
					b.WriteString(p.src[p.toks[from].Start:p.toks[k].Start] + ref)
					from = k + 1
				}
			}
		}
		b.WriteString(p.src[p.toks[from].Start:p.toks[end-1].End])
	}
	u.Merge = sqltext.Parse(b.String())
	u.Merge.Offset = st.Offset
	probe := p.src[:p.toks[keysEnd].End] + " DO NOTHING"
	u.Probe = sqltext.Parse(probe)
	u.Probe.Offset = st.Offset
	u.Insert = sqltext.Parse(p.src[p.toks[ins].Start:p.toks[end-1].End])
	return u, true
}
