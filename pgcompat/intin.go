package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// parseIntText reads text as PostgreSQL 15's input of smallint, integer
// or bigint (bits 16, 32, 64) does: spaces around an optional sign and
// decimal digits, nothing else — '34.5', '1e3', '0x1F' and '1_000' are
// invalid input syntax (22P02; DuckDB's own cast rounds '34.5' to 35), a
// value beyond the type is out of range (22003).
func parseIntText(text string, bits int) (int64, error) {
	typeName := map[int]string{16: "smallint", 32: "integer", 64: "bigint"}[bits]
	s := strings.Trim(text, " \t\n\r\v\f")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	if s == "" {
		return 0, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type %s: \"%s\"", typeName, text)
	}
	limit := uint64(1) << (bits - 1) // the magnitude of the type's minimum
	var mag uint64
	overflow := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type %s: \"%s\"", typeName, text)
		}
		if mag > limit/10+1 { // already too big (and mag*10 must not wrap); a later non-digit is still a syntax error
			overflow = true
			continue
		}
		mag = mag*10 + uint64(c-'0')
	}
	if overflow || mag > limit || (!neg && mag == limit) {
		return 0, vsqlerr.New(vsqlerr.NumericOutOfRange, "value \"%s\" is out of range for type %s", text, typeName).
			WithHint("The value is beyond the type's range; use a wider integer type (bigint) or numeric.")
	}
	if neg {
		return -int64(mag), nil
	}
	return int64(mag), nil
}
