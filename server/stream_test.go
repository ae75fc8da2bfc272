package server_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/vsql/vsql/internal/pgtest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/vsql/vsql/server"
)

// streamTable holds every type the chunk path encodes, with NULLs (every
// 7th row), values across several chunks and more than one 64 KiB buffer.
const streamTable = `CREATE TABLE st AS SELECT
	i,
	CASE WHEN i % 7 = 0 THEN NULL ELSE i % 3 = 0 END AS b,
	CASE WHEN i % 7 = 1 THEN NULL ELSE (i % 200 - 100)::TINYINT END AS i1,
	CASE WHEN i % 7 = 2 THEN NULL ELSE (i * 7 - 20000)::SMALLINT END AS i2,
	CASE WHEN i % 7 = 3 THEN NULL ELSE (i * 104729 - 300000000)::INTEGER END AS i4,
	CASE WHEN i % 7 = 4 THEN NULL ELSE i::BIGINT * 1000000007 - 9000000000 END AS i8,
	CASE WHEN i % 7 = 5 THEN NULL ELSE (i / 7.0 - 300)::REAL END AS f4,
	CASE WHEN i % 7 = 6 THEN NULL ELSE i / 3.0 * pow(10, i % 40 - 20) END AS f8,
	CASE WHEN i % 7 = 0 THEN NULL ELSE repeat('é', i % 20) || i::VARCHAR END AS t,
	CASE WHEN i % 7 = 1 THEN NULL ELSE ('x' || i::VARCHAR || repeat('y', i % 15))::BLOB END AS by,
	CASE WHEN i % 7 = 2 THEN NULL ELSE DATE '1970-01-01' + (i * 397 - 800000)::INTEGER END AS d,
	CASE WHEN i % 7 = 3 THEN NULL ELSE TIMESTAMP '1900-01-01' + to_microseconds(i::BIGINT * 987654321987) END AS ts,
	CASE WHEN i % 7 = 4 THEN NULL ELSE TIMESTAMPTZ '1960-06-01 00:00:00+00' + to_microseconds(i::BIGINT * 987654321987) END AS tz,
	CASE WHEN i % 7 = 5 THEN NULL ELSE (i * 1.37 - 3000)::DECIMAL(6,2) END AS n1,
	CASE WHEN i % 7 = 6 THEN NULL ELSE (i * 1234.567891 - 3000000)::DECIMAL(18,6) END AS n2,
	CASE WHEN i % 7 = 0 THEN NULL ELSE (i * 100003 - 200000000)::DECIMAL(9,0) END AS n3,
	CASE WHEN i % 7 = 1 THEN NULL ELSE (i * 98765.4321 - 1e8)::DECIMAL(38,10) END AS n4,
	CASE WHEN i % 7 = 2 THEN NULL ELSE (i % 50 * 0.0001)::DECIMAL(18,17) END AS n5,
	CASE WHEN i % 7 = 3 THEN NULL ELSE md5(i::VARCHAR)::UUID END AS u
FROM range(0, 5000) r(i)`

var streamQueries = []string{
	"SELECT * FROM st ORDER BY i",
	"SELECT b, i1, i2, i4, i8 FROM st ORDER BY i",
	"SELECT t, by, u FROM st ORDER BY i",
	"SELECT d, ts, tz FROM st ORDER BY i",
	"SELECT n1, n2, n3, n4, n5, f4, f8 FROM st ORDER BY i",
	"SELECT 'infinity'::DATE, '-infinity'::DATE, 'infinity'::TIMESTAMP, '-infinity'::TIMESTAMP, 'infinity'::TIMESTAMPTZ, DATE '0044-03-15 (BC)', TIMESTAMP '0001-01-01 00:00:00' - INTERVAL 400 DAY, TIMESTAMPTZ '0500-06-01 12:00:00+00', 0::DECIMAL(4,2), -0.01::DECIMAL(4,2), 'nan'::DOUBLE, '-inf'::REAL, -0.0::DOUBLE",
	"SELECT NULL::INTEGER, NULL::VARCHAR, ''::VARCHAR, ''::BLOB",
	"SELECT * FROM st WHERE false",
}

