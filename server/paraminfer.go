package server

import (
	"context"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/sqltext"
)

// DuckDB leaves a parameter that is an operand of arithmetic without a
// type (n + $1 fits every numeric overload), and vsql then describes it
// as text; PostgreSQL's operator resolution gives it the other operand's
// type (int4 for an integer column n), and drivers that encode by the
// described type (pgx, asyncpg) refuse an int for a text parameter.
// inferParamTypes gives such a parameter the type of the operand beside
// it when that is an integer or a column of an integer or floating-point
// type of a table the statement names (not numeric: see operandType).

// arithmeticOps are the operators whose operands take one type.
var arithmeticOps = map[string]bool{"+": true, "-": true, "*": true, "/": true, "%": true}

// paramCasts are the DuckDB types of the OIDs inferParamTypes gives, and
// of those a client declares for a parameter DuckDB left without a type
// (psycopg's Decimal is numeric: bal * $1 binds it as DECIMAL(38, 10), not
// as text, which DuckDB cannot choose an operator for).
var paramCasts = map[uint32]string{pgtype.Int2OID: "SMALLINT", pgtype.Int4OID: "INTEGER", pgtype.Int8OID: "BIGINT",
	pgtype.Float4OID: "FLOAT", pgtype.Float8OID: "DOUBLE", pgtype.NumericOID: "DECIMAL(38, 10)"}

// inferParamTypes sets params[k] for the parameters unresolved[k] marks,
// where it can tell their type, and returns the statement with those
// parameters cast to it (CAST($1 AS INTEGER)), which DuckDB then binds
// as that type whatever the client sent (a numeric's text, an int's
// bytes); ok is false when it inferred nothing.
//
// declared[k] marks a parameter DuckDB left without a type whose type the
// client declared: it is cast to that type (when paramCasts has it).
func (s *Session) inferParamTypes(ctx context.Context, st sqltext.Statement, params []uint32, unresolved, declared []bool) (sqltext.Statement, bool) {
	t := newTokenText(st)
	var tables []string
	for i := range t.toks {
		if t.word(i, "from") || t.word(i, "join") || t.word(i, "update") || t.word(i, "into") {
			if parts, _ := t.name(i + 1); parts != nil {
				tables = append(tables, strings.ToLower(parts[len(parts)-1]))
			}
		}
	}
	var edits []sqltext.Edit
	for i := range t.toks {
		if t.kind(i) != sqltext.Param {
			continue
		}
		n, err := strconv.Atoi(strings.TrimPrefix(t.text(i), "$"))
		if err != nil || n < 1 || n > len(params) {
			continue
		}
		if declared[n-1] {
			if typ, ok := paramCasts[params[n-1]]; ok {
				edits = append(edits, sqltext.Edit{Start: t.toks[i].Start, End: t.toks[i].End, Text: "CAST(" + t.text(i) + " AS " + typ + ")"})
			}
			continue
		}
		if !unresolved[n-1] {
			continue
		}
		other := -1
		switch {
		case t.kind(i-1) == sqltext.Op && arithmeticOps[t.text(i-1)]:
			other = i - 2
		case t.kind(i+1) == sqltext.Op && arithmeticOps[t.text(i+1)]:
			other = i + 2
		case t.kind(i-1) == sqltext.Open && t.word(i-2, "pg_divisor") && t.text(i+1) == ",":
			other = i + 2 // a / $1, a % $1: pgcompat's pg_divisor($1, a)
		}
		if oid := s.operandType(ctx, t, other, tables); oid != 0 {
			params[n-1] = oid
			edits = append(edits, sqltext.Edit{Start: t.toks[i].Start, End: t.toks[i].End, Text: "CAST(" + t.text(i) + " AS " + paramCasts[oid] + ")"})
		}
	}
	return st.Edit(edits), len(edits) > 0
}

