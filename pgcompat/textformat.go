package pgcompat

import (
	"database/sql/driver"
	"encoding/hex"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vsql/vsql/pgcatalog"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's format(formatstr, arg, …): %s, %I and %L with argument
// positions (%2$s), flags (- to left-justify) and widths (%10s, %*s,
// %*2$s), %% for a percent sign. DuckDB's own format() is fmt-style
// ({}), and printed the template unchanged for PostgreSQL's.
//
// The macro pg_format turns each argument into the text PostgreSQL's
// output function gives it (pgText: booleans t/f, floats in PostgreSQL's
// shortest form, json as jsonb prints, lists as arrays; other types as
// DuckDB casts them to VARCHAR, the same text for them) and calls
// __vsql_format with the template and the list of those texts, NULLs
// kept: %s prints NULL as nothing, %L as NULL, and %I refuses it.

// maxFormatArgs is how many arguments after the template the macro takes.
const maxFormatArgs = 16

// formatMacros create pg_format's overloads and pg_format_variadic.
func formatMacros(schema string) []string {
	var b strings.Builder
	b.WriteString("CREATE OR REPLACE MACRO " + schema + ".pg_format(f) AS __vsql_format(f, CAST([] AS VARCHAR[]))")
	var params, texts []string
	for k := 1; k <= maxFormatArgs; k++ {
		p := "p" + strconv.Itoa(k)
		params = append(params, p)
		// The lambda evaluates the argument once (nextval(…) must not
		// run twice) and passes it with its type and DuckDB's text.
		texts = append(texts, "list_transform(["+p+"], lambda v: __vsql_pg_text(v, typeof(v), CAST(v AS VARCHAR)))[1]")
		b.WriteString(", (f, " + strings.Join(params, ", ") + ") AS __vsql_format(f, [" + strings.Join(texts, ", ") + "])")
	}
	return []string{b.String(),
		// format(f, VARIADIC a) (variadicCall): a NULL array is no arguments
		"CREATE OR REPLACE MACRO " + schema + ".pg_format_variadic(f, a) AS __vsql_format(f, coalesce(list_transform(a, lambda v: __vsql_pg_text(v, typeof(v), CAST(v AS VARCHAR))), CAST([] AS VARCHAR[])))"}
}

// maxConcatArgs is how many arguments (after concat_ws's separator) the
// concat macros take.
const maxConcatArgs = 32

// concatMacros create pg_concat and pg_concat_ws: PostgreSQL's concat and
// concat_ws write each argument by its type's output function (booleans
// t and f, arrays {1,2}, floats and json as PostgreSQL prints them),
// where DuckDB's cast them to VARCHAR (true, [1, 2]). pg_text_arg's type
// tests are constants DuckDB folds when it binds the macro: a text or
// integer argument is only cast, the Go function is called for floats,
// json and lists alone.
func concatMacros(schema string) []string {
	textArg := "CREATE OR REPLACE MACRO " + schema + ".pg_text_arg(p) AS CASE " +
		"WHEN typeof(p) = 'BOOLEAN' THEN CASE CAST(p AS VARCHAR) WHEN 'true' THEN 't' WHEN 'false' THEN 'f' END " +
		"WHEN typeof(p) IN ('DOUBLE', 'FLOAT', 'JSON') OR typeof(p) LIKE '%[]' THEN __vsql_pg_text(p, typeof(p), CAST(p AS VARCHAR)) " +
		"ELSE CAST(p AS VARCHAR) END"
	var concat, concatWS strings.Builder
	concat.WriteString("CREATE OR REPLACE MACRO " + schema + ".pg_concat")
	concatWS.WriteString("CREATE OR REPLACE MACRO " + schema + ".pg_concat_ws")
	var params, texts []string
	for k := 1; k <= maxConcatArgs; k++ {
		p := "p" + strconv.Itoa(k)
		params = append(params, p)
		texts = append(texts, schema+".pg_text_arg("+p+")")
		sep := ","
		if k == 1 {
			sep = ""
		}
		concat.WriteString(sep + " (" + strings.Join(params, ", ") + ") AS concat(" + strings.Join(texts, ", ") + ")")
		concatWS.WriteString(sep + " (s, " + strings.Join(params, ", ") + ") AS concat_ws(s, " + strings.Join(texts, ", ") + ")")
	}
	return []string{textArg, concat.String(), concatWS.String()}
}

// pgText is the text of a value as PostgreSQL's output function writes it
// (typ is DuckDB's typeof, duck its cast to VARCHAR); nil for NULL.
func pgText(a []driver.Value) (any, error) {
	if a[0] == nil {
		return nil, nil
	}
	typ, _ := a[1].(string)
	duck, _ := a[2].(string)
	return string(appendPGText(nil, a[0], typ, duck)), nil
}

func appendPGText(b []byte, v any, typ, duck string) []byte {
	switch typ {
	case "BOOLEAN":
		if x, ok := v.(bool); ok {
			if x {
				return append(b, 't')
			}
			return append(b, 'f')
		}
	case "DOUBLE", "FLOAT":
		switch x := v.(type) {
		case float64:
			return AppendFloat(b, x, 64)
		case float32:
			return AppendFloat(b, float64(x), 32)
		}
	case "JSON":
		switch x := v.(type) {
		case string:
			return AppendJSONBText(b, []byte(x))
		default:
			raw, err := json.Marshal(x)
			if err == nil {
				return AppendJSONBText(b, raw)
			}
		}
	}
	if xs, ok := v.([]any); ok && strings.HasSuffix(typ, "[]") {
		return appendPGArray(b, xs, strings.TrimSuffix(typ, "[]"))
	}
	if duck != "" || v == nil {
		return append(b, duck...)
	}
	return append(b, driverText(v)...)
}

// appendPGArray writes a list as array_out does; elements are written
// by their own type's rules (elem is the element's DuckDB type).
func appendPGArray(b []byte, xs []any, elem string) []byte {
	b = append(b, '{')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		if x == nil {
			b = append(b, "NULL"...)
			continue
		}
		if sub, ok := x.([]any); ok && strings.HasSuffix(elem, "[]") {
			b = appendPGArray(b, sub, strings.TrimSuffix(elem, "[]"))
			continue
		}
		s := appendPGText(nil, x, elem, "")
		if !ArrayElementNeedsQuote(s) {
			b = append(b, s...)
			continue
		}
		b = append(b, '"')
		for _, c := range s {
			if c == '"' || c == '\\' {
				b = append(b, '\\')
			}
			b = append(b, c)
		}
		b = append(b, '"')
	}
	return append(b, '}')
}