// wire runs fn on a fresh raw connection and returns every message up to
// ReadyForQuery, re-encoded: the exact bytes the client received.
func wireBytes(t *testing.T, addr string, setup []string, run func(c *rawConn)) []byte {
	t.Helper()
	c := dialRaw(t, addr)
	c.startup("postgres")
	for _, q := range setup {
		c.send(&pgproto3.Query{String: q})
		c.until(isReady)
	}
	run(c)
	var out []byte
	for _, m := range c.until(isReady) {
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			t.Fatalf("error: %s", e.Message)
		}
		b, err := m.Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

// errorCode is the SQLSTATE of the first ErrorResponse in msgs, "" if none.
func errorCode(msgs []pgproto3.BackendMessage) string {
	for _, m := range msgs {
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			return e.Code
		}
	}
	return ""
}

func isReady(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.ReadyForQuery); return ok }

// TestStreamSameBytes runs the same queries through the row path and the
// chunk path and compares the bytes: text and binary, simple and extended
// protocol, a non-UTC TimeZone, and portals with a row limit.
func TestStreamSameBytes(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.send(&pgproto3.Query{String: streamTable})
	for _, m := range c.until(isReady) {
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			t.Fatalf("create: %s", e.Message)
		}
	}
	defer server.SetStreamResults(true)
	type variant struct {
		name  string
		setup []string
		run   func(c *rawConn, q string)
	}
	extended := func(format int16, maxRows uint32) func(c *rawConn, q string) {
		return func(c *rawConn, q string) {
			msgs := []pgproto3.FrontendMessage{
				&pgproto3.Parse{Query: q},
				&pgproto3.Bind{ResultFormatCodes: []int16{format}},
				&pgproto3.Describe{ObjectType: 'P'},
				&pgproto3.Execute{MaxRows: maxRows},
			}
			if maxRows > 0 {
				msgs = append(msgs, &pgproto3.Execute{MaxRows: maxRows}, &pgproto3.Execute{})
			}
			c.send(append(msgs, &pgproto3.Sync{})...)
		}
	}
	simple := func(c *rawConn, q string) { c.send(&pgproto3.Query{String: q}) }
	variants := []variant{
		{"simple", nil, simple},
		{"text", nil, extended(0, 0)},
		{"binary", nil, extended(1, 0)},
		{"simple-zone", []string{"SET TimeZone = 'America/St_Johns'"}, simple},
		{"binary-zone", []string{"SET TimeZone = 'Asia/Kolkata'"}, extended(1, 0)},
		{"text-zone", []string{"SET TimeZone = 'America/New_York'"}, extended(0, 0)},
		{"portal-text", nil, extended(0, 1500)},
		{"portal-binary", nil, extended(1, 1500)},
	}
	for _, v := range variants {
		for qi, q := range streamQueries {
			t.Run(fmt.Sprintf("%s/%d", v.name, qi), func(t *testing.T) {
				server.SetStreamResults(false)
				old := wireBytes(t, addr, v.setup, func(c *rawConn) { v.run(c, q) })
				server.SetStreamResults(true)
				before := server.ChunkRuns()
				got := wireBytes(t, addr, v.setup, func(c *rawConn) { v.run(c, q) })
				if streamed := server.ChunkRuns() > before; !streamed {
					t.Errorf("%q: chunk path used = %v", q, streamed)
				}
				if !bytes.Equal(old, got) {
					i := 0
					for i < len(old) && i < len(got) && old[i] == got[i] {
						i++
					}
					lo := max(0, i-40)
					t.Fatalf("%q: %d vs %d bytes, first difference at %d:\nrow:   %q\nchunk: %q", q, len(old), len(got), i, old[lo:min(len(old), i+40)], got[lo:min(len(got), i+40)])
				}
				if len(old) < 20 {
					t.Fatalf("%q: too short an answer", q)
				}
			})
		}
	}
}

