package pgcompat

import (
	"database/sql/driver"
	"encoding/binary"
	"math"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL accepts a type's name as a function that casts to it
// (float8(q1), int4('7')), and has the binary send functions of its
// types; float4send and float8send give a float's IEEE 754 bits, big
// endian, which PostgreSQL's float tests use to check exact values.

func init() {
	goFunctions["__vsql_float4send"] = []scalar{{in: []duckdb.Type{duckdb.TYPE_FLOAT}, out: duckdb.TYPE_BLOB, run: func(a []driver.Value) (any, error) {
		return binary.BigEndian.AppendUint32(nil, math.Float32bits(a[0].(float32))), nil
	}}}
	goFunctions["__vsql_float8send"] = []scalar{{in: []duckdb.Type{duckdb.TYPE_DOUBLE}, out: duckdb.TYPE_BLOB, run: func(a []driver.Value) (any, error) {
		return binary.BigEndian.AppendUint64(nil, math.Float64bits(a[0].(float64))), nil
	}}}
	setup = append(setup,
		`CREATE OR REPLACE MACRO `+schema+`.float4send(x) AS __vsql_float4send(CAST(x AS FLOAT))`,
		`CREATE OR REPLACE MACRO `+schema+`.float8send(x) AS __vsql_float8send(CAST(x AS DOUBLE))`,
	)
	sqltext.ProvideFunctions("float4send", "float8send")
	for name, typ := range map[string]string{"float8": "DOUBLE", "float4": "FLOAT", "int2": "SMALLINT", "int4": "INTEGER", "int8": "BIGINT"} {
		setup = append(setup, `CREATE OR REPLACE MACRO `+schema+`.`+name+`(x) AS CAST(x AS `+typ+`)`)
		sqltext.ProvideFunctions(name)
	}
}

// pgTypeName is PostgreSQL's name of the type DuckDB's typeof() writes
// (pg_typeof): VARCHAR is text, DOUBLE double precision, DECIMAL(p,s)
// numeric, JSON jsonb, TIMESTAMP timestamp without time zone, an array
// its element's name and [], a name DuckDB and PostgreSQL share in lower
// case.
func pgTypeName(a []driver.Value) (any, error) {
	name, _ := a[0].(string)
	dims := 0
	for strings.HasSuffix(name, "[]") {
		name, dims = name[:len(name)-2], dims+1
	}
	base := strings.ToUpper(name)
	if k := strings.IndexByte(base, '('); k >= 0 {
		base = base[:k]
	}
	pg, ok := pgTypeNames[base]
	if !ok {
		pg = strings.ToLower(name)
	}
	return pg + strings.Repeat("[]", dims), nil
}

var pgTypeNames = map[string]string{"VARCHAR": "text", "DOUBLE": "double precision", "FLOAT": "real", "DECIMAL": "numeric",
	"HUGEINT": "numeric", "JSON": "jsonb", "TIMESTAMP": "timestamp without time zone", "TIME": "time without time zone",
	"TIMESTAMP WITH TIME ZONE": "timestamp with time zone", "TIME WITH TIME ZONE": "time with time zone", "BLOB": "bytea",
	"TINYINT": "smallint", "UTINYINT": "smallint", "USMALLINT": "integer", "UINTEGER": "bigint", "UBIGINT": "numeric",
	"INTEGER": "integer", "BIGINT": "bigint", "SMALLINT": "smallint", "BOOLEAN": "boolean", "DATE": "date", "INTERVAL": "interval",
	"UUID": "uuid", "NULL": "unknown", "PG_BIT": "bit", "VARBIT": "bit varying", "PG_JSON": "json"}
