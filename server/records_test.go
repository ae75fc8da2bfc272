package server_test

import (
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestCompositeTypesAndJSONRecords: CREATE TYPE … AS (…) (a DuckDB
// STRUCT), composite values and their fields, and the json record
// functions (json(b)_populate_record(set), json(b)_to_record(set)), on
// PostgreSQL 15 and on vsqld.
func TestCompositeTypesAndJSONRecords(t *testing.T) {
	pg, vs := pgtest.Connect(t).PgConn(), connectPgx(t, startServer(t, nil)).PgConn()
	agreeWithPostgres(t, pg, vs, []string{
		`CREATE TYPE jpop AS (a text, b int, c timestamp)`,
		`CREATE TYPE jpop2 AS (r jpop, l int[], j jsonb, n name)`,
		`SELECT (row('x', 3, '2012-12-31 15:30:56')::jpop).b, (row('x', 3, '2012-12-31 15:30:56')::jpop).a`,
		`CREATE TABLE jrec_t (id int, p jpop)`,
		`INSERT INTO jrec_t VALUES (1, row('a', 1, '2020-01-01')::jpop), (2, null)`,
		`SELECT id, (p).a, (p).c FROM jrec_t ORDER BY id`,
		`SELECT * FROM json_populate_record(null::jpop, '{"a":"blurfl","x":43.2}') q`,
		`SELECT * FROM json_populate_record(row('x',3,'2012-12-31 15:30:56')::jpop, '{"a":"blurfl","x":43.2}') q`,
		`SELECT * FROM json_populate_record(null::jpop, '{"a":[100,200,false],"x":43.2}') q`,
		`SELECT * FROM jsonb_populate_record(null::jpop, '{"a":[100,200,false],"x":43.2}') q`,
		`SELECT * FROM json_populate_record(row('x',3,'2012-12-31 15:30:56')::jpop, '{"c":[100,200,false],"x":43.2}') q`,
		`SELECT * FROM json_populate_record(row('x',3,'2012-12-31 15:30:56')::jpop, '{}') q`,
		`SELECT * FROM json_populate_record(row('x',3,'2012-12-31 15:30:56')::jpop, '{"b":null}') q`,
		`SELECT * FROM json_populate_record(null::jpop, '{"b":43.2}') q`,
		`SELECT * FROM json_populate_record(null::jpop, '{"b":"x43"}') q`,
		`SELECT * FROM json_populate_record(null::jpop, '[1]') q`,
		`SELECT q.b FROM json_populate_record(null::jpop, '{"b":"42"}') q`,
		`SELECT * FROM json_populate_recordset(row('def',99,null)::jpop, '[{"a":"blurfl","x":43.2},{"b":3,"c":"2012-01-20 10:42:53"}]') q ORDER BY a`,
		`SELECT * FROM jsonb_populate_recordset(null::jpop, '[{"a":"blurfl"},{"b":3}]') q ORDER BY b`,
		`SELECT * FROM json_populate_recordset(null::jpop, '[]') q`,
		`SELECT * FROM json_populate_recordset(null::jpop, '{"a":1}') q`,
		`SELECT * FROM json_populate_recordset(null::jpop, '[1]') q`,
		`SELECT v.i, q.a, q.b FROM (VALUES (1), (2)) v(i), json_populate_record(row('x', i, null)::jpop, '{"a":"y"}') q ORDER BY v.i`,
		`SELECT (r).a, (r).b, l, j, n::text FROM json_populate_record(null::jpop2, '{"r":{"a":"abc","b":"7","x":1},"l":[1,"2",null],"j":{"k":[1,2]},"n":"nm"}') q`,
		`SELECT * FROM json_populate_record(null::jpop2, '{"l":123}') q`,
		`SELECT * FROM json_populate_record(null::jpop2, '{"r":123}') q`,
		`SELECT * FROM json_to_record('{"a":1,"b":"foo","c":"bar"}') AS x(a int, b text, d text)`,
		`SELECT * FROM jsonb_to_record('{"a":1,"b":{"c":2}}') AS x(a int, b jsonb)`,
		`SELECT * FROM json_to_recordset('[{"a":1,"b":"foo","d":false},{"a":2,"b":"bar","c":true}]') AS x(a int, b text, c boolean) ORDER BY a`,
		`SELECT * FROM jsonb_to_recordset('[{"a":1},{"a":2}]') AS x(a int, ia _int4) ORDER BY a`,
		`SELECT * FROM json_to_record('{"ia": [1, "2", null, 4]}') AS x(ia _int4)`,
		`SELECT * FROM json_to_record('{"ia": 123}') AS x(ia _int4)`,
		`SELECT json_populate_record(null::record, '{"x": 0, "y": 1}')`,
		`SELECT * FROM json_populate_record(null::record, '{"x": 776}') AS (x int, y int)`,
		`SELECT * FROM jsonb_populate_recordset(null::record, '[{"x": 776}, {"y": 1}]') AS q(x int, y int) ORDER BY x`,
		`DROP TABLE jrec_t`,
		`DROP TYPE jpop2`,
		`DROP TYPE jpop`,
		`SELECT null::jpop`,
	})
	// Composite values in a select list: PostgreSQL reports the composite
	// type's own OID (or record's), vsqld text; the values are compared.
	agreeOnValues(t, pg, vs, []string{
		`CREATE TYPE jpop AS (a text, b int, c timestamp)`,
		`SELECT row('x', 3, '2012-12-31 15:30:56')::jpop, row('x y', null, null)::jpop, row('', 1, null)::jpop, row('a"b\c', 1, null)::jpop`,
		`SELECT json_populate_record(null::jpop, '{"a":"x y","b":2}')`,
		`SELECT json_populate_recordset(row('def',99,null)::jpop, '[{"a":"blurfl","x":43.2},{"b":3,"c":"2012-01-20 10:42:53"}]')`,
		`SELECT json_populate_record(row(1,2), '{"f1": 0, "f2": 1}')`,
		`SELECT i, json_populate_recordset(row(i,50), '[{"f1":"42"},{"f2":"43"}]') FROM (VALUES (1),(2)) v(i) ORDER BY 1, 2`,
		`SELECT jsonb_populate_recordset(row(1,2), '[]')`,
		`SELECT row(1, 2), ROW('a b', null) AS r`,
		`SELECT (row(1, 2.5)).f1, (row(1, 2.5)).*`,
		`SELECT (r).f2, (r).* FROM (SELECT row(1, 'x'::text) AS r) ss`,
		`SELECT (row('x', 3, '2012-12-31 15:30:56')::jpop).*`,
		`CREATE TYPE jpop2 AS (r jpop, s text)`,
		`SELECT * FROM json_populate_record(null::jpop2, '{"r":{"a":"abc","c":"2003-01-02"},"s":"t"}') q`,
		`DROP TYPE jpop2`,
		`DROP TYPE jpop`,
	})
}

// agreeOnValues is agreeWithPostgres without the column types: command
// tags, rows and error classes.
func agreeOnValues(t *testing.T, pg, vs *pgconn.PgConn, steps []string) {
	t.Helper()
	for _, q := range steps {
		want, got := ask(t, pg, q, nil), ask(t, vs, q, nil)
		want.OIDs, got.OIDs = nil, nil
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", q, want, got)
		}
	}
}
