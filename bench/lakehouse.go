package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// lakeCatalog is the SQLite file of a local warehouse's Iceberg SQL
// catalog; with its -wal and -shm it is not counted as written files.
const lakeCatalog = "vsql_catalog.sqlite"

// lakeFiles is a warehouse directory's files (path → size), without the
// SQLite catalog.
type lakeFiles map[string]int64

// walkLake lists the files under dir, the SQLite catalog apart: catalog is
// the size of vsql_catalog.sqlite and its -wal and -shm.
func walkLake(dir string) (files lakeFiles, catalog int64, err error) {
	files = lakeFiles{}
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil // removed while walking (a staging file of iceberg-go)
		}
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), lakeCatalog) {
			catalog += info.Size()
			return nil
		}
		files[path] = info.Size()
		return nil
	})
	return files, catalog, err
}

// lakeWrite is what one export added to the warehouse, by kind of file.
type lakeWrite struct {
	data, deletes, manifests, metadata, other float64
	files, metadataFiles                      int
}

func (lw lakeWrite) total() float64 {
	return lw.data + lw.deletes + lw.manifests + lw.metadata + lw.other
}

// newFiles classifies the files of after that are not in before (or
// whose size changed).
func newFiles(before, after lakeFiles) lakeWrite {
	var lw lakeWrite
	for path, size := range after {
		if old, ok := before[path]; ok && old == size {
			continue
		}
		lw.files++
		name := filepath.Base(path)
		v := float64(size)
		switch {
		case strings.HasSuffix(name, ".parquet") && strings.Contains(name, "-eq-deletes-"):
			lw.deletes += v
		case strings.HasSuffix(name, ".parquet"):
			lw.data += v
		case strings.HasSuffix(name, ".avro"):
			lw.manifests += v
		case strings.HasSuffix(name, ".metadata.json"):
			lw.metadata += v
			lw.metadataFiles++
		default:
			lw.other += v
		}
	}
	return lw
}

// lakeLagQuery is the poll of the export's progress.
const lakeLagQuery = "SELECT max(lag), coalesce(max(last_error), '') FROM vsql_lakehouse_status()"

// pollEvery is how often the export's progress is polled.
var pollEvery = 2 * time.Millisecond

// newestMetadata is the newest NNNNN-<uuid>.metadata.json file in dir.
func newestMetadata(dir string) (string, error) {
	es, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	newest := ""
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".metadata.json") && e.Name() > newest {
			newest = e.Name()
		}
	}
	if newest == "" {
		return "", fmt.Errorf("no metadata.json in %s", dir)
	}
	return filepath.Join(dir, newest), nil
}

// onMain reports whether the metadata file's main branch is the Iceberg
// snapshot id and the export's working branch is gone: the export's last
// commit (the references) is written and readers of main see the snapshot.
func onMain(metadata string, id int64) (bool, error) {
	b, err := os.ReadFile(metadata)
	if err != nil {
		return false, err
	}
	var m struct {
		Refs map[string]struct {
			SnapshotID int64 `json:"snapshot-id"`
		} `json:"refs"`
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return false, nil // being written
	}
	_, working := m.Refs["vsql-export"]
	return m.Refs["main"].SnapshotID == id && !working, nil
}

