package pgcompat

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Literals cast to a type whose input PostgreSQL reads more loosely than
// DuckDB's cast: booleans (' f ', 'on', 'yes', 'of') and arrays ('{1,2}',
// '{{1,2},{3,4}}', '{a,"b c",NULL}'). Only a plain string literal being
// cast is rewritten ('…'::type, type '…', CAST('…' AS type)); a column or
// parameter is left to DuckDB.

// colonCast: token i is the first ':' of '…'::type.
func colonCast(p *pass, i int) {
	if !p.isOp(i+1, ":") || !p.adjacent(i) || p.isOp(i-1, ":") || !p.plainString(i-1) {
		return
	}
	start := i + 2
	end := p.typeEnd(start)
	// a chain through text: ' true '::text::boolean
	for end >= 0 && textTypes[strings.ToLower(p.text(start))] && end == start &&
		p.isOp(end+1, ":") && p.isOp(end+2, ":") && p.adjacent(end+1) {
		start = end + 3
		end = p.typeEnd(start)
	}
	if end >= 0 {
		p.castLiteral(i-1, start, end)
	}
}

var textTypes = map[string]bool{"text": true, "varchar": true}

// typedLiteral: bool '…', boolean '…' and date '…' (token i is the type).
func typedLiteral(p *pass, i int) {
	if p.plainString(i+1) && !p.isOp(i-1, ".") && !p.isOp(i-1, ":") && !p.isWord(i-1, "as") {
		p.castLiteral(i+1, i, i)
	}
}

// castCall: CAST('…' AS type).
func castCall(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || !p.plainString(i+2) || !p.isWord(i+3, "as") {
		return
	}
	end := p.typeEnd(i + 4)
	if end >= 0 && p.kind(end+1) == sqltext.Close {
		p.castLiteral(i+2, i+4, end)
	}
}

// stringText is the text of the '…' literal at token i (” read as ').
func (p *pass) stringText(i int) string { return stringValue(p.text(i)) }

// plainString reports whether token i is a '…' literal (not E'…', $$…$$).
func (p *pass) plainString(i int) bool {
	return p.kind(i) == sqltext.String && p.src[p.toks[i].Start] == '\''
}

// castLiteral rewrites the literal at token lit cast to the type of
// tokens start…end.
func (p *pass) castLiteral(lit, start, end int) {
	var to literalType
	switch {
	case p.isOp(end, "]"):
		to.kind = litArray
		for k := start; k <= end; k++ {
			if p.isOp(k, "[") {
				to.dims++
			}
		}
		if p.isWord(start, "interval") {
			to.elem = litInterval // '{1 day, @ 2 hours}'::interval[]
		}
	case start == end && arrayTypeNames[strings.ToLower(p.text(start))]:
		to = literalType{kind: litArray, dims: 1} // '{1,2}'::_int4 (arrayTypeName)
	case start == end && p.isWord(start, "interval"):
		if p.kind(lit+1) == sqltext.Word && !notNames[strings.ToLower(p.text(lit+1))] {
			return // interval '999' second: the SQL standard's field syntax
		}
		to = literalType{kind: litInterval}
	case start == end && p.isWord(start, "date"):
		to = literalType{kind: litDate}
	case start == end && p.isWord(start, "time"),
		end == start+3 && p.isWord(start, "time") && p.isWord(start+1, "without"):
		to = literalType{kind: litTime}
	case start == end && p.isWord(start, "timestamp"),
		end == start+3 && p.isWord(start, "timestamp") && p.isWord(start+1, "without"):
		to = literalType{kind: litTimestamp}
	case start == end && p.isWord(start, "timetz"),
		end == start+3 && p.isWord(start, "time") && p.isWord(start+1, "with"):
		to = literalType{kind: litTimeTZ}
	case start == end && (p.isWord(start, "bool") || p.isWord(start, "boolean")):
		to = literalType{kind: litBool}
	default:
		return
	}
	p.readLiteral(lit, to, start, end)
}

