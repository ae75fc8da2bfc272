package pgcompat

import (
	"database/sql/driver"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// VARIADIC arguments of PostgreSQL's variadic functions: f(…, VARIADIC a)
// passes the elements of the array a as the arguments (all of them, in
// order, whatever a's dimensions), and a NULL array as a NULL result
// (format(), as no arguments). DuckDB's parser takes the word and passes
// the array itself as one argument, so variadicCall (literals.go) calls
// these in its place:
//
//   - concat(VARIADIC a), concat_ws(sep, VARIADIC a): pg_concat_variadic,
//     pg_concat_ws_variadic (variadicJoin): the elements' text, NULLs
//     left out;
//   - json(b)_build_array(VARIADIC a), json(b)_build_object(VARIADIC a):
//     pg_json_build_array_variadic, pg_json_build_object_variadic
//     (variadicJSON): the elements as JSON values; an object's keys are
//     the elements at odd positions, as text (an odd count is 22023, a
//     NULL key 22023 as in PostgreSQL).
//
// An argument after VARIADIC that is not an array is 42804
// (datatype_mismatch), PostgreSQL's error.

// variadicMacros are the macros variadicCall names.
func variadicMacros(schema string) []string {
	return []string{
		"CREATE OR REPLACE MACRO " + schema + ".pg_concat_variadic(a) AS __vsql_variadic_join(a, typeof(a), '')",
		"CREATE OR REPLACE MACRO " + schema + ".pg_concat_ws_variadic(s, a) AS __vsql_variadic_join(a, typeof(a), s)",
		"CREATE OR REPLACE MACRO " + schema + ".pg_json_build_array_variadic(a) AS CAST(__vsql_variadic_json(a, typeof(a), false) AS JSON)",
		"CREATE OR REPLACE MACRO " + schema + ".pg_json_build_object_variadic(a) AS CAST(__vsql_variadic_json(a, typeof(a), true) AS JSON)",
		// json_build_array and json_build_object: json, PostgreSQL's
		// spacing ({"a" : 1, "b" : 2})
		"CREATE OR REPLACE MACRO " + schema + ".pg_pgjson_build_array_variadic(a) AS CAST(__vsql_variadic_pgjson(a, typeof(a), false) AS " + JSONType + ")",
		"CREATE OR REPLACE MACRO " + schema + ".pg_pgjson_build_object_variadic(a) AS CAST(__vsql_variadic_pgjson(a, typeof(a), true) AS " + JSONType + ")",
	}
}

// variadicFunctions are the Go functions of those macros: (array, its
// typeof, the separator) and (array, its typeof, whether an object).
var variadicFunctions = map[string][]scalar{
	"__vsql_variadic_join": {{in: []duckdb.Type{tAny, tText, tText}, out: tText, run: variadicJoin}},
	"__vsql_variadic_json": {{in: []duckdb.Type{tAny, tText, tBool}, out: tText, run: variadicJSON}},
	"__vsql_variadic_pgjson": {{in: []duckdb.Type{tAny, tText, tBool}, out: tText, run: func(a []driver.Value) (any, error) {
		return variadicJSONSep(a, " : ")
	}}},
}

// variadicElements are the elements of the array a VARIADIC argument
// passes, nested lists' in order; typ is its typeof, of which elemType
// keeps the elements' type.
func variadicElements(v driver.Value, typ string) (elems []any, elemType string, err error) {
	list, ok := v.([]any)
	if !ok || !strings.HasSuffix(typ, "[]") {
		return nil, "", vsqlerr.New(vsqlerr.DatatypeMismatch, "VARIADIC argument must be an array")
	}
	var walk func(l []any)
	walk = func(l []any) {
		for _, e := range l {
			if sub, ok := e.([]any); ok {
				walk(sub)
				continue
			}
			elems = append(elems, e)
		}
	}
	walk(list)
	for strings.HasSuffix(typ, "[]") {
		typ = strings.TrimSuffix(typ, "[]")
	}
	return elems, typ, nil
}

// variadicJoin is concat (separator "") and concat_ws of an array's
// elements: each non-NULL element's text, as PostgreSQL writes it.
func variadicJoin(a []driver.Value) (any, error) {
	elems, typ, err := variadicElements(a[0], a[1].(string))
	if err != nil {
		return nil, err
	}
	sep := a[2].(string)
	var b []byte
	first := true
	for _, e := range elems {
		if e == nil {
			continue
		}
		if !first {
			b = append(b, sep...)
		}
		first = false
		b = appendElementText(b, e, typ)
	}
	return string(b), nil
}

// variadicJSON is json(b)_build_array (object false) or
// json(b)_build_object of an array's elements.
func variadicJSON(a []driver.Value) (any, error) { return variadicJSONSep(a, ": ") }

// variadicJSONSep is variadicJSON with colon between an object's keys
// and values.
func variadicJSONSep(a []driver.Value, colon string) (any, error) {
	elems, typ, err := variadicElements(a[0], a[1].(string))
	if err != nil {
		return nil, err
	}
	object := a[2].(bool)
	var b []byte
	if !object {
		b = append(b, '[')
		for i, e := range elems {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendElementJSON(b, e, typ)
		}
		return string(append(b, ']')), nil
	}
	if len(elems)%2 != 0 {
		return nil, vsqlerr.New(vsqlerr.InvalidArgument, "argument list must have even number of elements")
	}
	b = append(b, '{')
	for i := 0; i < len(elems); i += 2 {
		if elems[i] == nil {
			return nil, vsqlerr.New(vsqlerr.InvalidArgument, "argument %d cannot be null", i+1)
		}
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendJSONString(b, string(appendElementText(nil, elems[i], typ)))
		b = append(b, colon...)
		b = appendElementJSON(b, elems[i+1], typ)
	}
	return string(append(b, '}')), nil
}

// appendElementText appends the text PostgreSQL's output function writes
// for an element of type typ (DuckDB's typeof): appendPGText's, with
// decimals and times, which the driver's values do not print so.
func appendElementText(b []byte, v any, typ string) []byte {
	switch x := v.(type) {
	case duckdb.Decimal:
		return append(b, decimalText(x)...)
	case *big.Int:
		return append(b, x.String()...)
	case time.Time:
		switch typ {
		case "DATE":
			return x.AppendFormat(b, "2006-01-02")
		case "TIMESTAMP WITH TIME ZONE":
			return x.UTC().AppendFormat(b, "2006-01-02 15:04:05.999999-07")
		case "TIME":
			return x.AppendFormat(b, "15:04:05.999999")
		}
		return x.AppendFormat(b, "2006-01-02 15:04:05.999999")
	}
	return appendPGText(b, v, typ, "")
}

// appendElementJSON appends an element as to_json writes it: numbers and
// booleans bare, JSON as it is, times in ISO 8601, the rest as strings.
func appendElementJSON(b []byte, v any, typ string) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, x)
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64, *big.Int, duckdb.Decimal:
		return appendElementText(b, v, typ)
	case float64, float32:
		f, _ := x.(float64)
		if g, ok := x.(float32); ok {
			f = float64(g)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			break // PostgreSQL writes these as strings
		}
		return appendElementText(b, v, typ)
	case string:
		if typ == "JSON" {
			return append(b, x...)
		}
	case time.Time:
		var s []byte
		switch typ {
		case "DATE":
			s = x.AppendFormat(nil, "2006-01-02")
		case "TIMESTAMP WITH TIME ZONE":
			s = x.UTC().AppendFormat(nil, "2006-01-02T15:04:05.999999-07:00")
		case "TIME":
			s = x.AppendFormat(nil, "15:04:05.999999")
		default:
			s = x.AppendFormat(nil, "2006-01-02T15:04:05.999999")
		}
		return appendJSONString(b, string(s))
	}
	return appendJSONString(b, string(appendElementText(nil, v, typ)))
}
