package server_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/internal/pgtest"
	"github.com/vsql/vsql/server"
)

// TestBitStrings: PostgreSQL's bit(n) and bit varying(n) — constants,
// casts, columns and their lengths, COPY, operators, order and functions
// — answer as PostgreSQL 15 does, errors with its SQLSTATEs.
func TestBitStrings(t *testing.T) {
	pgc, vsc := pgtest.Connect(t), connectPgx(t, startServer(t, nil))
	pg, vs := pgc.PgConn(), vsc.PgConn()
	compareSteps(t, pg, vs, []string{
		// constants and casts from text
		"SELECT B'0101', b'1', X'1F', x'a0', B''",
		"SELECT '0101'::bit(4), '0101'::bit(6), '010111'::bit(4), '0101'::bit, '0101'::varbit, '0101'::varbit(2)",
		"SELECT CAST('0101' AS bit varying(3)), CAST(B'0111' AS bit(2)), B'0111'::bit varying(2), CAST('11' AS varbit)",
		"SELECT '1'::bit(2)::varbit(1), bit '0101', bit(3) '1', varbit '01', bit varying(2) '111', pg_typeof(bit '0101')",
		"SELECT 'x1F'::varbit, 'B0101'::varbit, 'X'::varbit, ''::varbit, B''::bit(3)",
		"SELECT B'012'",
		"SELECT X'1G'",
		"SELECT 'abc'::bit(3)",
		"SELECT '0101'::bit(0)",
		// integers
		"SELECT 5::bit(4), 5::bit(2), (-1)::bit(6), 5::bit, (-5)::bit(64), 5::bit(40), 7::bit(3)",
		"SELECT B'101'::int, B'11111111111111111111111111111111'::int, B'10000000000000000000000000000000'::int, B'1111'::bigint, 300::bit(64)::bigint",
		"SELECT B'111111111111111111111111111111111'::int",
		"SELECT B'101'::int2", "SELECT B'101'::float8", "SELECT B'101'::real", "SELECT B'101'::varbit::bytea", "SELECT 5::varbit", "SELECT CAST(5 AS bit varying)",
		"SELECT B'101'::int::int2, B'101'::text, '0101'::varbit, CAST(B'01' AS varbit), B'01'::bit varying",
		// operators
		"SELECT B'0101' & B'0011', B'0101' | B'0011', B'0101' # B'0011', ~B'0101', B'0101' << 1, B'0101' >> 1, B'0111' << -1, B'0111' >> 10",
		"SELECT B'01' || B'1', B'' || B'1', B'01' || '10', 5 # 3",
		"SELECT B'001' & B'10'",
		"SELECT B'0111' | B'011'",
		"SELECT B'0010' # B'011101'",
		// comparison: bitwise, then the shorter first
		"SELECT B'0' < B'00', B'1' > B'0111', B'10' < B'100', B'' < B'0', B'0101'::bit(4) = B'0101'::varbit, B'01' = '01', B'11' <> B'110'",
		// functions
		"SELECT length(B'0101'), bit_length(B'0101'), octet_length(B'010111110'), octet_length(B''), bit_count(B'0111')",
		// text beside the overloads of bit strings
		"SELECT octet_length('abc'), octet_length('é'), octet_length(x), octet_length(x::bytea), pg_typeof(octet_length(x)) FROM (VALUES ('ab')) v(x)",
		"SELECT substring(B'010111' from 2 for 3), substring(B'010111' from 3), substring(B'010111' for 2), substring(B'0101' from -1), substring(B'0101' from 10)",
		"SELECT substring('01010101'::bit(8) from -10 for 2147483646), substring('01010101'::varbit from 2 for 2147483646)",
		"SELECT substring(B'0101' from 1 for -1)",
		"SELECT position(B'01' in B'1101'), position(B'' in B'0101'), position(B'1' in B''), position(B'' in B''), position(B'111' in B'0101')",
		"SELECT get_bit(B'0101', 1), set_bit(B'0101', 0, 1), set_bit(B'0101011000100100', 15, 1)",
		"SELECT get_bit(B'0101', 4)",
		"SELECT set_bit(B'0101', -1, 1)",
		"SELECT set_bit(B'0101', 0, 2)",
		"SELECT get_bit('\\x1234567890abcdef00'::bytea, 43), set_bit('\\x1234567890abcdef00'::bytea, 15, 1), set_bit('\\x1234567890abcdef00'::bytea, 43, 0)",
		"SELECT get_bit('\\x1234'::bytea, 16)",
		"SELECT set_bit('\\x1234'::bytea, -1, 0)",
		"SELECT set_bit('\\x1234'::bytea, 1, 2)",
		"SELECT overlay(B'0101011100' placing '001' from 2 for 3), overlay(B'0101011100' placing '101' from 6), overlay(B'0101011100' placing '001' from 20)",
		"SELECT B'0101'::text, CAST(B'01' AS varchar)",
		"SELECT pg_typeof(B'01'), pg_typeof(B'01'::varbit), pg_typeof(B'1' || B'0'), pg_typeof('1'::bit varying(3))",
		// columns: bit(n) takes exactly n bits, bit varying(n) at most n
		"CREATE TABLE bs_fixed (b bit(4))",
		"INSERT INTO bs_fixed VALUES (B'0101'), ('1100'), (X'F')",
		"INSERT INTO bs_fixed VALUES (B'010')",
		"INSERT INTO bs_fixed VALUES ('10101')",
		"INSERT INTO bs_fixed VALUES (B'101'::bit(4))",
		"UPDATE bs_fixed SET b = B'1' WHERE b = B'1100'",
		"UPDATE bs_fixed SET b = b >> 1 WHERE b = B'1100' RETURNING b",
		"SELECT b, length(b), ~b, b & B'0110' FROM bs_fixed ORDER BY b",
		"CREATE TABLE bs_var (v bit varying(5), w varbit, one bit)",
		"INSERT INTO bs_var VALUES (B'', B'1', B'1'), ('0', '', '0'), (B'01', '1100110011', B'0'), (B'10', B'00', B'1'), (B'1', B'0000', B'1')",
		"INSERT INTO bs_var VALUES (B'101011', NULL, NULL)",
		"INSERT INTO bs_var (one) VALUES (B'10')",
		"SELECT v, w, one, v || w FROM bs_var ORDER BY v",
		"SELECT w FROM bs_var ORDER BY w DESC",
		"SELECT count(DISTINCT one), count(DISTINCT v) FROM bs_var",
		"SELECT v FROM bs_var WHERE v > B'01' ORDER BY 1",
		"CREATE TABLE bs_defaults (b1 bit(4) DEFAULT '1001', b2 bit(4) DEFAULT B'0101', b3 bit varying(5) DEFAULT '1001')",
		"INSERT INTO bs_defaults DEFAULT VALUES",
		"TABLE bs_defaults",
		"SELECT CAST(v || B'0' AS BIT VARYING(2)) >> 1 FROM bs_var ORDER BY 1",
		"SELECT position(B'1' IN v), v FROM bs_var ORDER BY v",
		// docs/sql.md's example
		"CREATE TABLE flags (f bit(4), v bit varying(8))",
		"INSERT INTO flags VALUES (B'0101', X'F'), ('1100', B'')",
		"SELECT f & B'0110', ~f, f << 1, v || f, get_bit(f, 1), f::int FROM flags ORDER BY v",
		"INSERT INTO flags VALUES (B'010', NULL)",
		// arrays (without the elements' length), catalogs
		"CREATE TABLE bs_arr (c bit varying(3)[])",
		"INSERT INTO bs_arr VALUES (ARRAY[B'1', B'01']), ('{1,0}')",
		"SELECT c, pg_typeof(c) FROM bs_arr ORDER BY c",
		"SELECT '{1,01}'::varbit[], ARRAY[B'1', B'01']",
		"SELECT table_name, column_name, data_type, udt_name FROM information_schema.columns WHERE table_name IN ('bs_fixed', 'bs_var', 'bs_arr') ORDER BY 1, 2",
		"SELECT attname, format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'bs_var'::regclass AND attnum > 0 ORDER BY 1",
	})

	// errors carry PostgreSQL's messages too (after vsql's code)
	for _, q := range []string{
		"SELECT B'012'", "SELECT X'1G'", "SELECT 'abc'::bit(3)", "SELECT '0101'::bit(0)",
		"SELECT B'001' & B'10'", "SELECT B'0111' | B'011'", "SELECT B'0010' # B'011101'",
		"INSERT INTO bs_fixed VALUES (B'010')", "UPDATE bs_fixed SET b = B'1'", "INSERT INTO bs_var VALUES (B'101011', NULL, NULL)",
		"SELECT substring(B'0101' from 1 for -1)", "SELECT get_bit(B'0101', 4)", "SELECT set_bit(B'0101', 0, 2)",
		"SELECT B'111111111111111111111111111111111'::int", "SELECT get_bit('\\x1234'::bytea, 16)",
		"SELECT B'101'::int2", "SELECT B'101'::varbit::float8", "SELECT 5::varbit",
	} {
		_, errPG := execText(pg, q)
		_, errVS := execText(vs, q)
		var want, got *pgconn.PgError
		if !asPgError(errPG, &want) || !asPgError(errVS, &got) {
			t.Errorf("%s: PostgreSQL %v, vsqld %v", q, errPG, errVS)
			continue
		}
		// vsql's messages start with their code, [vsql:…]
		if _, msg, ok := strings.Cut(got.Message, "] "); ok && strings.HasPrefix(got.Message, "[vsql:") {
			got.Message = msg
		}
		if want.Code != got.Code || want.Message != got.Message {
			t.Errorf("%s:\n  PostgreSQL: %s %s\n  vsqld:      %s %s", q, want.Code, want.Message, got.Code, got.Message)
		}
	}

	// COPY FROM STDIN reads PostgreSQL's bit input (hexadecimal with X)
	// and checks the columns' lengths
	ctx := context.Background()
	copyIn := func(c *pgconn.PgConn, table, data string) string {
		_, err := c.CopyFrom(ctx, strings.NewReader(data), "COPY "+table+" FROM STDIN")
		if pe := (*pgconn.PgError)(nil); asPgError(err, &pe) {
			return pe.Code
		}
		if err != nil {
			t.Fatalf("COPY %s: %v", table, err)
		}
		return "ok"
	}
	for _, q := range []string{"CREATE TABLE bs_copy (a bit varying(16), b bit(8))", "CREATE TABLE bs_copy2 (a bit(8))"} {
		for _, c := range []*pgconn.PgConn{pg, vs} {
			if _, err := execText(c, q); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct{ table, data string }{
		{"bs_copy", "X0F\tX10\nX2468\t01010101\nB101\t\\N\n"},
		{"bs_copy", "X0FFFF\tX10\n"}, // 22001
		{"bs_copy2", "X1\n"},         // 22026
		{"bs_copy2", "X1G\n"},        // 22P02
	} {
		if want, got := copyIn(pg, tc.table, tc.data), copyIn(vs, tc.table, tc.data); want != got {
			t.Errorf("COPY %s %q: PostgreSQL %s, vsqld %s", tc.table, tc.data, want, got)
		}
	}
	compareSteps(t, pg, vs, []string{
		"SELECT a, b, a < b, a = b FROM bs_copy ORDER BY a",
		"SELECT count(*) FROM bs_copy2",
	})

	// pgx reads bit strings in binary format
	var want, got [2]pgtype.Bits
	q := "SELECT B'0101000011', '101'::varbit"
	if err := pgc.QueryRow(ctx, q).Scan(&want[0], &want[1]); err != nil {
		t.Fatal(err)
	}
	if err := vsc.QueryRow(ctx, q).Scan(&got[0], &got[1]); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(want, got) {
		t.Errorf("binary bit strings: PostgreSQL %v, vsqld %v", want, got)
	}

	// and sends them as parameters
	bits := pgtype.Bits{Bytes: []byte{0xa0}, Len: 4, Valid: true}
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgc, "vsqld": vsc} {
		if _, err := c.Exec(ctx, "INSERT INTO bs_fixed VALUES ($1)", bits); err != nil {
			t.Errorf("%s: a bit parameter: %v", name, err)
		}
		if _, err := c.Exec(ctx, "INSERT INTO bs_fixed VALUES ($1)", pgtype.Bits{Bytes: []byte{0xa0}, Len: 3, Valid: true}); !asPgError(err, new(*pgconn.PgError)) {
			t.Errorf("%s: a bit parameter of 3 bits into bit(4): %v", name, err)
		}
	}
	// a parameter declared bit, in binary format: the bit count, then the bits
	for name, c := range map[string]*pgconn.PgConn{"PostgreSQL": pg, "vsqld": vs} {
		res := c.ExecParams(ctx, "INSERT INTO bs_fixed VALUES ($1)", [][]byte{{0, 0, 0, 4, 0x30}}, []uint32{pgtype.BitOID}, []int16{1}, nil).Read()
		if res.Err != nil {
			t.Errorf("%s: a binary bit parameter: %v", name, res.Err)
		}
	}
	compareSteps(t, pg, vs, []string{"SELECT b FROM bs_fixed ORDER BY b"})

	// unaliased items are named as PostgreSQL names them
	for _, q := range []string{
		"SELECT B'0101', X'1F', '0101'::bit(4), '0101'::varbit, 5::bit(4), bit '01', B'01'::bit(4), '01'::bit varying(3), CAST('1' AS bit(2))",
		"SELECT b::bit(3), b::varbit(2), b || b, b & b, ~b, b << 1, b # b, length(b), get_bit(b, 1), substring(b from 1 for 2), position(B'1' in b), b::int, octet_length('a') FROM bs_fixed",
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

	// the columns are reported as bit (1560) and varbit (1562)
	res, err := execText(vs, "SELECT b, v, B'1' || B'0' AS c, B'1' & B'0' AS d FROM bs_fixed, bs_var LIMIT 1")
	if err != nil {
		t.Fatal(err)
	}
	var oids []uint32
	for _, f := range res[0].FieldDescriptions {
		oids = append(oids, f.DataTypeOID)
	}
	if want := []uint32{pgtype.BitOID, pgtype.VarbitOID, pgtype.VarbitOID, pgtype.BitOID}; !slices.Equal(oids, want) {
		t.Errorf("type OIDs: %v, want %v", oids, want)
	}
}

// TestBitStringsRestart: columns of bit strings, their lengths and their
// order survive a restart (the types are registered again at start).
func TestBitStringsRestart(t *testing.T) {
	c := afterRestart(t,
		"CREATE TABLE bsr (b bit(4), v bit varying(3))",
		"INSERT INTO bsr VALUES (B'0101', B'1'), (B'1000', B'011'), (B'0110', B'')")
	res, err := execText(c, "SELECT b, v FROM bsr ORDER BY v")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := textRows(res[0].Rows), [][]string{{"0110", ""}, {"1000", "011"}, {"0101", "1"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("after a restart: %v, want %v", got, want)
	}
	if oid := res[0].FieldDescriptions[0].DataTypeOID; oid != pgtype.BitOID {
		t.Errorf("bit(4) column reported as OID %d", oid)
	}
	for q, code := range map[string]string{"INSERT INTO bsr VALUES (B'01', NULL)": "22026", "INSERT INTO bsr VALUES (NULL, B'0101')": "22001"} {
		_, err := execText(c, q)
		if pe := (*pgconn.PgError)(nil); !asPgError(err, &pe) || pe.Code != code {
			t.Errorf("%s after a restart: %v, want %s", q, err, code)
		}
	}
}

// afterRestart runs setup on a vsqld of a fresh repository, stops it,
// starts another on the same repository and returns a connection to it.
func afterRestart(t *testing.T, setup ...string) *pgconn.PgConn {
	t.Helper()
	cfg := server.Config{DataDir: t.TempDir()}
	addr, stop := runServer(t, cfg)
	c := connectPgx(t, addr).PgConn()
	for _, q := range setup {
		if _, err := execText(c, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	c.Close(context.Background())
	stop()
	addr, _ = runServer(t, cfg)
	return connectPgx(t, addr).PgConn()
}
