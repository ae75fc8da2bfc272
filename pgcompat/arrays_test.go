package pgcompat

import (
	"testing"

	"github.com/vsql/vsql/sqltext"
)

// TestArrayRewrites: the rules of arrayassign.go, arrayconcat.go and
// arraycompare.go that need no catalog.
func TestArrayRewrites(t *testing.T) {
	const f = "memory.__vsql_fn."
	for in, want := range map[string]string{
		// || and array_cat by what is visible
		`SELECT ARRAY[1,2] || 3, 0 || ARRAY[1,2] || 3`:             `SELECT list_append(ARRAY[1,2] , 3), list_append(list_prepend(0 , ARRAY[1,2]) , 3)`,
		`SELECT ARRAY[[1,2],[3,4]] || ARRAY[5,6]`:                  `SELECT list_append(ARRAY[[1,2],[3,4]] , ARRAY[5,6])`,
		`SELECT ROW(1,2) || array_agg(x) FROM v`:                   `SELECT list_prepend(ROW(1,2) , array_agg(x)) FROM v`,
		`SELECT array_cat(ARRAY[[3,4]], ARRAY[1,2])`:               `SELECT list_append(ARRAY[[3,4]], ARRAY[1,2])`,
		`SELECT 'a' || 'b' || c, x || ARRAY[1], ARRAY[1] || 2 + 3`: `SELECT 'a' || 'b' || c, x || ARRAY[1], ARRAY[1] || 2 + 3`,
		// slices of each dimension; a single slice is DuckDB's; seven subscripts
		`SELECT b[1:1][2][2], d[2:][:], a[1:2] FROM t`: `SELECT ` + f + `pg_array_slice3(b, 1, 1, 1, 2, 1, 2), ` + f + `pg_array_slice2(d, 2, 2147483647, 1, 2147483647), a[1:2] FROM t`,
		`SELECT ('{}'::int[])[1][2][3][4][5][6][7]`:    `SELECT error('[vsql:program_limit_exceeded] number of array dimensions (7) exceeds the maximum allowed (6)')`,
		`INSERT INTO t SELECT x, b[1:2][1] FROM s`:     `INSERT INTO t SELECT x, ` + f + `pg_array_slice2(b, 1, 2, 1, 1) FROM s`,
		// casts keep an ARRAY's dimensions; sizes of array types are dropped
		`SELECT ARRAY[['a']]::text[]::varchar[], CAST(ARRAY[[1]] AS int[])`: `SELECT ARRAY[['a']]::text[][]::varchar[][], CAST(ARRAY[[1]] AS int[][])`,
		`CREATE TABLE t (i integer ARRAY[4], t text[3][2], n int)`:          `CREATE TABLE t (i integer [], t text[][], n int)`,
		`SELECT '{1,2,3}'::int[2]`:                                          `SELECT ['1', '2', '3']::int[]`,
		// array input: dimensions, PostgreSQL's refusals
		`SELECT '[1:2][1:1]={{1},{2}}'::int[]`:        `SELECT [['1'], ['2']]::int[][]`,
		`SELECT '[0:1]={1,2}'::int[]`:                 `SELECT (error('[vsql:feature_not_supported] array lower bound 0 in "[0:1]={1,2}": vsql arrays start at 1 (a DuckDB list), so arrays with other lower bounds are not supported'))::int[]`,
		`SELECT '[1:3]={1,2}'::int[]`:                 `SELECT (error('[vsql:invalid_text_representation] malformed array literal: "[1:3]={1,2}"'))::int[]`,
		`SELECT '{{1},{2,3}}'::int[]`:                 `SELECT (error('[vsql:invalid_text_representation] malformed array literal: "{{1},{2,3}}"'))::int[][]`,
		`SELECT '{{},{}}'::text[]`:                    `SELECT (error('[vsql:invalid_text_representation] malformed array literal: "{{},{}}"'))::text[][]`,
		`SELECT '{x}'::_name`:                         `SELECT ['x']::varchar[]`,
		`SELECT '{@ 1 hour @ 2 minutes}'::interval[]`: `SELECT ['0 months 0 days 3720000000 microseconds']::interval[]`,
		// ARRAY[] needs a cast; multidimensional searches
		`SELECT array[], ARRAY[]::int[], CAST(ARRAY[] AS text[])`:               `SELECT error('[vsql:indeterminate_datatype] cannot determine type of empty array'), ARRAY[]::int[], CAST(ARRAY[] AS text[])`,
		`SELECT array_position(ARRAY[[1,2]], 1), array_position(ARRAY[1,2], 1)`: `SELECT error('[vsql:feature_not_supported] searching for elements in multidimensional arrays is not supported'), array_position(ARRAY[1,2], 1)`,
		// ANY/ALL of a literal typed by a cast operand
		`SELECT null::int >= ALL ('{1,2}')`: `SELECT null::int >= ALL (['1', '2']::int[])`,
	} {
		if got, _ := Rewrite(in); got != want {
			t.Errorf("Rewrite(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestArrayComparisons: a '{…}' literal compared with an array column
// (the statement's tables first, then ArrayColumns) or a visible array.
func TestArrayComparisons(t *testing.T) {
	sess := Session{
		TableColumns: func(parts []string) []TableColumn {
			if parts[len(parts)-1] == "t" {
				return []TableColumn{{Name: "i", Type: "INTEGER[]"}, {Name: "s", Type: "VARCHAR"}}
			}
			return nil
		},
		ArrayColumns: func() map[string]string { return map[string]string{"tags": "VARCHAR[]"} },
	}
	for in, want := range map[string]string{
		`SELECT * FROM t WHERE i = '{}' OR '{1,2}' < i OR s = '{x}'`: `SELECT * FROM t WHERE i = CAST([] AS INTEGER[]) OR CAST(['1', '2'] AS INTEGER[]) < i OR s = '{x}'`,
		`SELECT * FROM t WHERE i @> '{}' AND i <@ '{}'`:              `SELECT * FROM t WHERE memory.__vsql_fn.pg_array_contains(i , []) AND memory.__vsql_fn.pg_array_contained(i , [])`,
		`SELECT * FROM u WHERE tags <> '{a,"b c"}'`:                  `SELECT * FROM u WHERE tags <> CAST(['a', 'b c'] AS VARCHAR[])`,
		`SELECT array_remove(ARRAY['x'], 'x') = '{}'`:                `SELECT array_remove(ARRAY['x'], 'x') = '[]'`,
		`SELECT * FROM u WHERE j = '{}'`:                             `SELECT * FROM u WHERE j = '{}'`,
	} {
		got, _ := rewrite(sqltext.Parse(in), sess)
		if got.SQL != want {
			t.Errorf("rewrite(%q)\n got %q\nwant %q", in, got.SQL, want)
		}
	}
}
