package pgcompat

import (
	"github.com/vsql/vsql/vsqlerr"
)

// intTypeName is PostgreSQL's name of the integer type of bits.
func intTypeName(bits int) string {
	switch bits {
	case 16:
		return "smallint"
	case 32:
		return "integer"
	}
	return "bigint"
}

// parseIntText reads text as PostgreSQL 15's input of smallint, integer
// or bigint (bits 16, 32, 64) does: spaces around an optional sign and
// decimal digits, nothing else — '34.5', '1e3', '0x1F' and '1_000' are
// invalid input syntax (22P02; DuckDB's own cast rounds '34.5' to 35), a
// value beyond the type is out of range (22003). It does not allocate
// unless it fails: COPY and INSERT of text read every integer through it.
func parseIntText(text []byte, bits int) (int64, error) {
	s := text
	for len(s) > 0 && isSpaceByte(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpaceByte(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	neg := false
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if len(s) == 0 {
		return 0, intSyntax(text, bits)
	}
	limit := uint64(1) << (bits - 1) // the magnitude of the type's minimum
	var mag uint64
	overflow := false
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, intSyntax(text, bits)
		}
		if mag > limit/10+1 { // already too big (and mag*10 must not wrap); a later non-digit is still a syntax error
			overflow = true
			continue
		}
		mag = mag*10 + uint64(c-'0')
	}
	if overflow || mag > limit || (!neg && mag == limit) {
		return 0, vsqlerr.New(vsqlerr.NumericOutOfRange, "value \"%s\" is out of range for type %s", text, intTypeName(bits)).
			WithHint("The value is beyond the type's range; use a wider integer type (bigint) or numeric.")
	}
	if neg {
		return -int64(mag), nil
	}
	return int64(mag), nil
}

func intSyntax(text []byte, bits int) error {
	return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type %s: \"%s\"", intTypeName(bits), text)
}

// isSpaceByte is C's isspace in the C locale, as PostgreSQL's input
// functions skip it.
func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
