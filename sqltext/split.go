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
	var out []Statement
	l := lexer{src: src}
	start := 0
	cur := newBuilder()
	for {
		tok, ok := l.next()
		if !ok {
			break
		}
		if tok.kind == tokSemi {
			if st := cur.finish(src[start:tok.start]); !st.Empty() {
				st.Offset = start
				out = append(out, st)
			}
			start = tok.end
			cur = newBuilder()
			continue
		}
		cur.add(src, tok)
	}
	if st := cur.finish(src[start:]); !st.Empty() {
		st.Offset = start
		out = append(out, st)
	}
	return out
}

// Parse classifies one statement (no splitting).
func Parse(src string) Statement {
	l := lexer{src: src}
	b := newBuilder()
	for {
		tok, ok := l.next()
		if !ok {
			break
		}
		b.add(src, tok)
	}
	return b.finish(src)
}

type builder struct {
	st      Statement
	depth   int
	leading bool // still before the first word
}

func newBuilder() *builder { return &builder{leading: true} }

func (b *builder) add(src string, tok token) {
	text := src[tok.start:tok.end]
	switch tok.kind {
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
	if tok.kind != tokOpen {
		b.leading = false
	}
	if len(b.st.lead) < maxLead {
		switch tok.kind {
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

func (b *builder) finish(sql string) Statement {
	b.st.SQL = sql
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
