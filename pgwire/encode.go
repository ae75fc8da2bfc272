package pgwire

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/pgcompat"
)

// binaryOIDs are the types whose binary encoding vsql sends when a client
// asks for it (pgx and pgjdbc ask for these).
var binaryOIDs = map[uint32]bool{
	pgtype.BoolOID: true, pgtype.Int2OID: true, pgtype.Int4OID: true, pgtype.Int8OID: true,
	pgtype.Float4OID: true, pgtype.Float8OID: true, pgtype.NumericOID: true,
	pgtype.DateOID: true, pgtype.TimeOID: true, pgtype.TimestampOID: true, pgtype.TimestamptzOID: true,
	pgtype.IntervalOID: true, pgtype.UUIDOID: true, pgtype.TextOID: true, pgtype.VarcharOID: true,
	pgtype.ByteaOID: true, pgtype.JSONOID: true, pgtype.JSONBOID: true,
	pgtype.BitOID: true, pgtype.VarbitOID: true, MoneyOID: true,
}

// CanEncodeBinary reports whether a column can be sent in binary format:
// the scalar types above, and arrays of them (up to PostgreSQL's six
// dimensions).
func CanEncodeBinary(col Column) bool {
	if col.Elem != 0 {
		return col.Dims >= 1 && col.Dims <= maxArrayDims && binaryOIDs[col.Elem]
	}
	return binaryOIDs[col.OID]
}

var typeMap = pgtype.NewMap()

// AppendValue appends the encoding of v, a value read from DuckDB, as a
// value of column type oid in the given format (0 text, 1 binary). A nil v
// is SQL NULL and must be handled by the caller.
func AppendValue(buf []byte, oid uint32, format int16, v any) ([]byte, error) {
	if format == 0 {
		return appendText(buf, oid, v), nil
	}
	switch oid {
	case pgtype.TextOID, pgtype.VarcharOID, pgtype.JSONOID:
		return appendText(buf, oid, v), nil
	case pgtype.JSONBOID:
		return appendText(append(buf, 1), oid, v), nil // jsonb's binary form: version 1, then the text
	case pgtype.ByteaOID:
		if b, ok := v.([]byte); ok {
			return append(buf, b...), nil
		}
		return appendText(buf, pgtype.TextOID, v), nil
	case MoneyOID:
		if i, ok := moneyCents(v); ok {
			return binary.BigEndian.AppendUint64(buf, uint64(i)), nil // cash_send: the cents as int8
		}
	}
	if elem := elemOIDs[oid]; elem != 0 {
		xs, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("cannot encode %T as binary array type %d", v, oid)
		}
		return appendBinaryArrayValues(buf, elem, xs)
	}
	pv, err := toPgValue(oid, v)
	if err != nil {
		return nil, err
	}
	out, err := typeMap.Encode(oid, pgtype.BinaryFormatCode, pv, buf)
	if err != nil {
		return nil, fmt.Errorf("encode %T as binary type %d: %w", v, oid, err)
	}
	return out, nil
}

