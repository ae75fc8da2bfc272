package branches

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/atomicfile"
	"github.com/vsql/vsql/internal/faults"
)

// GCReport says what gc removed.
type GCReport struct {
	BlocksKept, BlocksRemoved int
	BytesRemoved              int64
	ChunkMapsRemoved          int64
	ImagesRemoved             int
	LiveFilesRemoved          int
	TempFilesRemoved          int
	// RemoteObjectsRemoved and RemoteBytesRemoved are what an online gc
	// removed from S3 remotes (descriptors and packs; set by the server).
	RemoteObjectsRemoved int
	RemoteBytesRemoved   int64
}

// DefaultGCGrace protects blocks written moments ago from gc (offline,
// by a process that stopped half-way; online, the block store lock
// already keeps in-flight snapshots safe).
const DefaultGCGrace = time.Hour

// OnlineFileGrace is how old a temporary file, or a live file no branch
// names, must be before an online gc removes it: younger ones may belong
// to a write in progress (a materialization, a restore).
const OnlineFileGrace = time.Hour

// GC removes what no snapshot or branch references: blocks outside every
// kept snapshot's chunk map (and outside the results of unfinished merge
// requests), unreferenced chunk maps, snapshot images that no reader pin
// holds (images are rebuilt from blocks on demand), live files no branch
// names, and leftover temporary files. It must run while no vsqld serves
// the repository (the caller holds the repository lock); a serving vsqld
// runs Manager.GC instead.
func GC(ctx context.Context, dataDir string, cat *catalog.Catalog, grace time.Duration) (GCReport, error) {
	return gc(ctx, dataDir, cat, grace, nil)
}

// GC is the online gc: what GC removes offline, while vsqld serves. It
// holds the block store lock exclusively, so no snapshot, publication or
// import is between storing its blocks and recording them, and it leaves
// every file the engine has attached (live files, images) and temporary
// or unnamed live files younger than OnlineFileGrace.
func (m *Manager) GC(ctx context.Context, grace time.Duration) (GCReport, error) {
	m.storeMu.Lock()
	defer m.storeMu.Unlock()
	return gc(ctx, m.dataDir, m.cat, grace, &onlineGC{m: m, cutoff: time.Now().Add(-max(grace, OnlineFileGrace))})
}

// onlineGC decides, for an online gc, which files it must leave.
type onlineGC struct {
	m      *Manager
	cutoff time.Time
}

// remove removes path unless the engine has it attached (or it is the
// WAL of an attached file) or, when young counts, it is newer than the
// cutoff. It holds the manager's lock, under which files are attached.
func (o *onlineGC) remove(path string, young bool) bool {
	if young {
		if info, err := os.Stat(path); err != nil || info.ModTime().After(o.cutoff) {
			return false
		}
	}
	o.m.mu.Lock()
	defer o.m.mu.Unlock()
	base := liveBase(path)
	for _, a := range o.m.attached {
		if a.path == base {
			return false
		}
	}
	return os.Remove(path) == nil
}

// holdStore keeps online gc away while a snapshot, publication or import
// stores blocks and records the chunk map that references them.
func (m *Manager) holdStore() func() {
	m.storeMu.RLock()
	return m.storeMu.RUnlock
}

func gc(ctx context.Context, dataDir string, cat *catalog.Catalog, grace time.Duration, online *onlineGC) (GCReport, error) {
	var rep GCReport
	store, err := OpenBlockStore(filepath.Join(dataDir, "blocks"))
	if err != nil {
		return rep, err
	}
	remove := func(path string, young bool) bool {
		if online != nil {
			return online.remove(path, young)
		}
		return os.Remove(path) == nil
	}
	referenced := map[Hash]bool{}
	liveFiles := map[string]bool{}
	pinned := map[string]bool{} // "db/id"
	err = cat.Tx(ctx, func(tx *catalog.Tx) error {
		n, err := tx.DeleteUnreferencedChunkMaps(ctx)
		if err != nil {
			return err
		}
		rep.ChunkMapsRemoved = n
		maps, err := tx.ChunkMaps(ctx, true)
		if err != nil {
			return err
		}
		for _, m := range maps {
			for _, c := range m.Chunks {
				referenced[c] = true
			}
		}
		dbs, err := tx.Databases(ctx)
		if err != nil {
			return err
		}
		names := map[int64]string{}
		for _, d := range dbs {
			names[d.ID] = d.Name
			bs, err := tx.Branches(ctx, d.ID)
			if err != nil {
				return err
			}
			for _, b := range bs {
				liveFiles[filepath.Join(dataDir, b.LiveFile)] = true
			}
		}
		pins, err := tx.Pins(ctx)
		if err != nil {
			return err
		}
		for _, p := range pins {
			pinned[fmt.Sprintf("%s/%d", names[p.DatabaseID], p.SnapshotID)] = true
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	faults.Point("gc.after_chunk_maps")
	cutoff := time.Now().Add(-grace)
	err = store.Walk(func(b StoredBlock) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		if referenced[b.Hash] || b.Info.ModTime().After(cutoff) {
			rep.BlocksKept++
			return nil
		}
		if err := os.Remove(b.Path); err != nil {
			return err
		}
		faults.Point("gc.after_block")
		rep.BlocksRemoved++
		rep.BytesRemoved += b.Info.Size()
		return nil
	})
	if err != nil {
		return rep, err
	}
	// Temporary files of interrupted writes, anywhere in the repository:
	// internal/atomicfile's, and the ".tmp-" ones of versions before it.
	_ = filepath.WalkDir(dataDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (atomicfile.IsTemp(d.Name()) || strings.HasPrefix(d.Name(), ".tmp-")) {
			if remove(path, true) {
				rep.TempFilesRemoved++
			}
		}
		return nil
	})
	// Images: rebuilt on demand, kept only while pinned (or, online,
	// attached).
	_ = filepath.WalkDir(filepath.Join(dataDir, "cache"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".duckdb") {
			return nil
		}
		db := filepath.Base(filepath.Dir(path))
		id := strings.SplitN(strings.TrimSuffix(d.Name(), ".duckdb"), "@", 2)[0]
		if pinned[db+"/"+id] {
			return nil
		}
		if remove(path, false) {
			rep.ImagesRemoved++
		}
		return nil
	})
	// Live files that no branch names (left by an interrupted restore or a
	// crash between materializing and recording).
	_ = filepath.WalkDir(filepath.Join(dataDir, "live"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		base := liveBase(path)
		if liveFiles[base] {
			return nil
		}
		if remove(path, true) && liveBase(path) == path {
			rep.LiveFilesRemoved++
		}
		return nil
	})
	return rep, nil
}