// literalType is a type whose input PostgreSQL reads more loosely than
// DuckDB's cast from text; dims is an array type's number of dimensions.
type literalType struct {
	kind literalKind
	dims int
	// elem: an array's element type, when its input is read here too
	// (interval[])
	elem literalKind
}

type literalKind int

const (
	litNone literalKind = iota
	litArray
	litInterval
	litDate
	litTime
	litTimestamp
	litTimeTZ
	litTimestampTZ
	litBool
)

// readLiteral rewrites the string literal at token lit as PostgreSQL's
// input of type to reads it: cast to the type written by tokens
// start…end, or, when start is -1, assigned to a column of that type
// (assigned.go).
func (p *pass) readLiteral(lit int, to literalType, start, end int) {
	val := p.stringText(lit)
	switch to.kind {
	case litArray:
		list, depth, ok := arrayLiteralList(val)
		if ok && to.elem == litInterval {
			list, depth, ok = pgArray(val, func(e string, null bool) string {
				if null {
					return "NULL"
				}
				switch iv, expr, ok, err := intervalLiteral(e); {
				case err != nil:
					return "error(" + sqlString(err.Error()) + ")"
				case expr != "":
					return expr
				case ok:
					return "'" + iv + "'"
				}
				return sqlString(e)
			})
		}
		if !ok {
			if err := arrayInputError(val); err != nil {
				expr := "error(" + sqlString(err.Error()) + ")"
				if depth := leadingBraces(val); depth > to.dims && start >= 0 && p.toks[start].Start > p.toks[lit].Start {
					// '[0:1][0:1]={{1}}'::int[]: as deep as the literal, for
					// what follows to bind (a subscript of each dimension)
					p.insert(p.toks[end].End, strings.Repeat("[]", depth-to.dims))
				}
				p.literalExpr(lit, start, end, expr)
			}
			return
		}
		p.replace(p.toks[lit].Start, p.toks[lit].End, list)
		// PostgreSQL's int[] holds any number of dimensions, DuckDB's one
		if depth > to.dims && start >= 0 {
			p.insert(p.toks[end].End, strings.Repeat("[]", depth-to.dims))
		}
	case litInterval:
		if redundantIntervalField(val) {
			p.literalExpr(lit, start, end, "error("+sqlString(vsqlerr.New(vsqlerr.InvalidDatetimeInput, "invalid input syntax for type interval: %q", val).Error())+")")
			return
		}
		if first, last := min(lit, start), max(lit, end); start >= 0 && p.intervalAddOrder(first, last, val) {
			return // x + interval '1 month - 1 second', in PostgreSQL's order (intervalorder.go)
		}
		text, expr, ok, err := intervalLiteral(val)
		switch {
		case err != nil:
			p.literalExpr(lit, start, end, "error("+sqlString(err.Error())+")")
		case expr != "":
			p.literalExpr(lit, start, end, expr)
		case ok:
			p.replace(p.toks[lit].Start, p.toks[lit].End, "'"+text+"'")
		}
	case litDate:
		p.datetimeLiteral(lit, start, end, val, pgdatetime.Date)
	case litTime:
		p.datetimeLiteral(lit, start, end, val, pgdatetime.Time)
	case litTimestamp:
		p.datetimeLiteral(lit, start, end, val, pgdatetime.Timestamp)
	case litTimeTZ:
		p.datetimeLiteral(lit, start, end, val, pgdatetime.TimeTZ)
	case litTimestampTZ:
		loc := p.sess.Location
		if loc == nil {
			loc = time.UTC
		}
		if v, err := pgdatetime.Parse(val, pgdatetime.TimestampTZ, pgdatetime.Options{Order: p.sess.Order, Location: loc, Now: time.Now()}); err == nil {
			if expr, ok := specialExpr(pgdatetime.TimestampTZ, v); ok {
				p.literalExpr(lit, start, end, expr)
				return
			}
			if y := time.UnixMicro(v.Micros).UTC().Year(); v.Special == pgdatetime.None && (y < 1 || y > 9999) {
				// BC, or a year of five digits: DuckDB's cast reads neither
				us := strconv.FormatInt(v.Micros, 10)
				if v.HasZone {
					p.literalExpr(lit, start, end, "timezone('UTC', make_timestamp("+us+"))")
				} else {
					p.literalExpr(lit, start, end, "CAST(make_timestamp("+us+") AS TIMESTAMPTZ)")
				}
				return
			}
			if v.Special == pgdatetime.None {
				// the instant PostgreSQL read (DateStyle's field order, zone
				// names, AM/PM), in the form DuckDB's cast reads exactly
				p.replace(p.toks[lit].Start, p.toks[lit].End, "'"+time.UnixMicro(v.Micros).UTC().Format("2006-01-02 15:04:05.999999")+"+00'")
				return
			}
		}
		if fixed, ok := fixOffset(val); ok {
			p.replace(p.toks[lit].Start, p.toks[lit].End, sqlString(fixed))
		} else if iso, ok := timestamptzISO(val); ok && iso != val {
			p.replace(p.toks[lit].Start, p.toks[lit].End, sqlString(iso))
		}
	case litBool:
		if b, ok := parseBool(val); ok && val != b {
			p.replace(p.toks[lit].Start, p.toks[lit].End, "'"+b+"'")
		}
	}
}

