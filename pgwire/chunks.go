package pgwire

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"math/big"
	"math/bits"
	"slices"
	"strconv"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/vsqlerr"
)

// ChunkRows is implemented by Rows read from DuckDB a data chunk at a time
// (see internal/duckstream). pgwire then encodes each DataRow straight from
// the chunk's vectors (sendChunks) instead of calling Next.
// Rows.Err reports the error that ended the chunks.
type ChunkRows interface {
	Rows
	// Chunks is the result to read; loc is the TimeZone timestamptz
	// values are shown in (nil: UTC).
	Chunks() (res *duckstream.Result, loc *time.Location)
}

// chunkFlush is the size of the DataRow buffer written to the socket.
const chunkFlush = 64 << 10

type colKind uint8

const (
	kBool colKind = iota + 1
	kI8
	kU8
	kI16
	kU16
	kI32
	kU32
	kI64
	kF32
	kF64
	kText
	kBlob
	kDate
	kTimestamp
	kTimestampTZ
	kTime
	kDecimal64
	kDecimal128
	kUUID
	kJSON
	kList   // nested.go
	kArray  // nested.go
	kStruct // nested.go
	kMoney  // pgcompat's money: int64 cents
)

// chunkKinds maps the DuckDB types the chunk encoder handles to the OID
// they are reported as and their encoder (a package variable: chunkKind
// runs for every column of every execution, point queries included).
var chunkKinds = map[duckdb.Type]struct {
	oid  uint32
	kind colKind
}{
	duckdb.TYPE_BOOLEAN:      {pgtype.BoolOID, kBool},
	duckdb.TYPE_TINYINT:      {pgtype.Int2OID, kI8},
	duckdb.TYPE_UTINYINT:     {pgtype.Int2OID, kU8},
	duckdb.TYPE_SMALLINT:     {pgtype.Int2OID, kI16},
	duckdb.TYPE_USMALLINT:    {pgtype.Int4OID, kU16},
	duckdb.TYPE_INTEGER:      {pgtype.Int4OID, kI32},
	duckdb.TYPE_UINTEGER:     {pgtype.Int8OID, kU32},
	duckdb.TYPE_BIGINT:       {pgtype.Int8OID, kI64},
	duckdb.TYPE_FLOAT:        {pgtype.Float4OID, kF32},
	duckdb.TYPE_DOUBLE:       {pgtype.Float8OID, kF64},
	duckdb.TYPE_VARCHAR:      {pgtype.TextOID, kText},
	duckdb.TYPE_BLOB:         {pgtype.ByteaOID, kBlob},
	duckdb.TYPE_DATE:         {pgtype.DateOID, kDate},
	duckdb.TYPE_TIMESTAMP:    {pgtype.TimestampOID, kTimestamp},
	duckdb.TYPE_TIMESTAMP_TZ: {pgtype.TimestamptzOID, kTimestampTZ},
	duckdb.TYPE_TIME:         {pgtype.TimeOID, kTime},
	duckdb.TYPE_DECIMAL:      {pgtype.NumericOID, kDecimal64},
	duckdb.TYPE_UUID:         {pgtype.UUIDOID, kUUID},
}

// chunkKind is the encoder of a DuckDB result column sent as oid; 0 when
// the column must go through the row path (AppendValue).
func chunkKind(c duckstream.Column, oid uint32) colKind {
	if c.Type == duckdb.TYPE_VARCHAR && c.Alias == "JSON" && oid == pgtype.JSONBOID {
		// From the stored text: the row path gets JSON decoded by the
		// driver, numbers as float64 and a JSON null as nil.
		return kJSON
	}
	if c.Type == duckdb.TYPE_DECIMAL && c.Alias == pgcompat.MoneyType && oid == MoneyOID {
		return kMoney
	}
	if c.Type == duckdb.TYPE_VARCHAR && c.Alias == pgcompat.JSONType && oid == pgtype.JSONOID {
		return kText // json: the text as written, in binary too
	}
	want := chunkKinds[c.Type]
	if want.kind == 0 || want.oid != oid || c.Alias != "" {
		return 0
	}
	if want.kind == kDecimal64 {
		switch c.Internal {
		case duckdb.TYPE_SMALLINT, duckdb.TYPE_INTEGER, duckdb.TYPE_BIGINT:
		case duckdb.TYPE_HUGEINT:
			return kDecimal128
		default:
			return 0
		}
	}
	return want.kind
}

