package pgwire

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/vsqlerr"
)

// DecodeParam turns one Bind parameter into a Go value that DuckDB binds:
// nil for NULL; a string for text-format values (DuckDB casts them to the
// parameter's type), except bytea, which is decoded from its hex or escape
// form; and a typed Go value for binary-format values.
func DecodeParam(oid uint32, format int16, raw []byte) (any, error) {
	if raw == nil {
		return nil, nil
	}
	if format == 0 {
		if oid == pgtype.ByteaOID {
			return decodeByteaText(raw)
		}
		if textArrayOIDs[oid] {
			return arrayTextToList(string(raw))
		}
		if oid == pgtype.TimestamptzOID || oid == pgtype.TimestampOID {
			// '2026-12-02 21:55:36.153 +00:00' (Sequelize): PostgreSQL's
			// spaced offset, which DuckDB would read as a zone name.
			return pgcompat.TimestampParam(string(raw)), nil
		}
		return string(raw), nil
	}
	bad := func(want string) error {
		return vsqlerr.New(vsqlerr.InvalidParameter, "invalid binary value for a parameter of type %s (%d bytes)", want, len(raw))
	}
	switch oid {
	case pgtype.BoolOID:
		if len(raw) != 1 {
			return nil, bad("boolean")
		}
		return raw[0] != 0, nil
	case pgtype.Int2OID:
		if len(raw) != 2 {
			return nil, bad("smallint")
		}
		return int16(binary.BigEndian.Uint16(raw)), nil
	case pgtype.Int4OID:
		if len(raw) != 4 {
			return nil, bad("integer")
		}
		return int32(binary.BigEndian.Uint32(raw)), nil
	case pgtype.Int8OID:
		if len(raw) != 8 {
			return nil, bad("bigint")
		}
		return int64(binary.BigEndian.Uint64(raw)), nil
	case MoneyOID:
		// cash_recv: the cents as int8; bound as their text, which the
		// engine's cast to money reads back
		if len(raw) != 8 {
			return nil, bad("money")
		}
		return string(pgcompat.AppendCash(nil, int64(binary.BigEndian.Uint64(raw)))), nil
	case pgtype.Float4OID:
		if len(raw) != 4 {
			return nil, bad("real")
		}
		return math.Float32frombits(binary.BigEndian.Uint32(raw)), nil
	case pgtype.Float8OID:
		if len(raw) != 8 {
			return nil, bad("double precision")
		}
		return math.Float64frombits(binary.BigEndian.Uint64(raw)), nil
	case pgtype.TextOID, pgtype.VarcharOID, pgtype.JSONOID, pgtype.BPCharOID, pgtype.NameOID, pgtype.UnknownOID:
		return string(raw), nil
	case pgtype.JSONBOID:
		if len(raw) == 0 || raw[0] != 1 {
			return nil, bad("jsonb")
		}
		return string(raw[1:]), nil
	case pgtype.ByteaOID:
		return append([]byte(nil), raw...), nil
	case pgtype.UUIDOID:
		u, err := uuid.FromBytes(raw)
		if err != nil {
			return nil, bad("uuid")
		}
		return u.String(), nil
	case pgtype.NumericOID:
		var n pgtype.Numeric
		if err := typeMap.Scan(oid, pgtype.BinaryFormatCode, raw, &n); err != nil {
			return nil, bad("numeric")
		}
		if n.NaN {
			return "NaN", nil
		}
		if n.InfinityModifier != pgtype.Finite {
			return nil, vsqlerr.New(vsqlerr.InvalidParameter, "numeric infinity is not supported")
		}
		v, err := n.Value()
		if err != nil {
			return nil, bad("numeric")
		}
		return v, nil // a decimal string such as "12.50"
	case pgtype.DateOID:
		var d pgtype.Date
		if err := typeMap.Scan(oid, pgtype.BinaryFormatCode, raw, &d); err != nil || d.InfinityModifier != pgtype.Finite {
			return nil, bad("date")
		}
		return d.Time, nil
	case pgtype.TimestampOID:
		var ts pgtype.Timestamp
		if err := typeMap.Scan(oid, pgtype.BinaryFormatCode, raw, &ts); err != nil || ts.InfinityModifier != pgtype.Finite {
			return nil, bad("timestamp")
		}
		return ts.Time, nil
	case pgtype.TimestamptzOID:
		var ts pgtype.Timestamptz
		if err := typeMap.Scan(oid, pgtype.BinaryFormatCode, raw, &ts); err != nil || ts.InfinityModifier != pgtype.Finite {
			return nil, bad("timestamptz")
		}
		return ts.Time.UTC(), nil
	case pgtype.TimeOID:
		if len(raw) != 8 {
			return nil, bad("time")
		}
		us := int64(binary.BigEndian.Uint64(raw))
		return time.UnixMicro(us).UTC().Format("15:04:05.999999"), nil
	case pgtype.BitOID, pgtype.VarbitOID:
		// the bit count, then the bits from the highest of each byte: as
		// pgcompat's bit strings hold them, text of 0 and 1
		if len(raw) < 4 {
			return nil, bad("bit")
		}
		n := int(binary.BigEndian.Uint32(raw))
		if n < 0 || (n+7)/8 != len(raw)-4 {
			return nil, bad("bit")
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = '0' + raw[4+i/8]>>(7-i%8)&1
		}
		return string(b), nil
	case pgtype.IntervalOID:
		if len(raw) != 16 {
			return nil, bad("interval")
		}
		return duckdb.Interval{
			Micros: int64(binary.BigEndian.Uint64(raw)),
			Days:   int32(binary.BigEndian.Uint32(raw[8:])),
			Months: int32(binary.BigEndian.Uint32(raw[12:])),
		}, nil
	}
	if textArrayOIDs[oid] {
		return binaryArrayToList(raw)
	}
	return nil, vsqlerr.New(vsqlerr.InvalidParameterFormat, "binary format is not supported for parameters of type %d", oid).
		WithHint("Send this parameter in text format (format code 0).")
}

