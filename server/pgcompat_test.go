package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// answer is what a server said to one statement, in a form two servers'
// answers can be compared by.
type answer struct {
	Tag   string
	OIDs  []uint32
	Rows  [][]string
	Class string // SQLSTATE class of the error, "" for none
}

func (a answer) String() string {
	if a.Class != "" {
		return "ERROR class " + a.Class
	}
	return fmt.Sprintf("%s %v %v", a.Tag, a.OIDs, a.Rows)
}

// ask runs sql (simple protocol, or with text parameters of unknown type
// when params is not nil) and records the answer. jsonb values are
// compared as JSON: PostgreSQL prints jsonb normalized ({"a": 1}), DuckDB
// as written.
func ask(t *testing.T, c *pgconn.PgConn, sql string, params []string) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var res []*pgconn.Result
	var err error
	if params == nil {
		res, err = c.Exec(ctx, sql).ReadAll()
	} else {
		vals := make([][]byte, len(params))
		for i, p := range params {
			vals[i] = []byte(p)
		}
		r := c.ExecParams(ctx, sql, vals, make([]uint32, len(params)), nil, nil).Read()
		res, err = []*pgconn.Result{r}, r.Err
	}
	if err != nil {
		var pe *pgconn.PgError
		if ok := asPgError(err, &pe); ok {
			return answer{Class: pe.Code[:2]}
		}
		t.Fatalf("%s: %v", sql, err)
	}
	last := res[len(res)-1]
	a := answer{Tag: last.CommandTag.String()}
	for _, f := range last.FieldDescriptions {
		a.OIDs = append(a.OIDs, f.DataTypeOID)
	}
	for _, row := range last.Rows {
		var out []string
		for i, v := range row {
			s := string(v)
			if v == nil {
				s = "NULL"
			} else if last.FieldDescriptions[i].DataTypeOID == pgtype.JSONBOID {
				var x any
				if json.Unmarshal(v, &x) == nil {
					b, _ := json.Marshal(x)
					s = string(b)
				}
			}
			out = append(out, s)
		}
		a.Rows = append(a.Rows, out)
	}
	return a
}

func asPgError(err error, pe **pgconn.PgError) bool {
	e, ok := err.(*pgconn.PgError)
	if ok {
		*pe = e
	}
	return ok
}

