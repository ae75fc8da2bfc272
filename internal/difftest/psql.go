package difftest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Stmt is one unit of a corpus file: a statement to run on both servers,
// or something the runner skips (a psql meta-command) and counts.
type Stmt struct {
	File string
	Line int    // line of the statement's first character, 1-based
	SQL  string // as written; psql variables are substituted at run time

	// CopyData is the inline data of COPY … FROM stdin (lines up to \.).
	CopyData []byte
	HasCopy  bool

	// Gset is set when the statement ended with \gset: PostgreSQL's first
	// row sets psql variables (named by the columns, with Prefix).
	Gset   bool
	Prefix string

	// Meta is a psql meta-command (without the backslash), run by the
	// runner's small emulation (\set, \getenv, \unset) or skipped.
	Meta string

	// sqllogictest: Query says the record is a query; Types and Sort are
	// its result types (I, T, R per column) and sort mode (nosort,
	// rowsort, valuesort); ExpectError is "statement error".
	Query       bool
	Types       string
	Sort        string
	ExpectError bool
	// SkipReason says why a record is not run ("" = run it).
	SkipReason string
}

// ReadPsqlFile splits a PostgreSQL regression script into statements and
// meta-commands the way psql does.
func ReadPsqlFile(path string) ([]Stmt, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return SplitPsql(filepath.Base(path), string(b)), nil
}

var (
	copyFromStdin = regexp.MustCompile(`(?is)^\s*copy\b.*\bfrom\s+stdin\b`)
	copyToStdout  = regexp.MustCompile(`(?is)^\s*copy\b.*\bto\s+stdout\b`)
)

// SplitPsql splits src as psql reads it: statements end at a semicolon
// outside quotes, comments and parentheses (or at \g, \gset, \gx); a
// backslash outside quotes starts a meta-command that runs to the end of
// the line; COPY … FROM stdin is followed by data lines up to \. .
func SplitPsql(file, src string) []Stmt {
	var out []Stmt
	var buf strings.Builder
	line := 1
	startLine := 0
	depth := 0
	i := 0
	n := len(src)
	emit := func(gset bool, prefix string) {
		sql := strings.TrimSpace(buf.String())
		buf.Reset()
		depth = 0
		if sql == "" {
			return
		}
		st := Stmt{File: file, Line: startLine, SQL: sql, Gset: gset, Prefix: prefix}
		if copyFromStdin.MatchString(sql) {
			// data follows from the next line up to a line \.
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				i += j + 1
				line++
			} else {
				i = n
			}
			var data strings.Builder
			for i < n {
				j := strings.IndexByte(src[i:], '\n')
				var l string
				if j < 0 {
					l, i = src[i:], n
				} else {
					l, i = src[i:i+j], i+j+1
				}
				line++
				if l == `\.` {
					break
				}
				data.WriteString(l)
				data.WriteByte('\n')
			}
			st.CopyData, st.HasCopy = []byte(data.String()), true
		}
		out = append(out, st)
	}
	mark := func() {
		if strings.TrimSpace(buf.String()) == "" {
			startLine = line
		}
	}
	for i < n {
		c := src[i]
		switch {
		case c == '\n':
			buf.WriteByte(c)
			line++
			i++
		case c == '-' && i+1 < n && src[i+1] == '-':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = n - i
			}
			if strings.TrimSpace(buf.String()) != "" {
				buf.WriteString(src[i : i+j])
			}
			i += j
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := skipBlockComment(src, i)
			if strings.TrimSpace(buf.String()) != "" {
				buf.WriteString(src[i:j])
			}
			line += strings.Count(src[i:j], "\n")
			i = j
		case c == '\'' || c == '"':
			mark()
			esc := c == '\'' && i > 0 && (src[i-1] == 'E' || src[i-1] == 'e') && (i < 2 || !isIdent(src[i-2]))
			j := skipQuoted(src, i, c, esc)
			buf.WriteString(src[i:j])
			line += strings.Count(src[i:j], "\n")
			i = j
		case c == '$' && (i == 0 || !isIdent(src[i-1])):
			mark()
			if tag, ok := dollarTag(src, i); ok {
				k := strings.Index(src[i+len(tag):], tag)
				j := n
				if k >= 0 {
					j = i + len(tag) + k + len(tag)
				}
				buf.WriteString(src[i:j])
				line += strings.Count(src[i:j], "\n")
				i = j
			} else {
				buf.WriteByte(c)
				i++
			}
		case c == '(':
			mark()
			depth++
			buf.WriteByte(c)
			i++
		case c == ')':
			if depth > 0 {
				depth--
			}
			buf.WriteByte(c)
			i++
		case c == ';' && depth == 0:
			mark()
			buf.WriteByte(c)
			i++
			emit(false, "")
		case c == '\\':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = n - i
			}
			cmd := strings.TrimSpace(src[i+1 : i+j])
			name := cmd
			if k := strings.IndexAny(cmd, " \t"); k >= 0 {
				name = cmd[:k]
			}
			// \\ separates meta-commands on one line; keep it simple: the
			// whole rest of the line is this command.
			i += j
			switch name {
			case "g", "gx", "gset", "gexec", "gdesc", "crosstabview":
				if name == "gset" {
					prefix := strings.TrimSpace(strings.TrimPrefix(cmd, "gset"))
					emit(true, prefix)
				} else if name == "g" || name == "gx" {
					emit(false, "")
				} else {
					sql := strings.TrimSpace(buf.String())
					buf.Reset()
					depth = 0
					if sql != "" {
						out = append(out, Stmt{File: file, Line: startLine, SQL: sql, Meta: name,
							SkipReason: fmt.Sprintf(`query run by psql's \%s`, name)})
					}
				}
			default:
				out = append(out, Stmt{File: file, Line: line, Meta: cmd})
			}
		default:
			if c != ' ' && c != '\t' && c != '\r' {
				mark()
			}
			buf.WriteByte(c)
			i++
		}
	}
	emit(false, "")
	return out
}

