package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestDropAndTruncateForeignKeys: DROP TABLE of several tables one of
// which references another drops them all, whatever their order in the
// statement; TRUNCATE of a partition is refused while a foreign key
// references its partitioned table, and with CASCADE empties the
// referencing table too — as PostgreSQL answers.
func TestDropAndTruncateForeignKeys(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP TABLE IF EXISTS tf_e, tf_d, tf_c, tf_b, tf_a, tf_ref, tf_refp, tf_p"})
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE tf_a (col1 integer PRIMARY KEY)",
		"CREATE TABLE tf_b (a int REFERENCES tf_a)",
		"CREATE TABLE tf_c (a serial PRIMARY KEY)",
		"CREATE TABLE tf_d (a int REFERENCES tf_c)",
		"CREATE TABLE tf_e (a int REFERENCES tf_a, b int REFERENCES tf_c)",
		"INSERT INTO tf_a VALUES (1)",
		"INSERT INTO tf_b VALUES (1)",
		"DROP TABLE tf_a",
		"DROP TABLE tf_a, tf_b",
		"DROP TABLE tf_a, tf_c, tf_b, tf_d, tf_e CASCADE",
		"SELECT count(*) FROM pg_class WHERE relname IN ('tf_a', 'tf_b', 'tf_c', 'tf_d', 'tf_e')",
		"CREATE TABLE tf_a (id serial, n int)",
		"INSERT INTO tf_a (n) VALUES (7)",
		"SELECT * FROM tf_a",
		"DROP TABLE tf_a",
		// a partition, referenced through its partitioned table
		"CREATE TABLE tf_p (a int PRIMARY KEY) PARTITION BY RANGE (a)",
		"CREATE TABLE tf_p1 PARTITION OF tf_p FOR VALUES FROM (0) TO (10)",
		"CREATE TABLE tf_p2 PARTITION OF tf_p FOR VALUES FROM (10) TO (20)",
		"INSERT INTO tf_p VALUES (0), (5), (10), (15)",
		"CREATE TABLE tf_ref (b int PRIMARY KEY, a int REFERENCES tf_p (a))",
		"INSERT INTO tf_ref VALUES (1, 0), (2, 15)",
		"TRUNCATE tf_p1",
		"TRUNCATE tf_p1 CASCADE",
		"SELECT a FROM tf_ref",
		"SELECT a FROM tf_p ORDER BY a",
		"INSERT INTO tf_ref VALUES (3, 10)",
		"TRUNCATE tf_p2, tf_ref",
		"SELECT a FROM tf_p ORDER BY a",
		"DROP TABLE tf_p, tf_ref",
		"SELECT count(*) FROM pg_class WHERE relname IN ('tf_p', 'tf_p1', 'tf_p2', 'tf_ref')",
	})
}