// waitExport polls vsql_lakehouse_status every pollEvery from start until
// the lag is 0 (exported: the time the goal is stated for). Then it reads
// the Iceberg snapshot that holds orders now, and watches the table's
// metadata directory until the newest metadata file has Iceberg's main
// branch there (visible to readers of main). An export error ends the
// wait.
func waitExport(ctx context.Context, c *pgx.Conn, metadataDir string, start time.Time) (exported, visible time.Duration, err error) {
	deadline := start.Add(10 * time.Minute)
	pause := func() error {
		if time.Now().After(deadline) {
			return errors.New("the lakehouse export did not finish in 10 minutes")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pollEvery):
			return nil
		}
	}
	for {
		var lag int64
		var lastErr string
		if err := c.QueryRow(ctx, lakeLagQuery).Scan(&lag, &lastErr); err != nil {
			return 0, 0, err
		}
		if lastErr != "" {
			return 0, 0, fmt.Errorf("lakehouse export failed: %s", lastErr)
		}
		if lag == 0 {
			exported = time.Since(start)
			break
		}
		if err := pause(); err != nil {
			return 0, 0, err
		}
	}
	var id int64
	if err := c.QueryRow(ctx, "SELECT iceberg_snapshot_id FROM vsql_lakehouse_status() WHERE table_name = 'orders'").Scan(&id); err != nil {
		return 0, 0, err
	}
	for {
		md, err := newestMetadata(metadataDir)
		if err != nil {
			return 0, 0, err
		}
		ok, err := onMain(md, id)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, 0, err
		}
		if ok {
			return exported, time.Since(start), nil
		}
		if err := pause(); err != nil {
			return 0, 0, err
		}
	}
}

// lakeRun is one measured change: the snapshot, its export and what the
// export wrote.
type lakeRun struct {
	snapshot, exported, visible float64 // ms
	written                     lakeWrite
	catalog                     float64 // the SQLite catalog's growth
}

