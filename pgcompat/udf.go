package pgcompat

import (
	"crypto/sha256"
	"crypto/sha512"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"math/big"
	"sync"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Functions written in Go, for PostgreSQL functions whose semantics a
// macro cannot express (the template languages of to_char, to_timestamp,
// to_date and to_number). Each is a DuckDB scalar function of the engine
// named __vsql_…, which client SQL cannot name; the macro of the
// PostgreSQL name in sqltext.FunctionsSchema calls it (see setup).

// scalar is one overload of a Go function.
type scalar struct {
	in     []duckdb.Type
	out    duckdb.Type
	run    func(args []driver.Value) (any, error)
	volate bool
	nulls  bool // the function sees NULL arguments (otherwise NULL in, NULL out)
}

func (s scalar) Config() duckdb.ScalarFuncConfig {
	var ins []duckdb.TypeInfo
	for _, t := range s.in {
		ins = append(ins, typeInfoOf(t))
	}
	return duckdb.ScalarFuncConfig{InputTypeInfos: ins, ResultTypeInfo: typeInfoOf(s.out), Volatile: s.volate, SpecialNullHandling: s.nulls}
}

// typeInfoOf is the type of an argument or result (tTextList and
// tTextListList are VARCHAR[] and VARCHAR[][]).
func typeInfoOf(t duckdb.Type) duckdb.TypeInfo {
	var info duckdb.TypeInfo
	var err error
	switch t {
	case duckdb.TYPE_LIST, duckdb.TYPE_ARRAY:
		var text duckdb.TypeInfo
		if text, err = duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR); err == nil {
			info, err = duckdb.NewListInfo(text)
		}
		if err == nil && t == duckdb.TYPE_ARRAY {
			info, err = duckdb.NewListInfo(info)
		}
	default:
		info, err = duckdb.NewTypeInfo(t)
	}
	if err != nil {
		panic(err)
	}
	return info
}

// Executor runs the function; an error keeps its own hint through DuckDB
// (vsqlerr.ForEngine).
func (s scalar) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(args []driver.Value) (any, error) {
		v, err := s.run(args)
		if err != nil {
			return nil, vsqlerr.ForEngine(err)
		}
		return v, nil
	}}
}

var (
	tText  = duckdb.TYPE_VARCHAR
	tTS    = duckdb.TYPE_TIMESTAMP
	tTSTZ  = duckdb.TYPE_TIMESTAMP_TZ
	tIval  = duckdb.TYPE_INTERVAL
	tAny   = duckdb.TYPE_ANY
	tDate  = duckdb.TYPE_DATE
	tFloat = duckdb.TYPE_DOUBLE
	tInt   = duckdb.TYPE_BIGINT
	tInt4  = duckdb.TYPE_INTEGER
	tBool  = duckdb.TYPE_BOOLEAN
	// tTextList is VARCHAR[]
	tTextList = duckdb.TYPE_LIST
	// tTextListList is VARCHAR[][]
	tTextListList = duckdb.TYPE_ARRAY
)

// infiniteTime reports whether t is DuckDB's infinity or -infinity of a
// timestamp or date (beyond PostgreSQL's range of years), which to_char
// prints as NULL, as PostgreSQL does.
func infiniteTime(t time.Time) bool {
	if y := t.Year(); y > 294276 || y < -4713 { // a date's
		return true
	}
	us := t.UnixMicro()
	return us == math.MaxInt64 || us == -math.MaxInt64
}

