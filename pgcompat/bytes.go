package pgcompat

import (
	"database/sql/driver"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's encode(bytea, format) and decode(text, format) for the
// formats hex, base64 (lines of 76 characters, as PostgreSQL writes them)
// and escape (octal escapes for zero bytes and bytes with the high bit,
// doubled backslashes).

func unknownEncoding(f string) error {
	return invalidArgument("unrecognized encoding: %q", f)
}

func encodeBytes(a []driver.Value) (any, error) {
	b, _ := a[0].([]byte)
	switch f := strings.ToLower(argText(a[1])); f {
	case "hex":
		return hex.EncodeToString(b), nil
	case "base64":
		s := base64.StdEncoding.EncodeToString(b)
		var out strings.Builder
		for len(s) > 76 {
			out.WriteString(s[:76])
			out.WriteByte('\n')
			s = s[76:]
		}
		out.WriteString(s)
		return out.String(), nil
	case "escape":
		var out strings.Builder
		for _, c := range b {
			switch {
			case c == '\\':
				out.WriteString(`\\`)
			case c == 0 || c >= 0x80:
				fmt.Fprintf(&out, `\%03o`, c)
			default:
				out.WriteByte(c)
			}
		}
		return out.String(), nil
	default:
		return nil, unknownEncoding(f)
	}
}

func decodeBytes(a []driver.Value) (any, error) {
	s := argText(a[0])
	switch f := strings.ToLower(argText(a[1])); f {
	case "hex":
		clean := withoutSpace(s)
		if len(clean)%2 == 1 {
			return nil, invalidArgument("invalid hexadecimal data: odd number of digits")
		}
		b, err := hex.DecodeString(clean)
		if err != nil {
			return nil, invalidArgument("invalid hexadecimal digit")
		}
		return b, nil
	case "base64":
		clean := withoutSpace(s)
		b, err := base64.StdEncoding.DecodeString(clean)
		if err != nil {
			return nil, invalidArgument("invalid base64 end sequence").WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
		}
		return b, nil
	case "escape":
		out, ok := UnescapeBytea(s)
		if !ok {
			return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type bytea").WithHint("%s", byteaHint)
		}
		return out, nil
	default:
		return nil, unknownEncoding(f)
	}
}

// UnescapeBytea reads bytea's escape format: \\ is a backslash, \nnn
// an octal byte; false at any other backslash.
func UnescapeBytea(s string) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i++
		case i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 3
		default:
			return nil, false
		}
	}
	return out, true
}

// withoutSpace is s without spaces, tabs and line breaks (which decode
// skips in hex and base64).
func withoutSpace(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, s)
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// shaOf is sha224, sha256, sha384 or sha512 of bytea (text is its UTF-8
// bytes), returning bytea as PostgreSQL does.
func shaOf(sum func([]byte) []byte) func(a []driver.Value) (any, error) {
	return func(a []driver.Value) (any, error) {
		b, _ := a[0].([]byte)
		return sum(b), nil
	}
}