// datetimeLiteral reads the literal val at token lit, typed date,
// timestamp or time (tokens start…end), as PostgreSQL's input in the
// session's DateStyle and TimeZone, and writes it in ISO form; the words
// today, tomorrow, yesterday and now become current_date (± 1) and the
// session's local time, and text PostgreSQL refuses becomes its error.
// (The engine's cast from text reads PostgreSQL's input too, but sees no
// session: casts.go.)
func (p *pass) datetimeLiteral(lit, start, end int, val string, kind pgdatetime.Kind) {
	loc := p.sess.Location
	if loc == nil {
		loc = time.UTC
	}
	v, err := pgdatetime.Parse(val, kind, pgdatetime.Options{Order: p.sess.Order, Location: loc, Now: time.Now().In(loc)})
	if err != nil {
		p.literalExpr(lit, start, end, "error("+sqlString(datetimeError(err).Error())+")")
		return
	}
	if expr, ok := specialExpr(kind, v); ok {
		p.literalExpr(lit, start, end, expr)
		return
	}
	var iso string
	switch {
	case v.Special == pgdatetime.Now || v.Special == pgdatetime.Infinity || v.Special == pgdatetime.NegInfinity:
		return // the cast reads them
	case kind == pgdatetime.Date:
		t := time.Unix(int64(v.Days)*86400, 0).UTC()
		if t.Year() < 1 || t.Year() > 9999 {
			return
		}
		iso = t.Format("2006-01-02")
	case kind == pgdatetime.Time || kind == pgdatetime.TimeTZ:
		if v.Micros >= usecsPerDay {
			return // 24:00:00: the cast keeps it
		}
		iso = time.UnixMicro(v.Micros).UTC().Format("15:04:05.999999")
		if kind == pgdatetime.TimeTZ {
			iso += offsetText(v.Offset, false)
		}
	default:
		t := time.UnixMicro(v.Micros).UTC()
		if t.Year() < 1 || t.Year() > 9999 {
			return
		}
		iso = t.Format("2006-01-02 15:04:05.999999")
	}
	if iso != val {
		p.replace(p.toks[lit].Start, p.toks[lit].End, sqlString(iso))
	}
}

