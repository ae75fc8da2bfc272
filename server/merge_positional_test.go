package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/server"
	"github.com/vsql/vsql/sqltext"
)

// TestMergePairsRowsByPosition: a table of several row groups whose sides
// only updated rows in place is compared by position, with and without
// column skipping, and the merge holds both sides' changes; when a side
// deleted a key and inserted it again (equal row counts, keys moved), the
// positional pairing is refused and the key join gives the right result.
func TestMergePairsRowsByPosition(t *testing.T) {
	httpAddr := freeAddr(t)
	addr := startServer(t, func(c *server.Config) { c.HTTPListen = httpAddr })
	ctx := context.Background()
	const rows = 300_000 // three row groups of 122,880 rows
	setup := []string{
		"CREATE TABLE big (id BIGINT PRIMARY KEY, v INTEGER, w VARCHAR)",
		fmt.Sprintf("INSERT INTO big SELECT range, range %% 1000, 'w' || range FROM range(%d)", rows),
	}
	// Expected: ours negates v where id % 997 = 0, theirs sets w where
	// id % 1009 = 3 (some rows get both, in different columns).
	var wantNeg, wantSide, wantBoth int64
	var wantSum int64
	for id := int64(0); id < rows; id++ {
		v := id % 1000
		if id%997 == 0 {
			wantNeg++
			v = -v
		}
		if id%1009 == 3 {
			wantSide++
			if id%997 == 0 {
				wantBoth++
			}
		}
		wantSum += v
	}
	check := func(db, branch string, extra string, wantExtra int64) {
		t.Helper()
		c, err := pgx.Connect(ctx, dsn(addr, db+"/"+branch))
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		var n, sum, side, both, got int64
		err = c.QueryRow(ctx, `SELECT count(*), sum(v), count(*) FILTER (WHERE w = 'side'),
			count(*) FILTER (WHERE w = 'side' AND v < 0 AND id % 997 = 0), count(*) FILTER (WHERE `+extra+`) FROM big`).Scan(&n, &sum, &side, &both, &got)
		if err != nil {
			t.Fatal(err)
		}
		if n != rows || sum != wantSum || side != wantSide || both != wantBoth || got != wantExtra {
			t.Errorf("%s/%s: rows %d sum %d side %d both %d (%s: %d); want %d, %d, %d, %d, %d",
				db, branch, n, sum, side, both, extra, got, rows, wantSum, wantSide, wantBoth, wantExtra)
		}
	}
	mergeInto := func(c *pgx.Conn, dest string) map[merge.Method]float64 {
		t.Helper()
		return mergeSideInto(t, c, httpAddr, dest)
	}

	main := twoSides(t, addr, "aligned", setup,
		[]string{"UPDATE big SET v = -v WHERE id % 997 = 0"},
		[]string{"UPDATE big SET w = 'side' WHERE id % 1009 = 3"})
	for _, skip := range []bool{true, false} {
		merge.ColumnSkipping = skip
		dest := fmt.Sprintf("merged_%v", skip)
		got := mergeInto(main, dest)
		merge.ColumnSkipping = true
		if got[merge.MethodPositional] != 1 || got[merge.MethodKeyed]+got[merge.MethodKeyedAfterMisalignment] != 0 {
			t.Errorf("column skipping %v: tables compared by method %v, want one positional", skip, got)
		}
		check("aligned", dest, "true", rows)
	}

	// Ours deletes key 5 and inserts it again, with v = 12345: the row
	// moves to the end, the counts stay equal.
	main = twoSides(t, addr, "moved", setup,
		[]string{"UPDATE big SET v = -v WHERE id % 997 = 0", "DELETE FROM big WHERE id = 5", "INSERT INTO big VALUES (5, 12345, 'w5')"},
		[]string{"UPDATE big SET w = 'side' WHERE id % 1009 = 3"})
	wantSum += 12345 - 5
	got := mergeInto(main, "merged")
	if got[merge.MethodKeyedAfterMisalignment] != 1 || got[merge.MethodPositional]+got[merge.MethodKeyed] != 0 {
		t.Errorf("moved key: tables compared by method %v, want one keyed_after_misalignment", got)
	}
	check("moved", "merged", "id = 5 AND v = 12345", 1)
}

