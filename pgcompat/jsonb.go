package pgcompat

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// jsonb's output form, one printer for the wire (pgwire prints JSON
// columns with it) and for the functions that build jsonb text here.

// AppendJSONB re-serializes a parsed JSON value — as duckdb-go hands it
// out (a JSON string scalar arrives as a Go string, numbers as float64), or
// as encoding/json decodes it with UseNumber — the way PostgreSQL prints
// jsonb: object keys shorter first, then in byte order (the last of
// duplicate keys wins), ", " and ": " between items; a json.Number as
// written (appendJSONNumber), a float64 — all the driver hands out, on
// pgwire's row path — in its shortest decimal form (1.50 is 1.5: see
// pgwire's caveats).
func AppendJSONB(buf []byte, v any) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...)
	case bool:
		return strconv.AppendBool(buf, x)
	case float64:
		if x == 0 {
			return append(buf, '0') // -0 too, as numeric prints it
		}
		return strconv.AppendFloat(buf, x, 'f', -1, 64)
	case json.Number: // the number's own text (1.50 stays 1.50)
		return appendJSONNumber(buf, string(x))
	case string:
		return appendJSONString(buf, x)
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = AppendJSONB(buf, e)
		}
		return append(buf, ']')
	case map[string]any:
		buf = append(buf, '{')
		for i, k := range jsonbKeys(x) {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(appendJSONString(buf, k), ": "...)
			buf = AppendJSONB(buf, x[k])
		}
		return append(buf, '}')
	}
	b, err := json.Marshal(v)
	if err != nil {
		return append(buf, fmt.Sprint(v)...)
	}
	return append(buf, b...)
}

// jsonbKeys are an object's keys in jsonb's order: shorter first, then in
// byte order.
func jsonbKeys(obj map[string]any) []string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) < len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}

// appendJSONBPretty is AppendJSONB as PostgreSQL's jsonb_pretty prints
// it: every element of an array and member of an object on a line of its
// own, indented by four spaces a level; the brackets of an empty one on
// two lines.
func appendJSONBPretty(buf []byte, v any, depth int) []byte {
	indent := func(buf []byte, d int) []byte {
		buf = append(buf, '\n')
		return append(buf, strings.Repeat("    ", d)...)
	}
	switch x := v.(type) {
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONBPretty(indent(buf, depth+1), e, depth+1)
		}
		return append(indent(buf, depth), ']')
	case map[string]any:
		buf = append(buf, '{')
		for i, k := range jsonbKeys(x) {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(appendJSONString(indent(buf, depth+1), k), ": "...)
			buf = appendJSONBPretty(buf, x[k], depth+1)
		}
		return append(indent(buf, depth), '}')
	}
	return AppendJSONB(buf, v)
}

// jsonbPretty is jsonb_pretty(j).
func jsonbPretty(a []driver.Value) (any, error) {
	v, err := decodeJSON(argText(a[0]))
	if err != nil {
		return nil, err
	}
	return string(appendJSONBPretty(nil, v, 0)), nil
}

// appendJSONString appends s as a JSON string as PostgreSQL escapes it:
// quote, backslash and control characters only.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			buf = append(buf, `\"`...)
		case '\\':
			buf = append(buf, `\\`...)
		case '\b':
			buf = append(buf, `\b`...)
		case '\f':
			buf = append(buf, `\f`...)
		case '\n':
			buf = append(buf, `\n`...)
		case '\r':
			buf = append(buf, `\r`...)
		case '\t':
			buf = append(buf, `\t`...)
		default:
			if c < 0x20 {
				buf = append(buf, fmt.Sprintf(`\u%04x`, c)...)
			} else {
				buf = append(buf, c)
			}
		}
	}
	return append(buf, '"')
}

// AppendJSONBText prints JSON text (a JSON value of DuckDB's, as it is
// stored) the way PostgreSQL prints jsonb, keeping every number exactly:
// decoded with UseNumber, so 12345678901234567890 and 1.10 come out as
// written, and a JSON null as null (not as SQL NULL). Text that is not
// JSON is printed as it is.
func AppendJSONBText(buf, raw []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return append(buf, raw...)
	}
	return AppendJSONB(buf, v)
}

// appendJSONNumber prints a JSON number as PostgreSQL's numeric prints it:
// its digits as written, except that an exponent is applied (1e2 is 100,
// 1.50e1 is 15.0: the scale is the fraction's digits less the exponent)
// and a zero has no sign.
func appendJSONNumber(buf []byte, num string) []byte {
	mant, exp, hasExp := strings.Cut(strings.ToLower(num), "e")
	if !hasExp {
		if strings.Trim(mant, "-0.") == "" && strings.HasPrefix(mant, "-") {
			return append(buf, mant[1:]...) // -0, -0.00: numeric has no negative zero
		}
		return append(buf, num...)
	}
	e, err := strconv.Atoi(exp)
	r, ok := new(big.Rat).SetString(num)
	if err != nil || !ok {
		return append(buf, num...)
	}
	frac := 0
	if _, f, ok := strings.Cut(mant, "."); ok {
		frac = len(f)
	}
	return append(buf, r.FloatString(max(frac-e, 0))...)
}
