package branches

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/vsqlerr"
)

// AttachImage attaches the snapshot a chunk map describes read-only under
// alias — a remote head read from S3 — materializing it under
// cache/remote/ from stored blocks (each verified). If alias is attached
// to another image, the new one replaces it under the alias's exclusive
// gate, so sessions on it see the new head from their next statement.
func (m *Manager) AttachImage(ctx context.Context, alias string, cm catalog.ChunkMap) error {
	dir := filepath.Join(m.dataDir, "cache", "remote")
	image := filepath.Join(dir, cm.Root+".duckdb")
	if _, err := os.Stat(image); err != nil {
		if err := materialize(m.store, cm, image); err != nil {
			return vsqlerr.Wrap(err, vsqlerr.StorageCorrupt, "materialize remote snapshot %s: %v", cm.Root, err)
		}
	}
	// DuckDB attaches a path once: each alias reads its own hard link.
	sum := sha256.Sum256([]byte(alias))
	path := filepath.Join(dir, hex.EncodeToString(sum[:8])+"-"+cm.Root[:16]+".duckdb")
	if _, err := os.Stat(path); err != nil {
		if err := os.Link(image, path); err != nil {
			return err
		}
	}
	m.mu.Lock()
	if a := m.attached[alias]; a != nil && a.path == path {
		m.mu.Unlock()
		return nil
	}
	m.mu.Unlock()
	release, err := m.Gate(alias).Exclusive(ctx)
	if err != nil {
		return err
	}
	defer release()
	m.mu.Lock()
	defer m.mu.Unlock()
	old := m.attached[alias]
	if old != nil {
		if err := m.detachLocked(ctx, alias); err != nil {
			return err
		}
	}
	a := &attachment{alias: alias, path: path, readOnly: true, shared: true}
	if err := m.attach(ctx, a); err != nil {
		return err
	}
	if old != nil {
		oldPath := old.path
		a.sessions = old.sessions
		*old = *a
		m.attached[alias] = old // releases held by sessions keep counting here
		os.Remove(oldPath)
	}
	return nil
}

// AcquireAttached counts one more session on an alias attached with
// AttachImage.
func (m *Manager) AcquireAttached(alias string) (release func(), err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.attached[alias]
	if a == nil {
		return nil, vsqlerr.New(vsqlerr.DatabaseNotFound, "%q is not attached", alias)
	}
	a.sessions++
	var once sync.Once
	return func() {
		once.Do(func() {
			m.mu.Lock()
			a.sessions--
			m.mu.Unlock()
		})
	}, nil
}

// ImportDatabase records a new database whose main branch starts at a
// snapshot of cm — its blocks already in the store — as a root snapshot
// with no parents, so the copy starts its own history (vsqld clone). The
// branch's file is materialized when a session first attaches it.
func ImportDatabase(ctx context.Context, cat *catalog.Catalog, name string, cm catalog.ChunkMap, origin map[string]any) (int64, error) {
	if err := ValidDatabaseName(name); err != nil {
		return 0, err
	}
	var id int64
	err := cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.CreateDatabase(ctx, name)
		if errors.Is(err, catalog.ErrExists) {
			return nameTaken(err, vsqlerr.DatabaseExists, "database", name, "")
		}
		if err != nil {
			return err
		}
		if err := tx.PutChunkMap(ctx, cm); err != nil {
			return err
		}
		if id, err = tx.CreateSnapshot(ctx, catalog.Snapshot{DatabaseID: d.ID, Kind: "root", Branch: "main", ContentRoot: cm.Root,
			TotalBytes: cm.FileSize, NewBytes: cm.FileSize, Provenance: provenance(origin)}); err != nil {
			return err
		}
		return tx.SetBranchHead(ctx, d.ID, "main", id)
	})
	return id, err
}

// materialize writes a chunk map's file, first bringing back from the
// remote any evicted block (Fetcher).
func (m *Manager) materialize(ctx context.Context, db string, cm catalog.ChunkMap, dst string) error {
	if m.Fetcher != nil {
		for _, h := range cm.Chunks {
			if !m.store.Has(h) {
				if err := m.Fetcher(ctx, db, cm); err != nil {
					return err
				}
				break
			}
		}
	}
	return materialize(m.store, cm, dst)
}

// EvictReport says what Evict removed.
type EvictReport struct {
	Images, Blocks int
	Bytes          int64
}

// Evict frees local disk for snapshots a remote holds (vsqld evict; the
// repository must be locked, like gc): it removes the snapshot images in
// cache/ (disposable) and every block that only chunk maps of exported
// snapshots use. Those snapshots stay readable: materializing one fetches
// its blocks back from S3, each verified.
func Evict(ctx context.Context, dataDir string, cat *catalog.Catalog, exported map[string]bool) (EvictReport, error) {
	var rep EvictReport
	var maps []catalog.ChunkMap
	if err := cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		maps, err = tx.ChunkMaps(ctx, false)
		return err
	}); err != nil {
		return rep, err
	}
	keep := map[Hash]bool{}
	candidates := map[Hash]bool{}
	for _, cm := range maps {
		for _, h := range cm.Chunks {
			if exported[cm.Root] {
				candidates[h] = true
			} else {
				keep[h] = true
			}
		}
	}
	store, err := OpenBlockStore(filepath.Join(dataDir, "blocks"))
	if err != nil {
		return rep, err
	}
	for h := range candidates {
		if keep[h] || !store.Has(h) {
			continue
		}
		freed, err := store.Remove(h)
		rep.Bytes += freed
		if err != nil {
			return rep, err
		}
		rep.Blocks++
	}
	cache := filepath.Join(dataDir, "cache")
	err = filepath.WalkDir(cache, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			rep.Bytes += info.Size()
		}
		rep.Images++
		return os.Remove(path)
	})
	return rep, err
}