// TestMergeUpdatesInPlace: a merge writes theirs' updated rows with UPDATE,
// so they stay where they were: merged into main in place, then both sides
// changed again, the next merge still pairs rows by position (before,
// rows rewritten as DELETE plus INSERT moved to the end and the next merge
// joined on the key). A column in a UNIQUE constraint is still written as
// DELETE plus INSERT, so theirs swapping two unique values merges.
func TestMergeUpdatesInPlace(t *testing.T) {
	httpAddr := freeAddr(t)
	addr := startServer(t, func(c *server.Config) { c.HTTPListen = httpAddr })
	ctx := context.Background()
	const rows = 300_000
	mergeSide := func(c *pgx.Conn) map[merge.Method]float64 {
		t.Helper()
		return mergeSideInto(t, c, httpAddr, "main")
	}
	exec := func(c *pgx.Conn, qs ...string) {
		t.Helper()
		for _, q := range qs {
			if _, err := c.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	main := twoSides(t, addr, "inplace", []string{
		"CREATE TABLE big (id BIGINT PRIMARY KEY, v INTEGER, w VARCHAR)",
		fmt.Sprintf("INSERT INTO big SELECT range, range %% 1000, 'w' || range FROM range(%d)", rows),
	},
		[]string{"UPDATE big SET v = -v WHERE id % 997 = 0"},
		[]string{"UPDATE big SET w = 'side' WHERE id % 1009 = 3"})
	if got := mergeSide(main); got[merge.MethodPositional] != 1 {
		t.Fatalf("first merge: tables compared by method %v, want one positional", got)
	}
	// The merged rows are still in place: row i holds key i.
	var moved int64
	if err := main.QueryRow(ctx, "SELECT count(*) FROM big WHERE rowid <> id").Scan(&moved); err != nil {
		t.Fatal(err)
	}
	if moved != 0 {
		t.Errorf("%d rows moved after the merge; want 0", moved)
	}
	side, err := pgx.Connect(ctx, dsn(addr, "inplace/side"))
	if err != nil {
		t.Fatal(err)
	}
	defer side.Close(ctx)
	exec(main, "UPDATE big SET v = 7 WHERE id % 1013 = 1", "SELECT * FROM vsql_create_snapshot()")
	exec(side, "UPDATE big SET w = 'again' WHERE id % 1019 = 2", "SELECT * FROM vsql_create_snapshot()")
	if got := mergeSide(main); got[merge.MethodPositional] != 1 || got[merge.MethodKeyed]+got[merge.MethodKeyedAfterMisalignment] != 0 {
		t.Errorf("second merge: tables compared by method %v, want one positional", got)
	}
	var n, side1, side2, sevens, negs int64
	if err := main.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE w = 'side'), count(*) FILTER (WHERE w = 'again'),
		count(*) FILTER (WHERE v = 7), count(*) FILTER (WHERE v < 0) FROM big`).Scan(&n, &side1, &side2, &sevens, &negs); err != nil {
		t.Fatal(err)
	}
	var want [5]int64
	want[0] = rows
	for id := int64(0); id < rows; id++ {
		switch {
		case id%1019 == 2:
			want[2]++
		case id%1009 == 3:
			want[1]++
		}
		v := id % 1000
		if id%997 == 0 {
			v = -v
		}
		if id%1013 == 1 {
			v = 7
		}
		if v == 7 {
			want[3]++
		}
		if v < 0 {
			want[4]++
		}
	}
	if got := [5]int64{n, side1, side2, sevens, negs}; got != want {
		t.Errorf("after two merges: rows, w = side, w = again, v = 7, v < 0: %v; want %v", got, want)
	}

	// UNIQUE column: theirs swaps two values.
	main = twoSides(t, addr, "uniq", []string{
		"CREATE TABLE u (id INTEGER PRIMARY KEY, code VARCHAR UNIQUE, n INTEGER)",
		"INSERT INTO u VALUES (1, 'a', 1), (2, 'b', 2), (3, 'c', 3)",
	},
		[]string{"UPDATE u SET n = 30 WHERE id = 3"},
		[]string{"UPDATE u SET code = 'tmp' WHERE id = 1", "UPDATE u SET code = 'a' WHERE id = 2", "UPDATE u SET code = 'b' WHERE id = 1"})
	mergeSide(main)
	rowsOf, err := main.Query(ctx, "SELECT id, code, n FROM u ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rowsOf.Next() {
		var id, n int
		var code string
		if err := rowsOf.Scan(&id, &code, &n); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s %d", id, code, n))
	}
	if err := rowsOf.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[1 b 1 2 a 2 3 c 30]" {
		t.Errorf("unique swap merged to %v; want [1 b 1 2 a 2 3 c 30]", got)
	}
}

// mergeSideInto merges branch side into main, the result on branch dest,
// and returns how many tables each comparison method paired (the change
// in vsql_merge_tables_total, scraped from the server's metrics).
func mergeSideInto(t *testing.T, c *pgx.Conn, httpAddr, dest string) map[merge.Method]float64 {
	t.Helper()
	methods := func() map[merge.Method]float64 {
		s := scrape(t, "http://"+httpAddr)
		out := map[merge.Method]float64{}
		for _, m := range []merge.Method{merge.MethodPositional, merge.MethodKeyed, merge.MethodKeyedAfterMisalignment} {
			out[m] = s[`vsql_merge_tables_total{method="`+string(m)+`"}`]
		}
		return out
	}
	before := methods()
	if _, err := c.Exec(context.Background(), "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', "+sqltext.QuoteString(dest)+")"); err != nil {
		t.Fatal(err)
	}
	after := methods()
	for m := range after {
		after[m] -= before[m]
	}
	return after
}
