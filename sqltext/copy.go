package sqltext

import (
	"fmt"
	"strings"
)

// Copy is a COPY statement as far as vsql runs it itself: COPY … FROM
// STDIN and COPY … TO STDOUT. Other forms (server files) are left to DuckDB.
type Copy struct {
	// Table holds the parts of the (possibly qualified) table name, as the
	// names they denote: unquoted parts folded to lower case.
	Table []string
	// Columns is the column list, if one was given.
	Columns []string
	// Query is the text of COPY (query) TO STDOUT; Table is nil then.
	Query string
	// From is true for COPY … FROM, false for COPY … TO.
	From bool
	// Stdio is true when the source or destination is STDIN or STDOUT.
	Stdio bool
	// Options in the order written; the old forms (WITH CSV HEADER …) are
	// translated to the names of the parenthesized form.
	Options []CopyOption
}

// CopyOption is one COPY option: Name in lower case (format, header,
// delimiter, null, quote, escape, force_quote, force_not_null, force_null,
// encoding, …). Value is the option's argument with quotes removed ("" when
// there is none); Columns and Star hold a column-list argument.
type CopyOption struct {
	Name     string
	Value    string
	HasValue bool
	Columns  []string
	Star     bool
}

// QualifiedName quotes each part of a name and joins them with dots: the
// only way a table name read from COPY reaches SQL text.
func QualifiedName(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = QuoteIdent(p)
	}
	return strings.Join(q, ".")
}

// copyParser walks the tokens of a COPY statement.
type copyParser struct {
	src  string
	toks []token
	i    int
}

func (p *copyParser) peek() (token, bool) {
	if p.i < len(p.toks) {
		return p.toks[p.i], true
	}
	return token{}, false
}

func (p *copyParser) text(t token) string { return p.src[t.start:t.end] }

// word reports whether the next token is the keyword w (upper case), and
// consumes it if so.
func (p *copyParser) word(w string) bool {
	t, ok := p.peek()
	if ok && t.kind == tokWord && strings.EqualFold(p.text(t), w) {
		p.i++
		return true
	}
	return false
}

func (p *copyParser) punct(s string) bool {
	t, ok := p.peek()
	if ok && (t.kind == tokOther || t.kind == tokOpen || t.kind == tokClose) && p.text(t) == s {
		p.i++
		return true
	}
	return false
}

// name reads one identifier: a bare word (folded to lower case) or a
// quoted identifier.
func (p *copyParser) name() (string, bool) {
	t, ok := p.peek()
	if !ok || (t.kind != tokWord && t.kind != tokQuoted) {
		return "", false
	}
	p.i++
	return UnquoteIdent(p.text(t)), true
}

// nameList reads "( a, b, … )".
func (p *copyParser) nameList() ([]string, error) {
	if !p.punct("(") {
		return nil, p.errorf("expected a column list in parentheses")
	}
	var out []string
	for {
		n, ok := p.name()
		if !ok {
			return nil, p.errorf("expected a column name")
		}
		out = append(out, n)
		if p.punct(")") {
			return out, nil
		}
		if !p.punct(",") {
			return nil, p.errorf("expected , or ) in the column list")
		}
	}
}

func (p *copyParser) errorf(format string, args ...any) error {
	near := "end of input"
	if t, ok := p.peek(); ok {
		near = `"` + p.text(t) + `"`
	}
	return fmt.Errorf("syntax error in COPY at or near %s: %s", near, fmt.Sprintf(format, args...))
}