// specialExpr is the expression of a typed date or timestamp literal that
// is a special word depending on the session (today, tomorrow, yesterday,
// now): the session's current_date and now(), which DuckDB reads in its
// TimeZone.
func specialExpr(kind pgdatetime.Kind, v pgdatetime.Value) (string, bool) {
	var day string
	switch v.Special {
	case pgdatetime.Now, pgdatetime.Today:
		day = "current_date"
	case pgdatetime.Tomorrow:
		day = "current_date + 1"
	case pgdatetime.Yesterday:
		day = "current_date - 1"
	default:
		return "", false
	}
	switch {
	case kind == pgdatetime.Date:
		return day, true
	case kind == pgdatetime.Timestamp && v.Special == pgdatetime.Now:
		return "CAST(now() AS TIMESTAMP)", true
	case kind == pgdatetime.TimestampTZ && v.Special == pgdatetime.Now:
		return "now()", true
	case kind == pgdatetime.Timestamp, kind == pgdatetime.TimestampTZ:
		expr := "CAST(" + day + " AS TIMESTAMP)"
		if kind == pgdatetime.TimestampTZ {
			expr = "CAST(" + day + " AS TIMESTAMPTZ)"
		}
		if us := v.Micros % usecsPerDay; us > 0 { // 'tomorrow 10:00'
			expr = "(" + expr + " + INTERVAL '" + strconv.FormatInt(us, 10) + " microseconds')"
		}
		return expr, true
	}
	return "", false
}

// literalExpr puts the expression expr in place of the typed literal at
// token lit (its type tokens start…end): type '…' becomes CAST(expr AS
// type), '…'::type and CAST('…' AS type) take (expr) for the literal.
func (p *pass) literalExpr(lit, start, end int, expr string) {
	if start >= 0 && p.toks[start].Start < p.toks[lit].Start {
		p.replace(p.toks[start].Start, p.toks[lit].End, "CAST("+expr+" AS "+p.src[p.toks[start].Start:p.toks[end].End]+")")
		return
	}
	p.replace(p.toks[lit].Start, p.toks[lit].End, "("+expr+")")
}

// parseBool reads a boolean as PostgreSQL does: surrounding spaces
// ignored, any prefix of true, false, yes, no (on and off need two
// letters), 1 and 0, in any case.
func parseBool(s string) (string, bool) {
	v := strings.ToLower(strings.TrimSpace(s))
	if v == "" {
		return "", false
	}
	switch {
	case v == "1":
		return "true", true
	case v == "0":
		return "false", true
	case len(v) >= 2 && strings.HasPrefix("on", v):
		return "true", true
	case len(v) >= 2 && strings.HasPrefix("off", v):
		return "false", true
	case v[0] != 'o' && (strings.HasPrefix("true", v) || strings.HasPrefix("yes", v)):
		return "true", true
	case v[0] != 'o' && (strings.HasPrefix("false", v) || strings.HasPrefix("no", v)):
		return "false", true
	}
	return "", false
}

// arrayLiteralList turns PostgreSQL's array input ('{1,2}', nested,
// quoted elements, NULL) into a DuckDB list of string literals, which
// the cast that follows converts element by element. False for text
// that is not such a literal (dimensions '[1:2]={…}' included): it is
// left to DuckDB.
func arrayLiteralList(s string) (list string, depth int, ok bool) {
	return pgArray(s, func(e string, null bool) string {
		if null {
			return "NULL"
		}
		return sqlString(e)
	})
}

// arrayLiteralText turns PostgreSQL's array input into the text of a
// DuckDB list ('{1,"a b"}' → '["1", "a b"]'), which DuckDB casts to the
// list type an operator's other side has, as PostgreSQL does an untyped
// literal.
func arrayLiteralText(s string) (string, bool) {
	list, err := ArrayTextToList(s)
	if err != nil {
		return "", false
	}
	return sqlString(list), true
}

