package server_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/vsql/vsql/server"
)

// rawConn is a protocol-level client for tests that need exact messages.
type rawConn struct {
	t  *testing.T
	nc net.Conn
	fe *pgproto3.Frontend
}

func dialRaw(t *testing.T, addr string) *rawConn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	_ = nc.SetDeadline(time.Now().Add(20 * time.Second))
	return &rawConn{t: t, nc: nc, fe: pgproto3.NewFrontend(nc, nc)}
}

func (c *rawConn) startup(db string) {
	c.t.Helper()
	c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "raw", "database": db}})
	c.flush()
	c.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.ReadyForQuery); return ok })
}

func (c *rawConn) send(msgs ...pgproto3.FrontendMessage) {
	for _, m := range msgs {
		c.fe.Send(m)
	}
	c.flush()
}

func (c *rawConn) flush() {
	c.t.Helper()
	if err := c.fe.Flush(); err != nil {
		c.t.Fatal(err)
	}
}

func (c *rawConn) receive() pgproto3.BackendMessage {
	c.t.Helper()
	m, err := c.fe.Receive()
	if err != nil {
		c.t.Fatalf("receive: %v", err)
	}
	return m
}

// until collects messages up to and including the one stop accepts.
func (c *rawConn) until(stop func(pgproto3.BackendMessage) bool) []pgproto3.BackendMessage {
	c.t.Helper()
	var out []pgproto3.BackendMessage
	for {
		m := clone(c.receive())
		out = append(out, m)
		if stop(m) {
			return out
		}
	}
}

// clone copies a message: the Frontend reuses one value per message type.
func clone(m pgproto3.BackendMessage) pgproto3.BackendMessage {
	buf, err := m.Encode(nil)
	if err != nil {
		panic(err)
	}
	fresh := reflect.New(reflect.TypeOf(m).Elem()).Interface().(pgproto3.BackendMessage)
	if err := fresh.Decode(buf[5:]); err != nil {
		panic(err)
	}
	return fresh
}

func (c *rawConn) untilReady() []pgproto3.BackendMessage {
	return c.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.ReadyForQuery); return ok })
}

func (c *rawConn) simple(q string) []pgproto3.BackendMessage {
	c.send(&pgproto3.Query{String: q})
	return c.untilReady()
}

func countType[T any](msgs []pgproto3.BackendMessage) int {
	n := 0
	for _, m := range msgs {
		if _, ok := m.(T); ok {
			n++
		}
	}
	return n
}

func TestPortalReadInBatches(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	// The portal is made inside the transaction block: a Sync outside one
	// ends the implicit transaction and its portals, as in PostgreSQL.
	c.send(&pgproto3.Query{String: "BEGIN"})
	c.untilReady()
	c.send(
		&pgproto3.Parse{Name: "s1", Query: "SELECT range AS i FROM range(1050)"},
		&pgproto3.Bind{DestinationPortal: "p1", PreparedStatement: "s1"},
		&pgproto3.Sync{},
	)
	c.untilReady()
	total, suspended := 0, 0
	for {
		c.send(&pgproto3.Execute{Portal: "p1", MaxRows: 100}, &pgproto3.Flush{})
		msgs := c.until(func(m pgproto3.BackendMessage) bool {
			switch m.(type) {
			case *pgproto3.PortalSuspended, *pgproto3.CommandComplete, *pgproto3.ErrorResponse:
				return true
			}
			return false
		})
		rows := countType[*pgproto3.DataRow](msgs)
		if rows > 100 {
			t.Fatalf("Execute with MaxRows 100 returned %d rows", rows)
		}
		total += rows
		last := msgs[len(msgs)-1]
		if e, ok := last.(*pgproto3.ErrorResponse); ok {
			t.Fatalf("error: %s", e.Message)
		}
		if _, ok := last.(*pgproto3.PortalSuspended); ok {
			suspended++
			continue
		}
		if cc := last.(*pgproto3.CommandComplete); string(cc.CommandTag) != "SELECT 50" {
			t.Errorf("final tag %q, want SELECT 50", cc.CommandTag)
		}
		break
	}
	if total != 1050 || suspended != 10 {
		t.Errorf("read %d rows with %d suspensions, want 1050 and 10", total, suspended)
	}
	c.send(&pgproto3.Sync{})
	msgs := c.untilReady()
	if rfq := msgs[len(msgs)-1].(*pgproto3.ReadyForQuery); rfq.TxStatus != 'T' {
		t.Errorf("tx status %c, want T", rfq.TxStatus)
	}
}

