package main

import (
	"context"
	"fmt"
	"io/fs"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
		"the file, storing new blocks, the catalog transaction). New bytes are what the snapshot added to the block store: "+
		"the blocks it had to store, zstd-compressed, as they are on disk; the "+
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
	small, err := b.smallSnapshots(ctx, s, c)
	if err != nil {
		return w.String(), err
	}
	out = append(out, []string{"UPDATE 1 row of a 3-row table (database `small`)", fmtMs(small.time), fmtBytes(small.newBytes),
		fmt.Sprintf("%.2f%%", 100*small.newBytes/small.total)})
	w.WriteString(table([]string{"change before the snapshot", "snapshot time", "new bytes", "of the file"}, out))
	fmt.Fprintf(&w, "\nThe 3-row table's file is %s; the block store grew by %s per snapshot of one changed row "+
		"(median; the store's size on disk measured around each snapshot, a check of new_bytes).\n",
		fmtBytes(small.total), fmtBytes(small.grown))
	b.goal("snapshot after changing 1 row of a 3-row table: new bytes", "≤ 32 KiB", fmtBytes(small.newBytes), small.newBytes <= 32<<10)
	upd := median(fracs[0])
	b.goal(fmt.Sprintf("snapshot after %s of a %s-row table: new bytes ÷ file", changes[0].name, fmtCount(rows)), "≤ 1.5%",
		fmt.Sprintf("%.2f%% (%s)", upd, fmtBytes(median(news[0]))), upd <= 1.5)
	d, _, _, err := snapshot(ctx, c)
	if err != nil {
		return w.String(), err
	}
	fmt.Fprintf(&w, "\nThe file was %s at the end. A snapshot of an unchanged branch, for reference: %s (one run).\n", fmtBytes(float64(total)), fmtMs(ms(d)))
	if st, err := b.storeSize(ctx, s); err == nil {
		fmt.Fprintf(&w, "\nThe block store after the figures above (`vsqld verify`, beside the running server): %d blocks, "+
			"%s on disk for %s of block content (%.1f× smaller).\n", st.blocks, fmtBytes(st.onDisk), fmtBytes(st.content), st.content/st.onDisk)
	} else {
		fmt.Fprintf(&w, "\nThe block store's size could not be read: `%s`.\n", oneLine(err.Error()))
	}
	if err := b.scaleSnapshots(ctx, &w, s, c); err != nil {
		return w.String(), err
	}
	if hwm, err := peak(s.pid()); err == nil {
		fmt.Fprintf(&w, "\nPeak memory of vsqld (VmHWM) over this section (before the next subsection's own vsqld): %s.\n", fmtBytes(float64(hwm)))
	}
	if err := b.tenTables(ctx, &w); err != nil {
		return w.String(), err
	}
	return w.String(), nil
}

// smallRun is the median snapshot of one changed row of a 3-row table.
type smallRun struct {
	time                   float64 // ms
	newBytes, grown, total float64
}

// smallSnapshots measures, in database small of s, snapshots after one
// changed row of a 3-row table: new_bytes and the block store's growth on
// disk.
func (b *bench) smallSnapshots(ctx context.Context, s *server, c *pgx.Conn) (smallRun, error) {
	var r smallRun
	if err := execAll(ctx, c, "CREATE DATABASE small"); err != nil {
		return r, err
	}
	sc, err := s.connect(ctx, "small")
	if err != nil {
		return r, err
	}
	defer sc.Close(ctx)
	if err := execAll(ctx, sc, "CREATE TABLE t (id integer PRIMARY KEY, v text)", "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"SELECT * FROM vsql_create_snapshot()"); err != nil {
		return r, err
	}
	blocks := filepath.Join(s.data, "blocks")
	var times, news, grown []float64
	for run := 0; run <= b.cfg.runs; run++ { // run 0 is the warm-up
		if err := execAll(ctx, sc, fmt.Sprintf("UPDATE t SET v = 'r%d' WHERE id = %d", run, 1+run%3)); err != nil {
			return r, err
		}
		before, err := dirSize(blocks)
		if err != nil {
			return r, err
		}
		d, nb, tb, err := snapshot(ctx, sc)
		if err != nil {
			return r, err
		}
		after, err := dirSize(blocks)
		if err != nil {
			return r, err
		}
		if run > 0 {
			times, news, grown = append(times, ms(d)), append(news, float64(nb)), append(grown, float64(after-before))
			r.total = float64(tb)
		}
	}
	r.time, r.newBytes, r.grown = median(times), median(news), median(grown)
	return r, nil
}

