package pgcompat

import (
	"math"
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's input of double precision and real (float8in, float4in),
// as the engine's casts of text to DOUBLE and FLOAT (RegisterCasts): the
// number as strtod reads it, between optional white space, or NaN,
// Infinity and inf with a sign. A value beyond the type's range, or one
// too small to be anything but zero (1e-400), is refused with
// numeric_value_out_of_range (22003), where DuckDB's cast made it
// Infinity or 0; subnormal values are kept, as PostgreSQL keeps them.

// parseFloatText reads text as PostgreSQL's float8in (bits 64) or
// float4in (bits 32) does.
func parseFloatText(text string, bits int) (float64, error) {
	typeName := "double precision"
	if bits == 32 {
		typeName = "real"
	}
	num := strings.TrimLeft(text, " \t\n\r\v\f")
	num = strings.TrimRight(num, " \t\n\r\v\f")
	syntax := func() error {
		return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type %s: \"%s\"", typeName, text)
	}
	if num == "" || strings.IndexByte(num, '_') >= 0 {
		return 0, syntax()
	}
	s, hex := num, false
	if u := strings.TrimLeft(s, "+-"); len(u) > 2 && u[0] == '0' && (u[1] == 'x' || u[1] == 'X') {
		hex = true
		if !strings.ContainsAny(u, "pP") { // strtod reads 0x1A; Go wants an exponent
			s += "p0"
		}
	}
	f, err := strconv.ParseFloat(s, bits)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, vsqlerr.New(vsqlerr.NumericOutOfRange, "\"%s\" is out of range for type %s", num, typeName)
		}
		if l := strings.ToLower(num); l == "-nan" || l == "+nan" { // glibc's strtod reads a signed NaN
			return math.NaN(), nil
		}
		return 0, syntax()
	}
	if f == 0 && !math.IsNaN(f) {
		// underflow: Go rounds to zero where strtod reports ERANGE
		mant := num
		if hex {
			mant = strings.TrimLeft(mant, "+-")[2:]
			if i := strings.IndexAny(mant, "pP"); i >= 0 {
				mant = mant[:i]
			}
		} else if i := strings.IndexAny(mant, "eE"); i >= 0 {
			mant = mant[:i]
		}
		if strings.ContainsAny(mant, "123456789abcdefABCDEF") {
			return 0, vsqlerr.New(vsqlerr.NumericOutOfRange, "\"%s\" is out of range for type %s", num, typeName)
		}
	}
	return f, nil
}

// floatType is the rule of float as a type name: PostgreSQL's float
// without a precision is double precision, DuckDB's FLOAT is real
// (x::float, CAST(x AS float), a column declared float, float[]). float(p)
// is left to DuckDB, which reads the precision as PostgreSQL does (real up
// to 24 binary digits, double precision above).
func floatType(p *pass, i int) {
	if p.isOp(i-1, ".") || p.isOp(i+1, ".") || p.kind(i+1) == sqltext.Open {
		return
	}
	end := i
	for p.isOp(end+1, "[") && p.isOp(end+2, "]") {
		end += 2
	}
	switch {
	case p.isOp(i-1, ":") && p.isOp(i-2, ":") && p.adjacent(i-2):
	case p.isWord(i-1, "as") && p.kind(end+1) == sqltext.Close:
		open := p.matchBackward(end + 1)
		if open < 1 || !p.isWord(open-1, "cast") && !p.isWord(open-1, "try_cast") {
			return
		}
	case p.columnType(i):
	default:
		return
	}
	p.replace(p.toks[i].Start, p.toks[i].End, "DOUBLE")
}
