package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
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

// typedLiteral: bool '…' and boolean '…' (token i is the type).
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

// plainString reports whether token i is a '…' literal (not E'…', $$…$$).
func (p *pass) plainString(i int) bool {
	return p.kind(i) == sqltext.String && p.src[p.toks[i].Start] == '\''
}

// castLiteral rewrites the literal at token lit cast to the type of
// tokens start…end.
func (p *pass) castLiteral(lit, start, end int) {
	raw := p.text(lit)
	val := strings.ReplaceAll(raw[1:len(raw)-1], "''", "'")
	switch {
	case p.isOp(end, "]"):
		list, depth, ok := arrayLiteralList(val)
		if !ok {
			return
		}
		p.replace(p.toks[lit].Start, p.toks[lit].End, list)
		// PostgreSQL's int[] holds any number of dimensions, DuckDB's one
		dims := 0
		for k := start; k <= end; k++ {
			if p.isOp(k, "[") {
				dims++
			}
		}
		if depth > dims {
			p.insert(p.toks[end].End, strings.Repeat("[]", depth-dims))
		}
	case start == end && (p.isWord(start, "bool") || p.isWord(start, "boolean")):
		if b, ok := parseBool(val); ok && val != b {
			p.replace(p.toks[lit].Start, p.toks[lit].End, "'"+b+"'")
		}
	}
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
	i, level := 0, 0
	var b strings.Builder
	var parse func() bool
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	parse = func() bool { // at '{'
		i++
		level++
		depth = max(depth, level)
		defer func() { level-- }()
		b.WriteByte('[')
		skip()
		if i < len(s) && s[i] == '}' {
			i++
			b.WriteByte(']')
			return true
		}
		for n := 0; ; n++ {
			if n > 0 {
				b.WriteString(", ")
			}
			skip()
			switch {
			case i >= len(s):
				return false
			case s[i] == '{':
				if !parse() {
					return false
				}
			case s[i] == '"':
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
				b.WriteString(sqlString(e.String()))
			default:
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
				if strings.EqualFold(v, "null") {
					b.WriteString("NULL")
				} else {
					b.WriteString(sqlString(v))
				}
			}
			skip()
			if i >= len(s) {
				return false
			}
			if s[i] == '}' {
				i++
				b.WriteByte(']')
				return true
			}
			if s[i] != ',' {
				return false
			}
			i++
		}
	}
	skip()
	if i >= len(s) || s[i] != '{' || !parse() {
		return "", 0, false
	}
	skip()
	return b.String(), depth, i == len(s)
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