// TestPostgresSemantics runs each statement on PostgreSQL 15 and on vsqld
// and compares values, column types, command tags and error classes.
func TestPostgresSemantics(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	steps := []struct {
		sql    string
		params []string
	}{
		// integer division and modulo, division by zero, overflow
		{sql: "SELECT 7/2, -7/2, 7 % 2, -7 % 2, 7 % -2, 9/3*2"},
		{sql: "SELECT x/2, x % 3, (x+1)/(x-5) FROM (VALUES (7), (8)) v(x) ORDER BY x"},
		{sql: "SELECT 7::float8/2, 7.5::float8 / 2"},
		{sql: "SELECT 1/0"},
		{sql: "SELECT 1 % 0"},
		{sql: "SELECT 1.5/0"},
		{sql: "SELECT 2.0::float8/0"},
		{sql: "SELECT x/y FROM (VALUES (1, 0)) v(x, y)"},
		{sql: "SELECT 2147483647::int + 1"},
		{sql: "SELECT (-2147483648)::int * -1"},
		{sql: "SELECT 9223372036854775807::bigint + 1"},
		{sql: "SELECT interval '3 days' / 2"},
		// names PostgreSQL allows and DuckDB reserves
		{sql: "CREATE TABLE px(id int PRIMARY KEY, at timestamptz, by text, show int)"},
		{sql: "INSERT INTO px VALUES (1, '2026-12-02 21:55:36.153+00', 'me', 2)"},
		{sql: "INSERT INTO px(id, at, by, show) VALUES (2, '2026-12-03 10:00:00+00', 'you', 3)"},
		{sql: "SELECT at, by, show FROM px WHERE at > '2026-12-01' ORDER BY at"},
		{sql: "SELECT px.at, count(*) FROM px GROUP BY px.at ORDER BY at DESC"},
		{sql: "SELECT at AT TIME ZONE 'UTC' FROM px ORDER BY id"},
		{sql: "UPDATE px SET at = at + interval '1 hour', show = show / 2 WHERE by = 'me'"},
		{sql: "SELECT id, at, show FROM px ORDER BY by"},
		// jsonb
		{sql: `SELECT '{"a":1,"b":[1,2]}'::jsonb -> 'b', '{"a":1}'::jsonb ->> 'a', '{"a":{"b":"c"}}'::jsonb -> 'a' ->> 'b'`},
		{sql: `SELECT '{"a":1,"b":2}'::jsonb @> '{"a":1}', '{"a":1}'::jsonb <@ '{"a":1,"b":2}'::jsonb, '{"a":1}'::jsonb @> '{"a":2}'`},
		{sql: `SELECT '[1,2,3]'::jsonb @> '[3,1]', '[1,2]'::jsonb @> '[4]'`},
		{sql: "CREATE TABLE jt(id int, doc jsonb)"},
		{sql: `INSERT INTO jt VALUES (1, '{"a":1,"tags":["x","y"]}'), (2, '{"a":2}')`},
		{sql: `SELECT id, doc FROM jt ORDER BY id`},
		{sql: `SELECT id FROM jt WHERE doc @> '{"a":1}' ORDER BY id`},
		{sql: `SELECT doc->>'a', doc->'tags' FROM jt WHERE doc->>'a' = $1`, params: []string{"2"}},
		{sql: `INSERT INTO jt VALUES ($1, $2)`, params: []string{"3", `{"k":"v"}`}},
		{sql: `SELECT doc->>'k' FROM jt WHERE id = 3`},
		// jsonb existence and paths (Django's has_key and key transforms,
		// SQLAlchemy's has_key and path index, asyncpg's '…'::jsonb)
		{sql: `SELECT '"x"'::jsonb, '["a",1]'::jsonb ? 'a', '["a",1]'::jsonb ? '1', '"x"'::jsonb ? 'x', '{"a":1}'::jsonb ? NULL, NULL::jsonb ? 'a'`},
		{sql: `SELECT '{"a":1}'::jsonb ?| array['b','a'], '{"a":1}'::jsonb ?| array['b'], '{"a":1}'::jsonb ?& array['a', NULL], '{"a":1,"b":2}'::jsonb ?& array['a','c']`},
		{sql: `SELECT id FROM jt WHERE doc ? 'tags' ORDER BY id`},
		{sql: `SELECT id FROM jt WHERE doc ? $1 ORDER BY id`, params: []string{"a"}},
		{sql: `SELECT doc -> 'tags' ? 'y', doc #> '{tags,1}', doc #>> '{tags,-1}', doc #> ARRAY['tags','0'], doc #>> array['a'] FROM jt WHERE id = 1`},
		{sql: `SELECT '{"a":{"b":[1,"x"]}}'::jsonb #> '{a,b,1}', '{"a":{"b":null}}'::jsonb #>> '{a,b}', '{"a":1}'::jsonb #> '{}', '{"a":1}'::jsonb #> '{b,c}', '[[1,2]]'::jsonb #> '{0,1}', '{"0":"k"}'::jsonb #>> '{0}'`},
		{sql: `SELECT id FROM jt WHERE doc #>> $1 = 'y' ORDER BY id`, params: []string{"{tags,1}"}},
		{sql: `SELECT '{"a":1}'::jsonb #> array['a', NULL], '{"a":[1,2]}'::jsonb #>> '{a,x}'`},
		{sql: `INSERT INTO jt VALUES (4, $1::jsonb)`, params: []string{`{"path":"a/b","tags":["c/d"],"s":"q\"u\\o\nte"}`}},
		{sql: `INSERT INTO jt VALUES (5, '{"url":"/x/y","list":[{"k":"v/w"}]}')`},
		{sql: `SELECT doc, doc->>'path', doc->'tags'->>0, doc #>> '{list,0,k}' FROM jt WHERE id >= 4 ORDER BY id`},
		// timestamptz with numeric offsets after a space (Sequelize)
		{sql: "SELECT '2026-12-02 21:55:36.153 +00:00'::timestamptz, timestamptz '2026-12-02 21:55:36.153 +05:30', CAST('2026-12-02 21:55:36 -08' AS timestamp with time zone)"},
		{sql: "CREATE TABLE sq(id int, created_at timestamptz)"},
		{sql: "INSERT INTO sq VALUES ($1, $2)", params: []string{"1", "2026-12-02 21:55:36.153 +00:00"}},
		{sql: "INSERT INTO sq VALUES ($1, $2)", params: []string{"2", "2026-12-02 21:55:36.153 +05:30"}},
		{sql: "INSERT INTO sq VALUES ($1, $2)", params: []string{"3", "2026-12-02 21:55:36 -08"}},
		{sql: "SELECT id, created_at FROM sq ORDER BY id"},
		{sql: "SELECT id FROM sq WHERE created_at < $1 ORDER BY id", params: []string{"2026-12-02 21:00:00 +00:00"}},
		// CREATE TABLE AS answers SELECT n
		{sql: "CREATE TABLE ct AS SELECT * FROM generate_series(1, 5) g"},
		{sql: "CREATE TABLE ct0 AS SELECT * FROM ct WHERE g > 10"},
		{sql: "SELECT count(*) FROM ct"},
	}
	for _, s := range []string{"px", "jt", "sq", "ct", "ct0"} {
		ask(t, pg, "DROP TABLE IF EXISTS "+s, nil)
	}
	agree := 0
	for _, s := range steps {
		want, got := ask(t, pg, s.sql, s.params), ask(t, vs, s.sql, s.params)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", s.sql, want, got)
			continue
		}
		agree++
	}
	t.Logf("%d of %d statements answered as PostgreSQL 15 does", agree, len(steps))
}

