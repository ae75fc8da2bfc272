package pgcompat

import (
	"database/sql/driver"
	"math/bits"
	"strings"
	"unicode"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's initcap, and get_byte, set_byte, btrim, ltrim, rtrim and
// bit_count of bytea.

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

// byteaFunctions are the bytea overloads of DuckDB's LIKE and NOT LIKE
// (with and without ESCAPE; 22025 for an escape of more than one byte, as
// in PostgreSQL) and of trim, ltrim and
// rtrim (also TRIM([BOTH | LEADING | TRAILING] x FROM b), which DuckDB's
// parser makes these calls, and btrim, a macro of trim): the bytes of b
// with the longest runs of bytes found in the set removed from its start,
// its end or both, as PostgreSQL's byteatrim.
func byteaFunctions() map[string][]engineFunc {
	trim := func(start, end bool) []engineFunc {
		return []engineFunc{{in: []string{"BLOB", "BLOB"}, out: "BLOB", run: func(a []driver.Value) (any, error) {
			b, _ := a[0].([]byte)
			set, _ := a[1].([]byte)
			var in [256]bool
			for _, c := range set {
				in[c] = true
			}
			i, j := 0, len(b)
			for start && i < j && in[b[i]] {
				i++
			}
			for end && j > i && in[b[j-1]] {
				j--
			}
			return append([]byte{}, b[i:j]...), nil
		}}}
	}
	like := func(negate, escape bool) []engineFunc {
		run := func(a []driver.Value) (any, error) {
			s, _ := a[0].([]byte)
			p, _ := a[1].([]byte)
			esc := -1
			e, ok := a[len(a)-1].([]byte)
			if text, isText := a[len(a)-1].(string); isText {
				e, ok = []byte(text), true
			}
			if !escape {
				esc = '\\'
			} else if !ok || len(e) == 0 {
				esc = -1
			} else if len(e) == 1 {
				esc = int(e[0])
			} else if len(e) > 1 {
				return nil, vsqlerr.New(vsqlerr.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character.")
			}
			return likeBytes(s, p, esc) != negate, nil
		}
		if !escape {
			return []engineFunc{{in: []string{"BLOB", "BLOB"}, out: "BOOLEAN", run: run}}
		}
		// the escape as bytes, or as text (pgcompat's likeEscape writes
		// ESCAPE '\\', a VARCHAR, whatever the operands' type)
		return []engineFunc{{in: []string{"BLOB", "BLOB", "BLOB"}, out: "BOOLEAN", run: run},
			{in: []string{"BLOB", "BLOB", "VARCHAR"}, out: "BOOLEAN", run: run}}
	}
	return map[string][]engineFunc{"trim": trim(true, true), "ltrim": trim(true, false), "rtrim": trim(false, true),
		// b LIKE p [ESCAPE e], NOT LIKE (DuckDB's functions of the operators)
		"~~": like(false, false), "!~~": like(true, false), "like_escape": like(false, true), "not_like_escape": like(true, true)}
}

// likeBytes is PostgreSQL's LIKE of bytes: % matches any bytes, _ one
// byte, the escape byte esc (-1: none) makes the byte after it a literal.
// A % is matched by backtracking to the last one only (the greedy
// wildcard match), which is exact for patterns of literals, _ and %.
func likeBytes(s, p []byte, esc int) bool {
	si, pi, starP, starS := 0, 0, -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; {
			case esc >= 0 && int(c) == esc:
				if pi+1 < len(p) && p[pi+1] == s[si] {
					si, pi = si+1, pi+2
					continue
				}
			case c == '%':
				starP, starS, pi = pi, si, pi+1
				continue
			case c == '_' || c == s[si]:
				si, pi = si+1, pi+1
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}

// byteaBitCount is bit_count(bytea): the number of bits set.
func byteaBitCount(a []driver.Value) (any, error) {
	b, _ := a[0].([]byte)
	n := int64(0)
	for _, c := range b {
		n += int64(bits.OnesCount8(c))
	}
	return n, nil
}
