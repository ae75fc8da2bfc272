package pgcompat

import (
	"reflect"
	"testing"

	"github.com/vsql/vsql/sqltext"
)

func TestAlterTableConstraints(t *testing.T) {
	for _, c := range []struct {
		sql   string
		ok    bool
		steps AlterSteps
	}{
		{`ALTER TABLE "t" ADD COLUMN "y" integer DEFAULT 0 NOT NULL`, true, AlterSteps{
			Steps: []string{`ALTER TABLE "t" ADD COLUMN "y" integer DEFAULT 0`, `ALTER TABLE "t" ALTER COLUMN "y" SET NOT NULL`},
			Table: []string{"t"}, SetsNotNull: true}},
		{`ALTER TABLE s.t ADD w numeric(10, 2) CONSTRAINT w_u UNIQUE`, true, AlterSteps{
			Steps:   []string{`ALTER TABLE s.t ADD COLUMN w numeric(10, 2)`},
			Indexes: []string{`CREATE UNIQUE INDEX "w_u" ON s.t (w)`}, Table: []string{"s", "t"}}},
		{`ALTER TABLE t ADD COLUMN p int PRIMARY KEY DEFAULT nextval('s')`, true, AlterSteps{
			Steps:   []string{`ALTER TABLE t ADD COLUMN p int DEFAULT nextval('s')`, `ALTER TABLE t ALTER COLUMN p SET NOT NULL`},
			Indexes: []string{`CREATE UNIQUE INDEX "t_pkey" ON t (p)`}, Table: []string{"t"}, SetsNotNull: true}},
		{`ALTER TABLE t ADD COLUMN r int REFERENCES u (id) ON DELETE SET DEFAULT NOT NULL`, true, AlterSteps{
			Steps:   []string{`ALTER TABLE t ADD COLUMN r int`, `ALTER TABLE t ALTER COLUMN r SET NOT NULL`},
			Warning: "foreign keys cannot be added to an existing table (DuckDB); the column was added without its REFERENCES constraint, which is not enforced",
			Table:   []string{"t"}, SetsNotNull: true}},
		{`ALTER TABLE t ADD CONSTRAINT "T_ab" UNIQUE (a, "B") DEFERRABLE INITIALLY DEFERRED`, true, AlterSteps{
			Indexes: []string{`CREATE UNIQUE INDEX "T_ab" ON t (a, "B")`}, Table: []string{"t"}}},
		{`ALTER TABLE t ADD UNIQUE (a, b)`, true, AlterSteps{
			Indexes: []string{`CREATE UNIQUE INDEX "t_a_b_key" ON t (a, b)`}, Table: []string{"t"}}},
		{`ALTER TABLE t ADD COLUMN y int DEFAULT 0`, false, AlterSteps{}},                    // DuckDB's own
		{`ALTER TABLE t ADD COLUMN y int NULL`, false, AlterSteps{}},                         // DuckDB's own
		{`ALTER TABLE t ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES u`, false, AlterSteps{}}, // the session's
		{`ALTER TABLE t ADD COLUMN g int GENERATED ALWAYS AS (a + 1)`, false, AlterSteps{}},
	} {
		steps, ok, err := AlterTableConstraints(sqltext.Parse(c.sql))
		if err != nil || ok != c.ok || ok && !reflect.DeepEqual(steps, c.steps) {
			t.Errorf("%s\n got %v %#v %v\nwant %v %#v", c.sql, ok, steps, err, c.ok, c.steps)
		}
	}
	for _, sql := range []string{"ALTER TABLE t ADD CHECK (a > 0)", "ALTER TABLE t ADD CONSTRAINT c CHECK (a > 0)", "ALTER TABLE t ADD COLUMN c int CHECK (c > 0)"} {
		if _, ok, err := AlterTableConstraints(sqltext.Parse(sql)); !ok || err == nil {
			t.Errorf("%s: want a refusal, got %v %v", sql, ok, err)
		}
	}
}

func TestRebuiltIndex(t *testing.T) {
	const ix = `CREATE UNIQUE INDEX a6i ON a6(id, (lower("name")), x);`
	for _, c := range []struct {
		a    IndexedAlter
		sql  string
		keep bool
	}{
		{IndexedAlter{Action: "rename-column", Column: "name", NewName: "Title"}, `CREATE UNIQUE INDEX a6i ON a6(id, (lower("Title")), x);`, true},
		{IndexedAlter{Action: "rename-column", Column: "lower", NewName: "z"}, ix, true}, // a function, not a column
		{IndexedAlter{Action: "rename", NewName: "b 7"}, `CREATE UNIQUE INDEX a6i ON "b 7"(id, (lower("name")), x);`, true},
		{IndexedAlter{Action: "drop", Column: "x"}, ix, false},
		{IndexedAlter{Action: "drop", Column: "y"}, ix, true},
		{IndexedAlter{Action: "column", Column: "x"}, ix, true},
	} {
		sql, keep := RebuiltIndex(ix, c.a)
		if sql != c.sql || keep != c.keep {
			t.Errorf("%+v: got %q %v, want %q %v", c.a, sql, keep, c.sql, c.keep)
		}
	}
}
