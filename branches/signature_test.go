package branches

import (
	"database/sql"
	"os"
	"path/filepath"
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
}
