package server_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/vsql/vsql/server"
)

func listFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// dirBytes is the size of the files under dir.
func dirBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	for _, p := range listFiles(t, dir) {
		if info, err := os.Stat(p); err == nil {
			n += info.Size()
		}
	}
	return n
}

// TestSnapshotOfOneRowIsSmall: after one changed row of a 3-row table a
// snapshot stores a few KiB (its blocks are mostly empty and stored
// compressed), as new_bytes reports and the block store's size shows.
func TestSnapshotOfOneRowIsSmall(t *testing.T) {
	data := t.TempDir()
	addr := startServer(t, func(c *server.Config) { c.DataDir = data })
	conn := connectPgx(t, addr)
	ctx := context.Background()
	blocks := filepath.Join(data, "blocks")
	for _, q := range []string{"CREATE TABLE t (id integer PRIMARY KEY, v text)", "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"SELECT * FROM vsql_create_snapshot()", "UPDATE t SET v = 'changed' WHERE id = 2"} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	before := dirBytes(t, blocks)
	var newBytes, total int64
	if err := conn.QueryRow(ctx, "SELECT new_bytes, total_bytes FROM vsql_create_snapshot()").Scan(&newBytes, &total); err != nil {
		t.Fatal(err)
	}
	grown := dirBytes(t, blocks) - before
	t.Logf("one changed row of a 3-row table: %d new bytes (block store +%d) for a %d-byte file", newBytes, grown, total)
	if newBytes == 0 || newBytes != grown || grown > 32<<10 {
		t.Errorf("snapshot reported %d new bytes, the block store grew by %d; want the same, ≤ 32 KiB", newBytes, grown)
	}
}

// Snapshots cost only the blocks that changed; an unchanged branch stores
// nothing; a branch costs nothing until it is attached.
func TestSnapshotCostsAndFreeBranches(t *testing.T) {
	data := t.TempDir()
	addr := startServer(t, func(c *server.Config) { c.DataDir = data })
	conn := connectPgx(t, addr)
	ctx := context.Background()
	exec := func(q string) {
		t.Helper()
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE big (id integer PRIMARY KEY, v integer, s varchar)")
	exec("INSERT INTO big SELECT range, range % 1000, 'row ' || range FROM range(1000000)")
	blocks := filepath.Join(data, "blocks")
	snapshot := func() (newBytes, total int64) {
		t.Helper()
		before := dirBytes(t, blocks)
		if err := conn.QueryRow(ctx, "SELECT new_bytes, total_bytes FROM vsql_create_snapshot()").Scan(&newBytes, &total); err != nil {
			t.Fatal(err)
		}
		if onDisk := dirBytes(t, blocks) - before; onDisk != newBytes {
			t.Errorf("the snapshot reported %d new bytes; the block store grew by %d", newBytes, onDisk)
		}
		return
	}
	// Blocks are stored compressed: the first snapshot stores every block,
	// in a fraction of the file's size.
	first, total := snapshot()
	if first == 0 || first > total/2 || total < 8<<20 {
		t.Fatalf("first snapshot stored %d of %d bytes", first, total)
	}
	// 100 rows spread over the whole key range.
	tag, err := conn.Exec(ctx, "UPDATE big SET v = v + 1 WHERE id IN (SELECT range * 9973 FROM range(100))")
	if err != nil || tag.RowsAffected() != 100 {
		t.Fatalf("update: %v %v", tag, err)
	}
	changed, total2 := snapshot()
	t.Logf("after UPDATE of 100 of 1M rows: %d new bytes of %d (%.1f%%)", changed, total2, 100*float64(changed)/float64(total2))
	if changed == 0 || float64(changed) > 0.30*float64(total2) {
		t.Errorf("snapshot after 100 updates stored %d of %d bytes (limit 30%%)", changed, total2)
	}
	if again, _ := snapshot(); again != 0 {
		t.Errorf("snapshot of an unchanged branch stored %d bytes", again)
	}

	blocksBefore := listFiles(t, filepath.Join(data, "blocks"))
	liveBefore := listFiles(t, filepath.Join(data, "live"))
	var head int64
	if err := conn.QueryRow(ctx, "SELECT head_snapshot_id FROM vsql_create_branch('postgres', 'feature')").Scan(&head); err != nil {
		t.Fatal(err)
	}
	if head != 3 {
		t.Errorf("branch head %d, want 3", head)
	}
	if got := listFiles(t, filepath.Join(data, "blocks")); len(got) != len(blocksBefore) {
		t.Errorf("creating a branch wrote %d blocks", len(got)-len(blocksBefore))
	}
	if got := listFiles(t, filepath.Join(data, "live")); len(got) != len(liveBefore) {
		t.Errorf("creating a branch wrote files: %v", got)
	}
	// The first session on the branch materializes it, with the head's data.
	cfg, _ := pgx.ParseConfig(dsn(addr, "postgres/feature"))
	bc, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close(ctx)
	var sum int64
	if err := bc.QueryRow(ctx, "SELECT sum(v) FROM big").Scan(&sum); err != nil {
		t.Fatal(err)
	}
	var want int64
	if err := conn.QueryRow(ctx, "SELECT sum(v) FROM big").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if sum != want {
		t.Errorf("branch sum %d, main sum %d", sum, want)
	}
	var dirty bool
	if err := conn.QueryRow(ctx, "SELECT dirty FROM vsql_branches() WHERE branch_name = 'feature'").Scan(&dirty); err != nil || dirty {
		t.Errorf("freshly materialized branch dirty=%v err=%v", dirty, err)
	}
}

// A prepared call to a vsql_* function runs once per execution, never at
// Parse/Describe.
func TestFunctionsRunOnlyWhenExecuted(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.simple("CREATE TABLE x (a int PRIMARY KEY)")
	c.send(
		&pgproto3.Parse{Name: "snap", Query: "SELECT snapshot_id FROM vsql_create_snapshot()"},
		describeStatement("snap"),
		syncMsg(),
	)
	c.untilReady()
	count := func() string { return dataRowText(c.simple("SELECT count(*) FROM vsql_snapshots()")) }
	if n := count(); n != "0" {
		t.Fatalf("Parse/Describe created %s snapshots", n)
	}
	for i := 0; i < 2; i++ {
		c.send(bindMsg("snap"), executeMsg(), syncMsg())
		c.untilReady()
	}
	if n := count(); n != "2" {
		t.Fatalf("two executions created %s snapshots", n)
	}
}
