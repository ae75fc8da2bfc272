package sqltext

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
func Tokens(src string) []Token {
	l := lexer{src: src}
	toks := make([]Token, 0, len(src)/4+1)
	for {
		t, ok := l.next()
		if !ok {
			return toks
		}
		kind := TokenKind(t.kind)
		if t.kind == tokOther {
			kind = Op
			c := src[t.start]
			if (c >= '0' && c <= '9') || (c == '.' && t.end < len(src) && src[t.end] >= '0' && src[t.end] <= '9') {
				kind = Number
				t.end = numberEnd(src, t.start)
				l.pos = t.end
			}
		}
		toks = append(toks, Token{kind, t.start, t.end})
	}
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