// toPgValue converts a DuckDB value into what pgtype encodes for oid.
func toPgValue(oid uint32, v any) (any, error) {
	switch oid {
	case pgtype.Int2OID, pgtype.Int4OID, pgtype.Int8OID:
		if i, ok := ToInt64(v); ok {
			return i, nil
		}
	case pgtype.Float4OID:
		switch x := v.(type) {
		case float32:
			return x, nil
		case float64:
			return float32(x), nil
		}
	case pgtype.Float8OID:
		switch x := v.(type) {
		case float64:
			return x, nil
		case float32:
			return float64(x), nil
		}
	case pgtype.NumericOID:
		switch x := v.(type) {
		case duckdb.Decimal:
			return pgtype.Numeric{Int: x.Value, Exp: -int32(x.Scale), Valid: true}, nil
		case *big.Int:
			return pgtype.Numeric{Int: x, Valid: true}, nil
		case uint64:
			return pgtype.Numeric{Int: new(big.Int).SetUint64(x), Valid: true}, nil
		}
		if i, ok := ToInt64(v); ok {
			return pgtype.Numeric{Int: big.NewInt(i), Valid: true}, nil
		}
	case pgtype.BoolOID:
		return v, nil
	case pgtype.BitOID, pgtype.VarbitOID:
		if s, ok := v.(string); ok { // pgcompat's bit strings: text of 0 and 1
			b := pgtype.Bits{Bytes: make([]byte, (len(s)+7)/8), Len: int32(len(s)), Valid: true}
			for i := 0; i < len(s); i++ {
				if s[i] == '1' {
					b.Bytes[i/8] |= 0x80 >> (i % 8)
				}
			}
			return b, nil
		}
	case pgtype.DateOID:
		if t, ok := v.(time.Time); ok {
			return pgtype.Date{Time: t, InfinityModifier: infinityOf(oid, t), Valid: true}, nil
		}
	case pgtype.TimestampOID:
		if t, ok := v.(time.Time); ok {
			return pgtype.Timestamp{Time: t, InfinityModifier: infinityOf(oid, t), Valid: true}, nil
		}
	case pgtype.TimestamptzOID:
		if t, ok := v.(time.Time); ok {
			return pgtype.Timestamptz{Time: t, InfinityModifier: infinityOf(oid, t), Valid: true}, nil
		}
	case pgtype.TimeOID:
		if t, ok := v.(time.Time); ok {
			us := int64(t.Hour())*3600e6 + int64(t.Minute())*60e6 + int64(t.Second())*1e6 + int64(t.Nanosecond()/1000)
			return pgtype.Time{Microseconds: us, Valid: true}, nil
		}
	case pgtype.IntervalOID:
		if iv, ok := v.(duckdb.Interval); ok {
			return pgtype.Interval{Microseconds: iv.Micros, Days: iv.Days, Months: iv.Months, Valid: true}, nil
		}
	case pgtype.UUIDOID:
		if b, ok := v.([]byte); ok && len(b) == 16 {
			var u [16]byte
			copy(u[:], b)
			return pgtype.UUID{Bytes: u, Valid: true}, nil
		}
	}
	return nil, fmt.Errorf("cannot encode %T as binary type %d", v, oid)
}

// ToInt64 reads any Go integer value (as DuckDB's driver returns them) as
// an int64; false for another type or a uint64 beyond it.
func ToInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		if x <= math.MaxInt64 {
			return int64(x), true
		}
	}
	return 0, false
}

// appendText appends the PostgreSQL text form of v as a value of type oid.
func appendText(buf []byte, oid uint32, v any) []byte {
	if s, ok := v.(string); ok && oid == pgtype.JSONOID {
		return append(buf, s...) // json's text as written
	}
	if oid == pgtype.JSONOID || oid == pgtype.JSONBOID {
		return pgcompat.AppendJSONB(buf, v)
	}
	if i, ok := moneyCents(v); ok && oid == MoneyOID {
		return pgcompat.AppendCash(buf, i)
	}
	switch x := v.(type) {
	case string:
		return append(buf, x...)
	case bool:
		if x {
			return append(buf, 't')
		}
		return append(buf, 'f')
	case int8, int16, int32, int64, int, uint8, uint16, uint32:
		i, _ := ToInt64(x)
		return strconv.AppendInt(buf, i, 10)
	case uint64:
		return strconv.AppendUint(buf, x, 10)
	case *big.Int:
		return x.Append(buf, 10)
	case float32:
		return appendFloat(buf, float64(x), 32)
	case float64:
		return appendFloat(buf, x, 64)
	case duckdb.Decimal:
		return appendDecimal(buf, x)
	case []byte:
		if oid == pgtype.UUIDOID && len(x) == 16 {
			u, _ := uuid.FromBytes(x)
			return append(buf, u.String()...)
		}
		buf = append(buf, `\x`...)
		return hex.AppendEncode(buf, x)
	case time.Time:
		return appendTime(buf, oid, x)
	case duckdb.Interval:
		return appendInterval(buf, x)
	case []any:
		if elem := elemOIDs[oid]; elem != 0 {
			return appendArray(buf, elem, x)
		}
		return appendDuckText(buf, x, false)
	case nil:
		return append(buf, "NULL"...)
	}
	return appendDuckText(buf, v, false)
}

// moneyCents is the cents of a value of pgcompat's money (a DECIMAL(18,2)
// as the driver reads it).
func moneyCents(v any) (int64, bool) {
	if d, ok := v.(duckdb.Decimal); ok && d.Scale == 2 && d.Value != nil && d.Value.IsInt64() {
		return d.Value.Int64(), true
	}
	return 0, false
}

