package server_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/server"
)

var (
	propSeed  = flag.Int64("prop.seed", 1, "seed of the merge property test")
	propCases = flag.Int("prop.cases", 200, "cases of the merge property test")
)

// A column type of the property test with a small domain of SQL literals,
// so that both sides often write equal values. Literals are distinct values.
type propType struct {
	sql    string
	values []string
}

var propTypes = []propType{
	{"INTEGER", []string{"NULL", "0", "1", "2", "7"}},
	{"VARCHAR", []string{"NULL", "'x'", "'y'", "''", "'a b'"}},
	{"DOUBLE", []string{"NULL", "0.5", "1.25", "-2.0"}},
	{"BOOLEAN", []string{"NULL", "true", "false"}},
	{"DECIMAL(8,2)", []string{"NULL", "1.50", "2.00", "-0.25"}},
	{"DATE", []string{"NULL", "DATE '2024-01-01'", "DATE '2024-02-29'"}},
	{"INTEGER[]", []string{"NULL", "[1, 2]", "[]::INTEGER[]", "[NULL]::INTEGER[]"}},
	{"TIMESTAMP", []string{"NULL", "TIMESTAMP '2024-01-01 10:00:00'", "TIMESTAMP '2024-01-01 10:00:00.5'"}},
}

type propTable struct {
	name      string
	composite bool // key (k1 INTEGER, k2 VARCHAR) instead of (k1 INTEGER)
	types     []propType
}

type propRow []string // key literals, then value literals

type propState map[string]propRow // key text → row

func (t propTable) nkeys() int {
	if t.composite {
		return 2
	}
	return 1
}

func (t propTable) create() string {
	cols := []string{"k1 INTEGER"}
	key := "k1"
	if t.composite {
		cols = append(cols, "k2 VARCHAR")
		key = "k1, k2"
	}
	for i, ty := range t.types {
		cols = append(cols, fmt.Sprintf("v%d %s", i, ty.sql))
	}
	return fmt.Sprintf("CREATE TABLE %s (%s, PRIMARY KEY (%s))", t.name, strings.Join(cols, ", "), key)
}

func keyText(r propRow, n int) string { return strings.Join(r[:n], ",") }

