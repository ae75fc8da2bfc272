package pgcompat

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's bit strings, bit(n) and bit varying(n), as two text types
// of the engine (duckstream.RegisterTextType): BitType and VarbitType,
// whose values are strings of '0' and '1', one character a bit. DuckDB's
// own BIT was measured and not taken: it orders by its storage (a
// padding byte first), so '1101' sorts before '0' and '10' before '1',
// and it has no empty value (B'' is refused). Text of 0 and 1 compares
// byte by byte and a prefix first, which is PostgreSQL's order of bit
// strings (bitwise, then the shorter first); substring of the text is
// that of the bits. The operators and functions of bits are Go functions
// overloading DuckDB's on pg_bit, to which varbit converts implicitly
// (bitFunctions); the types' names keep them apart from text (a text
// column is no argument of theirs), and pgwire reports the columns as bit
// (OID 1560) and varbit (1562).
//
// A length (bit(4), bit varying(11)) is not part of the engine's types:
// the rewrite (bitType) writes a cast to one as pg_bit_cast or
// pg_varbit_cast, which pad or cut as PostgreSQL's explicit cast does,
// and a column of one in CREATE TABLE as the type and a CHECK of
// __vsql_bit_fits, which refuses another length with PostgreSQL's error.

// BitType and VarbitType are the engine's names of bit(n) and bit varying(n).
const (
	BitType    = "pg_bit"
	VarbitType = "varbit"
)

