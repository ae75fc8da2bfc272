package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestAlterTableConstraints runs what ORM migrations send to add a NOT
// NULL or unique column, add and drop a unique constraint, and rename or
// re-constrain an indexed column, on PostgreSQL 15 and on vsqld: the same
// tags, rows and SQLSTATEs. DuckDB refused all of these before
// (pgcompat.AlterTableConstraints, server/altertable.go).
func TestAlterTableConstraints(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE atc (id int PRIMARY KEY, name varchar(20))",
		"INSERT INTO atc VALUES (1, 'a'), (2, 'b')",
		// Django's AddField of a NOT NULL field with a default
		`ALTER TABLE "atc" ADD COLUMN "y" integer DEFAULT 0 NOT NULL`,
		`ALTER TABLE "atc" ALTER COLUMN "y" DROP DEFAULT`,
		"SELECT * FROM atc ORDER BY id",
		"INSERT INTO atc (id, name) VALUES (3, 'c')", // 23502
		"ALTER TABLE atc ADD COLUMN z int NOT NULL",  // 23502: rows have no value; nothing added
		"SELECT * FROM atc ORDER BY id",
		"ALTER TABLE atc ADD COLUMN w int UNIQUE",
		"INSERT INTO atc VALUES (4, 'd', 1, 5), (5, 'e', 1, 5)", // 23505
		"ALTER TABLE atc ADD COLUMN w2 int CONSTRAINT w2_unique UNIQUE NULL",
		"INSERT INTO atc (id, name, y, w2) VALUES (4, 'd', 1, 7), (5, 'e', 1, 7)", // 23505
		// Django's unique_together, Rails' add_index … unique as a constraint
		"ALTER TABLE atc ADD CONSTRAINT atc_name_uniq UNIQUE (name)",
		"INSERT INTO atc (id, name, y) VALUES (6, 'a', 1)", // 23505
		"ALTER TABLE atc DROP CONSTRAINT atc_name_uniq",
		"INSERT INTO atc (id, name, y) VALUES (6, 'a', 1)",
		"ALTER TABLE atc DROP CONSTRAINT atc_name_uniq",           // 42704
		"ALTER TABLE atc DROP CONSTRAINT IF EXISTS atc_name_uniq", // a NOTICE
		"ALTER TABLE atc ADD UNIQUE (name, y)",
		"INSERT INTO atc (id, name, y) VALUES (7, 'a', 1)",           // 23505 atc_name_y_key
		"ALTER TABLE atc ADD CONSTRAINT atc_name_uniq UNIQUE (name)", // 23505: 'a' twice
		// SET NOT NULL and renames on a table with indexes
		`ALTER TABLE atc ADD COLUMN "Mixed" text DEFAULT 'x' NOT NULL`,
		"CREATE INDEX atc_name_idx ON atc (name)",
		"ALTER TABLE atc RENAME COLUMN name TO title",
		"ALTER TABLE atc ALTER COLUMN title SET NOT NULL",
		"INSERT INTO atc (id, title, y) VALUES (7, 'a', 1)",  // 23505 atc_name_y_key, on title now
		"INSERT INTO atc (id, title, y) VALUES (7, NULL, 2)", // 23502
		"ALTER TABLE atc ALTER COLUMN title DROP NOT NULL",
		"INSERT INTO atc (id, title, y) VALUES (7, NULL, 2)",
		"ALTER TABLE atc RENAME TO atc_renamed",
		"INSERT INTO atc_renamed (id, title, y, w) VALUES (8, 'h', 1, 5), (9, 'i', 1, 5)", // 23505 atc_w_key
		`SELECT id, title, y, w, w2, "Mixed" FROM atc_renamed ORDER BY id`,
		// a primary key added to a table without one
		"CREATE TABLE atc_nokey (a int, b int)",
		"INSERT INTO atc_nokey VALUES (1, 1)",
		"ALTER TABLE atc_nokey ADD PRIMARY KEY (a)",
		"INSERT INTO atc_nokey VALUES (1, 2)",    // 23505
		"INSERT INTO atc_nokey VALUES (NULL, 3)", // 23502
		"ALTER TABLE atc_nokey ADD COLUMN c int DEFAULT 1 NOT NULL",
		"SELECT * FROM atc_nokey",
		// a table with only non-unique indexes: in a transaction block too
		"CREATE TABLE atc_idx (a int, b int)",
		"CREATE INDEX atc_idx_b ON atc_idx (b)",
		"BEGIN",
		"ALTER TABLE atc_idx ADD COLUMN c int DEFAULT 3 NOT NULL",
		"ALTER TABLE atc_idx RENAME COLUMN b TO bb",
		"ALTER TABLE atc_idx ALTER COLUMN bb SET NOT NULL",
		"INSERT INTO atc_idx (a, bb) VALUES (1, 2)",
		"COMMIT",
		"INSERT INTO atc_idx (a, bb) VALUES (2, NULL)", // 23502
		"SELECT * FROM atc_idx",
		"SELECT count(*) FROM pg_indexes WHERE indexname = 'atc_idx_b'",
	})
}

