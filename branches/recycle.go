package branches

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/atomicfile"
)

// imageName matches a snapshot image in cache/<db>/ (not the hard links of
// images attached by name, not WALs or temporary files).
var imageName = regexp.MustCompile(`^([0-9]+)\.duckdb$`)

// recycleMinShared is the least share of a new image's chunks that an old
// image must already hold at the same place to be patched into it.
const recycleMinShared = 0.5

// recycleImage builds the image of a snapshot (chunk map cm, at dst) from
// another snapshot's image that nobody uses, when the two share most of
// their blocks: the old image is renamed away (so nothing can attach it
// meanwhile), only the chunks that differ are written into it from the
// block store, and it is fsynced and renamed to dst. A merge's inputs are
// usually such neighbours (the next base is the last merge, the next
// theirs the last theirs plus a few rows), so an image costs what changed
// instead of the whole file. It reports false, having changed nothing,
// when no image qualifies or a needed block is not stored locally; the
// caller then materializes as usual. The old snapshot's image is rebuilt
// on demand if it is needed again. The caller holds m.mu.
func (m *Manager) recycleImage(ctx context.Context, db string, cm catalog.ChunkMap, dst string) (bool, error) {
	dir := filepath.Dir(dst)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, nil
	}
	attached := map[string]bool{}
	for _, a := range m.attached {
		attached[a.path] = true
	}
	var candidates []int64
	for _, e := range entries {
		g := imageName.FindStringSubmatch(e.Name())
		if g == nil {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if path == dst || attached[path] || walSize(path) > 0 {
			continue
		}
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		// A hard link (an image attached by name) shares the inode.
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || st.Nlink != 1 {
			continue
		}
		id, _ := strconv.ParseInt(g[1], 10, 64)
		candidates = append(candidates, id)
	}
	if len(candidates) == 0 {
		return false, nil
	}
	maps := map[int64]catalog.ChunkMap{}
	if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		for _, id := range candidates {
			s, err := tx.Snapshot(ctx, d.ID, strconv.FormatInt(id, 10))
			if err != nil {
				continue // deleted or unknown: gc's to remove
			}
			if old, err := tx.ChunkMap(ctx, s.ContentRoot); err == nil {
				maps[id] = old
			}
		}
		return nil
	}); err != nil {
		return false, err
	}
	best, bestShared := int64(0), 0
	for id, old := range maps {
		shared := 0
		for i := range min(len(old.Chunks), len(cm.Chunks)) {
			if old.Chunks[i] == cm.Chunks[i] {
				shared++
			}
		}
		if shared > bestShared {
			best, bestShared = id, shared
		}
	}
	if best == 0 || float64(bestShared) < recycleMinShared*float64(len(cm.Chunks)) {
		return false, nil
	}
	old := maps[best]
	var writes []int
	for i, h := range cm.Chunks {
		if i >= len(old.Chunks) || old.Chunks[i] != h {
			if !m.store.Has(h) {
				return false, nil // to be fetched: materialize does that
			}
			writes = append(writes, i)
		}
	}
	if contentRoot(cm.FileSize, cm.Chunks) != cm.Root {
		return false, fmt.Errorf("recycle an image for %s: chunk map does not match its root: %w", cm.Root, ErrCorrupt)
	}
	oldPath := filepath.Join(dir, fmt.Sprintf("%d.duckdb", best))
	// A name gc recognizes as temporary, should this process die here.
	tmp := filepath.Join(dir, fmt.Sprintf(".%s%d", filepath.Base(dst), 1_000_000_000+best))
	if !atomicfile.IsTemp(filepath.Base(tmp)) {
		return false, nil
	}
	if err := os.Rename(oldPath, tmp); err != nil {
		return false, nil
	}
	m.memo.forget(oldPath)
	patch := func() error {
		f, err := os.OpenFile(tmp, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		var buf []byte
		for _, i := range writes {
			data, err := m.store.GetInto(buf, cm.Chunks[i])
			if err != nil {
				return err
			}
			if int64(len(data)) != chunkSize(i, cm.FileSize) {
				return fmt.Errorf("block %d has %d bytes: %w", i, len(data), ErrCorrupt)
			}
			if _, err := f.WriteAt(data, chunkOffset(i)); err != nil {
				return err
			}
			buf = data
		}
		if err := f.Truncate(cm.FileSize); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		return f.Close()
	}
	if err := patch(); err != nil {
		os.Remove(tmp)
		return false, fmt.Errorf("recycle image %d for %s: %w", best, cm.Root, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.Remove(tmp)
		return false, err
	}
	if err := atomicfile.SyncDir(dir); err != nil {
		return false, err
	}
	m.log.Debug("image recycled", "db", db, "from", best, "into", dst, "chunks_written", len(writes), "chunks", len(cm.Chunks))
	return true, nil
}

// chunkOffset is where chunk i starts in its file.
func chunkOffset(i int) int64 {
	if i == 0 {
		return 0
	}
	return HeaderSize + int64(i-1)*BlockSize
}
