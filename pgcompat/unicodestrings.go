package pgcompat

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Unicode escapes in string constants and identifiers, which DuckDB's
// parser (PostgreSQL's grammar without its scanner's escape handling)
// refuses with "unicode_to_utf8 NOT IMPLEMENTED":
//
//   - U&'d\0061t\+000061' [UESCAPE '!'] and U&"d\0061t" [UESCAPE '!']:
//     \XXXX and \+XXXXXX are code points (a surrogate pair as two), \\ the
//     escape character itself; written as a plain literal or identifier;
//   - E'…\u0061…\U00000061…': the escape string written with its escapes
//     decoded, as a plain literal.
//
// A malformed escape is PostgreSQL's error: 42601 for U& (invalid Unicode
// escape), 22025 for E'' (invalid Unicode escape).

// unicodeString is the rule of u (token i): U&'…' and U&"…".
func unicodeString(p *pass, i int) {
	if !p.isOp(i+1, "&") || !p.adjacent(i) || !p.adjacent(i+1) || p.edited(p.toks[i].Start, p.toks[i+2].End) {
		return
	}
	lit := i + 2
	body, quote := "", byte(0)
	switch t := p.text(lit); {
	case p.kind(lit) == sqltext.String && strings.HasPrefix(t, "'") && strings.HasSuffix(t, "'") && len(t) >= 2:
		body, quote = strings.ReplaceAll(t[1:len(t)-1], "''", "'"), '\''
	case p.kind(lit) == sqltext.Quoted && len(t) >= 2:
		body, quote = strings.ReplaceAll(t[1:len(t)-1], `""`, `"`), '"'
	default:
		return
	}
	end, esc := lit, byte('\\')
	if p.isWord(lit+1, "uescape") {
		e, ok := stringBody(p.text(lit + 2))
		if p.kind(lit+2) != sqltext.String || !ok || len(e) != 1 || strings.ContainsAny(e, "0123456789abcdefABCDEF+'\" \t\n\r") {
			p.literalExpr(lit, -1, -1, "error("+sqlString(vsqlerr.New(vsqlerr.InvalidUnicodeEscape, "invalid Unicode escape character").Error())+")")
			p.replace(p.toks[i].Start, p.toks[lit].Start, "")
			p.replace(p.toks[lit].End, p.toks[lit+2].End, "")
			return
		}
		esc, end = e[0], lit+2
	}
	value, err := decodeUnicodeEscapes(body, esc)
	if err != nil {
		if quote == '"' {
			return // DuckDB's syntax error
		}
		p.replace(p.toks[i].Start, p.toks[end].End, "error("+sqlString(err.Error())+")")
		return
	}
	if quote == '"' {
		p.replace(p.toks[i].Start, p.toks[end].End, sqltext.QuoteIdent(value))
		return
	}
	p.replace(p.toks[i].Start, p.toks[end].End, sqltext.QuoteString(value))
}

// decodeUnicodeEscapes reads the body of U&'…' with escape character esc.
func decodeUnicodeEscapes(s string, esc byte) (string, error) {
	bad := func() (string, error) {
		return "", vsqlerr.New(vsqlerr.InvalidUnicodeEscape, "invalid Unicode escape")
	}
	var b strings.Builder
	var high rune // a pending high surrogate
	for i := 0; i < len(s); i++ {
		if s[i] != esc {
			if high != 0 {
				return bad()
			}
			b.WriteByte(s[i])
			continue
		}
		var digits string
		switch {
		case i+1 < len(s) && s[i+1] == esc:
			if high != 0 {
				return bad()
			}
			b.WriteByte(esc)
			i++
			continue
		case i+8 <= len(s) && s[i+1] == '+':
			digits, i = s[i+2:i+8], i+7
		case i+5 <= len(s) && s[i+1] != '+':
			digits, i = s[i+1:i+5], i+4
		default:
			return bad()
		}
		v, err := strconv.ParseUint(digits, 16, 32)
		if err != nil {
			return bad()
		}
		r := rune(v)
		switch {
		case high != 0:
			if r < 0xDC00 || r > 0xDFFF {
				return bad()
			}
			b.WriteRune(utf16.DecodeRune(high, r))
			high = 0
		case r >= 0xD800 && r <= 0xDBFF:
			high = r
		case r >= 0xDC00 && r <= 0xDFFF, r == 0, r > utf8.MaxRune:
			return bad()
		default:
			b.WriteRune(r)
		}
	}
	if high != 0 {
		return bad()
	}
	return b.String(), nil
}

// escapeStringUnicode rewrites an escape string constant E'…' that has
// \u or \U escapes (token i) as the plain literal of its value.
func escapeStringUnicode(p *pass, i int) {
	t := p.text(i)
	if len(t) < 3 || t[0] != 'e' && t[0] != 'E' || t[1] != '\'' || !strings.Contains(t, `\u`) && !strings.Contains(t, `\U`) {
		return
	}
	value, ok := escapeStringValue(t[2 : len(t)-1])
	if !ok {
		p.replace(p.toks[i].Start, p.toks[i].End, "error("+sqlString(vsqlerr.New(vsqlerr.InvalidEscapeSequence, "invalid Unicode escape").Error())+")")
		return
	}
	p.replace(p.toks[i].Start, p.toks[i].End, sqltext.QuoteString(value))
}

// escapeStringValue decodes the body of E'…' as PostgreSQL's scanner
// does: \b \f \n \r \t, \ooo (octal), \xhh (hex), \uXXXX, \UXXXXXXXX (a
// surrogate pair as two \u), a doubled quote as one, and any other escaped character as
// itself.
func escapeStringValue(body string) (string, bool) {
	var b strings.Builder
	var high rune
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\'' && i+1 < len(body) && body[i+1] == '\'' {
			b.WriteByte('\'')
			i++
			continue
		}
		if c != '\\' || i+1 >= len(body) {
			if high != 0 {
				return "", false
			}
			b.WriteByte(c)
			continue
		}
		i++
		e := body[i]
		if high != 0 && e != 'u' && e != 'U' {
			return "", false
		}
		switch e {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'x':
			j := i + 1
			for j < len(body) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", body[j]) >= 0 {
				j++
			}
			if j == i+1 {
				b.WriteByte('x')
				continue
			}
			v, _ := strconv.ParseUint(body[i+1:j], 16, 8)
			b.WriteByte(byte(v))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(body) && j < i+3 && body[j] >= '0' && body[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(body[i:j], 8, 16)
			b.WriteByte(byte(v))
			i = j - 1
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			if i+1+n > len(body) {
				return "", false
			}
			v, err := strconv.ParseUint(body[i+1:i+1+n], 16, 32)
			if err != nil {
				return "", false
			}
			r := rune(v)
			i += n
			switch {
			case high != 0:
				if r < 0xDC00 || r > 0xDFFF {
					return "", false
				}
				b.WriteRune(utf16.DecodeRune(high, r))
				high = 0
			case r >= 0xD800 && r <= 0xDBFF:
				high = r
			case r >= 0xDC00 && r <= 0xDFFF, r == 0, r > utf8.MaxRune:
				return "", false
			default:
				b.WriteRune(r)
			}
		default:
			b.WriteByte(e)
		}
	}
	if high != 0 {
		return "", false
	}
	return b.String(), true
}
