package server_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/merge"
)

// BenchmarkMerge merges a branch back into main for an orders table of
// rows rows, with changed rows changed on each side (sparse, no
// conflicts), and reports the five phase timings of the merge's result row,
// plus the comparison without column skipping and without the positional
// pairing of rows (merge.PositionalComparison), measured alternately in the
// same run. Each merge goes into a new branch, so the inputs stay the same.
//
//	go test ./server/ -run '^$' -bench BenchmarkMerge -benchtime 5x
func BenchmarkMerge(b *testing.B) {
	for _, c := range []struct{ rows, changed int }{{1_000_000, 100}, {3_000_000, 300}} {
		b.Run(fmt.Sprintf("rows=%d/changed=%d", c.rows, c.changed), func(b *testing.B) {
			addr := startServer(b, nil)
			ctx := context.Background()
			conn := connectPgx(b, addr)
			run := func(c *pgx.Conn, q string) {
				if _, err := c.Exec(ctx, q); err != nil {
					b.Fatalf("%s: %v", q, err)
				}
			}
			run(conn, "CREATE TABLE orders (order_id BIGINT PRIMARY KEY, customer VARCHAR, amount DECIMAL(12, 2), status VARCHAR)")
			run(conn, fmt.Sprintf("INSERT INTO orders SELECT range, 'customer ' || (range %% 9973), (range %% 10000) / 100.0, 'open' FROM range(%d)", c.rows))
			run(conn, "SELECT * FROM vsql_create_snapshot()")
			run(conn, "SELECT * FROM vsql_create_branch(NULL, 'side')")
			stride := c.rows / c.changed
			run(conn, fmt.Sprintf("UPDATE orders SET status = 'paid' WHERE order_id %% %d = 0", stride))
			run(conn, "SELECT * FROM vsql_create_snapshot()")
			side, err := pgx.Connect(ctx, dsn(addr, "postgres/side"))
			if err != nil {
				b.Fatal(err)
			}
			run(side, fmt.Sprintf("UPDATE orders SET amount = amount + 1 WHERE order_id %% %d = 1", stride))
			run(side, "SELECT * FROM vsql_create_snapshot()")
			side.Close(ctx)

			// The same merge as vsql runs it, without column skipping, and
			// without the positional pairing, alternating, so that all see the
			// same machine.
			variants := []struct {
				name             string
				skip, positional bool
				cmp              float64
			}{{"default", true, true, 0}, {"noskip", false, true, 0}, {"keyed", true, false, 0}}
			var sel, target, apply, pub float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for v := range variants {
					vr := &variants[v]
					merge.ColumnSkipping, merge.PositionalComparison = vr.skip, vr.positional
					var s, t, c1, a, p float64
					err := conn.QueryRow(ctx, fmt.Sprintf(`SELECT selection_ms, target_check_ms, comparison_ms, application_ms, publication_ms
						FROM vsql_merge_branch(NULL, 'main', 'side', 'merged_%d_%s')`, i, vr.name)).Scan(&s, &t, &c1, &a, &p)
					if err != nil {
						b.Fatal(err)
					}
					vr.cmp += c1
					if v == 0 {
						sel, target, apply, pub = sel+s, target+t, apply+a, pub+p
					}
				}
			}
			merge.ColumnSkipping, merge.PositionalComparison = true, true
			n := float64(b.N)
			b.ReportMetric(sel/n, "selection_ms")
			b.ReportMetric(target/n, "target_check_ms")
			b.ReportMetric(variants[0].cmp/n, "comparison_ms")
			b.ReportMetric(variants[1].cmp/n, "comparison_noskip_ms")
			b.ReportMetric(variants[2].cmp/n, "comparison_keyed_ms")
			b.ReportMetric(apply/n, "application_ms")
			b.ReportMetric(pub/n, "publication_ms")
		})
	}
}