// TestStreamInterleavedPortals: a portal suspended by its row limit keeps
// its stream while the client fetches; when the session runs something
// else meanwhile (another portal, a simple query, a new Parse), the open
// stream takes the rest of its result first, and every portal still
// returns all its rows, in order.
func TestStreamInterleavedPortals(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	before := server.ChunkRuns()
	fetched := func(msgs []pgproto3.BackendMessage) (vals []string, suspended, complete int) {
		for _, m := range msgs {
			switch m := m.(type) {
			case *pgproto3.DataRow:
				vals = append(vals, string(m.Values[0]))
			case *pgproto3.PortalSuspended:
				suspended++
			case *pgproto3.CommandComplete:
				complete++
			case *pgproto3.ErrorResponse:
				t.Fatalf("error: %s", m.Message)
			}
		}
		return
	}
	const n = 5000 // more than one chunk (2048 rows)
	q := func(offset int) string {
		return fmt.Sprintf("SELECT (i + %d)::VARCHAR FROM range(0, %d) r(i) ORDER BY i", offset, n)
	}
	c.send(&pgproto3.Parse{Name: "a", Query: q(0)}, &pgproto3.Parse{Name: "b", Query: q(1000000)},
		&pgproto3.Bind{DestinationPortal: "pa", PreparedStatement: "a"},
		&pgproto3.Execute{Portal: "pa", MaxRows: 1500}, &pgproto3.Sync{})
	var gotA, gotB []string
	vals, suspended, _ := fetched(c.until(isReady))
	gotA = append(gotA, vals...)
	if len(vals) != 1500 || suspended != 1 {
		t.Fatalf("first fetch: %d rows, %d suspended", len(vals), suspended)
	}
	// Sync outside a transaction block ended the portal, as in PostgreSQL.
	c.send(&pgproto3.Execute{Portal: "pa", MaxRows: 10}, &pgproto3.Sync{})
	if code := errorCode(c.until(isReady)); code != "34000" {
		t.Fatalf("Execute of a portal after Sync: SQLSTATE %q, want 34000 (portal does not exist)", code)
	}
	c.send(&pgproto3.Query{String: "BEGIN"})
	fetched(c.until(isReady))
	// In a transaction block portals outlive Sync: a second portal, a
	// simple query and a Parse run while pa is open.
	c.send(&pgproto3.Bind{DestinationPortal: "pa", PreparedStatement: "a"},
		&pgproto3.Execute{Portal: "pa", MaxRows: 1500},
		&pgproto3.Bind{DestinationPortal: "pb", PreparedStatement: "b"},
		&pgproto3.Execute{Portal: "pb", MaxRows: 700}, &pgproto3.Sync{})
	vals, _, _ = fetched(c.until(isReady))
	gotA, gotB = vals[:1500], vals[1500:]
	c.send(&pgproto3.Query{String: "SELECT 42"})
	if vals, _, _ := fetched(c.until(isReady)); len(vals) != 1 || vals[0] != "42" {
		t.Fatalf("simple query between fetches: %v", vals)
	}
	c.send(&pgproto3.Parse{Name: "c", Query: "SELECT 7"}, &pgproto3.Execute{Portal: "pa", MaxRows: 2000},
		&pgproto3.Execute{Portal: "pb"}, &pgproto3.Execute{Portal: "pa"}, &pgproto3.Sync{})
	msgs := c.until(isReady)
	var a2, b2 []string
	phase := 0
	for _, m := range msgs {
		switch m := m.(type) {
		case *pgproto3.DataRow:
			if phase == 1 {
				b2 = append(b2, string(m.Values[0]))
			} else {
				a2 = append(a2, string(m.Values[0]))
			}
		case *pgproto3.PortalSuspended, *pgproto3.CommandComplete:
			phase++
		case *pgproto3.ErrorResponse:
			t.Fatalf("error: %s", m.Message)
		}
	}
	gotA, gotB = append(gotA, a2...), append(gotB, b2...)
	c.send(&pgproto3.Query{String: "COMMIT"})
	fetched(c.until(isReady))
	for name, got := range map[string][]string{"a": gotA, "b": gotB} {
		offset := 0
		if name == "b" {
			offset = 1000000
		}
		if len(got) != n {
			t.Fatalf("portal %s: %d rows, want %d", name, len(got), n)
		}
		for i, v := range got {
			if v != strconv.Itoa(i+offset) {
				t.Fatalf("portal %s: row %d is %q, want %d", name, i, v, i+offset)
			}
		}
	}
	if server.ChunkRuns() < before+2 {
		t.Errorf("portals did not stream (chunk runs %d -> %d)", before, server.ChunkRuns())
	}
}

