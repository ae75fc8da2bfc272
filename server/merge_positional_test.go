package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/server"
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
	methods := func() map[merge.Method]float64 {
		s := scrape(t, "http://"+httpAddr)
		out := map[merge.Method]float64{}
		for _, m := range []merge.Method{merge.MethodPositional, merge.MethodKeyed, merge.MethodKeyedAfterMisalignment} {
			out[m] = s[`vsql_merge_tables_total{method="`+string(m)+`"}`]
		}
		return out
	}
	mergeInto := func(c *pgx.Conn, dest string) map[merge.Method]float64 {
		t.Helper()
		before := methods()
		if _, err := c.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', '"+dest+"')"); err != nil {
			t.Fatal(err)
		}
		after := methods()
		for m := range after {
			after[m] -= before[m]
		}
		return after
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
