package branches

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

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

// chunkWorkers is how many blocks chunkFile hashes, compresses and stores
// at once. Storing a block ends in two fsyncs (the block's file and its
// directory); with several in flight their waits overlap, and hashing and
// compression use every core.
const chunkWorkers = 4

// chunkReaders is how many goroutines read the file and compute the
// pre-check, each taking every chunkReaders-th block: on a file that
// barely changed, reading it is most of a snapshot's own cost, and it
// grows with the file (docs/BENCHMARKS.md, "Snapshot time and the file's
// size").
const chunkReaders = 2

// chunkFile reads a file chunk by chunk, hashes each chunk and, when store
// is not nil, stores the chunks it does not have yet (each compressed and
// fsynced). With a memo, a chunk whose xxh3-128 equals the one the memo
// holds for the same position of the same file reuses the memo's SHA-256
// (see "Hashing only what changed" in doc.go); the memo then holds this
// chunking. afterBlock, if set, is called after each newly stored block (a
// fault point in tests).
//
// chunkReaders goroutines read the file (pread) and compute the
// pre-check; chunks that need their SHA-256 go to chunkWorkers
// goroutines, which hash, compress and store them. The chunking is
// returned only once every one of them is stored.
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
	count := 0
	for chunkSize(count, size) > 0 {
		count++
	}
	next := &fileMemo{dev: dev, ino: ino, blocks: make([]blockMemo, count)}
	c.Map = catalog.ChunkMap{FileSize: size, Chunks: make([]Hash, count)}
	w := newChunkHashers(store, afterBlock)
	var hashed atomic.Int64
	var readMu sync.Mutex
	var readErr error
	var readers sync.WaitGroup
	for r := range chunkReaders {
		readers.Add(1)
		go func() {
			defer readers.Done()
			for i := r; i < count; i += chunkReaders {
				n := chunkSize(i, size)
				chunk := w.buffer()
				if chunk == nil { // a worker failed
					return
				}
				chunk = chunk[:n]
				if _, err := f.ReadAt(chunk, chunkStart(i)); err != nil {
					w.release(chunk)
					readMu.Lock()
					if readErr == nil {
						readErr = fmt.Errorf("chunk %s: %w", path, err)
					}
					readMu.Unlock()
					w.fail()
					return
				}
				var q xxh3.Uint128
				if memo != nil {
					q = memo.quick(chunk)
				}
				h, reused := prev.reuse(i, n, q)
				if reused && store != nil && !store.Has(h) {
					reused = false // the memo outlived the block (e.g. gc after retention): store it again
				}
				c.Map.Chunks[i] = h
				next.blocks[i] = blockMemo{n: n, quick: q, sum: h}
				if reused {
					w.release(chunk)
					continue
				}
				hashed.Add(1)
				w.hash(i, chunk)
			}
		}()
	}
	readers.Wait()
	sums, newBytes, err := w.wait()
	if readErr != nil {
		return c, readErr
	}
	if err != nil {
		return c, err
	}
	for i, h := range sums {
		c.Map.Chunks[i] = h
		next.blocks[i].sum = h
	}
	c.Hashed = int(hashed.Load())
	c.NewBytes = newBytes
	c.Map.Root = contentRoot(size, c.Map.Chunks)
	if memo != nil && identified {
		memo.remember(path, next)
	}
	return c, nil
}

// chunkStart is the offset of chunk i in its file.
func chunkStart(i int) int64 {
	if i == 0 {
		return 0
	}
	return HeaderSize + int64(i-1)*BlockSize
}

// chunkHashers hashes (and stores) the chunks chunkFile hands it on
// chunkWorkers goroutines, with a fixed set of chunk buffers, so that
// reading the file waits when the workers fall behind.
type chunkHashers struct {
	store      *BlockStore
	afterBlock func()
	free       chan []byte
	work       chan hashJob
	done       chan struct{}
	wg         sync.WaitGroup

	mu       sync.Mutex
	sums     map[int]Hash
	newBytes int64
	err      error
	stopped  bool // done is closed
}

type hashJob struct {
	i     int
	chunk []byte
}

func newChunkHashers(store *BlockStore, afterBlock func()) *chunkHashers {
	w := &chunkHashers{store: store, afterBlock: afterBlock, free: make(chan []byte, 2*chunkWorkers),
		work: make(chan hashJob), done: make(chan struct{}), sums: map[int]Hash{}}
	for range 2 * chunkWorkers {
		w.free <- make([]byte, BlockSize)
	}
	for range chunkWorkers {
		w.wg.Add(1)
		go w.run()
	}
	return w
}

// buffer returns a free chunk buffer, or nil once a worker has failed.
func (w *chunkHashers) buffer() []byte {
	select {
	case b := <-w.free:
		return b[:cap(b)]
	case <-w.done:
		return nil
	}
}

func (w *chunkHashers) release(b []byte) { w.free <- b }

func (w *chunkHashers) hash(i int, chunk []byte) {
	select {
	case w.work <- hashJob{i, chunk}:
	case <-w.done:
		w.release(chunk)
	}
}

func (w *chunkHashers) run() {
	defer w.wg.Done()
	for job := range w.work {
		h := sha256.Sum256(job.chunk)
		var stored int64
		var err error
		if w.store != nil {
			stored, err = w.store.Put(h, job.chunk)
		}
		w.release(job.chunk)
		w.mu.Lock()
		w.sums[job.i] = h
		w.newBytes += stored
		if err != nil && w.err == nil {
			w.err = err
			w.stopLocked()
		}
		w.mu.Unlock()
		if err == nil && stored > 0 && w.afterBlock != nil {
			w.afterBlock()
		}
	}
}

// fail stops handing out buffers and work (a reader failed).
func (w *chunkHashers) fail() {
	w.mu.Lock()
	w.stopLocked()
	w.mu.Unlock()
}

func (w *chunkHashers) stopLocked() {
	if !w.stopped {
		w.stopped = true
		close(w.done)
	}
}

// wait stops the workers once they have finished and returns the hashes
// they computed by chunk index, the bytes they stored, and the first error.
func (w *chunkHashers) wait() (map[int]Hash, int64, error) {
	close(w.work)
	w.wg.Wait()
	return w.sums, w.newBytes, w.err
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
