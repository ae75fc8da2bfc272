package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

func snapshot(ctx context.Context, c *pgx.Conn) (d time.Duration, newBytes, totalBytes int64, err error) {
	d, err = timed(func() error {
		return c.QueryRow(ctx, "SELECT new_bytes, total_bytes FROM vsql_create_snapshot()").Scan(&newBytes, &totalBytes)
	})
	return
}

func (b *bench) snapshotSection(ctx context.Context) (string, error) {
	cfg := b.cfg
	rows := cfg.snapRows
	n := 100
	stride := rows / n
	var w strings.Builder
	w.WriteString("## Snapshots\n\n" + b.commandLine("snapshot"))
	fmt.Fprintf(&w, "A %s-row `orders` table (as in Merges), snapshotted once. Then each run changes %d rows and times "+
		"`SELECT new_bytes, total_bytes FROM vsql_create_snapshot()` from the client (checkpoint, chunking and hashing "+
		"the file, storing new blocks, the catalog transaction). New bytes are the blocks the snapshot had to store; the "+
		"fraction is new_bytes ÷ total_bytes, the size of the file. Scattered rows are every %s-th key; clustered rows are "+
		"%d consecutive keys. Each run uses other rows than the last.\n\n", fmtCount(rows), n, fmtCount(stride), n)
	s, c, done, err := b.startConnected(ctx)
	if err != nil {
		return w.String(), err
	}
	defer done()
	if err := execAll(ctx, c, fmt.Sprintf(ordersDDL, "orders"), ordersInsert("orders", rows), "SELECT * FROM vsql_create_snapshot()"); err != nil {
		return w.String(), err
	}
	type change struct {
		name string
		sql  func(run int) string
	}
	// Runs use offsets 1, 2, … so no change repeats an earlier one.
	changes := []change{
		{"UPDATE 100 scattered rows", func(r int) string {
			return fmt.Sprintf("UPDATE orders SET status = 'paid %d' WHERE order_id %% %d = %d", r, stride, r)
		}},
		{"UPDATE 100 clustered rows", func(r int) string {
			lo := (r * 7919 * n) % (rows - n)
			return fmt.Sprintf("UPDATE orders SET status = 'paid %d' WHERE order_id BETWEEN %d AND %d", r, lo, lo+n-1)
		}},
		{"INSERT 100 rows (new keys)", func(r int) string {
			return fmt.Sprintf("INSERT INTO orders SELECT range, 'new', 1.00, 'open' FROM range(%d, %d)", rows+r*n, rows+(r+1)*n)
		}},
		{"DELETE 100 scattered rows", func(r int) string {
			return fmt.Sprintf("DELETE FROM orders WHERE order_id < %d AND order_id %% %d = %d", rows, stride, stride/2+r)
		}},
		{"DELETE 100 clustered rows", func(r int) string {
			lo := (r*104729*n + rows/2) % (rows - n)
			return fmt.Sprintf("DELETE FROM orders WHERE order_id BETWEEN %d AND %d", lo, lo+n-1)
		}},
	}
	times := make([][]float64, len(changes))
	news := make([][]float64, len(changes))
	fracs := make([][]float64, len(changes))
	var total int64
	for run := 0; run <= cfg.runs; run++ { // run 0 is the warm-up
		for i, ch := range changes {
			if err := execAll(ctx, c, ch.sql(run+1)); err != nil {
				return w.String(), err
			}
			d, nb, tb, err := snapshot(ctx, c)
			if err != nil {
				return w.String(), err
			}
			if run == 0 {
				continue
			}
			total = tb
			times[i] = append(times[i], ms(d))
			news[i] = append(news[i], float64(nb))
			fracs[i] = append(fracs[i], 100*float64(nb)/float64(tb))
		}
	}
	var out [][]string
	for i, ch := range changes {
		out = append(out, []string{ch.name, fmtMs(median(times[i])), fmtBytes(median(news[i])), fmt.Sprintf("%.2f%%", median(fracs[i]))})
	}
	w.WriteString(table([]string{"change before the snapshot", "snapshot time", "new bytes", "of the file"}, out))
	d, _, _, err := snapshot(ctx, c)
	if err != nil {
		return w.String(), err
	}
	fmt.Fprintf(&w, "\nThe file was %s at the end. A snapshot of an unchanged branch, for reference: %s (one run).\n", fmtBytes(float64(total)), fmtMs(ms(d)))
	if hwm, err := peak(s.pid()); err == nil {
		fmt.Fprintf(&w, "\nPeak memory of vsqld (VmHWM) over this section: %s.\n", fmtBytes(float64(hwm)))
	}
	return w.String(), nil
}

