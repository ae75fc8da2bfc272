package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestViewDefinitions: a view's and a CREATE TABLE … AS table's columns
// are named as PostgreSQL names them (a cast of a column keeps the
// column's name, so a later query can select it), a view that reads a
// temporary table is temporary, and CREATE OR REPLACE VIEW may add
// columns but not drop, rename or retype them.
func TestViewDefinitions(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP TABLE IF EXISTS vd_t CASCADE", "DROP TABLE IF EXISTS vd_ctas", "DROP TABLE IF EXISTS vd_ctas2", "DROP VIEW IF EXISTS vd_cast", "DROP VIEW IF EXISTS vd_list", "DROP VIEW IF EXISTS vd_r"},
		"CREATE TABLE vd_t (a int, b int, c numeric(10,1), d text)",
		"INSERT INTO vd_t VALUES (1, 2, 3.5, 'x')")
	compareSteps(t, pg, vs, []string{
		// PostgreSQL's names for the columns of views and new tables
		"CREATE VIEW vd_cast AS SELECT a::bigint, t.b::text, 1 AS one, a + 1 AS a1, count(*) OVER () FROM vd_t t",
		"SELECT a, b, one, a1, count FROM vd_cast",
		"SELECT column_name FROM information_schema.columns WHERE table_name = 'vd_cast' ORDER BY ordinal_position",
		"CREATE VIEW vd_list (x) AS SELECT a::int, b::int FROM vd_t",
		"SELECT x, b FROM vd_list",
		"CREATE VIEW vd_dup AS SELECT 1, 2",
		"CREATE TABLE vd_ctas AS SELECT a::bigint, sum(b), c FROM vd_t GROUP BY 1, 3",
		"SELECT a, sum, c FROM vd_ctas",
		"CREATE TABLE vd_ctas2 (x) AS SELECT c::int, d FROM vd_t",
		"SELECT x, d FROM vd_ctas2",
		"CREATE TABLE vd_dup AS SELECT 1, 2",
		// a replacement keeps the columns
		"CREATE VIEW vd_r AS SELECT a, b, c, d FROM vd_t",
		"CREATE OR REPLACE VIEW vd_r AS SELECT a FROM vd_t",
		"CREATE OR REPLACE VIEW vd_r AS SELECT 1, * FROM vd_t",
		"CREATE OR REPLACE VIEW vd_r AS SELECT a, b::numeric, c, d FROM vd_t",
		"CREATE OR REPLACE VIEW vd_r AS SELECT a, b, c::numeric(10,2), d FROM vd_t",
		"CREATE OR REPLACE VIEW vd_r (a, b, c, x) AS SELECT a, b, c, d FROM vd_t",
		"CREATE OR REPLACE VIEW vd_r AS SELECT a, b, c, d, a + b AS e FROM vd_t",
		"SELECT * FROM vd_r",
		// a view of a temporary table is temporary
		"CREATE TEMP TABLE vd_tmp (z int)",
		"CREATE VIEW vd_tv AS SELECT z FROM vd_tmp",
		"SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'vd_tv' AND n.nspname LIKE 'pg_temp%'",
		"CREATE VIEW public.vd_tv2 AS SELECT z FROM vd_tmp",
		"CREATE VIEW vd_tv3 AS SELECT a FROM vd_t JOIN vd_tmp ON z = a",
		"CREATE VIEW vd_tv4 AS SELECT z::bigint, count(*) FROM vd_tmp GROUP BY 1",
		"SELECT z, count FROM vd_tv4",
		"SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relname = 'vd_tv3' AND n.nspname LIKE 'pg_temp%'",
	})
}
