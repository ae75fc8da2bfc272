package server_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
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

// BenchmarkConnect is a new connection and its first query over pgx:
// go test -run XXX -bench Connect ./server
func BenchmarkConnect(b *testing.B) {
	addr := startServer(b, nil)
	ctx := context.Background()
	setup := connectPgx(b, addr)
	if _, err := setup.Exec(ctx, "CREATE TABLE p AS SELECT i::INTEGER AS i FROM range(0, 1000) r(i)"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c := connectPgx(b, addr)
		var n int
		if err := c.QueryRow(ctx, "SELECT i FROM p WHERE i = $1", 7).Scan(&n); err != nil {
			b.Fatal(err)
		}
		c.Close(ctx)
	}
}

// BenchmarkPointQuery is a prepared point query on a 1M-row table from
// one and from 16 connections:
// go test -run XXX -bench PointQuery ./server
func BenchmarkPointQuery(b *testing.B) {
	addr := startServer(b, nil)
	ctx := context.Background()
	setup := connectPgx(b, addr)
	if _, err := setup.Exec(ctx, `CREATE TABLE w (i INTEGER PRIMARY KEY, b BIGINT, t VARCHAR, d DOUBLE);
		INSERT INTO w SELECT i, i * 7, 'text-' || i::VARCHAR, i / 3.0 FROM range(0, 1000000) r(i)`); err != nil {
		b.Fatal(err)
	}
	defer server.SetStreamResults(true)
	defer server.SetMaterializeChunks(false)
	for _, clients := range []int{1, 16} {
		conns := make([]*pgx.Conn, clients)
		for i := range conns {
			conns[i] = connectPgx(b, addr)
		}
		// stream: the chunk path on a streaming DuckDB result (the default);
		// chunks-materialized: the chunk path on a materialized one; rows:
		// database/sql rows, value by value.
		for _, mode := range []string{"stream", "chunks-materialized", "rows"} {
			b.Run(fmt.Sprintf("clients=%d/%s", clients, mode), func(b *testing.B) {
				server.SetStreamResults(mode != "rows")
				server.SetMaterializeChunks(mode == "chunks-materialized")
				runPointQueries(b, clients, func(client, key int) error {
					var i, bb int64
					var t string
					var d float64
					return conns[client].QueryRow(ctx, "SELECT i, b, t, d FROM w WHERE i = $1", key).Scan(&i, &bb, &t, &d)
				})
			})
		}
	}
}

// runPointQueries runs b.N point queries from clients goroutines, each
// walking the keys from its own start, and reports the process's CPU per
// query.
func runPointQueries(b *testing.B, clients int, query func(client, key int) error) {
	start := processCPU()
	defer reportCPU(b, start)
	var next atomic.Int64
	var wg sync.WaitGroup
	for ci := 0; ci < clients; ci++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := ci
			for next.Add(1) <= int64(b.N) {
				k = (k + 7919) % 1000000
				if err := query(ci, k); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// BenchmarkPointQueryInProcess is BenchmarkPointQuery's query on DuckDB in
// this process through database/sql, the floor of the server's figure.
func BenchmarkPointQueryInProcess(b *testing.B) {
	// A file, as vsqld's databases are (its blocks compressed on checkpoint).
	db, err := sql.Open("duckdb", filepath.Join(b.TempDir(), "w.duckdb"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	if _, err := db.Exec(`CREATE TABLE w (i INTEGER PRIMARY KEY, b BIGINT, t VARCHAR, d DOUBLE);
		INSERT INTO w SELECT i, i * 7, 'text-' || i::VARCHAR, i / 3.0 FROM range(0, 1000000) r(i); CHECKPOINT`); err != nil {
		b.Fatal(err)
	}
	stmt, err := db.Prepare("SELECT i, b, t, d FROM w WHERE i = $1")
	if err != nil {
		b.Fatal(err)
	}
	for _, clients := range []int{1, 16} {
		for _, int32Key := range []bool{false, true} {
			b.Run(fmt.Sprintf("clients=%d/int32=%v", clients, int32Key), func(b *testing.B) {
				runPointQueries(b, clients, func(_, k int) error {
					var i, bb int64
					var t string
					var d float64
					var key any = k
					if int32Key {
						key = int32(k)
					}
					return stmt.QueryRow(key).Scan(&i, &bb, &t, &d)
				})
			})
		}
	}
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the process's CPU time per operation since start (client,
// server and DuckDB alike, all in this process): a figure other processes
// on the machine disturb less than the wall clock.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((processCPU()-start).Microseconds())/float64(b.N), "cpu-µs/op")
}
