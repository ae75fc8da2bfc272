package branches

import (
	"crypto/rand"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/zeebo/xxh3"
)

// blockMemo is what one chunking learned about one block: its length, the
// seeded xxh3-128 of its content and its SHA-256, both computed from the
// same bytes in the same pass.
type blockMemo struct {
	n     int64
	quick xxh3.Uint128
	sum   Hash
}

// fileMemo is the last chunking of one file (device and inode), block by
// block. It is never changed once remembered.
type fileMemo struct {
	dev, ino uint64
	blocks   []blockMemo
}

// hashMemo lets chunkFile hash only the blocks that may have changed since
// it last read the same file: a block whose xxh3-128 (seeded with a random
// per-process seed) equals the one the memo holds for the same position
// reuses the memo's SHA-256. Only the pair (xxh3, SHA-256) of one block's
// bytes is trusted, never sizes, times or names: see "Hashing only what
// changed" in doc.go. It lives in memory only; a new process hashes every
// block once.
type hashMemo struct {
	seed  uint64
	mu    sync.Mutex
	files map[string]*fileMemo
}

func newHashMemo() *hashMemo {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return &hashMemo{seed: binary.LittleEndian.Uint64(b[:]), files: map[string]*fileMemo{}}
}

// quick is the pre-check hash of a block.
func (h *hashMemo) quick(b []byte) xxh3.Uint128 { return xxh3.Hash128Seed(b, h.seed) }

// lookup returns the memo of path if it was taken of the same file (device
// and inode), else nil. A nil memo has no entries.
func (h *hashMemo) lookup(path string, dev, ino uint64) *fileMemo {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	fm := h.files[path]
	if fm == nil || fm.dev != dev || fm.ino != ino {
		return nil
	}
	return fm
}

func (h *hashMemo) remember(path string, fm *fileMemo) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.files[path] = fm
	h.mu.Unlock()
}

// forget drops the memo of a file that was removed.
func (h *hashMemo) forget(path string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	delete(h.files, path)
	h.mu.Unlock()
}

// forgetDir drops the memos of the files under dir (a dropped database).
func (h *hashMemo) forgetDir(dir string) {
	if h == nil {
		return
	}
	prefix := filepath.Clean(dir) + string(filepath.Separator)
	h.mu.Lock()
	for path := range h.files {
		if strings.HasPrefix(path, prefix) {
			delete(h.files, path)
		}
	}
	h.mu.Unlock()
}

// rename moves the memo of a file renamed from oldPath to newPath (its
// inode, and so the memo, stays valid).
func (h *hashMemo) rename(oldPath, newPath string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	if fm, ok := h.files[oldPath]; ok {
		delete(h.files, oldPath)
		h.files[newPath] = fm
	}
	h.mu.Unlock()
}

// reuse returns the SHA-256 the memo holds for block i if its length and
// pre-check hash match.
func (fm *fileMemo) reuse(i int, n int64, q xxh3.Uint128) (Hash, bool) {
	if fm == nil || i >= len(fm.blocks) {
		return Hash{}, false
	}
	b := fm.blocks[i]
	return b.sum, b.n == n && b.quick == q
}

// fileID is a file's device and inode (ok false where the platform does
// not say).
func fileID(info os.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), st.Ino, true
}
