package pgwire

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// tcpPair returns the two ends of a loopback TCP connection.
func tcpPair(t *testing.T) (server, client net.Conn) {
	t.Helper()
	return connPair(t, "tcp")
}

// connPair returns the two ends of a loopback TCP connection ("tcp") or
// of a Unix-domain socket's ("unix").
func connPair(t *testing.T, network string) (server, client net.Conn) {
	t.Helper()
	addr := "127.0.0.1:0"
	if network == "unix" {
		addr = t.TempDir() + "/s"
	}
	ln, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	client, err = net.Dial(network, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server = <-accepted
	if server == nil {
		t.Fatal("accept failed")
	}
	t.Cleanup(func() { server.Close(); client.Close() })
	return server, client
}

// TestSpinReader: what the client sends arrives whether it comes while the
// reader spins or after it gave up and blocked, in pieces larger than the
// reader's buffer, and the client's close is io.EOF; over TCP and over a
// Unix-domain socket.
func TestSpinReader(t *testing.T) {
	for _, network := range []string{"tcp", "unix"} {
		t.Run(network, func(t *testing.T) { testSpinReader(t, network) })
	}
}

func testSpinReader(t *testing.T, network string) {
	server, client := connPair(t, network)
	r := newSpinReader(server, 2*time.Millisecond)
	if _, ok := r.(*spinReader); !ok {
		t.Fatalf("newSpinReader of a %s connection: %T, want *spinReader", network, r)
	}
	buf := make([]byte, 4)
	// during the spin
	go func() { time.Sleep(100 * time.Microsecond); client.Write([]byte("abc")) }()
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "abc" {
		t.Fatalf("read during the spin: %q, %v", buf[:n], err)
	}
	// after the spin: the reader blocks and still gets it
	go func() { time.Sleep(30 * time.Millisecond); client.Write([]byte("later")) }()
	var got bytes.Buffer
	for got.Len() < len("later") {
		n, err := r.Read(buf)
		if err != nil {
			t.Fatalf("read after the spin: %v", err)
		}
		got.Write(buf[:n])
	}
	if got.String() != "later" {
		t.Fatalf("read after the spin: %q", got.String())
	}
	if n := busyConns.Load(); n != 0 {
		t.Errorf("busyConns after the reads: %d, want 0", n)
	}
	// end of stream
	client.Close()
	if n, err := r.Read(buf); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("read after the client closed: %d, %v, want io.EOF", n, err)
	}
}

// TestSpinReaderOff: no spin time, or a connection that is not plain TCP,
// reads through the connection itself.
func TestSpinReaderOff(t *testing.T) {
	server, _ := tcpPair(t)
	if r := newSpinReader(server, 0); r != io.Reader(server) {
		t.Errorf("spin 0: %T, want the connection", r)
	}
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	if r := newSpinReader(a, time.Millisecond); r != io.Reader(a) {
		t.Errorf("a pipe: %T, want the connection", r)
	}
}

// TestSpinReaderClosedLocally: closing the connection while the reader
// spins ends the read with net.ErrClosed, as a blocked read ends.
func TestSpinReaderClosedLocally(t *testing.T) {
	server, _ := tcpPair(t)
	r := newSpinReader(server, 50*time.Millisecond)
	go func() { time.Sleep(5 * time.Millisecond); server.Close() }()
	_, err := r.Read(make([]byte, 8))
	if !errors.Is(err, net.ErrClosed) {
		t.Fatalf("read of a connection closed during the spin: %v, want net.ErrClosed", err)
	}
}

// TestPinThread: a lone connection's goroutine stays on one OS thread; it
// is released as soon as another connection is busy or has just read a
// message, and at the end.
func TestPinThread(t *testing.T) {
	server, client := tcpPair(t)
	otherServer, otherClient := tcpPair(t)
	other := newSpinReader(otherServer, time.Millisecond).(*spinReader)
	done := make(chan error, 1)
	go func() {
		done <- func() error {
			c := &Conn{opts: Options{ReadSpin: time.Millisecond}, spin: newSpinReader(server, time.Millisecond).(*spinReader)}
			defer c.unpinThread()
			c.pinThread()
			if !c.pinned {
				return errors.New("not pinned while no connection is busy")
			}
			tid := syscall.Gettid()
			for range 200 {
				runtime.Gosched()
				time.Sleep(10 * time.Microsecond)
				if got := syscall.Gettid(); got != tid {
					return fmt.Errorf("a pinned goroutine moved from thread %d to %d", tid, got)
				}
			}
			busyConns.Add(1)
			c.pinThread()
			busyConns.Add(-1)
			if c.pinned {
				return errors.New("still pinned while another connection is busy")
			}
			// another connection reads a message: not lone for quietPeriod
			otherClient.Write([]byte("x"))
			if _, err := other.Read(make([]byte, 4)); err != nil {
				return err
			}
			c.pinThread()
			if c.pinned {
				return errors.New("pinned right after another connection read a message")
			}
			time.Sleep(quietPeriod + time.Millisecond)
			c.pinThread()
			if !c.pinned {
				return errors.New("not pinned once the other connection was quiet")
			}
			// its own messages leave it lone
			client.Write([]byte("y"))
			if _, err := c.spin.Read(make([]byte, 4)); err != nil {
				return err
			}
			c.pinThread()
			if !c.pinned {
				return errors.New("unpinned after reading its own message")
			}
			c.unpinThread()
			if c.pinned {
				return errors.New("pinned after unpinThread")
			}
			off := &Conn{opts: Options{ReadSpin: time.Millisecond}}
			off.pinThread()
			if off.pinned {
				return errors.New("pinned without a read spin (spin 0 or TLS)")
			}
			return nil
		}()
	}()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
