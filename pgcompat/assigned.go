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
// [OVERRIDING … VALUE] VALUES (…), …. A column of the list may be
// subscripted (a[1:5], b[2]): its items become the assignment to a NULL
// array (arrayassign.go), as PostgreSQL's, and the subscripts leave the
// list.
func insertValues(p *pass, i int) {
	if p.sess.TableColumns == nil {
		return
	}
	nameEnd, j := p.insertTarget()
	if nameEnd < 0 {
		return
	}
	var names []string // the column list, nil for the table's order
	subscripted := map[int][]arraySubscript{}
	var subRanges [][2]int // the subscripts' text, to remove
	if p.kind(j) == sqltext.Open {
		end := p.matchForward(j)
		if end < 0 {
			return
		}
		seen := map[string]bool{}
		for k := j + 1; k < end; k += 2 {
			name, ok := p.identifier(k)
			if !ok {
				return
			}
			if p.isOp(k+1, "[") {
				subs, after, ok := p.readSubscripts(k + 1)
				if !ok {
					return
				}
				subscripted[len(names)] = subs
				subRanges = append(subRanges, [2]int{p.toks[k+1].Start, p.toks[after-1].End})
				k = after - 1
			}
			if !(p.isOp(k+1, ",") || k+1 == end) {
				return // c.f: left to DuckDB
			}
			if seen[strings.ToLower(name)] && len(subscripted) > 0 {
				return // a[1], a[2]: PostgreSQL merges them
			}
			seen[strings.ToLower(name)] = true
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
	// The string literals that are a whole item of a row: (row item,
	// token); and the items of subscripted columns: (row item, first and
	// last token).
	type assigned struct{ item, tok int }
	type item struct{ item, from, to int }
	var found []assigned
	var items []item
	for open := i + 1; p.kind(open) == sqltext.Open; {
		end := p.matchForward(open)
		if end < 0 {
			return
		}
		n, from := 0, open+1
		for k := open + 1; k <= end; k++ {
			switch {
			case k == end || p.isOp(k, ","):
				if _, ok := subscripted[n]; ok && k > from {
					items = append(items, item{n, from, k - 1})
				} else if k == from+1 && p.plainString(from) {
					found = append(found, assigned{n, from})
				}
				n++
				from = k + 1
			case p.kind(k) == sqltext.Open || p.isOp(k, "["):
				if k = p.matchForward(k); k < 0 {
					return
				}
			}
		}
		if !p.isOp(end+1, ",") {
			break
		}
		open = end + 2
	}
	if len(found) == 0 && len(subscripted) == 0 {
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
	if len(subscripted) == 0 {
		return
	}
	for k := range subscripted {
		if _, _, ok := arrayColumnType(types.byName[strings.ToLower(names[k])]); !ok {
			return // no array (a composite's field, a jsonb): left to DuckDB
		}
	}
	p.deferred = append(p.deferred, func() {
		var edits []edit
		for _, it := range items {
			typ := types.byName[strings.ToLower(names[it.item])]
			a, ok := p.arrayAssignment(typ, subscripted[it.item], it.from, it.to)
			if !ok {
				return
			}
			value := a.value
			if !a.replace {
				if value, ok = p.editedSource(p.toks[it.from].Start, p.toks[it.to].End); !ok {
					return
				}
			}
			edits = append(edits, edit{start: p.toks[it.from].Start, end: p.toks[it.to].End,
				text: a.fn + "CAST(NULL AS " + typ + ")" + a.args + value + a.close})
		}
		for _, e := range edits {
			p.replace(e.start, e.end, e.text)
		}
		for _, r := range subRanges {
			p.replace(r[0], r[1], "")
		}
	})
}

// updateSet: token i is SET of UPDATE [ONLY] t [[AS] a] SET c = '…', ….
// It also writes a jsonb column's subscripted assignment, c['a'][0] = v,
// which DuckDB's parser refuses, as c = pg_jsonb_assign(c, ['a', 0], v),
// and an element of a one-dimensional array, c[2] = v, as
// c = pg_array_assign(c, 2, CAST(v AS element type)).
func updateSet(p *pass, i int) {
	if p.sess.TableColumns == nil {
		return
	}
	var first, nameEnd int
	switch {
	case p.isWord(0, "update"):
		first = 1
		if p.isWord(first, "only") {
			first++
		}
		if nameEnd = p.nameEnd(first); nameEnd < 0 {
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
	case p.isWord(0, "insert") && p.isWord(1, "into") && p.isWord(i-1, "update") && p.isWord(i-2, "do"):
		// INSERT INTO t … ON CONFLICT … DO UPDATE SET
		first = 2
		if nameEnd = p.nameEnd(first); nameEnd < 0 {
			return
		}
	default:
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
	var arrays []subscriptTarget
	for _, t := range targets {
		typ := types.byName[strings.ToLower(t.column)]
		if typ == "JSON" && t.subs != nil {
			col := p.text(t.name)
			subs := make([]string, len(t.subs))
			for k, s := range t.subs {
				subs[k] = p.src[p.toks[s[0]].Start:p.toks[s[1]].End]
			}
			p.replace(p.toks[t.name].Start, p.toks[t.eq+1].Start, col+" = "+schema+".pg_jsonb_assign("+col+", json_array("+strings.Join(subs, ", ")+"), ")
			p.insert(p.toks[t.end-1].End, ")")
			continue
		}
		if _, _, ok := arrayColumnType(typ); ok {
			t.typ = typ
			arrays = append(arrays, t)
		}
	}
	if len(arrays) > 0 {
		p.deferred = append(p.deferred, func() { p.assignArrays(arrays) })
	}
}

// assignArrays writes the assignments to subscripts of array columns
// (arrayassign.go), once every rule has run: each column's first target
// becomes col = its assignments nested in their order, the others are
// removed.
func (p *pass) assignArrays(targets []subscriptTarget) {
	done := map[string]bool{}
	for i, first := range targets {
		key := strings.ToLower(first.column)
		if done[key] {
			continue
		}
		done[key] = true
		col := p.text(first.name)
		expr := col
		var removed [][2]int
		for _, t := range targets[i:] {
			if strings.ToLower(t.column) != key {
				continue
			}
			a, ok := p.arrayAssignment(t.typ, t.arr, t.eq+1, t.end-1)
			if !ok {
				return
			}
			value := a.value
			if !a.replace {
				var ok bool
				if value, ok = p.editedSource(p.toks[t.eq+1].Start, p.toks[t.end-1].End); !ok {
					return
				}
			}
			expr = a.fn + expr + a.args + value + a.close
			if t.name != first.name {
				removed = append(removed, [2]int{p.toks[t.name-1].Start, p.toks[t.end-1].End})
			}
		}
		p.replace(p.toks[first.name].Start, p.toks[first.end-1].End, col+" = "+expr)
		for _, r := range removed {
			p.replace(r[0], r[1], "")
		}
	}
}

// subscriptTarget is c[s1][s2]… = value in a SET list.
type subscriptTarget struct {
	column        string
	name, eq, end int              // the column's token, the =, the value's end (exclusive)
	subs          [][2]int         // each subscript's first and last token (nil when one is a slice)
	arr           []arraySubscript // the subscripts as an array's
	typ           string           // the column's type, for an array
}

// subscriptedTarget reads c[s1][s2]… = value from token k (the column);
// false for what is not such an assignment.
func (p *pass) subscriptedTarget(k int) (t subscriptTarget, ok bool) {
	name, ok := p.identifier(k)
	if !ok {
		return t, false
	}
	t.column, t.name = name, k
	arr, j, ok := p.readSubscripts(k + 1)
	if !ok {
		return t, false
	}
	t.arr = arr
	if !anySlice(arr) {
		for b := k + 1; b < j; b = p.matchForward(b) + 1 {
			t.subs = append(t.subs, [2]int{b + 1, p.matchForward(b) - 1})
		}
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
	cols := p.tableColumns(p.nameParts(start, end))
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

// tableColumns is Session.TableColumns, asked once per table in a
// statement.
func (p *pass) tableColumns(parts []string) []TableColumn {
	key := strings.Join(parts, "\x00")
	if cols, ok := p.tables[key]; ok {
		return cols
	}
	if p.tables == nil {
		p.tables = map[string][]TableColumn{}
	}
	cols := p.sess.TableColumns(parts)
	p.tables[key] = cols
	return cols
}

// insertTarget reads INSERT INTO name [AS alias] at the start of the
// statement: the token after the name, and the token after the alias (the
// same when there is none); nameEnd is -1 for another statement.
func (p *pass) insertTarget() (nameEnd, next int) {
	if !p.isWord(0, "insert") || !p.isWord(1, "into") {
		return -1, -1
	}
	if nameEnd = p.nameEnd(2); nameEnd < 0 {
		return -1, -1
	}
	next = nameEnd
	if p.isWord(next, "as") {
		next += 2
	}
	return nameEnd, next
}
