package server_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// schemaCase is one schema merge that must not publish: a schema conflict
// (conflict set) or a refusal (refused set, a fragment of the message).
type schemaCase struct {
	name     string
	mode     string
	setup    []string
	a, b     []string // the two sides' edits; each case runs a→main, b→side and swapped
	conflict string
	refused  string
}

var schemaCases = []schemaCase{
	{name: "table_delete_modify", mode: "catalog",
		a: []string{"DROP TABLE t"}, b: []string{"UPDATE t SET v = 'changed' WHERE id = 1"}, conflict: "table_delete_modify"},
	{name: "column_delete_modify", mode: "catalog",
		a: []string{"ALTER TABLE t DROP COLUMN note"}, b: []string{"UPDATE t SET note = 'edited' WHERE id = 2"}, conflict: "column_delete_modify"},
	{name: "view_definition", mode: "catalog",
		a: []string{"CREATE OR REPLACE VIEW w AS SELECT id, v FROM t"}, b: []string{"CREATE OR REPLACE VIEW w AS SELECT id FROM t WHERE id > 1"}, conflict: "view_definition"},
	{name: "view_binding", mode: "catalog",
		a: []string{"ALTER TABLE t DROP COLUMN note"}, b: []string{"CREATE OR REPLACE VIEW w AS SELECT id, note FROM t"}, conflict: "view_binding"},
	{name: "view_output", mode: "additive",
		setup: []string{"CREATE VIEW everything AS SELECT * FROM t"},
		a:     []string{"ALTER TABLE t ADD COLUMN extra VARCHAR"}, b: []string{"INSERT INTO t VALUES (9, 'nine', NULL, 9)"}, conflict: "view_output"},
	{name: "column added differently", mode: "additive",
		a: []string{"ALTER TABLE t ADD COLUMN c VARCHAR"}, b: []string{"ALTER TABLE t ADD COLUMN c INTEGER"}, conflict: "column_definition"},
	{name: "table added differently", mode: "additive",
		a: []string{"CREATE TABLE n (id INTEGER PRIMARY KEY, v VARCHAR)"}, b: []string{"CREATE TABLE n (id INTEGER PRIMARY KEY, v INTEGER)"}, conflict: "table_definition"},
	{name: "type change", mode: "catalog",
		a: []string{"ALTER TABLE t ALTER COLUMN n TYPE BIGINT"}, b: []string{"UPDATE t SET v = 'x' WHERE id = 1"}, refused: "type change: column t.n"},
	{name: "rename is a removal that additive refuses", mode: "additive",
		a: []string{"ALTER TABLE t RENAME COLUMN note TO remark"}, b: []string{"UPDATE t SET v = 'x' WHERE id = 1"}, refused: "column t.note was removed"},
	{name: "rename against an edit of the old name", mode: "catalog",
		a: []string{"ALTER TABLE t RENAME COLUMN note TO remark"}, b: []string{"UPDATE t SET note = 'x' WHERE id = 1"}, conflict: "column_delete_modify"},
	{name: "changed default", mode: "catalog",
		a: []string{"ALTER TABLE t ALTER COLUMN n SET DEFAULT 5"}, b: nil, refused: "changed default: column t.n"},
	{name: "changed NOT NULL", mode: "catalog",
		a: []string{"ALTER TABLE t ALTER COLUMN v SET NOT NULL"}, b: nil, refused: "changed constraint: NOT NULL of column t.v"},
	{name: "added index", mode: "catalog",
		a: []string{"CREATE INDEX t_v ON t (v)"}, b: nil, refused: "changed indexes: table t"},
	{name: "added defaulted column", mode: "additive",
		a: []string{"ALTER TABLE t ADD COLUMN d INTEGER DEFAULT 7"}, b: nil, refused: "added column t.d"},
	{name: "added NOT NULL column", mode: "additive", // DuckDB adds constrained columns in two steps
		a: []string{"ALTER TABLE t ADD COLUMN f INTEGER", "UPDATE t SET f = 1", "ALTER TABLE t ALTER COLUMN f SET NOT NULL"}, b: nil, refused: "added column t.f"},
	{name: "removed constrained column", mode: "catalog",
		a: []string{"ALTER TABLE t DROP COLUMN n"}, b: nil, refused: "removal of constrained column t.n"},
	{name: "new table with a volatile default", mode: "additive",
		a: []string{"CREATE TABLE stamped (id INTEGER PRIMARY KEY, stamped_at TIMESTAMP DEFAULT now())"}, b: nil, refused: "outside the allowlist"},
	{name: "view outside the allowlist", mode: "catalog",
		a: []string{"CREATE VIEW ranked AS SELECT id, row_number() OVER (ORDER BY id) AS r FROM t"}, b: nil, refused: "window functions"},
}