// operandType is the type of the operand at token i: a number, or a
// column of one of tables (0 when it cannot tell).
func (s *Session) operandType(ctx context.Context, t tokenText, i int, tables []string) uint32 {
	switch t.kind(i) {
	case sqltext.Number:
		text := t.text(i)
		if strings.ContainsAny(text, ".eE") {
			return 0 // numeric: see below
		}
		if _, err := strconv.ParseInt(text, 10, 32); err == nil {
			return pgtype.Int4OID
		}
		return pgtype.Int8OID
	case sqltext.Word, sqltext.Quoted:
	default:
		return 0
	}
	if len(tables) == 0 || t.kind(i+1) == sqltext.Open {
		return 0 // a function call, or no table to look in
	}
	column := t.text(i)
	if t.kind(i) == sqltext.Quoted {
		column = sqltext.UnquoteIdent(column)
	} else {
		column = strings.ToLower(column)
	}
	quoted := make([]string, len(tables))
	for k, name := range tables {
		quoted[k] = sqltext.QuoteString(name)
	}
	types := s.queryStrings(ctx, `SELECT DISTINCT data_type FROM duckdb_columns()
		WHERE database_name IN (current_database(), 'temp') AND lower(column_name) = `+sqltext.QuoteString(strings.ToLower(column))+`
			AND lower(table_name) IN (`+strings.Join(quoted, ", ")+`)`)
	if len(types) != 1 {
		return 0
	}
	switch typ := types[0]; {
	case typ == "INTEGER":
		return pgtype.Int4OID
	case typ == "BIGINT":
		return pgtype.Int8OID
	case typ == "SMALLINT" || typ == "TINYINT":
		return pgtype.Int2OID
	case typ == "DOUBLE":
		return pgtype.Float8OID
	case typ == "FLOAT":
		return pgtype.Float4OID
	}
	// A numeric operand (a DECIMAL column, 2.5) is left alone: a cast to
	// one DECIMAL type would fix the scale of the result, where
	// PostgreSQL's numeric keeps the value's own.
	return 0
}

// selectedParamCasts are the DuckDB types of declared parameter types
// beyond paramCasts, for castUnresolved.
var selectedParamCasts = map[uint32]string{pgtype.BoolOID: "BOOLEAN", pgtype.DateOID: "DATE", pgtype.TimestampOID: "TIMESTAMP",
	pgtype.TimestamptzOID: "TIMESTAMPTZ", pgtype.UUIDOID: "UUID", pgtype.ByteaOID: "BLOB", pgtype.IntervalOID: "INTERVAL",
	pgtype.TimeOID: "TIME", pgtype.JSONOID: "pg_json", pgtype.JSONBOID: "JSON",
	pgtype.Int2ArrayOID: "SMALLINT[]", pgtype.Int4ArrayOID: "INTEGER[]", pgtype.Int8ArrayOID: "BIGINT[]", pgtype.TextArrayOID: "VARCHAR[]",
	pgtype.VarcharArrayOID: "VARCHAR[]", pgtype.Float4ArrayOID: "FLOAT[]", pgtype.Float8ArrayOID: "DOUBLE[]", pgtype.BoolArrayOID: "BOOLEAN[]",
	pgtype.NumericArrayOID: "DECIMAL(38, 10)[]", pgtype.DateArrayOID: "DATE[]", pgtype.UUIDArrayOID: "UUID[]"}

// castUnresolved is the statement with each parameter DuckDB still leaves
// without a type cast to its declared type, or to text (VARCHAR) when
// none is declared or vsql has no cast for it: as PostgreSQL resolves a
// parameter it cannot infer (SELECT $1, $2 answers two text columns).
// Left untyped, such a statement's result columns are unknown until the
// parameters are bound: DuckDB describes one placeholder column, and a
// result of two would not fit the RowDescription sent before the Bind.
// ok is false when every parameter has a type.
func castUnresolved(st sqltext.Statement, stmt interface {
	ParamType(int) (duckdb.Type, error)
}, params []uint32, declared []uint32) (sqltext.Statement, bool) {
	var edits []sqltext.Edit
	for _, t := range st.Tokens() {
		if t.Kind != sqltext.Param {
			continue
		}
		n, err := strconv.Atoi(st.SQL[t.Start+1 : t.End])
		if err != nil || n < 1 || n > len(params) {
			continue
		}
		if typ, _ := stmt.ParamType(n); typ != duckdb.TYPE_INVALID {
			continue
		}
		cast, oid := "VARCHAR", uint32(pgtype.TextOID)
		if n <= len(declared) && declared[n-1] != 0 {
			if c, ok := paramCasts[declared[n-1]]; ok {
				cast, oid = c, declared[n-1]
			} else if c, ok := selectedParamCasts[declared[n-1]]; ok {
				cast, oid = c, declared[n-1]
			}
		}
		params[n-1] = oid
		how := "CAST("
		if cast == "VARCHAR" {
			how = "TRY_CAST(" // (cannot fail; the column is ?column? as PostgreSQL names $1, colnames.go)
		}
		edits = append(edits, sqltext.Edit{Start: t.Start, End: t.End, Text: how + st.SQL[t.Start:t.End] + " AS " + cast + ")"})
	}
	return st.Edit(edits), len(edits) > 0
}
