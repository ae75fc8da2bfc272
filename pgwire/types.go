package pgwire

import (
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/pgcompat"
)

// Column describes one result column as RowDescription reports it.
type Column struct {
	Name    string
	OID     uint32
	TypeMod int32
	Size    int16
	// Elem is the element OID of an array column (0 otherwise).
	Elem uint32
	// Dims is the number of array dimensions (0 for scalars).
	Dims int
	// Fields describes the fields of a STRUCT column (a composite type),
	// in their order; nil for every other type. A struct is sent as
	// text in PostgreSQL's row format, (1,abc,).
	Fields []Field
}

// Field is one field of a STRUCT column.
type Field struct {
	Name string
	Column
}

type scalarType struct {
	oid, arrayOID uint32
	size          int16
}

// duckdbScalars maps DuckDB types to the PostgreSQL type they are reported as.
// DuckDB-only types that have no PostgreSQL equivalent are absent: they are
// reported as text with DuckDB's own text rendering.
var duckdbScalars = map[duckdb.Type]scalarType{
	duckdb.TYPE_BOOLEAN:      {pgtype.BoolOID, pgtype.BoolArrayOID, 1},
	duckdb.TYPE_TINYINT:      {pgtype.Int2OID, pgtype.Int2ArrayOID, 2},
	duckdb.TYPE_UTINYINT:     {pgtype.Int2OID, pgtype.Int2ArrayOID, 2},
	duckdb.TYPE_SMALLINT:     {pgtype.Int2OID, pgtype.Int2ArrayOID, 2},
	duckdb.TYPE_USMALLINT:    {pgtype.Int4OID, pgtype.Int4ArrayOID, 4},
	duckdb.TYPE_INTEGER:      {pgtype.Int4OID, pgtype.Int4ArrayOID, 4},
	duckdb.TYPE_UINTEGER:     {pgtype.Int8OID, pgtype.Int8ArrayOID, 8},
	duckdb.TYPE_BIGINT:       {pgtype.Int8OID, pgtype.Int8ArrayOID, 8},
	duckdb.TYPE_UBIGINT:      {pgtype.NumericOID, pgtype.NumericArrayOID, -1},
	duckdb.TYPE_HUGEINT:      {pgtype.NumericOID, pgtype.NumericArrayOID, -1},
	duckdb.TYPE_UHUGEINT:     {pgtype.NumericOID, pgtype.NumericArrayOID, -1},
	duckdb.TYPE_BIGNUM:       {pgtype.NumericOID, pgtype.NumericArrayOID, -1},
	duckdb.TYPE_DECIMAL:      {pgtype.NumericOID, pgtype.NumericArrayOID, -1},
	duckdb.TYPE_FLOAT:        {pgtype.Float4OID, pgtype.Float4ArrayOID, 4},
	duckdb.TYPE_DOUBLE:       {pgtype.Float8OID, pgtype.Float8ArrayOID, 8},
	duckdb.TYPE_VARCHAR:      {pgtype.TextOID, pgtype.TextArrayOID, -1},
	duckdb.TYPE_BLOB:         {pgtype.ByteaOID, pgtype.ByteaArrayOID, -1},
	duckdb.TYPE_DATE:         {pgtype.DateOID, pgtype.DateArrayOID, 4},
	duckdb.TYPE_TIME:         {pgtype.TimeOID, pgtype.TimeArrayOID, 8},
	duckdb.TYPE_TIME_TZ:      {pgtype.TimetzOID, pgtype.TimetzArrayOID, 12},
	duckdb.TYPE_TIMESTAMP:    {pgtype.TimestampOID, pgtype.TimestampArrayOID, 8},
	duckdb.TYPE_TIMESTAMP_S:  {pgtype.TimestampOID, pgtype.TimestampArrayOID, 8},
	duckdb.TYPE_TIMESTAMP_MS: {pgtype.TimestampOID, pgtype.TimestampArrayOID, 8},
	duckdb.TYPE_TIMESTAMP_NS: {pgtype.TimestampOID, pgtype.TimestampArrayOID, 8},
	duckdb.TYPE_TIMESTAMP_TZ: {pgtype.TimestamptzOID, pgtype.TimestamptzArrayOID, 8},
	duckdb.TYPE_INTERVAL:     {pgtype.IntervalOID, pgtype.IntervalArrayOID, 16},
	duckdb.TYPE_UUID:         {pgtype.UUIDOID, pgtype.UUIDArrayOID, 16},
}

var textType = scalarType{pgtype.TextOID, pgtype.TextArrayOID, -1}

// PostgreSQL's money and money[] (pgtype has no constants for them).
const (
	MoneyOID      = 790
	MoneyArrayOID = 791
)

