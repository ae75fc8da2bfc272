package pgcompat

import (
	"database/sql/driver"
	"strings"
	"unicode"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's initcap, and get_byte and set_byte of bytea.

// initcap upper-cases the first letter of every word and lower-cases the
// rest, a word being a run of letters and digits (PostgreSQL's rule:
// "o'neil" is O'Neil, "2nd-place" 2nd-Place).
func initcap(a []driver.Value) (any, error) {
	var b strings.Builder
	inWord := false
	for _, r := range argText(a[0]) {
		if inWord {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
		inWord = unicode.IsLetter(r) || unicode.IsDigit(r)
	}
	return b.String(), nil
}

// byteIndex checks a byte index of get_byte and set_byte.
func byteIndex(b []byte, n int64) error {
	if n < 0 || n >= int64(len(b)) {
		return vsqlerr.New(vsqlerr.ArraySubscript, "index %d out of valid range, 0..%d", n, len(b)-1)
	}
	return nil
}

// getByte is get_byte(bytes, n): byte n (from 0) as an integer.
func getByte(a []driver.Value) (any, error) {
	b, _ := a[0].([]byte)
	n := argInt(a[1])
	if err := byteIndex(b, n); err != nil {
		return nil, err
	}
	return int32(b[n]), nil
}

// setByte is set_byte(bytes, n, v): a copy with byte n set to the low 8
// bits of v.
func setByte(a []driver.Value) (any, error) {
	b, _ := a[0].([]byte)
	n := argInt(a[1])
	if err := byteIndex(b, n); err != nil {
		return nil, err
	}
	out := append([]byte(nil), b...)
	out[n] = byte(argInt(a[2]))
	return out, nil
}
