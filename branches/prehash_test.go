package branches

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// checkChunking chunks path with the memo and without it and requires the
// same chunk map, every chunk in the store holding exactly the file's bytes
// at its place, and the memo's chunking to have SHA-256-hashed wantHashed
// blocks (-1: any number). It returns the chunking.
func checkChunking(t *testing.T, step, path string, store *BlockStore, memo *hashMemo, wantHashed int) chunking {
	t.Helper()
	c, err := chunkFile(path, store, memo, nil)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	full, err := chunkFile(path, nil, nil, nil)
	if err != nil {
		t.Fatalf("%s: %v", step, err)
	}
	if c.Map.Root != full.Map.Root || c.Map.FileSize != full.Map.FileSize || len(c.Map.Chunks) != len(full.Map.Chunks) {
		t.Fatalf("%s: pre-checked map %s (%d bytes, %d chunks) differs from the full hash %s (%d bytes, %d chunks)", step,
			c.Map.Root, c.Map.FileSize, len(c.Map.Chunks), full.Map.Root, full.Map.FileSize, len(full.Map.Chunks))
	}
	if full.Hashed != len(full.Map.Chunks) {
		t.Fatalf("%s: without a memo %d of %d chunks were hashed", step, full.Hashed, len(full.Map.Chunks))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var off int64
	for i, h := range c.Map.Chunks {
		if h != full.Map.Chunks[i] {
			t.Fatalf("%s: chunk %d: pre-checked %s, full %s", step, i, HashHex(h), HashHex(full.Map.Chunks[i]))
		}
		n := chunkSize(i, c.Map.FileSize)
		got, err := store.Get(h)
		if err != nil {
			t.Fatalf("%s: chunk %d is not stored: %v", step, i, err)
		}
		if !bytes.Equal(got, data[off:off+n]) {
			t.Fatalf("%s: the store's chunk %d is not the file's", step, i)
		}
		off += n
	}
	if wantHashed >= 0 && c.Hashed != wantHashed {
		t.Errorf("%s: %d blocks hashed, want %d", step, c.Hashed, wantHashed)
	}
	return c
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// patch overwrites the file in place (same inode) at off.
func patch(t testing.TB, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// blockStart is the offset of chunk i.
// The pre-check gives exactly the chunk map a full hash gives, and stores
// every changed block, through in-place changes (including ones DuckDB's
// own block checksum cannot see), truncation, growth, replacement by
// rename, a restart (no memo) and a block the store lost.
func TestChunkFilePreCheck(t *testing.T) {
	dir := t.TempDir()
	store, err := OpenBlockStore(filepath.Join(dir, "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "f.duckdb")
	rng := rand.New(rand.NewPCG(1, 2))
	content := func(size int64) []byte {
		b := make([]byte, size)
		for i := range b {
			if i%512 < 64 { // some data per 512 bytes, zeros between: cheap to compress
				b[i] = byte(rng.Uint32())
			}
		}
		return b
	}
	const blocks = 12
	size := int64(HeaderSize + blocks*BlockSize + 1000) // a partial last block
	writeFile(t, path, content(size))
	memo := newHashMemo()
	c := checkChunking(t, "first chunking", path, store, memo, blocks+2)
	if c.NewBytes == 0 {
		t.Error("the first chunking stored nothing")
	}
	c = checkChunking(t, "unchanged", path, store, memo, 0)
	if c.NewBytes != 0 {
		t.Errorf("an unchanged file stored %d bytes", c.NewBytes)
	}

	// In place: one byte of the header, of block 3 and of the partial
	// last block; then two aligned 8-byte words of block 5 swapped and two
	// zero words of block 7 set to the same value (DuckDB's checksum, an
	// XOR of per-word hashes, is blind to both).
	patch(t, path, 100, []byte{0xff})
	patch(t, path, chunkStart(3)+4321, []byte{0x5a})
	patch(t, path, size-10, []byte{0x77})
	c = checkChunking(t, "three bytes changed", path, store, memo, 3)
	if c.NewBytes == 0 {
		t.Error("changed blocks were not stored")
	}
	data, _ := os.ReadFile(path)
	w := chunkStart(5)
	var swapped [16]byte
	copy(swapped[:8], data[w+8:w+16])
	copy(swapped[8:], data[w:w+8])
	if bytes.Equal(swapped[:8], swapped[8:]) {
		t.Fatal("test content: the words to swap are equal")
	}
	patch(t, path, w, swapped[:])
	z := chunkStart(7) + 64 // bytes 64..511 of each 512 are zeros
	var same [16]byte
	binary.LittleEndian.PutUint64(same[:8], 0xdeadbeef)
	binary.LittleEndian.PutUint64(same[8:], 0xdeadbeef)
	patch(t, path, z, same[:])
	checkChunking(t, "words swapped, equal words written", path, store, memo, 2)

	// Truncation inside block 9: blocks before it are reused.
	size = chunkStart(9) + 5000
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
	checkChunking(t, "truncated", path, store, memo, 1)
	// Growth: the partial block becomes whole, 3 more and a partial one.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(content(BlockSize - 5000 + 3*BlockSize + 77)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	size += BlockSize - 5000 + 3*BlockSize + 77
	checkChunking(t, "grown", path, store, memo, 5)

	// Replaced by rename with the same content but one block: another
	// inode, so nothing is reused.
	data, _ = os.ReadFile(path)
	data[chunkStart(2)+9] ^= 1
	tmp := path + ".tmp"
	writeFile(t, tmp, data)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	c = checkChunking(t, "replaced by rename", path, store, memo, -1)
	if c.Hashed != len(c.Map.Chunks) {
		t.Errorf("replaced by rename: %d of %d blocks hashed, want all", c.Hashed, len(c.Map.Chunks))
	}

	// A block the store lost (gc after retention) is stored again.
	lost := c.Map.Chunks[4]
	if _, err := store.Remove(lost); err != nil {
		t.Fatal(err)
	}
	c = checkChunking(t, "a block lost from the store", path, store, memo, 1)
	if c.NewBytes == 0 || !store.Has(lost) {
		t.Error("the lost block was not stored again")
	}

	// A restart: a new memo knows nothing.
	memo = newHashMemo()
	checkChunking(t, "restart", path, store, memo, len(c.Map.Chunks))

	// Random rounds of all of it.
	for round := range 40 {
		data, _ := os.ReadFile(path)
		nChunks := len(c.Map.Chunks)
		switch op := rng.IntN(5); op {
		case 0, 1: // bytes in random blocks (maybe the same block twice)
			changed := map[int]bool{}
			for range 1 + rng.IntN(4) {
				i := rng.IntN(nChunks)
				off := chunkStart(i) + rng.Int64N(chunkSize(i, int64(len(data))))
				if data[off] == 0xee { // make sure the byte changes
					patch(t, path, off, []byte{0xef})
				} else {
					patch(t, path, off, []byte{0xee})
				}
				changed[i] = true
			}
			c = checkChunking(t, fmt.Sprintf("round %d: %d blocks changed", round, len(changed)), path, store, memo, len(changed))
		case 2: // truncate
			size := int64(len(data)) - 1 - rng.Int64N(2*BlockSize)
			if size < HeaderSize {
				size = HeaderSize + 1
			}
			if err := os.Truncate(path, size); err != nil {
				t.Fatal(err)
			}
			c = checkChunking(t, fmt.Sprintf("round %d: truncated to %d", round, size), path, store, memo, -1)
		case 3: // grow
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := f.Write(content(1 + rng.Int64N(2*BlockSize))); err != nil {
				t.Fatal(err)
			}
			f.Close()
			c = checkChunking(t, fmt.Sprintf("round %d: grown", round), path, store, memo, -1)
		case 4: // replace by rename, mostly the same content
			data[rng.IntN(len(data))] ^= 0x10
			writeFile(t, tmp, data)
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
			c = checkChunking(t, fmt.Sprintf("round %d: replaced", round), path, store, memo, -1)
		}
	}
}

// The same on a real DuckDB file: after UPDATE, DELETE, INSERT and
// CHECKPOINT (which rewrites blocks in place, grows and truncates the
// file), the pre-checked chunk map is the full hash's and hashes fewer
// blocks than the file has.
func TestChunkFilePreCheckDuckDB(t *testing.T) {
	dir := t.TempDir()
	store, err := OpenBlockStore(filepath.Join(dir, "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "t.duckdb")
	db, err := sql.Open("duckdb", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	exec := func(q string) {
		t.Helper()
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)")
	exec("INSERT INTO t SELECT range, 'v' || (range % 977) FROM range(300000)")
	exec("CHECKPOINT")
	memo := newHashMemo()
	checkChunking(t, "first chunking", path, store, memo, -1)
	for i, q := range []string{
		"UPDATE t SET v = 'changed' WHERE id % 10000 = 7",
		"DELETE FROM t WHERE id % 5000 = 11",
		"INSERT INTO t SELECT range, 'new' FROM range(300000, 301000)",
		"DELETE FROM t WHERE id % 3000 = 13",
	} {
		exec(q)
		exec("CHECKPOINT")
		c := checkChunking(t, q, path, store, memo, -1)
		if c.Hashed == 0 || c.Hashed >= len(c.Map.Chunks) {
			t.Errorf("step %d (%s): %d of %d blocks hashed", i, q, c.Hashed, len(c.Map.Chunks))
		}
	}
}

// BenchmarkChunkFile compares, on a 64 MiB file in the page cache, reading
// alone, reading with each hash, chunking as before (SHA-256 of every block
// and a stat in the store) and chunking with the pre-check when nothing or
// 3 blocks changed.
func BenchmarkChunkFile(b *testing.B) {
	dir := b.TempDir()
	store, err := OpenBlockStore(filepath.Join(dir, "blocks"))
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "f.duckdb")
	size := int64(HeaderSize + 256*BlockSize)
	data := make([]byte, size)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	if _, err := chunkFile(path, store, nil, nil); err != nil {
		b.Fatal(err)
	}
	readWith := func(b *testing.B, hash func([]byte)) {
		b.SetBytes(size)
		buf := make([]byte, BlockSize)
		for b.Loop() {
			f, err := os.Open(path)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; chunkSize(i, size) > 0; i++ {
				chunk := buf[:chunkSize(i, size)]
				if _, err := io.ReadFull(f, chunk); err != nil {
					b.Fatal(err)
				}
				hash(chunk)
			}
			f.Close()
		}
	}
	memo := newHashMemo()
	b.Run("read", func(b *testing.B) { readWith(b, func([]byte) {}) })
	b.Run("read+xxh3", func(b *testing.B) { readWith(b, func(c []byte) { memo.quick(c) }) })
	b.Run("read+sha256", func(b *testing.B) { readWith(b, func(c []byte) { sha256.Sum256(c) }) })
	b.Run("full", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			if _, err := chunkFile(path, store, nil, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	if _, err := chunkFile(path, store, memo, nil); err != nil {
		b.Fatal(err)
	}
	b.Run("precheck-unchanged", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			if _, err := chunkFile(path, store, memo, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("precheck-3-changed", func(b *testing.B) {
		b.SetBytes(size)
		round := 0
		for b.Loop() {
			b.StopTimer()
			round++
			for _, i := range []int{5, 100, 200} {
				var v [8]byte
				binary.LittleEndian.PutUint64(v[:], uint64(round))
				patch(b, path, chunkStart(i)+64, v[:])
			}
			b.StartTimer()
			c, err := chunkFile(path, nil, memo, nil) // hashing only: storing is the same either way
			if err != nil {
				b.Fatal(err)
			}
			if c.Hashed != 3 {
				b.Fatalf("%d blocks hashed", c.Hashed)
			}
		}
	})
}