// TestSchemaMergeRefusals runs every schema conflict kind and every
// refusal in both directions: the merge and its preview fail with the
// right code and nothing is published.
func TestSchemaMergeRefusals(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	setup := []string{
		"CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR, note VARCHAR, n INTEGER DEFAULT 0)",
		"INSERT INTO t VALUES (1, 'one', 'a', 1), (2, 'two', 'b', 2), (3, 'three', NULL, 3)",
		"CREATE VIEW w AS SELECT id FROM t",
	}
	for i, c := range schemaCases {
		for _, swapped := range []bool{false, true} {
			mainEdits, sideEdits := c.a, c.b
			label := "a_into_b"
			if swapped {
				mainEdits, sideEdits = c.b, c.a
				label = "b_into_a"
			}
			t.Run(c.name+"/"+label, func(t *testing.T) {
				db := fmt.Sprintf("schema%d_%s", i, label)
				main := twoSides(t, addr, db, append(append([]string{}, setup...), c.setup...), mainEdits, sideEdits)
				head := headOf(t, main, "main")
				snapshots := countSnapshots(t, main)
				call := fmt.Sprintf("vsql_merge_branch(NULL, 'main', 'side', 'main', schema_mode => '%s')", c.mode)
				_, err := main.Exec(ctx, "SELECT * FROM "+call)
				want := "merge_unsupported"
				if c.conflict != "" {
					want = "merge_schema_conflict"
				}
				var pgErr *pgconn.PgError
				if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, want) {
					t.Fatalf("merge: %v, want %s", err, want)
				}
				if c.conflict != "" && !strings.Contains(pgErr.Message, c.conflict) {
					t.Errorf("merge error %q does not name %s", pgErr.Message, c.conflict)
				}
				if c.refused != "" && !strings.Contains(pgErr.Message, c.refused) {
					t.Errorf("merge error %q does not say %q", pgErr.Message, c.refused)
				}
				if got := headOf(t, main, "main"); got != head {
					t.Errorf("main moved from %d to %d", head, got)
				}
				if got := countSnapshots(t, main); got != snapshots {
					t.Errorf("%d snapshots after a refused merge, had %d", got, snapshots)
				}
				preview := fmt.Sprintf("SELECT object_name, [d.kind FOR d IN schema_conflict_details] FROM vsql_merge_branch_preview(NULL, 'main', 'side', schema_mode => '%s', validate => true) WHERE schema_conflicts > 0", c.mode)
				rows, err := main.Query(ctx, preview)
				var kinds []string
				if err == nil {
					for rows.Next() {
						var name string
						var ks []string
						if err := rows.Scan(&name, &ks); err != nil {
							t.Fatal(err)
						}
						kinds = append(kinds, ks...)
					}
					err = rows.Err()
				}
				if c.conflict != "" {
					if err != nil || len(kinds) != 1 || kinds[0] != c.conflict {
						t.Errorf("preview conflicts %v (%v), want [%s]", kinds, err, c.conflict)
					}
				} else if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_unsupported") {
					t.Errorf("preview: %v, want merge_unsupported", err)
				}
			})
		}
	}
}

func countSnapshots(t *testing.T, c *pgx.Conn) int {
	t.Helper()
	var n int
	if err := c.QueryRow(context.Background(), "SELECT count(*) FROM vsql_snapshots()").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSchemaMergeAdditions checks the additive rules that merge: a column
// added on both sides identically, columns added on each side, a table
// added identically on both sides (its rows merge), in both directions.
func TestSchemaMergeAdditions(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	setup := []string{"CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR)", "INSERT INTO t VALUES (1, 'one'), (2, 'two')"}
	a := []string{"ALTER TABLE t ADD COLUMN shared VARCHAR", "ALTER TABLE t ADD COLUMN mine INTEGER", "UPDATE t SET shared = 's', mine = 10 WHERE id = 1",
		"CREATE TABLE both_sides (k VARCHAR PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0, CHECK (n >= 0))", "INSERT INTO both_sides VALUES ('x', 1), ('y', 2)"}
	b := []string{"ALTER TABLE t ADD COLUMN shared VARCHAR", "ALTER TABLE t ADD COLUMN yours DATE", "UPDATE t SET yours = DATE '2026-01-02' WHERE id = 2",
		"INSERT INTO t VALUES (3, 'three', 'from b', DATE '2026-03-04')",
		"CREATE TABLE both_sides (k VARCHAR PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0, CHECK (n >= 0))", "INSERT INTO both_sides VALUES ('y', 2), ('z', 3)"}
	for _, swapped := range []bool{false, true} {
		mainEdits, sideEdits, label := a, b, "a_into_b"
		if swapped {
			mainEdits, sideEdits, label = b, a, "b_into_a"
		}
		t.Run(label, func(t *testing.T) {
			main := twoSides(t, addr, "additions_"+label, setup, mainEdits, sideEdits)
			var action string
			if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', schema_mode => 'additive')").Scan(&action); err != nil || action != "merged" {
				t.Fatalf("merge: %s %v", action, err)
			}
			var got string
			q := `SELECT string_agg(format('%s|%s|%s|%s|%s', id, v, coalesce(shared, '-'), coalesce(mine::VARCHAR, '-'), coalesce(yours::VARCHAR, '-')), ';' ORDER BY id) FROM t`
			if err := main.QueryRow(ctx, q).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if want := "1|one|s|10|-;2|two|-|-|2026-01-02;3|three|from b|-|2026-03-04"; got != want {
				t.Errorf("merged rows %s, want %s", got, want)
			}
			if err := main.QueryRow(ctx, "SELECT string_agg(k || n, ',' ORDER BY k) FROM both_sides").Scan(&got); err != nil || got != "x1,y2,z3" {
				t.Errorf("both_sides rows %s %v", got, err)
			}
			var cols string
			if err := main.QueryRow(ctx, "SELECT string_agg(column_name, ',' ORDER BY column_index) FROM duckdb_columns() WHERE database_name = current_database() AND table_name = 't'").Scan(&cols); err != nil {
				t.Fatal(err)
			}
			if len(strings.Split(cols, ",")) != 5 || !strings.Contains(cols, "mine") || !strings.Contains(cols, "yours") {
				t.Errorf("columns %s", cols)
			}
			// the new table keeps its constraints: the CHECK still holds
			if _, err := main.Exec(ctx, "INSERT INTO both_sides VALUES ('neg', -1)"); err == nil {
				t.Error("the merged table lost its CHECK constraint")
			}
		})
	}
}

