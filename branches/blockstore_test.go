package branches

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/zblock"
)

// block is test content of n bytes that compresses like a DuckDB block: a
// little data, then zeros.
func block(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range min(n, 4096) {
		b[i] = seed + byte(i*7)
	}
	return b
}

// putRaw stores a block the way versions before compression did: its
// content as is, in a file named by the bare hash.
func putRaw(t *testing.T, s *BlockStore, data []byte) Hash {
	t.Helper()
	h := sha256.Sum256(data)
	p := s.path(h, false)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return h
}

func mustPut(t *testing.T, s *BlockStore, data []byte) Hash {
	t.Helper()
	h := sha256.Sum256(data)
	if _, err := s.Put(h, data); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestBlockStoreRoundTrip(t *testing.T) {
	s, err := OpenBlockStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := block(BlockSize, 1)
	h := sha256.Sum256(data)
	stored, err := s.Put(h, data)
	if err != nil || stored <= 0 || stored > 8<<10 {
		t.Fatalf("Put stored %d bytes (%v), want a few KiB", stored, err)
	}
	info, err := os.Stat(s.path(h, true))
	if err != nil || info.Size() != stored {
		t.Fatalf("the compressed file: %v, %d bytes, Put reported %d", err, info.Size(), stored)
	}
	if again, err := s.Put(h, data); again != 0 || err != nil {
		t.Errorf("storing a stored block wrote %d bytes (%v)", again, err)
	}
	got, err := s.Get(h)
	if err != nil || !bytes.Equal(got, data) || !s.Has(h) {
		t.Fatalf("Get: %v, equal %v", err, bytes.Equal(got, data))
	}
	z, err := s.GetCompressed(h)
	if err != nil || int64(len(z)) != stored {
		t.Errorf("GetCompressed: %d bytes (%v), want the file's %d", len(z), err, stored)
	}
	other := block(HeaderSize, 2)
	oh := sha256.Sum256(other)
	if n, err := s.PutCompressed(oh, mustCompress(other)); n == 0 || err != nil {
		t.Fatalf("PutCompressed: %d %v", n, err)
	}
	if got, err := s.Get(oh); err != nil || !bytes.Equal(got, other) {
		t.Errorf("Get after PutCompressed: %v", err)
	}
	freed, err := s.Remove(h)
	if err != nil || freed != stored || s.Has(h) {
		t.Errorf("Remove freed %d of %d bytes (%v); still there: %v", freed, stored, err, s.Has(h))
	}
}

func mustCompress(data []byte) []byte { return zblock.Compress(nil, data) }

// TestBlockStoreReadsRawBlocks: a store written by older versions (raw
// files named by the bare hash) reads as before; storing such a block again
// writes nothing.
func TestBlockStoreReadsRawBlocks(t *testing.T) {
	s, err := OpenBlockStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data := block(BlockSize, 3)
	h := putRaw(t, s, data)
	if !s.Has(h) {
		t.Fatal("Has: a raw block is not found")
	}
	if got, err := s.Get(h); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get of a raw block: %v", err)
	}
	if n, err := s.Put(h, data); n != 0 || err != nil {
		t.Errorf("Put of a block stored raw wrote %d bytes (%v)", n, err)
	}
	if _, err := os.Stat(s.path(h, true)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Put of a block stored raw made a compressed copy: %v", err)
	}
	z, err := s.GetCompressed(h)
	if err != nil || len(z) >= len(data) {
		t.Fatalf("GetCompressed of a raw block: %d bytes (%v)", len(z), err)
	}
	var seen []StoredBlock
	if err := s.Walk(func(b StoredBlock) error { seen = append(seen, b); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 1 || seen[0].Hash != h || seen[0].Compressed || seen[0].Info.Size() != int64(len(data)) {
		t.Fatalf("Walk saw %+v", seen)
	}
	if freed, err := s.Remove(h); err != nil || freed != int64(len(data)) || s.Has(h) {
		t.Errorf("Remove of a raw block freed %d (%v)", freed, err)
	}
}

// TestBlockStoreCorruptBlocks: a compressed block with a flipped byte, a
// truncated one and a raw one with a flipped byte are ErrCorrupt.
func TestBlockStoreCorruptBlocks(t *testing.T) {
	s, err := OpenBlockStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	damage := map[string]func([]byte) []byte{
		"flipped byte": func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b },
		"truncated":    func(b []byte) []byte { return b[:len(b)-3] },
		"emptied":      func(b []byte) []byte { return nil },
		"last byte":    func(b []byte) []byte { b[len(b)-1] ^= 0x01; return b },
	}
	seed := byte(10)
	for name, fn := range damage {
		seed++
		for _, raw := range []bool{false, true} {
			data := block(BlockSize, seed)
			var h Hash
			if raw {
				h = putRaw(t, s, data)
			} else {
				h = mustPut(t, s, data)
			}
			p := s.path(h, !raw)
			file, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, fn(file), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(h); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s (raw %v): Get gave %v, want ErrCorrupt", name, raw, err)
			}
			if _, err := s.GetCompressed(h); !errors.Is(err, ErrCorrupt) {
				t.Errorf("%s (raw %v): GetCompressed gave %v, want ErrCorrupt", name, raw, err)
			}
			s.Remove(h)
			seed += 50
		}
	}
}

