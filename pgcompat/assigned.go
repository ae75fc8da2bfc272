package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// A string literal PostgreSQL assigns to a column is read by the column
// type's input function: INSERT INTO t VALUES ('{1,2}', 'Mon Feb 10
// 17:32:01 1997 PST') puts an array and an instant in an int[] and a
// timestamptz column. DuckDB casts it with its own parser, which refuses
// both. The literals of INSERT … VALUES and of UPDATE … SET col = '…'
// are rewritten as the cast to the column's type is (literals.go) when
// the column is of a type whose input PostgreSQL reads more loosely:
// arrays, timestamp with time zone, time with time zone, date, time,
// timestamp, interval and boolean. The rewrite learns the table's
// columns from Session.TableColumns (the server's catalog), asked only
// for a statement that assigns a plain string literal so.

// TableColumn is a column of a table as Session.TableColumns returns it:
// its name, its type as DuckDB writes it (INTEGER[], TIMESTAMP WITH
// TIME ZONE) and whether it is part of the primary key.
type TableColumn struct {
	Name, Type string
	Key        bool
}

// assignedType is the literal type that reads a string assigned to a
// column of DuckDB type typ (literalType{} for a type DuckDB reads as
// PostgreSQL does).
func assignedType(typ string) literalType {
	if base, ok := strings.CutSuffix(typ, "[]"); ok {
		to := literalType{kind: litArray, dims: 1}
		for strings.HasSuffix(base, "[]") {
			base = base[:len(base)-2]
			to.dims++
		}
		return to
	}
	return literalType{kind: assignedKinds[typ]}
}

// assignedKinds are the types, as DuckDB writes them, whose literals
// assigned to a column are rewritten (arrays aside).
var assignedKinds = map[string]literalKind{"TIMESTAMP WITH TIME ZONE": litTimestampTZ, "TIME WITH TIME ZONE": litTimeTZ,
	"DATE": litDate, "TIME": litTime, "TIMESTAMP": litTimestamp, "INTERVAL": litInterval, "BOOLEAN": litBool}

// insertValues: token i is VALUES of INSERT INTO t [AS a] [(c, …)]
// [OVERRIDING … VALUE] VALUES (…), ….
func insertValues(p *pass, i int) {
	if p.sess.TableColumns == nil || !p.isWord(0, "insert") || !p.isWord(1, "into") {
		return
	}
	nameEnd := p.nameEnd(2)
	if nameEnd < 0 {
		return
	}
	j := nameEnd
	if p.isWord(j, "as") {
		j += 2
	}
	var names []string // the column list, nil for the table's order
	if p.kind(j) == sqltext.Open {
		end := p.matchForward(j)
		if end < 0 {
			return
		}
		for k := j + 1; k < end; k += 2 {
			name, ok := p.identifier(k)
			if !ok || !(p.isOp(k+1, ",") || k+1 == end) {
				return // c[1], c.f: left to DuckDB
			}
			names = append(names, name)
		}
		j = end + 1
	}
	if p.isWord(j, "overriding") {
		j += 3
	}
	if j != i {
		return
	}
	// The string literals that are a whole item of a row: (row item, token).
	type assigned struct{ item, tok int }
	var found []assigned
	for open := i + 1; p.kind(open) == sqltext.Open; {
		end := p.matchForward(open)
		if end < 0 {
			return
		}
		item := 0
		for k := open + 1; k < end; k++ {
			switch {
			case p.kind(k) == sqltext.Open:
				k = p.matchForward(k)
				if k < 0 {
					return
				}
			case p.isOp(k, ","):
				item++
			case p.plainString(k) && (p.kind(k-1) == sqltext.Open || p.isOp(k-1, ",")) && (p.isOp(k+1, ",") || k+1 == end):
				found = append(found, assigned{item, k})
			}
		}
		if !p.isOp(end+1, ",") {
			break
		}
		open = end + 2
	}
	if len(found) == 0 {
		return
	}
	types := p.columnTypes(2, nameEnd)
	if types == nil {
		return
	}
	for _, a := range found {
		var typ string
		if names == nil {
			if a.item < len(types.order) {
				typ = types.order[a.item]
			}
		} else if a.item < len(names) {
			typ = types.byName[strings.ToLower(names[a.item])]
		}
		if to := assignedType(typ); to.kind != litNone && !p.edited(p.toks[a.tok].Start, p.toks[a.tok].End) {
			p.readLiteral(a.tok, to, -1, -1)
		}
	}
}

