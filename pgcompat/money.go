package pgcompat

import (
	"database/sql/driver"
	"math"
	"math/big"
	"math/bits"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's money, as an integer type of the engine
// (duckstream.RegisterIntType): a DECIMAL(18,2) named money whose int64
// values are cents, as PostgreSQL's are with lc_monetary C (2 fractional
// digits, "$", "," between thousands). DuckDB compares, sorts, hashes,
// stores and takes min and max of the int64s, which is PostgreSQL's order
// of money; the alias keeps the values apart from numeric, so DuckDB's
// functions of DECIMAL do not take them and only what is registered here
// does (the Go functions see the cents, and return them as an int64):
//
//   - casts from text (cashIn, PostgreSQL's cash_in), to text (appendCash),
//     from integer, bigint and every DECIMAL (numeric, rounded to the
//     cent), to every DECIMAL; the casts PostgreSQL does not have (from
//     and to smallint, real, double precision, boolean; to integer and
//     bigint) fail with its error rather than let DuckDB reinterpret the
//     cents;
//   - +, - of two moneys, * and / by smallint, integer, bigint, real and
//     double precision (and * the other way round), money / money as
//     double precision, with PostgreSQL 15's overflow errors;
//   - cashlarger, cashsmaller, cash_words, and sum: DuckDB's sum of the
//     cents as a DECIMAL(38,2) (exact), cast back to money; a statement
//     DuckDB refuses for sum(money) is prepared again with it (MoneySum),
//     one it refuses for m + 1.5 (the rewrite's m + '1.5') with the
//     number quoted back (MoneyNumber).
//
// pgwire reports a column of it as money (OID 790), its text as cash_out
// writes it and its binary form as the int8 of cents (cash_send).

// MoneyType is the engine's name of money.
const MoneyType = "money"

// moneyHint is the hint of money's errors.
const moneyHint = "money holds whole cents from -$92,233,720,368,547,758.08 to $92,233,720,368,547,758.07; compute in numeric (x::numeric) beyond that."

func moneyRange() error {
	return vsqlerr.New(vsqlerr.NumericOutOfRange, "money out of range").WithHint(moneyHint)
}

func moneyError(code vsqlerr.Code, format string, args ...any) error {
	return vsqlerr.New(code, format, args...).WithHint(moneyHint)
}

// cashCast is PostgreSQL's refusal of a cast money does not have.
func cashCast(from, to string) error {
	return vsqlerr.New(vsqlerr.CannotCoerce, "cannot cast type %s to %s", from, to).
		WithHint("money casts to and from numeric and text, and from integer and bigint: write x::numeric, x::text or n::numeric::money.")
}

func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// cashIn reads money as PostgreSQL's cash_in does with lc_monetary C: white
// space, "$" and a sign ("-", "+" or "(") in front, digits with ","
// anywhere among them and one "."; a third fractional digit rounds (5 and
// up away from zero) and later ones are ignored; then white space, ")",
// a sign or "$" only. The empty string is $0.00, as in PostgreSQL.
func cashIn(str string) (int64, error) {
	s, i := str, 0
	skip := func() {
		for i < len(s) && isCSpace(s[i]) {
			i++
		}
		if i < len(s) && s[i] == '$' {
			i++
		}
		for i < len(s) && isCSpace(s[i]) {
			i++
		}
	}
	outOfRange := func() (int64, error) {
		return 0, moneyError(vsqlerr.NumericOutOfRange, "value \"%s\" is out of range for type money", str)
	}
	skip()
	neg := false
	switch {
	case i < len(s) && (s[i] == '-' || s[i] == '('):
		neg, i = true, i+1
	case i < len(s) && s[i] == '+':
		i++
	}
	skip()
	// the value is built negative (the larger range), as PostgreSQL does
	var value int64
	dec, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c) && (!dot || dec < 2):
			hi, lo := bits.Mul64(uint64(-value), 10)
			v := lo + uint64(c-'0')
			if hi != 0 || v < lo || v > 1<<63 {
				return outOfRange()
			}
			value = -int64(v)
			if dot {
				dec++
			}
			continue
		case c == '.' && !dot:
			dot = true
			continue
		case c == ',':
			continue
		}
		break
	}
	if i < len(s) && isDigit(s[i]) && s[i] >= '5' {
		if value == math.MinInt64 {
			return outOfRange()
		}
		value--
	}
	for ; dec < 2; dec++ {
		if value < math.MinInt64/10 {
			return outOfRange()
		}
		value *= 10
	}
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\v', '\f', '\r', ')', '+', '$':
		case '-':
			neg = true
		default:
			return 0, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type money: \"%s\"", str)
		}
	}
	if neg {
		return value, nil
	}
	if value == math.MinInt64 {
		return outOfRange()
	}
	return -value, nil
}

