package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestSequenceOptionsAsPostgres: CREATE SEQUENCE's and ALTER SEQUENCE's
// checks (CACHE, AS type and its range, OWNED BY), ALTER … AS that
// widens both bounds, SET LOGGED, identity options kept through TRUNCATE
// … RESTART IDENTITY, pg_get_serial_sequence of a mixed-case table, and
// the DROP forms of drop_if_exists.sql (DATABASE … (FORCE), TRIGGER on a
// missing schema, MATERIALIZED VIEW and FOREIGN TABLE) — as PostgreSQL
// answers them.
func TestSequenceOptionsAsPostgres(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP SEQUENCE IF EXISTS so_x", "DROP SEQUENCE IF EXISTS so_13", "DROP SEQUENCE IF EXISTS so_l",
		"DROP TABLE IF EXISTS so_owner", "DROP TABLE IF EXISTS so_b", "DROP TABLE IF EXISTS \"soMixed\"", "DROP TABLE IF EXISTS so_s",
		"DROP SEQUENCE IF EXISTS so_r", "DROP SEQUENCE IF EXISTS so_r2", "DROP SEQUENCE IF EXISTS so_r3", "DROP SEQUENCE IF EXISTS so_s_foo"})
	compareSteps(t, pg, vs, []string{
		"CREATE SEQUENCE so_x CACHE 0",
		"CREATE SEQUENCE so_x AS text",
		"CREATE SEQUENCE so_x AS smallint MAXVALUE 100000",
		"CREATE SEQUENCE so_x AS smallint MINVALUE -100000",
		"CREATE SEQUENCE so_x OWNED BY nobody",
		"CREATE SEQUENCE so_x OWNED BY pg_class.relname",
		"CREATE TABLE so_owner (a int)",
		"CREATE SEQUENCE so_x OWNED BY so_owner.b",
		"SELECT count(*) FROM pg_class WHERE relname = 'so_x'",
		"CREATE SEQUENCE so_x OWNED BY so_owner.a",
		"ALTER SEQUENCE so_x CACHE 0",
		"CREATE SEQUENCE so_13 AS smallint MINVALUE -32768",
		"ALTER SEQUENCE so_13 AS int",
		"SELECT start_value, min_value, max_value FROM pg_sequences WHERE sequencename = 'so_13'",
		"CREATE SEQUENCE so_l",
		"ALTER SEQUENCE so_l SET LOGGED",
		"ALTER SEQUENCE so_l SET UNLOGGED",
		"SELECT nextval('so_l')",
		"CREATE TEMPORARY SEQUENCE so_tmp",
		"START TRANSACTION READ ONLY",
		"SELECT nextval('so_tmp')",
		"SELECT nextval('so_l')",
		"ROLLBACK",
		"START TRANSACTION READ ONLY",
		"SELECT setval('so_tmp', 5)",
		"SELECT setval('so_l', 5)",
		"ROLLBACK",
		"SELECT currval('so_tmp')",
		"CREATE TABLE so_b (id int GENERATED ALWAYS AS IDENTITY (START WITH 44), v int)",
		"INSERT INTO so_b (v) VALUES (1), (2)",
		"TRUNCATE so_b",
		"INSERT INTO so_b (v) VALUES (3)",
		"TRUNCATE so_b RESTART IDENTITY",
		"INSERT INTO so_b (v) VALUES (4)",
		"SELECT id, v FROM so_b",
		"CREATE TABLE soMixed (f1 text, f2 serial)",
		"SELECT pg_get_serial_sequence('soMixed', 'f2')",
		"DROP DATABASE so_nodb (force)",
		"DROP DATABASE so_nodb WITH (FORCE)",
		"DROP DATABASE IF EXISTS so_nodb (force)",
		"DROP DATABASE IF EXISTS so_nodb WITH (force)",
		"DROP TRIGGER so_tr ON no_such_schema.no_such_table",
		"DROP TRIGGER IF EXISTS so_tr ON no_such_schema.no_such_table",
		"DROP RULE so_r ON no_such_schema.no_such_table",
		"DROP RULE so_r ON so_nosuch",
		"DROP MATERIALIZED VIEW IF EXISTS no_such_schema.foo",
		"DROP FOREIGN TABLE IF EXISTS no_such_schema.foo",
		"DROP MATERIALIZED VIEW so_nomv",
		// renaming a sequence (ALTER TABLE renames one too)
		"CREATE SEQUENCE so_r",
		"SELECT nextval('so_r')",
		"ALTER TABLE so_r RENAME TO so_r2",
		"SELECT nextval('so_r2')",
		"SELECT currval('so_r2')",
		"ALTER SEQUENCE so_r2 RENAME TO so_r3",
		"SELECT currval('so_r3'), lastval()",
		"SELECT nextval('so_r2')",
		"ALTER SEQUENCE so_nosuch RENAME TO so_x2",
		"ALTER SEQUENCE IF EXISTS so_nosuch RENAME TO so_x2",
		"CREATE TABLE so_s (v text, id serial)",
		"INSERT INTO so_s (v) VALUES ('a')",
		"ALTER TABLE so_s_id_seq RENAME TO so_s_foo",
		"INSERT INTO so_s (v) VALUES ('b')",
		"SELECT v, id FROM so_s ORDER BY id",
		"SELECT lastval(), currval('so_s_foo')",
		"SELECT column_default FROM information_schema.columns WHERE table_name = 'so_s' AND column_name = 'id'",
		"SELECT sequencename, last_value FROM pg_sequences WHERE sequencename LIKE 'so_s%'",
	})
}
