package branches

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/vsql/vsql/catalog"
)

// An image built by patching an unused neighbour's image is byte for byte
// the file its chunk map describes; an image attached, linked by name, or
// sharing too little is never patched.
func TestRecycleImage(t *testing.T) {
	dir := t.TempDir()
	m, cat := newTestManager(t, dir, &fakeEngine{})
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return b
	}
	a := append(random(HeaderSize), random(6*BlockSize)...)
	b := bytes.Clone(a)
	copy(b[HeaderSize+2*BlockSize:], random(BlockSize))      // block 2 changes
	b = append(b[:len(b)-BlockSize/2], random(BlockSize)...) // the tail changes size
	other := random(HeaderSize + 6*BlockSize)
	var db catalog.Database
	ids := map[string]int64{}
	maps := map[string]catalog.ChunkMap{}
	for _, f := range []struct {
		name string
		data []byte
	}{{"a", a}, {"b", b}, {"other", other}} {
		path := filepath.Join(dir, f.name+".src")
		if err := os.WriteFile(path, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := chunkFile(path, m.store, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		maps[f.name] = c.Map
	}
	if err := cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		if db, err = tx.CreateDatabase(ctx, "d"); err != nil {
			return err
		}
		for _, name := range []string{"a", "b", "other"} {
			if err := tx.PutChunkMap(ctx, maps[name]); err != nil {
				return err
			}
			id, err := tx.CreateSnapshot(ctx, catalog.Snapshot{DatabaseID: db.ID, Kind: "root", Branch: "main", ContentRoot: maps[name].Root, TotalBytes: maps[name].FileSize})
			if err != nil {
				return err
			}
			ids[name] = id
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	image := func(name string) string { return filepath.Join(dir, "cache", "d", fmt.Sprintf("%d.duckdb", ids[name])) }
	if err := materialize(m.store, maps["a"], image("a")); err != nil {
		t.Fatal(err)
	}
	recycle := func(name string) bool {
		t.Helper()
		m.mu.Lock()
		defer m.mu.Unlock()
		ok, err := m.recycleImage(ctx, "d", maps[name], image(name))
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	// Too little in common: not patched, the old image stays.
	if recycle("other") {
		t.Fatal("an image sharing no block was patched")
	}
	// Linked by name (attached as d@name): not patched.
	link := filepath.Join(dir, "cache", "d", fmt.Sprintf("%d@v1.duckdb", ids["a"]))
	if err := os.Link(image("a"), link); err != nil {
		t.Fatal(err)
	}
	if recycle("b") {
		t.Fatal("an image with a hard link was patched")
	}
	os.Remove(link)
	// Attached: not patched.
	m.attached["d@1"] = &attachment{alias: "d@1", path: image("a"), readOnly: true}
	if recycle("b") {
		t.Fatal("an attached image was patched")
	}
	delete(m.attached, "d@1")

	if !recycle("b") {
		t.Fatal("the unused neighbour was not patched")
	}
	got, err := os.ReadFile(image("b"))
	if err != nil || !bytes.Equal(got, b) {
		t.Fatalf("patched image differs from its content (%d vs %d bytes, %v)", len(got), len(b), err)
	}
	if _, err := os.Stat(image("a")); !os.IsNotExist(err) {
		t.Errorf("the old image is still there: %v", err)
	}
	// And back again, shrinking.
	if !recycle("a") {
		t.Fatal("not patched back")
	}
	if got, err := os.ReadFile(image("a")); err != nil || !bytes.Equal(got, a) {
		t.Fatalf("patched-back image differs (%d vs %d bytes, %v)", len(got), len(a), err)
	}
}