// keyJSON is how conflict_details spells a key.
func keyJSON(r propRow, n int) string {
	parts := []string{r[0]}
	if n == 2 {
		parts = append(parts, `"`+strings.Trim(r[1], "'")+`"`)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func (t propTable) randomRow(rng *rand.Rand, k1 int, k2 string) propRow {
	r := propRow{fmt.Sprint(k1)}
	if t.composite {
		r = append(r, "'"+k2+"'")
	}
	for _, ty := range t.types {
		r = append(r, ty.values[rng.Intn(len(ty.values))])
	}
	return r
}

func (t propTable) insert(r propRow) string {
	return fmt.Sprintf("INSERT INTO %s VALUES (%s)", t.name, strings.Join(r, ", "))
}

func (t propTable) where(r propRow) string {
	w := "k1 = " + r[0]
	if t.composite {
		w += " AND k2 = " + r[1]
	}
	return w
}

// edit changes st randomly and returns the statements that do the same.
func (t propTable) edit(rng *rand.Rand, st propState) []string {
	var stmts []string
	for n := rng.Intn(5); n > 0; n-- {
		keys := make([]string, 0, len(st))
		for k := range st {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		switch op := rng.Intn(4); {
		case op <= 1 && len(keys) > 0: // update one or two cells
			r := append(propRow(nil), st[keys[rng.Intn(len(keys))]]...)
			var sets []string
			set := map[int]bool{}
			for c := rng.Intn(2) + 1; c > 0; c-- {
				i := rng.Intn(len(t.types))
				if set[i] {
					continue
				}
				set[i] = true
				r[t.nkeys()+i] = t.types[i].values[rng.Intn(len(t.types[i].values))]
				sets = append(sets, fmt.Sprintf("v%d = %s", i, r[t.nkeys()+i]))
			}
			st[keyText(r, t.nkeys())] = r
			stmts = append(stmts, fmt.Sprintf("UPDATE %s SET %s WHERE %s", t.name, strings.Join(sets, ", "), t.where(r)))
		case op == 2 && len(keys) > 0: // delete
			r := st[keys[rng.Intn(len(keys))]]
			delete(st, keyText(r, t.nkeys()))
			stmts = append(stmts, fmt.Sprintf("DELETE FROM %s WHERE %s", t.name, t.where(r)))
		default: // insert a key this side does not have
			r := t.randomRow(rng, rng.Intn(12), []string{"a", "b"}[rng.Intn(2)])
			if _, ok := st[keyText(r, t.nkeys())]; ok {
				continue
			}
			st[keyText(r, t.nkeys())] = r
			stmts = append(stmts, t.insert(r))
		}
	}
	return stmts
}

type propConflict struct{ table, key, kind string }

func equalRows(a, b propRow) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// referenceMerge is the three-way merge written the plain way, row by row.
func referenceMerge(t propTable, base, ours, theirs propState) (propState, []propConflict) {
	out := propState{}
	var conflicts []propConflict
	keys := map[string]bool{}
	for _, s := range []propState{base, ours, theirs} {
		for k := range s {
			keys[k] = true
		}
	}
	nk := t.nkeys()
	for k := range keys {
		b, inB := base[k]
		o, inO := ours[k]
		th, inT := theirs[k]
		some := o
		if !inO {
			some = th
		}
		if !inO && !inT {
			some = b
		}
		conflict := func(kind string) { conflicts = append(conflicts, propConflict{t.name, keyJSON(some, nk), kind}) }
		switch {
		case inB && inO && inT:
			r := append(propRow(nil), o...)
			bad := false
			for i := nk; i < len(o); i++ {
				switch {
				case o[i] == th[i]:
				case o[i] == b[i]:
					r[i] = th[i]
				case th[i] == b[i]:
				default:
					bad = true
				}
			}
			if bad {
				conflict("cell")
			} else {
				out[k] = r
			}
		case inB && inO:
			if !equalRows(o, b) {
				conflict("delete_update")
			}
		case inB && inT:
			if !equalRows(th, b) {
				conflict("delete_update")
			}
		case inB:
		case inO && inT:
			if equalRows(o, th) {
				out[k] = o
			} else {
				conflict("insert_insert")
			}
		case inO:
			out[k] = o
		default:
			out[k] = th
		}
	}
	sort.Slice(conflicts, func(i, j int) bool {
		return conflicts[i].table+conflicts[i].key < conflicts[j].table+conflicts[j].key
	})
	return out, conflicts
}

func cloneState(s propState) propState {
	out := propState{}
	for k, v := range s {
		out[k] = append(propRow(nil), v...)
	}
	return out
}

// TestMergeMatchesReference: random tables, random edits on both sides of a
// common base; vsql's merge equals the row-by-row reference merge, and
// swapping ours and theirs gives the same table and mirrored conflicts.
func TestMergeMatchesReference(t *testing.T) {
	cases := *propCases
	if testing.Short() {
		cases = 20
	}
	httpAddr := freeAddr(t)
	addr := startServer(t, func(c *server.Config) { c.HTTPListen = httpAddr })
	before := scrape(t, "http://"+httpAddr)
	ctx := context.Background()
	admin := connectPgx(t, addr)
	must := func(c *pgx.Conn, q string) {
		t.Helper()
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	must(admin, "CREATE DATABASE scratch")
	rng := rand.New(rand.NewSource(*propSeed))
	var merged, conflicted int
	started := time.Now()
	for n := 0; n < cases; n++ {
		if n%20 == 0 {
			t.Logf("case %d at %v", n, time.Since(started))
		}
		db := fmt.Sprintf("p%d", n)
		must(admin, "CREATE DATABASE "+db)
		main, err := pgx.Connect(ctx, dsn(addr, db))
		if err != nil {
			t.Fatal(err)
		}
		var tables []propTable
		var bases []propState
		for i := rng.Intn(2) + 1; i > 0; i-- {
			tb := propTable{name: fmt.Sprintf("t%d", len(tables)), composite: rng.Intn(2) == 0}
			for c := rng.Intn(4) + 1; c > 0; c-- {
				tb.types = append(tb.types, propTypes[rng.Intn(len(propTypes))])
			}
			must(main, tb.create())
			st := propState{}
			for r := rng.Intn(10) + 3; r > 0; r-- {
				row := tb.randomRow(rng, rng.Intn(12), []string{"a", "b"}[rng.Intn(2)])
				if _, ok := st[keyText(row, tb.nkeys())]; !ok {
					st[keyText(row, tb.nkeys())] = row
					must(main, tb.insert(row))
				}
			}
			tables, bases = append(tables, tb), append(bases, st)
		}
		must(main, "SELECT * FROM vsql_create_snapshot()")
		must(main, "SELECT * FROM vsql_create_branch(NULL, 'side')")
		side, err := pgx.Connect(ctx, dsn(addr, db+"/side"))
		if err != nil {
			t.Fatal(err)
		}
		var want []propState
		var wantConflicts []propConflict
		for i, tb := range tables {
			ours, theirs := cloneState(bases[i]), cloneState(bases[i])
			for _, q := range tb.edit(rng, ours) {
				must(main, q)
			}
			for _, q := range tb.edit(rng, theirs) {
				must(side, q)
			}
			w, c := referenceMerge(tb, bases[i], ours, theirs)
			want = append(want, w)
			wantConflicts = append(wantConflicts, c...)
		}
		must(main, "SELECT * FROM vsql_create_snapshot()")
		must(side, "SELECT * FROM vsql_create_snapshot()")
		side.Close(ctx)

		for _, dir := range [][2]string{{"main", "side"}, {"side", "main"}} {
			got := previewConflicts(t, main, db, dir[0], dir[1])
			if fmt.Sprint(got) != fmt.Sprint(wantConflicts) {
				t.Fatalf("case %d (seed %d), merge %s ← %s: conflicts\n got  %v\n want %v", n, *propSeed, dir[0], dir[1], got, wantConflicts)
			}
			dest := "merged_" + dir[0]
			_, err := main.Exec(ctx, fmt.Sprintf("SELECT * FROM vsql_merge_branch(NULL, '%s', '%s', '%s')", dir[0], dir[1], dest))
			if len(wantConflicts) > 0 {
				var pgErr *pgconn.PgError
				if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_conflict") {
					t.Fatalf("case %d: merge with conflicts: %v", n, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("case %d: merge %s ← %s: %v", n, dir[0], dir[1], err)
			}
			for i, tb := range tables {
				checkTable(t, admin, fmt.Sprintf("scratch.main.exp_%d_%s_%s", n, dest, tb.name), want[i], fmt.Sprintf(`"%s/%s".%s`, db, dest, tb.name))
			}
		}
		if len(wantConflicts) > 0 {
			conflicted++
		} else {
			merged++
		}
		main.Close(ctx)
		// Dropping the case's database detaches its branches and images, so
		// the engine does not grow with every case.
		must(admin, "DROP DATABASE "+db)
	}
	t.Logf("%d cases (seed %d): %d merged both ways, %d with conflicts", cases, *propSeed, merged, conflicted)
	if merged < cases/5 || conflicted < cases/10 {
		t.Errorf("the generator is unbalanced: %d merged, %d conflicted", merged, conflicted)
	}
	// Both ways of pairing rows were checked against the reference: the
	// positional pairing (sides that only updated rows), its refusal when
	// equal row counts hide moved keys, and the key join.
	after := scrape(t, "http://"+httpAddr)
	for _, method := range []merge.Method{merge.MethodPositional, merge.MethodKeyedAfterMisalignment, merge.MethodKeyed} {
		sample := `vsql_merge_tables_total{method="` + string(method) + `"}`
		n := after[sample] - before[sample]
		t.Logf("%s: %v tables", sample, n)
		if n < 1 {
			t.Errorf("no merged table was compared with method %s", method)
		}
	}
}

func previewConflicts(t *testing.T, c *pgx.Conn, db, ours, theirs string) []propConflict {
	t.Helper()
	rows, err := c.Query(context.Background(), fmt.Sprintf(`SELECT table_name, d.key_json, d.kind FROM (
		SELECT table_name, unnest(conflict_details) AS d FROM vsql_merge_branch_preview(NULL, '%s', '%s')) ORDER BY table_name, d.key_json`, ours, theirs))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []propConflict
	for rows.Next() {
		var pc propConflict
		if err := rows.Scan(&pc.table, &pc.key, &pc.kind); err != nil {
			t.Fatal(err)
		}
		out = append(out, pc)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].table+out[i].key < out[j].table+out[j].key })
	return out
}

// checkTable compares a merged table with the expected rows inside DuckDB
// (native equality): both differences must be empty.
func checkTable(t *testing.T, admin *pgx.Conn, exp string, want propState, merged string) {
	t.Helper()
	ctx := context.Background()
	if _, err := admin.Exec(ctx, fmt.Sprintf("CREATE TABLE %s AS SELECT * FROM %s LIMIT 0", exp, merged)); err != nil {
		t.Fatal(err)
	}
	for _, r := range want {
		if _, err := admin.Exec(ctx, fmt.Sprintf("INSERT INTO %s VALUES (%s)", exp, strings.Join(r, ", "))); err != nil {
			t.Fatal(err)
		}
	}
	var diff int
	q := fmt.Sprintf("SELECT count(*) FROM ((SELECT * FROM %s EXCEPT SELECT * FROM %s) UNION ALL (SELECT * FROM %s EXCEPT SELECT * FROM %s))", exp, merged, merged, exp)
	if err := admin.QueryRow(ctx, q).Scan(&diff); err != nil {
		t.Fatal(err)
	}
	defer admin.Exec(ctx, "DROP TABLE "+exp)
	if diff != 0 {
		var got, wantText string
		_ = admin.QueryRow(ctx, fmt.Sprintf("SELECT string_agg(x::VARCHAR, ' | ' ORDER BY x::VARCHAR) FROM %s x", merged)).Scan(&got)
		_ = admin.QueryRow(ctx, fmt.Sprintf("SELECT string_agg(x::VARCHAR, ' | ' ORDER BY x::VARCHAR) FROM %s x", exp)).Scan(&wantText)
		t.Fatalf("seed %d: %s differs from the reference merge in %d rows\n got  %s\n want %s", *propSeed, merged, diff, got, wantText)
	}
}
