package server_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/server"
)

// BenchmarkWireSelect reads 1M rows × (int, text, decimal, text) over pgx
// through the row path and the chunk path, in text and binary, in one run:
// go test -run XXX -bench WireSelect ./server
func BenchmarkWireSelect(b *testing.B) {
	addr := startServer(b, nil)
	ctx := context.Background()
	conn := connectPgx(b, addr)
	if _, err := conn.Exec(ctx, `CREATE TABLE bench AS SELECT i::INTEGER AS id, 'name-' || i::VARCHAR AS name,
		(i / 100)::DECIMAL(12,2) AS amount, md5(i::VARCHAR) AS note FROM range(0, 1000000) r(i)`); err != nil {
		b.Fatal(err)
	}
	defer server.SetStreamResults(true)
	defer server.SetPrefetchChunks(false)
	for _, format := range []struct {
		name string
		code int16
	}{{"text", pgx.TextFormatCode}, {"binary", pgx.BinaryFormatCode}} {
		for _, path := range []struct {
			name             string
			stream, prefetch bool
		}{{"rows", false, false}, {"chunks", true, false}, {"chunks-prefetch", true, true}} {
			b.Run(format.name+"/"+path.name, func(b *testing.B) {
				server.SetStreamResults(path.stream)
				server.SetPrefetchChunks(path.prefetch)
				for b.Loop() {
					rows, err := conn.Query(ctx, "SELECT id, name, amount, note FROM bench", pgx.QueryResultFormats{format.code})
					if err != nil {
						b.Fatal(err)
					}
					n, size := 0, 0
					for rows.Next() {
						for _, v := range rows.RawValues() {
							size += len(v)
						}
						n++
					}
					if rows.Err() != nil {
						b.Fatal(rows.Err())
					}
					if n != 1000000 {
						b.Fatal(n)
					}
					b.SetBytes(int64(size))
				}
			})
		}
	}
}