// appendFloat formats like PostgreSQL 12+ with extra_float_digits = 1
// (pgcompat.AppendFloat, which format() shares).
func appendFloat(buf []byte, f float64, bits int) []byte { return pgcompat.AppendFloat(buf, f, bits) }

// FloatRows is implemented by Rows whose session sets extra_float_digits:
// 1 to 3 print floats in their shortest exact form (appendFloat), 0 and
// below with 15 (float8) or 6 (float4) significant digits plus the
// setting, as PostgreSQL's float8out and float4out do.
type FloatRows interface {
	ExtraFloatDigits() int
}

// extraFloatDigits is the setting rows are printed with (1: PostgreSQL's
// default).
func extraFloatDigits(rows Rows) int {
	if f, ok := rows.(FloatRows); ok {
		return f.ExtraFloatDigits()
	}
	return 1
}

// appendFloatDigits formats a float in text for extra_float_digits extra.
func appendFloatDigits(buf []byte, f float64, bits, extra int) []byte {
	if extra > 0 || math.IsNaN(f) || math.IsInf(f, 0) {
		return appendFloat(buf, f, bits)
	}
	digits := 15 + extra
	if bits == 32 {
		digits = 6 + extra
	}
	if digits < 1 {
		digits = 1
	}
	return strconv.AppendFloat(buf, f, 'g', digits, 64)
}

// appendCell is AppendValue for a cell of rows printed with the session's
// text settings.
func appendCell(buf []byte, col *Column, format int16, v any, text textSettings) ([]byte, error) {
	oid := col.OID
	extra := text.digits
	if t, ok := v.(time.Time); ok && text.date.style != styleISO && format == 0 {
		return appendTimeStyled(buf, oid, t, text.date), nil
	}
	if iv, ok := v.(duckdb.Interval); ok && text.interval != intervalPostgres && format == 0 {
		return appendIntervalStyled(buf, iv, text.interval), nil
	}
	if b, ok := v.([]byte); ok && text.byteaEscape && format == 0 && oid == pgtype.ByteaOID {
		return appendByteaEscape(buf, b), nil
	}
	if col.Fields != nil { // text (25): its binary form is the text
		if m, ok := v.(map[string]any); ok {
			return appendRow(buf, col.Fields, m), nil
		}
	}
	if extra <= 0 && format == 0 {
		switch x := v.(type) {
		case float64:
			if oid == pgtype.Float8OID || oid == pgtype.Float4OID {
				return appendFloatDigits(buf, x, bitsOf(oid), extra), nil
			}
		case float32:
			if oid == pgtype.Float4OID || oid == pgtype.Float8OID {
				return appendFloatDigits(buf, float64(x), 32, extra), nil
			}
		}
	}
	return AppendValue(buf, oid, format, v)
}

func bitsOf(oid uint32) int {
	if oid == pgtype.Float4OID {
		return 32
	}
	return 64
}

// appendDecimal writes a DECIMAL keeping its scale, as PostgreSQL's numeric
// output does (1.50 stays 1.50).
func appendDecimal(buf []byte, d duckdb.Decimal) []byte {
	if d.Value == nil {
		return append(buf, '0')
	}
	s := d.Value.String()
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
		buf = append(buf, '-')
	}
	scale := int(d.Scale)
	if scale == 0 {
		return append(buf, s...)
	}
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	buf = append(buf, s[:len(s)-scale]...)
	buf = append(buf, '.')
	return append(buf, s[len(s)-scale:]...)
}

func appendTime(buf []byte, oid uint32, t time.Time) []byte {
	if inf := infinityOf(oid, t); inf != pgtype.Finite {
		return appendInfinity(buf, inf == pgtype.Infinity, false, 0)
	}
	switch oid {
	case pgtype.DateOID:
		return appendBC(appendDate(buf, t), t)
	case pgtype.TimeOID:
		return appendClock(buf, t)
	case pgtype.TimetzOID:
		buf = appendClock(buf, t)
		return appendOffset(buf, t)
	case pgtype.TimestamptzOID:
		buf = appendDate(buf, t)
		buf = append(buf, ' ')
		buf = appendClock(buf, t)
		buf = appendOffset(buf, t)
		return appendBC(buf, t)
	default:
		buf = appendDate(buf, t)
		buf = append(buf, ' ')
		buf = appendClock(buf, t)
		return appendBC(buf, t)
	}
}

