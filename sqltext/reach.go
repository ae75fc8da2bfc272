package sqltext

import "strings"

// Reach is what a statement could reach beyond the tables of its own
// database, as the server's guard (server/guard.go) needs to know it before
// DuckDB sees the statement: the names it calls, what stands where DuckDB
// reads a table (a name, a table function, or a string or quoted name that
// DuckDB would read as a file: a replacement scan), every literal, and the
// first part of every dotted name. It is lexical, so it errs on the side of
// listing more (a column list "INSERT INTO t (a)" is a call of t).
type Reach struct {
	// Calls are the names written before "(", lower case, unquoted,
	// without their qualifiers.
	Calls []string
	// Tables are the table positions: after FROM, JOIN, USING, CALL,
	// LATERAL, TABLE, INTO, DESCRIBE, SUMMARIZE, SHOW, PIVOT and UNPIVOT,
	// and after "," in a FROM list (ON does not end one). FROM inside
	// EXTRACT, TRIM, SUBSTRING and OVERLAY and in IS DISTINCT FROM is not.
	Tables []TableRef
	// Literals are the values of every string literal (quotes and escapes
	// removed) and quoted identifier.
	Literals []string
	// Qualifiers are the first parts of dotted names (x in x.y, x.y.z):
	// words in lower case, quoted names as written.
	Qualifiers []string
}

// RefKind says what stands at a table position.
type RefKind int

const (
	RefName   RefKind = iota // a word: a table, view or table function name
	RefQuoted                // a quoted identifier
	RefString                // a string literal: a file, to DuckDB
	RefOther                 // a parenthesis, a parameter, …
)

// TableRef is one table position.
type TableRef struct {
	Kind RefKind
	// Name is the last part of a dotted name (lower case for words, as
	// written for quoted names), or a string literal's value.
	Name string
	// Parts is the number of dotted parts (1: unqualified).
	Parts int
	// Call is true when "(" follows: a table function.
	Call bool
}

// tableWords put the next token at a table position.
var tableWords = map[string]bool{
	"from": true, "join": true, "using": true, "call": true, "lateral": true, "table": true, "into": true,
	"describe": true, "summarize": true, "show": true, "pivot": true, "unpivot": true,
}

// fromEnders end a FROM list.
var fromEnders = map[string]bool{
	"where": true, "group": true, "having": true, "order": true, "limit": true, "offset": true, "qualify": true,
	"window": true, "union": true, "intersect": true, "except": true, "select": true, "returning": true,
	"values": true, "fetch": true, "set": true,
}

// fromFunctions take FROM as an argument separator (EXTRACT(YEAR FROM x)).
var fromFunctions = map[string]bool{"extract": true, "trim": true, "substring": true, "overlay": true}

// ReachOf collects what Reach describes for one statement (or several:
// a top-level semicolon starts afresh).
func ReachOf(st Statement) Reach {
	// The statement's tokens, and words lower-cased only where they are
	// kept: this runs on every statement.
	src := st.SQL
	stoks := st.Tokens()
	toks := make([]token, len(stoks))
	for i, t := range stoks {
		toks[i] = token{t.Kind.internal(), t.Start, t.End}
	}
	text := func(t token) string { return src[t.start:t.end] }
	isDot := func(i int) bool { return i >= 0 && i < len(toks) && toks[i].kind == tokOther && text(toks[i]) == "." }
	var buf [24]byte
	// lower returns a word in lower case for a map lookup ("" if long:
	// no keyword is).
	lower := func(t token) string {
		w := text(t)
		if t.kind != tokWord || len(w) > len(buf) {
			return ""
		}
		for i := 0; i < len(w); i++ {
			c := w[i]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			buf[i] = c
		}
		return string(buf[:len(w)]) // the compiler does not allocate for map lookups below
	}
	name := func(t token) string {
		if t.kind == tokQuoted {
			return UnquoteIdent(text(t))
		}
		return strings.ToLower(text(t))
	}
	var r Reach
	type level struct{ inFrom, fromArgs bool }
	stack := make([]level, 1, 8)
	expect := false
	prevWord := "" // the previous token, if a keyword of interest
	for i, t := range toks {
		switch t.kind {
		case tokString:
			r.Literals = append(r.Literals, stringValue(text(t)))
		case tokQuoted:
			r.Literals = append(r.Literals, UnquoteIdent(text(t)))
		}
		if t.kind == tokWord || t.kind == tokQuoted {
			if i+1 < len(toks) && toks[i+1].kind == tokOpen {
				r.Calls = append(r.Calls, strings.ToLower(name(t)))
			}
			if isDot(i+1) && !isDot(i-1) {
				r.Qualifiers = append(r.Qualifiers, name(t))
			}
		}
		if expect {
			expect = false
			r.Tables = append(r.Tables, tableRef(src, toks, i))
		}
		top := &stack[len(stack)-1]
		word := ""
		switch t.kind {
		case tokOpen:
			stack = append(stack, level{fromArgs: fromFunctions[prevWord]})
		case tokClose:
			if len(stack) > 1 {
				stack = stack[:len(stack)-1]
			}
		case tokSemi:
			stack = stack[:1]
			stack[0] = level{}
		case tokWord:
			w := lower(t)
			switch {
			case w == "from":
				if !top.fromArgs && prevWord != "distinct" {
					top.inFrom, expect = true, true
				}
			case w == "join":
				top.inFrom, expect = true, true
			case tableWords[w]:
				expect = true
			case fromEnders[w]:
				top.inFrom = false
			case w == "distinct" || fromFunctions[w]:
				word = w
			}
		case tokOther:
			if top.inFrom && text(t) == "," {
				expect = true
			}
		}
		prevWord = word
	}
	return r
}