// ArrayElementNeedsQuote reports whether array_out quotes an element
// of this text: empty, NULL in any case, or holding braces, a comma, a
// quote, a backslash or white space.
func ArrayElementNeedsQuote[T ~string | ~[]byte](s T) bool {
	if len(s) == 0 || (len(s) == 4 && strings.EqualFold(string(s), "NULL")) {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '{', '}', ',', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
	}
	return false
}

// driverText is the text of a list element whose DuckDB text is not at
// hand: numbers, strings and byte strings as they are.
func driverText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return `\x` + hex.EncodeToString(x)
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, int, uint:
		return strconv.FormatInt(argInt(x), 10)
	}
	if s, ok := v.(interface{ String() string }); ok {
		return s.String()
	}
	raw, _ := json.Marshal(v)
	return string(raw)
}

// AppendFloat formats like PostgreSQL 12+ with extra_float_digits = 1: the
// shortest representation that reads back exactly, in exponent form when
// the exponent is below -4 or at least the type's decimal digits.
func AppendFloat(buf []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(buf, "NaN"...)
	case math.IsInf(f, 1):
		return append(buf, "Infinity"...)
	case math.IsInf(f, -1):
		return append(buf, "-Infinity"...)
	case f == 0:
		if math.Signbit(f) {
			return append(buf, "-0"...)
		}
		return append(buf, '0')
	}
	// Between 1e-4 and the type's decimal digits (10^15 for float8, 10^6
	// for float4) PostgreSQL lays the shortest digits out without an
	// exponent, as 'f' with precision -1 does. The double's magnitude
	// decides, as the digits' would: the shortest digits of a double below
	// 10^15 never round up to 10^15 (that is another double's), nor those
	// of one at or above 1e-4 down below it.
	if a := math.Abs(f); bits == 32 {
		if a >= float64(float32(1e-4)) && a < 1e6 {
			return strconv.AppendFloat(buf, f, 'f', -1, 32)
		}
	} else if a >= 1e-4 && a < 1e15 {
		return strconv.AppendFloat(buf, f, 'f', -1, 64)
	}
	return strconv.AppendFloat(buf, f, 'e', -1, bits)
}

// textFormat is format(f, args…) on the arguments' texts (nil: NULL).
func textFormat(a []driver.Value) (any, error) {
	f, _ := a[0].(string)
	args, _ := a[1].([]any)
	return pgFormat(f, args)
}

func formatError(msg string) error {
	e := vsqlerr.New(vsqlerr.InvalidArgument, "%s", msg)
	if strings.HasPrefix(msg, "unterminated") {
		return e.WithHint(`For a single "%%" use "%%%%".`)
	}
	return e
}