func appendDate(buf []byte, t time.Time) []byte {
	y := t.Year()
	if y <= 0 {
		y = 1 - y
	}
	if y < 1000 {
		buf = append(buf, fmt.Sprintf("%04d", y)...)
	} else {
		buf = strconv.AppendInt(buf, int64(y), 10)
	}
	buf = append(buf, '-', byte('0'+t.Month()/10), byte('0'+t.Month()%10), '-', byte('0'+t.Day()/10), byte('0'+t.Day()%10))
	return buf
}

func appendBC(buf []byte, t time.Time) []byte {
	if t.Year() <= 0 {
		return append(buf, " BC"...)
	}
	return buf
}

func two(buf []byte, n int) []byte { return append(buf, byte('0'+n/10), byte('0'+n%10)) }

func appendClock(buf []byte, t time.Time) []byte {
	buf = two(buf, t.Hour())
	buf = append(buf, ':')
	buf = two(buf, t.Minute())
	buf = append(buf, ':')
	buf = two(buf, t.Second())
	if us := t.Nanosecond() / 1000; us != 0 {
		frac := fmt.Sprintf("%06d", us)
		buf = append(buf, '.')
		buf = append(buf, strings.TrimRight(frac, "0")...)
	}
	return buf
}

func appendOffset(buf []byte, t time.Time) []byte {
	_, off := t.Zone()
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	buf = append(buf, sign)
	buf = two(buf, off/3600)
	if m := off % 3600 / 60; m != 0 || off%60 != 0 {
		buf = append(buf, ':')
		buf = two(buf, m)
	}
	if s := off % 60; s != 0 {
		buf = append(buf, ':')
		buf = two(buf, s)
	}
	return buf
}

// appendInterval writes PostgreSQL's default (postgres) interval style:
// "1 year 2 mons 3 days 04:05:06.5"; a positive field right after a
// negative one gets its sign ("-1 days +02:03:00"), as PostgreSQL's
// EncodeInterval writes it.
func appendInterval(buf []byte, iv duckdb.Interval) []byte {
	start := len(buf)
	before := false // the last field written was negative
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if len(buf) > start {
			buf = append(buf, ' ')
		}
		if before && n > 0 {
			buf = append(buf, '+')
		}
		before = n < 0
		buf = strconv.AppendInt(buf, n, 10)
		buf = append(buf, ' ')
		buf = append(buf, unit...)
		if n != 1 {
			buf = append(buf, 's')
		}
	}
	part(int64(iv.Months/12), "year")
	part(int64(iv.Months%12), "mon")
	part(int64(iv.Days), "day")
	if iv.Micros != 0 || len(buf) == start {
		if len(buf) > start {
			buf = append(buf, ' ')
		}
		us := uint64(iv.Micros)
		if iv.Micros < 0 {
			buf = append(buf, '-')
			us = -us // (two's complement: the magnitude, -2^63 too)
		} else if before && us > 0 {
			buf = append(buf, '+')
		}
		h := us / 3600e6
		if h < 10 {
			buf = append(buf, '0')
		}
		buf = strconv.AppendUint(buf, h, 10)
		buf = append(buf, ':')
		buf = two(buf, int(us/60e6%60))
		buf = append(buf, ':')
		buf = two(buf, int(us/1e6%60))
		if frac := us % 1e6; frac != 0 {
			buf = append(buf, '.')
			buf = append(buf, strings.TrimRight(fmt.Sprintf("%06d", frac), "0")...)
		}
	}
	return buf
}

// appendArray writes a PostgreSQL array literal: {1,2,NULL}, {{1,2},{3,4}},
// {"a b","x\"y"}.
func appendArray(buf []byte, elem uint32, xs []any) []byte {
	buf = append(buf, '{')
	for i, x := range xs {
		if i > 0 {
			buf = append(buf, ',')
		}
		switch y := x.(type) {
		case nil:
			buf = append(buf, "NULL"...)
		case []any:
			buf = appendArray(buf, elem, y)
		default:
			s := string(appendText(nil, elem, y))
			if pgcompat.ArrayElementNeedsQuote(s) {
				buf = append(buf, '"')
				for _, c := range []byte(s) {
					if c == '"' || c == '\\' {
						buf = append(buf, '\\')
					}
					buf = append(buf, c)
				}
				buf = append(buf, '"')
			} else {
				buf = append(buf, s...)
			}
		}
	}
	return append(buf, '}')
}

