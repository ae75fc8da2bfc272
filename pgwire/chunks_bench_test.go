package pgwire

import (
	"context"
	"database/sql"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/internal/duckstream"
)

// encodeBenchTable is the bench's wire table (bench/wire.go): 1M rows of
// (integer, bigint, text, double precision).
const encodeBenchTable = `CREATE TABLE w AS SELECT i::INTEGER AS i, (i * 7)::BIGINT AS b, 'row ' || i::VARCHAR AS t,
	i / 3.0 AS d FROM range(0, 1000000) r(i)`

// chunkOnly is the ChunkRows of a benchmark: the result and nothing else.
type chunkOnly struct {
	Rows
	res *duckstream.Result
}

func (c chunkOnly) Chunks() (*duckstream.Result, *time.Location) { return c.res, nil }

// BenchmarkEncodeChunks reads the bench's table from DuckDB and encodes
// every row as a DataRow into a 64 KiB buffer, text and binary, without a
// socket or client: the server's own cost per row.
// go test -run '^$' -bench EncodeChunks ./pgwire
func BenchmarkEncodeChunks(b *testing.B) {
	c, err := duckdb.NewConnector("", nil)
	if err != nil {
		b.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, encodeBenchTable); err != nil {
		b.Fatal(err)
	}
	var dc *duckdb.Conn
	if err := conn.Raw(func(x any) error { dc = x.(*duckdb.Conn); return nil }); err != nil {
		b.Fatal(err)
	}
	s, err := dc.PrepareContext(ctx, "SELECT i, b, t, d FROM w")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	st := s.(*duckdb.Stmt)
	cols := []Column{{Name: "i", OID: 23}, {Name: "b", OID: 20}, {Name: "t", OID: 25}, {Name: "d", OID: 701}}
	b.Run("fetch-only", func(b *testing.B) {
		for b.Loop() {
			res, err := duckstream.Query(ctx, dc, st, nil, true)
			if err != nil {
				b.Fatal(err)
			}
			for size := res.Next(); size > 0; size = res.Next() {
			}
			res.Close()
		}
	})
	for _, format := range []struct {
		name string
		code int16
	}{{"text", 0}, {"binary", 1}} {
		b.Run(format.name, func(b *testing.B) {
			formats := []int16{format.code, format.code, format.code, format.code}
			out := make([]byte, 0, chunkFlush+4096)
			for b.Loop() {
				res, err := duckstream.Query(ctx, dc, st, nil, true)
				if err != nil {
					b.Fatal(err)
				}
				k := newChunkCursor(chunkOnly{res: res}, res, nil, cols, formats)
				n, size := 0, 0
				for k.next() {
					out = k.appendDataRow(out)
					n++
					if len(out) >= chunkFlush {
						size += len(out)
						out = out[:0]
					}
				}
				res.Close()
				if n != 1000000 {
					b.Fatal(n)
				}
				b.SetBytes(int64(size + len(out)))
				out = out[:0]
			}
		})
	}
}