// TestSchemaMergeRemovals checks the catalog rules that merge: a column
// and a table removed on one side that the other left as in the base, a
// view created on one side, a view dropped on one side; in both directions.
func TestSchemaMergeRemovals(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	setup := []string{"CREATE TABLE t (id INTEGER PRIMARY KEY, v VARCHAR, k INTEGER UNIQUE, obsolete VARCHAR)",
		"INSERT INTO t VALUES (1, 'one', 10, 'x'), (2, 'two', 20, NULL)",
		"CREATE TABLE old_log (id INTEGER PRIMARY KEY, note VARCHAR)", "INSERT INTO old_log VALUES (1, 'kept')",
		"CREATE VIEW gone AS SELECT id FROM old_log"}
	a := []string{"ALTER TABLE t DROP COLUMN obsolete", "DROP VIEW gone", "DROP TABLE old_log", "UPDATE t SET v = 'uno' WHERE id = 1"}
	b := []string{"INSERT INTO t VALUES (3, 'three', 30, NULL)", "UPDATE t SET v = 'dos' WHERE id = 2", "CREATE VIEW totals AS SELECT count(*) AS n, sum(k) AS k FROM t",
		"CREATE VIEW big_totals AS SELECT n FROM totals WHERE n > 1"} // created after what it reads, though it sorts first
	for _, swapped := range []bool{false, true} {
		mainEdits, sideEdits, label := a, b, "a_into_b"
		if swapped {
			mainEdits, sideEdits, label = b, a, "b_into_a"
		}
		t.Run(label, func(t *testing.T) {
			main := twoSides(t, addr, "removals_"+label, setup, mainEdits, sideEdits)
			var action string
			if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', schema_mode => 'catalog')").Scan(&action); err != nil || action != "merged" {
				t.Fatalf("merge: %s %v", action, err)
			}
			var rows, n, k string
			if err := main.QueryRow(ctx, "SELECT string_agg(id || ':' || v || ':' || k, ',' ORDER BY id) FROM t").Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if rows != "1:uno:10,2:dos:20,3:three:30" {
				t.Errorf("t rows %s", rows)
			}
			if err := main.QueryRow(ctx, "SELECT n::VARCHAR, k::VARCHAR FROM totals").Scan(&n, &k); err != nil || n != "3" || k != "60" {
				t.Errorf("view totals: %s %s %v", n, k, err)
			}
			if err := main.QueryRow(ctx, "SELECT n::VARCHAR FROM big_totals").Scan(&n); err != nil || n != "3" {
				t.Errorf("view big_totals: %s %v", n, err)
			}
			var objects string
			if err := main.QueryRow(ctx, "SELECT string_agg(name, ',' ORDER BY name) FROM (SHOW TABLES)").Scan(&objects); err != nil || objects != "big_totals,t,totals" {
				t.Errorf("objects %s %v", objects, err)
			}
			var cols string
			if err := main.QueryRow(ctx, "SELECT string_agg(column_name, ',' ORDER BY column_index) FROM duckdb_columns() WHERE database_name = current_database() AND table_name = 't'").Scan(&cols); err != nil || cols != "id,v,k" {
				t.Errorf("columns of t: %s %v", cols, err)
			}
			// the rebuilt table keeps its key and UNIQUE constraint
			for _, q := range []string{"INSERT INTO t VALUES (1, 'dup', 99)", "INSERT INTO t VALUES (7, 'dup', 10)"} {
				if _, err := main.Exec(ctx, q); err == nil {
					t.Errorf("%s: the rebuilt table lost a constraint", q)
				}
			}
		})
	}
}