func TestDescribeDoesNotExecute(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.simple("CREATE TABLE d(a int, b text)")
	c.send(
		&pgproto3.Parse{Name: "ins", Query: "INSERT INTO d VALUES ($1, $2)"},
		&pgproto3.Describe{ObjectType: 'S', Name: "ins"},
		&pgproto3.Parse{Name: "sel", Query: "SELECT a, b FROM d WHERE a = $1"},
		&pgproto3.Describe{ObjectType: 'S', Name: "sel"},
		&pgproto3.Parse{Name: "typed", Query: "SELECT $1 AS x", ParameterOIDs: []uint32{20}},
		&pgproto3.Describe{ObjectType: 'S', Name: "typed"},
		&pgproto3.Sync{},
	)
	msgs := c.untilReady()
	var params [][]uint32
	var rowDescs []*pgproto3.RowDescription
	noData := 0
	for _, m := range msgs {
		switch m := m.(type) {
		case *pgproto3.ParameterDescription:
			params = append(params, append([]uint32(nil), m.ParameterOIDs...))
		case *pgproto3.RowDescription:
			rd := *m
			rd.Fields = append([]pgproto3.FieldDescription(nil), m.Fields...)
			rowDescs = append(rowDescs, &rd)
		case *pgproto3.NoData:
			noData++
		case *pgproto3.ErrorResponse:
			t.Fatalf("error: %s", m.Message)
		}
	}
	if len(params) != 3 || len(params[0]) != 2 || params[0][0] != 23 || params[0][1] != 25 || params[1][0] != 23 || params[2][0] != 20 {
		t.Errorf("parameter types %v, want [[23 25] [23] [20]]", params)
	}
	if noData != 1 || len(rowDescs) != 2 || len(rowDescs[0].Fields) != 2 || rowDescs[0].Fields[0].DataTypeOID != 23 {
		t.Errorf("descriptions: noData=%d rowDescs=%d", noData, len(rowDescs))
	}
	msgs = c.simple("SELECT count(*) FROM d")
	for _, m := range msgs {
		if dr, ok := m.(*pgproto3.DataRow); ok && string(dr.Values[0]) != "0" {
			t.Errorf("describe inserted rows: count = %s", dr.Values[0])
		}
	}
}

func TestExtendedErrorSkipsUntilSync(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.send(
		&pgproto3.Parse{Query: "SELECT * FROM missing_table"},
		&pgproto3.Bind{},
		&pgproto3.Execute{},
		&pgproto3.Parse{Name: "after", Query: "SELECT 1"},
		&pgproto3.Sync{},
		&pgproto3.Parse{Name: "after", Query: "SELECT 2"},
		&pgproto3.Bind{PreparedStatement: "after"},
		&pgproto3.Execute{},
		&pgproto3.Sync{},
	)
	first := c.untilReady()
	if len(first) != 2 {
		t.Fatalf("first batch: %d messages, want ErrorResponse + ReadyForQuery", len(first))
	}
	if e, ok := first[0].(*pgproto3.ErrorResponse); !ok || e.Code != "42P01" {
		t.Fatalf("first batch starts with %#v, want 42P01", first[0])
	}
	second := c.untilReady()
	if countType[*pgproto3.DataRow](second) != 1 || countType[*pgproto3.ErrorResponse](second) != 0 {
		t.Errorf("second batch after Sync did not run cleanly: %d messages", len(second))
	}
}