// appendCash writes money as PostgreSQL's cash_out does with lc_monetary
// C: -$1,234.56.
func appendCash(b []byte, v int64) []byte {
	u := uint64(v)
	if v < 0 {
		b = append(b, '-')
		u = -u
	}
	b = append(b, '$')
	dollars, cents := u/100, u%100
	var digits [24]byte
	n := len(digits)
	for k := 0; ; k++ {
		if k > 0 && k%3 == 0 {
			n--
			digits[n] = ','
		}
		n--
		digits[n] = byte('0' + dollars%10)
		dollars /= 10
		if dollars == 0 {
			break
		}
	}
	b = append(b, digits[n:]...)
	return append(b, '.', byte('0'+cents/10), byte('0'+cents%10))
}

// AppendCash writes a money value's text (pgwire's encoder).
func AppendCash(b []byte, v int64) []byte { return appendCash(b, v) }

var smallWords = [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven",
	"eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen",
	"fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
	"thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"}

// numWord is PostgreSQL's num_word: 0 to 999 in words.
func numWord(v uint64) string {
	big := smallWords[18:] // big[2] is twenty
	tu := v % 100
	switch {
	case v <= 20:
		return smallWords[v]
	case tu == 0:
		return smallWords[v/100] + " hundred"
	case v > 99:
		switch {
		case v%10 == 0 && tu > 10:
			return smallWords[v/100] + " hundred " + big[tu/10]
		case tu < 20:
			return smallWords[v/100] + " hundred and " + smallWords[tu]
		}
		return smallWords[v/100] + " hundred " + big[tu/10] + " " + smallWords[tu%10]
	case v%10 == 0 && tu > 10:
		return big[tu/10]
	case tu < 20:
		return smallWords[tu]
	}
	return big[tu/10] + " " + smallWords[tu%10]
}

// cashWords is PostgreSQL's cash_words: the amount in (American) words,
// its spacing included ("One million  dollars and one cent").
func cashWords(v int64) string {
	var b strings.Builder
	u := uint64(v)
	if v < 0 {
		b.WriteString("minus ")
		u = -u
	}
	start := b.Len()
	for _, g := range []struct {
		div  uint64
		name string
	}{{100000000000000000, " quadrillion "}, {100000000000000, " trillion "}, {100000000000, " billion "}, {100000000, " million "}, {100000, " thousand "}} {
		if m := u / g.div % 1000; m != 0 {
			b.WriteString(numWord(m))
			b.WriteString(g.name)
		}
	}
	if m := u / 100 % 1000; m != 0 {
		b.WriteString(numWord(m))
	}
	if b.Len() == start {
		b.WriteString("zero")
	}
	if u/100 == 1 {
		b.WriteString(" dollar and ")
	} else {
		b.WriteString(" dollars and ")
	}
	cents := u % 100
	b.WriteString(numWord(cents))
	if cents == 1 {
		b.WriteString(" cent")
	} else {
		b.WriteString(" cents")
	}
	out := b.String()
	return strings.ToUpper(out[:1]) + out[1:]
}

// cashMulInt is money times an integer (cash_mul_int8 and kin).
func cashMulInt(c, i int64) (int64, error) {
	hi, lo := bits.Mul64(uabs(c), uabs(i))
	neg := (c < 0) != (i < 0)
	if hi != 0 || lo > 1<<63 || lo == 1<<63 && !neg {
		return 0, moneyRange()
	}
	if neg {
		return int64(-lo), nil
	}
	return int64(lo), nil
}