func scalarOf(info duckdb.TypeInfo) scalarType {
	if info == nil {
		return textType
	}
	t := info.InternalType()
	if t == duckdb.TYPE_VARCHAR && info.Alias() == "JSON" {
		// DuckDB's JSON is both json and jsonb (pgcompat turns jsonb into
		// JSON); it is reported as jsonb, the type ORMs create and decode.
		return scalarType{pgtype.JSONBOID, pgtype.JSONBArrayOID, -1}
	}
	if t == duckdb.TYPE_DECIMAL && info.Alias() == pgcompat.MoneyType {
		return scalarType{MoneyOID, MoneyArrayOID, 8} // pgcompat's money: DECIMAL(18,2), int64 cents
	}
	if t == duckdb.TYPE_VARCHAR {
		switch info.Alias() {
		case pgcompat.BitType: // PostgreSQL's bit strings, text of 0 and 1
			return scalarType{pgtype.BitOID, pgtype.BitArrayOID, -1}
		case pgcompat.VarbitType:
			return scalarType{pgtype.VarbitOID, pgtype.VarbitArrayOID, -1}
		case pgcompat.JSONType: // PostgreSQL's json, its text as written
			return scalarType{pgtype.JSONOID, pgtype.JSONArrayOID, -1}
		}
	}
	if st, ok := duckdbScalars[t]; ok {
		return st
	}
	return textType
}

// ColumnOf describes a DuckDB result column. A nil info (a type DuckDB
// cannot know before parameters are bound) is reported as text.
func ColumnOf(name string, info duckdb.TypeInfo) Column {
	col := Column{Name: name, TypeMod: -1}
	if info != nil {
		switch d := info.Details().(type) {
		case *duckdb.ListDetails:
			return arrayColumn(name, d.Child)
		case *duckdb.ArrayDetails:
			return arrayColumn(name, d.Child)
		case *duckdb.DecimalDetails:
			if info.Alias() != pgcompat.MoneyType {
				col.TypeMod = int32(d.Width)<<16 | int32(d.Scale) + 4
			}
		case *duckdb.StructDetails:
			col.OID, col.Size = pgtype.TextOID, -1
			col.Fields = make([]Field, len(d.Entries))
			for k, e := range d.Entries {
				col.Fields[k] = Field{Name: e.Name(), Column: ColumnOf(e.Name(), e.Info())}
			}
			return col
		}
	}
	st := scalarOf(info)
	col.OID, col.Size = st.oid, st.size
	return col
}

// arrayColumn reports a list whose elements are scalars as a PostgreSQL
// array; lists of lists keep the innermost element type (PostgreSQL arrays
// are multi-dimensional), anything else is text.
func arrayColumn(name string, child duckdb.TypeInfo) Column {
	dims := 1
	for child != nil {
		switch d := child.Details().(type) {
		case *duckdb.ListDetails:
			child, dims = d.Child, dims+1
			continue
		case *duckdb.ArrayDetails:
			child, dims = d.Child, dims+1
			continue
		case *duckdb.StructDetails, *duckdb.MapDetails, *duckdb.UnionDetails:
			return Column{Name: name, OID: pgtype.TextOID, TypeMod: -1, Size: -1}
		}
		break
	}
	st := scalarOf(child)
	return Column{Name: name, OID: st.arrayOID, TypeMod: -1, Size: -1, Elem: st.oid, Dims: dims}
}

// ParamOID reports the PostgreSQL type of a DuckDB parameter type; unknown
// (unresolved) parameters are text, as PostgreSQL reports them.
func ParamOID(t duckdb.Type, info duckdb.TypeInfo) uint32 {
	if info != nil {
		return ColumnOf("", info).OID
	}
	if st, ok := duckdbScalars[t]; ok {
		return st.oid
	}
	if t == duckdb.TYPE_LIST || t == duckdb.TYPE_ARRAY {
		// The element type is not known here: text[]; its values are
		// converted from PostgreSQL's array syntax and cast by DuckDB.
		return pgtype.TextArrayOID
	}
	return pgtype.TextOID
}

// elemOIDs maps array OIDs to their element OIDs.
var elemOIDs = func() map[uint32]uint32 {
	m := map[uint32]uint32{pgtype.JSONArrayOID: pgtype.JSONOID, pgtype.JSONBArrayOID: pgtype.JSONBOID, pgtype.VarcharArrayOID: pgtype.VarcharOID,
		pgtype.BitArrayOID: pgtype.BitOID, pgtype.VarbitArrayOID: pgtype.VarbitOID, MoneyArrayOID: MoneyOID}
	for _, st := range duckdbScalars {
		m[st.arrayOID] = st.oid
	}
	return m
}()