// ChunkEncodable reports whether every column of a result can be encoded
// from its chunks (the types of chunks.go and nested.go, with the OIDs
// cols announced).
func ChunkEncodable(cols []Column, res []duckstream.Column) bool {
	if len(cols) != len(res) {
		return false
	}
	for i := range cols {
		if !ChunkColumn(res[i], &cols[i]) {
			return false
		}
	}
	return true
}

// colEncoder encodes the values of one column of a chunk, one at a time,
// straight into the DataRow being built.
type colEncoder struct {
	kind        colKind
	binary      bool
	digits      int        // extra_float_digits (text floats)
	date        dateFormat // DateStyle (text dates and timestamps)
	byteaEscape bool       // bytea_output = escape
	scale       int
	width       int // bytes of a DECIMAL's internal integer
	loc         *time.Location

	// Nested types (nested.go): a list's element encoder or a struct's
	// field encoders; an ARRAY's size; a binary array's element OID and
	// dimensions; textOnly when the value is sent as text whatever the
	// format; scratch holds an element's text while it is quoted; errp is
	// where an array PostgreSQL cannot represent is reported.
	children []colEncoder
	size     int
	elem     uint32
	dims     int
	textOnly bool
	scratch  []byte
	errp     *error
}

func (e *colEncoder) appendValue(b []byte, v *duckstream.Vector, i int) []byte {
	switch e.kind {
	case kBool:
		x := duckstream.Bool(v, i)
		if e.binary {
			if x {
				return append(b, 1)
			}
			return append(b, 0)
		}
		if x {
			return append(b, 't')
		}
		return append(b, 'f')
	case kI8:
		return e.appendInt(b, int64(duckstream.Int8(v, i)), 2)
	case kU8:
		return e.appendInt(b, int64(duckstream.Uint8(v, i)), 2)
	case kI16:
		return e.appendInt(b, int64(duckstream.Int16(v, i)), 2)
	case kU16:
		return e.appendInt(b, int64(duckstream.Uint16(v, i)), 4)
	case kI32:
		return e.appendInt(b, int64(duckstream.Int32(v, i)), 4)
	case kU32:
		return e.appendInt(b, int64(duckstream.Uint32(v, i)), 8)
	case kI64:
		return e.appendInt(b, duckstream.Int64(v, i), 8)
	case kMoney:
		x := duckstream.Int64(v, i)
		if e.binary {
			return binary.BigEndian.AppendUint64(b, uint64(x)) // cash_send: the cents as int8
		}
		return pgcompat.AppendCash(b, x)
	case kF32:
		x := duckstream.Float32(v, i)
		if e.binary {
			return binary.BigEndian.AppendUint32(b, math.Float32bits(x))
		}
		return appendFloatDigits(b, float64(x), 32, e.digits)
	case kF64:
		x := duckstream.Float64(v, i)
		if e.binary {
			return binary.BigEndian.AppendUint64(b, math.Float64bits(x))
		}
		return appendFloatDigits(b, x, 64, e.digits)
	case kText:
		return append(b, duckstream.Bytes(v, i)...)
	case kBlob:
		x := duckstream.Bytes(v, i)
		if e.binary {
			return append(b, x...)
		}
		if e.byteaEscape {
			return appendByteaEscape(b, x)
		}
		return hex.AppendEncode(append(b, `\x`...), x)
	case kDate:
		days := duckstream.Int32(v, i)
		if days == math.MaxInt32 || days == -math.MaxInt32 { // DuckDB's infinity and -infinity
			return appendInfinity(b, days > 0, e.binary, 4)
		}
		t := dateOf(days)
		if e.binary {
			if days > -1e8 && days < 1e8 {
				return binary.BigEndian.AppendUint32(b, uint32(days-10957))
			}
			return binary.BigEndian.AppendUint32(b, uint32(int32((time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Unix()-946684800)/86400)))
		}
		return appendTimeStyled(b, pgtype.DateOID, t, e.date)
	case kTime:
		us := duckstream.Int64(v, i)
		if e.binary {
			return binary.BigEndian.AppendUint64(b, uint64(us))
		}
		if us == usecsPerDay { // 24:00:00, which PostgreSQL's time allows
			return append(b, "24:00:00"...)
		}
		return appendClock(b, time.UnixMicro(us).UTC())
	case kTimestamp, kTimestampTZ:
		us := duckstream.Int64(v, i)
		if us == math.MaxInt64 || us == -math.MaxInt64 {
			return appendInfinity(b, us > 0, e.binary, 8)
		}
		if e.binary {
			t := time.UnixMicro(us)
			return binary.BigEndian.AppendUint64(b, uint64(t.Unix()*1_000_000+int64(t.Nanosecond())/1000-946684800_000_000))
		}
		t := time.UnixMicro(us).UTC()
		if e.kind == kTimestamp {
			return appendTimeStyled(b, pgtype.TimestampOID, t, e.date)
		}
		if e.loc != nil {
			t = t.In(e.loc)
		}
		return appendTimeStyled(b, pgtype.TimestamptzOID, t, e.date)
	case kDecimal64:
		return e.appendDecimal(b, v, i)
	case kDecimal128:
		lo, hi := duckstream.HugeInt(v, i)
		x := new(big.Int).SetInt64(hi)
		x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(lo))
		d := duckdb.Decimal{Width: 38, Scale: uint8(e.scale), Value: x}
		if !e.binary {
			return appendDecimal(b, d)
		}
		out, err := AppendValue(b, pgtype.NumericOID, 1, d)
		if err != nil {
			return b
		}
		return out
	case kJSON:
		if e.binary {
			b = append(b, 1) // jsonb's binary form: version 1, then the text
		}
		return pgcompat.AppendJSONBText(b, duckstream.Bytes(v, i))
	case kList, kArray, kStruct:
		return e.appendNested(b, v, i)
	case kUUID:
		lo, hi := duckstream.HugeInt(v, i)
		var u [16]byte
		binary.BigEndian.PutUint64(u[:8], uint64(hi)^1<<63)
		binary.BigEndian.PutUint64(u[8:], lo)
		if e.binary {
			return append(b, u[:]...)
		}
		b = hex.AppendEncode(b, u[0:4])
		b = hex.AppendEncode(append(b, '-'), u[4:6])
		b = hex.AppendEncode(append(b, '-'), u[6:8])
		b = hex.AppendEncode(append(b, '-'), u[8:10])
		return hex.AppendEncode(append(b, '-'), u[10:16])
	}
	return b
}

