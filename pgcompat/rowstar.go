package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// RowStars writes x.*, a whole row used as a value in INSERT … ON
// CONFLICT … DO UPDATE or in UPDATE, which DuckDB refuses ("STAR
// expression is not supported here"), as the list of its columns:
//
//   - i.* = excluded.*, i.* <> excluded.*, i.* != excluded.* (two
//     records): (ROW(i.c1, …) IS [NOT] DISTINCT FROM ROW(excluded.c1,
//     …)), as PostgreSQL compares records, field by field with NULLs
//     equal to each other;
//   - row(excluded.*), ROW(v.*) as the whole argument: row(x.c1, x.c2, …),
//     so that SET (a, b) = ROW(v.*) assigns each column.
//
// x is excluded or the target (its name or alias), whose columns come
// from columns (Session.TableColumns), or a FROM item with a column list
// (AS v(i, j)). SET (a, b) = (v.*) is PostgreSQL's 0A000 (err). Other
// uses (excluded.*::text, x.* IS NULL, a record compared with a row
// constructor) are left to DuckDB. ok is false when nothing was written.
// The result is an edit of st (only the written text is lexed), to run
// before Translate.
func RowStars(st sqltext.Statement, columns func(parts []string) []TableColumn) (sqltext.Statement, bool, error) {
	if !strings.Contains(st.SQL, "*") {
		return st, false, nil
	}
	p := pass{src: st.SQL, toks: st.Tokens()}
	insert := p.isWord(0, "insert") && p.isWord(1, "into")
	update := p.isWord(0, "update")
	if !insert && !update || columns == nil {
		return st, false, nil
	}
	star := -1
	for k := 2; k < len(p.toks); k++ {
		if p.isOp(k, "*") && p.isOp(k-1, ".") && (p.kind(k-2) == sqltext.Word || p.kind(k-2) == sqltext.Quoted) {
			star = k
			break
		}
	}
	if star < 0 {
		return st, false, nil
	}
	// the target: its name, its alias
	nameStart := 2
	if update {
		nameStart = 1
		if p.isWord(1, "only") {
			nameStart = 2
		}
	}
	nameEnd := p.nameEnd(nameStart)
	if nameEnd < 0 {
		return st, false, nil
	}
	target := strings.ToLower(sqltext.UnquoteIdent(p.text(nameEnd - 1)))
	alias := ""
	switch {
	case p.isWord(nameEnd, "as") && (p.kind(nameEnd+1) == sqltext.Word || p.kind(nameEnd+1) == sqltext.Quoted):
		alias = strings.ToLower(sqltext.UnquoteIdent(p.text(nameEnd + 1)))
	case update && p.kind(nameEnd) == sqltext.Word && !p.isWord(nameEnd, "set"):
		alias = strings.ToLower(sqltext.UnquoteIdent(p.text(nameEnd)))
	}
	conflict := -1 // DO UPDATE of ON CONFLICT
	if insert {
		for k := nameEnd; k+1 < len(p.toks); k++ {
			if p.isWord(k, "do") && p.isWord(k+1, "update") {
				conflict = k
				break
			}
		}
		if conflict < 0 {
			return st, false, nil
		}
	}
	var targetCols []string
	colsOf := func(x string) []string {
		if x == target && alias == "" || x == alias || insert && x == "excluded" {
			if targetCols == nil {
				for _, c := range columns(p.nameParts(nameStart, nameEnd)) {
					targetCols = append(targetCols, c.Name)
				}
			}
			return targetCols
		}
		// a FROM item's column list: AS x(c1, …)
		for k := 0; k+2 < len(p.toks); k++ {
			if p.isWord(k, "as") && p.kind(k+2) == sqltext.Open && strings.EqualFold(sqltext.UnquoteIdent(p.text(k+1)), x) {
				end := p.matchForward(k + 2)
				if end < 0 {
					return nil
				}
				var out []string
				for m := k + 3; m < end; m += 2 {
					if p.kind(m) != sqltext.Word && p.kind(m) != sqltext.Quoted || m+1 < end && !p.isOp(m+1, ",") {
						return nil
					}
					out = append(out, sqltext.UnquoteIdent(p.text(m)))
				}
				return out
			}
		}
		return nil
	}
	var edits []sqltext.Edit
	for k := star; k < len(p.toks); k++ {
		if !p.isOp(k, "*") || !p.isOp(k-1, ".") || p.kind(k-2) != sqltext.Word && p.kind(k-2) != sqltext.Quoted || p.isOp(k-3, ".") {
			continue
		}
		if insert && k < conflict {
			continue
		}
		x := k - 2
		inRow := p.kind(x-1) == sqltext.Open && p.kind(k+1) == sqltext.Close && p.isWord(x-2, "row")
		if !inRow && p.kind(x-1) == sqltext.Open && p.kind(k+1) == sqltext.Close && p.isOp(x-2, "=") && p.kind(x-3) == sqltext.Close {
			// SET (a, b) = (v.*)
			return st, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression").
				WithHint("Write ROW(v.*) or (SELECT …) as the source.")
		}
		expand := func(x int) (string, bool) {
			cols := colsOf(strings.ToLower(sqltext.UnquoteIdent(p.text(x))))
			if len(cols) == 0 {
				return "", false
			}
			parts := make([]string, len(cols))
			for n, c := range cols {
				parts[n] = p.text(x) + "." + sqltext.QuoteIdent(c)
			}
			return strings.Join(parts, ", "), true
		}
		if inRow {
			if text, ok := expand(x); ok {
				edits = append(edits, sqltext.Edit{Start: p.toks[x].Start, End: p.toks[k].End, Text: text})
			}
			continue
		}
		// x.* = y.*, x.* <> y.*, x.* != y.*: PostgreSQL compares two
		// records field by field, NULLs equal to each other
		op, y := rowOperator(&p, k+1)
		if op == "" || !p.isOp(y+2, "*") || !p.isOp(y+1, ".") || p.kind(y) != sqltext.Word && p.kind(y) != sqltext.Quoted || p.isOp(y+3, ".") {
			continue
		}
		left, ok1 := expand(x)
		right, ok2 := expand(y)
		if !ok1 || !ok2 || p.isOp(x-1, ".") {
			continue
		}
		edits = append(edits, sqltext.Edit{Start: p.toks[x].Start, End: p.toks[y+2].End, Text: "(ROW(" + left + ") " + op + " ROW(" + right + "))"})
		k = y + 2
	}
	if len(edits) == 0 {
		return st, false, nil
	}
	return st.Edit(edits), true, nil
}

// rowOperator reads the comparison at token k between two records: =
// is IS NOT DISTINCT FROM, <> and != IS DISTINCT FROM; y is the token
// after it ("" when there is none).
func rowOperator(p *pass, k int) (op string, y int) {
	switch {
	case p.isOp(k, "=") && !p.isOp(k+1, "="):
		return "IS NOT DISTINCT FROM", k + 1
	case p.isOp(k, "<") && p.isOp(k+1, ">") && p.adjacent(k), p.isOp(k, "!") && p.isOp(k+1, "=") && p.adjacent(k):
		return "IS DISTINCT FROM", k + 2
	}
	return "", -1
}