// VerifyReport lists every problem verify found.
type VerifyReport struct {
	Blocks, ChunkMaps, Snapshots int
	RemoteBlocks                 int // blocks of exported snapshots held only in S3
	// StoredBytes is the size on disk of the block files (compressed);
	// ContentBytes the size of the content of the sound ones.
	StoredBytes, ContentBytes int64
	Problems                  []string
}

// Verify re-hashes every stored block (decompressing it) and checks that every chunk map
// matches its root and that each of its blocks is present and of the right
// size. It reads only; it is safe beside a running vsqld.
//
// Blocks of snapshots in remote (content roots exported to S3 whose blocks
// may have been evicted) may be missing locally; they are counted in
// RemoteBlocks, not reported.
func Verify(ctx context.Context, dataDir string, cat *catalog.Catalog, remote map[string]bool) (VerifyReport, error) {
	var rep VerifyReport
	store, err := OpenBlockStore(filepath.Join(dataDir, "blocks"))
	if err != nil {
		return rep, err
	}
	sizes := map[Hash]int64{}
	err = store.Walk(func(b StoredBlock) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		rep.Blocks++
		rep.StoredBytes += b.Info.Size()
		data, err := store.Read(b)
		switch {
		case errors.Is(err, ErrCorrupt):
			rep.Problems = append(rep.Problems, fmt.Sprintf("block %s: corrupt: %v (%s)", HashHex(b.Hash), err, b.Path))
			return nil
		case err != nil:
			rep.Problems = append(rep.Problems, fmt.Sprintf("block %s: unreadable: %v (%s)", HashHex(b.Hash), err, b.Path))
			return nil
		}
		sizes[b.Hash] = int64(len(data))
		rep.ContentBytes += int64(len(data))
		return nil
	})
	if err != nil {
		return rep, err
	}
	var maps []catalog.ChunkMap
	var snaps int
	if err := cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		if maps, err = tx.ChunkMaps(ctx, false); err != nil {
			return err
		}
		dbs, err := tx.Databases(ctx)
		if err != nil {
			return err
		}
		for _, d := range dbs {
			ss, err := tx.Snapshots(ctx, d.ID)
			if err != nil {
				return err
			}
			for _, s := range ss {
				if s.Deleted {
					continue // no content to check
				}
				snaps++
				if _, err := tx.ChunkMap(ctx, s.ContentRoot); err != nil {
					rep.Problems = append(rep.Problems, fmt.Sprintf("snapshot %d of %s: chunk map %s is missing", s.ID, d.Name, s.ContentRoot))
				}
			}
		}
		return nil
	}); err != nil {
		return rep, err
	}
	rep.ChunkMaps, rep.Snapshots = len(maps), snaps
	for _, m := range maps {
		if contentRoot(m.FileSize, m.Chunks) != m.Root {
			rep.Problems = append(rep.Problems, fmt.Sprintf("chunk map %s: its chunks do not hash to its root", m.Root))
		}
		var total int64
		for i, c := range m.Chunks {
			want := chunkSize(i, m.FileSize)
			total += want
			got, ok := sizes[c]
			switch {
			case !ok && !store.Has(c) && remote[m.Root]:
				rep.RemoteBlocks++
			case !ok && !store.Has(c):
				rep.Problems = append(rep.Problems, fmt.Sprintf("chunk map %s: block %d (%s) is missing", m.Root, i, HashHex(c)))
			case ok && got != want:
				rep.Problems = append(rep.Problems, fmt.Sprintf("chunk map %s: block %d (%s) has %d bytes, want %d", m.Root, i, HashHex(c), got, want))
			}
		}
		if total != m.FileSize {
			rep.Problems = append(rep.Problems, fmt.Sprintf("chunk map %s: chunks cover %d bytes of %d", m.Root, total, m.FileSize))
		}
	}
	return rep, nil
}
