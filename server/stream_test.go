package server_test

import (
	"bytes"
	"context"
	"fmt"
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
				if streamed := server.ChunkRuns() > before; streamed == strings.HasPrefix(v.name, "portal") {
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
	addr := startServer(t, nil)
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
