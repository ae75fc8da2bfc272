package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gc removes the temporary files an interrupted atomic write leaves
// (internal/atomicfile's names, and the ".tmp-" names of earlier versions)
// and nothing else.
func TestGCRemovesLeftoverTempFiles(t *testing.T) {
	data := t.TempDir()
	if _, err := runMain(map[string]string{"VSQL_PASSWORD": "pw"}, "", "user", "add", "alice", "--data", data); err != nil {
		t.Fatal(err)
	}
	block := strings.Repeat("ab", 32)
	files := map[string]bool{ // path → kept by gc
		"users":                     true,
		"remotes.json":              true,
		".users8674665223082153551": false,
		".remotes.json123456789012": false,
		".tmp-users-42":             false,
		"blocks/ab/ab/." + block + "5577006791947779410": false,
		"blocks/ab/ab/.tmp-99":                           false,
	}
	for rel := range files {
		p := filepath.Join(data, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if rel != "users" {
			if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := runMain(nil, "", "gc", "--data", data)
	if err != nil {
		t.Fatalf("gc: %v\n%s", err, out)
	}
	if !strings.Contains(out, "5 temporary files") {
		t.Errorf("gc output: %s", out)
	}
	for rel, kept := range files {
		_, err := os.Stat(filepath.Join(data, rel))
		if exists := err == nil; exists != kept {
			t.Errorf("%s: exists %v after gc, want %v", rel, exists, kept)
		}
	}
	if out, err := runMain(nil, "", "user", "list", "--data", data); err != nil || out != "alice write\n" {
		t.Errorf("users after gc: %v %q", err, out)
	}
}

// TestCrashDuringRetentionAndGC kills vsqld with SIGKILL while retention
// deletes snapshots and at each step of the online gc, restarts it, and
// checks that verify passes, that the kept snapshots read as before, and
// that the next gc brings the repository down to what they need.
func TestCrashDuringRetentionAndGC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	bin := vsqldBinary(t)
	for _, p := range []struct{ fault, op string }{
		{"retention.after_delete", "SELECT * FROM vsql_set_retention(keep_last => 2)"},
		{"gc.after_chunk_maps", "SELECT * FROM vsql_gc(grace => 0)"},
		{"gc.after_block", "SELECT * FROM vsql_gc(grace => 0)"},
	} {
		t.Run(p.fault, func(t *testing.T) {
			data := t.TempDir()
			c := startChild(t, bin, data, "", "--gc-interval", "0")
			conn := c.connect(t, "postgres")
			exec1(t, conn, "CREATE TABLE t (id integer PRIMARY KEY, v bigint, pad text)")
			exec1(t, conn, "INSERT INTO t SELECT range, range, repeat('p', 100) FROM range(20000)")
			sums := map[int]int64{}
			for i := 1; i <= 5; i++ {
				exec1(t, conn, fmt.Sprintf("UPDATE t SET v = v + %d, pad = repeat('%c', 100) WHERE id %% 5 = %d", i, 'a'+i, i%5))
				exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")
				sums[i] = scalar[int64](t, conn, "SELECT sum(v) FROM t")
			}
			if strings.HasPrefix(p.fault, "gc.") {
				exec1(t, conn, "SELECT * FROM vsql_set_retention(keep_last => 2)")
			}
			conn.Close(context.Background())
			c.stop(t)

			c, conn = crashAndRestart(t, bin, data, p.fault, p.op) // verify passes in between
			defer c.stop(t)
			defer conn.Close(context.Background())
			for _, id := range []int{4, 5} {
				snap := c.connect(t, fmt.Sprintf("postgres@%d", id))
				if got := scalar[int64](t, snap, "SELECT sum(v) FROM t"); got != sums[id] {
					t.Errorf("snapshot %d reads sum %d after the crash, want %d", id, got, sums[id])
				}
				snap.Close(context.Background())
			}
			if got := scalar[int64](t, conn, "SELECT sum(v) FROM t"); got != sums[5] {
				t.Errorf("main reads sum %d after the crash, want %d", got, sums[5])
			}
			// Finish what the crash interrupted: retention (again, as the
			// next snapshot or gc pass would) and gc.
			exec1(t, conn, "SELECT * FROM vsql_set_retention(keep_last => 2)")
			if n := scalar[int64](t, conn, "SELECT count(*) FROM vsql_snapshots()"); n != 2 {
				t.Errorf("%d snapshots kept, want 2", n)
			}
			exec1(t, conn, "SELECT * FROM vsql_gc(grace => 0)")
			if n := scalar[int64](t, conn, "SELECT blocks_removed FROM vsql_gc(grace => 0)"); n != 0 {
				t.Errorf("a second gc still removed %d blocks", n)
			}
			if out, err := runVerify(t, bin, data); err != nil {
				t.Fatalf("verify after gc: %v\n%s", err, out)
			}
		})
	}
}
