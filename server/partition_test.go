package server_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestPartitionedTables runs the same partitioned-table statements on
// PostgreSQL 15 and on vsqld: tuple routing (multi-level, DEFAULT,
// MINVALUE/MAXVALUE), writes through a partition, row movement by UPDATE,
// the DDL's checks (overlap, empty range, a second default, the rows of
// the default), ATTACH, DETACH and DROP. Errors must have PostgreSQL's
// SQLSTATE, not only its class.
func TestPartitionedTables(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	steps := []string{
		"CREATE TABLE pt_list (a text, b int) PARTITION BY LIST (lower(a))",
		"INSERT INTO pt_list VALUES ('x', 1)", // no partition yet
		"CREATE TABLE pt_ab PARTITION OF pt_list FOR VALUES IN ('a', 'b')",
		"CREATE TABLE pt_null PARTITION OF pt_list FOR VALUES IN (NULL)",
		"CREATE TABLE pt_bc PARTITION OF pt_list FOR VALUES IN ('c', 'b')", // overlaps pt_ab
		"CREATE TABLE pt_x PARTITION OF pt_list FOR VALUES FROM ('x') TO ('y')",
		"CREATE TABLE pt_ef PARTITION OF pt_list FOR VALUES IN ('e', 'f') PARTITION BY RANGE (b)",
		"CREATE TABLE pt_ef1 PARTITION OF pt_ef FOR VALUES FROM (MINVALUE) TO (10)",
		"CREATE TABLE pt_ef2 PARTITION OF pt_ef FOR VALUES FROM (10) TO (20)",
		"CREATE TABLE pt_ef3 PARTITION OF pt_ef FOR VALUES FROM (15) TO (30)", // overlaps pt_ef2
		"CREATE TABLE pt_ef4 PARTITION OF pt_ef FOR VALUES FROM (40) TO (40)", // empty
		"INSERT INTO pt_list VALUES ('A', 1), ('b', 2), (NULL, 3), ('E', 5), ('f', 15)",
		"INSERT INTO pt_list VALUES ('e', 25)", // no partition of pt_ef
		"INSERT INTO pt_list VALUES ('zz', 1)",
		"SELECT * FROM pt_ab ORDER BY b",
		"SELECT * FROM pt_ef ORDER BY b, a",
		"SELECT * FROM pt_ef2",
		"SELECT * FROM pt_null",
		"INSERT INTO pt_ab VALUES ('e', 1)", // not pt_ab's
		"INSERT INTO pt_ab (b, a) VALUES (7, 'a') RETURNING a, b",
		"INSERT INTO pt_ef1 SELECT 'e', g FROM generate_series(-3, 3) g",
		"SELECT count(*), sum(b) FROM pt_ef1",
		"UPDATE pt_list SET b = b + 10 WHERE lower(a) = 'e' AND b = 5", // moves pt_ef1 → pt_ef2
		"SELECT * FROM pt_ef2 ORDER BY b, a",
		"UPDATE pt_ef1 SET b = 12 WHERE b = 3",   // out of pt_ef1
		"UPDATE pt_list SET a = 'q' WHERE b = 2", // no partition for q
		"UPDATE pt_ab SET b = b * 100 RETURNING b",
		"DELETE FROM pt_ef1 WHERE b < 0",
		"TRUNCATE ONLY pt_ef",
		"TRUNCATE pt_ef2",
		"SELECT count(*) FROM pt_ef",
		"SELECT count(*) FROM pt_list",
		"SELECT tableoid::regclass, * FROM pt_list ORDER BY b, a",
		"SELECT t.tableoid::regclass::text, b FROM pt_ef t WHERE b > 5 ORDER BY b",
		"INSERT INTO pt_list VALUES ('a')", // a row of fewer values than columns
		"SELECT * FROM pt_ab WHERE b IS NULL",
		"COMMENT ON TABLE pt_list IS 'partitioned by a'",
		"SELECT obj_description('pt_list'::regclass)",
		"SELECT relname, relkind FROM pg_class WHERE relname IN ('pt_list', 'pt_ef', 'pt_ab') ORDER BY relname",
		"CREATE TABLE pt_def PARTITION OF pt_list DEFAULT",
		"CREATE TABLE pt_def2 PARTITION OF pt_list DEFAULT",
		"INSERT INTO pt_list VALUES ('zz', 1), ('g', 2)",
		"SELECT * FROM pt_def ORDER BY a",
		"CREATE TABLE pt_g PARTITION OF pt_list FOR VALUES IN ('g')", // the default holds a g row
		"DELETE FROM pt_def WHERE a = 'g'",
		"CREATE TABLE pt_g PARTITION OF pt_list FOR VALUES IN ('g')",
		"INSERT INTO pt_list VALUES ('g', 9)",
		"SELECT * FROM pt_g",
		"SELECT * FROM pt_def",
		// ATTACH and DETACH
		"CREATE TABLE pt_h (a text, b int)",
		"INSERT INTO pt_h VALUES ('h', 1), ('h', 2)",
		"ALTER TABLE pt_list ATTACH PARTITION pt_h FOR VALUES IN ('h', 'a')",
		"CREATE TABLE pt_bad (a text, c int)",
		"ALTER TABLE pt_list ATTACH PARTITION pt_bad FOR VALUES IN ('k')",
		"ALTER TABLE pt_list ATTACH PARTITION pt_h FOR VALUES IN ('i')", // its rows are h
		"ALTER TABLE pt_list ATTACH PARTITION pt_h FOR VALUES IN ('h')",
		"SELECT * FROM pt_list WHERE a = 'h' ORDER BY b",
		// a partitioned table attached brings its partitions
		"CREATE TABLE pt_j (a text, b int) PARTITION BY RANGE (b)",
		"CREATE TABLE pt_j1 PARTITION OF pt_j FOR VALUES FROM (0) TO (5)",
		"INSERT INTO pt_j VALUES ('j', 1), ('j', 2)",
		"ALTER TABLE pt_list ATTACH PARTITION pt_j FOR VALUES IN ('j')",
		"SELECT * FROM pt_j1 ORDER BY b",
		"INSERT INTO pt_list VALUES ('j', 3)",
		"INSERT INTO pt_list VALUES ('j', 7)",
		"SELECT count(*) FROM pt_j",
		"INSERT INTO pt_h VALUES ('h', 3)",
		"ALTER TABLE pt_list DETACH PARTITION pt_ef",
		"SELECT count(*) FROM pt_list",
		"SELECT * FROM pt_ef ORDER BY b, a",
		"INSERT INTO pt_ef VALUES ('e', 100)",
		"INSERT INTO pt_ef VALUES ('e', 11)",
		"SELECT * FROM pt_ef2 ORDER BY b, a",
		// DROP of a partition takes its rows; of the parent, the tree
		"DROP TABLE pt_h",
		"SELECT count(*) FROM pt_list WHERE a = 'h'",
		"DROP TABLE pt_list",
		"SELECT count(*) FROM pt_ab",
		"DROP TABLE pt_ef",
		// a range over two columns with a key expression; ON CONFLICT
		"CREATE TABLE pt_r (a int, b int, c text, PRIMARY KEY (a, b)) PARTITION BY RANGE (a, b)",
		"CREATE TABLE pt_r1 PARTITION OF pt_r FOR VALUES FROM (1, MINVALUE) TO (1, 10)",
		"CREATE TABLE pt_r2 PARTITION OF pt_r FOR VALUES FROM (1, 10) TO (2, MAXVALUE)",
		"CREATE TABLE pt_r3 PARTITION OF pt_r FOR VALUES IN (3)",
		"CREATE TABLE pt_r4 PARTITION OF pt_r FOR VALUES FROM (MINVALUE, 0) TO (0, 1)",
		"INSERT INTO pt_r VALUES (1, -5, 'x'), (1, 10, 'y'), (2, 1000, 'z')",
		"INSERT INTO pt_r VALUES (1, NULL, 'n')",
		"INSERT INTO pt_r VALUES (3, 1, 'w')",
		"INSERT INTO pt_r VALUES (1, 10, 'again') ON CONFLICT (a, b) DO UPDATE SET c = excluded.c",
		"SELECT * FROM pt_r2 ORDER BY b",
		"SELECT * FROM pt_r1",
		"INSERT INTO pt_r2 VALUES (1, 5, 'no')",
		"CREATE TABLE pt_plain (a int)",
		"CREATE TABLE pt_p1 PARTITION OF pt_plain FOR VALUES IN (1)",
		"CREATE TABLE pt_p1 PARTITION OF pt_nosuch FOR VALUES IN (1)",
		"CREATE TABLE pt_m (a int) PARTITION BY MAGIC (a)",
		"CREATE TABLE pt_k (a int) PARTITION BY LIST (a, a)",
		"CREATE TABLE pt_k (a int) PARTITION BY LIST (a)",
		"CREATE TABLE pt_k1 PARTITION OF pt_k FOR VALUES IN (somename)",
		"CREATE TABLE pt_k1 PARTITION OF pt_k FOR VALUES IN ((SELECT 1))",
		"CREATE TABLE pt_k1 PARTITION OF pt_k FOR VALUES IN ('1', 2, (2+1))",
		"INSERT INTO pt_k VALUES (3) RETURNING a",
		"DROP TABLE pt_r, pt_plain, pt_k",
	}
	compareSteps(t, pg, vs, steps)
}