func TestMalformedMessagesDoNotDisturbOthers(t *testing.T) {
	addr := startServer(t, func(c *server.Config) { c.MaxMessageSize = 1 << 20 })
	conn := connectPgx(t, addr)

	// A well-behaved session queries in a loop the whole time.
	ctx, stop := context.WithCancel(context.Background())
	var queries atomic.Int64
	var loopErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			var n int64
			if err := conn.QueryRow(context.Background(), "SELECT sum(range) FROM range(1000)").Scan(&n); err != nil {
				loopErr = err
				return
			}
			if n != 499500 {
				loopErr = errors.New("wrong sum")
				return
			}
			queries.Add(1)
		}
	}()

	raw := func(name string, payload []byte, afterStartup bool, wantError bool) {
		t.Run(name, func(t *testing.T) {
			c := dialRaw(t, addr)
			if afterStartup {
				c.startup("postgres")
			}
			if _, err := c.nc.Write(payload); err != nil {
				t.Fatal(err)
			}
			// The server answers with an ErrorResponse and/or closes; it must
			// never hang or crash.
			_ = c.nc.SetReadDeadline(time.Now().Add(5 * time.Second))
			sawError := false
			for {
				m, err := c.fe.Receive()
				if err != nil {
					var ne net.Error
					if errors.As(err, &ne) && ne.Timeout() {
						t.Fatal("server neither answered nor closed the connection")
					}
					break
				}
				if _, ok := m.(*pgproto3.ErrorResponse); ok {
					sawError = true
				}
			}
			if wantError && !sawError {
				t.Error("no ErrorResponse before the connection closed")
			}
		})
	}
	be32 := func(n uint32) []byte { return binary.BigEndian.AppendUint32(nil, n) }
	raw("garbage startup code", append(be32(8), 0xde, 0xad, 0xbe, 0xef), false, true)
	raw("startup length too large", be32(0x7fffffff), false, true)
	raw("startup length too small", be32(2), false, true)
	raw("unknown message type", append([]byte{'z'}, be32(4)...), true, true)
	raw("oversized query", append([]byte{'Q'}, be32(2<<20)...), true, true)
	raw("negative length", append([]byte{'Q'}, be32(0xffffffff)...), true, true)
	raw("bind body garbage", append(append([]byte{'B'}, be32(12)...), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), true, true)

	t.Run("truncated message then close", func(t *testing.T) {
		c := dialRaw(t, addr)
		c.startup("postgres")
		_, _ = c.nc.Write(append([]byte{'Q'}, be32(1000)...))
		c.nc.(*net.TCPConn).CloseWrite()
		_, err := io.ReadAll(c.nc)
		if err != nil {
			t.Fatal(err)
		}
	})

	t.Run("protocol errors that keep the session", func(t *testing.T) {
		c := dialRaw(t, addr)
		c.startup("postgres")
		c.send(&pgproto3.Bind{PreparedStatement: "nope"}, &pgproto3.Sync{})
		msgs := c.untilReady()
		if e, ok := msgs[0].(*pgproto3.ErrorResponse); !ok || e.Code != "26000" {
			t.Errorf("bind to unknown statement: %#v", msgs[0])
		}
		c.send(&pgproto3.Parse{Name: "p", Query: "SELECT $1::int"}, &pgproto3.Bind{PreparedStatement: "p"}, &pgproto3.Sync{})
		msgs = c.untilReady()
		if countType[*pgproto3.ErrorResponse](msgs) != 1 {
			t.Errorf("bind with missing parameters: no error")
		}
		c.send(&pgproto3.Parse{Query: "SELECT 1; SELECT 2"}, &pgproto3.Sync{})
		msgs = c.untilReady()
		if e, ok := msgs[0].(*pgproto3.ErrorResponse); !ok || e.Code != "42601" {
			t.Errorf("parse of two statements: %#v", msgs[0])
		}
		msgs = c.simple("SELECT 7")
		if countType[*pgproto3.DataRow](msgs) != 1 {
			t.Error("session unusable after protocol errors")
		}
	})

	time.Sleep(100 * time.Millisecond)
	stop()
	wg.Wait()
	if loopErr != nil {
		t.Fatalf("the other session was disturbed: %v", loopErr)
	}
	if queries.Load() < 10 {
		t.Errorf("the other session ran only %d queries", queries.Load())
	}
	// The server still accepts new sessions.
	c := dialRaw(t, addr)
	c.startup("postgres")
	if msgs := c.simple("SELECT 1"); countType[*pgproto3.DataRow](msgs) != 1 {
		t.Error("new session failed")
	}
}

func TestMaxConnections(t *testing.T) {
	addr := startServer(t, func(c *server.Config) { c.MaxConnections = 2 })
	connectPgx(t, addr)
	connectPgx(t, addr)
	c := dialRaw(t, addr)
	c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "x", "database": "postgres"}})
	c.flush()
	m := c.receive()
	if e, ok := m.(*pgproto3.ErrorResponse); !ok || e.Code != "53300" || e.Severity != "FATAL" {
		t.Fatalf("third connection got %#v, want FATAL 53300", m)
	}
}

