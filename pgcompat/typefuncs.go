package pgcompat

import (
	"database/sql/driver"
	"encoding/binary"
	"math"

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