// uabs is |x| (1<<63 for math.MinInt64).
func uabs(x int64) uint64 {
	if x < 0 {
		return -uint64(x)
	}
	return uint64(x)
}

// cashDivInt is money divided by an integer, truncated (cash_div_int8).
func cashDivInt(c, i int64) (int64, error) {
	switch {
	case i == 0:
		return 0, vsqlerr.New(vsqlerr.DivisionByZero, "division by zero")
	case c == math.MinInt64 && i == -1:
		// PostgreSQL's C division traps (SIGFPE)
		return 0, vsqlerr.New(vsqlerr.FloatingPointException, "floating-point exception")
	}
	return c / i, nil
}

// cashFloat is the money of a float8 result, rounded half to even (rint),
// or PostgreSQL's error: the float's own overflow and underflow
// (float8_mul, float8_div), then money's range.
func cashFloat(r, c, f float64, mul bool) (int64, error) {
	switch {
	case math.IsInf(r, 0) && !math.IsInf(c, 0) && !math.IsInf(f, 0):
		return 0, vsqlerr.New(vsqlerr.NumericOutOfRange, "value out of range: overflow")
	case r == 0 && c != 0 && (mul && f != 0 || !mul && !math.IsInf(f, 0)):
		return 0, vsqlerr.New(vsqlerr.NumericOutOfRange, "value out of range: underflow")
	}
	r = math.RoundToEven(r)
	if math.IsNaN(r) || r < -9223372036854775808.0 || r >= 9223372036854775808.0 {
		return 0, moneyRange()
	}
	return int64(r), nil
}

func cashMulFloat(c int64, f float64) (int64, error) {
	return cashFloat(float64(c)*f, float64(c), f, true)
}

func cashDivFloat(c int64, f float64) (int64, error) {
	if f == 0 {
		return 0, vsqlerr.New(vsqlerr.DivisionByZero, "division by zero")
	}
	return cashFloat(float64(c)/f, float64(c), f, false)
}

// cashAdd and cashSub are cash_pl and cash_mi.
func cashAdd(a, b int64) (int64, error) {
	s := a + b
	if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, moneyRange()
	}
	return s, nil
}

func cashSub(a, b int64) (int64, error) {
	s := a - b
	if (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0) {
		return 0, moneyRange()
	}
	return s, nil
}

var (
	big100  = big.NewInt(100)
	bigTen  = big.NewInt(10)
	minCash = big.NewInt(math.MinInt64)
	maxCash = big.NewInt(math.MaxInt64)
)

// decimalBig is a DECIMAL's unscaled value.
func decimalBig(d duckstream.Decimal) *big.Int {
	x := new(big.Int).SetInt64(d.Hi)
	return x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(d.Lo))
}

// numericCash is PostgreSQL's numeric_cash: the value times 100, rounded
// half away from zero, bigint's error beyond int64.
func numericCash(d duckstream.Decimal, scale int) (int64, error) {
	return bigCash(decimalBig(d), scale)
}

