package branches

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/internal/sqlrows"
)

// TestColumnSignatures: after an UPDATE of one column, only that column's
// signature changes between the two files; the key's and the other
// column's stay equal. A chunk map that does not cover the segments'
// blocks gives no signature (nothing to compare by is ever guessed).
func TestColumnSignatures(t *testing.T) {
	dir := t.TempDir()
	store, err := OpenBlockStore(filepath.Join(dir, "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	live := filepath.Join(dir, "live.duckdb")
	w, err := sql.Open("duckdb", live)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.SetMaxOpenConns(1)
	exec := func(db *sql.DB, q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// copyOf checkpoints the live file and copies it with its chunk map.
	copyOf := func(name string) (string, [][32]byte) {
		t.Helper()
		exec(w, "CHECKPOINT")
		data, err := os.ReadFile(live)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		c, err := chunkFile(path, store, newHashMemo(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return path, c.Map.Chunks
	}
	exec(w, "CREATE TABLE t (id BIGINT PRIMARY KEY, a VARCHAR, b INTEGER)")
	exec(w, "INSERT INTO t SELECT range, 'a' || (range % 977), range % 13 FROM range(300000)")
	exec(w, "CREATE TABLE u (k INTEGER PRIMARY KEY, v DOUBLE)")
	exec(w, "INSERT INTO u SELECT range, range / 7 FROM range(5000)")
	beforePath, beforeChunks := copyOf("before.duckdb")
	exec(w, "UPDATE t SET b = -1 WHERE id % 10000 = 7")
	afterPath, afterChunks := copyOf("after.duckdb")
	reader, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	exec(reader, "ATTACH '"+beforePath+"' AS before (READ_ONLY)")
	exec(reader, "ATTACH '"+afterPath+"' AS after (READ_ONLY)")
	query := func(q string, fn func([]any) error) error { return sqlrows.Of(reader.Query(q))(fn) }
	before := ColumnSignatures(query, "before", "t", beforeChunks)
	after := ColumnSignatures(query, "after", "t", afterChunks)
	if before == nil || after == nil {
		t.Fatalf("no signatures: %v, %v", before == nil, after == nil)
	}
	for col, same := range map[string]bool{"id": true, "a": true, "b": false} {
		if got := before[col] != "" && before[col] == after[col]; got != same {
			t.Errorf("column %s: signatures equal %v, want %v", col, got, same)
		}
	}
	if sig := ColumnSignatures(query, "after", "t", afterChunks[:2]); sig != nil {
		t.Errorf("a chunk map of 2 blocks signed every segment: %v", sig)
	}

	// The cache reads an image's signatures once per chunk map and table,
	// gives what ColumnSignatures gives, keeps no unsignable table, and
	// drops the oldest entry beyond its size.
	queries := 0
	counted := func(q string, fn func([]any) error) error { queries++; return query(q, fn) }
	cache := NewSignatureCache(2)
	for range 2 {
		if got := cache.ImageSignatures(counted, "before", "t", beforeChunks); fmt.Sprint(got) != fmt.Sprint(before) {
			t.Errorf("cached signatures differ from ColumnSignatures: %v", got)
		}
	}
	if queries != 1 {
		t.Errorf("two look-ups of one image ran %d queries, want 1", queries)
	}
	if got := cache.ImageSignatures(counted, "after", "t", afterChunks); fmt.Sprint(got) != fmt.Sprint(after) || queries != 2 {
		t.Errorf("another chunk map: %d queries, signatures equal %v", queries, fmt.Sprint(got) == fmt.Sprint(after))
	}
	for range 2 {
		if sig := cache.ImageSignatures(counted, "after", "t", afterChunks[:2]); sig != nil {
			t.Errorf("an unsignable table was signed: %v", sig)
		}
	}
	if queries != 4 {
		t.Errorf("an unsignable table was cached: %d queries, want 4", queries)
	}
	// A third entry (a chunk map with one more block) drops the first.
	cache.ImageSignatures(counted, "before", "t", append(append([][32]byte{}, beforeChunks...), [32]byte{1}))
	cache.ImageSignatures(counted, "before", "t", beforeChunks)
	if queries != 6 {
		t.Errorf("the oldest entry was kept beyond the cache's size: %d queries, want 6", queries)
	}
	var nilCache *SignatureCache
	nilCache.ImageSignatures(counted, "before", "t", beforeChunks)
	if queries != 7 {
		t.Errorf("a nil cache did not read the signatures: %d queries, want 7", queries)
	}

	// Several tables in one statement sign as one at a time; through a
	// cache, only the tables it lacks are read; a table that does not
	// exist fails the statement, and no table is signed.
	both := TablesSignatures(query, "after", []string{"t", "u"}, afterChunks)
	if fmt.Sprint(both["t"]) != fmt.Sprint(after) || both["u"] == nil ||
		fmt.Sprint(both["u"]) != fmt.Sprint(ColumnSignatures(query, "after", "u", afterChunks)) {
		t.Errorf("two tables in one statement: %v", both)
	}
	if got := TablesSignatures(query, "after", []string{"t", "nope"}, afterChunks); got["t"] != nil || got["nope"] != nil {
		t.Errorf("a missing table: signatures %v, want none", got)
	}
	queries = 0
	fresh := NewSignatureCache(8)
	fresh.ImageSignatures(counted, "after", "t", afterChunks)
	var asked string
	onlyNew := func(q string, fn func([]any) error) error {
		asked = q
		return counted(q, fn)
	}
	got := fresh.Signatures(onlyNew, SignatureRequest{Alias: "after", Tables: []string{"t", "u"}, Chunks: afterChunks, Image: true},
		SignatureRequest{Alias: "before", Tables: []string{"t"}, Chunks: beforeChunks})
	if queries != 2 || strings.Count(asked, "pragma_storage_info(") != 2 || !strings.Contains(asked, `"after".main."u"`) ||
		fmt.Sprint(got[0]) != fmt.Sprint(both) || fmt.Sprint(got[1]["t"]) != fmt.Sprint(before) {
		t.Errorf("cached after's t, asked after's t and u and before's t: %d queries (want 2), last %q", queries, asked)
	}
	// A live file (Image false) is never cached.
	fresh.Signatures(counted, SignatureRequest{Alias: "before", Tables: []string{"t"}, Chunks: beforeChunks})
	if queries != 3 {
		t.Errorf("a live file's signatures came from the cache: %d queries, want 3", queries)
	}
}
