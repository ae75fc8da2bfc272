// Package duckstream reads DuckDB results a data chunk at a time through
// DuckDB's C API (github.com/duckdb/duckdb-go-bindings), for vsqld's wire
// path: pgwire encodes DataRows column by column straight from the
// chunk's vectors (pgwire/chunks.go), and installs casts from text written
// in Go (cast.go).
//
// # What it does
//
// Query binds the parameters with duckdb-go (Stmt.BindWithCtx) and runs
// the prepared statement itself, with duckdb_pending_prepared_streaming
// (streaming) or duckdb_pending_prepared (materialized, as duckdb-go
// does); a statement DuckDB refuses before running it (bound again at
// execution after its table changed) gets the error type its message
// names (pendingError: the C API gives the pending error only as text).
// Next fetches a chunk (duckdb_fetch_chunk) and exposes each
// column as a Vector: the data pointer (duckdb_vector_get_data) and the
// validity mask (duckdb_vector_get_validity, nil when there are no
// NULLs); values.go reads them by physical type without copying
// (VARCHAR/BLOB as duckdb_string_t: inline up to 12 bytes, else a
// pointer). Nested columns carry their type's children (Column.Children:
// a LIST's or ARRAY's element, a STRUCT's fields with their names, ""
// for row(…)'s) and their child vectors (Vector.Children); List reads a
// LIST row's offset and length in its child. StatementColumns describes
// a prepared statement's columns the same way before it runs. A streaming result does no work ahead of Next: DuckDB
// produces a chunk when it is asked for one, so a reader that stops
// reading stops the query, and memory stays at a few chunks plus the
// operators' own state. Canceling the context interrupts the query
// (duckdb_interrupt), never after the Result is closed: DuckDB would keep
// the interrupt for the connection's next query.
//
// QueryPrefetch adds a goroutine that fetches the next chunk while the
// caller works on the current one (at most one chunk waits ahead, so
// backpressure holds; Close waits for a fetch in progress). It starts only
// once a chunk comes back full (2,048 rows), so a small result (a point
// query) is never handed between threads. vsqld leaves it off: over pgx
// on two shared CPUs it reads 1M rows in text about 3% faster
// (server's BenchmarkWireSelect), within the noise of a whole bench run.
//
// While a streaming Result is open nothing else may run on its
// connection (DuckDB would invalidate it). Detach fetches the chunks not
// read yet and keeps them, which frees the connection: vsqld streams
// every run, suspended portals included, and detaches an open one only
// when the client runs something else on the same connection meanwhile.
//
// # DuckDB's threads (workers.go)
//
// DuckDB's own worker threads sleep on one semaphore and are woken for
// every task any statement schedules, also the few of a point query that
// the statement's own thread runs anyway: on an idle machine that wake-up
// cost more than the lookup (BenchmarkPointQuery). vsqld therefore opens
// DuckDB with external_threads equal to threads (no workers of its own;
// work is still split for that many threads), and Workers supplies the
// others: Track marks a statement as running (a mutex and a map entry, no
// wake-up), a monitor looks every millisecond, and once a statement has
// run for Delay, while fewer run than threads, it starts threads−1
// helpers, goroutines on locked OS threads in duckdb_execute_tasks_state,
// until no statement runs or as many run as threads (each has a CPU);
// then duckdb_finish_execution stops them at their next wake-up (a helper
// frees its task state only once finish_execution has returned: it reads
// the state after letting the helper go). After a
// second with nothing running the monitor parks (no tick) until the next
// Track, so an idle server is not woken a thousand times a second. Close wakes
// them (a statement) until they have returned, before the database is
// closed. The C functions are declared in workers.go as in cast.go, and
// the database handle is read from duckdb-go's Connector like the others
// (handles.go). TestWorkers checks that untracked statements use one CPU,
// short ones never start the helpers, the monitor parks when idle and long
// ones get the helpers' share of the work; TestHelperStateOutlivesFinish
// that no state is freed while finish_execution may read it.
//
// # duckdb-go's private handles
//
// duckdb-go runs every query through duckdb_pending_prepared (a
// materialized result) and keeps the C handles private. handles.go is the
// one place that reads them (Stmt.preparedStmt, Conn.conn; workers.go
// reads Connector.db the same way), by name and
// type checked through reflect at init; TestHandles fails loudly if an
// upgrade moves them, and Query then returns an error instead of reading
// a wrong pointer.
//
// # Casts from text written in Go
//
// RegisterTextCast (cast.go) installs a Go function as the engine's cast
// of VARCHAR to DATE, TIMESTAMP, TIME, DOUBLE, FLOAT, SMALLINT, INTEGER or
// BIGINT (CastTarget) through duckdb_register_cast_function,
// which duckdb-go does not wrap: cast.go declares the dozen C functions it
// calls itself (duckdb.h's directory is not one another module's #cgo line
// can name) and links against the library duckdb-go-bindings brings. A
// registered cast takes precedence over DuckDB's own for the same pair of
// types, in CAST, ::, typed literals and the implicit cast of a string into
// a column; the callback reads each string (duckdb_string_t), keeps NULLs,
// and reports a failure as the cast's error (CAST) or as a NULL row
// (TRY_CAST). TestTextCast checks each of these. RegisterBytesCast does
// the same for VARCHAR to BLOB, whose values the callback writes with
// duckdb_vector_assign_string_element_len (DuckDB copies them).
// RegisterFloatCast installs a Go function as the cast of DOUBLE or
// FLOAT to SMALLINT, INTEGER or BIGINT the same way, reading the
// vector's float64 or float32 values (TestFloatCast).
//
// RegisterTextType registers a type of the engine whose values are text
// (duckdb_register_logical_type of VARCHAR under an alias, as extensions
// add theirs): columns, casts and Go functions' arguments can name it, and
// a result column of it carries the alias (Column.Alias). pgcompat's bit
// strings are two such types. RegisterTextTypeCast and
// RegisterTextTypeNumberCast install Go casts from text or such a type to
// such a type or a number; one with an implicit cost lets DuckDB convert
// on its own, as when binding a function (TestTextType).
//
// RegisterIntType registers an integer type of the engine: int64 values
// stored as DECIMAL(18, scale) under an alias (inttype.go), so DuckDB
// compares, sorts and stores them as integers, and converts them only
// through the casts registered on them (RegisterIntTypeFromText, …To,
// …From, …DecimalCasts: one cast per DECIMAL width and scale, as DuckDB's
// cast map finds a DECIMAL's by both). A BIGINT base was measured first:
// DuckDB converts an integer literal to any type whose id is BIGINT at
// BIGINT's cost, alias or not, which made bigint_col * 1000 ambiguous
// beside an overload of * on the alias (server/money_test.go checks
// the operators of numbers beside money's). pgcompat's money is
// one.
//
// # Measured (BenchmarkRead, 1M rows × INTEGER, VARCHAR, DECIMAL(12,2),
// VARCHAR; every value touched; 2 threads on a shared 2-CPU AMD EPYC)
//
//	driver rows (duckdb-go, what the row path reads)   1.91 s   144 MB, 8.0M allocs
//	Arrow (NewArrowFromConn, -tags duckdb_arrow)       1.02 s   1.9 MB, 23.6k allocs (values not even read)
//	chunks, materialized (duckdb_pending_prepared)     1.12 s   4.5 kB, 501 allocs
//	chunks, streaming (pending_prepared_streaming)     0.37 s   4.5 kB, 501 allocs
//
// The chunk API through the C mapping, streaming, is the fastest by far
// (5.2× driver rows): no value is boxed into an interface (database/sql's
// cost: one allocation per value, then the GC), and DuckDB does not first
// copy the whole result into a materialized collection (the materialized
// variants pay for that copy, and hold the whole result in memory). Arrow
// is duckdb-go's materialized result converted chunk by chunk into Arrow
// arrays: one more copy and no streaming, so it cannot be the wire path.
// Rerun: go test -run XXX -bench Read -benchmem ./internal/duckstream (and
// -tags duckdb_arrow -bench ReadArrow).
package duckstream
