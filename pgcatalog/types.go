package pgcatalog

import (
	"fmt"
	"sort"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// pgType is one PostgreSQL type vsql names in its catalogs.
type pgType struct {
	oid      int
	name     string   // typname
	display  string   // format_type's name
	duck     []string // DuckDB type names (data_type) shown as this type
	length   int      // typlen
	category string   // typcategory
	array    int      // oid of the array type (0: none)
}

// types agree with package pgwire's wire types (VARCHAR aside: the
// catalogs call it character varying, as a column declared VARCHAR(n) is).
var types = []pgType{
	{16, "bool", "boolean", []string{"BOOLEAN"}, 1, "B", 1000},
	{17, "bytea", "bytea", []string{"BLOB"}, -1, "U", 1001},
	{18, "char", `"char"`, nil, 1, "S", 1002},
	{19, "name", "name", nil, 64, "S", 1003},
	{20, "int8", "bigint", []string{"BIGINT", "UINTEGER"}, 8, "N", 1016},
	{21, "int2", "smallint", []string{"SMALLINT", "TINYINT", "UTINYINT"}, 2, "N", 1005},
	{23, "int4", "integer", []string{"INTEGER", "USMALLINT"}, 4, "N", 1007},
	{24, "regproc", "regproc", nil, 4, "N", 1008},
	{25, "text", "text", nil, -1, "S", 1009},
	{26, "oid", "oid", nil, 4, "N", 1028},
	{114, "json", "json", []string{"pg_json"}, -1, "U", 199}, // pgcompat's json, as pgwire reports it
	{700, "float4", "real", []string{"FLOAT"}, 4, "N", 1021},
	{701, "float8", "double precision", []string{"DOUBLE"}, 8, "N", 1022},
	{790, "money", "money", []string{"money"}, 8, "N", 791}, // pgcompat's money, as pgwire reports it
	{1042, "bpchar", "character", nil, -1, "S", 1014},
	{1043, "varchar", "character varying", []string{"VARCHAR"}, -1, "S", 1015},
	{1082, "date", "date", []string{"DATE"}, 4, "D", 1182},
	{1083, "time", "time without time zone", []string{"TIME"}, 8, "D", 1183},
	{1114, "timestamp", "timestamp without time zone", []string{"TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS"}, 8, "D", 1115},
	{1184, "timestamptz", "timestamp with time zone", []string{"TIMESTAMP WITH TIME ZONE"}, 8, "D", 1185},
	{1186, "interval", "interval", []string{"INTERVAL"}, 16, "T", 1187},
	{1266, "timetz", "time with time zone", []string{"TIME WITH TIME ZONE"}, 12, "D", 1270},
	{1560, "bit", "bit", []string{"pg_bit"}, -1, "V", 1561}, // pgcompat's bit strings, as pgwire reports them
	{1562, "varbit", "bit varying", []string{"varbit"}, -1, "V", 1563},
	{1700, "numeric", "numeric", []string{"HUGEINT", "UBIGINT", "UHUGEINT", "BIGNUM", "VARINT"}, -1, "N", 1231},
	{2205, "regclass", "regclass", nil, 4, "N", 2210},
	{2206, "regtype", "regtype", nil, 4, "N", 2211},
	{2950, "uuid", "uuid", []string{"UUID"}, 16, "U", 2951},
	{3802, "jsonb", "jsonb", []string{"JSON"}, -1, "U", 3807}, // DuckDB's JSON, as pgwire reports it
	{2249, "record", "record", nil, -1, "P", 0},
	{2278, "void", "void", nil, 4, "P", 0},
	{2283, "anyelement", "anyelement", nil, 4, "P", 0},
	{2279, "trigger", "trigger", nil, 4, "P", 0}, // what no vsql function returns (pgcli filters on it)
}

// typeRows is the VALUES list behind pg_type: every type and its array
// type (oid, typname, display, typlen, typcategory, typelem, typarray).
func typeRows() string {
	var rows []string
	for _, t := range types {
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %d, '%s', 0, %d)", t.oid, sqltext.QuoteString(t.name), sqltext.QuoteString(t.display), t.length, t.category, t.array))
		if t.array != 0 {
			rows = append(rows, fmt.Sprintf("(%d, %s, %s, -1, 'A', %d, 0)", t.array, sqltext.QuoteString("_"+t.name), sqltext.QuoteString(t.display+"[]"), t.oid))
		}
	}
	return strings.Join(rows, ",\n")
}

// duckMaps returns two MAP literals: DuckDB type name → oid, and → array oid.
func duckMaps() (scalar, array string) {
	var s, a []string
	for _, t := range types {
		for _, d := range t.duck {
			s = append(s, fmt.Sprintf("%s: %d", sqltext.QuoteString(d), t.oid))
			if t.array != 0 {
				a = append(a, fmt.Sprintf("%s: %d", sqltext.QuoteString(d), t.array))
			}
		}
	}
	sort.Strings(s)
	sort.Strings(a)
	return "MAP {" + strings.Join(s, ", ") + "}", "MAP {" + strings.Join(a, ", ") + "}"
}

// displayMap returns a MAP literal: oid → format_type name (arrays too).
func displayMap() string {
	var m []string
	for _, t := range types {
		m = append(m, fmt.Sprintf("%d: %s", t.oid, sqltext.QuoteString(t.display)))
		if t.array != 0 {
			m = append(m, fmt.Sprintf("%d: %s", t.array, sqltext.QuoteString(t.display+"[]")))
		}
	}
	return "MAP {" + strings.Join(m, ", ") + "}"
}

// udtMap returns a MAP literal: oid → typname (information_schema's udt_name).
func udtMap() string {
	var m []string
	for _, t := range types {
		m = append(m, fmt.Sprintf("%d: %s", t.oid, sqltext.QuoteString(t.name)))
		if t.array != 0 {
			m = append(m, fmt.Sprintf("%d: %s", t.array, sqltext.QuoteString("_"+t.name)))
		}
	}
	return "MAP {" + strings.Join(m, ", ") + "}"
}

// TypeDisplay is format_type's name of a type OID (array types with [],
// "integer[]"); the OID in digits for a type vsql does not name.
func TypeDisplay(oid uint32) string {
	for _, t := range types {
		switch oid {
		case uint32(t.oid):
			return t.display
		case uint32(t.array):
			if t.array != 0 {
				return t.display + "[]"
			}
		}
	}
	return fmt.Sprint(oid)
}

// TypeCategory is a type OID's typcategory (A for an array type); "" for
// a type vsql does not name.
func TypeCategory(oid uint32) string {
	for _, t := range types {
		switch {
		case oid == uint32(t.oid):
			return t.category
		case t.array != 0 && oid == uint32(t.array):
			return "A"
		}
	}
	return ""
}

// ArrayText is PostgreSQL's text of a one-dimensional array of the
// strings: {a,"b c"}, an element quoted when it is empty, NULL or holds a
// space, a comma, a brace, a quote or a backslash.
func ArrayText(elems []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		if e == "" || strings.EqualFold(e, "null") || strings.ContainsAny(e, " \t\n,{}\"\\") {
			b.WriteByte('"')
			b.WriteString(strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(e))
			b.WriteByte('"')
			continue
		}
		b.WriteString(e)
	}
	b.WriteByte('}')
	return b.String()
}
