package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestViewOptions: CREATE VIEW … WITH (security_barrier, security_invoker,
// check_option) is accepted, and bad options refused, as PostgreSQL does.
func TestViewOptions(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP TABLE IF EXISTS vo_t CASCADE"},
		"CREATE TABLE vo_t (a int)",
		"INSERT INTO vo_t VALUES (1), (-1)")
	compareSteps(t, pg, vs, []string{
		"CREATE VIEW vo1 WITH (security_barrier=true) AS SELECT * FROM vo_t WHERE a > 0",
		"SELECT * FROM vo1",
		"CREATE VIEW vo2 WITH (security_barrier) AS SELECT * FROM vo_t",
		"CREATE OR REPLACE VIEW vo3 WITH (security_invoker = off, security_barrier = 'yes') AS SELECT a FROM vo_t",
		"CREATE TEMP VIEW vo4 (x) WITH (security_invoker = on) AS SELECT a FROM vo_t",
		"SELECT * FROM vo4 ORDER BY x",
		"CREATE VIEW vo5 WITH (check_option = 'cascaded') AS SELECT * FROM vo_t",
		"CREATE VIEW vo6 WITH (security_barrier=100) AS SELECT * FROM vo_t",
		"CREATE VIEW vo6 WITH (invalid_option) AS SELECT * FROM vo_t",
		"CREATE VIEW vo6 WITH (check_option = bogus) AS SELECT * FROM vo_t",
		"SELECT count(*) FROM information_schema.views WHERE table_name LIKE 'vo_'",
	})
}
