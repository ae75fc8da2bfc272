package duckstream

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// An integer type of the engine (RegisterIntType): cents, read from
// text as a number of cents and written as d.cc, with casts from integers
// (×100), from and to every DECIMAL, a refused cast to DOUBLE. Its values
// keep the type through a column, min, max and ORDER BY, compare as
// integers, and sum exactly through DECIMAL(38,2), the whole int64 range.
func TestIntType(t *testing.T) {
	_, conn, dc := openConn(t)
	c := driver.Conn(dc)
	errNope := errors.New("no cents from that")
	big128 := func(d Decimal) *big.Int {
		x := new(big.Int).SetInt64(d.Hi)
		return x.Lsh(x, 64).Or(x, new(big.Int).SetUint64(d.Lo))
	}
	for _, err := range []error{
		RegisterIntType(c, "cents", 2),
		RegisterIntTypeFromText(c, "cents", -1, func(text []byte) (int64, error) {
			return strconv.ParseInt(string(text), 10, 64)
		}),
		RegisterIntTypeToText(c, "cents", func(v int64) ([]byte, error) {
			sign := ""
			if v < 0 {
				sign, v = "-", -v
			}
			return fmt.Appendf(nil, "%s%d.%02d", sign, v/100, v%100), nil
		}),
		RegisterIntTypeFrom(c, CastInteger, "cents", func(v int64) (int64, error) { return v * 100, nil }),
		RegisterIntTypeFrom(c, CastSmallint, "cents", func(v int64) (int64, error) { return 0, errNope }),
		RegisterIntTypeFromFloat(c, CastDouble, "cents", func(float64) (int64, error) { return 0, errNope }),
		RegisterIntTypeTo(c, "cents", CastDouble, func(v int64) (int64, error) { return 0, errNope }),
		RegisterIntTypeTo(c, "cents", CastHugeint, func(v int64) (int64, error) { return v, nil }),
		RegisterIntTypeDecimalCasts(c, "cents", func(d Decimal, scale int) (int64, error) {
			// the cents, truncated
			x := big128(d)
			for ; scale > 2; scale-- {
				x.Quo(x, big.NewInt(10))
			}
			for ; scale < 2; scale++ {
				x.Mul(x, big.NewInt(10))
			}
			if !x.IsInt64() {
				return 0, errors.New("too many cents")
			}
			return x.Int64(), nil
		}, func(v int64, width, scale int) (Decimal, error) {
			x := big.NewInt(v)
			for s := 2; s < scale; s++ {
				x.Mul(x, big.NewInt(10))
			}
			for s := 2; s > scale; s-- {
				x.Quo(x, big.NewInt(10))
			}
			if len(new(big.Int).Abs(x).String()) > width {
				return Decimal{}, fmt.Errorf("too wide for %d", width)
			}
			lo := new(big.Int).And(x, new(big.Int).SetUint64(^uint64(0))).Uint64()
			return Decimal{Lo: lo, Hi: new(big.Int).Rsh(x, 64).Int64()}, nil
		}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if _, err := conn.ExecContext(ctx, "CREATE TABLE m (x cents); INSERT INTO m VALUES ('150'), ('-25'), ('1025'), (NULL), ('3'); "+
		"CREATE MACRO sum_cents(x cents) AS CAST(sum(CAST(x AS DECIMAL(38,2))) AS cents)"); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]string{
		"SELECT typeof(x) FROM m LIMIT 1":                                        "cents",
		"SELECT string_agg(x::VARCHAR, ' ' ORDER BY x) FROM m":                   "-0.25 0.03 1.50 10.25", // integer order
		"SELECT min(x)::VARCHAR || ' ' || max(x)::VARCHAR FROM m":                "-0.25 10.25",
		"SELECT typeof(min(x)) || typeof(max(x)) || typeof(sum_cents(x)) FROM m": "centscentscents",
		"SELECT sum_cents(x)::VARCHAR FROM m":                                    "11.53",
		"SELECT coalesce(sum_cents(x)::VARCHAR, 'NULL') FROM m WHERE x > '5000'": "NULL",
		"SELECT sum_cents(x)::VARCHAR FROM m GROUP BY x > '0' ORDER BY 1":        "-0.25", // (first group)
		"SELECT count(*)::VARCHAR FROM m WHERE x < '100'":                        "2",
		"SELECT (7::INTEGER)::cents::VARCHAR":                                    "7.00",
		"SELECT (1.5)::cents::VARCHAR":                                           "1.50",
		"SELECT (1.239::DECIMAL(30,3))::cents::VARCHAR":                          "1.23",
		"SELECT ('12345'::cents)::DECIMAL(5,2)::VARCHAR":                         "123.45",
		"SELECT ('-12345'::cents)::DECIMAL(38,5)::VARCHAR":                       "-123.45000",
		"SELECT ('9223372036854775807'::cents)::DECIMAL(38,2)::VARCHAR":          "92233720368547758.07", // DuckDB's own widening
		"SELECT ('-9223372036854775808'::cents)::DECIMAL(20,2)::VARCHAR":         "-92233720368547758.08",
		"SELECT ('9223372036854775807'::cents)::DECIMAL(38,3)::VARCHAR":          "92233720368547758.070",
		"SELECT ('-12345'::cents)::HUGEINT::VARCHAR":                             "-12345",
		"SELECT coalesce(TRY_CAST(2::SMALLINT AS cents)::VARCHAR, 'NULL')":       "NULL",
		"SELECT coalesce(TRY_CAST(x AS DOUBLE)::VARCHAR, 'NULL') FROM m LIMIT 1": "NULL",
		"SELECT sum_cents(i::VARCHAR::cents)::VARCHAR FROM range(100000) r(i)":   "49999500.00", // combined over threads
	} {
		var got string
		if err := conn.QueryRowContext(ctx, q).Scan(&got); err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", q, got, err, want)
		}
	}
	for q, want := range map[string]string{
		"SELECT 2::SMALLINT::cents":             "no cents from that",
		"SELECT 2.5::DOUBLE::cents":             "no cents from that",
		"SELECT x::DOUBLE FROM m":               "no cents from that",
		"SELECT ('12345'::cents)::DECIMAL(4,2)": "too wide for 4",
		"SELECT sum_cents(x) FROM (VALUES ('9223372036854775807'::cents), ('1'::cents)) t(x)": "too many cents",
		"SELECT x + 1 FROM m":  "No function matches", // no function of BIGINT takes it
		"SELECT abs(x) FROM m": "No function matches",
	} {
		var got sql.NullString
		if err := conn.QueryRowContext(ctx, q).Scan(&got); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", q, err, want)
		}
	}
	s := prepare(t, dc, "SELECT max(x) AS x FROM m")
	cols, err := StatementColumns(s)
	if err != nil || len(cols) != 1 || cols[0].Alias != "cents" {
		t.Errorf("the column's type: %+v, %v", cols, err)
	}
}