// registerBitTypes registers the two types and their casts: from text
// (PostgreSQL's bit input), between each other (implicit, as PostgreSQL's
// binary-coercible casts) and to integer and bigint.
func registerBitTypes(c driver.Conn) error {
	for _, t := range []string{BitType, VarbitType} {
		if err := duckstream.RegisterTextType(c, t); err != nil {
			return err
		}
		if err := duckstream.RegisterTextTypeCast(c, "", t, -1, func(text []byte) ([]byte, error) {
			b, err := parseBits(string(text))
			if err != nil {
				return nil, vsqlerr.ForEngine(err)
			}
			return []byte(b), nil
		}); err != nil {
			return err
		}
	}
	same := func(text []byte) ([]byte, error) { return text, nil }
	if err := duckstream.RegisterTextTypeCast(c, VarbitType, BitType, 1, same); err != nil {
		return err
	}
	if err := duckstream.RegisterTextTypeCast(c, BitType, VarbitType, 2, same); err != nil {
		return err
	}
	for _, t := range []string{BitType, VarbitType} {
		// no cast to these, which DuckDB would make of the digits as a
		// number (B'101'::int2 was 101)
		name := map[string]string{BitType: "bit", VarbitType: "bit varying"}[t]
		for _, to := range []struct {
			target duckstream.CastTarget
			name   string
		}{{duckstream.CastSmallint, "smallint"}, {duckstream.CastDouble, "double precision"}, {duckstream.CastFloat, "real"}} {
			err := vsqlerr.New(vsqlerr.CannotCoerce, "cannot cast type %s to %s", name, to.name)
			if err := duckstream.RegisterTextTypeNumberCast(c, t, to.target, -1, func([]byte) (int64, error) { return 0, err }); err != nil {
				return err
			}
		}
		err := vsqlerr.New(vsqlerr.CannotCoerce, "cannot cast type %s to bytea", name)
		if err := duckstream.RegisterTextTypeBlobCast(c, t, -1, func([]byte) ([]byte, error) { return nil, err }); err != nil {
			return err
		}
		for _, to := range []struct {
			target duckstream.CastTarget
			bits   int
		}{{duckstream.CastInteger, 32}, {duckstream.CastBigint, 64}} {
			bits := to.bits
			if err := duckstream.RegisterTextTypeNumberCast(c, t, to.target, -1, func(text []byte) (int64, error) {
				v, err := bitsInteger(string(text), bits)
				if err != nil {
					return 0, vsqlerr.ForEngine(err)
				}
				return v, nil
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// parseBits reads PostgreSQL's input of a bit string: binary digits,
// optionally after B, or hexadecimal digits after X (four bits each).
func parseBits(s string) (string, error) {
	hex := false
	switch {
	case strings.HasPrefix(s, "b"), strings.HasPrefix(s, "B"):
		s = s[1:]
	case strings.HasPrefix(s, "x"), strings.HasPrefix(s, "X"):
		s, hex = s[1:], true
	}
	if !hex {
		for _, r := range s {
			if r != '0' && r != '1' {
				return "", vsqlerr.New(vsqlerr.InvalidTextValue, "\"%c\" is not a valid binary digit", r)
			}
		}
		return s, nil
	}
	var b strings.Builder
	b.Grow(4 * len(s))
	for _, r := range s {
		var d int
		switch {
		case r >= '0' && r <= '9':
			d = int(r - '0')
		case r >= 'a' && r <= 'f':
			d = int(r-'a') + 10
		case r >= 'A' && r <= 'F':
			d = int(r-'A') + 10
		default:
			return "", vsqlerr.New(vsqlerr.InvalidTextValue, "\"%c\" is not a valid hexadecimal digit", r)
		}
		fmt.Fprintf(&b, "%04b", d)
	}
	return b.String(), nil
}

// bitsInteger is a bit string as an integer of size bits (its last bits;
// PostgreSQL refuses a longer string whatever its value).
func bitsInteger(b string, size int) (int64, error) {
	if len(b) > size {
		typ := "integer"
		if size == 64 {
			typ = "bigint"
		}
		return 0, vsqlerr.New(vsqlerr.NumericOutOfRange, "%s out of range", typ)
	}
	var v uint64
	for i := 0; i < len(b); i++ {
		v = v<<1 | uint64(b[i]-'0')
	}
	if size == 32 {
		return int64(int32(uint32(v))), nil
	}
	return int64(v), nil
}

// integerBits is the bit string of n bits of v, PostgreSQL's cast of an
// integer to bit(n): its last n bits, the sign repeated to the left of
// its 64.
func integerBits(v int64, n int) string {
	b := make([]byte, n)
	for i := range b {
		shift := n - 1 - i
		if shift > 63 {
			shift = 63
		}
		b[i] = '0' + byte(v>>shift&1)
	}
	return string(b)
}

// fitBits is b cast to bit(n): cut or padded with zeros on the right.
func fitBits(b string, n int64) string {
	if n < 0 {
		return b // (no length)
	}
	if int64(len(b)) >= n {
		return b[:n]
	}
	return b + strings.Repeat("0", int(n)-len(b))
}

// bitsOp applies a bitwise operator to two bit strings of one length.
func bitsOp(a, b, name string, f func(x, y byte) byte) (string, error) {
	if len(a) != len(b) {
		return "", vsqlerr.New(vsqlerr.StringLengthMismatch, "cannot %s bit strings of different sizes", name)
	}
	out := make([]byte, len(a))
	for i := range out {
		out[i] = '0' + f(a[i]-'0', b[i]-'0')
	}
	return string(out), nil
}

// shiftBits shifts b left by n bits (right for a negative n), keeping its
// length and filling with zeros.
func shiftBits(b string, n int64) string {
	out := []byte(strings.Repeat("0", len(b)))
	for i := range out {
		if j := int64(i) + n; j >= 0 && j < int64(len(b)) {
			out[i] = b[j]
		}
	}
	return string(out)
}

// bitPosition is PostgreSQL's position of sub in b: 1-based, 0 when
// absent, 0 in an empty string and 1 for an empty sub otherwise.
func bitPosition(sub, b string) int32 {
	if b == "" {
		return 0
	}
	return int32(strings.Index(b, sub) + 1)
}

// bitIndex checks a bit number of get_bit and set_bit.
func bitIndex(b string, n int64) error {
	if n < 0 || n >= int64(len(b)) {
		return vsqlerr.New(vsqlerr.ArraySubscript, "bit index %d out of valid range (0..%d)", n, len(b)-1)
	}
	return nil
}

// byteBitIndex checks a bit number of get_bit and set_bit of bytea (bit
// n is bit n%8 of byte n/8, from the lowest).
func byteBitIndex(b []byte, n int64) error {
	if n < 0 || n >= 8*int64(len(b)) {
		return vsqlerr.New(vsqlerr.ArraySubscript, "index %d out of valid range, 0..%d", n, 8*len(b)-1)
	}
	return nil
}

// bitFits is the CHECK of a column of bit(n) (fixed) or bit varying(n):
// true, or PostgreSQL's error for a value of another length.
func bitFits(b string, n int64, fixed bool) (bool, error) {
	switch {
	case fixed && int64(len(b)) != n:
		return false, vsqlerr.New(vsqlerr.StringLengthMismatch, "bit string length %d does not match type bit(%d)", len(b), n)
	case !fixed && int64(len(b)) > n:
		return false, vsqlerr.New(vsqlerr.StringTooLong, "bit string too long for type bit varying(%d)", n)
	}
	return true, nil
}

// typeLength checks the length of a type bit(n) or bit varying(n).
func typeLength(n int64) error {
	if n < 1 {
		return vsqlerr.New(vsqlerr.InvalidArgument, "length for type bit must be at least 1")
	}
	return nil
}

// engineFunc is one overload of a function of the engine's own types, bit
// strings and money (its argument and result types by name: BitType,
// VarbitType, MoneyType or a DuckDB type).
type engineFunc struct {
	in  []string
	out string
	run func(a []driver.Value) (any, error)
	// types are the engine's types by name (from typeInfos)
	types map[string]duckdb.TypeInfo
	// nulls: the function sees NULL arguments (otherwise NULL in, NULL
	// out), as duckdb-go hands them out (a JSON null of a JSON argument is
	// nil too)
	nulls bool
}

func (f engineFunc) Config() duckdb.ScalarFuncConfig {
	ins := make([]duckdb.TypeInfo, len(f.in))
	for i, t := range f.in {
		ins[i] = f.types[t]
	}
	return duckdb.ScalarFuncConfig{InputTypeInfos: ins, ResultTypeInfo: f.types[f.out], SpecialNullHandling: f.nulls}
}

func (f engineFunc) Executor() duckdb.ScalarFuncExecutor { return scalar{run: f.run}.Executor() }

// bitFunctions are the overloads of bit strings (and get_bit and set_bit
// of bytea), by function name: those
// of DuckDB's operators and functions (an overload added to DuckDB's set)
// and vsql's __vsql_bit_… that the macros of the rewrite call.
func bitFunctions() map[string][]engineFunc {
	str := func(v driver.Value) string { return v.(string) }
	num := func(v driver.Value) int64 {
		switch x := v.(type) {
		case int64:
			return x
		case int32:
			return int64(x)
		}
		return 0
	}
	op := func(name string, f func(x, y byte) byte) []engineFunc {
		return []engineFunc{{in: []string{BitType, BitType}, out: BitType, run: func(a []driver.Value) (any, error) {
			return bitsOp(str(a[0]), str(a[1]), name, f)
		}}}
	}
	const (
		i32  = "INTEGER"
		i64  = "BIGINT"
		txt  = "VARCHAR"
		blob = "BLOB"
	)
	length := []engineFunc{{in: []string{BitType}, out: i32, run: func(a []driver.Value) (any, error) { return int32(len(str(a[0]))), nil }}}
	// sized are the overloads of a cast to a type of length n (bit string
	// or text in), fit making the value of that length
	sized := func(fit func(b string, n int64) string, out string) []engineFunc {
		read := []func(string) (string, error){func(b string) (string, error) { return b, nil }, parseBits}
		fs := make([]engineFunc, 2)
		for k, in := range []string{BitType, txt} {
			fs[k] = engineFunc{in: []string{in, i64}, out: out, run: func(a []driver.Value) (any, error) {
				n := num(a[1])
				if err := typeLength(n); err != nil && n != -1 {
					return nil, err
				}
				b, err := read[k](str(a[0]))
				if err != nil {
					return nil, err
				}
				return fit(b, n), nil
			}}
		}
		return fs
	}
	shift := func(sign int64) []engineFunc {
		return []engineFunc{{in: []string{BitType, i64}, out: BitType, run: func(a []driver.Value) (any, error) {
			return shiftBits(str(a[0]), sign*num(a[1])), nil
		}}}
	}
	return map[string][]engineFunc{
		"&":   op("AND", func(x, y byte) byte { return x & y }),
		"|":   op("OR", func(x, y byte) byte { return x | y }),
		"xor": op("XOR", func(x, y byte) byte { return x ^ y }),
		"~": {{in: []string{BitType}, out: BitType, run: func(a []driver.Value) (any, error) {
			b := []byte(str(a[0]))
			for i := range b {
				b[i] ^= 1
			}
			return string(b), nil
		}}},
		"<<": shift(1),
		">>": shift(-1),
		"||": {{in: []string{BitType, BitType}, out: VarbitType, run: func(a []driver.Value) (any, error) {
			return str(a[0]) + str(a[1]), nil
		}}},
		"length":     length,
		"bit_length": length,
		"octet_length": {{in: []string{BitType}, out: i32, run: func(a []driver.Value) (any, error) {
			return int32((len(str(a[0])) + 7) / 8), nil
		}}, {in: []string{txt}, out: i32, run: func(a []driver.Value) (any, error) {
			// text's bytes: DuckDB has octet_length of BLOB and BIT only,
			// between which (and bit strings) a string literal was ambiguous
			return int32(len(str(a[0]))), nil
		}}},
		"bit_count": {{in: []string{BitType}, out: i64, run: func(a []driver.Value) (any, error) {
			return int64(strings.Count(str(a[0]), "1")), nil
		}}, {in: []string{"BLOB"}, out: i64, run: byteaBitCount}}, // bit_count(bytea) (strfuncs.go)
		"position": {{in: []string{BitType, BitType}, out: i32, run: func(a []driver.Value) (any, error) {
			return bitPosition(str(a[1]), str(a[0])), nil // DuckDB's position(b, sub)
		}}},
		"get_bit": {{in: []string{BitType, i64}, out: i32, run: func(a []driver.Value) (any, error) {
			b, n := str(a[0]), num(a[1])
			if err := bitIndex(b, n); err != nil {
				return nil, err
			}
			return int32(b[n] - '0'), nil
		}}, {in: []string{blob, i64}, out: i32, run: func(a []driver.Value) (any, error) {
			b, n := a[0].([]byte), num(a[1])
			if err := byteBitIndex(b, n); err != nil {
				return nil, err
			}
			return int32(b[n/8] >> (n % 8) & 1), nil
		}}},
		"set_bit": {{in: []string{BitType, i64, i64}, out: BitType, run: func(a []driver.Value) (any, error) {
			b, n, v := []byte(str(a[0])), num(a[1]), num(a[2])
			if err := bitIndex(string(b), n); err != nil {
				return nil, err
			}
			if v != 0 && v != 1 {
				return nil, vsqlerr.New(vsqlerr.InvalidArgument, "new bit must be 0 or 1")
			}
			b[n] = '0' + byte(v)
			return string(b), nil
		}}, {in: []string{blob, i64, i64}, out: blob, run: func(a []driver.Value) (any, error) {
			b, n, v := append([]byte(nil), a[0].([]byte)...), num(a[1]), num(a[2])
			if err := byteBitIndex(b, n); err != nil {
				return nil, err
			}
			if v != 0 && v != 1 {
				return nil, vsqlerr.New(vsqlerr.InvalidArgument, "new bit must be 0 or 1")
			}
			b[n/8] = b[n/8]&^(1<<(n%8)) | byte(v)<<(n%8)
			return b, nil
		}}},
		// x::bit(n): an integer's last n bits, text read and a bit string
		// padded or cut to n bits
		"__vsql_bit_cast": append(sized(fitBits, BitType), engineFunc{in: []string{i64, i64}, out: BitType, run: func(a []driver.Value) (any, error) {
			if err := typeLength(num(a[1])); err != nil {
				return nil, err
			}
			return integerBits(num(a[0]), int(num(a[1]))), nil
		}}),
		// x::bit varying(n): cut to n bits (-1: x::varbit, any length)
		"__vsql_varbit_cast": append(sized(func(b string, n int64) string {
			if n < 0 {
				return b
			}
			return b[:min(int64(len(b)), n)]
		}, VarbitType), engineFunc{in: []string{i64, i64}, out: VarbitType, run: func(a []driver.Value) (any, error) {
			return nil, vsqlerr.New(vsqlerr.CannotCoerce, "cannot cast type integer to bit varying")
		}}),
		"__vsql_bit_fits": {{in: []string{BitType, i64, "BOOLEAN"}, out: "BOOLEAN", run: func(a []driver.Value) (any, error) {
			return bitFits(str(a[0]), num(a[1]), a[2].(bool))
		}}},
	}
}

// registerEngineTypes registers the engine's own types (bit strings and
// money) and their functions.
func registerEngineTypes(conn *sql.Conn) error {
	types := map[string]duckdb.TypeInfo{}
	err := conn.Raw(func(dc any) error {
		c, ok := dc.(*duckdb.Conn)
		if !ok {
			return errors.New("pgcompat: not a DuckDB connection")
		}
		if err := registerBitTypes(c); err != nil {
			return err
		}
		if err := registerMoneyType(c); err != nil {
			return err
		}
		if err := registerJSONType(c); err != nil {
			return err
		}
		// a TypeInfo that names a registered type comes from the engine
		for _, t := range []string{BitType, VarbitType, MoneyType, JSONType, JSONType + "[]", jsonPairs, jsonbPairs, textPairs, "JSON", "VARCHAR[]", "SMALLINT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "VARCHAR", "BOOLEAN", "BLOB"} {
			st, err := c.PrepareContext(context.Background(), "SELECT CAST(NULL AS "+t+")")
			if err != nil {
				return err
			}
			info, err := st.(*duckdb.Stmt).ColumnTypeInfo(0)
			st.Close()
			if err != nil {
				return err
			}
			types[t] = info
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, set := range []map[string][]engineFunc{bitFunctions(), moneyFunctions(), byteaFunctions(), jsonFunctions()} {
		for name, overloads := range set {
			fs := make([]duckdb.ScalarFunc, len(overloads))
			for i, f := range overloads {
				f.types = types
				fs[i] = f
			}
			if err := duckdb.RegisterScalarUDFSet(conn, name, fs...); err != nil {
				return fmt.Errorf("register %s of %s: %w", name, fs[0].(engineFunc).in[0], err)
			}
		}
	}
	return nil
}

// bitLiteral is the rule of b and x (token i): PostgreSQL's bit string
// constants B'0101' and X'1F' (the letter touching the quote) are the
// cast of the digits to bit, CAST('b0101' AS pg_bit); DuckDB has no such
// constants. The letter stays in the text, for the cast to read the
// digits as binary or hexadecimal.
func bitLiteral(p *pass, i int) {
	if !p.bitConstant(i) {
		return
	}
	body, ok := stringBody(p.text(i + 1))
	if !ok {
		return
	}
	p.replace(p.toks[i].Start, p.toks[i+1].End, "CAST("+sqltext.QuoteString(p.text(i)+body)+" AS "+BitType+")")
}

// bitConstant reports whether token i is the letter of a bit string
// constant, B or X touching a standard string literal.
func (p *pass) bitConstant(i int) bool {
	if p.kind(i) != sqltext.Word || p.toks[i].End-p.toks[i].Start != 1 || !p.adjacent(i) || p.kind(i+1) != sqltext.String || p.isOp(i-1, ".") {
		return false
	}
	switch p.src[p.toks[i].Start] {
	case 'b', 'B', 'x', 'X':
		return strings.HasPrefix(p.text(i+1), "'")
	}
	return false
}

// bitType is the rule of bit and varbit (token i) where the word is
// visibly a type: bit [varying] [(n)], varbit [(n)].
//
//   - bit(4)[] and the other arrays: an array of the type, without the
//     elements' length.
//   - typed constants: bit '0101' and varbit '01' are the casts to the
//     type (no length, as PostgreSQL reads them), bit(3) '1' and bit
//     varying(3) '1' pg_bit_cast('1', 3) and pg_varbit_cast('1', 3).
//   - x::bit(n) and CAST(x AS bit(n)) (bit alone is bit(1)):
//     pg_bit_cast(x, n), which pads or cuts x to n bits and reads an
//     integer's last n bits, as PostgreSQL's explicit cast;
//     x::bit varying(n) and CAST(x AS varbit(n)): pg_varbit_cast(x, n),
//     which cuts; without a length pg_varbit_cast(x, -1), which refuses
//     an integer (DuckDB would make 5::varbit the text 5).
//   - a column's type in CREATE TABLE: the engine's type, and for bit,
//     bit(n) and bit varying(n) a CHECK of __vsql_bit_fits, which refuses a
//     value of another length (longer, for bit varying) with PostgreSQL's
//     error; in ALTER TABLE the type alone (DuckDB adds no column with a
//     constraint), so the length is not checked there.
func bitType(p *pass, i int) {
	if p.isOp(i-1, ".") || p.isOp(i+1, ".") {
		return
	}
	varying, end := strings.EqualFold(p.text(i), "varbit"), i
	if !varying && p.isWord(i+1, "varying") {
		varying, end = true, i+1
	}
	n := -1
	if p.kind(end+1) == sqltext.Open {
		if p.kind(end+2) != sqltext.Number || p.kind(end+3) != sqltext.Close {
			return
		}
		v, err := strconv.Atoi(p.text(end + 2))
		if err != nil {
			return
		}
		n, end = v, end+3
	}
	typ := BitType
	if varying {
		typ = VarbitType
	}
	if p.isOp(end+1, "[") {
		if p.isOp(i-1, ":") || p.isWord(i-1, "as") || p.columnType(i) {
			p.replace(p.toks[i].Start, p.toks[end].End, typ) // an array: the elements' length is not kept
		}
		return
	}
	fn := schema + ".pg_bit_cast"
	if varying {
		fn = schema + ".pg_varbit_cast"
	}
	if p.kind(end+1) == sqltext.String && !p.isWord(i-1, "as") && !p.isOp(i-1, ":") {
		// a typed constant, bit '0101' (no length: as written) or bit(3) '1'
		lit := p.text(end + 1)
		switch {
		case n >= 0:
			p.replace(p.toks[i].Start, p.toks[end+1].End, fmt.Sprintf("%s(%s, %d)", fn, lit, n))
		case varying:
			p.replace(p.toks[i].Start, p.toks[end+1].End, "CAST("+lit+" AS "+VarbitType+")")
		default:
			p.replace(p.toks[i].Start, p.toks[end+1].End, "CAST("+lit+" AS "+BitType+")")
		}
		return
	}
	if n < 0 && !varying {
		n = 1 // bit is bit(1)
	}
	switch {
	case p.isOp(i-1, ":") && p.isOp(i-2, ":") && p.adjacent(i-2):
		k := p.operandStart(i - 3)
		for k > 2 && p.isOp(k-1, ":") && p.isOp(k-2, ":") {
			k = p.operandStart(k - 3) // x::bit(2)::varbit(1): operandStart stops at bit(2)
		}
		if k < 0 {
			return
		}
		p.open(p.toks[k].Start, fn+"(") // the cast of a cast wraps it
		p.replace(p.toks[i-2].Start, p.toks[end].End, fmt.Sprintf(", %d)", n))
	case p.isWord(i-1, "as") && p.kind(end+1) == sqltext.Close:
		open := p.matchBackward(end + 1)
		if open < 1 || !p.isWord(open-1, "cast") && !p.isWord(open-1, "try_cast") {
			return
		}
		p.replace(p.toks[open-1].Start, p.toks[open-1].End, fn)
		p.replace(p.toks[i-1].Start, p.toks[end].End, fmt.Sprintf(", %d", n))
	case p.columnType(i):
		if n < 0 || !p.isWord(0, "create") {
			p.replace(p.toks[i].Start, p.toks[end].End, typ)
			return
		}
		// the engine's function, not a macro: DuckDB would refuse to
		// replace a macro a CHECK calls (ARCHITECTURE.md, Domains)
		p.replace(p.toks[i].Start, p.toks[end].End, fmt.Sprintf("%s CHECK (__vsql_bit_fits(%s, %d, %t))", typ, p.text(i-1), n, !varying))
	}
}