// compareSteps runs each statement on PostgreSQL and on vsqld, in order,
// and reports those whose answers (askCode) differ.
func compareSteps(t *testing.T, pg, vs *pgconn.PgConn, steps []string) {
	t.Helper()
	agree := 0
	for _, sql := range steps {
		want, got := askCode(t, pg, sql), askCode(t, vs, sql)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", sql, want, got)
			continue
		}
		agree++
	}
	t.Logf("%d of %d statements answered as PostgreSQL 15 does", agree, len(steps))
}

// execText runs sql (one or more statements, the simple query protocol)
// within 20 s.
func execText(c *pgconn.PgConn, sql string) ([]*pgconn.Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return c.Exec(ctx, sql).ReadAll()
}

// askCode is a statement's answer: its tag and rows as text, or its
// error's whole SQLSTATE.
func askCode(t *testing.T, c *pgconn.PgConn, sql string) answer {
	t.Helper()
	res, err := execText(c, sql)
	if err != nil {
		var pe *pgconn.PgError
		if asPgError(err, &pe) {
			return answer{Class: pe.Code}
		}
		t.Fatalf("%s: %v", sql, err)
	}
	return answer{Tag: res[len(res)-1].CommandTag.String(), Rows: textRows(res[len(res)-1].Rows)}
}

