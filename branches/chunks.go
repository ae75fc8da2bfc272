package branches

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/atomicfile"
	"github.com/zeebo/xxh3"
)

// The layout of a DuckDB file: a 12 KiB header (one main and two database
// headers of 4 KiB), then fixed-size blocks of 256 KiB. Chunk maps cut at
// exactly these boundaries, so an unchanged DuckDB block is an unchanged
// chunk.
const (
	HeaderSize = 12 << 10
	BlockSize  = 256 << 10
)

// chunkSize is the size of chunk i of a file of the given size.
func chunkSize(i int, fileSize int64) int64 {
	var start, size int64
	if i == 0 {
		start, size = 0, HeaderSize
	} else {
		start, size = HeaderSize+int64(i-1)*BlockSize, BlockSize
	}
	if start+size > fileSize {
		size = fileSize - start
	}
	return size
}

// contentRoot is the identity of a file's content: the SHA-256 of its size
// and chunk hashes.
func contentRoot(fileSize int64, chunks []Hash) string {
	h := sha256.New()
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(fileSize))
	h.Write(n[:])
	for _, c := range chunks {
		h.Write(c[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// chunking is what chunkFile found.
type chunking struct {
	Map      catalog.ChunkMap
	NewBytes int64 // written to the store (compressed, as on disk)
	Hashed   int   // blocks whose SHA-256 was computed; the others reused the memo's
}

// chunkFile reads a file chunk by chunk, hashes each chunk and, when store
// is not nil, stores the chunks it does not have yet (each compressed and
// fsynced). With a memo, a chunk whose xxh3-128 equals the one the memo
// holds for the same position of the same file reuses the memo's SHA-256
// (see "Hashing only what changed" in doc.go); the memo then holds this
// chunking. afterBlock, if set, is called after each newly stored block (a
// fault point in tests).
func chunkFile(path string, store *BlockStore, memo *hashMemo, afterBlock func()) (chunking, error) {
	var c chunking
	f, err := os.Open(path)
	if err != nil {
		return c, fmt.Errorf("chunk %s: %w", path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return c, err
	}
	size := info.Size()
	dev, ino, identified := fileID(info)
	var prev *fileMemo
	if identified {
		prev = memo.lookup(path, dev, ino)
	}
	next := &fileMemo{dev: dev, ino: ino}
	c.Map = catalog.ChunkMap{FileSize: size}
	buf := make([]byte, BlockSize)
	for i := 0; ; i++ {
		n := chunkSize(i, size)
		if n <= 0 {
			break
		}
		chunk := buf[:n]
		if _, err := io.ReadFull(f, chunk); err != nil {
			return c, fmt.Errorf("chunk %s: %w", path, err)
		}
		var q xxh3.Uint128
		if memo != nil {
			q = memo.quick(chunk)
		}
		h, reused := prev.reuse(i, n, q)
		if reused && store != nil && !store.Has(h) {
			reused = false // the memo outlived the block (e.g. gc after retention): store it again
		}
		if !reused {
			h = sha256.Sum256(chunk)
			c.Hashed++
			if store != nil {
				stored, err := store.Put(h, chunk)
				if err != nil {
					return c, err
				}
				if stored > 0 {
					c.NewBytes += stored
					if afterBlock != nil {
						afterBlock()
					}
				}
			}
		}
		c.Map.Chunks = append(c.Map.Chunks, h)
		next.blocks = append(next.blocks, blockMemo{n: n, quick: q, sum: h})
	}
	c.Map.Root = contentRoot(size, c.Map.Chunks)
	if memo != nil && identified {
		memo.remember(path, next)
	}
	return c, nil
}

// materializeAhead is how many blocks materialize reads and decompresses
// (each on its own goroutine) ahead of the one it writes.
const materializeAhead = 3

// materialize writes the file a chunk map describes to dst, verifying every
// block, atomically and durably (internal/atomicfile): dst is replaced only
// once every block was read, checked and written, and fsynced. The next
// blocks are read and decompressed while one is written.
func materialize(store *BlockStore, m catalog.ChunkMap, dst string) error {
	if contentRoot(m.FileSize, m.Chunks) != m.Root {
		return fmt.Errorf("materialize %s: chunk map does not match its root: %w", m.Root, ErrCorrupt)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp, err := atomicfile.Create(dst, 0o600)
	if err != nil {
		return err
	}
	defer tmp.Cleanup() // no-op after Commit
	ahead := readAhead(store, m.Chunks)
	defer ahead.stop()
	var written int64
	for i := range m.Chunks {
		res := <-ahead.next
		b := <-res
		if b.err != nil {
			return fmt.Errorf("materialize %s: %w", m.Root, b.err)
		}
		if int64(len(b.data)) != chunkSize(i, m.FileSize) {
			return fmt.Errorf("materialize %s: block %d has %d bytes: %w", m.Root, i, len(b.data), ErrCorrupt)
		}
		if _, err := tmp.Write(b.data); err != nil {
			return err
		}
		written += int64(len(b.data))
		ahead.bufs <- b.buf
	}
	if written != m.FileSize {
		return fmt.Errorf("materialize %s: wrote %d of %d bytes: %w", m.Root, written, m.FileSize, errors.New("short chunk map"))
	}
	return tmp.Commit()
}

// pipeline reads blocks ahead of their writer: next delivers, in chunk
// order, one channel per block that receives it once read; bufs holds the
// materializeAhead+1 decode buffers, which bound the blocks in flight (the
// writer gives each back after writing it).
type pipeline struct {
	next chan chan aheadBlock
	bufs chan []byte
	done chan struct{}
}

// aheadBlock is one block read ahead: its content or the error reading it,
// and the buffer its content lives in.
type aheadBlock struct {
	data, buf []byte
	err       error
}

// readAhead starts reading chunks; stop ends it early and must be called.
func readAhead(store *BlockStore, chunks []Hash) *pipeline {
	p := &pipeline{
		next: make(chan chan aheadBlock, materializeAhead+1),
		bufs: make(chan []byte, materializeAhead+1),
		done: make(chan struct{}),
	}
	for range materializeAhead + 1 {
		p.bufs <- make([]byte, 0, BlockSize)
	}
	go func() {
		for _, h := range chunks {
			var buf []byte
			select {
			case buf = <-p.bufs:
			case <-p.done:
				return
			}
			res := make(chan aheadBlock, 1)
			go func() {
				data, err := store.GetInto(buf, h)
				res <- aheadBlock{data: data, buf: buf, err: err}
			}()
			p.next <- res // never blocks: a buffer was free
		}
	}()
	return p
}

func (p *pipeline) stop() { close(p.done) }
