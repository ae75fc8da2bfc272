package sqltext

import (
	"strings"
	"unicode/utf8"
)

// tokenKind is the kind of one lexical token.
type tokenKind int

const (
	tokWord   tokenKind = iota // keyword or unquoted identifier
	tokQuoted                  // "quoted identifier"
	tokString                  // 'string', E'string', $tag$string$tag$
	tokParam                   // $1
	tokSemi                    // ;
	tokOpen                    // (
	tokClose                   // )
	tokOther                   // any other punctuation or number
)

type token struct {
	kind       tokenKind
	start, end int // byte offsets into the source
}

// lexer walks a SQL string token by token, skipping whitespace and comments.
type lexer struct {
	src string
	pos int
	// open is set when a quote, dollar quote or block comment runs to the
	// end of the input unclosed.
	open bool
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentChar(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9') || c == '$'
}

// skip moves past whitespace and comments. An unterminated block comment
// runs to the end of the input.
func (l *lexer) skip() {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case isSpace(c):
			l.pos++
		case c == '-' && strings.HasPrefix(l.src[l.pos:], "--"):
			nl := strings.IndexByte(l.src[l.pos:], '\n')
			if nl < 0 {
				l.pos = len(l.src)
			} else {
				l.pos += nl + 1
			}
		case c == '/' && strings.HasPrefix(l.src[l.pos:], "/*"):
			depth := 0
			for l.pos < len(l.src) {
				if strings.HasPrefix(l.src[l.pos:], "/*") {
					depth++
					l.pos += 2
				} else if strings.HasPrefix(l.src[l.pos:], "*/") {
					depth--
					l.pos += 2
					if depth == 0 {
						break
					}
				} else {
					l.pos++
				}
			}
			if depth > 0 {
				l.open = true
			}
		default:
			return
		}
	}
}

// next returns the next token; ok is false at the end of the input.
func (l *lexer) next() (tok token, ok bool) {
	l.skip()
	if l.pos >= len(l.src) {
		return token{}, false
	}
	start := l.pos
	c := l.src[l.pos]
	switch {
	case c == '\'':
		l.quoted('\'', false)
		return token{tokString, start, l.pos}, true
	case (c == 'e' || c == 'E') && l.pos+1 < len(l.src) && l.src[l.pos+1] == '\'':
		l.pos++
		l.quoted('\'', true)
		return token{tokString, start, l.pos}, true
	case c == '"':
		l.quoted('"', false)
		return token{tokQuoted, start, l.pos}, true
	case c == '$':
		if tag, ok := l.dollarTag(); ok {
			l.pos += len(tag)
			end := strings.Index(l.src[l.pos:], tag)
			if end < 0 {
				l.pos = len(l.src)
				l.open = true
			} else {
				l.pos += end + len(tag)
			}
			return token{tokString, start, l.pos}, true
		}
		l.pos++
		for l.pos < len(l.src) && l.src[l.pos] >= '0' && l.src[l.pos] <= '9' {
			l.pos++
		}
		return token{tokParam, start, l.pos}, true
	case isIdentStart(c):
		for l.pos < len(l.src) && isIdentChar(l.src[l.pos]) {
			l.pos++
		}
		return token{tokWord, start, l.pos}, true
	case c == ';':
		l.pos++
		return token{tokSemi, start, l.pos}, true
	case c == '(':
		l.pos++
		return token{tokOpen, start, l.pos}, true
	case c == ')':
		l.pos++
		return token{tokClose, start, l.pos}, true
	default:
		_, size := utf8.DecodeRuneInString(l.src[l.pos:])
		l.pos += size
		return token{tokOther, start, l.pos}, true
	}
}

// quoted consumes a quoted string or identifier starting at l.pos. A doubled
// quote is an escaped quote; with backslashes set, \x escapes one character.
func (l *lexer) quoted(q byte, backslashes bool) {
	l.pos++
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch {
		case backslashes && c == '\\':
			l.pos += 2
		case c == q:
			if l.pos+1 < len(l.src) && l.src[l.pos+1] == q {
				l.pos += 2
				continue
			}
			l.pos++
			return
		default:
			l.pos++
		}
	}
	l.open = true
	if l.pos > len(l.src) {
		l.pos = len(l.src)
	}
}

// dollarTag reports the dollar-quote opening tag ($$ or $name$) at l.pos.
func (l *lexer) dollarTag() (string, bool) {
	rest := l.src[l.pos:]
	if len(rest) < 2 {
		return "", false
	}
	if rest[1] == '$' {
		return "$$", true
	}
	if !isIdentStart(rest[1]) {
		return "", false
	}
	for i := 2; i < len(rest); i++ {
		switch {
		case rest[i] == '$':
			return rest[:i+1], true
		case isIdentChar(rest[i]):
		default:
			return "", false
		}
	}
	return "", false
}
