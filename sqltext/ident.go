package sqltext

import (
	"fmt"
	"strings"
)

// QuoteIdent returns name as a double-quoted SQL identifier; embedded double
// quotes are doubled. It is the only way a name may reach SQL text.
func QuoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// QuoteString returns s as a single-quoted SQL string literal.
func QuoteString(s string) string {
	return `'` + strings.ReplaceAll(s, `'`, `''`) + `'`
}

// MaxNameLen is the longest database or branch name vsql accepts (the same
// limit as PostgreSQL's identifiers).
const MaxNameLen = 63

// ValidName checks a database or branch name: 1 to 63 characters, letters,
// digits, '_' and '-', starting with a letter or '_'. The characters that
// route a connection ('/', '@') and anything that could confuse a file path
// are refused.
func ValidName(kind, name string) error {
	if name == "" {
		return fmt.Errorf("%s name must not be empty", kind)
	}
	if len(name) > MaxNameLen {
		return fmt.Errorf("%s name %q is longer than %d characters", kind, name, MaxNameLen)
	}
	for i, c := range name {
		switch {
		case c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
		case i > 0 && (c == '-' || (c >= '0' && c <= '9')):
		default:
			return fmt.Errorf("%s name %q may contain only letters, digits, '_' and '-', and must start with a letter or '_'", kind, name)
		}
	}
	return nil
}

// UnquoteIdent turns an identifier as written in SQL (quoted or not) into
// the name it denotes: quoted names keep their case, unquoted ones are
// folded to lower case as PostgreSQL does.
func UnquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return strings.ReplaceAll(s[1:len(s)-1], `""`, `"`)
	}
	return strings.ToLower(s)
}

// IsDigits reports a non-empty string of ASCII digits (a snapshot id).
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// TableName is a table named in a vsql_* argument (a resolution table, a
// merged table, vsql_diff's table =>): catalog.schema.table, schema.table
// or table. PostgreSQL's schema public is DuckDB's main, so Schema is
// "main" for public (and for main); Catalog and Schema are "" where the
// name leaves them out.
type TableName struct{ Catalog, Schema, Table string }

// ParseTableName reads a name written as SQL writes it: parts separated
// by dots, each plain or double-quoted (a quoted part may hold dots; ""
// is a quote). Plain parts keep their case, as vsql's catalog names do
// (DuckDB compares table names without case). ok is false for an empty
// part, more than three parts or an unclosed quote.
func ParseTableName(s string) (TableName, bool) {
	var parts []string
	var cur strings.Builder
	quoted, wasQuoted := false, false
	var plain []bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' && quoted && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
			wasQuoted = true
		case c == '.' && !quoted:
			parts, plain = append(parts, cur.String()), append(plain, !wasQuoted)
			cur.Reset()
			wasQuoted = false
		default:
			cur.WriteByte(c)
		}
	}
	parts, plain = append(parts, cur.String()), append(plain, !wasQuoted)
	if quoted || len(parts) > 3 {
		return TableName{}, false
	}
	for _, p := range parts {
		if p == "" {
			return TableName{}, false
		}
	}
	var n TableName
	n.Table = parts[len(parts)-1]
	if len(parts) >= 2 {
		n.Schema = parts[len(parts)-2]
		folded := n.Schema
		if plain[len(parts)-2] {
			folded = strings.ToLower(folded)
		}
		if folded == "public" || folded == "main" {
			n.Schema = "main"
		}
	}
	if len(parts) == 3 {
		n.Catalog = parts[0]
	}
	return n, true
}

// String writes the name back with every part quoted.
func (n TableName) String() string {
	s := QuoteIdent(n.Table)
	if n.Schema != "" {
		s = QuoteIdent(n.Schema) + "." + s
	}
	if n.Catalog != "" {
		s = QuoteIdent(n.Catalog) + "." + s
	}
	return s
}