// appendRow writes a struct in PostgreSQL's row format (record_out): the
// fields in their order between parentheses, separated by commas, a NULL
// field empty, a value quoted when it is empty or holds a parenthesis, a
// comma, a quote, a backslash or white space (quotes and backslashes
// doubled inside).
func appendRow(buf []byte, fields []Field, m map[string]any) []byte {
	buf = append(buf, '(')
	for k := range fields {
		if k > 0 {
			buf = append(buf, ',')
		}
		f := &fields[k]
		v := m[f.Name]
		if v == nil {
			continue
		}
		var s []byte
		if sub, ok := v.(map[string]any); ok && f.Fields != nil {
			s = appendRow(nil, f.Fields, sub)
		} else {
			s = appendText(nil, f.OID, v)
		}
		if !needsRowQuote(s) {
			buf = append(buf, s...)
			continue
		}
		buf = append(buf, '"')
		for _, c := range s {
			if c == '"' || c == '\\' {
				buf = append(buf, c)
			}
			buf = append(buf, c)
		}
		buf = append(buf, '"')
	}
	return append(buf, ')')
}

func needsRowQuote(s []byte) bool {
	if len(s) == 0 {
		return true
	}
	for _, c := range s {
		switch c {
		case '(', ')', ',', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			return true
		}
	}
	return false
}

// appendDuckText renders DuckDB-only values (structs, maps, unions, nested
// lists) the way DuckDB casts them to VARCHAR: {'a': 1, 'b': x}, [1, 2].
func appendDuckText(buf []byte, v any, nested bool) []byte {
	switch x := v.(type) {
	case nil:
		return append(buf, "NULL"...)
	case string:
		if nested {
			return append(buf, "'"+strings.ReplaceAll(x, "'", "\\'")+"'"...)
		}
		return append(buf, x...)
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = appendDuckText(buf, e, true)
		}
		return append(buf, ']')
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(buf, "'"+strings.ReplaceAll(k, "'", "\\'")+"': "...)
			buf = appendDuckText(buf, x[k], true)
		}
		return append(buf, '}')
	case duckdb.Map:
		keys := make([]string, 0, len(x))
		vals := map[string]any{}
		for k, val := range x {
			ks := string(appendDuckText(nil, k, true))
			keys = append(keys, ks)
			vals[ks] = val
		}
		sort.Strings(keys)
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(buf, k...)
			buf = append(buf, '=')
			buf = appendDuckText(buf, vals[k], true)
		}
		return append(buf, '}')
	case duckdb.OrderedMap:
		// duckdb-go's maps, in their order, as DuckDB's cast to VARCHAR
		// writes them: {k=1, a b=2}.
		keys, vals := x.Keys(), x.Values()
		buf = append(buf, '{')
		for i, k := range keys {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			_, plain := k.(string)
			buf = appendDuckText(buf, k, !plain)
			buf = append(buf, '=')
			_, plain = vals[i].(string)
			buf = appendDuckText(buf, vals[i], !plain)
		}
		return append(buf, '}')
	case duckdb.Union:
		return appendDuckText(buf, x.Value, nested)
	case fmt.Stringer:
		return append(buf, x.String()...)
	}
	if nested {
		return appendText(buf, 0, v)
	}
	return append(buf, fmt.Sprint(v)...)
}

// infinityOf says whether t, a date (oid) or timestamp value from DuckDB,
// is DuckDB's infinity or -infinity (the largest and smallest value of
// the type, as duckdb-go converts them).
func infinityOf(oid uint32, t time.Time) pgtype.InfinityModifier {
	switch {
	case oid == pgtype.DateOID && t.Unix() == math.MaxInt32*86400, oid != pgtype.DateOID && t.UnixMicro() == math.MaxInt64:
		return pgtype.Infinity
	case oid == pgtype.DateOID && t.Unix() == -math.MaxInt32*86400, oid != pgtype.DateOID && t.UnixMicro() == -math.MaxInt64:
		return pgtype.NegativeInfinity
	}
	return pgtype.Finite
}

// errRaggedArray: a list of lists that is no PostgreSQL array.
var errRaggedArray = errors.New("multidimensional arrays must have sub-arrays with matching dimensions")

