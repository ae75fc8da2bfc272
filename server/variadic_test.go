package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestVariadicArguments: f(…, VARIADIC a) passes the array's elements as
// the arguments, as on PostgreSQL 15 (pgcompat/variadic.go); DuckDB took
// the array for one argument.
func TestVariadicArguments(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"SELECT concat(VARIADIC ARRAY[1, 2, 3]), concat_ws(',', VARIADIC ARRAY[1, 2, 3])",
		"SELECT concat_ws(',', VARIADIC NULL::int[]), concat(VARIADIC NULL::int[]) IS NULL, concat(VARIADIC '{}'::int[]) = ''",
		"SELECT concat(VARIADIC ARRAY[true, NULL, false]), concat_ws('-', VARIADIC ARRAY[1.50, 2.25]), concat_ws(NULL, VARIADIC ARRAY[1])",
		"SELECT concat(VARIADIC ARRAY[[1, 2], [3, 4]]), concat_ws('/', VARIADIC ARRAY['a', NULL, 'b'])",
		"SELECT concat_ws(',', VARIADIC 10)", // 42804
		"SELECT format('Hello', VARIADIC NULL::int[]), format('%s-%s', VARIADIC ARRAY[1, 2])",
		"SELECT json_build_array(VARIADIC NULL::text[]) IS NULL, jsonb_build_array(VARIADIC '{}'::text[])",
		"SELECT jsonb_build_array(VARIADIC '{a,b,c}'::text[]), jsonb_build_array(VARIADIC ARRAY['a', NULL]::text[])",
		"SELECT jsonb_build_array(VARIADIC '{1,2,3,4}'::int[]), jsonb_build_array(VARIADIC '{{1,4},{2,5},{3,6}}'::int[][])",
		"SELECT jsonb_build_array(VARIADIC ARRAY[1.5, 2]::float8[]), jsonb_build_array(VARIADIC ARRAY[true, NULL])",
		"SELECT jsonb_build_array(VARIADIC ARRAY['2020-01-01'::date]), jsonb_build_array(VARIADIC ARRAY['2020-01-01 10:00'::timestamp])",
		"SELECT jsonb_build_object(VARIADIC NULL::text[]) IS NULL, jsonb_build_object(VARIADIC '{}'::text[])",
		"SELECT jsonb_build_object(VARIADIC ARRAY['a', NULL]::text[]), jsonb_build_object(VARIADIC '{1,2,3,4}'::text[])",
		"SELECT jsonb_build_object(VARIADIC '{1,2,3,4}'::int[]), jsonb_build_object(VARIADIC '{{1,4},{2,5},{3,6}}'::int[][])",
		"SELECT jsonb_build_object(VARIADIC ARRAY['a', 'b', 'a', 'c'])",
		"SELECT jsonb_build_object(VARIADIC ARRAY['a', 'b', 'c'])",     // 22023
		"SELECT jsonb_build_object(VARIADIC ARRAY[NULL, 'a']::text[])", // 22023
		"SELECT jsonb_build_array(VARIADIC 5)",                         // 42804
		"CREATE TABLE va (id int, tags text[])",
		"INSERT INTO va VALUES (1, ARRAY['x', 'y']), (2, NULL), (3, '{}')",
		"SELECT id, concat_ws('|', VARIADIC tags), jsonb_build_array(VARIADIC tags) FROM va ORDER BY id",
	})
}