// unistr is PostgreSQL's unistr(text): \XXXX, \+XXXXXX, \uXXXX and
// \UXXXXXXXX escapes (surrogate pairs joined), \\ a backslash.
func unistr(a []driver.Value) (any, error) {
	s := argText(a[0])
	var b strings.Builder
	bad := func() error {
		return vsqlerr.New(vsqlerr.InvalidUnicodeEscape, "invalid Unicode escape").
			WithHint(`Unicode escapes must be \XXXX, \+XXXXXX, \uXXXX, or \UXXXXXXXX.`)
	}
	hexN := func(i, n int) (rune, bool) {
		if i+n > len(s) {
			return 0, false
		}
		var r rune
		for _, c := range s[i : i+n] {
			switch {
			case c >= '0' && c <= '9':
				r = r*16 + c - '0'
			case c >= 'a' && c <= 'f':
				r = r*16 + c - 'a' + 10
			case c >= 'A' && c <= 'F':
				r = r*16 + c - 'A' + 10
			default:
				return 0, false
			}
		}
		return r, true
	}
	surrogate := func() error { return vsqlerr.New(vsqlerr.InvalidUnicodeEscape, "invalid Unicode surrogate pair") }
	var high rune
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			if high != 0 {
				return nil, surrogate()
			}
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			b.WriteByte('\\')
			i += 2
			continue
		}
		var r rune
		var ok bool
		switch {
		case i+1 < len(s) && s[i+1] == '+':
			r, ok = hexN(i+2, 6)
			i += 8
		case i+1 < len(s) && s[i+1] == 'u':
			r, ok = hexN(i+2, 4)
			i += 6
		case i+1 < len(s) && s[i+1] == 'U':
			r, ok = hexN(i+2, 8)
			i += 10
		default:
			r, ok = hexN(i+1, 4)
			i += 5
		}
		if !ok {
			return nil, bad()
		}
		if r > 0x10FFFF {
			return nil, invalidArgument("invalid Unicode code point: %X", r)
		}
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			if high != 0 {
				return nil, surrogate()
			}
			high = r
			continue
		case r >= 0xDC00 && r <= 0xDFFF:
			if high == 0 {
				return nil, surrogate()
			}
			r = (high-0xD800)<<10 + (r - 0xDC00) + 0x10000
			high = 0
		case high != 0:
			return nil, surrogate()
		}
		b.WriteRune(r)
	}
	if high != 0 {
		return nil, surrogate()
	}
	return b.String(), nil
}

// ParseBytea reads text as PostgreSQL's bytea input does: \x then pairs
// of hex digits (spaces allowed between pairs), or the escape format,
// where \\ is a backslash, \ooo an octal byte (first digit 0-3) and
// every other byte itself. DuckDB's own cast read \xHH as one escaped
// byte and the rest as text, so '\xdeadbeef' stored 7 other bytes.
func ParseBytea(text []byte) ([]byte, error) {
	if len(text) >= 2 && text[0] == '\\' && text[1] == 'x' {
		out := make([]byte, 0, (len(text)-2)/2)
		for i := 2; i < len(text); {
			c := text[i]
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				i++
				continue
			}
			hi, ok := unhexDigit(c)
			if !ok {
				return nil, vsqlerr.New(vsqlerr.InvalidArgument, "invalid hexadecimal digit: %q", string(rune(c))).WithHint("%s", byteaHint)
			}
			if i+1 >= len(text) {
				return nil, vsqlerr.New(vsqlerr.InvalidArgument, "invalid hexadecimal data: odd number of digits").WithHint("%s", byteaHint)
			}
			lo, ok := unhexDigit(text[i+1])
			if !ok {
				return nil, vsqlerr.New(vsqlerr.InvalidArgument, "invalid hexadecimal digit: %q", string(rune(text[i+1]))).WithHint("%s", byteaHint)
			}
			out = append(out, hi<<4|lo)
			i += 2
		}
		return out, nil
	}
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c != '\\':
			out = append(out, c)
		case i+1 < len(text) && text[i+1] == '\\':
			out = append(out, '\\')
			i++
		case i+3 < len(text) && text[i+1] >= '0' && text[i+1] <= '3' && isOctal(text[i+2]) && isOctal(text[i+3]):
			out = append(out, (text[i+1]-'0')<<6|(text[i+2]-'0')<<3|(text[i+3]-'0'))
			i += 3
		default:
			return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type bytea").WithHint("%s", byteaHint)
		}
	}
	return out, nil
}

// byteaHint is the hint of a text that is not bytea input.
const byteaHint = `bytea text is \x and pairs of hex digits ('\xdeadbeef'; DuckDB's '\xDE\xAD' form is not read here), or text where \\ is a backslash and \ooo an octal byte`

func unhexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
