package server

import (
	"sync/atomic"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/sqlfuncs"
)

// SetStreamResults turns the chunk path of whole runs on or off for the
// process (on by default; Config.RowResults turns it off at Open). Tests
// use it to compare both paths.
func SetStreamResults(on bool) { streamResults.Store(on) }

// ChunkRuns counts the results sent through the chunk path since start.
func ChunkRuns() int64 { return chunkRuns.Load() }

// ChunksFetched counts the DuckDB chunks the chunk path has fetched.
func ChunksFetched() int64 { return duckstream.Fetched() }

// SetPrefetchChunks switches the chunk path's background fetch of the next
// chunk (off by default), for benchmarks.
func SetPrefetchChunks(on bool) { prefetchChunks.Store(on) }

// OffThreadCalls counts the heavy vsql_* calls run on their session's
// goroutine instead of DuckDB's callback thread.
func OffThreadCalls() int64 { return sqlfuncs.OffThreadCalls() }

// materializeChunks: the chunk path reads a materialized DuckDB result
// instead of a streaming one (off: results stream, memory stays bounded).
var materializeChunks atomic.Bool

// SetMaterializeChunks switches the chunk path to materialized DuckDB
// results, for benchmarks that compare the two.
func SetMaterializeChunks(on bool) { materializeChunks.Store(on) }