// updateSet: token i is SET of UPDATE [ONLY] t [[AS] a] SET c = '…', ….
// It also writes a jsonb column's subscripted assignment, c['a'][0] = v,
// which DuckDB's parser refuses, as c = pg_jsonb_assign(c, ['a', 0], v),
// and an element of a one-dimensional array, c[2] = v, as
// c = pg_array_assign(c, 2, CAST(v AS element type)).
func updateSet(p *pass, i int) {
	if p.sess.TableColumns == nil || !p.isWord(0, "update") {
		return
	}
	first := 1
	if p.isWord(first, "only") {
		first++
	}
	nameEnd := p.nameEnd(first)
	if nameEnd < 0 {
		return
	}
	j := nameEnd
	if p.isWord(j, "as") {
		j++
	}
	if j < i && (p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted) {
		j++ // the alias
	}
	if j != i {
		return
	}
	type assigned struct {
		column string
		tok    int
	}
	var found []assigned
	var targets []subscriptTarget
	itemStart := true
	for k := i + 1; k < len(p.toks); k++ {
		switch {
		case p.kind(k) == sqltext.Open:
			if k = p.matchForward(k); k < 0 {
				return
			}
			continue
		case p.kind(k) == sqltext.Semi,
			p.kind(k) == sqltext.Word && (p.isWord(k, "where") || p.isWord(k, "from") || p.isWord(k, "returning")):
			k = len(p.toks)
			continue
		case itemStart && p.isOp(k+1, "["):
			if t, ok := p.subscriptedTarget(k); ok {
				targets = append(targets, t)
				k = t.end - 1
				itemStart = false
				continue
			}
		case p.isOp(k, "=") && p.plainString(k+1) && p.literalEnds(k+1):
			if name, ok := p.identifier(k - 1); ok && (p.isOp(k-2, ",") || k-2 == i) {
				found = append(found, assigned{name, k + 1})
			}
		}
		itemStart = p.isOp(k, ",")
	}
	if len(found) == 0 && len(targets) == 0 {
		return
	}
	types := p.columnTypes(first, nameEnd)
	if types == nil {
		return
	}
	for _, a := range found {
		if to := assignedType(types.byName[strings.ToLower(a.column)]); to.kind != litNone && !p.edited(p.toks[a.tok].Start, p.toks[a.tok].End) {
			p.readLiteral(a.tok, to, -1, -1)
		}
	}
	for _, t := range targets {
		typ := types.byName[strings.ToLower(t.column)]
		col := p.text(t.name)
		subs := make([]string, len(t.subs))
		for k, s := range t.subs {
			subs[k] = p.src[p.toks[s[0]].Start:p.toks[s[1]].End]
		}
		switch elem, isList := strings.CutSuffix(typ, "[]"); {
		case typ == "JSON":
			p.replace(p.toks[t.name].Start, p.toks[t.eq+1].Start, col+" = "+schema+".pg_jsonb_assign("+col+", json_array("+strings.Join(subs, ", ")+"), ")
			p.insert(p.toks[t.end-1].End, ")")
		case isList && len(subs) == 1 && !strings.HasSuffix(elem, "]"):
			// one element of a one-dimensional array, cast to its type
			p.replace(p.toks[t.name].Start, p.toks[t.eq+1].Start, col+" = "+schema+".pg_array_assign("+col+", "+subs[0]+", CAST(")
			p.insert(p.toks[t.end-1].End, " AS "+elem+"))")
		}
	}
}

// subscriptTarget is c[s1][s2]… = value in a SET list.
type subscriptTarget struct {
	column        string
	name, eq, end int      // the column's token, the =, the value's end (exclusive)
	subs          [][2]int // each subscript's first and last token
}

// subscriptedTarget reads c[s1][s2]… = value from token k (the column);
// false for a slice (c[1:2]) or what is not such an assignment.
func (p *pass) subscriptedTarget(k int) (t subscriptTarget, ok bool) {
	name, ok := p.identifier(k)
	if !ok {
		return t, false
	}
	t.column, t.name = name, k
	j := k + 1
	for p.isOp(j, "[") {
		close := p.matchForward(j)
		if close < 0 || close == j+1 {
			return t, false
		}
		for m := j + 1; m < close; m++ {
			if p.isOp(m, ":") && p.kind(m+1) != sqltext.Op && !p.isOp(m-1, ":") && !p.isOp(m+1, ":") {
				return t, false // a slice
			}
		}
		t.subs = append(t.subs, [2]int{j + 1, close - 1})
		j = close + 1
	}
	if !p.isOp(j, "=") || p.adjacent(j) && p.kind(j+1) == sqltext.Op {
		return t, false
	}
	t.eq = j
	depth := 0
	for j = t.eq + 1; j < len(p.toks); j++ {
		switch {
		case p.kind(j) == sqltext.Open || p.isOp(j, "["):
			depth++
		case p.kind(j) == sqltext.Close || p.isOp(j, "]"):
			depth--
		case depth == 0 && (p.isOp(j, ",") || p.kind(j) == sqltext.Semi ||
			p.isWord(j, "where") || p.isWord(j, "from") || p.isWord(j, "returning")):
			t.end = j
			return t, j > t.eq+1
		}
	}
	t.end = len(p.toks)
	return t, t.end > t.eq+1
}

// identifier is the name token k is (a word that is no keyword of the
// statement, or a quoted name), unquoted.
func (p *pass) identifier(k int) (string, bool) {
	switch p.kind(k) {
	case sqltext.Word:
		w := p.text(k)
		return w, !notNames[strings.ToLower(w)]
	case sqltext.Quoted:
		return sqltext.UnquoteIdent(p.text(k)), true
	}
	return "", false
}

// nameParts are the parts of the name of tokens start…end-1 (name,
// schema.name, …), quoted ones unquoted, as Session.TableColumns takes
// them.
func (p *pass) nameParts(start, end int) []string {
	var parts []string
	for k := start; k < end; k += 2 {
		name := p.text(k)
		if p.kind(k) == sqltext.Quoted {
			name = sqltext.UnquoteIdent(name)
		}
		parts = append(parts, name)
	}
	return parts
}

// tableTypes is a table's column types in its order and by lower-cased
// name.
type tableTypes struct {
	order  []string
	byName map[string]string
}

// columnTypes asks Session.TableColumns for the table named by tokens
// start…end-1; nil when it knows none.
func (p *pass) columnTypes(start, end int) *tableTypes {
	cols := p.sess.TableColumns(p.nameParts(start, end))
	if len(cols) == 0 {
		return nil
	}
	t := &tableTypes{byName: make(map[string]string, len(cols))}
	for _, c := range cols {
		t.order = append(t.order, c.Type)
		t.byName[strings.ToLower(c.Name)] = c.Type
	}
	return t
}