func (b *bench) branchSection(ctx context.Context) (string, error) {
	cfg := b.cfg
	rows := cfg.snapRows
	var w strings.Builder
	w.WriteString("## Branches and time travel\n\n" + b.commandLine("branch"))
	fmt.Fprintf(&w, "A %s-row `orders` table (as in Merges) and %d snapshots of it (100 rows updated between them), so that "+
		"each run reads a snapshot no session has read yet. Each run, timed from the client:\n\n"+
		"- creation: `SELECT * FROM vsql_create_branch(NULL, 'b<run>')` on an open connection;\n"+
		"- first attach of the branch: connect with dbname `postgres/b<run>` and run `SELECT count(*) FROM orders` "+
		"(the first session materializes the branch's file from the snapshot's blocks);\n"+
		"- time travel, first attach: connect with dbname `postgres@<n>`, a snapshot not read before, and the same query "+
		"(builds its image in cache/ from blocks, each verified);\n"+
		"- time travel, cached: the same again on that snapshot (the image exists);\n"+
		"- for reference, connect to `postgres` (main, attached) and the same query.\n\n", fmtCount(rows), cfg.runs+2)
	s, c, done, err := b.startConnected(ctx)
	if err != nil {
		return w.String(), err
	}
	defer done()
	if err := execAll(ctx, c, fmt.Sprintf(ordersDDL, "orders"), ordersInsert("orders", rows)); err != nil {
		return w.String(), err
	}
	for i := 0; i < cfg.runs+2; i++ {
		if err := execAll(ctx, c, fmt.Sprintf("UPDATE orders SET status = 's%d' WHERE order_id %% %d = %d", i, rows/100, i),
			"SELECT * FROM vsql_create_snapshot()"); err != nil {
			return w.String(), err
		}
	}
	query := func(db string) (float64, error) {
		d, err := timed(func() error {
			cc, err := s.connect(ctx, db)
			if err != nil {
				return err
			}
			defer cc.Close(ctx)
			var n int64
			return cc.QueryRow(ctx, "SELECT count(*) FROM orders").Scan(&n)
		})
		return ms(d), err
	}
	var create, first, travel, cached, plain []float64
	for run := 0; run <= cfg.runs; run++ { // run 0 is the warm-up
		d, err := timed(func() error {
			return execAll(ctx, c, fmt.Sprintf("SELECT * FROM vsql_create_branch(NULL, 'b%d')", run))
		})
		if err != nil {
			return w.String(), err
		}
		f, err := query(fmt.Sprintf("postgres/b%d", run))
		if err != nil {
			return w.String(), err
		}
		snap := fmt.Sprintf("postgres@%d", run+1)
		t, err := query(snap)
		if err != nil {
			return w.String(), err
		}
		tc, err := query(snap)
		if err != nil {
			return w.String(), err
		}
		p, err := query("postgres")
		if err != nil {
			return w.String(), err
		}
		if run > 0 {
			create, first, travel, cached, plain = append(create, ms(d)), append(first, f), append(travel, t), append(cached, tc), append(plain, p)
		}
	}
	w.WriteString(table([]string{"operation", "time"}, [][]string{
		{"`vsql_create_branch`", fmtMs(median(create))},
		{"first attach of the branch (connect + `count(*)`)", fmtMs(median(first))},
		{"time travel `postgres@<n>`, first attach (connect + `count(*)`)", fmtMs(median(travel))},
		{"time travel `postgres@<n>`, image cached (connect + `count(*)`)", fmtMs(median(cached))},
		{"main, attached (connect + `count(*)`)", fmtMs(median(plain))},
	}))
	if hwm, err := peak(s.pid()); err == nil {
		fmt.Fprintf(&w, "\nPeak memory of vsqld (VmHWM) over this section: %s.\n", fmtBytes(float64(hwm)))
	}
	return w.String(), nil
}