// ArrayTextToList converts a PostgreSQL array literal to DuckDB's list
// literal: every element double-quoted with backslash escapes, NULL bare,
// nested arrays nested.
func ArrayTextToList(s string) (string, error) {
	bad := func() (string, error) {
		return "", vsqlerr.New(vsqlerr.InvalidParameter, "malformed array literal: %q", s)
	}
	// A dimension prefix ([1:2]=) is dropped when its lower bounds are
	// 1; vsql's arrays cannot have others.
	if strings.HasPrefix(s, "[") {
		rest, bounds, ok := arrayDimsPrefix(s)
		if !ok {
			return bad()
		}
		for _, bd := range bounds {
			if bd[0] != 1 {
				return "", arrayInputError(s)
			}
		}
		s = rest
	}
	var out strings.Builder
	depth, i := 0, 0
	needElem := false
	for i < len(s) {
		c := s[i]
		switch {
		case c == '{':
			depth++
			out.WriteByte('[')
			i++
			needElem = false
		case c == '}':
			if depth == 0 {
				return bad()
			}
			depth--
			out.WriteByte(']')
			i++
		case c == ',':
			out.WriteString(", ")
			i++
			needElem = true
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c == '"':
			out.WriteByte('"')
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				if s[i] == '"' || s[i] == '\\' {
					out.WriteByte('\\')
				}
				out.WriteByte(s[i])
			}
			if i >= len(s) {
				return bad()
			}
			out.WriteByte('"')
			i++
			needElem = false
		default:
			j := i
			for j < len(s) && s[j] != ',' && s[j] != '}' {
				j++
			}
			elem := strings.TrimSpace(s[i:j])
			if strings.EqualFold(elem, "NULL") {
				out.WriteString("NULL")
			} else {
				out.WriteByte('"')
				for k := 0; k < len(elem); k++ {
					if elem[k] == '\\' && k+1 < len(elem) {
						k++
					}
					if elem[k] == '"' || elem[k] == '\\' {
						out.WriteByte('\\')
					}
					out.WriteByte(elem[k])
				}
				out.WriteByte('"')
			}
			i = j
			needElem = false
		}
	}
	if depth != 0 || needElem {
		return bad()
	}
	return out.String(), nil
}

// pgArray parses PostgreSQL's array input, writing each element with
// elem (null: an unquoted NULL); depth is how deeply it nests. A
// dimension prefix ('[1:2][1:3]={…}') is read when every lower bound is
// 1 and it matches the contents (vsql's arrays start at 1); false for
// another, and for text PostgreSQL refuses (arrayInputError says why).
func pgArray(s string, elem func(e string, null bool) string) (list string, depth int, ok bool) {
	i, level := 0, 0
	var b strings.Builder
	// the length of each level's sub-arrays, and whether that level holds
	// arrays (PostgreSQL's arrays are rectangular)
	var lens []int
	var nested []int // 0 unknown, 1 elements, 2 sub-arrays
	var parse func() bool
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	kind := func(k int) bool { // the element just read at this level is of kind k
		for len(nested) < level {
			nested = append(nested, 0)
		}
		if nested[level-1] == 0 {
			nested[level-1] = k
		}
		return nested[level-1] == k
	}
	parse = func() bool { // at '{'
		i++
		level++
		depth = max(depth, level)
		defer func() { level-- }()
		b.WriteByte('[')
		skip()
		n := 0
		if i < len(s) && s[i] == '}' {
			i++
			b.WriteByte(']')
			return level == 1 // {} only as the whole array
		}
		for ; ; n++ {
			if n > 0 {
				b.WriteString(", ")
			}
			skip()
			switch {
			case i >= len(s):
				return false
			case s[i] == '{':
				if !kind(2) || !parse() {
					return false
				}
			case s[i] == '"':
				if !kind(1) {
					return false
				}
				i++
				var e strings.Builder
				for i < len(s) && s[i] != '"' {
					if s[i] == '\\' && i+1 < len(s) {
						i++
					}
					e.WriteByte(s[i])
					i++
				}
				if i >= len(s) {
					return false
				}
				i++
				b.WriteString(elem(e.String(), false))
			default:
				if !kind(1) {
					return false
				}
				var e strings.Builder
				for i < len(s) && s[i] != ',' && s[i] != '}' {
					if s[i] == '{' || s[i] == '"' {
						return false
					}
					if s[i] == '\\' && i+1 < len(s) {
						i++
					}
					e.WriteByte(s[i])
					i++
				}
				v := strings.TrimRight(e.String(), " \t\r\n\f\v")
				if v == "" {
					return false
				}
				b.WriteString(elem(v, strings.EqualFold(v, "null")))
			}
			skip()
			if i >= len(s) {
				return false
			}
			if s[i] == '}' {
				i++
				b.WriteByte(']')
				for len(lens) < level {
					lens = append(lens, -1)
				}
				if lens[level-1] < 0 {
					lens[level-1] = n + 1
				}
				return lens[level-1] == n+1
			}
			if s[i] != ',' {
				return false
			}
			i++
		}
	}
	skip()
	var bounds [][2]int
	if i < len(s) && s[i] == '[' {
		rest, bs, ok := arrayDimsPrefix(s[i:])
		if !ok {
			return "", 0, false
		}
		for _, bd := range bs {
			if bd[0] != 1 {
				return "", 0, false
			}
		}
		bounds = bs
		i = len(s) - len(rest)
		skip()
	}
	if i >= len(s) || s[i] != '{' || !parse() {
		return "", 0, false
	}
	skip()
	if bounds != nil {
		if len(bounds) != len(lens) {
			return "", 0, false
		}
		for k, bd := range bounds {
			if bd[1] != lens[k] {
				return "", 0, false
			}
		}
	}
	return b.String(), depth, i == len(s)
}