// ParseCopy parses a COPY statement. The error describes a syntax error;
// the caller decides whether forms other than STDIN/STDOUT go elsewhere.
func (s Statement) ParseCopy() (Copy, error) {
	p := &copyParser{src: s.SQL}
	for _, t := range s.Tokens() {
		p.toks = append(p.toks, token{t.Kind.internal(), t.Start, t.End})
	}
	var c Copy
	if !p.word("COPY") {
		return c, p.errorf("expected COPY")
	}
	binary := p.word("BINARY") // COPY BINARY t FROM STDIN (pre-7.4 form)
	if t, ok := p.peek(); ok && t.kind == tokOpen {
		// COPY (query) TO …: the query runs to the matching parenthesis.
		depth, start := 0, t.end
		for ; p.i < len(p.toks); p.i++ {
			switch p.toks[p.i].kind {
			case tokOpen:
				depth++
			case tokClose:
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if p.i >= len(p.toks) {
			return c, p.errorf("unterminated query in parentheses")
		}
		c.Query = strings.TrimSpace(s.SQL[start:p.toks[p.i].start])
		p.i++
		if c.Query == "" {
			return c, p.errorf("empty query")
		}
	} else {
		for {
			n, ok := p.name()
			if !ok {
				return c, p.errorf("expected a table name")
			}
			c.Table = append(c.Table, n)
			if !p.punct(".") {
				break
			}
		}
		if len(c.Table) > 3 {
			return c, fmt.Errorf("improper qualified name (too many dotted names): %s", strings.Join(c.Table, "."))
		}
		if t, ok := p.peek(); ok && t.kind == tokOpen {
			cols, err := p.nameList()
			if err != nil {
				return c, err
			}
			c.Columns = cols
		}
	}
	switch {
	case p.word("FROM"):
		c.From = true
	case p.word("TO"):
	default:
		return c, p.errorf("expected FROM or TO")
	}
	if c.Query != "" && c.From {
		return c, fmt.Errorf("COPY (query) FROM is not possible; COPY a query TO STDOUT, or a table FROM STDIN")
	}
	switch {
	case c.From && p.word("STDIN"), !c.From && p.word("STDOUT"):
		c.Stdio = true
	default:
		return c, nil // a file or program: not vsql's business
	}
	if binary {
		c.Options = append(c.Options, CopyOption{Name: "format", Value: "binary", HasValue: true})
	}
	p.word("WITH")
	if t, ok := p.peek(); ok && t.kind == tokOpen {
		p.i++
		if err := p.options(&c); err != nil {
			return c, err
		}
	} else if err := p.legacyOptions(&c); err != nil {
		return c, err
	}
	if p.word("WHERE") {
		return c, fmt.Errorf("COPY … WHERE is not supported")
	}
	if t, ok := p.peek(); ok {
		return c, fmt.Errorf("syntax error in COPY at or near %q", p.text(t))
	}
	return c, nil
}

// options reads "name [value], … )" after the opening parenthesis.
func (p *copyParser) options(c *Copy) error {
	for {
		t, ok := p.peek()
		if !ok || t.kind != tokWord {
			return p.errorf("expected an option name")
		}
		p.i++
		opt := CopyOption{Name: strings.ToLower(p.text(t))}
		if t, ok := p.peek(); ok {
			switch {
			case t.kind == tokOpen:
				cols, err := p.nameList()
				if err != nil {
					return err
				}
				opt.Columns, opt.HasValue = cols, true
			case p.punct("*"):
				opt.Star, opt.HasValue = true, true
			case t.kind == tokOther && (p.text(t) == "," || p.text(t) == ")"), t.kind == tokClose:
			default:
				v, err := p.value()
				if err != nil {
					return err
				}
				opt.Value, opt.HasValue = v, true
			}
		}
		c.Options = append(c.Options, opt)
		if p.punct(")") {
			return nil
		}
		if !p.punct(",") {
			return p.errorf("expected , or ) after option %s", opt.Name)
		}
	}
}

// value reads an option argument: a string, a word, or a number.
func (p *copyParser) value() (string, error) {
	t, ok := p.peek()
	if !ok {
		return "", p.errorf("expected a value")
	}
	switch t.kind {
	case tokString:
		p.i++
		return unquoteString(p.text(t))
	case tokWord, tokQuoted:
		p.i++
		return UnquoteIdent(p.text(t)), nil
	case tokOther:
		// numbers are lexed one character at a time: join adjacent ones
		start, end := t.start, t.end
		p.i++
		for p.i < len(p.toks) && p.toks[p.i].kind == tokOther && p.toks[p.i].start == end && p.text(p.toks[p.i]) != "," {
			end = p.toks[p.i].end
			p.i++
		}
		return p.src[start:end], nil
	}
	return "", p.errorf("expected a value")
}

// legacyOptions reads the pre-9.0 option syntax: BINARY, CSV, HEADER,
// DELIMITER [AS] 'c', NULL [AS] 's', QUOTE [AS] 'q', ESCAPE [AS] 'e',
// FORCE QUOTE cols|*, FORCE NOT NULL cols, ENCODING 'e'.
func (p *copyParser) legacyOptions(c *Copy) error {
	for {
		t, ok := p.peek()
		if !ok || t.kind != tokWord {
			return nil
		}
		w := strings.ToUpper(p.text(t))
		switch w {
		case "BINARY", "CSV":
			p.i++
			c.Options = append(c.Options, CopyOption{Name: "format", Value: strings.ToLower(w), HasValue: true})
		case "HEADER", "FREEZE", "OIDS":
			p.i++
			c.Options = append(c.Options, CopyOption{Name: strings.ToLower(w)})
		case "DELIMITER", "NULL", "QUOTE", "ESCAPE", "ENCODING":
			p.i++
			p.word("AS")
			t, ok := p.peek()
			if !ok || t.kind != tokString {
				return p.errorf("%s needs a quoted string", w)
			}
			v, err := p.value()
			if err != nil {
				return err
			}
			c.Options = append(c.Options, CopyOption{Name: strings.ToLower(w), Value: v, HasValue: true})
		case "FORCE":
			p.i++
			opt := CopyOption{HasValue: true}
			switch {
			case p.word("QUOTE"):
				opt.Name = "force_quote"
			case p.word("NOT"):
				if !p.word("NULL") {
					return p.errorf("expected FORCE NOT NULL")
				}
				opt.Name = "force_not_null"
			case p.word("NULL"):
				opt.Name = "force_null"
			default:
				return p.errorf("expected FORCE QUOTE or FORCE NOT NULL")
			}
			if p.punct("*") {
				opt.Star = true
			} else {
				for {
					n, ok := p.name()
					if !ok {
						return p.errorf("expected a column name")
					}
					opt.Columns = append(opt.Columns, n)
					if !p.punct(",") {
						break
					}
				}
			}
			c.Options = append(c.Options, opt)
		default:
			return nil
		}
	}
}

// unquoteString returns the value of a string literal: '…' with doubled
// quotes, or E'…' with backslash escapes.
func unquoteString(lit string) (string, error) {
	if len(lit) < 2 {
		return "", fmt.Errorf("unterminated string %s", lit)
	}
	escapes := lit[0] == 'e' || lit[0] == 'E'
	if escapes {
		lit = lit[1:]
	}
	if lit[0] != '\'' {
		return "", fmt.Errorf("dollar-quoted strings are not accepted as COPY options")
	}
	if len(lit) < 2 || lit[len(lit)-1] != '\'' {
		return "", fmt.Errorf("unterminated string %s", lit)
	}
	body := lit[1 : len(lit)-1]
	if !escapes {
		return strings.ReplaceAll(body, "''", "'"), nil
	}
	var sb strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\'' && i+1 < len(body) && body[i+1] == '\'' {
			sb.WriteByte('\'')
			i++
			continue
		}
		if c != '\\' || i+1 >= len(body) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch e := body[i]; e {
		case 'b':
			sb.WriteByte('\b')
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case 'x':
			n, j := 0, i+1
			for ; j < len(body) && j < i+3 && isHex(body[j]); j++ {
				n = n*16 + hexVal(body[j])
			}
			if j == i+1 {
				sb.WriteByte('x')
				continue
			}
			sb.WriteByte(byte(n))
			i = j - 1
		default:
			if e >= '0' && e <= '7' {
				n, j := 0, i
				for ; j < len(body) && j < i+3 && body[j] >= '0' && body[j] <= '7'; j++ {
					n = n*8 + int(body[j]-'0')
				}
				sb.WriteByte(byte(n))
				i = j - 1
				continue
			}
			sb.WriteByte(e)
		}
	}
	return sb.String(), nil
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}
