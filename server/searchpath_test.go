package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestSearchPath: SET search_path decides where unqualified names are
// found and where new objects go, as in PostgreSQL: schemas of the path
// that do not exist are skipped until they are created, SHOW prints the
// names as PostgreSQL does, ROLLBACK and RESET restore the path, and
// current_schema(), current_schemas() and regclass casts follow it.
func TestSearchPath(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP SCHEMA IF EXISTS sp_a CASCADE", "DROP SCHEMA IF EXISTS sp_later CASCADE", "DROP TABLE IF EXISTS public.sp_pub"},
		"CREATE SCHEMA sp_a",
		"CREATE TABLE sp_a.sp_t (x int)",
		"INSERT INTO sp_a.sp_t VALUES (1)",
		"CREATE TABLE public.sp_pub (p int)",
		"INSERT INTO public.sp_pub VALUES (7)")
	compareSteps(t, pg, vs, []string{
		"SHOW search_path",
		"SELECT current_schema(), current_schemas(false), current_schemas(true)",
		"SELECT * FROM sp_t",
		"SET search_path TO sp_a, public",
		"SHOW search_path",
		"SELECT * FROM sp_t",
		"SELECT * FROM sp_pub",
		"CREATE TABLE sp_new (y int)",
		"SELECT table_schema FROM information_schema.tables WHERE table_name = 'sp_new'",
		"SELECT current_schema(), current_schemas(false), current_schemas(true)",
		"SELECT to_regclass('sp_new') IS NOT NULL, to_regclass('sp_a.sp_new') = to_regclass('sp_new'), to_regclass('public.sp_new') IS NULL",
		"SELECT pg_table_is_visible('sp_a.sp_t'::regclass)",
		"CREATE VIEW sp_v AS SELECT x + 1 AS x1 FROM sp_t",
		"SELECT * FROM sp_a.sp_v",
		// a schema of the path that does not exist yet
		"SET search_path = 'sp_later', sp_a",
		"SHOW search_path",
		"SELECT current_schema(), current_schemas(false)",
		"SELECT * FROM sp_t",
		"CREATE SCHEMA sp_later",
		"SELECT current_schema(), current_schemas(false)",
		"CREATE TABLE sp_t (z text)",
		"SELECT table_schema FROM information_schema.tables WHERE table_name = 'sp_t' ORDER BY 1",
		"SELECT * FROM sp_t",
		// public left out: new objects do not go there (DuckDB still
		// finds its tables last, a documented difference)
		"SET search_path TO sp_a",
		"SELECT * FROM public.sp_pub",
		"CREATE TABLE sp_pub (q int)",
		"SELECT table_schema FROM information_schema.tables WHERE table_name = 'sp_pub' ORDER BY 1",
		"SELECT * FROM sp_pub",
		// quoting and case as PostgreSQL reads the names
		`SET search_path TO "SP_Quoted", Sp_A, "$user"`,
		"SHOW search_path",
		"SELECT current_schemas(false)",
		// ROLLBACK restores, SET LOCAL lasts for the transaction
		"BEGIN",
		"SET search_path TO public",
		"SELECT * FROM sp_pub",
		"ROLLBACK",
		"SHOW search_path",
		"BEGIN",
		"SET LOCAL search_path TO public",
		"SHOW search_path",
		"COMMIT",
		"SHOW search_path",
		"SET SCHEMA 'sp_a'",
		"SHOW search_path",
		"SELECT * FROM sp_v",
		"RESET search_path",
		"SHOW search_path",
		"SELECT current_schema(), current_schemas(true)",
		"SELECT * FROM sp_pub",
		"SELECT * FROM sp_t",
	})
}
