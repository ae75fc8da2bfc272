package pgwire

import (
	"io"
	"net"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
)

// A client in a request/response loop (an ORM's point queries, a
// benchmark) sends its next message a few tens of microseconds after it
// read the answer to the last one. A connection's goroutine that blocks
// in the network poller meanwhile puts its thread to sleep, and the next
// message must wake the poller, then the goroutine's thread: on an
// otherwise idle machine each wake-up costs tens of microseconds, paid
// on every statement. spinReader reads a TCP or Unix-domain connection
// without sleeping for up to Options.ReadSpin first (non-blocking reads
// in a loop), and only then blocks as net.Conn does. It spins only while no other
// connection is handling a message or spinning (busyConns) and none has
// read one within quietPeriod (lastReader): a busy server never spends a
// CPU on it, and a lone client pays at most ReadSpin of CPU per message.
// vsqld spins for 100 µs by default (--read-spin): it lowers the median
// latency of point queries (docs/BENCHMARKS.md, "Point queries").

// busyConns counts the connections with a read spin that are handling a
// message or spinning.
var busyConns atomic.Int64

// lastReader is the id of the spinReader that read data last (an id, not
// a pointer, so that a closed connection's reader is not kept), and
// lastReadAt when (nanoseconds since spinEpoch). A connection spins and
// pins its thread only when no other connection has read anything for
// quietPeriod: with many clients in request/response loops there are
// moments when none is busy, and a spin or a pin then only costs the
// others CPU and hand-offs.
var (
	lastReader   atomic.Uint64
	lastReadAt   atomic.Int64
	spinEpoch    = time.Now()
	spinReaderID atomic.Uint64 // the last id given to a spinReader
)

// quietPeriod is how long other connections must have read nothing before
// a connection spins.
const quietPeriod = time.Millisecond

// othersActive reports whether a connection other than r read data within
// quietPeriod.
func (r *spinReader) othersActive() bool {
	return lastReader.Load() != r.id && time.Since(spinEpoch)-time.Duration(lastReadAt.Load()) < quietPeriod
}

// noteRead records that r read data.
func (r *spinReader) noteRead() {
	if lastReader.Load() != r.id {
		lastReader.Store(r.id)
	}
	lastReadAt.Store(int64(time.Since(spinEpoch)))
}

// pinThread locks the connection's goroutine to its OS thread while it is
// alone (no other connection busy, none read a message within
// quietPeriod), and unlocks it once it is not. A lone client's statements
// then run on one thread from the read spin through DuckDB and back:
// measured side by side with 1 pgx client of point queries (6 runs
// alternating), p50 0.35–0.50 ms against 0.40–0.51 ms unlocked, lower in
// every run, and p99 0.74–1.31 ms against 1.22–1.89 ms. With many
// clients a locked goroutine costs a hand-off to its own thread at every
// wake-up: locking all of them took 16 clients' throughput down by about
// 10%, so a busy server unlocks. "No other connection busy" alone was the
// first rule: 16 clients on two CPUs leave moments when none is busy, and
// their spins and pins then cost 5–16% of the throughput (ARCHITECTURE.md).
// Serve calls it before each read, on its own goroutine, and unpinThread
// when it returns.
func (c *Conn) pinThread() {
	if c.spin == nil {
		return
	}
	lone := busyConns.Load() == 0 && !c.spin.othersActive()
	switch {
	case lone && !c.pinned:
		runtime.LockOSThread()
		c.pinned = true
	case !lone && c.pinned:
		runtime.UnlockOSThread()
		c.pinned = false
	}
}

func (c *Conn) unpinThread() {
	if c.pinned {
		runtime.UnlockOSThread()
		c.pinned = false
	}
}

// spinReader is a TCP or Unix-domain connection's reader that spins before blocking.
type spinReader struct {
	id   uint64 // for lastReader
	conn net.Conn
	raw  syscall.RawConn
	spin time.Duration
}

// newSpinReader returns c itself when spinning is off or c is no plain
// TCP or Unix-domain connection (TLS reads through its own record layer).
func newSpinReader(c net.Conn, spin time.Duration) io.Reader {
	var sc syscall.Conn
	switch c := c.(type) {
	case *net.TCPConn:
		sc = c
	case *net.UnixConn:
		sc = c
	}
	if sc == nil || spin <= 0 {
		return c
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	return &spinReader{id: spinReaderID.Add(1), conn: c, raw: raw, spin: spin}
}

func (r *spinReader) Read(b []byte) (int, error) {
	n, err := r.read(b)
	if n > 0 {
		r.noteRead()
	}
	return n, err
}

func (r *spinReader) read(b []byte) (int, error) {
	if len(b) == 0 || busyConns.Add(1) > 1 || r.othersActive() {
		busyConns.Add(-1)
		return r.conn.Read(b)
	}
	n, err, done := r.spinRead(b)
	busyConns.Add(-1)
	if done {
		return n, err
	}
	return r.conn.Read(b)
}

// spinRead reads b with non-blocking reads until data, end of stream or
// an error arrives (done) or the spin time has passed (not done: nothing
// was read).
func (r *spinReader) spinRead(b []byte) (n int, err error, done bool) {
	until := time.Now().Add(r.spin)
	rawErr := r.raw.Read(func(fd uintptr) bool {
		for {
			m, e := syscall.Read(int(fd), b)
			switch {
			case e == syscall.EINTR:
				continue
			case e == syscall.EAGAIN:
				if time.Now().Before(until) {
					continue
				}
				return true // (not done: block in conn.Read)
			case e != nil:
				err = &net.OpError{Op: "read", Net: r.conn.LocalAddr().Network(), Source: r.conn.LocalAddr(), Addr: r.conn.RemoteAddr(), Err: os.NewSyscallError("read", e)}
			case m == 0:
				err = io.EOF
			}
			n, done = max(m, 0), true
			return true
		}
	})
	if rawErr != nil {
		return 0, rawErr, true
	}
	return n, err, done
}
