package sqltext

import "strings"

// Statement is one statement of a query string.
type Statement struct {
	// SQL is the statement's text without the terminating semicolon.
	SQL string
	// Offset is the byte offset of SQL within the string it was split from.
	Offset int
	// Keywords holds the first words of the statement in upper case (at
	// most eight), skipping comments and leading parentheses.
	Keywords []string
	// Returning is true when the statement has a top-level RETURNING clause.
	Returning bool
	// Params is the highest $n placeholder number used.
	Params int
	// lead holds the first tokens at any depth: words in upper case, quoted
	// identifiers as `"`, strings as `'`, other tokens as written.
	lead []string
	// toks are SQL's tokens (offsets into SQL), from the lexing pass that
	// made the statement; nil when SQL was set otherwise (Tokens lexes it).
	toks []Token
	// open: the text ends inside a quote, dollar quote or block comment.
	open bool
}

// Unterminated reports whether the statement's text ends inside a quote,
// dollar quote or block comment: DuckDB refuses it as a syntax error, and
// the rewrites leave it alone.
func (s Statement) Unterminated() bool { return s.open }

// Tokens returns the statement's tokens, offsets into SQL. A statement
// from Split, Parse or Edit has them from the pass that made it; one
// built otherwise is lexed now.
func (s Statement) Tokens() []Token {
	if s.toks == nil && s.SQL != "" {
		return Tokens(s.SQL)
	}
	return s.toks
}

// Empty reports whether the statement holds nothing but comments and spaces.
func (s Statement) Empty() bool {
	return len(s.Keywords) == 0 && strings.TrimSpace(stripComments(s.SQL)) == ""
}

// Keyword returns the i-th leading keyword, or "" when there are fewer.
func (s Statement) Keyword(i int) string {
	if i < len(s.Keywords) {
		return s.Keywords[i]
	}
	return ""
}

const (
	maxKeywords = 8
	maxLead     = 24
)

// Split cuts src into statements at top-level semicolons. Statements that
// hold only whitespace and comments are dropped, except that a string with
// no statement at all yields no statements (the caller answers
// EmptyQueryResponse).
func Split(src string) []Statement {
	lexPasses.Add(1)
	var out []Statement
	l := lexer{src: src}
	start := 0
	cur := newBuilder()
	for {
		tok, ok := l.nextToken()
		if !ok {
			break
		}
		if tok.Kind == Semi {
			if st := cur.finish(src[start:tok.Start], start); !st.Empty() {
				st.Offset = start
				out = append(out, st)
			}
			start = tok.End
			cur = newBuilder()
			continue
		}
		cur.toks = append(cur.toks, tok)
		cur.add(src, tok)
	}
	cur.st.open = l.open
	if st := cur.finish(src[start:], start); !st.Empty() {
		st.Offset = start
		out = append(out, st)
	}
	return out
}

// Parse classifies one statement (no splitting).
func Parse(src string) Statement {
	lexPasses.Add(1)
	l := lexer{src: src}
	b := newBuilder()
	for {
		tok, ok := l.nextToken()
		if !ok {
			break
		}
		b.toks = append(b.toks, tok)
		b.add(src, tok)
	}
	b.st.open = l.open
	return b.finish(src, 0)
}

// from is the statement that is the text of s from byte at on, whose
// first token is s's token i, without lexing it.
func (s Statement) from(i, at int) Statement {
	toks := s.Tokens()[i:]
	moved := make([]Token, len(toks))
	for k, t := range toks {
		moved[k] = Token{t.Kind, t.Start - at, t.End - at}
	}
	st := fromTokens(s.SQL[at:], moved)
	st.open = s.open
	return st
}

// fromTokens classifies the statement sql whose tokens are toks, without
// lexing it.
func fromTokens(sql string, toks []Token) Statement {
	b := newBuilder()
	for _, t := range toks {
		b.add(sql, t)
	}
	b.toks = toks
	return b.finish(sql, 0)
}

type builder struct {
	st      Statement
	toks    []Token // offsets into the text Split or Parse lexes
	depth   int
	leading bool // still before the first word
}

func newBuilder() *builder { return &builder{leading: true} }

func (b *builder) add(src string, tok Token) {
	text := src[tok.Start:tok.End]
	switch tok.Kind.internal() {
	case tokOpen:
		b.depth++
	case tokClose:
		if b.depth > 0 {
			b.depth--
		}
	case tokWord:
		upper := strings.ToUpper(text)
		if len(b.st.Keywords) < maxKeywords && (b.leading || len(b.st.Keywords) > 0) {
			b.st.Keywords = append(b.st.Keywords, upper)
		}
		if b.depth == 0 && upper == "RETURNING" {
			b.st.Returning = true
		}
	case tokParam:
		n := 0
		for _, c := range text[1:] {
			n = n*10 + int(c-'0')
			if n > 1<<16 {
				break
			}
		}
		if n > b.st.Params {
			b.st.Params = n
		}
	}
	if tok.Kind != Open {
		b.leading = false
	}
	if len(b.st.lead) < maxLead {
		switch tok.Kind.internal() {
		case tokWord:
			b.st.lead = append(b.st.lead, strings.ToUpper(text))
		case tokQuoted:
			b.st.lead = append(b.st.lead, `"`)
		case tokString:
			b.st.lead = append(b.st.lead, `'`)
		default:
			b.st.lead = append(b.st.lead, text)
		}
	}
}

// finish ends the statement sql, which starts at offset base of the text
// the tokens were lexed from.
func (b *builder) finish(sql string, base int) Statement {
	b.st.SQL = sql
	b.st.toks = b.toks
	if base != 0 {
		for i := range b.st.toks {
			b.st.toks[i].Start -= base
			b.st.toks[i].End -= base
		}
	}
	if b.st.toks == nil {
		b.st.toks = []Token{}
	}
	return b.st
}

// stripComments removes comments, keeping everything else.
func stripComments(src string) string {
	l := lexer{src: src}
	var sb strings.Builder
	for {
		tok, ok := l.next()
		if !ok {
			return sb.String()
		}
		sb.WriteString(src[tok.start:tok.end])
	}
}
