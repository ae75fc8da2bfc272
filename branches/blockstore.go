package branches

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/vsql/vsql/internal/atomicfile"
	"github.com/vsql/vsql/internal/zblock"
)

// Hash is the content address of a block: its SHA-256.
type Hash = [32]byte

// HashHex formats a hash as lower-case hex.
func HashHex(h Hash) string { return hex.EncodeToString(h[:]) }

// ErrCorrupt is returned when a stored block does not hash to its name (or
// its compressed form does not decode).
var ErrCorrupt = errors.New("block is corrupt")

// zstdSuffix names the compressed form of a block file; a name of 64 hex
// digits alone is the raw form older versions wrote.
const zstdSuffix = ".zst"

// The decoder refuses frames larger than the largest block.
const _ = uint(zblock.MaxSize - BlockSize)

// BlockStore keeps blocks as files named by their hash, fanned out over two
// directory levels: blocks/ab/cd/abcd…(64 hex).zst. 65,536 directories hold
// millions of blocks with a few dozen files each. Blocks are stored
// zstd-compressed; the raw files older versions wrote (no suffix) are read
// alike.
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

// path is where a block's file of one form lives.
func (s *BlockStore) path(h Hash, compressed bool) string {
	x := HashHex(h)
	p := filepath.Join(s.dir, x[:2], x[2:4], x)
	if compressed {
		p += zstdSuffix
	}
	return p
}

// stat finds a block's file in either form, the compressed one first.
func (s *BlockStore) stat(h Hash) (path string, compressed bool, err error) {
	for _, compressed := range []bool{true, false} {
		path := s.path(h, compressed)
		if _, err = os.Stat(path); err == nil {
			return path, compressed, nil
		}
	}
	return "", false, err
}

// Has reports whether a block is stored (in either form).
func (s *BlockStore) Has(h Hash) bool {
	_, _, err := s.stat(h)
	return err == nil
}

// compressBufs holds output buffers of Put.
var compressBufs = sync.Pool{New: func() any { b := make([]byte, 0, BlockSize); return &b }}

// Put stores data, whose hash is h, compressed. It returns the bytes written
// to disk: 0 when the block is stored already (in either form).
func (s *BlockStore) Put(h Hash, data []byte) (stored int64, err error) {
	if s.Has(h) {
		return 0, nil
	}
	buf := compressBufs.Get().(*[]byte)
	defer compressBufs.Put(buf)
	*buf = zblock.Compress((*buf)[:0], data)
	return s.write(h, *buf)
}

// PutCompressed stores a block given in its compressed form z, which the
// caller has checked decodes to content hashing to h (as S3 fetches do). It
// returns the bytes written: 0 when the block is stored already.
func (s *BlockStore) PutCompressed(h Hash, z []byte) (stored int64, err error) {
	if s.Has(h) {
		return 0, nil
	}
	return s.write(h, z)
}

// write stores a compressed block durably and atomically
// (internal/atomicfile: temporary file, fsync, rename, directory fsync), so
// a block that exists is whole.
func (s *BlockStore) write(h Hash, z []byte) (int64, error) {
	path := s.path(h, true)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, fmt.Errorf("store block: %w", err)
	}
	if err := atomicfile.WriteFile(path, z, 0o600); err != nil {
		return 0, fmt.Errorf("store block: %w", err)
	}
	return int64(len(z)), nil
}

// Get reads a block, decompressing it, and checks its hash (ErrCorrupt on
// a mismatch or a compressed form that does not decode).
func (s *BlockStore) Get(h Hash) ([]byte, error) { return s.GetInto(nil, h) }

// GetInto is Get decoding into buf's storage when it is large enough.
func (s *BlockStore) GetInto(buf []byte, h Hash) ([]byte, error) {
	data, _, _, err := s.load(buf, h)
	return data, err
}

// GetCompressed returns a block's compressed form, checked against its
// hash; a block stored raw is compressed on the way (S3 uploads use it, so
// packs always hold compressed blocks).
func (s *BlockStore) GetCompressed(h Hash) ([]byte, error) {
	data, file, compressed, err := s.load(nil, h)
	if err != nil || compressed {
		return file, err
	}
	return zblock.Compress(nil, data), nil
}

// load finds a block in either form and reads it (see read).
func (s *BlockStore) load(buf []byte, h Hash) (data, file []byte, compressed bool, err error) {
	path, compressed, err := s.stat(h)
	if err == nil {
		data, file, err = s.read(buf, StoredBlock{Hash: h, Path: path, Compressed: compressed})
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("read block %s: %w", HashHex(h), err)
	}
	return data, file, compressed, nil
}

// Read returns the content of a block file Walk found, decompressed and
// checked against its hash (ErrCorrupt otherwise).
func (s *BlockStore) Read(b StoredBlock) ([]byte, error) {
	data, _, err := s.read(nil, b)
	return data, err
}

// read reads a block file, decodes it into buf's storage when it is
// compressed, and checks the hash. It returns the content and the file's
// bytes.
func (s *BlockStore) read(buf []byte, b StoredBlock) (data, file []byte, err error) {
	file, err = os.ReadFile(b.Path)
	if err != nil {
		return nil, nil, err
	}
	data = file
	if b.Compressed {
		if data, err = zblock.Decompress(buf, file); err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
	}
	if sha256.Sum256(data) != b.Hash {
		return nil, nil, fmt.Errorf("its content does not match its hash: %w", ErrCorrupt)
	}
	return data, file, nil
}

// StoredBlock is one block file as Walk finds it.
type StoredBlock struct {
	Hash       Hash
	Path       string
	Compressed bool        // <hash>.zst; otherwise the raw <hash> of older versions
	Info       fs.FileInfo // of the file: Size is the bytes on disk
}

// Walk calls fn for every stored block file, in either form (leftover
// temporary files, which are never named 64 hex digits, are skipped). A
// block stored in both forms is seen twice.
func (s *BlockStore) Walk(fn func(b StoredBlock) error) error {
	return filepath.WalkDir(s.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name, compressed := strings.CutSuffix(d.Name(), zstdSuffix)
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
		b := StoredBlock{Path: path, Compressed: compressed, Info: info}
		copy(b.Hash[:], raw)
		return fn(b)
	})
}

// Remove deletes a block in both forms and returns the bytes freed.
func (s *BlockStore) Remove(h Hash) (freed int64, err error) {
	for _, compressed := range []bool{true, false} {
		path := s.path(h, compressed)
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return freed, err
		}
		freed += info.Size()
	}
	return freed, nil
}
