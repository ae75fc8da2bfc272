package pgcompat

import (
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// insertIndirection: INSERT INTO t (f2[1], f2[2], f3.if1, f4[1].if2[1])
// <rows>, PostgreSQL's assignment to array elements and composite fields
// of the new row. Each column starts from NULL (PostgreSQL's INSERT does
// not start from the default); the assignments to one column build its
// value together. DuckDB refuses a column named twice in the list and
// knows no field targets, so the statement becomes
//
//	INSERT INTO t (f2, f3, …) SELECT CAST([c1, c2] AS INTEGER[]),
//	    CAST(struct_pack(if1 := …, if2 := …) AS STRUCT(…)), …
//	FROM (<rows>) AS __vsql_insert(c1, c2, …)
//
// with the column types from Session.TableColumns: an array's elements
// from 1 up to the highest subscript assigned (NULL between), a
// composite's fields in its type's order (NULL when not assigned). A
// string literal of a VALUES row or of a simple SELECT list is read as
// the assigned element's or field's type (PostgreSQL's input: '{a,b}'
// for a text[] field). The rule applies only when a column is assigned
// through a field, or more than once; one subscripted target per
// column is insertValues' (assigned.go). Forms it cannot write as
// PostgreSQL reads them are refused: a subscript other than an integer
// constant (a slice, an expression), an array that would not start at
// 1, DEFAULT in the rows (PostgreSQL's own 0A000 when it is assigned to
// an element or field).
func insertIndirection(p *pass, i int) {
	if i != 0 || p.sess.TableColumns == nil {
		return
	}
	nameEnd, j := p.insertTarget()
	if nameEnd < 0 {
		return
	}
	if p.kind(j) != sqltext.Open {
		return
	}
	listEnd := p.matchForward(j)
	if listEnd < 0 {
		return
	}
	// a cheap look first: a field (.) or a subscript in the list
	indirect := false
	for k := j + 1; k < listEnd; k++ {
		if p.isOp(k, ".") || p.isOp(k, "[") {
			indirect = true
			break
		}
	}
	if !indirect {
		return
	}
	targets, ok := p.insertTargets(j+1, listEnd)
	if !ok {
		return // not a list of names and indirections: left to DuckDB
	}
	// only a field, or a column assigned more than once
	count := map[string]int{}
	field := false
	for _, t := range targets {
		count[t.base]++
		for _, s := range t.steps {
			field = field || s.field != ""
		}
	}
	repeated := false
	for _, t := range targets {
		repeated = repeated || count[t.base] > 1 && len(t.steps) > 0
	}
	if !field && !repeated {
		return
	}
	if p.err != nil {
		return
	}
	table := strings.Join(p.nameParts(2, nameEnd), ".")
	fail := func(err error) { p.err = err }
	for _, t := range targets {
		if t.bad != "" {
			fail(vsqlerr.New(vsqlerr.FeatureNotSupported, "INSERT into %s is not supported", t.bad).
				WithHint("Assign to array elements by integer constants (f[1], f[2]) and to composite fields by name (f.a); or assign the whole column (ARRAY[…], ROW(…))."))
			return
		}
	}
	cols := p.tableColumns(p.nameParts(2, nameEnd))
	if len(cols) == 0 {
		return // no such table: DuckDB's error
	}
	typeOf, nameOf := map[string]string{}, map[string]string{}
	for _, c := range cols {
		typeOf[strings.ToLower(c.Name)] = c.Type
		nameOf[strings.ToLower(c.Name)] = c.Name
	}
	// the columns in the order of their first target, each a tree
	var bases []string
	trees := map[string]*assignNode{}
	leafTypes := make([]string, len(targets))
	for n, t := range targets {
		typ, ok := typeOf[strings.ToLower(t.base)]
		if !ok {
			fail(vsqlerr.New(vsqlerr.UndefinedColumn, "column %q of relation %q does not exist", t.base, table))
			return
		}
		root := trees[t.base]
		if root == nil {
			root = &assignNode{leaf: -1}
			trees[t.base] = root
			bases = append(bases, t.base)
		}
		node, leafType, err := root.place(t, typ)
		if err != nil {
			fail(err)
			return
		}
		node.leaf = n
		leafTypes[n] = leafType
	}
	for _, b := range bases {
		if err := trees[b].startsAtOne(); err != nil {
			fail(err)
			return
		}
	}
	// the rows: from after the list (and OVERRIDING … VALUE) to ON
	// CONFLICT, RETURNING or the statement's end
	src := listEnd + 1
	if p.isWord(src, "overriding") {
		src += 3
	}
	if src >= len(p.toks) || p.isWord(src, "default") {
		return
	}
	srcEnd := src
	for ; srcEnd < len(p.toks); srcEnd++ {
		if p.kind(srcEnd) == sqltext.Open {
			if srcEnd = p.matchForward(srcEnd); srcEnd < 0 {
				return
			}
			continue
		}
		if p.kind(srcEnd) == sqltext.Semi || p.isWord(srcEnd, "returning") || p.isWord(srcEnd, "on") && p.isWord(srcEnd+1, "conflict") {
			break
		}
	}
	if srcEnd == src {
		return
	}
	if p.isWord(src, "values") {
		if err := p.indirectionValues(src+1, srcEnd, targets, leafTypes); err != nil {
			fail(err)
			return
		}
	} else if p.isWord(src, "select") {
		p.indirectionSelectList(src+1, srcEnd, targets, leafTypes)
	}
	exprs := make([]string, len(bases))
	for n, b := range bases {
		exprs[n] = trees[b].expr(typeOf[strings.ToLower(b)])
	}
	names := make([]string, len(bases))
	for n, b := range bases {
		names[n] = sqltext.QuoteIdent(nameOf[strings.ToLower(b)])
	}
	aliases := make([]string, len(targets))
	for n := range targets {
		aliases[n] = "c" + strconv.Itoa(n+1)
	}
	listStart, listStop := p.toks[j+1].Start, p.toks[listEnd-1].End
	p.deferred = append(p.deferred, func() {
		// the list is written anew: what other rules did inside it goes
		kept := p.edits[:0]
		for _, e := range p.edits {
			if e.start >= listStart && e.end <= listStop {
				continue
			}
			kept = append(kept, e)
		}
		p.edits = kept
		p.replace(listStart, listStop, strings.Join(names, ", "))
		p.open(p.toks[src].Start, "SELECT "+strings.Join(exprs, ", ")+" FROM (")
		p.insert(p.toks[srcEnd-1].End, ") AS __vsql_insert("+strings.Join(aliases, ", ")+")")
	})
}

// insertTarget is one item of an INSERT's column list: the column and
// the subscripts and fields after it.
type insertTarget struct {
	base  string // unquoted
	steps []assignStep
	bad   string // a form the rewrite cannot write (its text), or ""
}

// assignStep is a subscript (index > 0) or a field (field != "").
type assignStep struct {
	index int
	field string // unquoted
}

// insertTargets reads the column list between tokens from and to
// (exclusive); ok is false when an item is not a name with subscripts
// and fields.
func (p *pass) insertTargets(from, to int) ([]insertTarget, bool) {
	var out []insertTarget
	for k := from; k < to; {
		if p.kind(k) != sqltext.Word && p.kind(k) != sqltext.Quoted {
			return nil, false
		}
		t := insertTarget{base: sqltext.UnquoteIdent(p.text(k))}
		start := k
		k++
		for k < to && !p.isOp(k, ",") {
			switch {
			case p.isOp(k, "."):
				if p.kind(k+1) != sqltext.Word && p.kind(k+1) != sqltext.Quoted {
					return nil, false
				}
				t.steps = append(t.steps, assignStep{field: sqltext.UnquoteIdent(p.text(k + 1))})
				k += 2
			case p.isOp(k, "["):
				end := p.matchForward(k)
				if end < 0 || end > to {
					return nil, false
				}
				n, err := strconv.Atoi(p.text(k + 1))
				if end != k+2 || p.kind(k+1) != sqltext.Number || err != nil {
					t.bad = p.src[p.toks[start].Start:p.toks[end].End]
				}
				t.steps = append(t.steps, assignStep{index: n})
				k = end + 1
			default:
				return nil, false
			}
		}
		if t.bad == "" {
			for _, s := range t.steps {
				if s.field == "" && s.index < 1 {
					t.bad = p.src[p.toks[start].Start:p.toks[k-1].End]
				}
			}
		}
		out = append(out, t)
		k++ // the comma
	}
	return out, len(out) > 0
}

// assignNode is a column's value being built: a leaf (the source column
// leaf), or elements by subscript, or fields by name.
type assignNode struct {
	leaf   int
	elems  map[int]*assignNode
	fields map[string]*assignNode
	typ    string // its DuckDB type
}

// place finds (making it) the node target t assigns, given the column's
// type; leafType is the type of the assigned element or field.
func (root *assignNode) place(t insertTarget, typ string) (node *assignNode, leafType string, err error) {
	node = root
	node.typ = typ
	if len(t.steps) == 0 && (node.elems != nil || node.fields != nil) || len(t.steps) > 0 && node.leaf >= 0 {
		return nil, "", vsqlerr.New(vsqlerr.DuplicateColumn, "column %q specified more than once", t.base).
			WithHint("Assign a column either whole or through its elements and fields, not both.")
	}
	for _, s := range t.steps {
		if node.leaf >= 0 {
			return nil, "", vsqlerr.New(vsqlerr.DuplicateColumn, "column %q specified more than once", t.base).
				WithHint("Assign a column either whole or through its elements and fields, not both.")
		}
		if s.field != "" {
			fields := structFields(node.typ)
			if fields == nil || node.elems != nil {
				return nil, "", vsqlerr.New(vsqlerr.DatatypeMismatch, "cannot assign to field %q of column %q because its type %s is not a composite type", s.field, t.base, node.typ).
					WithHint("Assign fields only of a composite-typed column (CREATE TYPE … AS (…)).")
			}
			ftyp := ""
			for _, f := range fields {
				if f.name == s.field {
					ftyp = f.typ
				}
			}
			if ftyp == "" {
				return nil, "", vsqlerr.New(vsqlerr.UndefinedColumn, "cannot assign to field %q of column %q because there is no such column in data type %s", s.field, t.base, node.typ)
			}
			if node.fields == nil {
				node.fields = map[string]*assignNode{}
			}
			next := node.fields[s.field]
			if next == nil {
				next = &assignNode{leaf: -1, typ: ftyp}
				node.fields[s.field] = next
			}
			node = next
			continue
		}
		elem, ok := strings.CutSuffix(node.typ, "[]")
		if !ok || node.fields != nil {
			return nil, "", vsqlerr.New(vsqlerr.DatatypeMismatch, "cannot subscript type %s because it does not support subscripting", node.typ).
				WithHint("Subscript only an array-typed column or field.")
		}
		if s.index > maxAssignedIndex {
			return nil, "", vsqlerr.New(vsqlerr.FeatureNotSupported, "INSERT into array element %d is not supported", s.index).
				WithHint("Assign array elements up to %d by subscript, or the whole array.", maxAssignedIndex)
		}
		if node.elems == nil {
			node.elems = map[int]*assignNode{}
		}
		next := node.elems[s.index]
		if next == nil {
			next = &assignNode{leaf: -1, typ: elem}
			node.elems[s.index] = next
		}
		node = next
	}
	if len(t.steps) > 0 && (node.elems != nil || node.fields != nil) {
		return nil, "", vsqlerr.New(vsqlerr.DuplicateColumn, "column %q specified more than once", t.base).
			WithHint("Assign an element or field either whole or through its own elements and fields, not both.")
	}
	return node, node.typ, nil
}

// startsAtOne refuses an array built from NULL whose lowest assigned
// subscript is above 1: PostgreSQL's array then starts there
// ([2:2]={x}), and vsql arrays start at 1.
func (n *assignNode) startsAtOne() error {
	if n.elems != nil {
		low := 0
		for k := range n.elems {
			if low == 0 || k < low {
				low = k
			}
		}
		if low > 1 {
			return vsqlerr.New(vsqlerr.FeatureNotSupported, "array subscript %d in assignment: vsql arrays start at 1, so an element below 1, or past 1 of an empty or NULL array, cannot be set", low).
				WithHint("Assign element 1 too (NULL if it has no value), or assign the whole array.")
		}
	}
	for _, e := range n.elems {
		if err := e.startsAtOne(); err != nil {
			return err
		}
	}
	for _, f := range n.fields {
		if err := f.startsAtOne(); err != nil {
			return err
		}
	}
	return nil
}

// maxAssignedIndex bounds the subscripts an INSERT assigns (the array
// is written out element by element).
const maxAssignedIndex = 10000

// expr writes the node's value as DuckDB SQL (typ: its type).
func (n *assignNode) expr(typ string) string {
	switch {
	case n.leaf >= 0:
		return "CAST(__vsql_insert.c" + strconv.Itoa(n.leaf+1) + " AS " + typ + ")"
	case n.elems != nil:
		elem := strings.TrimSuffix(typ, "[]")
		last := 0
		for k := range n.elems {
			last = max(last, k)
		}
		parts := make([]string, last)
		for k := 1; k <= last; k++ {
			if e := n.elems[k]; e != nil {
				parts[k-1] = e.expr(elem)
			} else {
				parts[k-1] = "CAST(NULL AS " + elem + ")"
			}
		}
		return "CAST([" + strings.Join(parts, ", ") + "] AS " + typ + ")"
	case n.fields != nil:
		fields := structFields(typ)
		parts := make([]string, len(fields))
		for k, f := range fields {
			v := "CAST(NULL AS " + f.typ + ")"
			if e := n.fields[f.name]; e != nil {
				v = e.expr(f.typ)
			}
			parts[k] = sqltext.QuoteIdent(f.name) + " := " + v
		}
		return "CAST(struct_pack(" + strings.Join(parts, ", ") + ") AS " + typ + ")"
	}
	return "CAST(NULL AS " + typ + ")"
}

// indirectionValues checks the VALUES rows between tokens from and to of
// an insertIndirection (DEFAULT is refused, as PostgreSQL refuses it in
// an element or field) and reads their plain string literals as their
// targets' types.
func (p *pass) indirectionValues(from, to int, targets []insertTarget, leafTypes []string) error {
	for open := from; open < to && p.kind(open) == sqltext.Open; {
		end := p.matchForward(open)
		if end < 0 || end > to {
			return nil
		}
		n, start := 0, open+1
		for k := open + 1; k <= end; k++ {
			switch {
			case k == end || p.isOp(k, ","):
				if n < len(targets) && k == start+1 {
					if p.isWord(start, "default") {
						return defaultInIndirection(targets[n])
					}
					if p.plainString(start) {
						if to := assignedType(leafTypes[n]); to.kind != litNone && !p.edited(p.toks[start].Start, p.toks[start].End) {
							p.readLiteral(start, to, -1, -1)
						}
					}
				}
				n++
				start = k + 1
			case p.kind(k) == sqltext.Open || p.isOp(k, "["):
				if k = p.matchForward(k); k < 0 {
					return nil
				}
			}
		}
		if n != len(targets) {
			if n > len(targets) {
				return vsqlerr.New(vsqlerr.SyntaxError, "INSERT has more expressions than target columns")
			}
			return vsqlerr.New(vsqlerr.SyntaxError, "INSERT has more target columns than expressions")
		}
		if !p.isOp(end+1, ",") {
			break
		}
		open = end + 2
	}
	return nil
}

// defaultInIndirection is PostgreSQL's refusal of DEFAULT assigned to an
// element or a field (or, here, to a column of such an INSERT).
func defaultInIndirection(t insertTarget) error {
	hint := "Leave the element or field out of the column list (it stays NULL), or assign the whole column."
	switch {
	case len(t.steps) == 0:
		return vsqlerr.New(vsqlerr.FeatureNotSupported, "DEFAULT in an INSERT that assigns array elements or composite fields is not supported").
			WithHint("Leave the column out of the list (it takes its default), or insert in two statements.")
	case t.steps[0].field != "":
		return vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot set a subfield to DEFAULT").WithHint("%s", hint)
	}
	return vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot set an array element to DEFAULT").WithHint("%s", hint)
}

// indirectionSelectList reads the plain string literals that are whole
// items of the SELECT list starting at token from (up to FROM or the
// rows' end, to) as their targets' types, as PostgreSQL reads an
// untyped literal assigned to an element or field.
func (p *pass) indirectionSelectList(from, to int, targets []insertTarget, leafTypes []string) {
	if p.isWord(from, "distinct") || p.isWord(from, "all") {
		return
	}
	n, start := 0, from
	for k := from; k <= to; k++ {
		switch {
		case k == to || p.isOp(k, ",") || p.kind(k) == sqltext.Word && selectListEnd[strings.ToLower(p.text(k))]:
			if n < len(targets) && k == start+1 && p.plainString(start) {
				if to := assignedType(leafTypes[n]); to.kind != litNone && !p.edited(p.toks[start].Start, p.toks[start].End) {
					p.readLiteral(start, to, -1, -1)
				}
			}
			if !p.isOp(k, ",") {
				return
			}
			n++
			start = k + 1
		case p.kind(k) == sqltext.Open || p.isOp(k, "["):
			if k = p.matchForward(k); k < 0 {
				return
			}
		}
	}
}

// selectListEnd are the words that end a select list.
var selectListEnd = map[string]bool{"from": true, "where": true, "group": true, "having": true, "window": true,
	"order": true, "limit": true, "offset": true, "fetch": true, "union": true, "intersect": true, "except": true}