// leadingBraces counts the { that open array input (after a dimension
// prefix): its number of dimensions.
func leadingBraces(s string) int {
	if i := strings.IndexByte(s, '='); i >= 0 && strings.HasPrefix(strings.TrimSpace(s), "[") {
		s = s[i+1:]
	}
	n := 0
	for _, c := range s {
		switch {
		case c == '{':
			n++
		case isSpace(byte(c)):
		default:
			return n
		}
	}
	return n
}

// arrayDimsPrefix reads the dimensions that may start PostgreSQL's array
// input, [l1:u1][l2:u2]…=, returning what follows the = and the bounds
// ([u] is [1:u]).
func arrayDimsPrefix(s string) (rest string, bounds [][2]int, ok bool) {
	for {
		s = strings.TrimLeft(s, " \t\r\n\f\v")
		if !strings.HasPrefix(s, "[") {
			break
		}
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", nil, false
		}
		lo, hi, slice := strings.Cut(s[1:end], ":")
		if !slice {
			lo, hi = "1", lo
		}
		l, err1 := strconv.Atoi(strings.TrimSpace(lo))
		u, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || u < l-1 {
			return "", nil, false
		}
		bounds = append(bounds, [2]int{l, u - l + 1})
		s = s[end+1:]
	}
	rest, ok = strings.CutPrefix(s, "=")
	return rest, bounds, ok && len(bounds) > 0
}

// arrayInputError is PostgreSQL's error for array input that pgArray
// refused, or vsql's for one that would not start at 1; nil for text
// left to DuckDB's cast.
func arrayInputError(s string) error {
	t := strings.TrimLeft(s, " \t\r\n\f\v")
	if strings.HasPrefix(t, "[") {
		if _, bounds, ok := arrayDimsPrefix(t); ok {
			for _, bd := range bounds {
				if bd[0] != 1 {
					return vsqlerr.New(vsqlerr.FeatureNotSupported, "array lower bound %d in %q: vsql arrays start at 1 (a DuckDB list), so arrays with other lower bounds are not supported", bd[0], s)
				}
			}
		}
		return vsqlerr.New(vsqlerr.InvalidTextValue, "malformed array literal: %q", s)
	}
	if strings.HasPrefix(t, "{") {
		return vsqlerr.New(vsqlerr.InvalidTextValue, "malformed array literal: %q", s)
	}
	return nil
}

