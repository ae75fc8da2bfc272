package pgcompat

import (
	"fmt"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// Subscripted assignment to an array column: UPDATE t SET a[2] = v,
// a[1:2] = '{16,25}', b[1:1][1:2][2:2] = '{142,147}', a[3:] = …, a[:] = …
// and INSERT INTO t (a[1:5], b[2]) VALUES (…). DuckDB's parser refuses
// all of them; PostgreSQL's array_set_element and array_set_slice define
// them. Each becomes the column set to a macro of its old value (NULL for
// an INSERT, as in PostgreSQL), the subscripts and the new value:
//
//	a[i] = v                 pg_array_assign(a, i, CAST(v AS elem))
//	b[i][j] = v              pg_array_set_elem2(b, i, j, CAST(v AS elem))
//	a[l:h] = s, b[l:h][l:]…  pg_array_set_sliceD(a, n, l1, h1, lg1, hg1, …, s)
//
// where D is the column's number of dimensions (DuckDB's list type fixes
// it), n the number of subscripts, lgk and hgk whether the bounds of
// dimension k were written, and s the source array read serially, as
// PostgreSQL reads it: a string literal is read by the array input here
// and flattened, an expression flattened by flatten() (as deep as an
// ARRAY[…] constructor visibly is, otherwise as deep as the column). Once
// any subscript is a slice, a subscript [k] is [1:k], as in PostgreSQL.
// Several assignments to one column nest (b = f2(f1(b, …), …)), in their
// order.
//
// What PostgreSQL answers is answered alike: a NULL subscript is 22004;
// a one-dimensional array is extended with NULLs past its end; a NULL
// source leaves a slice as it was (a NULL array becomes an empty one,
// as PostgreSQL makes it before assigning); "source array too small", "upper
// bound cannot be less than lower bound", "array subscript out of range"
// (multidimensional arrays are not extended), "wrong number of array
// subscripts" and "array slice subscript must provide both boundaries"
// (a slice of an empty or NULL array) are 2202E. What would give the
// array a lower bound other than 1 — an element or slice below 1 of a
// one-dimensional array, or of an empty one anywhere but from 1 — is
// feature_not_supported: vsql arrays (DuckDB lists) start at 1. So is an
// assignment that would give an empty array another number of
// dimensions than the column's type fixes.

// arraySubscript is one [lower:upper] or [index] of an assignment target:
// the source text of its bounds ("" for a bound left out).
type arraySubscript struct {
	lower, upper string
	slice        bool
}

// readSubscripts reads the subscripts [s1][s2]… starting at token j (a
// "["); end is the token after the last "]".
func (p *pass) readSubscripts(j int) (subs []arraySubscript, end int, ok bool) {
	for p.isOp(j, "[") {
		close := p.matchForward(j)
		if close < 0 || close == j+1 {
			return nil, 0, false
		}
		colon := -1
		depth := 0
		for m := j + 1; m < close; m++ {
			switch {
			case p.kind(m) == sqltext.Open || p.isOp(m, "["):
				depth++
			case p.kind(m) == sqltext.Close || p.isOp(m, "]"):
				depth--
			case depth == 0 && p.isOp(m, ":") && !(p.isOp(m+1, ":") && p.adjacent(m)) && !(p.isOp(m-1, ":") && p.adjacent(m-1)):
				if colon >= 0 {
					return nil, 0, false
				}
				colon = m
			}
		}
		text := func(from, to int) string { // tokens from…to-1
			if from >= to {
				return ""
			}
			return p.src[p.toks[from].Start:p.toks[to-1].End]
		}
		if colon < 0 {
			subs = append(subs, arraySubscript{upper: text(j+1, close)})
		} else {
			subs = append(subs, arraySubscript{lower: text(j+1, colon), upper: text(colon+1, close), slice: true})
		}
		j = close + 1
	}
	return subs, j, len(subs) > 0
}

// arrayColumnType splits a DuckDB list type (INTEGER[][]) into its
// element type and its number of dimensions; false for another type.
func arrayColumnType(typ string) (elem string, dims int, ok bool) {
	for strings.HasSuffix(typ, "[]") {
		typ = typ[:len(typ)-2]
		dims++
	}
	return typ, dims, dims > 0 && !strings.HasSuffix(typ, "]")
}

// arrayAssign is how an assignment to subscripts of an array column is
// written: fn, then the array's current value, then args, the value and
// close; value, when set, replaces the value's text.
type arrayAssign struct {
	fn, args, close, value string
	replace                bool
}

// arrayAssignment writes the assignment of the value (tokens
// valueFrom…valueTo) to the subscripts subs of an array column of DuckDB
// type typ; false for a column that is no array.
func (p *pass) arrayAssignment(typ string, subs []arraySubscript, valueFrom, valueTo int) (arrayAssign, bool) {
	elem, dims, ok := arrayColumnType(typ)
	if !ok {
		return arrayAssign{}, false
	}
	n := len(subs)
	if !anySlice(subs) {
		idx := make([]string, n)
		for k, s := range subs {
			idx[k] = s.upper
		}
		var a arrayAssign
		switch {
		case n == 1 && dims == 1:
			a.fn = schema + ".pg_array_assign("
		case n == dims && n <= maxArrayDims:
			a.fn = fmt.Sprintf("%s.pg_array_set_elem%d(", schema, dims)
		default:
			return wrongSubscripts(subs, dims, elem), true
		}
		a.args, a.close = ", "+strings.Join(idx, ", ")+", CAST(", " AS "+elem+"))"
		if valueFrom == valueTo && p.plainString(valueFrom) && !p.edited(p.toks[valueFrom].Start, p.toks[valueFrom].End) {
			if to := assignedType(elem); to.kind != litNone {
				p.readLiteral(valueFrom, to, -1, -1)
			}
		}
		return a, true
	}
	var a arrayAssign
	if n > dims || dims > maxArrayDims {
		a = wrongSubscripts(subs, dims, elem)
		a.args, a.close = strings.TrimSuffix(a.args, "CAST("), ")" // the source as below
	} else {
		args := []string{fmt.Sprint(n)}
		for k := 0; k < dims; k++ {
			if k >= n {
				args = append(args, "NULL", "NULL", "false", "false")
				continue
			}
			s := subs[k]
			lower, upper := s.lower, s.upper
			if !s.slice {
				lower = "1" // [k] among slices is [1:k]
			}
			lg, hg := lower != "", upper != ""
			if !lg {
				lower = "NULL"
			}
			if !hg {
				upper = "NULL"
			}
			args = append(args, lower, upper, fmt.Sprint(lg), fmt.Sprint(hg))
		}
		a = arrayAssign{fn: fmt.Sprintf("%s.pg_array_set_slice%d(", schema, dims), args: ", " + strings.Join(args, ", ") + ", ", close: ")"}
	}
	switch {
	case valueFrom == valueTo && p.plainString(valueFrom):
		// the source array's elements, in order, whatever its shape
		var elems []string
		if _, _, ok := pgArray(p.stringText(valueFrom), func(e string, null bool) string {
			if null {
				elems = append(elems, "NULL")
			} else {
				elems = append(elems, sqlString(e))
			}
			return ""
		}); ok {
			a.value, a.replace = "CAST(["+strings.Join(elems, ", ")+"] AS "+elem+"[])", true
		} else {
			a.args += "CAST("
			a.close = " AS " + elem + "[]))"
		}
	case valueFrom == valueTo && p.isWord(valueFrom, "null"):
		a.value, a.replace = "CAST(NULL AS "+elem+"[])", true
	default:
		depth := p.arrayConstructorDepth(valueFrom, valueTo)
		if depth == 0 {
			depth = dims
		}
		a.args += "CAST(" + strings.Repeat("flatten(", depth-1)
		a.close = strings.Repeat(")", depth-1) + " AS " + elem + "[]))"
	}
	return a, true
}

// maxArrayDims is PostgreSQL's MAXDIM.
const maxArrayDims = 6

// arrayConstructorDepth is how deeply tokens from…to nest when they are
// one ARRAY[…] constructor (ARRAY[[1,2],[3,4]] and ARRAY[ARRAY[1]] are 2),
// 0 otherwise.
func (p *pass) arrayConstructorDepth(from, to int) int {
	if !p.isWord(from, "array") || !p.isOp(from+1, "[") || p.matchForward(from+1) != to {
		return 0
	}
	depth := 1
	for j := from + 2; ; depth++ {
		switch {
		case p.isOp(j, "["):
			j++
		case p.isWord(j, "array") && p.isOp(j+1, "["):
			j += 2
		default:
			return depth
		}
	}
}

// wrongSubscripts is an assignment of more or fewer subscripts than the
// column has dimensions (or more than PostgreSQL's six): the macro
// pg_array_wrong_subscripts raises PostgreSQL's error (the value is
// passed along, cast, unused).
func wrongSubscripts(subs []arraySubscript, dims int, elem string) arrayAssign {
	var nulls []string
	for _, s := range subs {
		for _, b := range []string{s.lower, s.upper} {
			if b != "" {
				nulls = append(nulls, "("+b+") IS NULL")
			}
		}
	}
	if len(nulls) == 0 {
		nulls = []string{"false"}
	}
	// the value cast as PostgreSQL types it (an element, or an array for
	// a slice), so that a value of another type fails as it does there
	if anySlice(subs) {
		elem += "[]"
	}
	return arrayAssign{fn: schema + ".pg_array_wrong_subscripts(",
		args:  fmt.Sprintf(", %d, %d, %s, CAST(", len(subs), dims, strings.Join(nulls, " OR ")),
		close: " AS " + elem + "))"}
}

func anySlice(subs []arraySubscript) bool {
	for _, s := range subs {
		if s.slice {
			return true
		}
	}
	return false
}

// arrayAssignMacros are pg_array_set_elemD (D = 2…6) and
// pg_array_set_sliceD (D = 1…6).
func arrayAssignMacros(schema string) []string {
	out := []string{`CREATE OR REPLACE MACRO ` + schema + `.pg_array_wrong_subscripts(a, n, dims, nulls, v) AS CASE
		WHEN nulls THEN error('[vsql:null_value_not_allowed] array subscript in assignment must not be null')
		WHEN n > 6 THEN error('[vsql:program_limit_exceeded] number of array dimensions (' || n || ') exceeds the maximum allowed (6)')
		WHEN a IS NULL OR len(a) = 0 THEN error('[vsql:feature_not_supported] an assignment of ' || n || ' subscripts to an empty array makes an array of ' || n || ' dimensions, which a column of ' || dims || ' cannot hold (a vsql array has the dimensions of its type)')
		WHEN v IS NULL AND false THEN a
		ELSE error('[vsql:array_subscript_error] wrong number of array subscripts') END`}
	nullSubscript := "error('[vsql:null_value_not_allowed] array subscript in assignment must not be null')"
	// dimLen is the length of dimension k (from 1) of a: its first
	// elements' (PostgreSQL's arrays are rectangular)
	dimLen := func(k int) string { return "len(a" + strings.Repeat("[1]", k-1) + ")" }
	x := func(k int) string { return fmt.Sprintf("__vsql_x%d", k) }
	ix := func(k int) string { return fmt.Sprintf("__vsql_k%d", k) }
	for d := 2; d <= maxArrayDims; d++ {
		var params, nulls, ones, outside []string
		for k := 1; k <= d; k++ {
			i := fmt.Sprintf("i%d", k)
			params = append(params, i)
			nulls = append(nulls, i+" IS NULL")
			ones = append(ones, i+" = 1")
			outside = append(outside, fmt.Sprintf("%s < 1 OR %s > %s", i, i, dimLen(k)))
		}
		set := "v"
		for k := d; k >= 1; k-- {
			set = fmt.Sprintf("list_transform(%s, lambda %s, %s: CASE WHEN %s = i%d THEN %s ELSE %s END)",
				map[bool]string{true: "a", false: x(k - 1)}[k == 1], x(k), ix(k), ix(k), k, set, x(k))
		}
		out = append(out, fmt.Sprintf(`CREATE OR REPLACE MACRO %s.pg_array_set_elem%d(a, %s, v) AS CASE
		WHEN %s THEN %s
		WHEN a IS NULL OR len(a) = 0 THEN CASE WHEN %s THEN %s%s%s
			ELSE error('[vsql:feature_not_supported] an element other than the first of an empty array cannot be set: the array would not start at 1, as vsql arrays do') END
		WHEN %s THEN error('[vsql:array_subscript_error] array subscript out of range')
		ELSE %s END`, schema, d, strings.Join(params, ", "), strings.Join(nulls, " OR "), nullSubscript,
			strings.Join(ones, " AND "), strings.Repeat("[", d), "v", strings.Repeat("]", d),
			strings.Join(outside, " OR "), set))
	}
	for d := 1; d <= maxArrayDims; d++ {
		var params, nulls, given, count, lows []string
		lo := func(k int) string { return fmt.Sprintf("coalesce(l%d, 1)", k) }
		hi := func(k int) string { return fmt.Sprintf("coalesce(h%d, %s)", k, dimLen(k)) }
		var checks strings.Builder
		var effCount []string
		for k := 1; k <= d; k++ {
			params = append(params, fmt.Sprintf("l%d, h%d, lg%d, hg%d", k, k, k, k))
			nulls = append(nulls, fmt.Sprintf("(lg%d AND l%d IS NULL) OR (hg%d AND h%d IS NULL)", k, k, k, k))
			given = append(given, fmt.Sprintf("(n < %d OR (lg%d AND hg%d))", k, k, k))
			count = append(count, fmt.Sprintf("(h%d - l%d + 1)", k, k))
			lows = append(lows, fmt.Sprintf("l%d <> 1", k))
			effCount = append(effCount, fmt.Sprintf("(%s - %s + 1)", hi(k), lo(k)))
			fmt.Fprintf(&checks, "\n\t\tWHEN %s > %s THEN error('[vsql:array_subscript_error] upper bound cannot be less than lower bound')", lo(k), hi(k))
			if d == 1 {
				checks.WriteString("\n\t\tWHEN coalesce(l1, 1) < 1 THEN error('[vsql:feature_not_supported] array slice subscript ' || l1 || ' in assignment: vsql arrays start at 1, so a slice cannot extend an array below 1')")
			} else {
				fmt.Fprintf(&checks, "\n\t\tWHEN %s < 1 OR %s > %s THEN error('[vsql:array_subscript_error] array subscript out of range')", lo(k), hi(k), dimLen(k))
			}
		}
		// an empty array's new value: s's first elements in the shape
		// h1 × h2 × … (every lower bound 1)
		idx := "0"
		for k := 1; k <= d; k++ {
			idx = fmt.Sprintf("(%s) * h%d + %s - 1", idx, k, ix(k))
		}
		build := "s[" + idx + " + 1]"
		for k := d; k >= 1; k-- {
			build = fmt.Sprintf("[%s FOR %s IN range(1, h%d + 1)]", build, ix(k), k)
		}
		// a non-empty array's: s's elements in the slice, in order
		var set string
		if d == 1 {
			set = "list_concat(list_concat(list_resize(a, coalesce(l1, 1) - 1), s[1:" + effCount[0] + "]), list_slice(a, " + hi(1) + " + 1, len(a)))"
		} else {
			off := "0"
			for k := 1; k <= d; k++ {
				off = fmt.Sprintf("(%s) * %s + %s - %s", off, effCount[k-1], ix(k), lo(k))
			}
			set = "s[" + off + " + 1]"
			for k := d; k >= 1; k-- {
				set = fmt.Sprintf("list_transform(%s, lambda %s, %s: CASE WHEN %s BETWEEN %s AND %s THEN %s ELSE %s END)",
					map[bool]string{true: "a", false: x(k - 1)}[k == 1], x(k), ix(k), ix(k), lo(k), hi(k), set, x(k))
			}
		}
		out = append(out, fmt.Sprintf(`CREATE OR REPLACE MACRO %s.pg_array_set_slice%d(a, n, %s, s) AS CASE
		WHEN %s THEN %s
		WHEN s IS NULL THEN coalesce(a, [])
		WHEN a IS NULL OR len(a) = 0 THEN CASE
			WHEN NOT (%s) THEN error('[vsql:array_subscript_error] array slice subscript must provide both boundaries')
			WHEN %s THEN error('[vsql:program_limit_exceeded] array size exceeds the maximum allowed (134217727)')
			WHEN len(s) < %s THEN error('[vsql:array_subscript_error] source array too small')
			WHEN %s = 0 THEN coalesce(a, [])[1:0]
			WHEN n < %d THEN error('[vsql:feature_not_supported] an assignment of ' || n || ' subscripts to an empty array makes an array of ' || n || ' dimensions, which a column of %d cannot hold (a vsql array has the dimensions of its type)')
			WHEN %s THEN error('[vsql:feature_not_supported] a slice of an empty array that does not start at 1 cannot be assigned: vsql arrays start at 1')
			ELSE %s END%s
		WHEN len(s) < %s THEN error('[vsql:array_subscript_error] source array too small')
		ELSE %s END`, schema, d, strings.Join(params, ", "),
			strings.Join(nulls, " OR "), nullSubscript,
			strings.Join(given, " AND "),
			strings.Join(func() []string {
				var c []string
				for k := 1; k <= d; k++ {
					c = append(c, fmt.Sprintf("h%d < l%d - 1", k, k))
				}
				return c
			}(), " OR "),
			strings.Join(count, " * "), strings.Join(count, " * "), d, d, strings.Join(lows, " OR "), build,
			checks.String(), strings.Join(effCount, " * "), set))
	}
	return out
}

// subscriptChain: x[l1:h1][l2:h2]… (token i is the first "["), two or more
// subscripts of which one is a slice, is PostgreSQL's slice of each
// dimension in turn (a subscript [k] among slices is [1:k]), where DuckDB
// would slice the outer list again and again. It becomes
// pg_array_sliceN(x, l1, h1, …): each bound clamped to the array's
// (array_get_slice), a dimension left out whole, an empty range anywhere
// an empty array, a NULL bound NULL. Seven or more subscripts of an array
// that is visibly one ((…)::int[], ARRAY[…]) are PostgreSQL's 54000. A
// single slice x[l:h] is DuckDB's own.
func subscriptChain(p *pass, i int) {
	if arraySize(p, i) {
		return
	}
	if p.kind(i-1) != sqltext.Word && p.kind(i-1) != sqltext.Quoted && p.kind(i-1) != sqltext.Close || p.isWord(i-1, "array") {
		return
	}
	if first := p.matchForward(i); first < 0 || !p.isOp(first+1, "[") {
		return
	}
	subs, end, ok := p.readSubscripts(i)
	if !ok || len(subs) < 2 {
		return
	}
	start := p.operandStart(i - 1)
	if start < 0 || p.edited(p.toks[i].Start, p.toks[end-1].End) {
		return
	}
	if len(subs) > maxArrayDims {
		if p.kind(i-1) == sqltext.Close && p.isOp(i-2, "]") { // (…::int[]), (ARRAY[…])
			p.replace(p.toks[start].Start, p.toks[end-1].End, fmt.Sprintf("error('[vsql:program_limit_exceeded] number of array dimensions (%d) exceeds the maximum allowed (%d)')", len(subs), maxArrayDims))
		}
		return
	}
	if !anySlice(subs) || p.assignmentTarget(start, end) {
		return
	}
	var args []string
	for _, s := range subs {
		lower, upper := s.lower, s.upper
		switch {
		case !s.slice:
			lower = "1"
		case lower == "":
			lower = "1"
		}
		if upper == "" {
			upper = "2147483647"
		}
		args = append(args, lower, upper)
	}
	p.insert(p.toks[start].Start, fmt.Sprintf("%s.pg_array_slice%d(", schema, len(subs)))
	p.replace(p.toks[i].Start, p.toks[end-1].End, ", "+strings.Join(args, ", ")+")")
}

// assignmentTarget reports whether tokens start…end-1 are the target of
// an assignment: c[…] = of an UPDATE's SET list, or c[…] of an INSERT's
// column list (arrayassign.go writes both).
func (p *pass) assignmentTarget(start, end int) bool {
	switch {
	case p.isOp(end, "=") && !(p.adjacent(end) && p.kind(end+1) == sqltext.Op):
		return p.isWord(start-1, "set") || p.isOp(start-1, ",")
	case p.isOp(end, ",") || p.kind(end) == sqltext.Close:
		// INSERT INTO t [AS a] (…, c[…], …)
		if !(p.kind(start-1) == sqltext.Open || p.isOp(start-1, ",")) {
			return false
		}
		_, list := p.insertTarget()
		return list > 0 && p.enclosing(start) == list
	}
	return false
}

// arraySliceMacros are pg_array_slice2 … pg_array_slice6.
func arraySliceMacros(schema string) []string {
	var out []string
	dimLen := func(k int) string { return "len(a" + strings.Repeat("[1]", k-1) + ")" }
	for n := 2; n <= maxArrayDims; n++ {
		var params, nulls, empty []string
		for k := 1; k <= n; k++ {
			params = append(params, fmt.Sprintf("l%d, h%d", k, k))
			nulls = append(nulls, fmt.Sprintf("l%d IS NULL OR h%d IS NULL", k, k))
			empty = append(empty, fmt.Sprintf("greatest(l%d, 1) > least(h%d, %s)", k, k, dimLen(k)))
		}
		body := fmt.Sprintf("x%d[greatest(l%d, 1):least(h%d, %s)]", n-1, n, n, dimLen(n))
		for k := n - 1; k >= 1; k-- {
			list := fmt.Sprintf("x%d[greatest(l%d, 1):least(h%d, %s)]", k-1, k, k, dimLen(k))
			body = fmt.Sprintf("list_transform(%s, lambda x%d: %s)", list, k, body)
		}
		body = strings.ReplaceAll(body, "x0[", "a[")
		body = strings.NewReplacer("lambda x", "lambda __vsql_x", "(x", "(__vsql_x", " x", " __vsql_x").Replace(body)
		out = append(out, fmt.Sprintf(`CREATE OR REPLACE MACRO %s.pg_array_slice%d(a, %s) AS CASE
		WHEN %s THEN NULL
		WHEN %s THEN a[1:0]
		ELSE %s END`, schema, n, strings.Join(params, ", "), strings.Join(nulls, " OR "), strings.Join(empty, " OR "), body))
	}
	return out
}

// arraySize: int[4] and integer ARRAY[4] as a type (a column's, a cast's)
// are int[] (token i is the "["): PostgreSQL ignores an array type's size,
// where DuckDB's INTEGER[4] is a fixed-size ARRAY that refuses lists of
// another length. False when token i is no such size.
func arraySize(p *pass, i int) bool {
	if p.kind(i+1) != sqltext.Number || !p.isOp(i+2, "]") {
		return false
	}
	from := i
	w := i - 1
	if p.isWord(w, "array") {
		from = w
		w--
	}
	for p.isOp(w, "]") {
		if w = p.matchBackward(w) - 1; w < 0 {
			return false
		}
	}
	if p.kind(w) == sqltext.Close {
		if w = p.matchBackward(w) - 1; w < 0 {
			return false
		}
	}
	if p.kind(w) != sqltext.Word {
		return false
	}
	for p.kind(w-1) == sqltext.Word && typeWords[strings.ToLower(p.text(w))] {
		w--
	}
	switch {
	case p.isOp(w-1, ":") && p.isOp(w-2, ":") && p.adjacent(w-2):
	case p.isWord(w-1, "as") && from == i && p.castTarget(w):
	case p.isWord(0, "create") && (p.kind(w-1) == sqltext.Word || p.kind(w-1) == sqltext.Quoted) &&
		(p.kind(w-2) == sqltext.Open || p.isOp(w-2, ",")):
	default:
		return false
	}
	p.replace(p.toks[from].Start, p.toks[i+2].End, "[]")
	return true
}
