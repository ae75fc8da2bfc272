package pgcompat

import (
	"database/sql/driver"
	"encoding/json"
	"math/big"

	"github.com/duckdb/duckdb-go/v2"
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

// jsonbContains is a @> b of two JSON texts.
func jsonbContains(a []driver.Value) (any, error) {
	val, err := decodeJSON(a[0].(string))
	if err != nil {
		return nil, err
	}
	tmpl, err := decodeJSON(a[1].(string))
	if err != nil {
		return nil, err
	}
	_, valObject := val.(map[string]any)
	_, tmplObject := tmpl.(map[string]any)
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
	case map[string]any:
		v, ok := val.(map[string]any)
		if !ok {
			return false
		}
		for k, tv := range t {
			vv, ok := v[k]
			if !ok || !jsonValueContains(vv, tv) {
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
	case map[string]any, []any:
		return jsonDeepContains(v, t)
	}
	return jsonScalarEqual(v, t)
}

// jsonScalarEqual compares two scalars as jsonb does: of one type, and
// numbers by value.
func jsonScalarEqual(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
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