// dateOf is the time.Time duckdb-go makes of a DATE.
func dateOf(days int32) time.Time {
	if days > -1e8 && days < 1e8 {
		return time.Unix(int64(days)*86400, 0).UTC()
	}
	return time.Date(1970, 1, 1+int(days), 0, 0, 0, 0, time.UTC)
}

func (e *colEncoder) appendInt(b []byte, x int64, size int) []byte {
	if !e.binary {
		return appendDecimalInt(b, x)
	}
	switch size {
	case 2:
		return binary.BigEndian.AppendUint16(b, uint16(x))
	case 4:
		return binary.BigEndian.AppendUint32(b, uint32(x))
	}
	return binary.BigEndian.AppendUint64(b, uint64(x))
}

// digitPairs holds "00" to "99", for writing two decimal digits at a time.
const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// appendDecimalInt is strconv.AppendInt(b, x, 10) written straight into
// b's spare capacity, two digits at a time (strconv formats into a buffer
// of its own and copies; this is the text path's integer loop).
func appendDecimalInt(b []byte, x int64) []byte {
	u := uint64(x)
	if x < 0 {
		b = append(b, '-')
		u = -u
	}
	n := decimalDigits(u)
	b = slices.Grow(b, n)
	end := len(b) + n
	b = b[:end]
	i := end
	for u >= 100 {
		q := u / 100
		r := (u - q*100) * 2
		i -= 2
		b[i], b[i+1] = digitPairs[r], digitPairs[r+1]
		u = q
	}
	if u >= 10 {
		r := u * 2
		b[i-2], b[i-1] = digitPairs[r], digitPairs[r+1]
	} else {
		b[i-1] = byte('0' + u)
	}
	return b
}

// decimalDigits is the number of decimal digits of u (1 for 0).
func decimalDigits(u uint64) int {
	t := bits.Len64(u) * 1233 >> 12 // ⌊bit length × log10(2)⌋: the digits, or one more
	if u < pow10[t] {
		return max(t, 1)
	}
	return t + 1
}

var pow10 = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19}

