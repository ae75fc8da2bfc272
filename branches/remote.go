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
	"github.com/vsql/vsql/sqltext"
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
	if err := sqltext.ValidName("database", name); err != nil {
		return 0, vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	var id int64
	err := cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.CreateDatabase(ctx, name)
		if errors.Is(err, catalog.ErrExists) {
			return vsqlerr.New(vsqlerr.DatabaseExists, "database %q already exists", name)
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
