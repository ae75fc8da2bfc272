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
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
		if len(clean)%2 == 1 {
			return nil, invalidArgument("invalid hexadecimal data: odd number of digits")
		}
		b, err := hex.DecodeString(clean)
		if err != nil {
			return nil, invalidArgument("invalid hexadecimal digit")
		}
		return b, nil
	case "base64":
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
		b, err := base64.StdEncoding.DecodeString(clean)
		if err != nil {
			return nil, invalidArgument("invalid base64 end sequence").WithHint("Input data is missing padding, is truncated, or is otherwise corrupted.")
		}
		return b, nil
	case "escape":
		var out []byte
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
			case i+3 <= len(s)-1 && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]):
				out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
				i += 3
			default:
				return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type bytea")
			}
		}
		return out, nil
	default:
		return nil, unknownEncoding(f)
	}
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