func isIdent(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// skipQuoted returns the index after the quoted text starting at i.
func skipQuoted(src string, i int, q byte, backslash bool) int {
	j := i + 1
	for j < len(src) {
		switch {
		case backslash && src[j] == '\\':
			j += 2
		case src[j] == q:
			if j+1 < len(src) && src[j+1] == q {
				j += 2
				continue
			}
			return j + 1
		default:
			j++
		}
	}
	return len(src)
}

// skipBlockComment returns the index after the (nested) comment at i.
func skipBlockComment(src string, i int) int {
	depth := 0
	j := i
	for j < len(src) {
		if strings.HasPrefix(src[j:], "/*") {
			depth++
			j += 2
		} else if strings.HasPrefix(src[j:], "*/") {
			depth--
			j += 2
			if depth == 0 {
				return j
			}
		} else {
			j++
		}
	}
	return len(src)
}

// dollarTag returns the $tag$ starting at i, if there is one.
func dollarTag(src string, i int) (string, bool) {
	j := i + 1
	for j < len(src) && isIdent(src[j]) {
		if j == i+1 && src[j] >= '0' && src[j] <= '9' {
			return "", false // $1 is a parameter
		}
		j++
	}
	if j < len(src) && src[j] == '$' {
		return src[i : j+1], true
	}
	return "", false
}

// Substitute replaces psql variables (:name, :'name', :"name") outside
// quotes and comments by their values, as psql does. It returns the names
// of variables that are referenced but not set (psql would send those
// references as written).
func Substitute(sql string, vars map[string]string) (string, []string) {
	if !strings.Contains(sql, ":") {
		return sql, nil
	}
	var out strings.Builder
	var missing []string
	n := len(sql)
	for i := 0; i < n; {
		c := sql[i]
		switch {
		case c == '-' && i+1 < n && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = n - i
			}
			out.WriteString(sql[i : i+j])
			i += j
		case c == '/' && i+1 < n && sql[i+1] == '*':
			j := skipBlockComment(sql, i)
			out.WriteString(sql[i:j])
			i = j
		case c == '\'' || c == '"':
			esc := c == '\'' && i > 0 && (sql[i-1] == 'E' || sql[i-1] == 'e')
			j := skipQuoted(sql, i, c, esc)
			out.WriteString(sql[i:j])
			i = j
		case c == '$' && (i == 0 || !isIdent(sql[i-1])):
			if tag, ok := dollarTag(sql, i); ok {
				k := strings.Index(sql[i+len(tag):], tag)
				j := n
				if k >= 0 {
					j = i + len(tag) + k + len(tag)
				}
				out.WriteString(sql[i:j])
				i = j
			} else {
				out.WriteByte(c)
				i++
			}
		case c == ':' && i+1 < n && sql[i+1] == ':':
			out.WriteString("::")
			i += 2
		case c == ':' && i+1 < n && (sql[i+1] == '\'' || sql[i+1] == '"'):
			q := sql[i+1]
			j := i + 2
			for j < n && isIdent(sql[j]) {
				j++
			}
			if j < n && sql[j] == q && j > i+2 {
				name := sql[i+2 : j]
				if v, ok := vars[name]; ok {
					if q == '\'' {
						out.WriteString("'" + strings.ReplaceAll(v, "'", "''") + "'")
					} else {
						out.WriteString(`"` + strings.ReplaceAll(v, `"`, `""`) + `"`)
					}
				} else {
					missing = append(missing, name)
					out.WriteString(sql[i : j+1])
				}
				i = j + 1
			} else {
				out.WriteByte(c)
				i++
			}
		case c == ':' && i+1 < n && isIdent(sql[i+1]) && (i == 0 || !isIdent(sql[i-1])):
			j := i + 1
			for j < n && isIdent(sql[j]) {
				j++
			}
			name := sql[i+1 : j]
			if v, ok := vars[name]; ok {
				out.WriteString(v)
			} else {
				missing = append(missing, name)
				out.WriteString(sql[i:j])
			}
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String(), missing
}

// metaSet evaluates the value arguments of \set: each is a quoted string,
// a :variable or a bare word, concatenated.
func metaSet(args string, vars map[string]string) string {
	var out strings.Builder
	i := 0
	for i < len(args) {
		c := args[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '\'':
			j := i + 1
			for j < len(args) {
				if args[j] == '\'' {
					if j+1 < len(args) && args[j+1] == '\'' {
						out.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				out.WriteByte(args[j])
				j++
			}
			i = j + 1
		case c == ':':
			j := i + 1
			for j < len(args) && isIdent(args[j]) {
				j++
			}
			out.WriteString(vars[args[i+1:j]])
			i = j
		default:
			j := i
			for j < len(args) && args[j] != ' ' && args[j] != '\t' && args[j] != '\'' && args[j] != ':' {
				j++
			}
			out.WriteString(args[i:j])
			i = j
		}
	}
	return out.String()
}
