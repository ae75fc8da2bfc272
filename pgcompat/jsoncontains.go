package pgcompat

import (
	"database/sql/driver"
	"math/big"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// jsonb containment, a @> b and a <@ b, as PostgreSQL's
// JsonbDeepContains decides it. DuckDB's json_contains looks for the
// needle anywhere in the haystack ('{"a": {"b": 1}}' contains '{"b": 1}'
// there, and '[1, [2, 3]]' contains '[2]'), and compares numbers as
// text (25.0 is not 25). PostgreSQL's rules:
//
//   - an object contains an object when each of the template's keys is
//     in it with a value that contains the template's value (a scalar
//     equal to a scalar, a container of the same kind containing the
//     template's container);
//   - an array contains an array when each of the template's scalars
//     equals one of its scalars and each of the template's containers is
//     contained in one of its containers of the same kind (order and
//     repetition do not matter);
//   - at the top level a scalar is an array of one element (so '["a"]'
//     contains '"a"'), which contains no array ('"a"' does not contain
//     '["a"]'), and an object never contains an array or the reverse;
//   - scalars are equal when of one type and value: numbers by value
//     (25.0 = 25), strings byte for byte.

var jsonContainsFunctions = map[string][]scalar{
	"__vsql_jsonb_contains": {{in: []duckdb.Type{tText, tText}, out: tBool, run: jsonbContains}},
}

// templates keeps parsed templates (the right side of @>, most often
// one constant for every row), up to maxTemplates of them.
var templates sync.Map

const maxTemplates = 256

var templateCount atomic.Int32

// jsonbContains is a @> b of two JSON texts.
func jsonbContains(a []driver.Value) (any, error) {
	val, err := parseJSONValue(a[0].(string))
	if err != nil {
		return nil, err
	}
	key := a[1].(string)
	tmpl, ok := templates.Load(key)
	if !ok {
		t, err := parseJSONValue(key)
		if err != nil {
			return nil, err
		}
		tmpl = t
		if templateCount.Add(1) <= maxTemplates {
			templates.Store(key, t)
		}
	}
	_, valObject := val.(jsonbObject)
	_, tmplObject := tmpl.(jsonbObject)
	if valObject != tmplObject {
		return false, nil
	}
	if !valObject {
		// a top-level scalar is an array of one element, which contains
		// a scalar but no array
		_, valArray := val.([]any)
		_, tmplArray := tmpl.([]any)
		if !valArray && tmplArray {
			return false, nil
		}
		if !valArray {
			val = []any{val}
		}
		if !tmplArray {
			tmpl = []any{tmpl}
		}
	}
	return jsonDeepContains(val, tmpl), nil
}

// jsonDeepContains reports whether container val contains container tmpl
// (two objects or two arrays).
func jsonDeepContains(val, tmpl any) bool {
	switch t := tmpl.(type) {
	case jsonbObject:
		v, ok := val.(jsonbObject)
		if !ok {
			return false
		}
		for k, m := range t {
			if later(t, k) {
				continue // a repeated key: its last value counts
			}
			vv, ok := v.get(m.key)
			if !ok || !jsonValueContains(vv, m.val) {
				return false
			}
		}
		return true
	case []any:
		v, ok := val.([]any)
		if !ok {
			return false
		}
	elements:
		for _, te := range t {
			for _, ve := range v {
				if jsonValueContains(ve, te) {
					continue elements
				}
			}
			return false
		}
		return true
	}
	return false
}

// jsonValueContains: a scalar contains an equal scalar, a container a
// container of its kind that it deeply contains.
func jsonValueContains(v, t any) bool {
	switch t.(type) {
	case jsonbObject, []any:
		return jsonDeepContains(v, t)
	}
	return jsonScalarEqual(v, t)
}

// jsonScalarEqual compares two scalars as jsonb does: of one type, and
// numbers by value.
func jsonScalarEqual(a, b any) bool {
	switch x := a.(type) {
	case jsonNumber:
		y, ok := b.(jsonNumber)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		fx, okx := new(big.Rat).SetString(string(x))
		fy, oky := new(big.Rat).SetString(string(y))
		return okx && oky && fx.Cmp(fy) == 0
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

// jsonNumber is a JSON number as written.
type jsonNumber string

// jsonbObject is an object's members in their order; a key given twice
// has its last value (jsonb's rule).
type jsonbObject []jsonbMember

type jsonbMember struct {
	key string
	val any
}

// later reports whether the key of member k appears again after it.
func later(o jsonbObject, k int) bool {
	for _, m := range o[k+1:] {
		if m.key == o[k].key {
			return true
		}
	}
	return false
}

// get is the value of key k.
func (o jsonbObject) get(k string) (any, bool) {
	for i := len(o) - 1; i >= 0; i-- {
		if o[i].key == k {
			return o[i].val, true
		}
	}
	return nil, false
}

// parseJSONValue reads one JSON text into jsonbObject, []any,
// jsonNumber, string, bool or nil: encoding/json's decoder took most of the containment test's time.
func parseJSONValue(s string) (any, error) {
	v, i, ok := parseJSONAt(s, skipSpace(s, 0))
	if !ok || skipSpace(s, i) != len(s) {
		_, err := decodeJSON(s) // its message
		if err == nil {
			err = vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json")
		}
		return nil, err
	}
	return v, nil
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

func parseJSONAt(s string, i int) (any, int, bool) {
	if i >= len(s) {
		return nil, i, false
	}
	switch c := s[i]; {
	case c == '{':
		obj := jsonbObject{}
		i = skipSpace(s, i+1)
		if i < len(s) && s[i] == '}' {
			return obj, i + 1, true
		}
		for {
			if i >= len(s) || s[i] != '"' {
				return nil, i, false
			}
			k, j, ok := parseJSONString(s, i)
			if !ok {
				return nil, j, false
			}
			i = skipSpace(s, j)
			if i >= len(s) || s[i] != ':' {
				return nil, i, false
			}
			v, j2, ok := parseJSONAt(s, skipSpace(s, i+1))
			if !ok {
				return nil, j2, false
			}
			obj = append(obj, jsonbMember{k.(string), v})
			i = skipSpace(s, j2)
			if i < len(s) && s[i] == ',' {
				i = skipSpace(s, i+1)
				continue
			}
			if i < len(s) && s[i] == '}' {
				return obj, i + 1, true
			}
			return nil, i, false
		}
	case c == '[':
		var arr []any
		i = skipSpace(s, i+1)
		if i < len(s) && s[i] == ']' {
			return []any{}, i + 1, true
		}
		for {
			v, j, ok := parseJSONAt(s, i)
			if !ok {
				return nil, j, false
			}
			arr = append(arr, v)
			i = skipSpace(s, j)
			if i < len(s) && s[i] == ',' {
				i = skipSpace(s, i+1)
				continue
			}
			if i < len(s) && s[i] == ']' {
				return arr, i + 1, true
			}
			return nil, i, false
		}
	case c == '"':
		return parseJSONString(s, i)
	case c == 't' && len(s) >= i+4 && s[i:i+4] == "true":
		return true, i + 4, true
	case c == 'f' && len(s) >= i+5 && s[i:i+5] == "false":
		return false, i + 5, true
	case c == 'n' && len(s) >= i+4 && s[i:i+4] == "null":
		return nil, i + 4, true
	case c == '-' || c >= '0' && c <= '9':
		j := i + 1
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || s[j] == '+' || s[j] == '-') {
			j++
		}
		if _, err := strconv.ParseFloat(s[i:j], 64); err != nil && !isRangeError(err) {
			return nil, j, false
		}
		return jsonNumber(s[i:j]), j, true
	}
	return nil, i, false
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// parseJSONString reads the string whose quote is at s[i].
func parseJSONString(s string, i int) (any, int, bool) {
	j := i + 1
	for j < len(s) && s[j] != '"' && s[j] != '\\' && s[j] >= 0x20 {
		j++
	}
	if j < len(s) && s[j] == '"' {
		return s[i+1 : j], j + 1, true
	}
	b := []byte(s[i+1 : j])
	for j < len(s) {
		c := s[j]
		switch {
		case c == '"':
			return string(b), j + 1, true
		case c < 0x20:
			return nil, j, false
		case c != '\\':
			b = append(b, c)
			j++
			continue
		}
		if j+1 >= len(s) {
			return nil, j, false
		}
		switch e := s[j+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, n, ok := readUnicodeEscape(s, j)
			if !ok {
				return nil, j, false
			}
			b = utf8.AppendRune(b, r)
			j += n
			continue
		default:
			return nil, j, false
		}
		j += 2
	}
	return nil, j, false
}

// readUnicodeEscape reads \uXXXX (a surrogate pair as two) at s[j].
func readUnicodeEscape(s string, j int) (rune, int, bool) {
	hex := func(at int) (rune, bool) {
		if at+6 > len(s) || s[at] != '\\' || s[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(s[at+2:at+6], 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex(j)
	if !ok {
		return 0, 0, false
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex(j + 6); ok {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12, true
			}
		}
		return utf8.RuneError, 6, true
	}
	return r, 6, true
}
