package server_test

import (
	"fmt"
	"testing"
)

func TestZZBitProbe(t *testing.T) {
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	for _, q := range []string{
		"SELECT bit '0101'",
		"CREATE TABLE z (a bit(4))",
		"INSERT INTO z VALUES (B'0101')",
		"ALTER TABLE z ALTER COLUMN a TYPE bit(8)",
		"INSERT INTO z VALUES (B'01010101')",
		"ALTER TABLE z ADD COLUMN c bit(2)",
		"INSERT INTO z VALUES (B'0101', B'111')",
		"SELECT * FROM z",
		"SELECT min(a), max(a) FROM z",
		"SELECT bit_and(a) FROM z",
		"SELECT '{1,0}'::bit(1)[]",
		"SELECT B'1'::int4, B'1'::int8, B'1'::smallint",
		"SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'z'::regclass AND attnum > 0",
		"SELECT data_type FROM information_schema.columns WHERE table_name = 'z'",
		"SELECT B'10' = ANY(ARRAY[B'10', B'1'])",
		"SELECT B'1' IN (B'1', B'0')",
		"SELECT CASE WHEN true THEN B'1' ELSE B'00' END",
		"SELECT coalesce(NULL, B'01')",
		"SELECT B'1' UNION SELECT B'01' ORDER BY 1",
		"PREPARE pz(bit(3)) AS SELECT $1",
		"SELECT '1'::bit(2)::varbit(1)",
	} {
		res, err := execText(vs, q)
		if err != nil {
			fmt.Println(q, "=> ERR", err)
			continue
		}
		r := res[len(res)-1]
		fmt.Println(q, "=>", r.CommandTag, textRows(r.Rows))
	}
}