// bigCash is numericCash of the unscaled value x (changed).
func bigCash(x *big.Int, scale int) (int64, error) {
	x.Mul(x, big100)
	if scale > 0 {
		p := new(big.Int).Exp(bigTen, big.NewInt(int64(scale)), nil)
		q, r := new(big.Int).QuoRem(x, p, new(big.Int))
		if r.Abs(r).Lsh(r, 1).Cmp(p) >= 0 {
			if x.Sign() < 0 {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
		x = q
	}
	if x.Cmp(minCash) < 0 || x.Cmp(maxCash) > 0 {
		return 0, moneyError(vsqlerr.NumericOutOfRange, "bigint out of range")
	}
	return x.Int64(), nil
}

// cashNumeric is money as a DECIMAL(width, scale) (cash_numeric, then the
// typmod's rounding, half away from zero), or PostgreSQL's error of a
// value that does not fit.
func cashNumeric(v int64, width, scale int) (duckstream.Decimal, error) {
	x := big.NewInt(v)
	if scale >= 2 {
		x.Mul(x, new(big.Int).Exp(bigTen, big.NewInt(int64(scale-2)), nil))
	} else {
		p := new(big.Int).Exp(bigTen, big.NewInt(int64(2-scale)), nil)
		q, r := new(big.Int).QuoRem(x, p, new(big.Int))
		if r.Abs(r).Lsh(r, 1).Cmp(p) >= 0 {
			q.Add(q, big.NewInt(int64(x.Sign())))
		}
		x = q
	}
	limit := new(big.Int).Exp(bigTen, big.NewInt(int64(width)), nil)
	if new(big.Int).Abs(x).Cmp(limit) >= 0 {
		return duckstream.Decimal{}, vsqlerr.New(vsqlerr.NumericOutOfRange, "numeric field overflow").
			WithHint("A field with precision %d, scale %d must round to an absolute value less than 10^%d.", width, scale, width-scale)
	}
	lo := new(big.Int).And(x, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	return duckstream.Decimal{Lo: lo, Hi: new(big.Int).Rsh(x, 64).Int64()}, nil
}

// moneyCastNames are the PostgreSQL names of the number types money has
// no cast from or to (the engine's types by their cast targets).
var moneyCastNames = []struct {
	t    duckstream.CastTarget
	name string
}{
	{duckstream.CastTinyint, "smallint"}, {duckstream.CastSmallint, "smallint"}, {duckstream.CastBoolean, "boolean"},
	{duckstream.CastFloat, "real"}, {duckstream.CastDouble, "double precision"},
	{duckstream.CastUtinyint, "smallint"}, {duckstream.CastUsmallint, "integer"}, {duckstream.CastUinteger, "bigint"},
	{duckstream.CastUbigint, "numeric"}, {duckstream.CastUhugeint, "numeric"},
}

// registerMoneyType registers money and its casts and sum on the engine.
func registerMoneyType(c driver.Conn) error {
	if err := duckstream.RegisterIntType(c, MoneyType, 2); err != nil {
		return err
	}
	engine := func(err error) error { return vsqlerr.ForEngine(err) }
	regs := []error{
		duckstream.RegisterIntTypeFromText(c, MoneyType, -1, func(text []byte) (int64, error) {
			v, err := cashIn(string(text))
			if err != nil {
				return 0, engine(err)
			}
			return v, nil
		}),
		duckstream.RegisterIntTypeToText(c, MoneyType, func(v int64) ([]byte, error) { return appendCash(nil, v), nil }),
		duckstream.RegisterIntTypeFrom(c, duckstream.CastInteger, MoneyType, func(v int64) (int64, error) { return v * 100, nil }),
		duckstream.RegisterIntTypeFrom(c, duckstream.CastBigint, MoneyType, func(v int64) (int64, error) {
			if v > math.MaxInt64/100 || v < math.MinInt64/100 {
				return 0, engine(moneyError(vsqlerr.NumericOutOfRange, "bigint out of range"))
			}
			return v * 100, nil
		}),
		duckstream.RegisterIntTypeFromWide(c, duckstream.CastHugeint, MoneyType, func(d duckstream.Decimal, _ int) (int64, error) {
			v, err := numericCash(d, 0) // HUGEINT is numeric (sum(bigint))
			if err != nil {
				return 0, engine(err)
			}
			return v, nil
		}),
		duckstream.RegisterIntTypeTo(c, MoneyType, duckstream.CastInteger, func(int64) (int64, error) {
			return 0, engine(cashCast("money", "integer"))
		}),
		duckstream.RegisterIntTypeTo(c, MoneyType, duckstream.CastBigint, func(int64) (int64, error) {
			return 0, engine(cashCast("money", "bigint"))
		}),
		duckstream.RegisterIntTypeTo(c, MoneyType, duckstream.CastHugeint, func(int64) (int64, error) {
			return 0, engine(cashCast("money", "hugeint"))
		}),
		duckstream.RegisterIntTypeDecimalCasts(c, MoneyType, func(d duckstream.Decimal, scale int) (int64, error) {
			v, err := numericCash(d, scale)
			if err != nil {
				return 0, engine(err)
			}
			return v, nil
		}, func(v int64, width, scale int) (duckstream.Decimal, error) {
			d, err := cashNumeric(v, width, scale)
			if err != nil {
				return d, engine(err)
			}
			return d, nil
		}),
	}
	for _, n := range moneyCastNames {
		from, to := engine(cashCast(n.name, "money")), engine(cashCast("money", n.name))
		if n.t == duckstream.CastFloat || n.t == duckstream.CastDouble {
			regs = append(regs, duckstream.RegisterIntTypeFromFloat(c, n.t, MoneyType, func(float64) (int64, error) { return 0, from }))
		} else if n.t == duckstream.CastUhugeint {
			regs = append(regs, duckstream.RegisterIntTypeFromWide(c, n.t, MoneyType, func(duckstream.Decimal, int) (int64, error) { return 0, from }))
		} else {
			regs = append(regs, duckstream.RegisterIntTypeFrom(c, n.t, MoneyType, func(int64) (int64, error) { return 0, from }))
		}
		regs = append(regs, duckstream.RegisterIntTypeTo(c, MoneyType, n.t, func(int64) (int64, error) { return 0, to }))
	}
	for _, err := range regs {
		if err != nil {
			return err
		}
	}
	return nil
}

// moneyFunctions are the overloads of money: DuckDB's operators and
// PostgreSQL's functions of it.
func moneyFunctions() map[string][]engineFunc {
	const (
		m   = MoneyType
		f64 = "DOUBLE"
		f32 = "FLOAT"
	)
	num := func(v driver.Value) int64 {
		switch x := v.(type) {
		case duckdb.Decimal: // money (DECIMAL(18,2) under its alias): the cents
			return x.Value.Int64()
		case int64:
			return x
		case int32:
			return int64(x)
		case int16:
			return int64(x)
		}
		return 0
	}
	flt := func(v driver.Value) float64 {
		switch x := v.(type) {
		case float64:
			return x
		case float32:
			return float64(x)
		}
		return 0
	}
	pair := func(f func(a, b int64) (int64, error)) []engineFunc {
		return []engineFunc{{in: []string{m, m}, out: m, run: func(a []driver.Value) (any, error) { return f(num(a[0]), num(a[1])) }}}
	}
	var mul, div []engineFunc
	for _, t := range []string{"SMALLINT", "INTEGER", "BIGINT"} {
		mul = append(mul,
			engineFunc{in: []string{m, t}, out: m, run: func(a []driver.Value) (any, error) { return cashMulInt(num(a[0]), num(a[1])) }},
			engineFunc{in: []string{t, m}, out: m, run: func(a []driver.Value) (any, error) { return cashMulInt(num(a[1]), num(a[0])) }})
		div = append(div, engineFunc{in: []string{m, t}, out: m, run: func(a []driver.Value) (any, error) { return cashDivInt(num(a[0]), num(a[1])) }})
	}
	for _, t := range []string{f32, f64} {
		mul = append(mul,
			engineFunc{in: []string{m, t}, out: m, run: func(a []driver.Value) (any, error) { return cashMulFloat(num(a[0]), flt(a[1])) }},
			engineFunc{in: []string{t, m}, out: m, run: func(a []driver.Value) (any, error) { return cashMulFloat(num(a[1]), flt(a[0])) }})
		div = append(div, engineFunc{in: []string{m, t}, out: m, run: func(a []driver.Value) (any, error) { return cashDivFloat(num(a[0]), flt(a[1])) }})
	}
	div = append(div, engineFunc{in: []string{m, m}, out: f64, run: func(a []driver.Value) (any, error) {
		if num(a[1]) == 0 {
			return nil, vsqlerr.New(vsqlerr.DivisionByZero, "division by zero")
		}
		return float64(num(a[0])) / float64(num(a[1])), nil
	}})
	return map[string][]engineFunc{
		"+":           pair(cashAdd),
		"-":           pair(cashSub),
		"*":           mul,
		"/":           div,
		"//":          div, // the rewrite's / (divide)
		"cashlarger":  pair(func(a, b int64) (int64, error) { return max(a, b), nil }),
		"cashsmaller": pair(func(a, b int64) (int64, error) { return min(a, b), nil }),
		"cash_words": {{in: []string{m}, out: "VARCHAR", run: func(a []driver.Value) (any, error) {
			return cashWords(num(a[0])), nil
		}}},
	}
}

// sumCall is a call of sum in a statement: its tokens, from the name to
// the closing parenthesis, the end of a FILTER (…) and OVER (…) after it,
// and whether it is plain (no DISTINCT, ALL, ORDER BY, FILTER or OVER,
// which a macro does not take).
type sumCall struct {
	name, open, close, end int // end: the last token of the call with its FILTER and OVER
	arg, argEnd            int // the argument's first and last token
	plain                  bool
}

// sumCalls are the statement's calls of sum.
func sumCalls(p *pass) []sumCall {
	var calls []sumCall
	for i := range p.toks {
		if !p.isWord(i, "sum") || p.kind(i+1) != sqltext.Open || !p.adjacent(i) || p.isOp(i-1, ".") {
			continue
		}
		c := sumCall{name: i, open: i + 1, close: p.matchForward(i + 1), arg: i + 2, plain: true}
		if c.close < 0 {
			continue
		}
		if p.isWord(c.arg, "distinct") || p.isWord(c.arg, "all") {
			c.arg++
			c.plain = false
		}
		c.argEnd = c.close - 1
		for j := c.arg; j < c.close; j++ {
			if p.kind(j) == sqltext.Open {
				if j = p.matchForward(j); j < 0 {
					break
				}
				continue
			}
			if p.isWord(j, "order") && p.isWord(j+1, "by") {
				c.argEnd, c.plain = j-1, false // sum(x ORDER BY y)
				break
			}
		}
		c.end = c.close
		if p.isWord(c.end+1, "filter") && p.kind(c.end+2) == sqltext.Open {
			c.end, c.plain = p.matchForward(c.end+2), false
		}
		if c.end >= 0 && p.isWord(c.end+1, "over") {
			c.plain = false
			switch {
			case p.kind(c.end+2) == sqltext.Open:
				c.end = p.matchForward(c.end + 2)
			default:
				c.end += 2 // OVER w
			}
		}
		if c.end < 0 || c.argEnd < c.arg || strings.HasPrefix(p.src[p.toks[c.arg].Start:], schema+".pg_money_cents(") ||
			strings.HasPrefix(p.src[p.toks[c.arg].Start:], schema+".pg_interval_") {
			continue // (one MoneySumCall or IntervalSumCall made)
		}
		calls = append(calls, c)
	}
	return calls
}

// MoneySum is the statement with its plain calls of sum sent to pg_sum
// (a macro whose overload on money is the sum of the cents as a
// DECIMAL(38,2), cast back to money, whose overload on interval sums its
// fields (intervalsum.go), and whose other overload is DuckDB's sum):
// when DuckDB refused the statement because no sum takes money or
// interval (notMatched, its error). DuckDB adds no overload to its own sum (the C
// API registers an aggregate function as an ALTER, which aggregates do
// not support), and which sum has money under it is the engine's to
// know, so the server prepares the statement as it is and, only after
// this refusal, again with pg_sum; then, calls of sum with DISTINCT, ORDER
// BY, FILTER or OVER (a macro takes none, and a window macro's body must
// be a call) one at a time through MoneySumCall. pending counts those.
func MoneySum(st sqltext.Statement, notMatched error) (out sqltext.Statement, pending int, ok bool) {
	if !SumRefused(notMatched) {
		return st, 0, false
	}
	p := pass{src: st.SQL, toks: st.Tokens()}
	for _, c := range sumCalls(&p) {
		if c.plain {
			p.replace(p.toks[c.name].Start, p.toks[c.name].End, schema+".pg_sum")
		} else {
			pending++
		}
	}
	if len(p.edits) == 0 {
		return st, pending, pending > 0
	}
	return st.Edit(p.apply()), pending, true
}

// SumOverMoney reports whether err is DuckDB's refusal of sum(money).
func SumOverMoney(err error) bool {
	return err != nil && strings.Contains(err.Error(), "'sum("+MoneyType+")'")
}

// NotMoney reports whether err is DuckDB's refusal of a MoneySumCall: the
// sum was over another type.
func NotMoney(err error) bool {
	return err != nil && strings.Contains(err.Error(), "pg_money_cents() does not support")
}

// MoneySumCall is the statement with its k-th call of sum that MoneySum
// left (DISTINCT, ORDER BY, FILTER or OVER) taken as a sum over money:
// sum(DISTINCT m) OVER w is CAST(sum(DISTINCT pg_money_cents(m)) OVER w
// AS money), whose pg_money_cents takes money only (so a sum of another
// type fails to bind rather than becoming money).
func MoneySumCall(st sqltext.Statement, k int) sqltext.Statement {
	p := pass{src: st.SQL, toks: st.Tokens()}
	for _, c := range sumCalls(&p) {
		if c.plain {
			continue
		}
		if k--; k >= 0 {
			continue
		}
		p.open(p.toks[c.name].Start, "CAST(")
		p.open(p.toks[c.arg].Start, schema+".pg_money_cents(")
		p.insert(p.toks[c.argEnd].End, ")")
		p.insert(p.toks[c.end].End, " AS "+MoneyType+")")
		break
	}
	return st.Edit(p.apply())
}

// MoneyOperand reports whether err is DuckDB's refusal of + or - with
// money on one side: after the rewrite made a quoted number beside the
// operator a number (numericOperand: x + '3' is x + 3, which DuckDB could
// not bind between dates, intervals and numbers), where PostgreSQL reads
// the quoted literal as money beside money.
func MoneyOperand(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	_, types, ok := strings.Cut(msg, "argument types '")
	if !ok {
		return false
	}
	types, _, _ = strings.Cut(types, "'")
	return (strings.HasPrefix(types, "+(") || strings.HasPrefix(types, "-(")) && strings.Contains(types, MoneyType)
}

// numberOperands are the statement's numbers on either side of a binary
// + or -, as spans of tokens (a negative one as the rewrite writes it,
// (-5)).
func numberOperands(p *pass) [][2]int {
	var spans [][2]int
	for i := range p.toks {
		if !p.isOp(i, "+") && !p.isOp(i, "-") || p.adjacent(i) && p.kind(i+1) == sqltext.Op || p.adjacent(i-1) && p.kind(i-1) == sqltext.Op {
			continue // part of another operator
		}
		if k := p.kind(i - 1); k != sqltext.Number && k != sqltext.Close && k != sqltext.Word && k != sqltext.Quoted && k != sqltext.String {
			continue // unary
		}
		switch {
		case p.kind(i+1) == sqltext.Number:
			spans = append(spans, [2]int{i + 1, i + 1})
		case p.kind(i+1) == sqltext.Open && p.isOp(i+2, "-") && p.kind(i+3) == sqltext.Number && p.kind(i+4) == sqltext.Close:
			spans = append(spans, [2]int{i + 1, i + 4})
		}
		if p.kind(i-1) == sqltext.Number && (i < 2 || p.kind(i-2) != sqltext.Op || p.isOp(i-2, ",") || p.isOp(i-2, "(")) {
			spans = append(spans, [2]int{i - 1, i - 1})
		}
	}
	return spans
}

// MoneyNumbers counts the numbers MoneyNumber can quote.
func MoneyNumbers(st sqltext.Statement) int {
	p := pass{src: st.SQL, toks: st.Tokens()}
	return len(numberOperands(&p))
}

// MoneyNumber is the statement with the k-th number beside a binary + or
// - quoted again ('123.45', '-5'), for DuckDB to read as money beside
// money (PostgreSQL's reading of m + '123.45'); the server quotes them
// one at a time after MoneyOperand's refusal, keeping a quote that moved
// DuckDB's refusal on.
func MoneyNumber(st sqltext.Statement, k int) sqltext.Statement {
	p := pass{src: st.SQL, toks: st.Tokens()}
	spans := numberOperands(&p)
	if k < 0 || k >= len(spans) {
		return st
	}
	a, b := spans[k][0], spans[k][1]
	text := p.text(a)
	if b > a {
		text = "-" + p.text(a+2) // (-5)
	}
	p.replace(p.toks[a].Start, p.toks[b].End, sqltext.QuoteString(text))
	return st.Edit(p.apply())
}
