package duckstream

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// benchQuery is the shape of the wire benchmark: 1M rows × (int, text,
// decimal, text).
const benchQuery = `SELECT i::INTEGER AS i, 'name-' || i::VARCHAR AS t, (i / 100)::DECIMAL(12,2) AS d, md5(i::VARCHAR) AS h FROM range(0, 1000000) r(i)`

func openConn(t testing.TB) (*sql.DB, *sql.Conn, *duckdb.Conn) {
	t.Helper()
	c, err := duckdb.NewConnector("", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var dc *duckdb.Conn
	if err := conn.Raw(func(x any) error { dc = x.(*duckdb.Conn); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "SET threads = 2"); err != nil {
		t.Fatal(err)
	}
	return db, conn, dc
}

func prepare(t testing.TB, dc *duckdb.Conn, q string) *duckdb.Stmt {
	t.Helper()
	s, err := dc.PrepareContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(*duckdb.Stmt)
}

// TestHandles fails loudly when a duckdb-go upgrade moves the private
// fields handles.go reads.
func TestHandles(t *testing.T) {
	if err := Available(); err != nil {
		t.Fatal(err)
	}
	_, _, dc := openConn(t)
	st := prepare(t, dc, "SELECT 42::INTEGER, 'x' || ?::VARCHAR")
	for _, streaming := range []bool{false, true} {
		res, err := Query(context.Background(), dc, st, []driver.NamedValue{{Ordinal: 1, Value: "yz-long-enough-to-be-a-pointer"}}, streaming)
		if err != nil {
			t.Fatal(err)
		}
		if n := res.Next(); n != 1 {
			t.Fatalf("rows = %d", n)
		}
		if got := Int32(res.Vector(0), 0); got != 42 {
			t.Fatalf("int = %d", got)
		}
		if got := string(Bytes(res.Vector(1), 0)); got != "xyz-long-enough-to-be-a-pointer" {
			t.Fatalf("text = %q", got)
		}
		if n := res.Next(); n != 0 || res.Err() != nil {
			t.Fatalf("end: %d %v", n, res.Err())
		}
		res.Close()
	}
}

// TestStreamingCancel: a streaming query interrupted between chunks stops
// with the context's error, and the connection stays usable.
func TestStreamingCancel(t *testing.T) {
	_, conn, dc := openConn(t)
	st := prepare(t, dc, "SELECT i FROM range(0, 100000000000) r(i)")
	ctx, cancel := context.WithCancel(context.Background())
	res, err := Query(ctx, dc, st, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if res.Next() == 0 {
		t.Fatal(res.Err())
	}
	cancel()
	start := time.Now()
	for res.Next() > 0 {
	}
	if !errors.Is(res.Err(), context.Canceled) {
		t.Fatalf("err = %v", res.Err())
	}
	res.Close()
	if d := time.Since(start); d > time.Second {
		t.Fatalf("stopped after %v", d)
	}
	var n int
	if err := conn.QueryRowContext(context.Background(), "SELECT 1").Scan(&n); err != nil || n != 1 {
		t.Fatalf("after cancel: %v %d", err, n)
	}
}

// BenchmarkRead reads benchQuery to the end, touching every value, as
// vsql's row path does (driver rows) and as the chunk path does.
func BenchmarkRead(b *testing.B) {
	_, _, dc := openConn(b)
	st := prepare(b, dc, benchQuery)
	b.Run("driver-rows", func(b *testing.B) {
		for b.Loop() {
			rows, err := st.QueryContext(context.Background(), nil)
			if err != nil {
				b.Fatal(err)
			}
			vals := make([]driver.Value, 4)
			n := 0
			for {
				if err := rows.Next(vals); err != nil {
					if err != io.EOF {
						b.Fatal(err)
					}
					break
				}
				n++
			}
			rows.Close()
			if n != 1000000 {
				b.Fatal(n)
			}
		}
	})
	for _, mode := range []struct {
		name      string
		streaming bool
	}{{"chunks-materialized", false}, {"chunks-streaming", true}} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				res, err := Query(context.Background(), dc, st, nil, mode.streaming)
				if err != nil {
					b.Fatal(err)
				}
				n, sum := 0, 0
				for size := res.Next(); size > 0; size = res.Next() {
					iv, tv, dv, hv := res.Vector(0), res.Vector(1), res.Vector(2), res.Vector(3)
					for r := range size {
						if !iv.Null(r) {
							sum += int(Int32(iv, r))
						}
						sum += len(Bytes(tv, r)) + int(Int64(dv, r)) + len(Bytes(hv, r))
					}
					n += size
				}
				if res.Err() != nil {
					b.Fatal(res.Err())
				}
				res.Close()
				if n != 1000000 {
					b.Fatal(n)
				}
			}
		})
	}
}
