package server_test

import (
	"reflect"
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestSequencesAsPgDump: the sequence statements of a pg_dump of a table
// with a serial key, and the ORMs' sequence resets, answer on vsqld as on
// PostgreSQL 15 (values, column names and types, tags, error classes).
func TestSequencesAsPgDump(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	ask(t, pg, "DROP TABLE IF EXISTS pd_t", nil)
	ask(t, pg, "DROP SEQUENCE IF EXISTS pd_t_id_seq", nil)
	ask(t, pg, "DROP SEQUENCE IF EXISTS pd_down", nil)
	steps := []string{
		// pg_dump
		"CREATE SEQUENCE public.pd_t_id_seq AS integer START WITH 1 INCREMENT BY 1 NO MINVALUE NO MAXVALUE CACHE 1",
		"CREATE TABLE public.pd_t (id integer NOT NULL, name text)",
		"ALTER SEQUENCE public.pd_t_id_seq OWNED BY public.pd_t.id",
		"ALTER TABLE ONLY public.pd_t ALTER COLUMN id SET DEFAULT nextval('public.pd_t_id_seq'::regclass)",
		"INSERT INTO public.pd_t VALUES (1, 'a'), (2, 'b'), (41, 'c')",
		"SELECT pg_catalog.setval('public.pd_t_id_seq', 41, true)",
		"INSERT INTO pd_t (name) VALUES ('d') RETURNING id",
		// Django's sqlsequencereset
		`SELECT setval(pg_get_serial_sequence('"pd_t"','id'), coalesce(max("id"), 1), max("id") IS NOT null) FROM "pd_t"`,
		"SELECT nextval('pd_t_id_seq'::regclass), currval('public.pd_t_id_seq')",
		"SELECT setval('pd_t_id_seq', 100, false) AS s",
		"SELECT nextval('pd_t_id_seq')",
		"SELECT setval('pd_t_id_seq', NULL)",
		"SELECT setval('pd_t_id_seq', 3000000000)",
		"SELECT setval('pd_missing_seq', 5)",
		"ALTER SEQUENCE pd_missing_seq OWNED BY NONE",
		"SELECT pg_get_serial_sequence('pd_t', 'id'), pg_get_serial_sequence('public.pd_t', 'name')",
		"SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d WHERE d.adrelid = 'pd_t'::regclass",
		// AS smallint on a descending sequence: its bounds
		"CREATE SEQUENCE pd_down AS smallint INCREMENT BY -1",
		"SELECT nextval('pd_down'), nextval('pd_down')",
		"SELECT setval('pd_down', -32768)",
		"SELECT nextval('pd_down')",
	}
	for _, sql := range steps {
		want, got := askNamed(t, pg, sql, nil), askNamed(t, vs, sql, nil)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", sql, want, got)
		}
	}
	// parameters (an ORM binding the sequence and the value)
	for _, p := range [][]string{{"pd_t_id_seq", "150"}, {"public.pd_t_id_seq", "150"}} {
		sql := "SELECT setval($1, $2)"
		if want, got := askNamed(t, pg, sql, p), askNamed(t, vs, sql, p); !reflect.DeepEqual(want, got) {
			t.Errorf("%s %v\n  PostgreSQL: %v\n  vsqld:      %v", sql, p, want, got)
		}
	}
	if want, got := askNamed(t, pg, "SELECT nextval('pd_t_id_seq')", nil), askNamed(t, vs, "SELECT nextval('pd_t_id_seq')", nil); !reflect.DeepEqual(want, got) {
		t.Errorf("nextval after setval($1, $2)\n  PostgreSQL: %v\n  vsqld:      %v", want, got)
	}
	// A sequence moved back (made anew, sequenceremake.go) goes on from there.
	for _, sql := range []string{"SELECT setval('pd_t_id_seq', 5)", "SELECT nextval('pd_t_id_seq')", "SELECT setval('pd_t_id_seq', 3, false)", "SELECT nextval('pd_t_id_seq')"} {
		if want, got := askNamed(t, pg, sql, nil), askNamed(t, vs, sql, nil); !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", sql, want, got)
		}
	}
}