// goFunctions are the Go functions by name, each a set of overloads.
var goFunctions = map[string][]scalar{
	"__vsql_to_char": {
		// (value, template, the session's TimeZone)
		{in: []duckdb.Type{tTS, tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			if infiniteTime(a[0].(time.Time)) {
				return nil, nil
			}
			return formatDatetime(timeFields(a[0].(time.Time), false), a[1].(string)), nil
		}},
		{in: []duckdb.Type{tTSTZ, tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			if infiniteTime(a[0].(time.Time)) {
				return nil, nil
			}
			return formatDatetime(timeFields(inZone(a[0].(time.Time), a[2]), true), a[1].(string)), nil
		}},
		{in: []duckdb.Type{tIval, tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			iv := a[0].(duckdb.Interval)
			return formatDatetime(intervalFields(iv.Months, iv.Days, iv.Micros), a[1].(string)), nil
		}},
		{in: []duckdb.Type{tAny, tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			if t, ok := a[0].(time.Time); ok { // a date: PostgreSQL takes it as timestamptz
				if infiniteTime(t) {
					return nil, nil
				}
				return formatDatetime(timeFields(inZone(t, a[2]), true), a[1].(string)), nil
			}
			return toCharNumber(a[0], a[1].(string))
		}},
	},
	// x AT TIME ZONE 'MSK' (a dynamic abbreviation): (abbreviation, x)
	"__vsql_timezone_abbrev": {
		{in: []duckdb.Type{tText, tTS}, out: tTSTZ, run: func(a []driver.Value) (any, error) {
			t := a[1].(time.Time)
			if infiniteTime(t) {
				return t, nil
			}
			east, _ := pgdatetime.AbbrevOffsetLocal(a[0].(string), t.Unix())
			return t.Add(-time.Duration(east) * time.Second), nil
		}},
		{in: []duckdb.Type{tText, tTSTZ}, out: tTS, run: func(a []driver.Value) (any, error) {
			t := a[1].(time.Time)
			if infiniteTime(t) {
				return t, nil
			}
			east, _ := pgdatetime.AbbrevOffsetAt(a[0].(string), t.Unix())
			return t.UTC().Add(time.Duration(east) * time.Second), nil
		}},
	},
	// x AT TIME ZONE 'UTC+4:30' (a fixed offset ICU cannot name): (seconds
	// east, x)
	"__vsql_timezone_offset": {
		{in: []duckdb.Type{tInt, tTS}, out: tTSTZ, run: func(a []driver.Value) (any, error) {
			t := a[1].(time.Time)
			if infiniteTime(t) {
				return t, nil
			}
			return t.Add(-time.Duration(a[0].(int64)) * time.Second), nil
		}},
		{in: []duckdb.Type{tInt, tTSTZ}, out: tTS, run: func(a []driver.Value) (any, error) {
			t := a[1].(time.Time)
			if infiniteTime(t) {
				return t, nil
			}
			return t.UTC().Add(time.Duration(a[0].(int64)) * time.Second), nil
		}},
	},
	"__vsql_to_timestamp": {
		{in: []duckdb.Type{tText, tText}, out: tTSTZ, run: func(a []driver.Value) (any, error) {
			t, _, err := parseDatetime(a[0].(string), a[1].(string))
			return t, err
		}},
	},
	"__vsql_to_date": {
		{in: []duckdb.Type{tText, tText}, out: tDate, run: func(a []driver.Value) (any, error) {
			t, _, err := parseDatetime(a[0].(string), a[1].(string))
			if err != nil {
				return nil, err
			}
			return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
		}},
	},
	"__vsql_regexp_count":    {{in: []duckdb.Type{tText, tText, tInt, tText}, out: tInt4, run: regexpCount}},
	"__vsql_regexp_instr":    {{in: []duckdb.Type{tText, tText, tInt, tInt, tText, tInt, tInt}, out: tInt4, run: regexpInstr}},
	"__vsql_regexp_substr":   {{in: []duckdb.Type{tText, tText, tInt, tInt, tText, tInt}, out: tText, run: regexpSubstr}},
	"__vsql_regexp_like":     {{in: []duckdb.Type{tText, tText, tText}, out: tBool, run: regexpLike}},
	"__vsql_regexp_matches":  {{in: []duckdb.Type{tText, tText, tText}, out: tTextListList, run: regexpMatches}},
	"__vsql_regexp_match":    {{in: []duckdb.Type{tText, tText, tText}, out: tTextList, run: regexpMatch}},
	"__vsql_regexp_replace":  {{in: []duckdb.Type{tText, tText, tText, tInt, tInt, tText, tBool}, out: tText, run: regexpReplace}},
	"__vsql_regexp_split":    {{in: []duckdb.Type{tText, tText, tText}, out: tTextList, run: regexpSplit}},
	"__vsql_substring_regex": {{in: []duckdb.Type{tText, tText}, out: tText, run: substringRegex}},
	"__vsql_parse_ident":     {{in: []duckdb.Type{tText, tBool}, out: tTextList, run: parseIdent}},
	"__vsql_jsonb_set": {{in: []duckdb.Type{tText, tAny, tText, tBool}, out: tText, run: func(a []driver.Value) (any, error) {
		return jsonbEdit(a, opSet)
	}}},
	"__vsql_jsonb_insert": {{in: []duckdb.Type{tText, tAny, tText, tBool}, out: tText, run: func(a []driver.Value) (any, error) {
		return jsonbEdit(a, opInsertBefore)
	}}},
	"__vsql_jsonb_strip_nulls": {{in: []duckdb.Type{tText}, out: tText, run: jsonbStripNulls}},
	"__vsql_cardinality":       {{in: []duckdb.Type{tAny}, out: tInt, run: cardinality}},
	"__vsql_width_bucket":      {{in: []duckdb.Type{tAny, tAny}, out: tInt, run: widthBucketArray}},
	"__vsql_array_dims":        {{in: []duckdb.Type{tAny}, out: tText, run: arrayDims}},
	"__vsql_array_ndims":       {{in: []duckdb.Type{tAny}, out: tInt4, run: arrayNdims}},
	"__vsql_array_length":      {{in: []duckdb.Type{tAny, tInt}, out: tInt4, run: arrayLength}},
	"__vsql_json_object":       {{in: []duckdb.Type{tAny}, out: tText, run: jsonObject}, {in: []duckdb.Type{tAny, tAny}, out: tText, run: jsonObject}},
	"__vsql_pgjson_object":     {{in: []duckdb.Type{tAny}, out: tText, run: pgJSONObject}, {in: []duckdb.Type{tAny, tAny}, out: tText, run: pgJSONObject}},
	"__vsql_jsonb_assign":      {{in: []duckdb.Type{tText, tText, tText}, out: tText, run: jsonbAssign, nulls: true}},
	"__vsql_json_populate":     {{in: []duckdb.Type{tText, tText, tText, tText}, out: tText, run: jsonPopulate}},
	"__vsql_encode":            {{in: []duckdb.Type{duckdb.TYPE_BLOB, tText}, out: tText, run: encodeBytes}},
	"__vsql_decode":            {{in: []duckdb.Type{tText, tText}, out: duckdb.TYPE_BLOB, run: decodeBytes}},
	"__vsql_unistr":            {{in: []duckdb.Type{tText}, out: tText, run: unistr}},
	"__vsql_initcap":           {{in: []duckdb.Type{tText}, out: tText, run: initcap}},
	"__vsql_get_byte":          {{in: []duckdb.Type{duckdb.TYPE_BLOB, tInt}, out: tInt4, run: getByte}},
	"__vsql_set_byte":          {{in: []duckdb.Type{duckdb.TYPE_BLOB, tInt, tInt}, out: duckdb.TYPE_BLOB, run: setByte}},
	"__vsql_jsonb_pretty":      {{in: []duckdb.Type{tText}, out: tText, run: jsonbPretty}},
	"__vsql_jsonpath_exists":   {{in: []duckdb.Type{tText, tText}, out: tBool, run: jsonpathExists}},
	"__vsql_jsonpath_match":    {{in: []duckdb.Type{tText, tText, tBool}, out: tBool, run: jsonpathMatch}},
	"__vsql_sha224":            {{in: []duckdb.Type{duckdb.TYPE_BLOB}, out: duckdb.TYPE_BLOB, run: shaOf(func(b []byte) []byte { s := sha256.Sum224(b); return s[:] })}},
	"__vsql_sha256":            {{in: []duckdb.Type{duckdb.TYPE_BLOB}, out: duckdb.TYPE_BLOB, run: shaOf(func(b []byte) []byte { s := sha256.Sum256(b); return s[:] })}},
	"__vsql_sha384":            {{in: []duckdb.Type{duckdb.TYPE_BLOB}, out: duckdb.TYPE_BLOB, run: shaOf(func(b []byte) []byte { s := sha512.Sum384(b); return s[:] })}},
	"__vsql_sha512":            {{in: []duckdb.Type{duckdb.TYPE_BLOB}, out: duckdb.TYPE_BLOB, run: shaOf(func(b []byte) []byte { s := sha512.Sum512(b); return s[:] })}},
	"__vsql_jsonb_concat":      {{in: []duckdb.Type{tText, tText}, out: tText, run: jsonbConcat}},
	"__vsql_jsonb_minus":       {{in: []duckdb.Type{tText, tAny}, out: tText, run: jsonbMinus}},
	"__vsql_jsonb_delete_path": {{in: []duckdb.Type{tText, tAny}, out: tText, run: func(a []driver.Value) (any, error) {
		return jsonbEdit(a, opDelete)
	}}},
	"__vsql_format":       {{in: []duckdb.Type{tText, tTextList}, out: tText, run: textFormat}},
	"__vsql_pg_text":      {{in: []duckdb.Type{tAny, tText, tText}, out: tText, run: pgText}},
	"__vsql_pg_type_name": {{in: []duckdb.Type{tText}, out: tText, run: pgTypeName}},
	"__vsql_to_number": {
		{in: []duckdb.Type{tText, tText}, out: tFloat, run: func(a []driver.Value) (any, error) {
			return toNumber(a[0].(string), a[1].(string))
		}},
	},
}

