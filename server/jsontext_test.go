package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestJSONTextFidelity runs json and jsonb statements on PostgreSQL 15 and
// on vsqld and compares the answers: json keeps its input text
// (whitespace, key order, duplicate keys) through casts, columns, ->,
// ->>, #>, #>>, json_each and its kin; the functions that build json
// print PostgreSQL's spacing; jsonb stays normalized.
func TestJSONTextFidelity(t *testing.T) {
	pgc := pgtest.Connect(t)
	vsc := connectPgx(t, startServer(t, nil))
	pg, vs := pgc.PgConn(), vsc.PgConn()
	setupBoth(t, pg, vs, []string{"DROP TABLE IF EXISTS jt"},
		"CREATE TABLE jt (id integer, j json, b jsonb)",
		`INSERT INTO jt VALUES (1, '{ "b" : [1,2,  3], "a":{"x" :1}, "a": "dup"}', '{ "b" : [1,2,  3], "a":{"x" :1}}'),
			(2, '[ 1, {"k" :  "v"}, null, "s" ]', '[ 1, {"k" :  "v"}, null, "s" ]'), (3, NULL, NULL)`)
	compareSteps(t, pg, vs, []string{
		// input text kept; jsonb normalized
		`SELECT '{"a":  1, "b":[1,2]}'::json, '{"b":  1, "a":[1,2]}'::jsonb`,
		`SELECT ' true '::json, '[1,2]'::json, json '{"a":1,"a":2}'`,
		`SELECT id, j, b FROM jt ORDER BY id`,
		`SELECT j::text, b::json, j::jsonb FROM jt ORDER BY id`,
		// malformed json: 22P02
		`SELECT '[1,2,]'::json`,
		`SELECT '{"a" 1}'::json`,
		`SELECT '"\ud83d"'::json`,
		// ->, ->>, #>, #>> give the element's text as written
		`SELECT j -> 'b', j -> 'a', j ->> 'a', j -> 1, j -> -1, j ->> 3 FROM jt ORDER BY id`,
		`SELECT j #> '{b}', j #>> '{b,1}', j #> '{1,k}', j #>> '{}' FROM jt ORDER BY id`,
		`SELECT b -> 'b', b #> '{b}', b #>> '{b}', b #>> '{a}' FROM jt ORDER BY id`,
		`SELECT json_extract_path(j, 'a', 'x'), json_extract_path_text(j, 'b') FROM jt ORDER BY id`,
		`SELECT 'null'::jsonb #> '{}', '{"a": {"b":{"c": "foo"}}}'::json #> array['a']`,
		`SELECT json '{ "a": "null \u0000 escape" }' ->> 'a'`,
		`SELECT json '{ "a": "null \\u0000 escape" }' ->> 'a'`,
		// set-returning functions
		`SELECT * FROM json_each('{"f1":[1,2,3], "f2":{"f3" : 1},"f1":null}') q`,
		`SELECT * FROM json_each_text('{"a":"x", "b": null, "c": [1, 2]}') q`,
		`SELECT json_each('{"f1":[1,2,3],"f2":{"f3":1}}')`,
		`SELECT jsonb_each('{"f1":[1,2,3],"f2":{"f3":1}}')`,
		`SELECT * FROM jsonb_each_text('{"bb":{"y":1,"x":2},"a":[1,2]}') q`,
		`SELECT json_array_elements('[1,true,[1,[2,3]],null,{"f1":1}]')`,
		`SELECT * FROM jsonb_array_elements_text('[1,[1, [2,3]],"s",{"b":1,"a":2}]') q`,
		`SELECT json_object_keys('{"a":1, "b":2, "a":3}')`,
		`SELECT * FROM json_each('[1]')`,
		// functions that build json
		`SELECT json_build_object('a', 1, 'b', 1.2, 'c', true, 'd', null, 'e', json '{"x": 3, "y": [1,2,3]}')`,
		`SELECT json_build_array('a', 1, NULL, json '[1, 2]'), json_build_object(), json_build_array()`,
		`SELECT jsonb_build_object('e', json '{"x": 3, "y": [1,2,3]}', 1, 2)`,
		`SELECT json_build_object('a')`,
		`SELECT json_build_object(json '{"a":1}', 3)`,
		`SELECT json_build_object(VARIADIC ARRAY['a', 'b'])`,
		`SELECT to_json(ARRAY[1,2]), to_json('x'::text), to_json(NULL::int), to_json('NaN'::float8)`,
		`SELECT row_to_json(row(1,'foo')), array_to_json(ARRAY[1,2], true), array_to_json(ARRAY[[1,5],[99,100]])`,
		`SELECT row_to_json(q), row_to_json(q, true) FROM (SELECT 1 AS x, 'a' AS y) q`,
		`SELECT json_agg(id ORDER BY id), json_object_agg(id, b ORDER BY id) FROM jt`,
		`SELECT json_agg(q ORDER BY x) FROM (SELECT 1 AS x UNION ALL SELECT 2) q`,
		`SELECT jsonb_agg(id ORDER BY id) FROM jt`,
		`SELECT json_object('{a,1,b,2,a,3}'), json_object('{a,b}', '{1,NULL}')`,
		`SELECT json_strip_nulls('{"a": {"b": null, "c": null}, "d": {} }'), json_strip_nulls('[1,2,null]')`,
		`SELECT json_typeof(j), json_array_length('[1, 2]'::json) FROM jt ORDER BY id`,
		`SELECT jsonb_concat('{"d": "test", "a": [1, 2]}', '{"g": "test2", "c": {"c1":1, "c2":2}}'), getdatabaseencoding()`,
		`SELECT to_json(timestamp '2014-05-28 12:22:35.614298'), json_build_object('t', timestamp '2014-05-28 12:22:00')`,
		`SELECT json '{ "a": "\ud83d\ud83d" }' -> 'a'`,
		`SELECT '{"a": {"b": [1,  2]}}'::jsonb #>> '{a}', '{"a": {"b": [1,  2]}}'::jsonb #> '{a,b}'`,
		`SELECT * FROM json_to_record('{"a":1, "b":{"c":16, "d":2}, "out": "{\"key\": 1}"}') AS x(a int, b json, out json)`,
	})

	// json is reported as json (114), jsonb as jsonb (3802)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	// parameters and results through the extended protocol (pgx reads
	// json and jsonb in binary)
	for _, c := range []interface {
		Exec(context.Context, string, ...any) (pgconn.CommandTag, error)
	}{pgc, vsc} {
		if _, err := c.Exec(ctx, "INSERT INTO jt VALUES ($1, $2, $3)", 4, `{"z": 1,  "a" : [2]}`, `{"z": 1,  "a" : [2]}`); err != nil {
			t.Fatal(err)
		}
	}
	var pj, pb, vj, vb string
	const sel = "SELECT j, b FROM jt WHERE id = $1"
	if err := pgc.QueryRow(ctx, sel, 4).Scan(&pj, &pb); err != nil {
		t.Fatal(err)
	}
	if err := vsc.QueryRow(ctx, sel, 4).Scan(&vj, &vb); err != nil {
		t.Fatal(err)
	}
	if pj != vj || pb != vb {
		t.Errorf("parameters: PostgreSQL %s %s, vsqld %s %s", pj, pb, vj, vb)
	}
	if _, err := vsc.Exec(ctx, "INSERT INTO jt VALUES ($1, $2, NULL)", 5, `{"z": `); err == nil {
		t.Error("malformed json parameter accepted")
	}
	q := `SELECT j, b, '1'::json, j -> 'a', json_agg(id) OVER (), to_json(1), row_to_json(row(1)), json_build_object('a', 1), jsonb_build_object('a', 1) FROM jt`
	want, got := pg.Exec(ctx, q), vs.Exec(ctx, q)
	pr, err := want.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	vr, err := got.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for k, f := range pr[0].FieldDescriptions {
		if g := vr[0].FieldDescriptions[k]; g.DataTypeOID != f.DataTypeOID || g.Name != f.Name {
			t.Errorf("column %d: PostgreSQL %s (type %d), vsqld %s (type %d)", k, f.Name, f.DataTypeOID, g.Name, g.DataTypeOID)
		}
	}
}
