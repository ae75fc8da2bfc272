package pgcompat

import (
	"testing"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// TestBitRewrite: bit string constants, casts to bit(n) and bit
// varying(n), columns of them and a # b; words that are no bit string
// are left alone.
func TestBitRewrite(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`SELECT B'0101', x'1F', b''`, `SELECT CAST('B0101' AS pg_bit), CAST('x1F' AS pg_bit), CAST('b' AS pg_bit)`},
		{`SELECT B'01'::bit(4), '1'::bit, n::bit(8), '1'::varbit, '1'::bit varying(3)`,
			`SELECT ` + p + `pg_bit_cast(CAST('B01' AS pg_bit), 4), ` + p + `pg_bit_cast('1', 1), ` + p + `pg_bit_cast(n, 8), ` + p + `pg_varbit_cast('1', -1), ` + p + `pg_varbit_cast('1', 3)`},
		{`SELECT CAST(v || B'0' AS BIT VARYING(6)), CAST(x AS bit(2)), CAST(x AS bit varying)`,
			`SELECT ` + p + `pg_varbit_cast(v || CAST('B0' AS pg_bit) , 6), ` + p + `pg_bit_cast(x , 2), ` + p + `pg_varbit_cast(x , -1)`},
		{`SELECT a # b, 5 # 3, B'1' # B'0'`, `SELECT ` + p + `pg_xor(a , b), ` + p + `pg_xor(5 , 3), ` + p + `pg_xor(CAST('B1' AS pg_bit) , CAST('B0' AS pg_bit))`},
		{`CREATE TABLE t (a bit(4) NOT NULL, "B" bit varying(3), c varbit, d bit)`,
			`CREATE TABLE t (a pg_bit CHECK (__vsql_bit_fits(a, 4, true)) NOT NULL, "B" varbit CHECK (__vsql_bit_fits("B", 3, false)), c varbit, d pg_bit CHECK (__vsql_bit_fits(d, 1, true)))`},
		{`SELECT '1'::bit(2)::varbit(1), bit '0101', bit(3) '1', varbit '01', bit varying(2) '111'`,
			`SELECT ` + p + `pg_varbit_cast(` + p + `pg_bit_cast('1', 2), 1), CAST('0101' AS pg_bit), ` + p + `pg_bit_cast('1', 3), CAST('01' AS varbit), ` + p + `pg_varbit_cast('111', 2)`},
		{`ALTER TABLE t ADD COLUMN e bit(4)`, `ALTER TABLE t ADD COLUMN e pg_bit`},
		// not bit strings
		{`SELECT bit, varbit, b, x FROM t`, `SELECT bit, varbit, b, x FROM t`},
		{`SELECT x 'a', t.b, bit_count(b), bit_length(x)`, `SELECT x 'a', t.b, bit_count(b), bit_length(x)`},
		{`SELECT j #> '{a}' FROM t`, `SELECT ` + p + `pg_path(j , ` + p + `pg_text_array('{a}')) FROM t`},
	} {
		got, _ := Rewrite(c.in)
		checkTokens(t, Translate(sqltext.Parse(c.in), false).Statement)
		if got != c.want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestBitValues: the Go side of bit strings, with the values and errors
// PostgreSQL 15 gives (server's TestBitStrings compares them through SQL).
func TestBitValues(t *testing.T) {
	for in, want := range map[string]string{"0101": "0101", "B0101": "0101", "b": "", "X1F": "00011111", "xa0": "10100000", "": ""} {
		if got, err := parseBits(in); err != nil || got != want {
			t.Errorf("parseBits(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, code := range map[string]vsqlerr.Code{"012": vsqlerr.InvalidTextValue, "X1G": vsqlerr.InvalidTextValue} {
		if _, err := parseBits(in); !vsqlerr.IsCode(err, code) {
			t.Errorf("parseBits(%q): %v, want %s", in, err, code)
		}
	}
	for _, c := range []struct {
		v    int64
		n    int
		want string
	}{{5, 4, "0101"}, {5, 2, "01"}, {-1, 6, "111111"}, {7, 3, "111"},
		{-5, 64, "1111111111111111111111111111111111111111111111111111111111111011"},
		{5, 70, "0000000000000000000000000000000000000000000000000000000000000000000101"}} {
		if got := integerBits(c.v, c.n); got != c.want {
			t.Errorf("integerBits(%d, %d) = %s, want %s", c.v, c.n, got, c.want)
		}
	}
	if v, err := bitsInteger("10000000000000000000000000000000", 32); err != nil || v != -2147483648 {
		t.Errorf("bitsInteger: %d, %v", v, err)
	}
	if _, err := bitsInteger("111111111111111111111111111111111", 32); !vsqlerr.IsCode(err, vsqlerr.NumericOutOfRange) {
		t.Errorf("33 bits as integer: %v", err)
	}
	for _, c := range []struct {
		b    string
		n    int64
		want string
	}{{"0101", 1, "1010"}, {"0101", -1, "0010"}, {"0111", -1, "0011"}, {"0111", 10, "0000"}, {"0111", -2, "0001"}} {
		if got := shiftBits(c.b, c.n); got != c.want {
			t.Errorf("shiftBits(%s, %d) = %s, want %s", c.b, c.n, got, c.want)
		}
	}
	for _, c := range []struct {
		sub, b string
		want   int32
	}{{"1010", "00001010", 5}, {"", "00001010", 1}, {"0", "", 0}, {"", "", 0}, {"111010110", "11101011", 0}} {
		if got := bitPosition(c.sub, c.b); got != c.want {
			t.Errorf("bitPosition(%s, %s) = %d, want %d", c.sub, c.b, got, c.want)
		}
	}
	if _, err := bitsOp("001", "10", "AND", nil); !vsqlerr.IsCode(err, vsqlerr.StringLengthMismatch) {
		t.Errorf("AND of different sizes: %v", err)
	}
	if _, err := bitFits("10", 11, true); !vsqlerr.IsCode(err, vsqlerr.StringLengthMismatch) || err.Error() != "[vsql:string_data_length_mismatch] bit string length 2 does not match type bit(11)" {
		t.Errorf("bitFits: %v", err)
	}
	if _, err := bitFits("101011111010", 11, false); !vsqlerr.IsCode(err, vsqlerr.StringTooLong) {
		t.Errorf("bitFits varying: %v", err)
	}
	if ok, err := bitFits("1", 11, false); !ok || err != nil {
		t.Errorf("bitFits of a shorter varying value: %v, %v", ok, err)
	}
}