// appendBinaryArrayValues writes array_send's layout (see
// appendBinaryArray in nested.go) of xs, nested []any for each dimension
// after the first, elements of type elem.
func appendBinaryArrayValues(buf []byte, elem uint32, xs []any) ([]byte, error) {
	var dims []int
	for level := any(xs); ; {
		l, ok := level.([]any)
		if !ok {
			break
		}
		dims = append(dims, len(l))
		if len(l) == 0 {
			break
		}
		level = l[0]
	}
	var walk func(l []any, depth int) bool
	nested := len(dims)
	walk = func(l []any, depth int) bool {
		if len(l) != dims[depth] {
			return false
		}
		for _, x := range l {
			sub, isList := x.([]any)
			if depth+1 < nested {
				if !isList || !walk(sub, depth+1) {
					return false
				}
			} else if isList {
				return false
			}
		}
		return true
	}
	if !walk(xs, 0) || nested > maxArrayDims {
		return nil, errRaggedArray
	}
	ndims := nested
	if dims[len(dims)-1] == 0 {
		ndims = 0
	}
	buf = binary.BigEndian.AppendUint32(buf, uint32(ndims))
	flag := len(buf)
	buf = binary.BigEndian.AppendUint32(buf, 0)
	buf = binary.BigEndian.AppendUint32(buf, elem)
	for _, d := range dims[:ndims] {
		buf = binary.BigEndian.AppendUint32(buf, uint32(d))
		buf = binary.BigEndian.AppendUint32(buf, 1)
	}
	var leaves func(l []any) error
	leaves = func(l []any) error {
		for _, x := range l {
			if sub, ok := x.([]any); ok {
				if err := leaves(sub); err != nil {
					return err
				}
				continue
			}
			if x == nil {
				binary.BigEndian.PutUint32(buf[flag:], 1)
				buf = append(buf, 0xff, 0xff, 0xff, 0xff)
				continue
			}
			at := len(buf)
			var err error
			switch elem {
			case pgtype.TextOID, pgtype.VarcharOID, pgtype.JSONOID, pgtype.JSONBOID, pgtype.ByteaOID:
				buf, err = AppendValue(append(buf, 0, 0, 0, 0), elem, 1, x)
			default:
				var pv any
				if pv, err = toPgValue(elem, x); err == nil {
					buf, err = typeMap.Encode(elem, pgtype.BinaryFormatCode, pv, append(buf, 0, 0, 0, 0))
				}
			}
			if err != nil {
				return err
			}
			binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
		}
		return nil
	}
	if err := leaves(xs); err != nil {
		return nil, err
	}
	return buf, nil
}

// StyleRows is implemented by Rows whose session sets DateStyle,
// IntervalStyle and bytea_output: their values as SHOW reports them
// ("ISO, MDY", "Postgres, DMY", "SQL, DMY", "German, DMY"; "postgres",
// "postgres_verbose", "sql_standard", "iso_8601"; "hex", "escape").
type StyleRows interface {
	DateStyle() string
	IntervalStyle() string
	ByteaOutput() string
}

// textSettings are the session's settings that change values' text form.
type textSettings struct {
	digits      int           // extra_float_digits
	date        dateFormat    // DateStyle
	interval    intervalStyle // IntervalStyle
	byteaEscape bool          // bytea_output = escape
}

func textSettingsOf(rows Rows) textSettings {
	t := textSettings{digits: extraFloatDigits(rows)}
	if d, ok := rows.(StyleRows); ok {
		t.date = parseDateStyle(d.DateStyle())
		t.interval = intervalStyles[d.IntervalStyle()]
		t.byteaEscape = d.ByteaOutput() == "escape"
	}
	return t
}

type intervalStyle uint8

const (
	intervalPostgres intervalStyle = iota
	intervalVerbose
	intervalSQLStandard
	intervalISO8601
)

var intervalStyles = map[string]intervalStyle{"postgres": intervalPostgres, "postgres_verbose": intervalVerbose,
	"sql_standard": intervalSQLStandard, "iso_8601": intervalISO8601}