// appendDecimal encodes a DECIMAL of width ≤ 18 as appendDecimal (text)
// and pgtype's numeric encoder (binary) do, without big.Int.
func (e *colEncoder) appendDecimal(b []byte, v *duckstream.Vector, i int) []byte {
	var x int64
	switch e.width {
	case 2:
		x = int64(duckstream.Int16(v, i))
	case 4:
		x = int64(duckstream.Int32(v, i))
	default:
		x = duckstream.Int64(v, i)
	}
	scale := e.scale
	neg := x < 0
	abs := uint64(x)
	if neg {
		abs = uint64(-x)
	}
	if !e.binary {
		if neg {
			b = append(b, '-')
		}
		var tmp [24]byte
		s := strconv.AppendUint(tmp[:0], abs, 10)
		if scale == 0 {
			return append(b, s...)
		}
		if len(s) <= scale {
			b = append(b, '0')
			b = append(b, '.')
			for k := len(s); k < scale; k++ {
				b = append(b, '0')
			}
			return append(b, s...)
		}
		b = append(b, s[:len(s)-scale]...)
		b = append(b, '.')
		return append(b, s[len(s)-scale:]...)
	}
	whole, frac := abs/pow10[scale], abs%pow10[scale]
	var wd [8]uint16
	nw := 0
	for w := whole; w != 0; w /= 10000 {
		wd[nw] = uint16(w % 10000)
		nw++
	}
	k := (scale + 3) / 4 // base-10000 fraction digits
	var fd [8]uint16
	if k > 0 {
		hi, lo := bits.Mul64(frac, pow10[4*k-scale])
		for j := 0; j < k; j++ {
			var r uint64
			hi, r = hi/10000, hi%10000
			lo, r = bits.Div64(r, lo, 10000)
			fd[j] = uint16(r)
		}
	}
	b = binary.BigEndian.AppendUint16(b, uint16(nw+k))
	weight := -1
	if nw > 0 {
		weight = nw - 1
	}
	b = binary.BigEndian.AppendUint16(b, uint16(int16(weight)))
	var sign uint16
	if neg {
		sign = 16384
	}
	b = binary.BigEndian.AppendUint16(b, sign)
	b = binary.BigEndian.AppendUint16(b, uint16(scale))
	for j := nw - 1; j >= 0; j-- {
		b = binary.BigEndian.AppendUint16(b, wd[j])
	}
	for j := k - 1; j >= 0; j-- {
		b = binary.BigEndian.AppendUint16(b, fd[j])
	}
	return b
}

// chunkCursor reads a chunk stream row by row and encodes each row's
// values from the chunk's vectors straight into the DataRow (or, for COPY,
// into one row's cells): no value is encoded before it is sent, and none
// is copied after. A portal keeps its cursor between Executes with a row
// limit.
//
// Encoding a whole chunk column by column first (a loop per column into a
// buffer per column, then each row gathered from those buffers) was
// measured slower: the gather copies every value a second time and keeps
// two offsets per value (BenchmarkEncodeChunks, 1M × (integer, bigint,
// text, double), text: 133 ms per 1M rows column by column against 110 ms
// row by row; binary 58 ms against 39 ms).
type chunkCursor struct {
	rows      ChunkRows
	res       *duckstream.Result
	encs      []colEncoder
	size, row int    // rows in the current chunk; the current row (-1 before the first)
	cellBuf   []byte // cells' bytes (COPY)
	cellEnds  []int
	err       error // a value that cannot be encoded (nested.go)
}

func newChunkCursor(rows ChunkRows, res *duckstream.Result, loc *time.Location, cols []Column, formats []int16) *chunkCursor {
	k := &chunkCursor{rows: rows, res: res, encs: make([]colEncoder, len(cols)), row: -1}
	text := textSettingsOf(rows)
	for i := range cols {
		k.encs[i], _ = encoderFor(res.Columns[i], &cols[i]) // ChunkEncodable held
		k.encs[i].setup(formats != nil && formats[i] == 1, loc, text, &k.err)
	}
	return k
}

// next moves to the next row, fetching the next chunk when the current
// one is used up; false at the end (then see rows.Err).
func (k *chunkCursor) next() bool {
	k.row++
	for k.row >= k.size {
		k.size = k.res.Next()
		k.row = 0
		if k.size == 0 {
			return false
		}
	}
	return true
}

// appendDataRow appends the current row as a DataRow message.
func (k *chunkCursor) appendDataRow(out []byte) []byte {
	start := len(out)
	out = append(out, 'D', 0, 0, 0, 0)
	out = binary.BigEndian.AppendUint16(out, uint16(len(k.encs)))
	for i := range k.encs {
		v := k.res.Vector(i)
		if v.Null(k.row) {
			out = append(out, 0xff, 0xff, 0xff, 0xff)
			continue
		}
		at := len(out)
		out = k.encs[i].appendValue(append(out, 0, 0, 0, 0), v, k.row)
		binary.BigEndian.PutUint32(out[at:], uint32(len(out)-at-4))
	}
	binary.BigEndian.PutUint32(out[start+1:], uint32(len(out)-start-1))
	return out
}

