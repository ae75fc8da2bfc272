package server_test

import (
	"context"
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestMoney: PostgreSQL's money — input, output, arithmetic, order,
// aggregates, casts, cash_words — answers as PostgreSQL 15 does (with
// lc_monetary C), errors with its SQLSTATEs; the columns are money (OID
// 790) in text and binary.
func TestMoney(t *testing.T) {
	pgc, vsc := pgtest.Connect(t), connectPgx(t, startServer(t, nil))
	pg, vs := pgc.PgConn(), vsc.PgConn()
	compareSteps(t, pg, vs, []string{
		// PostgreSQL's regression file money.sql (its casts to bare
		// numeric aside: vsqld's numeric is DECIMAL(18,3))
		"CREATE TABLE money_data (m money)",
		"INSERT INTO money_data VALUES ('123')",
		"SELECT * FROM money_data",
		"SELECT m + '123' FROM money_data",
		"SELECT m + '123.45' FROM money_data",
		"SELECT m - '123.45' FROM money_data",
		"SELECT m / '2'::money FROM money_data",
		"SELECT m * 2, 2 * m, m / 2 FROM money_data",
		"SELECT m * 2::int2, 2::int2 * m, m / 2::int2, m * 2::int8, 2::int8 * m, m / 2::int8 FROM money_data",
		"SELECT m * 2::float8, 2::float8 * m, m / 2::float8, m * 2::float4, 2::float4 * m, m / 2::float4 FROM money_data",
		"SELECT m = '$123.00', m != '$124.00', m <= '$123.00', m >= '$123.00', m < '$124.00', m > '$122.00' FROM money_data",
		"SELECT m = '$123.01', m != '$123.00', m <= '$122.99', m >= '$123.01', m > '$124.00', m < '$122.00' FROM money_data",
		"SELECT cashlarger(m, '$124.00'), cashsmaller(m, '$124.00'), cash_words(m), cash_words(m + '1.23') FROM money_data",
		"DELETE FROM money_data",
		"INSERT INTO money_data VALUES ('$123.45'), ('$123.451'), ('$123.454'), ('$123.455'), ('$123.456'), ('$123.459')",
		"SELECT * FROM money_data ORDER BY m",
		"SELECT '1234567890'::money, '12345678901234567'::money, '-12345'::money, '-1234567890'::money, '-12345678901234567'::money",
		"SELECT '123456789012345678'::money", "SELECT '9223372036854775807'::money",
		"SELECT '-123456789012345678'::money", "SELECT '-9223372036854775808'::money",
		"SELECT '(1)'::money, '($123,456.78)'::money",
		"SELECT '-92233720368547758.08'::money, '92233720368547758.07'::money",
		"SELECT '-92233720368547758.09'::money", "SELECT '92233720368547758.08'::money",
		"SELECT '-92233720368547758.085'::money", "SELECT '92233720368547758.075'::money",
		"SELECT '878.08'::money / 11::float8, '878.08'::money / 11::float4, '878.08'::money / 11::bigint, '878.08'::money / 11::int, '878.08'::money / 11::smallint",
		"SELECT '90000000000000099.00'::money / 10::bigint, '90000000000000099.00'::money / 10::int, '90000000000000099.00'::money / 10::smallint",
		"SELECT 1234567890::money, 12345678901234567::money, (-12345)::money, (-1234567890)::money, (-12345678901234567)::money",
		"SELECT 1234567890::int4::money, 12345678901234567::int8::money, (-1234567890)::int4::money, (-12345678901234567)::int8::money",
		// input: PostgreSQL's cash_in with lc_monetary C
		"SELECT '  -  $ 12  '::money, '$$1'::money, '(1'::money, '1)'::money, '1$'::money, '1-'::money, '1+'::money, '-1-'::money, '+$5'::money",
		"SELECT ',1,'::money, '1,,2'::money, '.'::money, '-'::money, '$'::money, '()'::money, ''::money, '1.'::money, '.5'::money",
		"SELECT '1.999'::money, '1.995'::money, '0.994999'::money, '-1.995'::money, '0.005'::money, '-0.005'::money, '1,234,567.891'::money",
		"SELECT '1 2'::money", "SELECT 'abc'::money", "SELECT '1e3'::money", "SELECT '12.3.4'::money", "SELECT '$-'::money",
		// arithmetic and PostgreSQL 15's overflow errors
		"SELECT '92233720368547758.07'::money + '0.01'", "SELECT '-92233720368547758.08'::money - '0.01'",
		"SELECT '1'::money * 9223372036854775807::bigint", "SELECT 2::int2 * '46116860184273879.04'::money",
		"SELECT '-92233720368547758.08'::money * -1", "SELECT '-92233720368547758.08'::money / -1",
		"SELECT '1'::money * 'nan'::float8", "SELECT '1'::money * 1e300::float8", "SELECT '1'::money / 1e-300::float8", "SELECT '1'::money * 'inf'::float8",
		"SELECT '1'::money / 'inf'::float8, '1'::money * 0::float8, '-1'::money / 3::float8, '0.05'::money * 0.5::float8, '0.15'::money * 0.5::float8",
		"SELECT '5'::money / '0'::money", "SELECT '5'::money / 0", "SELECT '5'::money / 0::float8", "SELECT '5'::money / 0::int2",
		"SELECT '1'::money / '3'::money, pg_typeof('1'::money / '3'::money), '-7'::money / 2, '7'::money / -2::float8",
		"SELECT '1.23'::money * 2.5, 2.5 * '1.23'::money, '10'::money / 3.0",
		"SELECT '1'::money - '3'",
		// casts
		"SELECT 92233720368547758::bigint::money", "SELECT 92233720368547759::bigint::money", "SELECT 100000000000000000::money",
		"SELECT 1.005::numeric(10,3)::money, (-1.005)::numeric(10,3)::money, 1.004::money, 0.995::money, 12.345::numeric(5,3)::money",
		"SELECT '12345678901234567'::money::numeric(20,2), '-92233720368547758.08'::money::numeric(20,2), '1.25'::money::numeric(10,1), '1.35'::money::numeric(10,1), '-1.25'::money::numeric(10,1)",
		"SELECT '1000'::money::numeric(5,2)",
		"SELECT '1'::money::float8", "SELECT '1'::money::int4", "SELECT '1'::money::int8", "SELECT 1::int2::money", "SELECT 1.5::float8::money", "SELECT 1.5::real::money", "SELECT true::money",
		"SELECT '1'::money::text, '$1,234.5'::text::money, CAST('7' AS money), money '3.5'",
		// comparisons, order, grouping, aggregates
		"CREATE TABLE money_t (g int, m money)",
		"INSERT INTO money_t VALUES (1, '1.50'), (1, '2.25'), (2, NULL), (2, '$1,000'), (3, NULL), (4, '-5'), (4, '(0.01)'), (5, '92233720368547758.07')",
		"SELECT m FROM money_t ORDER BY m", "SELECT m FROM money_t ORDER BY m DESC NULLS LAST",
		"SELECT g, sum(m), min(m), max(m), count(m) FROM money_t WHERE g < 5 GROUP BY g ORDER BY g",
		"SELECT sum(m) FROM money_t WHERE g < 5", "SELECT sum(m) FROM money_t WHERE g = 3", "SELECT sum(m) FROM money_t",
		"SELECT min(m), max(m), pg_typeof(min(m)), pg_typeof(max(m)) FROM money_t",
		"SELECT sum(m), sum(g), sum(m) FILTER (WHERE g = 1), sum(DISTINCT m) FROM money_t WHERE g < 5",
		"SELECT g, m, sum(m) OVER (ORDER BY g, m), max(m) OVER () FROM money_t WHERE g < 5 ORDER BY g, m",
		// windows over the whole partition (DuckDB's C API aggregates crash there, which is why sum is DuckDB's own)
		"SELECT g, m, sum(m) OVER (), sum(m) OVER (PARTITION BY g), sum(g) OVER (), sum(m) OVER (ORDER BY g ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM money_t WHERE g < 5 ORDER BY g, m",
		"SELECT sum(DISTINCT g), sum(m), sum(DISTINCT m), sum(g) FILTER (WHERE g > 1), sum(m) FILTER (WHERE g > 1), sum(m ORDER BY g) FROM money_t WHERE g < 5",
		"SELECT sum(m) OVER () FROM money_t WHERE g < 5 GROUP BY m",
		"SELECT sum(x) FROM (VALUES ('92233720368547758.07'::money), ('-92233720368547758.08'::money), ('92233720368547758.07'::money)) v(x)",
		"SELECT pg_typeof(sum(m)) FROM money_t WHERE g < 5",
		"SELECT avg(m) FROM money_t",
		"SELECT m, count(*) FROM money_t GROUP BY m ORDER BY m", "SELECT DISTINCT m FROM money_t ORDER BY 1",
		"SELECT m FROM money_t WHERE m > '1.50' AND m < '$1,000.00' ORDER BY 1", "SELECT m FROM money_t WHERE m BETWEEN '-5' AND '2' ORDER BY 1",
		"SELECT m FROM money_t WHERE m IN ('1.50', '-5') ORDER BY 1",
		"SELECT x FROM (VALUES (100::money), (200::money)) _(x) UNION SELECT x FROM (VALUES (100::money), (300::money)) _(x) ORDER BY 1",
		"SELECT x FROM (VALUES (ARRAY[100::money]), (ARRAY[200::money])) _(x) UNION SELECT x FROM (VALUES (ARRAY[100::money]), (ARRAY[300::money])) _(x) ORDER BY 1",
		"SELECT x FROM (VALUES (row(100::money)), (row(200::money))) _(x) UNION SELECT x FROM (VALUES (row(100::money)), (row(300::money))) _(x) ORDER BY 1",
		"SELECT ARRAY[m], row(m, g) FROM money_t WHERE g < 5 ORDER BY g, m",
		"SELECT cashlarger(m, '2'), cashsmaller(m, '2') FROM money_t ORDER BY g, m",
		"UPDATE money_t SET m = m + '1' WHERE g = 1",
		"UPDATE money_t SET m = m * 2 WHERE g = 4 RETURNING m",
		"DELETE FROM money_t WHERE m < '3'",
		"SELECT g, m FROM money_t ORDER BY g, m",
		"INSERT INTO money_t VALUES (6, 7), (7, 1.234), (8, 12345678901)",
		"INSERT INTO money_t VALUES (9, 'x')",
		"SELECT g, m FROM money_t WHERE g > 5 ORDER BY g",
		"CREATE TABLE money_d (a money DEFAULT '5', b money NOT NULL DEFAULT 0)",
		"INSERT INTO money_d DEFAULT VALUES",
		"TABLE money_d",
		// an index, a key
		"CREATE TABLE money_k (m money PRIMARY KEY, note text)",
		"CREATE INDEX money_k_note ON money_k (note, m)",
		"INSERT INTO money_k VALUES ('1'), ('-2'), ('$3,000')",
		"INSERT INTO money_k VALUES ('1.00')",
		"SELECT m FROM money_k WHERE m = '-2' OR m >= '2999.99' ORDER BY m",
		// docs/sql.md's example
		"CREATE TABLE payments (id int, amount money)",
		"INSERT INTO payments VALUES (1, '$1,234.50'), (2, '(3.25)'), (3, 12), (4, 0.995)",
		"SELECT amount + '1.50', amount * 2, amount / 3, amount / '2'::money, cash_words(amount) FROM payments ORDER BY amount",
		"SELECT sum(amount), min(amount), max(amount) FROM payments",
		"SELECT ARRAY[amount, amount * 1000] FROM payments ORDER BY id",
		// cash_words
		"SELECT cash_words('-1.01'), cash_words('0'), cash_words('1'), cash_words('1000000.01'), cash_words('110'), cash_words('115'), cash_words('120'), cash_words('21'), cash_words('999999.99')",
		"SELECT cash_words('-92233720368547758.08'), cash_words('92233720368547758.07'), cash_words('100'), cash_words('1000'), cash_words('1100000000')",
		// numbers beside money keep their own operators (integer literals
		// do not convert to money)
		"CREATE TABLE money_n (b bigint, s smallint, i int, d float8, n numeric(10,2))",
		"INSERT INTO money_n VALUES (3, 4, 5, 1.5, 2.25)",
		"SELECT b * 1000, s * 1000, i * 5, d * 5, n * 2, 1000 * b, 5 * d, b + 1, s - 1, b / 2, n - 1, d / 2, NULL + 1, NULL * 2.5 FROM money_n",
		"SELECT pg_typeof(b * 1000), pg_typeof(i * 1000), pg_typeof(d * 5), pg_typeof(b + 1), pg_typeof(n + 1), pg_typeof(5 * d) FROM money_n",
		// catalogs
		"SELECT column_name, data_type, udt_name FROM information_schema.columns WHERE table_name = 'money_t' ORDER BY 1",
		"SELECT attname, format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'money_t'::regclass AND attnum > 0 ORDER BY 1",
		"SELECT pg_typeof('1'::money), pg_typeof(ARRAY['1'::money]), 'money'::regtype::oid",
	})

	// errors carry PostgreSQL's messages too (after vsql's code)
	for _, q := range []string{
		"SELECT '123456789012345678'::money", "SELECT '-92233720368547758.09'::money", "SELECT '1 2'::money", "SELECT 'abc'::money",
		"SELECT '92233720368547758.07'::money + '0.01'", "SELECT '1'::money * 1e300::float8", "SELECT '5'::money / 0",
		"SELECT '1'::money::float8", "SELECT 1::int2::money", "SELECT 100000000000000000::money",
		"SELECT '-92233720368547758.08'::money / -1",
	} {
		_, errPG := execText(pg, q)
		_, errVS := execText(vs, q)
		var want, got *pgconn.PgError
		if !asPgError(errPG, &want) || !asPgError(errVS, &got) {
			t.Errorf("%s: PostgreSQL %v, vsqld %v", q, errPG, errVS)
			continue
		}
		if _, msg, ok := strings.Cut(got.Message, "] "); ok && strings.HasPrefix(got.Message, "[vsql:") {
			got.Message = msg
		}
		if want.Code != got.Code || want.Message != got.Message {
			t.Errorf("%s:\n  PostgreSQL: %s %s\n  vsqld:      %s %s", q, want.Code, want.Message, got.Code, got.Message)
		}
	}

	// unaliased items are named as PostgreSQL names them
	for _, q := range []string{
		"SELECT '1'::money, 1234567890::int4::money, 5::money, m, m + m, sum(m), min(m), cash_words(m), m::numeric(10,2) FROM money_t WHERE g < 5 GROUP BY m",
		"SELECT sum(m) OVER (), sum(DISTINCT m) FROM money_t WHERE g < 5 GROUP BY m",
		"SELECT g, sum(m) OVER (PARTITION BY g), sum(g) OVER (), sum(m) FILTER (WHERE g > 1) OVER () FROM money_t WHERE g < 5",
	} {
		var names [2][]string
		for k, c := range []*pgconn.PgConn{pg, vs} {
			res, err := execText(c, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			for _, f := range res[0].FieldDescriptions {
				names[k] = append(names[k], f.Name)
			}
		}
		if !slices.Equal(names[0], names[1]) {
			t.Errorf("%s: columns named\n  PostgreSQL: %q\n  vsqld:      %q", q, names[0], names[1])
		}
	}

	ctx := context.Background()
	// the columns are money (790) and money[] (791), in binary the cents
	// as an int8 (cash_send)
	q := "SELECT m, ARRAY[m], sum(m) FROM money_t WHERE g = 8 GROUP BY m"
	var results [2]*pgconn.Result
	for k, c := range []*pgconn.PgConn{pg, vs} {
		results[k] = c.ExecParams(ctx, q, nil, nil, nil, []int16{1, 1, 1}).Read()
		if results[k].Err != nil {
			t.Fatalf("%s: %v", q, results[k].Err)
		}
	}
	for k, f := range results[1].FieldDescriptions {
		if want := results[0].FieldDescriptions[k].DataTypeOID; f.DataTypeOID != want {
			t.Errorf("column %d: type %d, want %d", k, f.DataTypeOID, want)
		}
	}
	if !reflect.DeepEqual(results[0].Rows, results[1].Rows) {
		t.Errorf("binary money: PostgreSQL %x, vsqld %x", results[0].Rows, results[1].Rows)
	}
	// parameters: text, and binary declared money
	cents := binary.BigEndian.AppendUint64(nil, uint64(123456))
	for name, c := range map[string]*pgconn.PgConn{"PostgreSQL": pg, "vsqld": vs} {
		if res := c.ExecParams(ctx, "INSERT INTO money_t VALUES (10, $1)", [][]byte{[]byte("$1,000.25")}, nil, nil, nil).Read(); res.Err != nil {
			t.Errorf("%s: a text money parameter: %v", name, res.Err)
		}
		if res := c.ExecParams(ctx, "INSERT INTO money_t VALUES (11, $1)", [][]byte{cents}, []uint32{790}, []int16{1}, nil).Read(); res.Err != nil {
			t.Errorf("%s: a binary money parameter: %v", name, res.Err)
		}
		if res := c.ExecParams(ctx, "SELECT g FROM money_t WHERE m = $1", [][]byte{[]byte("1234.56")}, nil, nil, nil).Read(); res.Err != nil || len(res.Rows) != 1 {
			t.Errorf("%s: a money parameter compared: %v, %d rows", name, res.Err, len(res.Rows))
		}
		res := c.ExecParams(ctx, "SELECT m + $1, $1 - m FROM money_t WHERE g = 11", [][]byte{[]byte("$1.00")}, nil, nil, nil).Read()
		if got := textRows(res.Rows); res.Err != nil || !reflect.DeepEqual(got, [][]string{{"$1,235.56", "-$1,233.56"}}) {
			t.Errorf("%s: money ± a parameter: %v, %v", name, got, res.Err)
		}
	}
	compareSteps(t, pg, vs, []string{"SELECT g, m FROM money_t WHERE g >= 10 ORDER BY g"})

	// COPY reads and writes PostgreSQL's text
	for _, c := range []*pgconn.PgConn{pg, vs} {
		if _, err := execText(c, "CREATE TABLE money_copy (g int, m money)"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.CopyFrom(ctx, strings.NewReader("1\t$1,234.50\n2\t(3)\n3\t\\N\n4\t7\n"), "COPY money_copy FROM STDIN"); err != nil {
			t.Fatal(err)
		}
	}
	var out [2]strings.Builder
	for k, c := range []*pgconn.PgConn{pg, vs} {
		if _, err := c.CopyTo(ctx, &out[k], "COPY (SELECT * FROM money_copy ORDER BY g) TO STDOUT"); err != nil {
			t.Fatal(err)
		}
	}
	if out[0].String() != out[1].String() {
		t.Errorf("COPY TO: PostgreSQL %q, vsqld %q", out[0].String(), out[1].String())
	}
}

// TestMoneyRestart: a money column and its order survive a restart (the
// type is registered again at start).
func TestMoneyRestart(t *testing.T) {
	c := afterRestart(t,
		"CREATE TABLE mr (m money)",
		"INSERT INTO mr VALUES ('1.50'), ('-3'), ('$1,000,000.01')",
		// beyond DECIMAL(18,2)'s 18 digits, the whole int64 range, in
		// a compressed segment
		"CREATE TABLE mr_big AS SELECT (CASE WHEN i % 2 = 0 THEN '92233720368547758.07' ELSE '-92233720368547758.08' END)::money AS m FROM generate_series(1, 5000) g(i)")
	res, err := execText(c, "SELECT m, m + '1' FROM mr ORDER BY m")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := textRows(res[0].Rows), [][]string{{"-$3.00", "-$2.00"}, {"$1.50", "$2.50"}, {"$1,000,000.01", "$1,000,001.01"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a restart: %v, want %v", got, want)
	}
	res, err = execText(c, "SELECT min(m), max(m), count(*), sum(m) FROM mr_big")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := textRows(res[0].Rows), [][]string{{"-$92,233,720,368,547,758.08", "$92,233,720,368,547,758.07", "5000", "-$25.00"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a restart: %v, want %v", got, want)
	}
}
