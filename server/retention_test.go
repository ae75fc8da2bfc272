package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/server"
)

func execAll(t *testing.T, conn *pgx.Conn, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := conn.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func int64s(t *testing.T, conn *pgx.Conn, q string) []int64 {
	t.Helper()
	rows, err := conn.Query(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// neededBlocks is what the kept snapshots of the repository need: the
// distinct blocks of their chunk maps.
func neededBlocks(t *testing.T, data string) map[[32]byte]bool {
	t.Helper()
	cat, err := catalog.Open(context.Background(), filepath.Join(data, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	need := map[[32]byte]bool{}
	if err := cat.Tx(context.Background(), func(tx *catalog.Tx) error {
		maps, err := tx.ChunkMaps(context.Background(), true)
		for _, m := range maps {
			for _, c := range m.Chunks {
				need[c] = true
			}
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return need
}

// storedBlocks lists the blocks in the repository's block store.
func storedBlocks(t *testing.T, data string) map[[32]byte]bool {
	t.Helper()
	store, err := branches.OpenBlockStore(filepath.Join(data, "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[[32]byte]bool{}
	if err := store.Walk(func(b branches.StoredBlock) error { have[b.Hash] = true; return nil }); err != nil {
		t.Fatal(err)
	}
	return have
}

// After vsql_set_retention(keep_last => 3) over 10 snapshots, the online
// gc brings the block store down to exactly what the 3 kept snapshots need,
// while one session reads a kept snapshot and another writes; verify is
// clean, a deleted snapshot says so, and the kept ones read as before.
func TestRetentionAndOnlineGC(t *testing.T) {
	data := t.TempDir()
	addr := startServer(t, func(c *server.Config) { c.DataDir = data; c.GCInterval = -1 })
	ctx := context.Background()
	admin := connectPgx(t, addr)
	execAll(t, admin, "CREATE TABLE t (id integer PRIMARY KEY, v bigint, pad text)",
		"INSERT INTO t SELECT range, range, repeat('x', 200) FROM range(20000)")
	sums := map[int64]int64{}
	for i := 1; i <= 10; i++ {
		// Each snapshot rewrites a different part of the table.
		execAll(t, admin, fmt.Sprintf("UPDATE t SET v = v + %d, pad = repeat('%c', 200) WHERE id %% 10 = %d", i, 'a'+i, i%10))
		var id int64
		if err := admin.QueryRow(ctx, "SELECT snapshot_id FROM vsql_create_snapshot()").Scan(&id); err != nil {
			t.Fatal(err)
		}
		sums[id] = scalarInt(t, admin, "SELECT sum(v) FROM t")
	}
	storeBefore := dirBytes(t, filepath.Join(data, "blocks"))

	// A reader on a snapshot that retention keeps, and a writer on main.
	reader, err := pgx.Connect(ctx, dsn(addr, "postgres@9"))
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close(ctx)
	if got := scalarInt(t, reader, "SELECT sum(v) FROM t"); got != sums[9] {
		t.Fatalf("snapshot 9 reads sum %d, want %d", got, sums[9])
	}
	// An image of a snapshot retention deletes, attached by name and idle.
	if got := scalarInt(t, admin, `SELECT sum(v) FROM "postgres@2".t`); got != sums[2] {
		t.Fatalf("snapshot 2 reads sum %d, want %d", got, sums[2])
	}
	writer, err := pgx.Connect(ctx, dsn(addr, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close(ctx)
	var stop atomic.Bool
	var wg sync.WaitGroup
	var writes, readErrs atomic.Int64
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			if _, err := writer.Exec(ctx, fmt.Sprintf("INSERT INTO t VALUES (%d, 1, 'w')", 100000+i)); err != nil {
				t.Errorf("write during gc: %v", err)
				return
			}
			writes.Add(1)
		}
	}()
	go func() {
		defer wg.Done()
		for !stop.Load() {
			var s int64
			if err := reader.QueryRow(ctx, "SELECT sum(v) FROM t").Scan(&s); err != nil || s != sums[9] {
				readErrs.Add(1)
				t.Errorf("read of snapshot 9 during gc: sum %d, %v", s, err)
				return
			}
		}
	}()

	var keepLast int64
	var deleted []int64
	if err := admin.QueryRow(ctx, "SELECT keep_last, deleted_snapshots FROM vsql_set_retention(keep_last => 3)").Scan(&keepLast, &deleted); err != nil {
		t.Fatal(err)
	}
	if keepLast != 3 || fmt.Sprint(deleted) != "[1 2 3 4 5 6 7]" {
		t.Errorf("vsql_set_retention: keep_last %d, deleted %v; want 3, [1 … 7]", keepLast, deleted)
	}
	var removed, bytesRemoved int64
	if err := admin.QueryRow(ctx, "SELECT blocks_removed, bytes_removed FROM vsql_gc(grace => 0)").Scan(&removed, &bytesRemoved); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the reader and writer keep going after gc
	stop.Store(true)
	wg.Wait()
	if writes.Load() == 0 {
		t.Error("the writer wrote nothing while retention and gc ran")
	}
	if removed == 0 || bytesRemoved == 0 {
		t.Errorf("gc removed %d blocks (%d bytes)", removed, bytesRemoved)
	}

	if got := fmt.Sprint(int64s(t, admin, "SELECT snapshot_id FROM vsql_snapshots() ORDER BY 1")); got != "[8 9 10]" {
		t.Errorf("snapshots after retention: %s, want [8 9 10]", got)
	}
	need, have := neededBlocks(t, data), storedBlocks(t, data)
	for h := range have {
		if !need[h] {
			t.Errorf("block %x is stored but no kept snapshot needs it", h[:6])
		}
	}
	for h := range need {
		if !have[h] {
			t.Errorf("block %x of a kept snapshot is missing", h[:6])
		}
	}
	storeAfter := dirBytes(t, filepath.Join(data, "blocks"))
	t.Logf("block store %d → %d bytes (%d blocks removed), %d writes during gc", storeBefore, storeAfter, removed, writes.Load())
	if storeAfter >= storeBefore {
		t.Errorf("block store did not shrink: %d → %d bytes", storeBefore, storeAfter)
	}

	// Kept snapshots read as before, from fresh sessions too.
	for _, id := range []int64{8, 9, 10} {
		c, err := pgx.Connect(ctx, dsn(addr, fmt.Sprintf("postgres@%d", id)))
		if err != nil {
			t.Fatal(err)
		}
		if got := scalarInt(t, c, "SELECT sum(v) FROM t"); got != sums[id] {
			t.Errorf("snapshot %d reads sum %d after gc, want %d", id, got, sums[id])
		}
		c.Close(ctx)
	}
	// A deleted one says so, by connection and by name in a query.
	_, err = pgx.Connect(ctx, dsn(addr, "postgres@2"))
	wantError(t, "connect to a deleted snapshot", err, "3D000", "snapshot 2", "deleted by the database's retention")
	_, err = admin.Exec(ctx, `SELECT count(*) FROM "postgres@5".t`)
	wantError(t, "read a deleted snapshot by name", err, "3D000", "deleted")

	// Retention applies after each new snapshot.
	execAll(t, admin, "UPDATE t SET v = v + 1 WHERE id = 1", "SELECT * FROM vsql_create_snapshot()")
	if got := fmt.Sprint(int64s(t, admin, "SELECT snapshot_id FROM vsql_snapshots() ORDER BY 1")); got != "[9 10 11]" {
		t.Errorf("snapshots after one more: %s, want [9 10 11]", got)
	}
	if got := scalarInt(t, admin, "SELECT keep_last FROM vsql_retention()"); got != 3 {
		t.Errorf("vsql_retention keep_last %d", got)
	}

	cat, err := catalog.Open(ctx, filepath.Join(data, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	rep, err := branches.Verify(ctx, data, cat, nil)
	if err != nil || len(rep.Problems) > 0 {
		t.Errorf("verify after gc: %v %v", err, rep.Problems)
	}
}

func scalarInt(t *testing.T, conn *pgx.Conn, q string) int64 {
	t.Helper()
	var v int64
	if err := conn.QueryRow(context.Background(), q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

// vsql_delete_snapshot refuses what history still needs and deletes the
// rest; a branch merge whose base was deleted by force fails clearly.
func TestDeleteSnapshotRefusals(t *testing.T) {
	addr := startServer(t, func(c *server.Config) { c.GCInterval = -1 })
	ctx := context.Background()
	conn := connectPgx(t, addr)
	execAll(t, conn, "CREATE TABLE t (id integer PRIMARY KEY, v integer)", "INSERT INTO t VALUES (1, 1), (2, 2)",
		"SELECT * FROM vsql_create_snapshot(name => 'first')", // 1
		"UPDATE t SET v = 10 WHERE id = 1",
		"SELECT * FROM vsql_create_snapshot()", // 2: the fork point
		"SELECT * FROM vsql_create_branch(branch => 'dev')",
		"UPDATE t SET v = 20 WHERE id = 1",
		"SELECT * FROM vsql_create_snapshot()", // 3
		"UPDATE t SET v = 30 WHERE id = 1",
		"SELECT * FROM vsql_create_snapshot()", // 4: main's head
	)
	dev, err := pgx.Connect(ctx, dsn(addr, "postgres/dev"))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(ctx)
	execAll(t, dev, "UPDATE t SET v = 200 WHERE id = 2", "SELECT * FROM vsql_create_snapshot()") // 5: dev's head

	cases := []struct {
		call, state string
		msg         []string
	}{
		{"vsql_delete_snapshot(snapshot => 4)", "55006", []string{`head of branch "main"`}},
		{"vsql_delete_snapshot(snapshot => 5)", "55006", []string{`head of branch "dev"`}},
		{"vsql_delete_snapshot(snapshot => 'first')", "55000", []string{`named "first"`}},
		{"vsql_delete_snapshot(snapshot => 2)", "55000", []string{"merge base", `"dev" and "main"`}},
		{"vsql_delete_snapshot(snapshot => 99)", "3D000", []string{"does not exist"}},
		{"vsql_delete_snapshot()", "22023", nil},
		{"vsql_set_retention(keep_last => -1)", "22023", nil},
		{"vsql_set_retention(keep_within => 'soon')", "22023", []string{"interval"}},
	}
	for _, c := range cases {
		_, err := conn.Exec(ctx, "SELECT * FROM "+c.call)
		wantError(t, c.call, err, c.state, c.msg...)
	}
	// A snapshot a session reads is in use.
	reader, err := pgx.Connect(ctx, dsn(addr, "postgres@3"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, "SELECT * FROM vsql_delete_snapshot(snapshot => 3)")
	wantError(t, "delete a snapshot a session reads", err, "55006", "session")
	reader.Close(ctx)
	// Nothing was deleted by the refusals.
	if got := fmt.Sprint(int64s(t, conn, "SELECT snapshot_id FROM vsql_snapshots() ORDER BY 1")); got != "[1 2 3 4 5]" {
		t.Fatalf("snapshots after refusals: %s", got)
	}
	// Retention keeps heads, names and the merge base even with keep_last => 1.
	var deleted []int64
	if err := conn.QueryRow(ctx, "SELECT deleted_snapshots FROM vsql_set_retention(keep_last => 1)").Scan(&deleted); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(deleted) != "[3]" {
		t.Errorf("retention deleted %v, want [3] (1 named, 2 the merge base, 4 and 5 heads)", deleted)
	}
	// Forced: the name is freed, and the merge base goes.
	var id int64
	var name *string
	if err := conn.QueryRow(ctx, "SELECT snapshot_id, name FROM vsql_delete_snapshot(snapshot => 'first', force => true)").Scan(&id, &name); err != nil {
		t.Fatal(err)
	}
	if id != 1 || name == nil || *name != "first" {
		t.Errorf("forced delete returned %d %v", id, name)
	}
	_, err = pgx.Connect(ctx, dsn(addr, "postgres@first"))
	wantError(t, "connect to a deleted name", err, "3D000", `named "first"`, "deleted by")
	execAll(t, conn, "SELECT * FROM vsql_set_retention()", // off
		"SELECT * FROM vsql_create_snapshot(name => 'first')") // the name is free again (and nothing changed: 6 has 4's content)
	if _, err := conn.Exec(ctx, "SELECT * FROM vsql_delete_snapshot(snapshot => 2, force => true)"); err != nil {
		t.Fatal(err)
	}
	_, err = conn.Exec(ctx, "SELECT * FROM vsql_merge_branch(ours => 'main', theirs => 'dev')")
	wantError(t, "merge with a deleted base", err, "VS015", "snapshot 2", "common ancestor")
	// An explicit base among the kept snapshots still merges.
	var action string
	if err := conn.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_snapshots(base => 6, ours => 6, theirs => 5, destination => 'merged')").Scan(&action); err != nil {
		t.Fatal(err)
	}
	if action != "merged" && action != "created_branch" {
		t.Errorf("snapshot merge: %s", action)
	}
}

// remoteObjects lists a location's objects under path, by key.
func remoteObjects(t *testing.T, st *s3sync.AWSStore, prefix string) map[string]int64 {
	t.Helper()
	list, err := st.List(context.Background(), prefix)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, o := range list {
		out[o.Key] = o.Size
	}
	return out
}

// Retention and the online gc bring an S3 remote down to what the kept
// snapshots need: their descriptors and the packs those name; a replica
// still reads the head, and the writer keeps exporting.
func TestRetentionCollectsRemote(t *testing.T) {
	startVersity(t)
	st := createBucket(t, "retention")
	ctx := context.Background()
	metricsBase := "http://" + freeAddr(t)
	addr := startServer(t, func(c *server.Config) { c.GCInterval = -1; c.HTTPListen = metricsBase[len("http://"):] })
	admin := connectPgx(t, addr)
	mustExec(t, admin, "CREATE DATABASE lake")
	lake := connectDB(t, addr, "lake")
	mustExec(t, lake, "SELECT * FROM vsql_set_remote('lake', 's3://retention/r/')",
		"CREATE TABLE t (id integer PRIMARY KEY, v bigint, pad text)",
		"INSERT INTO t SELECT range, range, repeat('x', 300) FROM range(30000)")
	for i := 1; i <= 10; i++ {
		mustExec(t, lake, fmt.Sprintf("UPDATE t SET v = v + %d, pad = repeat('%c', 300) WHERE id %% 10 = %d", i, 'a'+i, i%10),
			"SELECT * FROM vsql_create_snapshot()")
	}
	want := scalarInt(t, lake, "SELECT sum(v) FROM t")
	before := remoteObjects(t, st, "r/")
	var beforeBytes int64
	for _, n := range before {
		beforeBytes += n
	}
	mustExec(t, lake, "SELECT * FROM vsql_set_retention(keep_last => 3)")
	var objects, bytes int64
	if err := admin.QueryRow(ctx, "SELECT remote_objects_removed, remote_bytes_removed FROM vsql_gc(grace => 0)").Scan(&objects, &bytes); err != nil {
		t.Fatal(err)
	}
	after := remoteObjects(t, st, "r/")
	// The S3 traffic is in the metrics: exports put, gc lists and deletes.
	m := scrape(t, metricsBase)
	for _, op := range []string{"put", "put_if", "list", "delete"} {
		if m[`vsql_s3_requests_total{op="`+op+`"}`] == 0 {
			t.Errorf("no S3 %s request counted", op)
		}
	}
	if m[`vsql_s3_bytes_total{direction="sent"}`] < float64(beforeBytes) {
		t.Errorf("S3 bytes sent %v < the remote's %d bytes", m[`vsql_s3_bytes_total{direction="sent"}`], beforeBytes)
	}
	var afterBytes int64
	for _, n := range after {
		afterBytes += n
	}
	t.Logf("remote: %d objects, %d bytes → %d objects, %d bytes (vsql_gc: %d objects, %d bytes)", len(before), beforeBytes, len(after), afterBytes, objects, bytes)
	if objects == 0 || afterBytes >= beforeBytes || beforeBytes-afterBytes != bytes {
		t.Errorf("remote gc removed %d objects, %d bytes; the remote went %d → %d bytes", objects, bytes, beforeBytes, afterBytes)
	}
	// What is left is exactly the kept snapshots' descriptors and their packs.
	roots := map[string]bool{}
	for _, r := range stringsOf(t, lake, "SELECT content_root FROM vsql_snapshots()") {
		roots[r] = true
	}
	needPacks := map[string]bool{}
	descriptors := 0
	for key := range after {
		if !strings.HasPrefix(key, "r/snapshots/") {
			continue
		}
		descriptors++
		body, _, err := st.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		var d s3sync.Descriptor
		if err := json.Unmarshal(body, &d); err != nil {
			t.Fatal(err)
		}
		if !roots[d.Root] {
			t.Errorf("descriptor %s of a deleted snapshot is still in the remote", key)
		}
		for _, c := range d.Chunks {
			needPacks["r/"+c.Pack] = true
		}
	}
	if descriptors != 3 {
		t.Errorf("%d descriptors left, want 3", descriptors)
	}
	for key := range after {
		if strings.HasPrefix(key, "r/packs/") && !needPacks[key] {
			t.Errorf("pack %s is named by no kept descriptor", key)
		}
	}
	for key := range needPacks {
		if _, ok := after[key]; !ok {
			t.Errorf("pack %s of a kept snapshot was removed", key)
		}
	}
	// A replica reads the head; the writer exports again.
	b := startServer(t, func(c *server.Config) { c.AllowRemotes = []string{"s3://retention/r/"} })
	replica := connectDB(t, b, "s3://retention/r/heads/lake/main")
	if got := scalarInt(t, replica, "SELECT sum(v) FROM t"); got != want {
		t.Errorf("replica reads sum %d after remote gc, want %d", got, want)
	}
	mustExec(t, lake, "UPDATE t SET v = v + 1 WHERE id < 100", "SELECT * FROM vsql_create_snapshot()")
	replica2 := connectDB(t, b, "s3://retention/r/heads/lake/main")
	if got := scalarInt(t, replica2, "SELECT sum(v) FROM t"); got != want+100 {
		t.Errorf("replica reads sum %d after a new export, want %d", got, want+100)
	}
}

func stringsOf(t *testing.T, conn *pgx.Conn, q string) []string {
	t.Helper()
	rows, err := conn.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}