// appendByteaEscape writes bytes in bytea_output = escape: printable
// ASCII as it is, a backslash doubled, other bytes as \ and three octal
// digits.
func appendByteaEscape(buf, b []byte) []byte {
	for _, c := range b {
		switch {
		case c == '\\':
			buf = append(buf, '\\', '\\')
		case c < 0x20 || c > 0x7e:
			buf = append(buf, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
		default:
			buf = append(buf, c)
		}
	}
	return buf
}

// appendIntervalStyled is appendInterval in IntervalStyle style, as
// PostgreSQL's EncodeInterval writes it: postgres_verbose "@ 1 year 2
// mons 3 days 4 hours 5 mins 6.5 secs ago", sql_standard "1-2 3 4:05:06.5"
// (signs on each part when they are mixed), iso_8601 "P1Y2M3DT4H5M6.5S".
func appendIntervalStyled(buf []byte, iv duckdb.Interval, style intervalStyle) []byte {
	if style == intervalPostgres {
		return appendInterval(buf, iv)
	}
	year, mon, mday := int64(iv.Months/12), int64(iv.Months%12), int64(iv.Days)
	us := iv.Micros
	hour := us / 3600e6
	us -= hour * 3600e6
	min := us / 60e6
	us -= min * 60e6
	sec, fsec := us/1e6, us%1e6
	abs := func(n int64) int64 {
		if n < 0 {
			return -n
		}
		return n
	}
	// seconds and their fraction, unsigned: 5, 05 (zeros), 6.5
	seconds := func(buf []byte, zeros bool) []byte {
		if zeros && abs(sec) < 10 {
			buf = append(buf, '0')
		}
		buf = strconv.AppendInt(buf, abs(sec), 10)
		if fsec != 0 {
			buf = append(buf, '.')
			buf = append(buf, strings.TrimRight(fmt.Sprintf("%06d", abs(fsec)), "0")...)
		}
		return buf
	}
	switch style {
	case intervalSQLStandard:
		neg := year < 0 || mon < 0 || mday < 0 || hour < 0 || min < 0 || sec < 0 || fsec < 0
		pos := year > 0 || mon > 0 || mday > 0 || hour > 0 || min > 0 || sec > 0 || fsec > 0
		yearMonth := year != 0 || mon != 0
		dayTime := mday != 0 || hour != 0 || min != 0 || sec != 0 || fsec != 0
		standard := !(neg && pos) && !(yearMonth && dayTime)
		if neg && standard {
			buf = append(buf, '-')
			year, mon, mday, hour, min, sec, fsec = -year, -mon, -mday, -hour, -min, -sec, -fsec
		}
		sign := func(negative bool) byte {
			if negative {
				return '-'
			}
			return '+'
		}
		switch {
		case !neg && !pos:
			return append(buf, '0')
		case !standard:
			buf = append(buf, sign(year < 0 || mon < 0))
			buf = strconv.AppendInt(buf, abs(year), 10)
			buf = strconv.AppendInt(append(buf, '-'), abs(mon), 10)
			buf = append(buf, ' ', sign(mday < 0))
			buf = strconv.AppendInt(buf, abs(mday), 10)
			buf = append(buf, ' ', sign(hour < 0 || min < 0 || sec < 0 || fsec < 0))
			buf = strconv.AppendInt(buf, abs(hour), 10)
			buf = append(two(append(buf, ':'), int(abs(min))), ':')
			return seconds(buf, true)
		case yearMonth:
			buf = strconv.AppendInt(buf, year, 10)
			return strconv.AppendInt(append(buf, '-'), mon, 10)
		}
		if mday != 0 {
			buf = append(strconv.AppendInt(buf, mday, 10), ' ')
		}
		buf = strconv.AppendInt(buf, hour, 10)
		buf = append(two(append(buf, ':'), int(min)), ':')
		return seconds(buf, true)
	case intervalISO8601:
		if year == 0 && mon == 0 && mday == 0 && hour == 0 && min == 0 && sec == 0 && fsec == 0 {
			return append(buf, "PT0S"...)
		}
		buf = append(buf, 'P')
		part := func(n int64, unit byte) {
			if n != 0 {
				buf = append(strconv.AppendInt(buf, n, 10), unit)
			}
		}
		part(year, 'Y')
		part(mon, 'M')
		part(mday, 'D')
		if hour != 0 || min != 0 || sec != 0 || fsec != 0 {
			buf = append(buf, 'T')
		}
		part(hour, 'H')
		part(min, 'M')
		if sec != 0 || fsec != 0 {
			if sec < 0 || fsec < 0 {
				buf = append(buf, '-')
			}
			buf = append(seconds(buf, false), 'S')
		}
		return buf
	}
	// postgres_verbose
	buf = append(buf, '@')
	zero, before := true, false
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if zero { // the first field decides: negative means "ago"
			before = n < 0
			n = abs(n)
		} else if before {
			n = -n
		}
		buf = append(strconv.AppendInt(append(buf, ' '), n, 10), ' ')
		buf = append(buf, unit...)
		if n != 1 {
			buf = append(buf, 's')
		}
		zero = false
	}
	part(year, "year")
	part(mon, "mon")
	part(mday, "day")
	part(hour, "hour")
	part(min, "min")
	if sec != 0 || fsec != 0 {
		buf = append(buf, ' ')
		if sec < 0 || (sec == 0 && fsec < 0) {
			if zero {
				before = true
			} else if !before {
				buf = append(buf, '-')
			}
		} else if before {
			buf = append(buf, '-')
		}
		buf = append(seconds(buf, false), " sec"...)
		if abs(sec) != 1 || fsec != 0 {
			buf = append(buf, 's')
		}
		zero = false
	}
	if zero {
		buf = append(buf, " 0"...)
	}
	if before {
		buf = append(buf, " ago"...)
	}
	return buf
}

