package pgwire

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5/pgtype"
)

// Text encodings as PostgreSQL 15 prints them.
func TestTextEncodings(t *testing.T) {
	ts := time.Date(2024, 2, 29, 13, 14, 15, 500000000, time.UTC)
	cases := []struct {
		oid  uint32
		v    any
		want string
	}{
		{pgtype.Float8OID, 1e15, "1e+15"},
		{pgtype.Float8OID, 1e14, "100000000000000"},
		{pgtype.Float8OID, 0.0001, "0.0001"},
		{pgtype.Float8OID, 1e-5, "1e-05"},
		{pgtype.Float8OID, 0.1, "0.1"},
		{pgtype.Float8OID, math.Inf(-1), "-Infinity"},
		{pgtype.Float8OID, math.NaN(), "NaN"},
		{pgtype.Float4OID, float32(1e6), "1e+06"},
		{pgtype.Float4OID, float32(100000), "100000"},
		{pgtype.NumericOID, duckdb.Decimal{Width: 10, Scale: 2, Value: big.NewInt(150)}, "1.50"},
		{pgtype.NumericOID, duckdb.Decimal{Width: 6, Scale: 3, Value: big.NewInt(-1)}, "-0.001"},
		{pgtype.BoolOID, true, "t"},
		{pgtype.ByteaOID, []byte{0xde, 0xad}, `\xdead`},
		{pgtype.DateOID, ts, "2024-02-29"},
		{pgtype.TimestampOID, ts, "2024-02-29 13:14:15.5"},
		{pgtype.TimestamptzOID, ts, "2024-02-29 13:14:15.5+00"},
		{pgtype.TimestamptzOID, ts.In(time.FixedZone("", 5*3600+1800)), "2024-02-29 18:44:15.5+05:30"},
		{pgtype.IntervalOID, duckdb.Interval{Months: 14, Days: 3, Micros: 4*3600e6 + 5*60e6 + 6.5e6}, "1 year 2 mons 3 days 04:05:06.5"},
		{pgtype.IntervalOID, duckdb.Interval{Days: -1, Micros: -1e6}, "-1 days -00:00:01"},
		{pgtype.IntervalOID, duckdb.Interval{}, "00:00:00"},
		{pgtype.UUIDOID, []byte{0xa0, 0xee, 0xbc, 0x99, 0x9c, 0x0b, 0x4e, 0xf8, 0xbb, 0x6d, 0x6b, 0xb9, 0xbd, 0x38, 0x0a, 0x11}, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
		{pgtype.Int4ArrayOID, []any{int32(1), nil, int32(3)}, "{1,NULL,3}"},
		{pgtype.TextArrayOID, []any{"a b", `q"u`, "", "NULL"}, `{"a b","q\"u","","NULL"}`},
		{pgtype.Int4ArrayOID, []any{[]any{int32(1), int32(2)}, []any{int32(3), int32(4)}}, "{{1,2},{3,4}}"},
		{pgtype.JSONOID, map[string]any{"b": 1.0, "a": "x"}, `{"a": "x", "b": 1}`},
		{pgtype.JSONBOID, map[string]any{"tags": []any{"a", 1e21, -0.0}, "owner": map[string]any{}, "n": nil, "ok": true}, `{"n": null, "ok": true, "tags": ["a", 1000000000000000000000, 0], "owner": {}}`},
		{pgtype.JSONBOID, "a\"b\\c\n\x01é/<", `"a\"b\\c\n\u0001é/<"`},
		{pgtype.JSONBOID, []any{}, `[]`},
		{pgtype.JSONBOID, 0.0000001, `0.0000001`},
	}
	for _, c := range cases {
		got, err := AppendValue(nil, c.oid, 0, c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("text(%d, %#v) = %q, %v; want %q", c.oid, c.v, got, err, c.want)
		}
	}
}

// Binary encodings decode back to the same values through pgtype.
func TestBinaryRoundTrip(t *testing.T) {
	m := pgtype.NewMap()
	b, err := AppendValue(nil, pgtype.NumericOID, 1, duckdb.Decimal{Width: 12, Scale: 3, Value: big.NewInt(-12345678)})
	if err != nil {
		t.Fatal(err)
	}
	var n pgtype.Numeric
	if err := m.Scan(pgtype.NumericOID, 1, b, &n); err != nil || n.Int.Int64() != -12345678 || n.Exp != -3 {
		t.Errorf("numeric: %v e%d %v", n.Int, n.Exp, err)
	}
	b, err = AppendValue(nil, pgtype.Int8ArrayOID, 1, []any{int64(1), nil, int64(3)})
	if err != nil {
		t.Fatal(err)
	}
	var arr []*int64
	if err := m.Scan(pgtype.Int8ArrayOID, 1, b, &arr); err != nil || len(arr) != 3 || *arr[0] != 1 || arr[1] != nil || *arr[2] != 3 {
		t.Errorf("int8[]: %v %v", arr, err)
	}
	if _, err := AppendValue(nil, pgtype.Int4OID, 1, "not a number"); err == nil {
		t.Error("binary int4 of a string was accepted")
	}
	if !CanEncodeBinary(Column{OID: pgtype.Int4ArrayOID, Elem: pgtype.Int4OID, Dims: 2}) {
		t.Error("two-dimensional arrays claim no binary encoding")
	}
	if CanEncodeBinary(Column{OID: pgtype.Int4ArrayOID, Elem: pgtype.Int4OID, Dims: 7}) {
		t.Error("seven dimensions (PostgreSQL allows six) claim a binary encoding")
	}
	b, err = AppendValue(nil, pgtype.Int4ArrayOID, 1, []any{[]any{int32(1), int32(2)}, []any{nil, int32(4)}})
	if err != nil {
		t.Fatal(err)
	}
	var grid [][]*int32
	if err := m.Scan(pgtype.Int4ArrayOID, 1, b, &grid); err != nil || len(grid) != 2 || *grid[0][1] != 2 || grid[1][0] != nil || *grid[1][1] != 4 {
		t.Errorf("int4[][]: %v %v", grid, err)
	}
	if _, err := AppendValue(nil, pgtype.Int4ArrayOID, 1, []any{[]any{int32(1)}, []any{int32(2), int32(3)}}); !errors.Is(err, errRaggedArray) {
		t.Errorf("ragged int4[][]: %v, want errRaggedArray", err)
	}
}

// Parameters decode from both formats; malformed binary is refused.
func TestDecodeParam(t *testing.T) {
	if v, err := DecodeParam(pgtype.ByteaOID, 0, []byte(`\x0102`)); err != nil || string(v.([]byte)) != "\x01\x02" {
		t.Errorf("bytea hex: %v %v", v, err)
	}
	if v, err := DecodeParam(pgtype.ByteaOID, 0, []byte(`a\\b\001`)); err != nil || string(v.([]byte)) != "a\\b\x01" {
		t.Errorf("bytea escape: %q %v", v, err)
	}
	if _, err := DecodeParam(pgtype.Int4OID, 1, []byte{1, 2}); err == nil {
		t.Error("a 2-byte int4 was accepted")
	}
	if v, err := DecodeParam(pgtype.Int8OID, 1, []byte{0, 0, 0, 0, 0, 0, 1, 0}); err != nil || v.(int64) != 256 {
		t.Errorf("int8: %v %v", v, err)
	}
	if v, err := DecodeParam(pgtype.TextOID, 0, nil); err != nil || v != nil {
		t.Errorf("NULL: %v %v", v, err)
	}
}

func TestArrayTextToList(t *testing.T) {
	for in, want := range map[string]string{
		`{t1,x}`:                     `["t1", "x"]`,
		`{"a,b","it's",NULL,"q\"x"}`: `["a,b", "it's", NULL, "q\"x"]`,
		`{}`:                         `[]`,
		`{{1,2},{3,4}}`:              `[["1", "2"], ["3", "4"]]`,
		`{ a b , "NULL" }`:           `["a b", "NULL"]`,
		`[1:2]={7,8}`:                `["7", "8"]`,
	} {
		got, err := arrayTextToList(in)
		if err != nil || got != want {
			t.Errorf("arrayTextToList(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{`{a`, `{"a}`, `a}`, `{a,}`} {
		if got, err := arrayTextToList(in); err == nil {
			t.Errorf("arrayTextToList(%s) = %s, want an error", in, got)
		}
	}
}

func TestBinaryArrayToList(t *testing.T) {
	m := pgtype.NewMap()
	for _, c := range []struct {
		oid  uint32
		val  any
		want string
	}{
		{pgtype.TextArrayOID, []string{"a", `q"x`, "c d"}, `["a", "q\"x", "c d"]`},
		{pgtype.Int4ArrayOID, []any{int32(1), nil, int32(3)}, `["1", NULL, "3"]`},
		{pgtype.Int8ArrayOID, [][]int64{{1, 2}, {3, 4}}, `[["1", "2"], ["3", "4"]]`},
		{pgtype.TextArrayOID, []string{}, `[]`},
	} {
		raw, err := m.Encode(c.oid, pgtype.BinaryFormatCode, c.val, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := binaryArrayToList(raw)
		if err != nil || got != c.want {
			t.Errorf("binaryArrayToList(%v) = %s, %v; want %s", c.val, got, err, c.want)
		}
	}
	if _, err := binaryArrayToList([]byte{0, 0, 0, 1}); err == nil {
		t.Error("a truncated array was accepted")
	}
}

// appendFloat chooses the layout by the value's magnitude; it must print
// what the exponent of the shortest digits chooses: strconv's 'f' form
// (exponent in range) or its 'e' form.
func TestAppendFloatLayout(t *testing.T) {
	reference := func(f float64, bits int) string {
		digits := 15
		if bits == 32 {
			digits = 6
		}
		e := strconv.FormatFloat(f, 'e', -1, bits)
		exp, err := strconv.Atoi(e[strings.LastIndexByte(e, 'e')+1:])
		if err != nil {
			t.Fatal(err)
		}
		if exp < -4 || exp >= digits {
			return e
		}
		return strconv.FormatFloat(f, 'f', -1, bits)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	values := []float64{1, -1, 10, 123456789012345, 999999999999999, 1e14, 0.0001, 0.00012345, -0.001, 1.5, 1 / 7.0, -1e-4, 9.999999999999999e14}
	// The magnitudes where the layout changes, and their neighbours.
	for _, edge := range []float64{1e-4, 1e15, 1e6, float64(float32(1e-4))} {
		for _, x := range []float64{edge, math.Nextafter(edge, 0), math.Nextafter(edge, math.Inf(1))} {
			values = append(values, x, -x, float64(math.Nextafter32(float32(x), 0)), float64(math.Nextafter32(float32(x), 1e30)))
		}
	}
	for range 200000 {
		values = append(values, math.Float64frombits(rng.Uint64()), rng.NormFloat64()*math.Pow(10, float64(rng.IntN(40)-20)), float64(rng.IntN(1e6))/7)
	}
	for _, f := range values {
		if math.IsNaN(f) || math.IsInf(f, 0) || f == 0 {
			continue
		}
		if got, want := string(appendFloat(nil, f, 64)), reference(f, 64); got != want {
			t.Fatalf("float64 %v: got %q, want %q", f, got, want)
		}
		f32 := float64(float32(f))
		if math.IsInf(f32, 0) || f32 == 0 {
			continue
		}
		if got, want := string(appendFloat(nil, f32, 32)), reference(f32, 32); got != want {
			t.Fatalf("float32 %v: got %q, want %q", f32, got, want)
		}
	}
}

// TestAppendDecimalInt compares the text path's integer formatter with
// strconv on the edges of every digit count and of int64.
func TestAppendDecimalInt(t *testing.T) {
	values := []int64{0, 1, -1, 9, 10, 99, 100, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1}
	for p := int64(10); p > 0 && p <= math.MaxInt64/10*10; p *= 10 {
		values = append(values, p-1, p, p+1, -p+1, -p, -p-1)
		if p > math.MaxInt64/10 {
			break
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		values = append(values, int64(rng.Uint64()), int64(rng.Uint64()>>rng.IntN(64)))
	}
	for _, v := range values {
		got := string(appendDecimalInt([]byte("x"), v))
		if want := "x" + strconv.FormatInt(v, 10); got != want {
			t.Fatalf("appendDecimalInt(%d) = %q, want %q", v, got, want)
		}
	}
}

// A MAP value (duckdb-go's OrderedMap) is text as DuckDB's cast to
// VARCHAR writes it, in the map's order; never Go's own rendering.
func TestMapText(t *testing.T) {
	var m duckdb.OrderedMap
	m.Set("k", int32(1))
	m.Set("a b", []any{int32(1), int32(2)})
	if got := string(appendText(nil, pgtype.TextOID, m)); got != "{k=1, a b=[1, 2]}" {
		t.Errorf("map as text: %q", got)
	}
}