// TestStreamDisconnect: an endless result streams (its first rows arrive
// at once, nothing is materialized), and a client that leaves ends the
// query: its connection slot is free again within seconds.
func TestStreamDisconnect(t *testing.T) {
	addr := startServer(t, func(c *server.Config) { c.MaxConnections = 1 })
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.send(&pgproto3.Query{String: "SELECT i, md5(i::VARCHAR) FROM range(0, 1000000000000) r(i)"})
	deadline := time.Now().Add(10 * time.Second)
	for rows := 0; rows < 10000; {
		switch m := c.receive().(type) {
		case *pgproto3.DataRow:
			rows++
		case *pgproto3.ErrorResponse:
			t.Fatal(m.Message)
		}
		if time.Now().After(deadline) {
			t.Fatal("rows do not arrive")
		}
	}
	c.nc.Close()
	start := time.Now()
	for {
		conn, err := pgx.Connect(context.Background(), dsn(addr, "postgres"))
		if err == nil {
			conn.Close(context.Background())
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("the slot is still taken %v after the disconnect: %v", time.Since(start), err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("slot free %v after the disconnect", time.Since(start))
}

// TestStreamErrorMidway: an error raised by DuckDB after rows were sent
// ends the result with its ErrorResponse (SQLSTATE kept), and the session
// goes on.
func TestStreamErrorMidway(t *testing.T) {
	// One DuckDB thread: with two, DuckDB sometimes reports an error raised
	// by its other thread as "Interrupted!" (canceled's comment; 7 of 200
	// runs of two copies of this test side by side).
	addr := startServer(t, func(c *server.Config) { c.Threads = 1 })
	c := dialRaw(t, addr)
	c.startup("postgres")
	before := server.ChunkRuns()
	c.send(&pgproto3.Query{String: "SELECT CAST(CASE WHEN i = 300000 THEN 'x' ELSE '1' END AS INTEGER) FROM range(0, 400000) r(i)"})
	var code string
	for _, m := range c.until(isReady) {
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			code = e.Code
		}
	}
	if code != "22P02" {
		t.Fatalf("SQLSTATE %q, want 22P02", code)
	}
	if server.ChunkRuns() == before {
		t.Fatal("the chunk path was not used")
	}
	c.send(&pgproto3.Query{String: "SELECT 41 + 1"})
	var got string
	for _, m := range c.until(isReady) {
		if d, ok := m.(*pgproto3.DataRow); ok {
			got = string(d.Values[0])
		}
	}
	if got != "42" {
		t.Fatalf("after the error: %q", got)
	}
}

// TestStreamBackpressure: while the client does not read, no more chunks
// are fetched once the socket buffers are full.
func TestStreamBackpressure(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.send(&pgproto3.Query{String: "SELECT i, repeat('x', 100) FROM range(0, 1000000000000) r(i)"})
	if _, ok := c.receive().(*pgproto3.RowDescription); !ok {
		t.Fatal("no RowDescription")
	}
	// Stop reading; the server fills the socket buffers and must stop.
	var last int64 = -1
	for i := 0; ; i++ {
		time.Sleep(300 * time.Millisecond)
		now := server.ChunksFetched()
		if now == last {
			break
		}
		if i > 30 {
			t.Fatalf("chunks are still fetched while the client does not read (%d)", now)
		}
		last = now
	}
	time.Sleep(time.Second)
	if now := server.ChunksFetched(); now != last {
		t.Fatalf("fetching resumed without a reader: %d → %d", last, now)
	}
	// Reading again resumes the stream.
	for range 50000 {
		if _, ok := c.receive().(*pgproto3.DataRow); !ok {
			t.Fatal("expected DataRows")
		}
	}
	if server.ChunksFetched() == last {
		t.Fatal("reading did not resume fetching")
	}
}

// TestStreamPrefetch: with the background fetch on, the bytes are the row
// path's and a disconnect still frees the connection.
func TestStreamPrefetch(t *testing.T) {
	server.SetPrefetchChunks(true)
	defer server.SetPrefetchChunks(false)
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.send(&pgproto3.Query{String: streamTable})
	c.until(isReady)
	defer server.SetStreamResults(true)
	for _, q := range streamQueries {
		for _, format := range []int16{0, 1} {
			run := func(c *rawConn) {
				c.send(&pgproto3.Parse{Query: q}, &pgproto3.Bind{ResultFormatCodes: []int16{format}},
					&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Sync{})
			}
			server.SetStreamResults(false)
			old := wireBytes(t, addr, nil, run)
			server.SetStreamResults(true)
			if got := wireBytes(t, addr, nil, run); !bytes.Equal(old, got) {
				t.Fatalf("%q format %d: the bytes differ", q, format)
			}
		}
	}
	TestStreamDisconnect(t)
	TestStreamBackpressure(t)
}

// TestPortalLifetimeLikePostgres: a portal bound outside a transaction
// block ends at Sync; one bound inside a block outlives Sync until COMMIT.
// The same messages go to PostgreSQL 15 and vsqld, and the SQLSTATEs of
// each step must agree.
func TestPortalLifetimeLikePostgres(t *testing.T) {
	dsn := pgtest.DSN(t)
	var pgPort string
	for _, f := range strings.Fields(dsn) {
		if v, ok := strings.CutPrefix(f, "port="); ok {
			pgPort = v
		}
	}
	steps := func(addr, user, db string) []string {
		c := dialRaw(t, addr)
		c.fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": user, "database": db}})
		c.flush()
		c.until(isReady)
		var codes []string
		run := func(msgs ...pgproto3.FrontendMessage) {
			c.send(append(msgs, &pgproto3.Sync{})...)
			codes = append(codes, errorCode(c.until(isReady)))
		}
		run(&pgproto3.Parse{Name: "s", Query: "SELECT i FROM generate_series(1, 10) g(i)"},
			&pgproto3.Bind{DestinationPortal: "p", PreparedStatement: "s"}, &pgproto3.Execute{Portal: "p", MaxRows: 2})
		run(&pgproto3.Execute{Portal: "p", MaxRows: 2}) // gone with the implicit transaction
		run(&pgproto3.Query{String: "BEGIN"})
		run(&pgproto3.Bind{DestinationPortal: "p", PreparedStatement: "s"}, &pgproto3.Execute{Portal: "p", MaxRows: 2})
		run(&pgproto3.Execute{Portal: "p", MaxRows: 2}) // still there inside the block
		run(&pgproto3.Query{String: "COMMIT"})
		run(&pgproto3.Execute{Portal: "p", MaxRows: 2}) // gone with COMMIT
		return codes
	}
	want := steps("127.0.0.1:"+pgPort, "postgres", "postgres")
	got := steps(startServer(t, nil), "raw", "postgres")
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("SQLSTATE per step: vsqld %q, PostgreSQL 15 %q", got, want)
	}
	if want[1] != "34000" || want[4] != "" {
		t.Errorf("PostgreSQL's answers are not what this test expects: %q", want)
	}
}
