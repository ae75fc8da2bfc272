package branches

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vsql/vsql/internal/atomicfile"
)

// Hash is the content address of a block: its SHA-256.
type Hash = [32]byte

// HashHex formats a hash as lower-case hex.
func HashHex(h Hash) string { return hex.EncodeToString(h[:]) }

// ErrCorrupt is returned when a stored block does not hash to its name.
var ErrCorrupt = errors.New("block is corrupt")

// BlockStore keeps blocks as files named by their hash, fanned out over two
// directory levels: blocks/ab/cd/abcd…(64 hex). 65,536 directories hold
// millions of blocks with a few dozen files each.
type BlockStore struct {
	dir string
}

// OpenBlockStore uses dir (created if missing).
func OpenBlockStore(dir string) (*BlockStore, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create block store: %w", err)
	}
	return &BlockStore{dir: dir}, nil
}

// Path is where a block lives.
func (s *BlockStore) Path(h Hash) string {
	x := HashHex(h)
	return filepath.Join(s.dir, x[:2], x[2:4], x)
}

// Has reports whether a block is stored.
func (s *BlockStore) Has(h Hash) bool {
	_, err := os.Stat(s.Path(h))
	return err == nil
}

// Put stores data under its hash h, durably and atomically
// (internal/atomicfile: temporary file, fsync, rename, directory fsync), so
// a block that exists is whole. Storing an existing block writes nothing.
func (s *BlockStore) Put(h Hash, data []byte) (written bool, err error) {
	path := s.Path(h)
	if _, err := os.Stat(path); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, fmt.Errorf("store block: %w", err)
	}
	if err := atomicfile.WriteFile(path, data, 0o600); err != nil {
		return false, fmt.Errorf("store block: %w", err)
	}
	return true, nil
}

// Get reads a block and checks its hash (ErrCorrupt on mismatch).
func (s *BlockStore) Get(h Hash) ([]byte, error) {
	data, err := os.ReadFile(s.Path(h))
	if err != nil {
		return nil, fmt.Errorf("read block %s: %w", HashHex(h), err)
	}
	if sum := sha256.Sum256(data); !bytes.Equal(sum[:], h[:]) {
		return nil, fmt.Errorf("read block %s: %w", HashHex(h), ErrCorrupt)
	}
	return data, nil
}

// Walk calls fn for every stored block (leftover temporary files, which
// are never 64 hex digits, are skipped).
func (s *BlockStore) Walk(fn func(h Hash, path string, info fs.FileInfo) error) error {
	return filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if len(name) != 64 || atomicfile.IsTemp(name) || strings.HasPrefix(name, ".tmp-") {
			return nil
		}
		raw, err := hex.DecodeString(name)
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		var h Hash
		copy(h[:], raw)
		return fn(h, path, info)
	})
}

// Remove deletes a block.
func (s *BlockStore) Remove(h Hash) error {
	err := os.Remove(s.Path(h))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}