func (b *bench) lakehouseSection(ctx context.Context) (string, error) {
	cfg := b.cfg
	rows := cfg.snapRows
	const n = 100
	stride := rows / n
	var w strings.Builder
	w.WriteString("## Lakehouse: Iceberg export\n\n" + b.commandLine("lakehouse"))
	s, c, done, err := b.startConnected(ctx)
	if err != nil {
		return w.String(), err
	}
	defer done()
	lake, err := os.MkdirTemp(b.tmp, "lake-")
	if err != nil {
		return w.String(), err
	}
	setup := []string{
		fmt.Sprintf(ordersDDL, "orders"),
		ordersInsert("orders", rows),
		fmt.Sprintf("SELECT * FROM vsql_set_lakehouse(NULL, '%s')", lake),
		"SELECT * FROM vsql_create_snapshot()",
	}
	fmt.Fprintf(&w, "A vsqld of its own; in database `postgres`, a %s-row `orders` table (as in Merges) and a lakehouse in a fresh "+
		"temporary directory, then a first snapshot, whose export writes the whole table:\n\n", fmtCount(rows))
	shown := append([]string(nil), setup...)
	shown[2] = "SELECT * FROM vsql_set_lakehouse(NULL, '/tmp/…/lake-…')"
	w.WriteString(codeBlock("sql", strings.Join(shown, ";\n")+";"))
	fmt.Fprintf(&w, "\nThen each run changes %d scattered rows, `UPDATE orders SET status = 'paid <run>' WHERE order_id %% %d = <run>` "+
		"(other rows each run), and times from the client:\n\n"+
		"- **snapshot**: `SELECT * FROM vsql_create_snapshot()`, the vsql snapshot of the change;\n"+
		"- **export**: from when that call returned until `SELECT max(lag) … FROM vsql_lakehouse_status()`, polled every 2 ms on "+
		"the same connection, shows 0 (the export runs in the background, kicked by the snapshot: it attaches the snapshot and its "+
		"parent, compares them (row by row, a POSITIONAL JOIN, when no row moved, and only the columns whose storage signatures "+
		"differ, here `status`; else a FULL JOIN on the key), writes the changed rows and the old keys as Parquet, and commits one "+
		"Iceberg snapshot through iceberg-go and the SQLite catalog);\n"+
		"- **on Iceberg main**: until the newest `metadata.json` in the table's metadata directory has Iceberg's `main` branch at "+
		"the Iceberg snapshot the status then names for the table (`iceberg_snapshot_id`): the export's last step, which moves "+
		"the references after recording the export, after which a reader of the warehouse sees the change.\n\n"+
		"Bytes written are the files of the warehouse directory that are new after the export (listed before the `UPDATE` "+
		"and after the export is on main): the data file of new and changed rows, the equality-delete file of the old keys, "+
		"manifests and manifest lists (`.avro`) and the table's new `metadata.json` files. The SQLite catalog "+
		"(`%s` and its `-wal`, `-shm`) is not counted; its growth is its own column. The table's Parquet size is the "+
		"size of the data file(s) the first, full export wrote for the table (the files under `postgres.db/orders/data/` after "+
		"it), and the fraction is bytes written ÷ that size.\n\n", n, stride, lakeCatalog)
	if err := execAll(ctx, c, setup[:len(setup)-1]...); err != nil {
		return w.String(), err
	}
	if err := execAll(ctx, c, setup[len(setup)-1]); err != nil {
		return w.String(), err
	}
	tableDir := filepath.Join(lake, "postgres.db", "orders")
	metadataDir := filepath.Join(tableDir, "metadata")
	_, initial, err := waitExport(ctx, c, metadataDir, time.Now())
	if err != nil {
		return w.String(), err
	}
	dataDir := filepath.Join(tableDir, "data")
	tableFiles, _, err := walkLake(dataDir)
	if err != nil {
		return w.String(), fmt.Errorf("the first export's data files: %w", err)
	}
	var parquet float64
	for _, size := range tableFiles {
		parquet += float64(size)
	}
	if parquet == 0 {
		return w.String(), fmt.Errorf("the first export wrote no data file under %s", dataDir)
	}
	var runs []lakeRun
	var statusTimes []float64
	one := func(run int) (lakeRun, error) {
		var r lakeRun
		before, cat0, err := walkLake(lake)
		if err != nil {
			return r, err
		}
		if err := execAll(ctx, c, fmt.Sprintf("UPDATE orders SET status = 'paid %d' WHERE order_id %% %d = %d", run, stride, run)); err != nil {
			return r, err
		}
		d, _, _, err := snapshot(ctx, c)
		if err != nil {
			return r, err
		}
		exp, vis, err := waitExport(ctx, c, metadataDir, time.Now())
		if err != nil {
			return r, err
		}
		after, cat1, err := walkLake(lake)
		if err != nil {
			return r, err
		}
		r.snapshot, r.exported, r.visible = ms(d), ms(exp), ms(vis)
		r.written, r.catalog = newFiles(before, after), float64(cat1-cat0)
		// One status query with nothing to wait for: the cost of a poll.
		st, err := timed(func() error { return execAll(ctx, c, lakeLagQuery) })
		if err != nil {
			return r, err
		}
		statusTimes = append(statusTimes, ms(st))
		return r, nil
	}
	for run := 0; run <= cfg.runs; run++ { // run 0 is the warm-up
		r, err := one(run + 1)
		if err != nil {
			return w.String(), err
		}
		if run > 0 {
			runs = append(runs, r)
		}
	}
	var snaps, exps, viss, expRatios, visRatios, totals, fracs, datas, dels, mans, metas, cats []float64
	var out [][]string
	for i, r := range runs {
		tot := r.written.total()
		snaps, exps, viss = append(snaps, r.snapshot), append(exps, r.exported), append(viss, r.visible)
		expRatios, visRatios = append(expRatios, r.exported/r.snapshot), append(visRatios, r.visible/r.snapshot)
		totals, fracs = append(totals, tot), append(fracs, 100*tot/parquet)
		datas, dels, mans, metas = append(datas, r.written.data), append(dels, r.written.deletes), append(mans, r.written.manifests), append(metas, r.written.metadata)
		cats = append(cats, r.catalog)
		out = append(out, []string{fmt.Sprint(i + 1), fmtMs(r.snapshot), fmtMs(r.exported), fmtMs(r.visible),
			fmt.Sprintf("%.2f×", r.exported/r.snapshot), fmtBytes(r.written.data), fmtBytes(r.written.deletes),
			fmtBytes(r.written.manifests), fmtBytes(r.written.metadata), fmt.Sprintf("%s (%d files)", fmtBytes(tot), r.written.files),
			fmt.Sprintf("%.2f%%", 100*tot/parquet), fmtSignedBytes(r.catalog)})
	}
	out = append(out, []string{"**median**", fmtMs(median(snaps)), fmtMs(median(exps)), fmtMs(median(viss)),
		fmt.Sprintf("%.2f×", median(expRatios)), fmtBytes(median(datas)), fmtBytes(median(dels)), fmtBytes(median(mans)),
		fmtBytes(median(metas)), fmtBytes(median(totals)), fmt.Sprintf("%.2f%%", median(fracs)), fmtSignedBytes(median(cats))})
	w.WriteString(table([]string{"run", "snapshot", "export (lag 0)", "on Iceberg main", "export ÷ snapshot", "data file",
		"equality deletes", "manifests (.avro)", "metadata.json", "written", "÷ table's Parquet", "SQLite catalog"}, out))
	fmt.Fprintf(&w, "\nThe table's Parquet size (the first export's data files): %s in %d file(s); the first, full export took %s "+
		"(snapshot returned → on Iceberg main). Ratios are medians of the per-run ratios; the export until on main ÷ the "+
		"snapshot: %.2f×. One poll, `%s`, takes %s (median, with nothing pending).\n",
		fmtBytes(parquet), len(tableFiles), fmtMs(ms(initial)), median(visRatios), lakeLagQuery, fmtMs(median(statusTimes)))

	last := runs[len(runs)-1].written
	fmt.Fprintf(&w, "\nEach export wrote %d `metadata.json` files (the export's working branch pointed at the parent's Iceberg "+
		"snapshot, the commit, the references moved), and each lists every Iceberg snapshot of the table so far: that part "+
		"grows with the table's history, from %s in run 1 to %s in run %d here (the first export and the warm-up run came "+
		"before run 1), while the data, delete and manifest files stay the size of the change.\n",
		last.metadataFiles, fmtBytes(runs[0].written.metadata), fmtBytes(last.metadata), len(runs))

	frac, ratio := median(fracs), median(expRatios)
	b.goal(fmt.Sprintf("lakehouse export after UPDATE %d scattered rows of a %s-row table: bytes written ÷ the table's Parquet size",
		n, fmtCount(rows)), "≤ 10%", fmt.Sprintf("%.2f%% (%s of %s)", frac, fmtBytes(median(totals)), fmtBytes(parquet)), frac <= 10)
	b.goal("lakehouse export of that change ÷ the vsql snapshot of it (time)", "≤ 2×",
		fmt.Sprintf("%.2f× (%s vs %s)", ratio, fmtMs(median(exps)), fmtMs(median(snaps))), ratio <= 2)
	if ratio > 2 {
		if err := b.lakeFloor(ctx, &w, s, c, median(snaps), median(exps)); err != nil {
			fmt.Fprintf(&w, "\nThe comparison could not be timed in DuckDB in this process: `%s`.\n", oneLine(err.Error()))
		}
		var pr *prof
		var r lakeRun
		pr = b.profile(ctx, s.pid(), "lakehouse", func() error {
			var err error
			r, err = one(cfg.runs + 2)
			return err
		})
		if pr.md != "" {
			fmt.Fprintf(&w, "\nThe CPU profile below covers one more run, its snapshot (%s) and its export (%s until lag 0, "+
				"%s until on Iceberg main) together. ",
				fmtMs(r.snapshot), fmtMs(r.exported), fmtMs(r.visible))
			if pr.ok {
				fmt.Fprintf(&w, "DuckDB's C++ code has %s of vsqld's own samples, Go's runtime %s, the kernel %s, other Go code "+
					"(iceberg-go, Arrow, SQLite's driver, the standard library) %s and vsql's Go code %s.\n",
					pr.share("DuckDB (C++)"), pr.share("Go runtime (GC, malloc, scheduler)"), pr.share("Linux kernel"),
					pr.share("other Go (stdlib, libraries)"), pr.share("vsql (Go)"))
			}
			w.WriteString(pr.md)
		}
	}
	if hwm, err := peak(s.pid()); err == nil {
		fmt.Fprintf(&w, "\nPeak memory of vsqld (VmHWM) over this section: %s.\n", fmtBytes(float64(hwm)))
	}
	return w.String(), nil
}

