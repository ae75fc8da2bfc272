package s3sync

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/s3test"
	"github.com/vsql/vsql/internal/zblock"
	"github.com/vsql/vsql/vsqlerr"
)

// duckLike is test content shaped like a DuckDB block: a little data, then
// zeros.
func duckLike(n int, seed byte) []byte {
	b := make([]byte, n)
	for i := range min(n, 3000) {
		b[i] = seed ^ byte(i*13)
	}
	return b
}

// localSnapshot stores contents in a block store and returns their chunk map.
func localSnapshot(t *testing.T, store *branches.BlockStore, contents ...[]byte) catalog.ChunkMap {
	t.Helper()
	cm := catalog.ChunkMap{}
	for _, c := range contents {
		h := sha256.Sum256(c)
		if _, err := store.Put(h, c); err != nil {
			t.Fatal(err)
		}
		cm.Chunks = append(cm.Chunks, h)
		cm.FileSize += int64(len(c))
	}
	cm.Root = fmt.Sprintf("%x", sha256.Sum256(fmt.Appendf(nil, "%d %x", cm.FileSize, cm.Chunks)))
	return cm
}

func newStore(t *testing.T) *branches.BlockStore {
	t.Helper()
	s, err := branches.OpenBlockStore(filepath.Join(t.TempDir(), "blocks"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// oldExport writes a snapshot to a remote as versions before compressed
// blocks did: one raw pack, a format-1 descriptor without encodings, a head.
// It returns the head's descriptor key and ETag.
func oldExport(t *testing.T, s ObjectStore, loc Location, db string, cm catalog.ChunkMap, contents ...[]byte) (string, string) {
	t.Helper()
	ctx := context.Background()
	var pack bytes.Buffer
	desc := Descriptor{Format: 1, DB: db, Branch: "main", Root: cm.Root, FileSize: cm.FileSize, Writer: "old", ExportedAt: time.Now().UTC()}
	for i, c := range contents {
		desc.Chunks = append(desc.Chunks, ChunkLocation{Hash: hex.EncodeToString(cm.Chunks[i][:]), Offset: int64(pack.Len()), Length: int64(len(c))})
		pack.Write(c)
	}
	sum := sha256.Sum256(pack.Bytes())
	key := packKey(hex.EncodeToString(sum[:]))
	for i := range desc.Chunks {
		desc.Chunks[i].Pack = key
	}
	if _, err := s.Put(ctx, loc.Key(key), pack.Bytes()); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(desc)
	dsum := sha256.Sum256(body)
	dkey := descriptorKey(db, cm.Root, hex.EncodeToString(dsum[:8]))
	if _, err := s.Put(ctx, loc.Key(dkey), body); err != nil {
		t.Fatal(err)
	}
	hbody, _ := json.Marshal(Head{DB: db, Branch: "main", Descriptor: dkey, Root: cm.Root, Token: "oldtoken", Writer: "old"})
	etag, err := s.Put(ctx, loc.Key(headKey(db, "main")), hbody)
	if err != nil {
		t.Fatal(err)
	}
	return dkey, etag
}

// checkFetched checks that store holds contents, each compressed.
func checkFetched(t *testing.T, store *branches.BlockStore, cm catalog.ChunkMap, contents ...[]byte) {
	t.Helper()
	for i, c := range contents {
		got, err := store.Get(cm.Chunks[i])
		if err != nil || !bytes.Equal(got, c) {
			t.Errorf("chunk %d: %v, equal %v", i, err, bytes.Equal(got, c))
		}
	}
	_ = store.Walk(func(b branches.StoredBlock) error {
		if !b.Compressed {
			t.Errorf("block %x was stored raw", b.Hash[:4])
		}
		return nil
	})
}

// TestCompressedPacksAndOldRemotes: exports put compressed blocks in packs;
// a remote written by older versions (raw packs, format-1 descriptors) is
// read by FetchHead and FetchExported, and a writer continues it, reusing
// its raw chunks; damaged compressed chunks are storage_corrupt.
func TestCompressedPacksAndOldRemotes(t *testing.T) {
	s3test.Start(t)
	ctx := context.Background()
	plain, err := NewAWSStore(ctx, "compat", AWSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.CreateBucket(ctx); err != nil {
		t.Fatal(err)
	}
	open := func(ctx context.Context, bucket string) (ObjectStore, error) {
		return NewAWSStore(ctx, bucket, AWSOptions{})
	}
	loc, _ := ParseLocation("s3://compat/p/")
	// remoteOf is a fresh repository's remotes, db exporting to loc.
	remoteOf := func(t *testing.T, db string) *Remotes {
		r, _ := OpenRemotes(t.TempDir(), open)
		if err := r.SetRemote(ctx, db, loc.String()); err != nil {
			t.Fatal(err)
		}
		return r
	}
	hu, _ := ParseHeadURL("s3://compat/p/heads/olddb/main")

	local := newStore(t)
	header, one, two := duckLike(12<<10, 1), duckLike(256<<10, 2), duckLike(256<<10, 3)
	first := localSnapshot(t, local, header, one, two)
	oldKey, oldETag := oldExport(t, plain, loc, "olddb", first, header, one, two)

	t.Run("an old remote head is fetched and stored compressed", func(t *testing.T) {
		r, _ := OpenRemotes(t.TempDir(), open)
		fresh := newStore(t)
		_, cm, err := r.FetchHead(ctx, hu, fresh)
		if err != nil || cm.Root != first.Root {
			t.Fatalf("FetchHead of an old remote: %v", err)
		}
		checkFetched(t, fresh, cm, header, one, two)
	})
	t.Run("an old export's evicted blocks are fetched back", func(t *testing.T) {
		r := remoteOf(t, "olddb")
		r.state.Databases["olddb"].exported(first.Root, oldKey)
		fresh := newStore(t)
		if err := r.FetchExported(ctx, "olddb", first, fresh); err != nil {
			t.Fatalf("FetchExported of an old export: %v", err)
		}
		checkFetched(t, fresh, first, header, one, two)
	})
	t.Run("a writer continues an old remote with compressed packs", func(t *testing.T) {
		r := remoteOf(t, "olddb")
		// remotes.json as the old version left it: the head it wrote.
		r.state.Databases["olddb"].Heads["main"] = &headState{ETag: oldETag, Descriptor: oldKey, Root: first.Root, Token: "oldtoken"}
		three := duckLike(256<<10, 4)
		second := localSnapshot(t, local, header, one, three)
		if err := r.ExportSnapshot(ctx, "olddb", "main", second, local); err != nil {
			t.Fatalf("export after an old head: %v", err)
		}
		d := r.state.Databases["olddb"]
		desc, err := readDescriptor(ctx, plain, loc, d.Heads["main"].Descriptor)
		if err != nil {
			t.Fatal(err)
		}
		if desc.Format != descriptorFormat || desc.Chunks[0].Encoding != "" || desc.Chunks[1].Encoding != "" || desc.Chunks[1].Pack != desc.Chunks[0].Pack {
			t.Errorf("unchanged chunks should stay in the old raw pack: %+v", desc.Chunks)
		}
		if c := desc.Chunks[2]; c.Encoding != zblock.Zstd || c.Length > 4<<10 || c.Pack == desc.Chunks[0].Pack {
			t.Errorf("the new chunk should be compressed in a new pack: %+v", c)
		}
		fresh := newStore(t)
		_, cm, err := r.FetchHead(ctx, hu, fresh)
		if err != nil || cm.Root != second.Root {
			t.Fatalf("FetchHead of a mixed descriptor: %v", err)
		}
		checkFetched(t, fresh, cm, header, one, three)
	})
	t.Run("a descriptor of a later format is refused", func(t *testing.T) {
		desc := Descriptor{Format: descriptorFormat + 1, DB: "future", Root: first.Root}
		body, _ := json.Marshal(desc)
		if _, err := plain.Put(ctx, loc.Key("snapshots/future/d.json"), body); err != nil {
			t.Fatal(err)
		}
		r := remoteOf(t, "future")
		r.state.Databases["future"].exported(first.Root, "snapshots/future/d.json")
		err := r.FetchExported(ctx, "future", first, newStore(t))
		if !vsqlerr.IsCode(err, vsqlerr.FeatureNotSupported) {
			t.Errorf("FetchExported of a later format: %v, want feature_not_supported", err)
		}
	})
	t.Run("a new remote holds only compressed blocks", func(t *testing.T) {
		r := remoteOf(t, "newdb")
		if err := r.ExportSnapshot(ctx, "newdb", "main", first, local); err != nil {
			t.Fatal(err)
		}
		desc, err := readDescriptor(ctx, plain, loc, r.state.Databases["newdb"].Heads["main"].Descriptor)
		if err != nil {
			t.Fatal(err)
		}
		var packed int64
		for _, c := range desc.Chunks {
			if c.Encoding != zblock.Zstd {
				t.Errorf("chunk %s has encoding %q", c.Hash, c.Encoding)
			}
			packed += c.Length
		}
		if packed*20 > first.FileSize {
			t.Errorf("%d bytes packed for %d of content", packed, first.FileSize)
		}
	})
	for _, c := range []struct {
		name     string
		encoding string
		damage   func([]byte) []byte
	}{
		{"a flipped byte", zblock.Zstd, func(z []byte) []byte { z[len(z)/2] ^= 0xff; return z }},
		{"a truncated frame", zblock.Zstd, func(z []byte) []byte { return z[:len(z)-5] }},
		{"an unknown encoding", "lz5", func(z []byte) []byte { return z }},
	} {
		t.Run("a compressed chunk with "+c.name+" is storage_corrupt", func(t *testing.T) {
			db := fmt.Sprintf("bad%d", len(c.name))
			z := c.damage(zblock.Compress(nil, one))
			sum := sha256.Sum256(z)
			key := packKey(hex.EncodeToString(sum[:]))
			if _, err := plain.Put(ctx, loc.Key(key), z); err != nil {
				t.Fatal(err)
			}
			h := sha256.Sum256(one)
			desc := Descriptor{Format: descriptorFormat, DB: db, Branch: "main", Root: "r", FileSize: int64(len(one)),
				Chunks: []ChunkLocation{{Hash: hex.EncodeToString(h[:]), Pack: key, Length: int64(len(z)), Encoding: c.encoding}}}
			fresh := newStore(t)
			_, err := fetchBlocks(ctx, plain, loc, desc, fresh)
			if !vsqlerr.IsCode(err, vsqlerr.StorageCorrupt) {
				t.Fatalf("fetch: %v, want storage_corrupt", err)
			}
			if fresh.Has(h) {
				t.Error("a damaged block was stored")
			}
		})
	}
}