// decodeByteaText accepts PostgreSQL's hex (\x0102) and escape formats
// (pgcompat.ParseBytea, the engine's cast of text to bytea).
func decodeByteaText(raw []byte) ([]byte, error) { return pgcompat.ParseBytea(raw) }

// textArrayOIDs are the array types whose text-format parameters are
// converted from PostgreSQL's array syntax ({a,"b c",NULL}) to DuckDB's
// list syntax, which DuckDB casts to the parameter's list type.
var textArrayOIDs = map[uint32]bool{
	pgtype.BoolArrayOID: true, pgtype.Int2ArrayOID: true, pgtype.Int4ArrayOID: true, pgtype.Int8ArrayOID: true,
	pgtype.Float4ArrayOID: true, pgtype.Float8ArrayOID: true, pgtype.TextArrayOID: true, pgtype.VarcharArrayOID: true,
	pgtype.BPCharArrayOID: true, pgtype.NumericArrayOID: true, pgtype.DateArrayOID: true, pgtype.TimestampArrayOID: true,
	pgtype.TimestamptzArrayOID: true, pgtype.UUIDArrayOID: true,
}

// arrayTextToList is pgcompat.ArrayTextToList (one reader of
// PostgreSQL's array text for parameters and literals).
func arrayTextToList(s string) (string, error) { return pgcompat.ArrayTextToList(s) }

// binaryArrayToList converts a binary-format array parameter to DuckDB's
// list literal: the header (dimensions, element type), then each element
// decoded as a binary parameter of the element type and written quoted
// (NULL bare), nested by dimension.
func binaryArrayToList(raw []byte) (string, error) {
	bad := func(why string) (string, error) {
		return "", vsqlerr.New(vsqlerr.InvalidParameter, "invalid binary array parameter: %s", why)
	}
	if len(raw) < 12 {
		return bad("short header")
	}
	ndim := int(int32(binary.BigEndian.Uint32(raw)))
	elemOID := binary.BigEndian.Uint32(raw[8:])
	if ndim < 0 || ndim > 6 || len(raw) < 12+8*ndim {
		return bad("bad dimensions")
	}
	dims := make([]int, ndim)
	total := 1
	for i := range dims {
		dims[i] = int(int32(binary.BigEndian.Uint32(raw[12+8*i:])))
		if dims[i] < 0 {
			return bad("bad dimensions")
		}
		total *= dims[i]
	}
	if ndim == 0 {
		return "[]", nil
	}
	rest := raw[12+8*ndim:]
	elems := make([]string, 0, total)
	for i := 0; i < total; i++ {
		if len(rest) < 4 {
			return bad("truncated")
		}
		n := int(int32(binary.BigEndian.Uint32(rest)))
		rest = rest[4:]
		if n < 0 {
			elems = append(elems, "NULL")
			continue
		}
		if len(rest) < n {
			return bad("truncated")
		}
		v, err := DecodeParam(elemOID, 1, rest[:n])
		if err != nil {
			return "", err
		}
		rest = rest[n:]
		var text string
		switch x := v.(type) {
		case time.Time:
			text = x.Format("2006-01-02 15:04:05.999999-07:00")
		case []byte:
			return bad("bytea elements are not supported")
		default:
			text = fmt.Sprint(x)
		}
		elems = append(elems, `"`+strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text)+`"`)
	}
	// Nest by dimension, innermost first.
	for d := ndim - 1; d >= 0; d-- {
		size := dims[d]
		var grouped []string
		for i := 0; i < len(elems); i += size {
			grouped = append(grouped, "["+strings.Join(elems[i:i+size], ", ")+"]")
		}
		if size == 0 {
			grouped = []string{"[]"}
		}
		elems = grouped
	}
	return elems[0], nil
}
