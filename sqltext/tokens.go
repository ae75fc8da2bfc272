package sqltext

import (
	"strings"
	"sync/atomic"
)

// TokenKind is the kind of one lexical token of Tokens.
type TokenKind int

const (
	Word   TokenKind = iota // keyword or unquoted identifier
	Quoted                  // "quoted identifier"
	String                  // 'string', E'string', $tag$string$tag$
	Param                   // $1
	Semi                    // ;
	Open                    // (
	Close                   // )
	Number                  // 42, 4.5, .5, 1e10
	Op                      // one character of punctuation or an operator
)

// Token is one token of a statement: its kind and its byte offsets.
type Token struct {
	Kind       TokenKind
	Start, End int
}

// Tokens lexes src once with the lexer Split and Classify use (comments
// and whitespace skipped), with numbers as one token. Operators come one
// character per token: "->>" is three Op tokens, adjacent (End == Start).
// A Statement from Split or Parse already holds its tokens
// (Statement.Tokens); this is for text that is not one.
func Tokens(src string) []Token {
	lexPasses.Add(1)
	l := lexer{src: src}
	toks := make([]Token, 0, len(src)/4+1)
	for {
		t, ok := l.nextToken()
		if !ok {
			return toks
		}
		toks = append(toks, t)
	}
}

// lexPasses counts the lexing passes over whole statements (Split, Parse,
// Tokens, and Statement.Tokens of a statement that has none yet).
var lexPasses atomic.Int64

// LexPasses is how many times, since the process started, sqltext lexed a
// statement's whole text. Tests compare it before and after a statement's
// way through the server: once, when the query is split.
func LexPasses() int64 { return lexPasses.Load() }

// nextToken is next as a Token: a number is one token (Number), any other
// punctuation one character (Op).
func (l *lexer) nextToken() (Token, bool) {
	t, ok := l.next()
	if !ok {
		return Token{}, false
	}
	kind := TokenKind(t.kind)
	if t.kind == tokOther {
		kind = Op
		c := l.src[t.start]
		if (c >= '0' && c <= '9') || (c == '.' && t.end < len(l.src) && l.src[t.end] >= '0' && l.src[t.end] <= '9') {
			kind = Number
			t.end = numberEnd(l.src, t.start)
			l.pos = t.end
		}
	}
	return Token{kind, t.start, t.end}, true
}

// internal is the kind as the package's own scanners name it: Number and
// Op are both tokOther.
func (k TokenKind) internal() tokenKind {
	if k >= Number {
		return tokOther
	}
	return tokenKind(k)
}

// numberEnd returns the end of the numeric literal starting at i.
func numberEnd(src string, i int) int {
	digits := func() {
		for i < len(src) && (src[i] >= '0' && src[i] <= '9' || src[i] == '_') {
			i++
		}
	}
	digits()
	if i < len(src) && src[i] == '.' && !(i+1 < len(src) && src[i+1] == '.') {
		i++
		digits()
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		j := i + 1
		if j < len(src) && (src[j] == '+' || src[j] == '-') {
			j++
		}
		if j < len(src) && src[j] >= '0' && src[j] <= '9' {
			i = j
			digits()
		}
	}
	return i
}

// TrailingJunk finds a numeric literal or a parameter followed at once by
// letters or underscores (123abc, 0x1F, 1_000, 0.0e, $1a), which
// PostgreSQL 15's lexer refuses ("trailing junk after numeric literal")
// and DuckDB reads as a value and an alias. It returns the offending text.
func TrailingJunk(st Statement) (string, bool) {
	toks := st.Tokens()
	for i, t := range toks {
		if t.Kind != Number && t.Kind != Param {
			continue
		}
		text := st.SQL[t.Start:t.End]
		end := t.End
		if i+1 < len(toks) && toks[i+1].Start == t.End && toks[i+1].Kind == Word {
			end = toks[i+1].End
		} else if !strings.Contains(text, "_") {
			continue
		}
		return st.SQL[t.Start:end], true
	}
	return "", false
}