func TestDatabasesCreateDropConnect(t *testing.T) {
	addr := startServer(t, nil)
	admin := dialRaw(t, addr)
	admin.startup("postgres")
	if msgs := admin.simple("CREATE DATABASE retail"); countType[*pgproto3.ErrorResponse](msgs) != 0 {
		t.Fatalf("create: %#v", msgs[0])
	}
	user := dialRaw(t, addr)
	user.startup("retail")
	user.simple("CREATE TABLE r(a int); INSERT INTO r VALUES (1)")
	msgs := admin.simple("DROP DATABASE retail")
	if e, ok := msgs[0].(*pgproto3.ErrorResponse); !ok || e.Code != "55006" {
		t.Fatalf("drop while in use: %#v", msgs[0])
	}
	// Tables of one database are not visible unqualified from another.
	if msgs := admin.simple("SELECT * FROM r"); countType[*pgproto3.ErrorResponse](msgs) != 1 {
		t.Error("table of retail visible in postgres")
	}
	user.send(&pgproto3.Terminate{})
	user.nc.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		msgs = admin.simple("DROP DATABASE retail")
		if countType[*pgproto3.ErrorResponse](msgs) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("drop after disconnect: %#v", msgs[0])
		}
		time.Sleep(20 * time.Millisecond)
	}
	c := dialRaw(t, addr)
	c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "x", "database": "retail"}})
	c.flush()
	if e, ok := c.receive().(*pgproto3.ErrorResponse); !ok || e.Code != "3D000" {
		t.Fatalf("connect to dropped database: %#v", e)
	}
}

func TestReadyForQueryStatus(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	status := func(q string) byte {
		msgs := c.simple(q)
		return msgs[len(msgs)-1].(*pgproto3.ReadyForQuery).TxStatus
	}
	steps := []struct {
		q    string
		want byte
	}{
		{"SELECT 1", 'I'},
		{"BEGIN", 'T'},
		{"SELECT 1", 'T'},
		{"SELECT * FROM missing", 'E'},
		{"SELECT 1", 'E'},
		{"ROLLBACK", 'I'},
		{"BEGIN; SELECT 1", 'T'},
		{"COMMIT", 'I'},
	}
	for _, s := range steps {
		if got := status(s.q); got != s.want {
			t.Errorf("after %q: status %c, want %c", s.q, got, s.want)
		}
	}
}

// Small constructors so tests read as message scripts.
func describeStatement(name string) *pgproto3.Describe {
	return &pgproto3.Describe{ObjectType: 'S', Name: name}
}
func bindMsg(stmt string) *pgproto3.Bind { return &pgproto3.Bind{PreparedStatement: stmt} }
func executeMsg() *pgproto3.Execute      { return &pgproto3.Execute{} }
func syncMsg() *pgproto3.Sync            { return &pgproto3.Sync{} }

// dataRowText is the first column of the first DataRow.
func dataRowText(msgs []pgproto3.BackendMessage) string {
	for _, m := range msgs {
		if dr, ok := m.(*pgproto3.DataRow); ok {
			return string(dr.Values[0])
		}
	}
	return "<no row>"
}

// TestShutdownWaitsForTheExchange: a shutdown that starts between the
// Execute of a statement and the client's Sync lets the exchange end with
// its ReadyForQuery, then ends the session (FATAL 57P01); it does not cut
// off an answered statement. An idle session ends at once.
func TestShutdownWaitsForTheExchange(t *testing.T) {
	addr, stop := runServer(t, server.Config{DataDir: t.TempDir()})
	busy, idle := dialRaw(t, addr), dialRaw(t, addr)
	busy.startup("postgres")
	idle.startup("postgres")
	busy.send(&pgproto3.Parse{Query: "SELECT 42"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Flush{})
	busy.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.CommandComplete); return ok })
	stopped := make(chan struct{})
	go func() { stop(); close(stopped) }()
	// The idle session is ended without waiting for the busy one.
	last := idle.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.ErrorResponse); return ok })
	if e := last[len(last)-1].(*pgproto3.ErrorResponse); e.Code != "57P01" {
		t.Fatalf("idle session: %s %s", e.Code, e.Message)
	}
	select {
	case <-stopped:
		t.Fatal("the server stopped before the busy session's exchange ended")
	case <-time.After(200 * time.Millisecond):
	}
	busy.send(&pgproto3.Sync{})
	msgs := busy.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.ErrorResponse); return ok })
	if len(msgs) != 2 || countType[*pgproto3.ReadyForQuery](msgs) != 1 || msgs[1].(*pgproto3.ErrorResponse).Code != "57P01" {
		t.Fatalf("after Sync: %#v, want ReadyForQuery then FATAL 57P01", msgs)
	}
	<-stopped
}