// TestErrorWithoutSync: a failing Parse followed by Describe and Flush (no
// Sync, as asyncpg's prepare() sends) gets its ErrorResponse, on
// PostgreSQL and on vsqld alike; the Sync that follows ends the skipping.
func TestErrorWithoutSync(t *testing.T) {
	pgCfg, err := pgx.ParseConfig(pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	vsAddr := startServer(t, nil)
	for _, target := range []struct{ name, addr, user string }{
		{"PostgreSQL", net.JoinHostPort(pgCfg.Host, fmt.Sprint(pgCfg.Port)), "postgres"},
		{"vsqld", vsAddr, "raw"},
	} {
		t.Run(target.name, func(t *testing.T) {
			c := dialRaw(t, target.addr)
			c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": target.user, "database": "postgres"}})
			c.flush()
			c.untilReady()
			c.send(
				&pgproto3.Parse{Name: "bad", Query: "SELEC nonsense FROM"},
				&pgproto3.Describe{ObjectType: 'S', Name: "bad"},
				&pgproto3.Flush{},
			)
			m := c.receive()
			e, ok := m.(*pgproto3.ErrorResponse)
			if !ok {
				t.Fatalf("first message after Parse/Describe/Flush: %T, want ErrorResponse", m)
			}
			if !strings.HasPrefix(e.Code, "42") {
				t.Errorf("SQLSTATE %s, want class 42", e.Code)
			}
			// Still skipping: a second Flush sends nothing, Sync ends it.
			c.send(&pgproto3.Describe{ObjectType: 'S', Name: "bad"}, &pgproto3.Flush{}, &pgproto3.Sync{})
			if _, ok := c.receive().(*pgproto3.ReadyForQuery); !ok {
				t.Fatal("Sync after the error: want ReadyForQuery")
			}
			msgs := c.simple("SELECT 1")
			if countType[*pgproto3.DataRow](msgs) != 1 {
				t.Errorf("the session after the error: %v", msgs)
			}
		})
	}
}