// TestAlterTableConstraintsRefused: what DuckDB cannot do is refused with
// 0A000 and a hint, and changes nothing; a REFERENCES clause is dropped
// with a warning, as ADD CONSTRAINT … FOREIGN KEY is.
func TestAlterTableConstraintsRefused(t *testing.T) {
	var warnings []string
	cfg := connectPgx(t, startServer(t, nil)).Config().Copy()
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { warnings = append(warnings, n.Severity+": "+n.Message) }
	conn, err := pgx.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	vs := conn.PgConn()
	mustExec := func(sql string) []*pgconn.Result {
		t.Helper()
		res, err := execText(vs, sql)
		if err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
		return res
	}
	refused := func(sql, want string) {
		t.Helper()
		_, err := execText(vs, sql)
		var pe *pgconn.PgError
		if !asPgError(err, &pe) || pe.Code != "0A000" || !strings.Contains(pe.Message, want) || pe.Hint == "" {
			t.Fatalf("%s: want 0A000 %q with a hint, got %v", sql, want, err)
		}
	}
	mustExec("CREATE TABLE atr (id int, v int)")
	mustExec("INSERT INTO atr VALUES (1, 1), (2, 2)")
	refused("ALTER TABLE atr ADD CONSTRAINT atr_v CHECK (v > 0)", "CHECK constraint cannot be added")
	refused("ALTER TABLE atr ADD COLUMN c int NOT NULL DEFAULT 1 CHECK (c > 0)", "CHECK constraint cannot be added")
	mustExec("CREATE UNIQUE INDEX atr_v_key ON atr (v)")
	mustExec("BEGIN")
	refused("ALTER TABLE atr RENAME COLUMN v TO w", `unique index "atr_v_key"`)
	mustExec("ROLLBACK")
	refused("ALTER TABLE atr DROP COLUMN v", "while it has indexes made by CREATE INDEX")
	refused("ALTER TABLE atr ALTER COLUMN v TYPE bigint", "while it has indexes made by CREATE INDEX")
	mustExec("ALTER TABLE atr ALTER COLUMN v TYPE int4") // the type it has (GORM's AutoMigrate): nothing to do
	res := mustExec("SELECT column_name FROM information_schema.columns WHERE table_name = 'atr' ORDER BY ordinal_position")
	if got := textRows(res[0].Rows); len(got) != 2 || got[0][0] != "id" || got[1][0] != "v" {
		t.Fatalf("columns after the refusals: %v", got)
	}
	warnings = nil
	res = mustExec("ALTER TABLE atr ADD COLUMN parent int REFERENCES atr (id) ON DELETE SET NULL NOT NULL DEFAULT 0")
	if res[0].CommandTag.String() != "ALTER TABLE" {
		t.Fatalf("ADD COLUMN … REFERENCES: %v", res[0].CommandTag)
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "WARNING") || !strings.Contains(warnings[0], "not enforced") {
		t.Fatalf("warnings: %v", warnings)
	}
	mustExec("INSERT INTO atr (id, v) VALUES (3, NULL)")
	_, err = execText(vs, "INSERT INTO atr (id, v, parent) VALUES (4, 4, NULL)")
	var pe *pgconn.PgError
	if !asPgError(err, &pe) || pe.Code != "23502" {
		t.Fatalf("parent is NOT NULL: %v", err)
	}
}