// arrayOperand: an untyped literal operand of && (array overlap,
// '{32,17}') becomes DuckDB list text (token i is the first & of &&).
// Not for @> and <@, which vsql reads as JSON containment.
func arrayOperand(p *pass, i int) {
	if !p.isOp(i+1, "&") || !p.adjacent(i) {
		return
	}
	p.arrayLiteralOperand(i - 1)
	p.arrayLiteralOperand(i + 2)
}

// arrayLiteralOperand rewrites token i when it is a plain string literal
// holding PostgreSQL array input.
func (p *pass) arrayLiteralOperand(i int) {
	if !p.plainString(i) || p.isOp(i+1, ":") || p.isOp(i-1, ":") {
		return
	}
	val := p.stringText(i)
	if text, ok := arrayLiteralText(val); ok {
		p.replace(p.toks[i].Start, p.toks[i].End, text)
	}
}

// arrayNotJSON returns the list of string literals for token i when it is
// a plain string literal holding PostgreSQL array input that is not JSON
// ('{32}', not '{}' or '[1]'), "" otherwise.
func (p *pass) arrayNotJSON(i int) string {
	if !p.plainString(i) || p.isOp(i+1, ":") {
		return ""
	}
	val := p.stringText(i)
	if json.Valid([]byte(val)) {
		return ""
	}
	list, depth, ok := arrayLiteralList(val)
	if !ok || depth != 1 {
		return ""
	}
	return list
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// callWords returns the tokens of the words w at the top level of the
// call whose parenthesis opens at token open (indexes, in order), and the
// closing parenthesis; -1 when unbalanced.
func (p *pass) callWords(open int, words ...string) (found []int, close int) {
	depth := 0
	for j := open; j < len(p.toks); j++ {
		switch p.toks[j].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			if depth--; depth == 0 {
				return found, j
			}
		case sqltext.Semi:
			return nil, -1
		case sqltext.Word:
			if depth == 1 {
				for _, w := range words {
					if p.isWord(j, w) {
						found = append(found, j)
					}
				}
			}
		}
	}
	return nil, -1
}

// overlayPlacing: overlay(s PLACING r FROM n [FOR m]) is the call
// overlay(s, r, n[, m]) (DuckDB's parser has no PLACING).
func overlayPlacing(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") && p.text(i-2) != "__vsql_fn" { // (sent there by sqltext)
		return
	}
	words, close := p.callWords(i+1, "placing", "from", "for")
	if close < 0 || len(words) < 2 || !p.isWord(words[0], "placing") || !p.isWord(words[1], "from") {
		return
	}
	for _, w := range words {
		p.replace(p.toks[w].Start, p.toks[w].End, ",")
	}
}

// substringFrom: substring(s FROM n FOR m), substring(s FROM n) and
// substring(s FOR m) are the calls
// pg_substring(s, n, m), pg_substring(s, n) and pg_substring(s, 1, m),
// PostgreSQL's positions (sqltext sends substring and substr to those
// macros). With a text literal after FROM, or as the second of two
// arguments, it is PostgreSQL's regular-expression substring
// (substring(text, text); DuckDB would read the pattern as a position).
func substringFrom(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") && p.text(i-2) != "__vsql_fn" { // (sent there by sqltext)
		return
	}
	regex := schema + ".pg_substring_regex"
	if p.isOp(i-1, ".") {
		regex = "pg_substring_regex"
	}
	words, close := p.callWords(i+1, "from", "for", "similar")
	similar := schema + ".pg_substring_similar"
	if p.isOp(i-1, ".") {
		similar = "pg_substring_similar"
	}
	if close > 0 && substringSimilarCall(p, i, words, close, similar) {
		return // SUBSTRING(s SIMILAR p ESCAPE e), SUBSTRING(s FROM 'p' FOR 'e') (similarsubstr.go)
	}
	switch {
	case close < 0:
	case len(words) == 0:
		if args := p.splitArgs(i+1, close); len(args) == 2 && args[1][0] == args[1][1] && p.plainString(args[1][0]) {
			p.replace(p.toks[i].Start, p.toks[i].End, regex)
		}
	case len(words) == 1 && p.isWord(words[0], "from") && p.plainString(words[0]+1) && words[0]+2 == close:
		p.replace(p.toks[i].Start, p.toks[i].End, regex)
		p.replace(p.toks[words[0]].Start, p.toks[words[0]].End, ",")
	case len(words) == 1 && p.isWord(words[0], "for"):
		p.replace(p.toks[words[0]].Start, p.toks[words[0]].End, ", 1,")
	case p.isWord(words[0], "from") && (len(words) == 1 || len(words) == 2 && p.isWord(words[1], "for")):
		for _, w := range words {
			p.replace(p.toks[w].Start, p.toks[w].End, ",")
		}
	}
}