// textRows are a result's rows as text, NULL as "NULL".
func textRows(rows [][][]byte) [][]string {
	var out [][]string
	for _, row := range rows {
		var cells []string
		for _, v := range row {
			if v == nil {
				cells = append(cells, "NULL")
			} else {
				cells = append(cells, string(v))
			}
		}
		out = append(out, cells)
	}
	return out
}

// TestPartitionedTablesParameters: a prepared INSERT into a partitioned
// table types its parameters as the columns (pgx encodes an int for an
// int4 parameter), as PostgreSQL does, though vsql rewrites the VALUES.
func TestPartitionedTablesParameters(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		for _, q := range []string{"CREATE TABLE pt_pp (a int, b text, c timestamptz) PARTITION BY LIST (a)", "CREATE TABLE pt_pp1 PARTITION OF pt_pp FOR VALUES IN (1)"} {
			if _, err := c.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %s: %v", name, q, err)
			}
		}
		if _, err := c.Exec(ctx, "INSERT INTO pt_pp VALUES ($1, $2, $3)", 1, "x", time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var pe *pgconn.PgError
		if _, err := c.Exec(ctx, "INSERT INTO pt_pp (a, b) VALUES ($1, $2)", 2, "y"); !asPgError(err, &pe) || pe.Code != "23514" {
			t.Errorf("%s: a row without a partition: %v", name, err)
		}
		if _, err := c.Exec(ctx, "UPDATE pt_pp SET b = $1 WHERE a = $2", "z", 1); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var b string
		var at time.Time
		if err := c.QueryRow(ctx, "SELECT b, c FROM pt_pp1").Scan(&b, &at); err != nil || b != "z" || !at.Equal(time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)) {
			t.Errorf("%s: %v %q %v", name, err, b, at)
		}
	}
}