// RegisterFunctions installs the Go functions on the engine (they are
// global to the DuckDB instance).
func RegisterFunctions(conn *sql.Conn) error {
	if err := registerEngineTypes(conn); err != nil {
		return err
	}
	for name, set := range goFunctions {
		fs := make([]duckdb.ScalarFunc, len(set))
		for i, s := range set {
			fs[i] = s
		}
		if err := duckdb.RegisterScalarUDFSet(conn, name, fs...); err != nil {
			return fmt.Errorf("register %s: %w", name, err)
		}
	}
	return nil
}

// numberText is a numeric argument as exact decimal text (and whether it
// is a float, printed with at most 15 significant digits as PostgreSQL's
// float8 to_char does).
func numberText(v driver.Value) (string, bool, error) {
	switch x := v.(type) {
	case int8, int16, int32, int64, uint8, uint16, uint32, uint64:
		return fmt.Sprint(x), false, nil
	case *big.Int:
		return x.String(), false, nil
	case duckdb.Decimal:
		return decimalText(x), false, nil
	case float64:
		return "", true, nil
	case float32:
		return "", true, nil
	}
	return "", false, fmt.Errorf("[vsql:invalid_argument] to_char: no variant for a value of type %T", v)
}

func decimalText(d duckdb.Decimal) string {
	neg := d.Value.Sign() < 0
	digits := new(big.Int).Abs(d.Value).String()
	scale := int(d.Scale)
	for len(digits) <= scale {
		digits = "0" + digits
	}
	s := digits
	if scale > 0 {
		s = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

var zones sync.Map // name → *time.Location

// inZone is t in the session's time zone: DuckDB's TimeZone, or the
// TimeZone setting vsql keeps in the variable vsql_timezone for a zone
// DuckDB cannot name ('-04:30', '<+10:30>-10:30'); UTC when it is unknown
// to Go.
func inZone(t time.Time, zone driver.Value) time.Time {
	name, _ := zone.(string)
	if l, ok := zones.Load(name); ok {
		return t.In(l.(*time.Location))
	}
	l, err := time.LoadLocation(name)
	if err != nil {
		l = time.UTC
		if zs, err := pgdatetime.ParseZoneSetting(name); err == nil {
			l = zs.Location
		}
	}
	zones.Store(name, l)
	return t.In(l)
}

func init() {
	goFunctions["__vsql_overlaps"] = overlapsFunctions()
	for _, fns := range []map[string][]scalar{variadicFunctions, jsonContainsFunctions, similarSubstringFunctions} {
		for name, set := range fns {
			goFunctions[name] = set
		}
	}
	// names DuckDB has too: their macros are pg_… (see sqltext.ProvideFunctionAs)
	for _, f := range []string{"json_object", "cardinality", "array_length", "array_to_string", "make_date", "json_array_length", "to_timestamp", "regexp_replace", "regexp_split_to_array", "regexp_split_to_table", "string_to_array", "regexp_matches"} {
		sqltext.ProvideFunctionAs(f, "pg_"+f)
	}
	sqltext.ProvideFunctions("to_char", "to_date", "to_number",
		"string_to_table",
		"regexp_count", "regexp_instr", "regexp_substr", "regexp_like", "regexp_match", "parse_ident",
		"jsonb_set", "jsonb_insert", "jsonb_delete_path", "jsonb_set_lax", "jsonb_object")
}