// TestInsertFewerValues: an INSERT without a column list that gives fewer
// values than the table has columns fills the others with their defaults,
// as PostgreSQL does (DuckDB refused it).
func TestInsertFewerValues(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE ifv (a int, b int DEFAULT 5, c text, d serial)",
		"INSERT INTO ifv VALUES (1)",
		"INSERT INTO ifv VALUES (2, DEFAULT), (3, 4)",
		"INSERT INTO ifv SELECT 6, 7, 'x'",
		"INSERT INTO ifv AS t VALUES (8) RETURNING *",
		"BEGIN",
		"INSERT INTO ifv VALUES (9)",
		"COMMIT",
		"INSERT INTO ifv VALUES (1, 2, 'y', 4, 5)", // too many: 42601
		"INSERT INTO ifv VALUES (1), (2, 3)",       // lists of other lengths: 42601
		"SELECT * FROM ifv ORDER BY a, b",
		"CREATE TEMP TABLE ifv (z int, y int DEFAULT 1)", // shadows it
		"INSERT INTO ifv VALUES (10)",
		"SELECT * FROM ifv",
		`CREATE TABLE "Ifv Quoted" ("A" int, "b c" text DEFAULT 'q')`,
		`INSERT INTO "Ifv Quoted" VALUES (1)`,
		`SELECT * FROM "Ifv Quoted"`,
	})
}

// TestCreateTableLike: CREATE TABLE t (LIKE s [INCLUDING …]), which DuckDB
// refused, copies s's columns as PostgreSQL 15 does: names, types and NOT
// NULL, the defaults with INCLUDING DEFAULTS, CHECKs with CONSTRAINTS,
// primary and unique keys with INDEXES.
func TestCreateTableLike(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE lk_src (id serial PRIMARY KEY, n numeric(10,2) NOT NULL DEFAULT 1.5, d varchar(20) CHECK (length(d) > 1), u int UNIQUE, t timestamptz, arr int[])",
		"CREATE TABLE lk1 (LIKE lk_src)",
		"INSERT INTO lk1 (id, n) VALUES (1, 2)",
		"INSERT INTO lk1 (id) VALUES (2)", // 23502: NOT NULL copied, the default not
		"INSERT INTO lk1 (id, n, d) VALUES (3, 1, 'x')",
		"INSERT INTO lk1 (id, n, u) VALUES (1, 1, 1), (4, 1, 1)",
		"SELECT * FROM lk1 ORDER BY id",
		"CREATE TABLE lk2 (LIKE lk_src INCLUDING ALL, extra text)",
		"INSERT INTO lk2 (id) VALUES (1)",
		"INSERT INTO lk2 (id) VALUES (1)",               // 23505
		"INSERT INTO lk2 (id, d) VALUES (5, 'x')",       // 23514
		"INSERT INTO lk2 (id, u) VALUES (6, 1), (7, 1)", // 23505
		"SELECT id, n, d, u, extra FROM lk2 ORDER BY id",
		"CREATE TABLE lk3 (a int, LIKE lk_src INCLUDING DEFAULTS EXCLUDING CONSTRAINTS)",
		"INSERT INTO lk3 (a, id) VALUES (1, 9)",
		"SELECT a, id, n FROM lk3",
		"SELECT column_name, data_type, is_nullable FROM information_schema.columns WHERE table_name = 'lk3' ORDER BY ordinal_position",
		"CREATE TABLE lk4 (LIKE lk_none)", // 42P01
	})
}
