package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestByteaFunctions: btrim (of text too), trim, ltrim, rtrim, bit_count
// and LIKE of bytea, SIMILAR TO's ESCAPE and string_agg's NULL delimiter
// answer as on PostgreSQL 15 (pgcompat/strfuncs.go, pgcompat/extract.go,
// pgcompat/jsonagg.go).
func TestByteaFunctions(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		`SELECT trim(E'\\000'::bytea from E'\\000Tom\\000'::bytea)`,
		`SELECT trim(leading E'\\000'::bytea from E'\\000Tom\\000'::bytea)`,
		`SELECT trim(trailing E'\\000'::bytea from E'\\000Tom\\000'::bytea)`,
		`SELECT btrim(E'\\000trim\\000'::bytea, E'\\000'::bytea)`,
		`SELECT btrim(''::bytea, E'\\000'::bytea)`,
		`SELECT btrim(E'\\000trim\\000'::bytea, ''::bytea)`,
		`SELECT ltrim('\x0102030201'::bytea, '\x0201'::bytea), rtrim('\x0102030201'::bytea, '\x0201'::bytea), btrim('\x010101'::bytea, '\x01'::bytea)`,
		`SELECT btrim(NULL::bytea, '\x01'::bytea), btrim('\x01'::bytea, NULL::bytea)`,
		`SELECT btrim('  xx  '), btrim('xxaxx', 'x'), btrim('abcba', 'ab'), ltrim('xxaxx', 'x'), rtrim('xxaxx', 'x'), trim(both 'x' from 'xxaxx')`,
		`SELECT bit_count('\x1234567890'::bytea), bit_count(''::bytea), bit_count(B'10101')`,
		`SELECT 'abc'::bytea LIKE '_b_'::bytea, 'abc'::bytea NOT LIKE '_b_'::bytea, 'a_c'::bytea LIKE 'a$__'::bytea ESCAPE '$'::bytea, 'a_c'::bytea NOT LIKE 'a$__'::bytea ESCAPE '$'::bytea`,
		`SELECT 'a%c'::bytea LIKE 'a\%c'::bytea, 'abc'::bytea LIKE 'a\%c'::bytea, 'abc'::bytea LIKE 'a_c'::bytea ESCAPE ''::bytea, '\x00ff01'::bytea LIKE '%\xff%'::bytea`,
		`SELECT 'abc'::bytea LIKE 'a_c'::bytea ESCAPE 'ab'::bytea`,
		`SELECT 'abc' LIKE 'a%', 'abc' NOT LIKE '_b_', 'a_c' LIKE 'a$__' ESCAPE '$'`,
		`SELECT 'abcdefg' SIMILAR TO '_bcd#%' ESCAPE '##'`,
		`SELECT 'abcdefg' SIMILAR TO '_bcd#%' ESCAPE '#', 'abcd%' SIMILAR TO '_bcd#%' ESCAPE '#'`,
		// string_agg's NULL delimiter is none
		`SELECT string_agg(x, NULL), string_agg(x, NULL::text ORDER BY x DESC), string_agg(x, CAST(NULL AS varchar)), string_agg(x, ', ') FROM (VALUES ('a'), ('b'), (NULL)) t(x)`,
		"CREATE TABLE bt (b bytea)",
		`INSERT INTO bt VALUES ('\x00ab00'), ('\x0000'), (NULL)`,
		`SELECT btrim(b, '\x00'::bytea), bit_count(b) FROM bt ORDER BY b`,
		`SELECT b FROM bt WHERE b LIKE '%1%'`,
		`SELECT b FROM bt WHERE b LIKE '%\xab%'::bytea`,
	})
}