// cells sets dst to the current row's encoded values (nil for NULL),
// valid until the next call.
func (k *chunkCursor) cells(dst [][]byte) {
	k.cellBuf, k.cellEnds = k.cellBuf[:0], k.cellEnds[:0]
	for i := range k.encs {
		v := k.res.Vector(i)
		if v.Null(k.row) {
			k.cellEnds = append(k.cellEnds, -1)
			continue
		}
		k.cellBuf = k.encs[i].appendValue(k.cellBuf, v, k.row)
		k.cellEnds = append(k.cellEnds, len(k.cellBuf))
	}
	from := 0
	for i, end := range k.cellEnds {
		if end < 0 {
			dst[i] = nil
			continue
		}
		dst[i] = k.cellBuf[from:end:end]
		from = end
	}
}

// sendChunks sends up to limit rows (0: all) of the cursor as DataRows,
// written in batches of chunkFlush bytes; suspended is true when the
// limit stopped it before the end.
func (c *Conn) sendChunks(k *chunkCursor, limit int64) (n int64, suspended bool, err error) {
	out := c.rowBuf[:0]
	if cap(out) == 0 {
		out = make([]byte, 0, chunkFlush+4096)
	}
	defer func() {
		// Kept for the connection's next result (a point query would
		// otherwise allocate and clear 68 KiB), unless a huge row grew it.
		if cap(out) <= 4*chunkFlush {
			c.rowBuf = out[:0]
		} else {
			c.rowBuf = nil
		}
	}()
	for {
		if limit > 0 && n >= limit {
			suspended = true
			break
		}
		if !k.next() {
			break
		}
		out = k.appendDataRow(out)
		if k.err != nil {
			return n, false, vsqlerr.Wrap(k.err, vsqlerr.ArrayDimensions, "row %d: %v", n+1, k.err)
		}
		n++
		if len(out) >= chunkFlush {
			if err := c.writeRaw(out); err != nil {
				return n, false, err
			}
			out = out[:0]
		}
	}
	if len(out) > 0 {
		// The tail joins the buffered messages (CommandComplete,
		// ReadyForQuery follow): a small result is one write, and the
		// client wakes once.
		c.out(encodedMessages(out))
		c.pending += len(out)
	}
	if suspended {
		return n, true, nil
	}
	return n, false, k.rows.Err()
}

// encodedMessages are backend messages already encoded (DataRows).
type encodedMessages []byte

func (m encodedMessages) Backend() {}
func (m encodedMessages) Decode([]byte) error {
	return errors.New("pgwire: encodedMessages are not decoded")
}
func (m encodedMessages) Encode(dst []byte) ([]byte, error) { return append(dst, m...), nil }

// writeRaw writes encoded messages to the socket, after anything buffered.
func (c *Conn) writeRaw(b []byte) error {
	c.sendMu.Lock()
	err := c.be.Flush()
	if err == nil {
		_, err = c.netConn.Write(b)
	}
	c.sendMu.Unlock()
	if err != nil {
		c.lost()
		return vsqlerr.Wrap(err, vsqlerr.QueryCanceled, "canceling statement: the client connection was lost")
	}
	return nil
}

// lost marks a connection whose socket failed.
func (c *Conn) lost() {
	c.closed = true
	_ = c.netConn.Close()
}

// usecsPerDay is a day in microseconds, the largest time of day.
const usecsPerDay = 86_400_000_000

// appendInfinity is a date's or timestamp's infinity or -infinity:
// PostgreSQL's words in text, its largest and smallest values of the
// type's width in binary.
func appendInfinity(b []byte, positive, binaryFormat bool, width int) []byte {
	switch {
	case !binaryFormat && positive:
		return append(b, "infinity"...)
	case !binaryFormat:
		return append(b, "-infinity"...)
	case width == 4 && positive:
		return binary.BigEndian.AppendUint32(b, math.MaxInt32)
	case width == 4:
		return binary.BigEndian.AppendUint32(b, 1<<31)
	case positive:
		return binary.BigEndian.AppendUint64(b, math.MaxInt64)
	default:
		return binary.BigEndian.AppendUint64(b, 1<<63)
	}
}