// variadicCall: num_nulls(VARIADIC a) and num_nonnulls(VARIADIC a) count
// the array's elements (the macros of those names take separate
// arguments), format(f, VARIADIC a) formats them, and concat, concat_ws,
// json(b)_build_array and json(b)_build_object take them as their
// arguments (variadic.go); token i is VARIADIC.
func variadicCall(p *pass, i int) {
	if open := p.enclosing(i); p.isOp(i-1, ",") && open >= 3 && p.isWord(open-1, "pg_format") &&
		p.isOp(open-2, ".") && p.text(open-3) == "__vsql_fn" {
		// format(f, VARIADIC a): the array's elements are the arguments
		p.replace(p.toks[open-1].Start, p.toks[open-1].End, "pg_format_variadic")
		p.replace(p.toks[i].Start, p.toks[i].End, "")
		return
	}
	if open := p.enclosing(i); p.isOp(i-1, ",") && open >= 3 && p.isWord(open-1, "pg_concat_ws") &&
		p.isOp(open-2, ".") && p.text(open-3) == "__vsql_fn" && p.isOp(open+2, ",") && open+3 == i {
		// concat_ws(sep, VARIADIC a) (variadic.go)
		p.replace(p.toks[open-1].Start, p.toks[open-1].End, "pg_concat_ws_variadic")
		p.replace(p.toks[i].Start, p.toks[i].End, "")
		return
	}
	if p.kind(i-1) != sqltext.Open {
		return
	}
	name := strings.ToLower(p.text(i - 2))
	if !p.isOp(i-3, ".") || p.text(i-4) != "__vsql_fn" {
		// json(b)_build_object and json(b)_build_array, which
		// sqltext renamed to DuckDB's json_object and json_array
		switch {
		case name == "json_object" && !p.isOp(i-3, "."):
			p.replace(p.toks[i-2].Start, p.toks[i-2].End, schema+".pg_json_build_object_variadic")
			p.replace(p.toks[i].Start, p.toks[i].End, "")
		case name == "json_array" && !p.isOp(i-3, "."):
			p.replace(p.toks[i-2].Start, p.toks[i-2].End, schema+".pg_json_build_array_variadic")
			p.replace(p.toks[i].Start, p.toks[i].End, "")
		case name == "json_build_object" && !p.isOp(i-3, "."):
			p.replace(p.toks[i-2].Start, p.toks[i-2].End, schema+".pg_pgjson_build_object_variadic")
			p.replace(p.toks[i].Start, p.toks[i].End, "")
		case name == "json_build_array" && !p.isOp(i-3, "."):
			p.replace(p.toks[i-2].Start, p.toks[i-2].End, schema+".pg_pgjson_build_array_variadic")
			p.replace(p.toks[i].Start, p.toks[i].End, "")
		}
		return
	}
	switch name {
	case "num_nulls", "num_nonnulls", "pg_concat":
	default:
		return
	}
	p.replace(p.toks[i-2].Start, p.toks[i-2].End, name+"_variadic")
	p.replace(p.toks[i].Start, p.toks[i].End, "")
}
