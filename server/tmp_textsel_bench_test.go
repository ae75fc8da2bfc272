package server_test

import (
	"context"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/server"
	"testing"

	"github.com/jackc/pgx/v5"
)

func BenchmarkTmpTextSelect(b *testing.B) {
	addr := startServer(b, nil)
	ctx := context.Background()
	conn := connectPgx(b, addr)
	if _, err := conn.Exec(ctx, `CREATE TABLE w AS SELECT i::INTEGER AS i, (i*1000003+1099511627776)::BIGINT AS b, 'row-'||(i*7919%100000)::VARCHAR AS t, (i/7)::DOUBLE AS d FROM range(0, 1000000) r(i)`); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"plain", "split", "prefetch", "split+prefetch", "plain", "split", "prefetch", "split+prefetch"} {
		b.Run(mode, func(b *testing.B) {
			pgwire.SetSplitEncoding(mode == "split" || mode == "split+prefetch")
			server.SetPrefetchChunks(mode == "prefetch" || mode == "split+prefetch")
			for b.Loop() {
				rr := conn.PgConn().ExecParams(ctx, "SELECT i, b, t, d FROM w", nil, nil, nil, []int16{pgx.TextFormatCode})
				n := 0
				for rr.NextRow() {
					n++
				}
				if _, err := rr.Close(); err != nil {
					b.Fatal(err)
				}
				if n != 1000000 {
					b.Fatal(n)
				}
			}
		})
	}
}