// pgFormat applies PostgreSQL's format template f to args (strings or
// nil), with PostgreSQL's errors.
func pgFormat(f string, args []any) (string, error) {
	var out strings.Builder
	next := 0 // the argument an unnumbered specifier takes
	argAt := func(n int) (any, error) {
		if n >= len(args) {
			return nil, formatError("too few arguments for format()")
		}
		return args[n], nil
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			out.WriteByte(c)
			continue
		}
		i++
		if i >= len(f) {
			return "", formatError("unterminated format() type specifier")
		}
		if f[i] == '%' {
			out.WriteByte('%')
			continue
		}
		// %[position$][flags][width]type
		num := func() (int, bool, error) { // digits at i
			start := i
			n := 0
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				n = n*10 + int(f[i]-'0')
				if n > math.MaxInt32/10 {
					return 0, false, formatError("number is out of range")
				}
				i++
			}
			return n, i > start, nil
		}
		argPos := -1
		n, ok, err := num()
		if err != nil {
			return "", err
		}
		if ok {
			if i < len(f) && f[i] == '$' {
				if n == 0 {
					return "", formatError("format specifies argument 0, but arguments are numbered from 1")
				}
				argPos = n - 1
				i++
				ok = false
			} else {
				// digits without $: a width (flags cannot follow)
				if i >= len(f) {
					return "", formatError("unterminated format() type specifier")
				}
				if err := writeSpec(&out, f[i], args, &next, argPos, n, false, argAt); err != nil {
					return "", err
				}
				continue
			}
		}
		left := false
		for i < len(f) && f[i] == '-' {
			left = true
			i++
		}
		width := 0
		if i < len(f) && f[i] == '*' {
			i++
			wpos := next
			n, ok, err := num()
			if err != nil {
				return "", err
			}
			if ok {
				if i >= len(f) || f[i] != '$' {
					return "", formatError("unterminated format() type specifier")
				}
				if n == 0 {
					return "", formatError("format specifies argument 0, but arguments are numbered from 1")
				}
				wpos = n - 1
				i++
			}
			w, err := argAt(wpos)
			if err != nil {
				return "", err
			}
			next = wpos + 1
			if w != nil {
				ws, _ := w.(string)
				wn, err := strconv.Atoi(strings.TrimSpace(ws))
				if err != nil {
					return "", vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type integer: %q", ws)
				}
				width = wn
			}
		} else if n, ok, err := num(); err != nil {
			return "", err
		} else if ok {
			width = n
		}
		if i >= len(f) {
			return "", formatError("unterminated format() type specifier")
		}
		if width < 0 {
			left, width = true, -width
		}
		if err := writeSpec(&out, f[i], args, &next, argPos, width, left, argAt); err != nil {
			return "", err
		}
	}
	return out.String(), nil
}

// writeSpec writes one %s, %I or %L of the argument at argPos (-1: the
// next one), padded to width.
func writeSpec(out *strings.Builder, typ byte, args []any, next *int, argPos, width int, left bool, argAt func(int) (any, error)) error {
	switch typ {
	case 's', 'I', 'L':
	default:
		return vsqlerr.New(vsqlerr.InvalidArgument, "unrecognized format() type specifier %q", string(rune(typ))).
			WithHint(`For a single "%%" use "%%%%".`)
	}
	if argPos < 0 {
		argPos = *next
	}
	v, err := argAt(argPos)
	if err != nil {
		return err
	}
	*next = argPos + 1
	var s string
	switch typ {
	case 's':
		s, _ = v.(string)
	case 'I':
		if v == nil {
			return vsqlerr.New(vsqlerr.NullValueNotAllowed, "null values cannot be formatted as an SQL identifier")
		}
		s = quoteIdentPG(v.(string))
	case 'L':
		if v == nil {
			s = "NULL"
		} else {
			s = quoteLiteralPG(v.(string))
		}
	}
	pad := width - utf8.RuneCountInString(s)
	if pad > 0 && !left {
		out.WriteString(strings.Repeat(" ", pad))
	}
	out.WriteString(s)
	if pad > 0 && left {
		out.WriteString(strings.Repeat(" ", pad))
	}
	return nil
}

// quoteLiteralPG is quote_literal: quotes doubled, and with a backslash
// in the text, backslashes doubled and an E prefix.
func quoteLiteralPG(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		return "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}

// quoteIdentPG is quote_ident: the name as it is when it is a lower-case
// identifier that is not a reserved word, else double-quoted.
func quoteIdentPG(s string) string {
	plain := s != ""
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c == '_' || (c >= 'a' && c <= 'z') || (i > 0 && (c >= '0' && c <= '9' || c == '$'))
	}
	if plain && !pgcatalog.KeywordNeedsQuote(s) {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
