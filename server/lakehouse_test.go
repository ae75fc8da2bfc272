package server_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/iceberg-go/table"
	_ "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/internal/icebergread"
	"github.com/vsql/vsql/server"
)

// lakeRow is a row of vsql_lakehouse_snapshots.
type lakeRow struct {
	snapshot int64
	table    string
	iceberg  int64
	changed  bool
	skipped  string
}

func lakeSnapshots(t *testing.T, c *pgx.Conn) []lakeRow {
	t.Helper()
	rows, err := c.Query(context.Background(), "SELECT snapshot_id, table_name, coalesce(iceberg_snapshot_id, 0), changed, coalesce(not_exported_because, '') FROM vsql_lakehouse_snapshots()")
	if err != nil {
		t.Fatal(err)
	}
	var out []lakeRow
	for rows.Next() {
		var r lakeRow
		if err := rows.Scan(&r.snapshot, &r.table, &r.iceberg, &r.changed, &r.skipped); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// waitExported waits until vsql_lakehouse_status shows no lag and no
// error.
func waitExported(t *testing.T, c *pgx.Conn) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var lag int64
		var lastErr string
		if err := c.QueryRow(context.Background(), "SELECT max(lag), coalesce(max(last_error), '') FROM vsql_lakehouse_status()").Scan(&lag, &lastErr); err != nil {
			t.Fatal(err)
		}
		if lag == 0 && lastErr == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("export not finished: lag %d, last error %q", lag, lastErr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// jsonRows reads a table as sorted JSON objects, in UTC.
func jsonRows(t *testing.T, c *pgx.Conn, table string) []string {
	t.Helper()
	mustExec(t, c, "SET TimeZone = 'UTC'")
	rows, err := c.Query(context.Background(), "SELECT CAST(to_json(x) AS VARCHAR) FROM "+table+" x")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// parquetRows reads an Iceberg snapshot's rows with DuckDB from the files
// its manifests name: each data file less the keys of the equality-delete
// files iceberg-go's planner assigns to it.
func parquetRows(t *testing.T, duck *sql.DB, tasks []icebergread.Task, key []string) []string {
	t.Helper()
	var out []string
	for _, task := range tasks {
		if len(task.PositionDeletes) > 0 {
			t.Fatalf("vsql wrote position deletes for %s", task.Data)
		}
		q := "SELECT * FROM read_parquet(" + quote(local(task.Data)) + ") d"
		if len(task.EqualityDeletes) > 0 {
			var files, on []string
			for _, f := range task.EqualityDeletes {
				files = append(files, quote(local(f)))
			}
			for _, k := range key {
				on = append(on, "x."+k+" = d."+k)
			}
			q += " WHERE NOT EXISTS (SELECT 1 FROM read_parquet([" + strings.Join(files, ", ") + "]) x WHERE " + strings.Join(on, " AND ") + ")"
		}
		rows, err := duck.Query("SELECT CAST(to_json(x) AS VARCHAR) FROM (" + q + ") x")
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			out = append(out, s)
		}
		rows.Close()
	}
	sort.Strings(out)
	return out
}

func local(path string) string { return strings.TrimPrefix(path, "file://") }

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// keysOf reads the listed key fields out of JSON rows.
func keysOf(rows []string, key string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		j := strings.Index(r, `"`+key+`":`)
		out[i] = r[j : j+strings.IndexAny(r[j+len(key)+3:], ",}")+len(key)+3]
	}
	sort.Strings(out)
	return out
}

// TestLakehouseExport: a database with three tables (one without a
// primary key), snapshots on main, a named one per tag, a branch merged
// back. Every exported (snapshot, table) is read from the warehouse with
// iceberg-go's scanner and with DuckDB over the files the manifests name,
// and compared with vsql's rows of db@N; tags and branches too.
func TestLakehouseExport(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "lake")
	httpAddr := freeAddr(t)
	addr := startServer(t, func(c *server.Config) {
		c.LakehouseInterval = 100 * time.Millisecond
		c.HTTPListen = httpAddr
	})
	c := connectDB(t, addr, "postgres")

	// Bad input first: nothing is recorded.
	for _, bad := range []string{"relative/dir", "http://example.com/x", "s3://"} {
		_, err := c.Exec(ctx, "SELECT * FROM vsql_set_lakehouse(NULL, '"+bad+"')")
		if err == nil || !strings.Contains(err.Error(), "invalid_argument") {
			t.Fatalf("vsql_set_lakehouse(%q): %v", bad, err)
		}
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM vsql_lakehouse_status()").Scan(&n); err != nil || n != 0 {
		t.Fatalf("status without a lakehouse: %d rows, %v", n, err)
	}

	mustExec(t, c,
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, customer VARCHAR, amount DECIMAL(12,2), placed TIMESTAMPTZ, tags INTEGER[])",
		"CREATE TABLE items (sku VARCHAR PRIMARY KEY, qty SMALLINT, spec STRUCT(color VARCHAR, size INTEGER), photo BLOB, day DATE, ref UUID)",
		"INSERT INTO orders SELECT i, 'customer ' || i, i * 1.25, TIMESTAMPTZ '2026-01-01 00:00:00+00' + i * INTERVAL 1 HOUR, [i, i + 1] FROM range(1, 201) r(i)",
		"INSERT INTO items VALUES ('a', 1, {'color': 'red', 'size': 3}, '\\x0102'::BLOB, DATE '2026-02-03', 'c0ffee00-0000-4000-8000-000000000001'), ('b', 2, NULL, NULL, NULL, NULL)",
	)
	var url, catalogFile string
	if err := c.QueryRow(ctx, "SELECT lakehouse, catalog FROM vsql_set_lakehouse(NULL, '"+dir+"')").Scan(&url, &catalogFile); err != nil {
		t.Fatal(err)
	}
	if url != dir || catalogFile != filepath.Join(dir, "vsql_catalog.sqlite") {
		t.Fatalf("vsql_set_lakehouse: %q, %q", url, catalogFile)
	}
	mustExec(t, c,
		"SELECT * FROM vsql_create_snapshot(name => 'first')", // 1
		"UPDATE orders SET amount = amount + 1 WHERE id % 50 = 0",
		"DELETE FROM items WHERE sku = 'b'",
		"SELECT * FROM vsql_create_snapshot()", // 2
		"SELECT * FROM vsql_create_branch(NULL, 'side')",
	)
	side := connectDB(t, addr, "postgres/side")
	mustExec(t, side,
		"UPDATE orders SET customer = 'side ' || id WHERE id IN (2, 3)",
		"INSERT INTO orders VALUES (1000, 'new on side', 9.99, NULL, [])",
		"SELECT * FROM vsql_create_snapshot()", // 3, on side
	)
	mustExec(t, c,
		"UPDATE orders SET tags = [0] WHERE id = 7",
		"SELECT * FROM vsql_create_snapshot(name => 'v2')", // 4
		"INSERT INTO items VALUES ('c', 3, {'color': 'blue', 'size': NULL}, NULL, DATE '2026-05-06', NULL)",
		// As many rows as before, but not in place: the export cannot
		// compare row by row and joins on the key.
		"DELETE FROM orders WHERE id = 150",
		"INSERT INTO orders VALUES (5000, 'replacement', 1.00, NULL, NULL)",
		"SELECT * FROM vsql_create_snapshot()",                  // 5
		"SELECT * FROM vsql_merge_branch(NULL, 'main', 'side')", // 6
		// A table without a primary key (merges refuse those) is exported
		// whole whenever it changes.
		"CREATE TABLE events (kind VARCHAR, happened TIMESTAMP, n BIGINT)",
		"INSERT INTO events VALUES ('start', TIMESTAMP '2026-03-01 10:00:00', 1), ('stop', TIMESTAMP '2026-03-01 11:00:00', 2), ('stop', TIMESTAMP '2026-03-01 11:00:00', 2)",
		"DELETE FROM orders WHERE id BETWEEN 100 AND 110",
		"SELECT * FROM vsql_create_snapshot()", // 7
		"DELETE FROM events WHERE kind = 'start'",
		"SELECT * FROM vsql_create_snapshot()", // 8
	)
	waitExported(t, c)
	m := scrape(t, "http://"+httpAddr)
	if m[`vsql_lakehouse_exports_total{result="ok"}`] != 8 || m["vsql_lakehouse_export_seconds_count"] != 8 || m["vsql_lakehouse_lag_snapshots"] != 0 {
		t.Errorf("lakehouse metrics: exports %v, histogram count %v, lag %v", m[`vsql_lakehouse_exports_total{result="ok"}`],
			m["vsql_lakehouse_export_seconds_count"], m["vsql_lakehouse_lag_snapshots"])
	}

	r, err := icebergread.Open(catalogFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	duck, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	if _, err := duck.Exec("SET TimeZone = 'UTC'"); err != nil {
		t.Fatal(err)
	}
	keys := map[string][]string{"orders": {"id"}, "items": {"sku"}, "events": nil}
	lake := lakeSnapshots(t, c)
	seen := map[int64]int{}
	made := map[string]int{}
	for _, lr := range lake {
		seen[lr.snapshot]++
		if lr.skipped != "" || lr.iceberg == 0 {
			t.Fatalf("snapshot %d table %s not exported: %q", lr.snapshot, lr.table, lr.skipped)
		}
		if lr.changed {
			made[lr.table]++
		}
		tbl, err := r.Table(ctx, "postgres", lr.table)
		if err != nil {
			t.Fatal(err)
		}
		want := jsonRows(t, connectDB(t, addr, fmt.Sprintf("postgres@%d", lr.snapshot)), lr.table)
		scanned, err := icebergread.Rows(ctx, tbl, lr.iceberg, "")
		if err != nil {
			t.Fatalf("scan %s at %d: %v", lr.table, lr.iceberg, err)
		}
		if len(scanned) != len(want) {
			t.Fatalf("%s@%d: iceberg-go scanned %d rows, vsql has %d", lr.table, lr.snapshot, len(scanned), len(want))
		}
		if k := keys[lr.table]; k != nil {
			if got, exp := keysOf(scanned, k[0]), keysOf(want, k[0]); strings.Join(got, " ") != strings.Join(exp, " ") {
				t.Fatalf("%s@%d: iceberg-go keys %v, vsql %v", lr.table, lr.snapshot, got, exp)
			}
		}
		tasks, err := icebergread.Files(ctx, tbl, lr.iceberg)
		if err != nil {
			t.Fatal(err)
		}
		got := parquetRows(t, duck, tasks, keys[lr.table])
		t.Logf("%s@%d: Iceberg %d, changed %v, %d rows, %d data files", lr.table, lr.snapshot, lr.iceberg, lr.changed, len(got), len(tasks))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s@%d (Iceberg %d): DuckDB over the data files reads\n%s\nvsql has\n%s", lr.table, lr.snapshot, lr.iceberg,
				strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for id := int64(1); id <= 8; id++ {
		if want := map[bool]int{true: 3, false: 2}[id >= 7]; seen[id] != want {
			t.Fatalf("snapshot %d: %d tables exported, want %d", id, seen[id], want)
		}
	}
	// items did not change in 3 (side) nor 4 (v2): the same Iceberg
	// snapshot serves them; each table has one Iceberg snapshot per
	// change.
	for _, name := range []string{"orders", "items", "events"} {
		tbl, err := r.Table(ctx, "postgres", name)
		if err != nil {
			t.Fatal(err)
		}
		if got := len(tbl.Metadata().Snapshots()); got != made[name] {
			t.Fatalf("%s: %d Iceberg snapshots, %d vsql snapshots changed it", name, got, made[name])
		}
		for id := int64(1); id <= 8; id++ {
			if n := icebergread.SnapshotsOf(tbl, id); n > 1 {
				t.Fatalf("%s: %d Iceberg snapshots for vsql snapshot %d", name, n, id)
			}
		}
		refs := icebergread.Refs(tbl)
		t.Logf("%s: %d Iceberg snapshots, references %v", name, made[name], refs)
		want := map[string]string{"first": "postgres@1", "v2": "postgres@4", "main": "postgres", "side": "postgres/side"}
		if name == "events" {
			want = map[string]string{"main": "postgres"} // only on main, after the tags
		}
		for ref, at := range want {
			if !strings.HasPrefix(refs[ref], map[bool]string{true: "branch", false: "tag"}[ref == "main" || ref == "side"]) {
				t.Fatalf("%s: reference %s is %q (all: %v)", name, ref, refs[ref], refs)
			}
			scanned, err := icebergread.Rows(ctx, tbl, 0, ref)
			if err != nil {
				t.Fatal(err)
			}
			if want := jsonRows(t, connectDB(t, addr, at), name); len(scanned) != len(want) {
				t.Fatalf("%s at %s: %d rows in Iceberg, %d in vsql", name, ref, len(scanned), len(want))
			}
		}
		if len(refs) != len(want) {
			t.Fatalf("%s: references %v, want %v", name, refs, want)
		}
	}
	var itemsIce []int64
	for _, lr := range lake {
		if lr.table == "items" && lr.snapshot >= 2 && lr.snapshot <= 4 {
			itemsIce = append(itemsIce, lr.iceberg)
		}
	}
	if len(itemsIce) != 3 || itemsIce[0] != itemsIce[1] || itemsIce[1] != itemsIce[2] {
		t.Fatalf("items unchanged in snapshots 3 and 4 should keep snapshot 2's Iceberg snapshot: %v", itemsIce)
	}
}

// TestLakehouseOnS3 exports to a warehouse on the real S3-compatible
// server and reads it back with iceberg-go's scanner through S3. A second
// server whose S3 endpoint does not answer keeps serving, snapshots
// included, and shows the lag and the error; the first one's export is
// not held up by it.
func TestLakehouseOnS3(t *testing.T) {
	ctx := context.Background()
	endpoint := startVersity(t)
	createBucket(t, "lake")
	addr := startServer(t, func(c *server.Config) { c.LakehouseInterval = 100 * time.Millisecond })
	c := connectDB(t, addr, "postgres")
	mustExec(t, c,
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, amount DECIMAL(12,2))",
		"INSERT INTO orders SELECT i, i * 0.5 FROM range(1, 1001) r(i)",
		"SELECT * FROM vsql_set_lakehouse(NULL, 's3://lake/warehouse/')",
		"SELECT * FROM vsql_create_snapshot()",
		"UPDATE orders SET amount = 0 WHERE id <= 10",
		"DELETE FROM orders WHERE id > 990",
		"SELECT * FROM vsql_create_snapshot(name => 'cleaned')",
	)
	waitExported(t, c)
	var catalogFile, metadata string
	if err := c.QueryRow(ctx, "SELECT catalog, metadata_location FROM vsql_lakehouse_status() WHERE table_name = 'orders'").Scan(&catalogFile, &metadata); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(metadata, "s3://lake/warehouse/postgres.db/orders/metadata/") {
		t.Fatalf("metadata location %q", metadata)
	}
	r, err := icebergread.Open(catalogFile, map[string]string{"s3.endpoint": endpoint, "s3.region": "us-east-1",
		"s3.access-key-id": "testkey", "s3.secret-access-key": "testsecret"})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tbl, err := r.Table(ctx, "postgres", "orders")
	if err != nil {
		t.Fatal(err)
	}
	for _, lr := range lakeSnapshots(t, c) {
		want := jsonRows(t, connectDB(t, addr, fmt.Sprintf("postgres@%d", lr.snapshot)), "orders")
		got, err := icebergread.Rows(ctx, tbl, lr.iceberg, "")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || strings.Join(keysOf(got, "id"), " ") != strings.Join(keysOf(want, "id"), " ") {
			t.Fatalf("snapshot %d: %d rows in Iceberg, %d in vsql", lr.snapshot, len(got), len(want))
		}
	}
	tagged, err := icebergread.Rows(ctx, tbl, 0, "cleaned")
	if err != nil || len(tagged) != 990 {
		t.Fatalf("tag cleaned: %d rows, %v", len(tagged), err)
	}

	// S3 does not answer: vsql goes on, and says how far behind it is.
	deadHTTP := freeAddr(t)
	dead := startServer(t, func(c *server.Config) {
		c.LakehouseInterval = 100 * time.Millisecond
		c.S3Endpoint = "http://127.0.0.1:1"
		c.HTTPListen = deadHTTP
	})
	d := connectDB(t, dead, "postgres")
	mustExec(t, d,
		"CREATE TABLE t (id INTEGER PRIMARY KEY)",
		"SELECT * FROM vsql_set_lakehouse(NULL, 's3://lake/unreachable')",
		"INSERT INTO t VALUES (1)",
		"SELECT * FROM vsql_create_snapshot()",
		"INSERT INTO t VALUES (2)",
		"SELECT * FROM vsql_create_snapshot()",
	)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var lag int64
		var lastErr string
		if err := d.QueryRow(ctx, "SELECT lag, coalesce(last_error, '') FROM vsql_lakehouse_status()").Scan(&lag, &lastErr); err != nil {
			t.Fatal(err)
		}
		if lastErr != "" {
			if lag != 2 {
				t.Fatalf("lag %d with S3 unreachable, want 2", lag)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no error shown while S3 does not answer")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if m := scrape(t, "http://"+deadHTTP); m[`vsql_lakehouse_exports_total{result="error"}`] < 1 || m["vsql_lakehouse_lag_snapshots"] != 2 {
		t.Errorf("lakehouse metrics with S3 unreachable: errors %v, lag %v", m[`vsql_lakehouse_exports_total{result="error"}`], m["vsql_lakehouse_lag_snapshots"])
	}
	var sum int64
	if err := d.QueryRow(ctx, "SELECT sum(id) FROM t").Scan(&sum); err != nil || sum != 3 {
		t.Fatalf("serving while S3 is unreachable: %d, %v", sum, err)
	}
}

// fieldIDs matches the field ids and optional markers of a nested Iceberg
// type's text.
var fieldIDs = regexp.MustCompile(`\d+: |optional `)

// TestLakehouseTypesAndSchemas: every exportable DuckDB type lands as the
// Iceberg type docs/sql.md lists and reads back row for row; a table with
// an INTERVAL column is reported, not exported; a column added on main
// evolves the Iceberg schema (old snapshots keep theirs); a branch whose
// columns differ from main's is reported, not exported; a new location
// gets the whole history.
func TestLakehouseTypesAndSchemas(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "lake")
	addr := startServer(t, func(c *server.Config) { c.LakehouseInterval = 100 * time.Millisecond })
	c := connectDB(t, addr, "postgres")
	mustExec(t, c,
		`CREATE TABLE kinds (id BIGINT PRIMARY KEY, t TINYINT, ut UTINYINT, u UINTEGER, ub UBIGINT, f REAL, d DOUBLE,
			j JSON, e ENUM('x', 'y'), tm TIME, ts TIMESTAMP_S, tsz TIMESTAMPTZ, m MAP(VARCHAR, INTEGER), arr INTEGER[2],
			l STRUCT(a TINYINT, "b c" VARCHAR)[], id2 UUID, b BOOLEAN, bl BLOB, dt DATE, dec DECIMAL(30, 4))`,
		`INSERT INTO kinds VALUES
			(1, -5, 250, 4000000000, 18000000000000000000, 1.5, 2.25, '{"k": [1, 2]}', 'y',
			 TIME '12:34:56.789', TIMESTAMP_S '2026-01-02 03:04:05', TIMESTAMPTZ '2026-06-01 12:00:00+02', MAP {'a': 1, 'b': NULL}, [7, 8],
			 [{'a': 1, 'b c': 'x'}, NULL], 'c0ffee00-0000-4000-8000-000000000002', true, 'bytes'::BLOB, DATE '2026-12-05', 12345678901234567890.1234),
			(2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`,
		"CREATE TABLE odd (id INTEGER PRIMARY KEY, gap INTERVAL)",
		"INSERT INTO odd VALUES (1, INTERVAL 1 DAY)",
		"CREATE TABLE huge (id INTEGER PRIMARY KEY, h HUGEINT)",
		"INSERT INTO huge VALUES (1, 170141183460469231731687303715884105727)",
		"SELECT * FROM vsql_set_lakehouse(NULL, '"+dir+"')",
		"SELECT * FROM vsql_create_snapshot()", // 1
		"SELECT * FROM vsql_create_branch(NULL, 'side')",
		"ALTER TABLE kinds ADD COLUMN extra VARCHAR",
		"UPDATE kinds SET extra = 'added' WHERE id = 1",
		"SELECT * FROM vsql_create_snapshot()", // 2
	)
	side := connectDB(t, addr, "postgres/side")
	mustExec(t, side, "UPDATE kinds SET d = 9 WHERE id = 1", "SELECT * FROM vsql_create_snapshot()") // 3
	waitExported(t, c)

	skipped := map[string]string{}
	ice := map[string]int64{}
	for _, lr := range lakeSnapshots(t, c) {
		key := fmt.Sprintf("%s@%d", lr.table, lr.snapshot)
		skipped[key], ice[key] = lr.skipped, lr.iceberg
	}
	for _, key := range []string{"odd@1", "odd@2", "odd@3"} {
		if !strings.Contains(skipped[key], `column "gap": type INTERVAL cannot be exported`) || ice[key] != 0 {
			t.Errorf("%s: not exported because %q (Iceberg %d)", key, skipped[key], ice[key])
		}
	}
	if !strings.Contains(skipped["huge@1"], `column "h": type HUGEINT cannot be exported: its values can have 39 digits`) {
		t.Errorf("huge@1: not exported because %q", skipped["huge@1"])
	}
	if !strings.Contains(skipped["kinds@3"], "not exported on branch side") {
		t.Errorf("kinds@3 on side: %q", skipped["kinds@3"])
	}
	var note string
	if err := c.QueryRow(ctx, "SELECT coalesce(note, '') FROM vsql_lakehouse_status() WHERE table_name = 'kinds'").Scan(&note); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "branch side not exported") {
		t.Errorf("status note for kinds: %q", note)
	}

	tbl := lakeTable(t, dir, "kinds")
	wantTypes := map[string]string{"id": "long", "t": "int", "ut": "int", "u": "long", "ub": "decimal(20, 0)",
		"f": "float", "d": "double", "j": "string", "e": "string", "tm": "time", "ts": "timestamp", "tsz": "timestamptz",
		"m": "map<string, int>", "arr": "list<int>", "l": "list<struct<a: int, b c: string>>", "id2": "uuid", "b": "boolean",
		"bl": "binary", "dt": "date", "dec": "decimal(30, 4)", "extra": "string"}
	for name, typ := range wantTypes {
		f, ok := tbl.Schema().FindFieldByName(name)
		if !ok {
			t.Errorf("column %s missing from the Iceberg schema %v", name, tbl.Schema())
			continue
		}
		if got := fieldIDs.ReplaceAllString(f.Type.String(), ""); got != typ {
			t.Errorf("column %s: Iceberg type %s, want %s", name, got, typ)
		}
	}
	if p := tbl.Properties(); p["write.metadata.delete-after-commit.enabled"] != "true" || p["write.metadata.previous-versions-max"] != "100" ||
		p["vsql.primary-key"] != "id" {
		t.Errorf("kinds table properties %v", p)
	}
	if refs := icebergread.Refs(tbl); len(refs) != 1 || !strings.HasPrefix(refs["main"], "branch") {
		t.Errorf("kinds references %v, want main only", refs)
	}
	duck, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	if _, err := duck.Exec("SET TimeZone = 'UTC'"); err != nil {
		t.Fatal(err)
	}
	for _, id := range []int64{1, 2} {
		key := fmt.Sprintf("kinds@%d", id)
		scanned, err := icebergread.Rows(ctx, tbl, ice[key], "")
		if err != nil || len(scanned) != 2 {
			t.Fatalf("%s: iceberg-go read %d rows: %v", key, len(scanned), err)
		}
		tasks, err := icebergread.Files(ctx, tbl, ice[key])
		if err != nil {
			t.Fatal(err)
		}
		// JSON, ENUM and the widened integers are exported as their
		// Iceberg types; compare them as text.
		view := "(SELECT * REPLACE (CAST(j AS VARCHAR) AS j, CAST(e AS VARCHAR) AS e, CAST(t AS INTEGER) AS t, CAST(ut AS INTEGER) AS ut, " +
			"CAST(u AS BIGINT) AS u, CAST(ub AS DECIMAL(20, 0)) AS ub, CAST(ts AS TIMESTAMP) AS ts, " +
			"list_transform(l, x -> CASE WHEN x IS NULL THEN NULL ELSE {'a': CAST(x.a AS INTEGER), 'b c': x['b c']} END) AS l, CAST(arr AS INTEGER[]) AS arr) FROM kinds)"
		want := jsonRows(t, connectDB(t, addr, fmt.Sprintf("postgres@%d", id)), view)
		if got := parquetRows(t, duck, tasks, []string{"id"}); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: DuckDB over the data files reads\n%s\nvsql has\n%s", key, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}

	// A new location: the whole history again.
	dir2 := filepath.Join(t.TempDir(), "lake2")
	mustExec(t, c, "SELECT * FROM vsql_set_lakehouse(NULL, '"+dir2+"')")
	waitExported(t, c)
	tbl2 := lakeTable(t, dir2, "kinds")
	if n := len(tbl2.Metadata().Snapshots()); n != 2 {
		for _, sn := range tbl2.Metadata().Snapshots() {
			t.Logf("Iceberg snapshot %d: %v", sn.SnapshotID, sn.Summary)
		}
		t.Errorf("the new warehouse has %d Iceberg snapshots of kinds, want 2", n)
	}
	for _, lr := range lakeSnapshots(t, c) {
		if lr.table == "kinds" && lr.iceberg != 0 && tbl2.Metadata().SnapshotByID(lr.iceberg) == nil {
			t.Errorf("kinds@%d names Iceberg snapshot %d, not in the new warehouse", lr.snapshot, lr.iceberg)
		}
	}
}

// lakeTable loads postgres.<name> from the SQL catalog of the local
// warehouse dir.
func lakeTable(t *testing.T, dir, name string) *table.Table {
	t.Helper()
	r, err := icebergread.Open(filepath.Join(dir, "vsql_catalog.sqlite"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	tbl, err := r.Table(context.Background(), "postgres", name)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// TestLakehouseHistoryEdges: an empty table, a dropped table, a restore,
// snapshots deleted by retention before their export, and a dropped
// database while its lakehouse is set.
func TestLakehouseHistoryEdges(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "lake")
	addr := startServer(t, func(c *server.Config) { c.LakehouseInterval = time.Hour }) // passes run on kicks only
	c := connectDB(t, addr, "postgres")
	mustExec(t, c,
		"CREATE TABLE kept (id INTEGER PRIMARY KEY, v INTEGER)",
		"CREATE TABLE empty (id INTEGER PRIMARY KEY)",
		"CREATE TABLE gone (id INTEGER PRIMARY KEY)",
		"INSERT INTO kept SELECT i, i FROM range(100) r(i)",
		"INSERT INTO gone VALUES (1)",
		"SELECT * FROM vsql_create_snapshot()", // 1
		"UPDATE kept SET v = -v WHERE id < 10",
		"DROP TABLE gone",
		"SELECT * FROM vsql_create_snapshot()",                      // 2
		"SELECT * FROM vsql_restore(NULL, 'main', snapshot => '1')", // 3: as 1
	)
	// Snapshots 1–3 exist before the lakehouse; retention deletes 1 and 2
	// first, so only 3 can be read and it is exported whole.
	mustExec(t, c,
		"SELECT * FROM vsql_set_retention(keep_last => 1)",
		"SELECT * FROM vsql_set_lakehouse(NULL, '"+dir+"')",
	)
	waitExported(t, c)
	rows := map[string]lakeRow{}
	for _, lr := range lakeSnapshots(t, c) {
		rows[fmt.Sprintf("%s@%d", lr.table, lr.snapshot)] = lr
	}
	if len(rows) != 3 || rows["kept@3"].iceberg == 0 || rows["empty@3"].iceberg == 0 || rows["gone@3"].iceberg == 0 {
		t.Fatalf("exported: %v", rows)
	}
	for name, want := range map[string]int{"kept": 100, "empty": 0, "gone": 1} {
		scanned, err := icebergread.Rows(ctx, lakeTable(t, dir, name), 0, "main")
		if err != nil || len(scanned) != want {
			t.Errorf("%s on Iceberg main: %d rows (%v), want %d", name, len(scanned), err, want)
		}
	}
	// Dropping a table takes it off main.
	mustExec(t, c, "DROP TABLE gone", "SELECT * FROM vsql_create_snapshot()") // 4
	waitExported(t, c)
	if refs := icebergread.Refs(lakeTable(t, dir, "gone")); len(refs) != 0 {
		t.Errorf("gone's references after DROP TABLE: %v", refs)
	}
	// A database dropped while its lakehouse is set: the exporter carries on
	// with the others.
	mustExec(t, c, "CREATE DATABASE other")
	o := connectDB(t, addr, "other")
	mustExec(t, o, "CREATE TABLE x (id INTEGER PRIMARY KEY)", "INSERT INTO x VALUES (1)",
		"SELECT * FROM vsql_set_lakehouse(NULL, '"+dir+"')", "SELECT * FROM vsql_create_snapshot()")
	waitExported(t, o)
	o.Close(ctx)
	mustExec(t, c, "DROP DATABASE other", "INSERT INTO kept VALUES (1000, 1)", "SELECT * FROM vsql_create_snapshot()") // 5
	waitExported(t, c)
	rows = map[string]lakeRow{}
	for _, lr := range lakeSnapshots(t, c) {
		rows[fmt.Sprintf("%s@%d", lr.table, lr.snapshot)] = lr
	}
	if len(rows) != 3+2+2 || !rows["kept@5"].changed || rows["empty@5"].iceberg == 0 {
		t.Errorf("exported after snapshot 5: %v", rows)
	}
	scanned, err := icebergread.Rows(ctx, lakeTable(t, dir, "kept"), rows["kept@5"].iceberg, "")
	if err != nil || len(scanned) != 101 {
		t.Errorf("kept@5: %d rows (%v), want 101", len(scanned), err)
	}
}