// fmtSignedBytes is fmtBytes with a sign ("+12 KiB", "−4 KiB", "0 B").
func fmtSignedBytes(v float64) string {
	switch {
	case v > 0:
		return "+" + fmtBytes(v)
	case v < 0:
		return "−" + fmtBytes(-v)
	}
	return "0 B"
}

// lakeCompare is the export's comparison of a keyed table with its
// parent's for this change (commitDelta and comparePositionally in
// lakehouse/export.go): no row moved and only status has other storage
// signatures, so the rows are compared position by position on the key
// and status; the keys of changed rows are written as Parquet.
func lakeCompare(parent, child, out string) string {
	return "COPY (SELECT s.order_id AS order_id, true AS __vsql_old, true AS __vsql_new, " +
		"(p.order_id IS DISTINCT FROM s.order_id) AS __vsql_moved FROM " + parent + ".main.orders p POSITIONAL JOIN " + child + ".main.orders s " +
		"WHERE (p.order_id IS DISTINCT FROM s.order_id) OR p.status IS DISTINCT FROM s.status) TO '" + out + "' (FORMAT parquet)"
}

// lakeFloor times the export's comparison query in DuckDB in this process,
// with no server, on copies of the images of the last two snapshots vsqld
// built for the export (cache/postgres/<id>.duckdb), attached READ_ONLY.
func (b *bench) lakeFloor(ctx context.Context, w *strings.Builder, s *server, c *pgx.Conn, snapMs, exportMs float64) error {
	var ids []int64
	rows, err := c.Query(ctx, "SELECT snapshot_id FROM vsql_snapshots() ORDER BY snapshot_id DESC LIMIT 2")
	if err != nil {
		return err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(ids) != 2 {
		return fmt.Errorf("%d snapshots", len(ids))
	}
	dir, err := os.MkdirTemp(b.tmp, "lakefloor-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var files [2]string // parent, child
	for i, id := range []int64{ids[1], ids[0]} {
		files[i] = filepath.Join(dir, fmt.Sprintf("%d.duckdb", id))
		if err := copyFile(filepath.Join(s.data, "cache", "postgres", fmt.Sprintf("%d.duckdb", id)), files[i]); err != nil {
			return err
		}
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	for i, alias := range []string{"p_in", "s_in"} {
		if _, err := conn.ExecContext(ctx, fmt.Sprintf("ATTACH '%s' AS %s (READ_ONLY)", files[i], alias)); err != nil {
			return err
		}
	}
	q := lakeCompare("p_in", "s_in", filepath.Join(dir, "changes.parquet"))
	var times []float64
	for run := 0; run <= b.cfg.runs; run++ { // run 0 is the warm-up
		d, err := timed(func() error { _, err := conn.ExecContext(ctx, q); return err })
		if err != nil {
			return fmt.Errorf("%s: %w", abbrev(q), err)
		}
		if run > 0 {
			times = append(times, ms(d))
		}
	}
	f := median(times)
	fmt.Fprintf(w, "\n**Where the time goes** (the time goal is missed in this run). The export's comparison alone, the POSITIONAL JOIN "+
		"of the parent's table with the new one that finds the changed keys (the query of `comparePositionally` in `lakehouse/export.go`), "+
		"run in DuckDB in this process with no server on copies of the two snapshot images vsqld built for the last export, "+
		"attached READ_ONLY, takes %s (median of %s, range %s): %.2f× the snapshot's median and %.0f%% of the export's. "+
		"The query:\n\n%s", fmtMs(f), plural(len(times), "run"), spread(times, "%.0f ms"), f/snapMs, 100*f/exportMs,
		codeBlock("sql", lakeCompare("parent", "snapshot", "changes.parquet")))
	return nil
}