// dirSize is the size of the files under dir.
func dirSize(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return nil
	})
	return n, err
}

// storeStats is what vsqld verify says of a block store.
type storeStats struct {
	blocks          int
	onDisk, content float64
}

var verifyLine = regexp.MustCompile(`verify: (\d+) blocks \((\d+) bytes on disk, (\d+) bytes of content\)`)

// storeSize runs vsqld verify on s's repository (it only reads, beside the
// server) and reads the block store's size on disk and of content.
func (b *bench) storeSize(ctx context.Context, s *server) (storeStats, error) {
	var st storeStats
	out, err := exec.CommandContext(ctx, b.bin, "verify", "--data", s.data).CombinedOutput()
	m := verifyLine.FindSubmatch(out)
	if err != nil || m == nil {
		return st, fmt.Errorf("vsqld verify: %v: %s", err, out)
	}
	st.blocks, _ = strconv.Atoi(string(m[1]))
	onDisk, _ := strconv.ParseInt(string(m[2]), 10, 64)
	content, _ := strconv.ParseInt(string(m[3]), 10, 64)
	st.onDisk, st.content = float64(onDisk), float64(content)
	return st, nil
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

// scaleChange is one change made to the rows-row and the 10×rows-row table
// alike before a snapshot of each.
type scaleChange struct {
	name string
	sql  func(rows, run int) string
}

var scaleChanges = []scaleChange{
	{"UPDATE 100 clustered rows", func(rows, r int) string {
		lo := (r * 7919 * 100) % (rows - 100)
		return fmt.Sprintf("UPDATE orders SET status = 'paid %d' WHERE order_id BETWEEN %d AND %d", r, lo, lo+99)
	}},
	{"UPDATE 100 scattered rows", func(rows, r int) string {
		return fmt.Sprintf("UPDATE orders SET status = 'paid %d' WHERE order_id %% %d = %d", r, rows/100, r)
	}},
	{"nothing (an unchanged branch)", nil},
}

// scaleSnapshots measures, in databases s1 and s10 of s (an orders table
// of rows and of 10×rows rows), the snapshot after the same change,
// alternating the two databases run by run. It writes a table and sets the
// goal of the clustered UPDATE.
func (b *bench) scaleSnapshots(ctx context.Context, w *strings.Builder, s *server, c *pgx.Conn) error {
	rows := b.cfg.snapRows
	sizes := []int{rows, 10 * rows}
	names := []string{"s1", "s10"}
	fmt.Fprintf(w, "\n### Snapshot time and the file's size\n\nTwo more databases, `s1` with a %s-row and `s10` with a %s-row `orders` table "+
		"(built with one `INSERT … SELECT … FROM range(n)`, then snapshotted). Each run makes the same change to both and times "+
		"`vsql_create_snapshot()` on each, the two databases alternating; the ratio is the median of the per-run ratios. "+
		"Clustered rows are 100 consecutive keys (one row group); scattered rows are every (n/100)-th key, so they touch every "+
		"row group of either table (%d and %d row groups of 122,880 rows).\n\n",
		fmtCount(sizes[0]), fmtCount(sizes[1]), (sizes[0]+122879)/122880, (sizes[1]+122879)/122880)
	conns := make([]*pgx.Conn, 2)
	files := make([]int64, 2)
	for i, db := range names {
		start := time.Now()
		if err := execAll(ctx, c, "CREATE DATABASE "+db); err != nil {
			return err
		}
		dc, err := s.connect(ctx, db)
		if err != nil {
			return err
		}
		defer dc.Close(ctx)
		conns[i] = dc
		if err := execAll(ctx, dc, fmt.Sprintf(ordersDDL, "orders"), ordersInsert("orders", sizes[i])); err != nil {
			return err
		}
		if _, _, files[i], err = snapshot(ctx, dc); err != nil {
			return err
		}
		b.cfg.logf("built %s (%s rows, %s) in %v", db, fmtCount(sizes[i]), fmtBytes(float64(files[i])), time.Since(start).Round(time.Millisecond))
	}
	// Per change and database: DuckDB's CHECKPOINT alone, then vsql's
	// snapshot of the checkpointed file, and their sum.
	var ckpt, own, total [][2][]float64
	for range scaleChanges {
		ckpt, own, total = append(ckpt, [2][]float64{}), append(own, [2][]float64{}), append(total, [2][]float64{})
	}
	newBytes := make([][2][]float64, len(scaleChanges))
	ratios := make([][]float64, len(scaleChanges))
	ownRatios := make([][]float64, len(scaleChanges))
	for run := 0; run <= b.cfg.runs; run++ { // run 0 is the warm-up
		for k, ch := range scaleChanges {
			var t, o [2]float64
			for i := range names {
				if ch.sql != nil {
					if err := execAll(ctx, conns[i], ch.sql(sizes[i], run+1)); err != nil {
						return err
					}
				}
				cd, err := timed(func() error { return execAll(ctx, conns[i], "CHECKPOINT") })
				if err != nil {
					return err
				}
				d, nb, tb, err := snapshot(ctx, conns[i])
				if err != nil {
					return err
				}
				t[i], o[i], files[i] = ms(cd)+ms(d), ms(d), tb
				if run > 0 {
					newBytes[k][i] = append(newBytes[k][i], float64(nb))
					ckpt[k][i] = append(ckpt[k][i], ms(cd))
					own[k][i] = append(own[k][i], ms(d))
					total[k][i] = append(total[k][i], t[i])
				}
			}
			if run > 0 {
				ratios[k] = append(ratios[k], t[1]/t[0])
				ownRatios[k] = append(ownRatios[k], o[1]/o[0])
			}
		}
	}
	var out [][]string
	for k, ch := range scaleChanges {
		for i := range names {
			ratio, ownRatio := "", ""
			if i == 1 {
				ratio, ownRatio = fmt.Sprintf("%.2f×", median(ratios[k])), fmt.Sprintf("%.2f×", median(ownRatios[k]))
			}
			out = append(out, []string{ch.name, fmtCount(sizes[i]), fmtMs(median(ckpt[k][i])), fmtMs(median(own[k][i])),
				fmtMs(median(total[k][i])), ratio, ownRatio, fmtBytes(median(newBytes[k][i]))})
		}
	}
	w.WriteString("Each run times DuckDB's `CHECKPOINT` of the branch first, then `vsql_create_snapshot()` (whose own checkpoint " +
		"then finds nothing to write): the first is DuckDB writing the change into its file, the second is vsql's part " +
		"(the pre-check over the file, hashing, compressing and storing the new blocks, the catalog transaction). A snapshot " +
		"without the separate CHECKPOINT costs their sum.\n\n")
	w.WriteString(table([]string{"change before the snapshot", "rows", "DuckDB CHECKPOINT", "vsql snapshot", "sum",
		"sum ÷ smaller table's", "vsql's part ÷ smaller table's", "new bytes"}, out))
	fmt.Fprintf(w, "\nThe files were %s and %s at the end. A scattered change is not the same change in the two tables in "+
		"storage terms: its 100 rows fall into every row group of either table, and DuckDB's checkpoint rewrites the changed "+
		"column's segments of each row group it touches (decompressing, re-analysing and recompressing 122,880 values per "+
		"row group), so the larger table's CHECKPOINT does about ten times the work. vsql's own part stores only the blocks "+
		"that changed, but its pre-check still reads the whole file (two readers, xxh3 per block), which is most of it "+
		"on the larger file (see the unchanged branch). The goal is stated for the clustered change, which is the same change in both.\n",
		fmtBytes(float64(files[0])), fmtBytes(float64(files[1])))
	r := median(ratios[0])
	b.goal(fmt.Sprintf("snapshot after %s: %s-row table ÷ %s-row table", scaleChanges[0].name, fmtCount(sizes[1]), fmtCount(sizes[0])),
		"≤ 2×", fmt.Sprintf("%.2f× (%s vs %s; scattered rows: %.2f×, vsql's part of it %.2f×)", r, fmtMs(median(total[0][1])),
			fmtMs(median(total[0][0])), median(ratios[1]), median(ownRatios[1])), r <= 2)
	return nil
}

// tenTables measures, in a repository of its own, the block store after 20
// snapshots of one changed row each in a database of 10 small tables: on
// disk (compressed) against its content (what the raw store of versions
// before compression held: the same blocks, one raw file each).
func (b *bench) tenTables(ctx context.Context, w *strings.Builder) error {
	const tables, snaps, rows = 10, 20, 10_000
	fmt.Fprintf(w, "\n### A repository of %d small tables after %d small snapshots\n\nA repository of its own (a fresh vsqld): database `ten` "+
		"with %d `orders` tables of %s rows each, snapshotted once; then %d times: `UPDATE` one row of one table (the tables in "+
		"turn) and `vsql_create_snapshot()`. The block store is then measured two ways: the bytes of its files on disk (the "+
		"blocks zstd-compressed, as stored today), and `vsqld verify`'s bytes of block content, which is what the raw store "+
		"(one uncompressed file per block, before compression) holds for the same blocks.\n\n",
		tables, snaps, tables, fmtCount(rows), snaps)
	s, c, done, err := b.startConnected(ctx)
	if err != nil {
		return err
	}
	defer done()
	if err := execAll(ctx, c, "CREATE DATABASE ten"); err != nil {
		return err
	}
	tc, err := s.connect(ctx, "ten")
	if err != nil {
		return err
	}
	defer tc.Close(ctx)
	for i := range tables {
		t := fmt.Sprintf("t%d", i)
		if err := execAll(ctx, tc, fmt.Sprintf(ordersDDL, t), ordersInsert(t, rows)); err != nil {
			return err
		}
	}
	if err := execAll(ctx, tc, "SELECT * FROM vsql_create_snapshot()"); err != nil {
		return err
	}
	var newBytes int64
	for i := range snaps {
		if err := execAll(ctx, tc, fmt.Sprintf("UPDATE t%d SET status = 'paid %d' WHERE order_id = %d", i%tables, i, (i*7919)%rows)); err != nil {
			return err
		}
		_, nb, _, err := snapshot(ctx, tc)
		if err != nil {
			return err
		}
		newBytes += nb
	}
	onDisk, err := dirSize(filepath.Join(s.data, "blocks"))
	if err != nil {
		return err
	}
	st, err := b.storeSize(ctx, s)
	if err != nil {
		return err
	}
	frac := 100 * float64(onDisk) / st.content
	w.WriteString(table([]string{"block store", "blocks", "bytes"}, [][]string{
		{"on disk, compressed (files under blocks/)", strconv.Itoa(st.blocks), fmtBytes(float64(onDisk))},
		{"on disk, compressed (`vsqld verify`)", strconv.Itoa(st.blocks), fmtBytes(st.onDisk)},
		{"content: the raw store before compression (`vsqld verify`)", strconv.Itoa(st.blocks), fmtBytes(st.content)},
	}))
	fmt.Fprintf(w, "\nCompressed ÷ raw: %.2f%%. The %d snapshots after the first reported %s of new_bytes in all.\n", frac, snaps, fmtBytes(float64(newBytes)))
	b.goal(fmt.Sprintf("%d-table repository after %d small snapshots: block store on disk ÷ the raw store", tables, snaps), "≤ 25%",
		fmt.Sprintf("%.2f%% (%s vs %s)", frac, fmtBytes(float64(onDisk)), fmtBytes(st.content)), frac <= 25)
	return nil
}
