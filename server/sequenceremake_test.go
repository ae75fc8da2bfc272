package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestSequenceRemake runs ALTER SEQUENCE, setval back and TRUNCATE …
// RESTART IDENTITY on PostgreSQL 15 and on vsqld: the same tags, rows and
// SQLSTATEs. DuckDB refused each before (server/sequenceremake.go).
func TestSequenceRemake(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE SEQUENCE srm_bad INCREMENT BY 0",              // 22023
		"CREATE SEQUENCE srm_bad INCREMENT BY -1 MINVALUE 20", // 22023
		"CREATE SEQUENCE srm_bad START 10 INCREMENT BY -1",    // 22023
		"CREATE SEQUENCE srm START 5",
		"SELECT nextval('srm'), nextval('srm')",
		"ALTER SEQUENCE srm RESTART",
		"SELECT nextval('srm')",
		"ALTER SEQUENCE srm RESTART WITH 24 INCREMENT BY 4 MAXVALUE 36 MINVALUE 5 CYCLE",
		"SELECT nextval('srm'), nextval('srm'), nextval('srm'), nextval('srm'), nextval('srm')",
		"ALTER SEQUENCE srm RESTART WITH 24 NO CYCLE",
		"SELECT nextval('srm'), nextval('srm'), nextval('srm'), nextval('srm')",
		"SELECT nextval('srm')",              // 2200H: reached MAXVALUE
		"ALTER SEQUENCE srm RESTART WITH 0",  // 22023
		"ALTER SEQUENCE srm RESTART WITH 40", // 22023
		"ALTER SEQUENCE srm INCREMENT BY 0",  // 22023
		"ALTER SEQUENCE srm MINVALUE 50",     // 22023: MINVALUE ≥ MAXVALUE
		"ALTER SEQUENCE srm_none RESTART",    // 42P01
		"ALTER SEQUENCE IF EXISTS srm_none RESTART",
		"ALTER SEQUENCE srm INCREMENT BY -4 MINVALUE -36 MAXVALUE -5 START WITH -24 RESTART",
		"SELECT nextval('srm'), nextval('srm'), nextval('srm')",
		"ALTER SEQUENCE srm CACHE 10", // no effect
		"SELECT nextval('srm')",
		// AS type: the type's bounds
		"CREATE SEQUENCE srm_small AS integer",
		"ALTER SEQUENCE srm_small AS smallint",
		"SELECT nextval('srm_small')",
		"ALTER SEQUENCE srm_small MAXVALUE 100000", // 22023: out of smallint's range
		"ALTER SEQUENCE srm_small AS bigint",
		"ALTER SEQUENCE srm_small MAXVALUE 100000",
		"SELECT nextval('srm_small')",      // keeps its position
		"ALTER SEQUENCE srm_small AS text", // 22023
		// a serial column's sequence: setval back, RESTART IDENTITY
		"CREATE TABLE srm_t (id serial PRIMARY KEY, v text)",
		"CREATE INDEX srm_t_v ON srm_t (v)",
		"INSERT INTO srm_t (v) VALUES ('a'), ('b'), ('c')",
		"SELECT setval('srm_t_id_seq', 1)",
		"INSERT INTO srm_t (v) VALUES ('d') RETURNING id", // 23505: 2 is taken
		"DELETE FROM srm_t WHERE id > 1",
		"SELECT setval('srm_t_id_seq', 1, false)",
		"INSERT INTO srm_t (id, v) VALUES (2, 'x')",
		"INSERT INTO srm_t (v) VALUES ('e') RETURNING id", // 23505: 1 is taken
		"TRUNCATE srm_t RESTART IDENTITY",
		"INSERT INTO srm_t (v) VALUES ('e') RETURNING id",
		"ALTER SEQUENCE srm_t_id_seq INCREMENT BY 10",
		"INSERT INTO srm_t (v) VALUES ('f') RETURNING id",
		"SELECT * FROM srm_t ORDER BY id",
		"SELECT column_default FROM information_schema.columns WHERE table_name = 'srm_t' AND column_name = 'id'",
		// in a transaction block: rolled back with it
		"BEGIN",
		"ALTER SEQUENCE srm_t_id_seq RESTART WITH 500",
		"INSERT INTO srm_t (v) VALUES ('g') RETURNING id",
		"ROLLBACK",
		"INSERT INTO srm_t (v) VALUES ('h') RETURNING id",
	})
}