// dateFormat is DateStyle's output style and whether days come before
// months (DMY).
type dateFormat struct {
	style dateStyle
	dmy   bool
}

type dateStyle uint8

const (
	styleISO dateStyle = iota
	styleSQL
	stylePostgres
	styleGerman
)

func parseDateStyle(s string) dateFormat {
	var f dateFormat
	style, order, _ := strings.Cut(s, ",")
	switch strings.TrimSpace(style) {
	case "SQL":
		f.style = styleSQL
	case "Postgres":
		f.style = stylePostgres
	case "German":
		f.style = styleGerman
	}
	f.dmy = strings.TrimSpace(order) == "DMY"
	return f
}

var shortMonths = [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}

// appendTimeStyled is appendTime in DateStyle f, as PostgreSQL's
// EncodeDateOnly and EncodeDateTime write it: SQL 12/27/2001 (27/12/2001
// in DMY), German 27.12.2001, Postgres "Thu Dec 27 04:05:06.789 2001 UTC"
// ("Thu 27 Dec …" in DMY); a timestamptz ends with its zone's
// abbreviation. Times are the same in every style.
func appendTimeStyled(buf []byte, oid uint32, t time.Time, f dateFormat) []byte {
	if f.style == styleISO || (oid != pgtype.DateOID && oid != pgtype.TimestampOID && oid != pgtype.TimestamptzOID) {
		return appendTime(buf, oid, t)
	}
	if inf := infinityOf(oid, t); inf != pgtype.Finite {
		return appendInfinity(buf, inf == pgtype.Infinity, false, 0)
	}
	year := t.Year()
	if year <= 0 {
		year = 1 - year
	}
	appendYear := func(buf []byte) []byte {
		if year < 1000 {
			return append(buf, fmt.Sprintf("%04d", year)...)
		}
		return strconv.AppendInt(buf, int64(year), 10)
	}
	month, day := int(t.Month()), t.Day()
	if f.style == stylePostgres && oid != pgtype.DateOID {
		buf = append(buf, t.Weekday().String()[:3]...)
		buf = append(buf, ' ')
		if f.dmy {
			buf = append(two(buf, day), ' ')
			buf = append(buf, shortMonths[month-1]...)
		} else {
			buf = append(buf, shortMonths[month-1]...)
			buf = two(append(buf, ' '), day)
		}
		buf = appendClock(append(buf, ' '), t)
		buf = appendYear(append(buf, ' '))
	} else {
		sep := byte('/')
		switch f.style {
		case styleGerman:
			sep = '.'
		case stylePostgres:
			sep = '-'
		}
		if f.dmy || f.style == styleGerman {
			buf = append(two(buf, day), sep)
			buf = append(two(buf, month), sep)
		} else {
			buf = append(two(buf, month), sep)
			buf = append(two(buf, day), sep)
		}
		buf = appendYear(buf)
		if oid != pgtype.DateOID {
			buf = appendClock(append(buf, ' '), t)
		}
	}
	if oid == pgtype.TimestamptzOID {
		name, _ := t.Zone()
		buf = append(append(buf, ' '), name...)
	}
	return appendBC(buf, t)
}