// tableRef reads the table position starting at toks[i]: a dotted name
// (its last part), a string, or something else.
func tableRef(src string, toks []token, i int) TableRef {
	t := toks[i]
	call := func(j int) bool { return j+1 < len(toks) && toks[j+1].kind == tokOpen }
	switch t.kind {
	case tokString:
		return TableRef{Kind: RefString, Name: stringValue(src[t.start:t.end]), Parts: 1, Call: call(i)}
	case tokWord, tokQuoted:
	default:
		return TableRef{Kind: RefOther, Name: src[t.start:t.end]}
	}
	j, parts := i, 1
	for j+2 < len(toks) && src[toks[j+1].start:toks[j+1].end] == "." && (toks[j+2].kind == tokWord || toks[j+2].kind == tokQuoted) {
		j += 2
		parts++
	}
	last := toks[j]
	ref := TableRef{Kind: RefName, Name: UnquoteIdent(src[last.start:last.end]), Parts: parts, Call: call(j)}
	if last.kind == tokQuoted {
		ref.Kind = RefQuoted
	}
	return ref
}

// stringValue is the value of a string literal token: 'x', E'x' (with
// backslash escapes) or $tag$x$tag$.
func stringValue(s string) string {
	switch {
	case strings.HasPrefix(s, "$"):
		end := strings.IndexByte(s[1:], '$')
		if end < 0 {
			return s
		}
		tag := s[:end+2]
		return strings.TrimSuffix(strings.TrimPrefix(s, tag), tag)
	case len(s) >= 2 && (s[0] == 'e' || s[0] == 'E'):
		body := strings.TrimSuffix(s[2:], "'")
		var sb strings.Builder
		for i := 0; i < len(body); i++ {
			switch {
			case body[i] == '\\' && i+1 < len(body):
				i++
				switch body[i] {
				case 'n':
					sb.WriteByte('\n')
				case 't':
					sb.WriteByte('\t')
				default:
					sb.WriteByte(body[i])
				}
			case body[i] == '\'' && i+1 < len(body) && body[i+1] == '\'':
				sb.WriteByte('\'')
				i++
			default:
				sb.WriteByte(body[i])
			}
		}
		return sb.String()
	case len(s) >= 1 && s[0] == '\'':
		return strings.ReplaceAll(strings.TrimSuffix(s[1:], "'"), "''", "'")
	}
	return s
}

// Setting is the target of SET, RESET or PRAGMA.
type Setting struct {
	Verb  string // SET, RESET or PRAGMA
	Scope string // GLOBAL, SESSION, LOCAL or ""
	// Name is the setting's name in lower case ("timezone" for SET TIME
	// ZONE, "all" for RESET ALL), or the pragma's.
	Name string
	// Variable is SET VARIABLE / RESET VARIABLE (a session variable).
	Variable bool
	// Assign is PRAGMA name = value (DuckDB's other spelling of SET).
	Assign bool
}

// SettingOf reads the target of a SET, RESET or PRAGMA statement; ok is
// false for other statements.
func SettingOf(st Statement) (Setting, bool) {
	verb := st.Keyword(0)
	if verb != "SET" && verb != "RESET" && verb != "PRAGMA" {
		return Setting{}, false
	}
	toks := wordTokens(st.SQL, st.Tokens())
	s := Setting{Verb: verb}
	i := 1
	word := func(j int) string {
		if j < len(toks) && toks[j].kind == tokWord {
			return toks[j].word
		}
		return ""
	}
	if verb != "PRAGMA" {
		switch w := word(i); w {
		case "global", "session", "local":
			s.Scope = strings.ToUpper(w)
			i++
		}
		if word(i) == "variable" {
			s.Variable = true
			i++
		}
	}
	if i < len(toks) && (toks[i].kind == tokWord || toks[i].kind == tokQuoted) {
		s.Name = strings.ToLower(toks[i].word)
		if s.Name == "time" && word(i+1) == "zone" {
			s.Name = "timezone"
		}
		i++
	}
	if verb == "PRAGMA" && i < len(toks) && toks[i].text == "=" {
		s.Assign = true
	}
	return s, true
}

// InnerStatement returns the statement that PREPARE name [(types)] AS …
// or EXPLAIN [ANALYZE] [(options)] … carries; ok is false for others.
func InnerStatement(st Statement) (Statement, bool) {
	kw := st.Keyword(0)
	if kw != "PREPARE" && kw != "EXPLAIN" {
		return Statement{}, false
	}
	toks := wordTokens(st.SQL, st.Tokens())
	switch kw {
	case "PREPARE":
		depth := 0
		for i, t := range toks[1:] {
			switch {
			case t.kind == tokOpen:
				depth++
			case t.kind == tokClose:
				depth--
			case depth == 0 && t.kind == tokWord && t.word == "as":
				return st.from(i+2, t.end), true
			}
		}
	case "EXPLAIN":
		i := 1
		if i < len(toks) && toks[i].kind == tokWord && toks[i].word == "analyze" {
			i++
		}
		if i < len(toks) && toks[i].kind == tokOpen {
			depth := 0
			for ; i < len(toks); i++ {
				if toks[i].kind == tokOpen {
					depth++
				} else if toks[i].kind == tokClose {
					if depth--; depth == 0 {
						i++
						break
					}
				}
			}
		}
		if i < len(toks) {
			return st.from(i, toks[i].start), true
		}
	}
	return Statement{}, false
}

// DDLHead is the part of a DDL statement before its first top-level AS or
// "(": the object it creates, drops or alters, without the definition.
func DDLHead(src string) string {
	for _, t := range tokens(src) {
		if t.kind == tokOpen || (t.kind == tokWord && t.word == "as") {
			return src[:t.start]
		}
	}
	return src
}