// TestMaterializeBothForms builds a file from raw and compressed blocks,
// and refuses (leaving no file) when one of them is damaged.
func TestMaterializeBothForms(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenBlockStore(filepath.Join(dir, "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	var file []byte
	var chunks []Hash
	for i := range 12 {
		n := BlockSize
		if i == 0 {
			n = HeaderSize
		}
		if i == 11 {
			n = 1000
		}
		data := block(n, byte(i))
		file = append(file, data...)
		if i%3 == 1 {
			chunks = append(chunks, putRaw(t, s, data))
		} else {
			chunks = append(chunks, mustPut(t, s, data))
		}
	}
	cm := catalog.ChunkMap{FileSize: int64(len(file)), Chunks: chunks}
	cm.Root = contentRoot(cm.FileSize, cm.Chunks)
	dst := filepath.Join(dir, "out.duckdb")
	if err := materialize(s, cm, dst); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(dst); err != nil || !bytes.Equal(got, file) {
		t.Fatalf("materialized file differs (%v)", err)
	}
	os.Remove(dst)
	p := s.path(chunks[7], true)
	z, _ := os.ReadFile(p)
	os.WriteFile(p, z[:len(z)/2], 0o600)
	if err := materialize(s, cm, dst); !errors.Is(err, ErrCorrupt) {
		t.Errorf("materialize with a truncated block: %v, want ErrCorrupt", err)
	}
	if _, err := os.Stat(dst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed materialize left %s: %v", dst, err)
	}
}

// TestGCAndVerifyBothForms: verify checks raw and compressed blocks alike
// and gc removes unreferenced ones of both forms.
func TestGCAndVerifyBothForms(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	cat, err := catalog.Open(ctx, filepath.Join(dir, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	s, err := OpenBlockStore(filepath.Join(dir, "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	header, body := block(HeaderSize, 1), block(BlockSize, 2)
	cm := catalog.ChunkMap{FileSize: HeaderSize + BlockSize, Chunks: []Hash{putRaw(t, s, header), mustPut(t, s, body)}}
	cm.Root = contentRoot(cm.FileSize, cm.Chunks)
	if _, err := ImportDatabase(ctx, cat, "kept", cm, nil); err != nil {
		t.Fatal(err)
	}
	goneRaw, goneZ := putRaw(t, s, block(BlockSize, 3)), mustPut(t, s, block(BlockSize, 4))
	rep, err := Verify(ctx, dir, cat, nil)
	if err != nil || len(rep.Problems) != 0 || rep.Blocks != 4 || rep.ContentBytes != HeaderSize+3*BlockSize {
		t.Fatalf("verify of a sound store: %v %+v", err, rep)
	}
	if rep.StoredBytes >= rep.ContentBytes {
		t.Errorf("verify: %d bytes on disk for %d of content", rep.StoredBytes, rep.ContentBytes)
	}
	// Damage one block of each form.
	for _, p := range []string{s.path(cm.Chunks[0], false), s.path(cm.Chunks[1], true)} {
		b, _ := os.ReadFile(p)
		b[len(b)/2] ^= 0xff
		os.WriteFile(p, b, 0o600)
	}
	rep, err = Verify(ctx, dir, cat, nil)
	if err != nil || len(rep.Problems) != 2 {
		t.Fatalf("verify of two damaged blocks: %v %q", err, rep.Problems)
	}
	for _, p := range rep.Problems {
		if !bytes.Contains([]byte(p), []byte("corrupt")) {
			t.Errorf("verify problem %q does not say corrupt", p)
		}
	}
	os.WriteFile(s.path(cm.Chunks[0], false), header, 0o600)
	os.WriteFile(s.path(cm.Chunks[1], true), mustCompress(body), 0o600)

	old := time.Now().Add(-2 * time.Hour)
	s.Walk(func(b StoredBlock) error { return os.Chtimes(b.Path, old, old) })
	gc, err := GC(ctx, dir, cat, time.Hour)
	if err != nil || gc.BlocksRemoved != 2 || gc.BlocksKept != 2 {
		t.Fatalf("gc: %v %+v, want 2 removed and 2 kept", err, gc)
	}
	if s.Has(goneRaw) || s.Has(goneZ) || !s.Has(cm.Chunks[0]) || !s.Has(cm.Chunks[1]) {
		t.Error("gc removed the wrong blocks")
	}
	if rep, err := Verify(ctx, dir, cat, nil); err != nil || len(rep.Problems) != 0 || rep.Blocks != 2 {
		t.Errorf("verify after gc: %v %+v", err, rep)
	}
}
