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
