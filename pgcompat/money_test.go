package pgcompat

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// cash_in's readings (lc_monetary C), as PostgreSQL 15 answers them.
func TestCashIn(t *testing.T) {
	for in, want := range map[string]int64{
		"123": 12300, "$123.45": 12345, "$123.451": 12345, "$123.455": 12346, "$123.459": 12346,
		"(1)": -100, "($123,456.78)": -12345678, "-$1": -100, "$-1": -100, "  -  $ 12  ": -1200,
		"$$1": 100, "(1": -100, "1)": 100, "1$": 100, "1-": -100, "1+": 100, "-1-": -100, "+$5": 500,
		",1,": 100, "1,,2": 1200, ".": 0, "-": 0, "$": 0, "()": 0, "": 0, "1.": 100, ".5": 50,
		"1.999": 200, "1.995": 200, "0.994999": 99, "-1.995": -200, "0.005": 1, "-0.005": -1,
		"-92233720368547758.08": math.MinInt64, "92233720368547758.07": math.MaxInt64,
		"12345678901234567": 1234567890123456700,
	} {
		got, err := cashIn(in)
		if err != nil || got != want {
			t.Errorf("cashIn(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, code := range map[string]vsqlerr.Code{
		"1 2": vsqlerr.InvalidTextValue, "abc": vsqlerr.InvalidTextValue, "1e3": vsqlerr.InvalidTextValue, "12.3.4": vsqlerr.InvalidTextValue,
		"123456789012345678": vsqlerr.NumericOutOfRange, "9223372036854775807": vsqlerr.NumericOutOfRange,
		"-92233720368547758.09": vsqlerr.NumericOutOfRange, "92233720368547758.08": vsqlerr.NumericOutOfRange,
		"-92233720368547758.085": vsqlerr.NumericOutOfRange, "92233720368547758.075": vsqlerr.NumericOutOfRange,
	} {
		if _, err := cashIn(in); !vsqlerr.IsCode(err, code) {
			t.Errorf("cashIn(%q): %v, want %s", in, err, code)
		}
	}
}

func TestCashOutAndWords(t *testing.T) {
	for v, want := range map[int64]string{
		0: "$0.00", 5: "$0.05", -100: "-$1.00", 12345678: "$123,456.78", 100000: "$1,000.00",
		math.MaxInt64: "$92,233,720,368,547,758.07", math.MinInt64: "-$92,233,720,368,547,758.08",
	} {
		if got := string(appendCash(nil, v)); got != want {
			t.Errorf("appendCash(%d) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[int64]string{
		12300:         "One hundred twenty three dollars and zero cents",
		12423:         "One hundred twenty four dollars and twenty three cents",
		-101:          "Minus one dollar and one cent",
		0:             "Zero dollars and zero cents",
		100000001:     "One million  dollars and one cent",
		11000:         "One hundred and ten dollars and zero cents",
		12000:         "One hundred twenty dollars and zero cents",
		math.MinInt64: "Minus ninety two quadrillion two hundred thirty three trillion seven hundred twenty billion three hundred sixty eight million five hundred forty seven thousand seven hundred fifty eight dollars and eight cents",
	} {
		if got := cashWords(v); got != want {
			t.Errorf("cashWords(%d) = %q, want %q", v, got, want)
		}
	}
}

// Arithmetic: PostgreSQL 15's results and overflow errors.
func TestCashArithmetic(t *testing.T) {
	check := func(name string, got int64, err error, want int64, code vsqlerr.Code) {
		t.Helper()
		if code != "" {
			if !vsqlerr.IsCode(err, code) {
				t.Errorf("%s: %d, %v; want %s", name, got, err, code)
			}
			return
		}
		if err != nil || got != want {
			t.Errorf("%s = %d, %v; want %d", name, got, err, want)
		}
	}
	v, err := cashAdd(math.MaxInt64, 1)
	check("max + 1", v, err, 0, vsqlerr.NumericOutOfRange)
	v, err = cashSub(math.MinInt64, 1)
	check("min - 1", v, err, 0, vsqlerr.NumericOutOfRange)
	v, err = cashMulInt(math.MinInt64, -1)
	check("min * -1", v, err, 0, vsqlerr.NumericOutOfRange)
	v, err = cashMulInt(math.MinInt64/2, 2)
	check("min/2 * 2", v, err, math.MinInt64, "")
	v, err = cashMulInt(-4611686018427387904, -2)
	check("-2^62 * -2", v, err, 0, vsqlerr.NumericOutOfRange)
	v, err = cashDivInt(87808, 11)
	check("878.08 / 11", v, err, 7982, "")
	v, err = cashDivInt(-7, 2)
	check("-0.07 / 2", v, err, -3, "")
	v, err = cashDivInt(1, 0)
	check("/ 0", v, err, 0, vsqlerr.DivisionByZero)
	v, err = cashDivInt(math.MinInt64, -1)
	check("min / -1", v, err, 0, vsqlerr.FloatingPointException)
	v, err = cashDivFloat(87808, 11)
	check("878.08 / 11.0", v, err, 7983, "")
	v, err = cashMulFloat(5, 0.5)
	check("0.05 * 0.5 (half to even)", v, err, 2, "")
	v, err = cashMulFloat(15, 0.5)
	check("0.15 * 0.5 (half to even)", v, err, 8, "")
	v, err = cashMulFloat(100, math.NaN())
	check("* NaN", v, err, 0, vsqlerr.NumericOutOfRange)
	v, err = cashMulFloat(100, math.Inf(1))
	check("* Inf", v, err, 0, vsqlerr.NumericOutOfRange)
	v, err = cashDivFloat(100, math.Inf(1))
	check("/ Inf", v, err, 0, "")
	v, err = cashDivFloat(100, 0)
	check("/ 0.0", v, err, 0, vsqlerr.DivisionByZero)
}

// Numeric to money rounds half away from zero (numeric_cash); money to a
// numeric(p, s) rounds the same way and refuses what does not fit.
func TestCashNumeric(t *testing.T) {
	dec := func(x *big.Int) duckstream.Decimal {
		lo := new(big.Int).And(x, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		return duckstream.Decimal{Lo: lo, Hi: new(big.Int).Rsh(x, 64).Int64()}
	}
	for _, c := range []struct {
		unscaled string
		scale    int
		want     int64
		fails    bool
	}{
		{"1005", 3, 101, false}, {"-1005", 3, -101, false}, {"1004", 3, 100, false}, {"12", 0, 1200, false},
		{"5", 1, 50, false}, {"9223372036854775807", 2, math.MaxInt64, false}, {"-9223372036854775808", 2, math.MinInt64, false},
		{"9223372036854775808", 2, 0, true}, {"100000000000000000", 0, 0, true},
		{"12345678901234567890123456789012345678", 38, 12, false}, {"-99999999999999999999999999999999999999", 0, 0, true},
	} {
		x, _ := new(big.Int).SetString(c.unscaled, 10)
		got, err := numericCash(dec(x), c.scale)
		if c.fails != (err != nil) || !c.fails && got != c.want {
			t.Errorf("numericCash(%s e-%d) = %d, %v; want %d (fails %t)", c.unscaled, c.scale, got, err, c.want, c.fails)
		}
	}
	for _, c := range []struct {
		cents        int64
		width, scale int
		want         string
		fails        bool
	}{
		{150, 18, 3, "1500", false}, {125, 10, 1, "13", false}, {135, 10, 1, "14", false}, {-125, 10, 1, "-13", false},
		{100000, 5, 2, "", true}, {99999, 5, 2, "99999", false}, {math.MinInt64, 38, 4, "-922337203685477580800", false},
		{1234567890123456700, 18, 3, "", true},
	} {
		d, err := cashNumeric(c.cents, c.width, c.scale)
		if c.fails != (err != nil) || !c.fails && decimalBig(d).String() != c.want {
			t.Errorf("cashNumeric(%d, %d, %d) = %s, %v; want %s (fails %t)", c.cents, c.width, c.scale, decimalBig(d), err, c.want, c.fails)
		}
	}
}

// The server's retries after DuckDB refused a statement for money's sake.
func TestMoneyRetries(t *testing.T) {
	refusal := errors.New("Binder Error: No function matches the given name and argument types 'sum(money)'.")
	st := sqltext.Parse("SELECT sum(m), sum(DISTINCT m), sum(m) FILTER (WHERE g > 1), sum(m) OVER (PARTITION BY g), sum(m ORDER BY g), x.sum(1) FROM t")
	out, pending, ok := MoneySum(st, refusal)
	if want := "SELECT " + schema + ".pg_sum(m), sum(DISTINCT m), sum(m) FILTER (WHERE g > 1), sum(m) OVER (PARTITION BY g), sum(m ORDER BY g), x.sum(1) FROM t"; !ok || pending != 4 || out.SQL != want {
		t.Errorf("MoneySum: %q, %d, %t; want %q, 4", out.SQL, pending, ok, want)
	}
	if _, _, ok := MoneySum(st, errors.New("Binder Error: No function matches … 'sum(VARCHAR)'")); ok {
		t.Error("MoneySum of another refusal")
	}
	cents := schema + ".pg_money_cents("
	for k, want := range []string{
		"CAST(sum(DISTINCT " + cents + "m)) AS money)",
		"CAST(sum(" + cents + "m)) FILTER (WHERE g > 1) AS money)",
		"CAST(sum(" + cents + "m)) OVER (PARTITION BY g) AS money)",
		"CAST(sum(" + cents + "m) ORDER BY g) AS money)",
	} {
		got := MoneySumCall(out, k).SQL
		if !containsText(got, want) {
			t.Errorf("MoneySumCall(%d) = %q, want it to hold %q", k, got, want)
		}
	}
	// a call made is no longer counted
	once := MoneySumCall(out, 0)
	if got := MoneySumCall(once, 0).SQL; !containsText(got, "CAST(sum("+cents+"m)) FILTER") {
		t.Errorf("second MoneySumCall: %q", got)
	}

	operand := errors.New("Binder Error: No function matches the given name and argument types '-(money, DECIMAL(5,2))'. You might")
	if !MoneyOperand(operand) || MoneyOperand(refusal) || MoneyOperand(errors.New("argument types '+(INTEGER, DATE)'")) {
		t.Error("MoneyOperand")
	}
	st = sqltext.Parse("SELECT m + 123, m - 123.45, 2 - m, m + (-5), g + 1, -3, f(1, 2) FROM t")
	if n := MoneyNumbers(st); n != 5 {
		t.Errorf("MoneyNumbers = %d, want 5", n)
	}
	for k, want := range []string{"m + '123'", "m - '123.45'", "'2' - m", "m + '-5'", "g + '1'"} {
		if got := MoneyNumber(st, k).SQL; !containsText(got, want) {
			t.Errorf("MoneyNumber(%d) = %q, want it to hold %q", k, got, want)
		}
	}
}

func containsText(s, sub string) bool { return strings.Contains(s, sub) }
