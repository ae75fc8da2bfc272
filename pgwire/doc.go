// Package pgwire speaks the PostgreSQL frontend/backend protocol (version
// 3.0) on top of pgproto3.Backend. It knows nothing of branches or merges:
// a Handler opens Sessions, and a Session prepares and runs statements.
//
// # Files
//
//   - conn.go: startup (SSLRequest, GSSENCRequest answered 'N',
//     StartupMessage, CancelRequest), the message loop, ErrorResponse and
//     NoticeResponse, FATAL endings, graceful Shutdown (at the
//     ReadyForQuery that ends the client's current exchange, so a
//     statement Executed before the client's Sync is answered in full;
//     ForceShutdown when the server's timeout passed). One deadline,
//     Options.AuthenticationTimeout (default 60s), covers everything
//     before the session exists (SSL negotiation, TLS handshake, startup
//     packet, SASL exchange); a client that misses it gets a FATAL 08006
//     authentication_timeout when that can still be written, and is
//     closed. Options.Admit takes a connection slot only when a
//     StartupMessage arrives, so a CancelRequest is honoured even when
//     every slot is taken.
//   - auth.go: the startup's security: SSLRequest is answered 'S' and the
//     connection upgraded with crypto/tls when Options.TLS is set ('N'
//     otherwise), after which the backend reads the StartupMessage (or a
//     CancelRequest) from the TLS stream; Options.Auth (an Authenticator)
//     then trusts the client, refuses it, or runs a SASL exchange
//     (AuthenticationSASL, SASLInitialResponse, AuthenticationSASLContinue,
//     SASLResponse, AuthenticationSASLFinal) before AuthenticationOk. The
//     TLS handshake and the exchange run under the startup deadline.
//   - query.go: the simple and extended query flows and the per-connection
//     statement and portal tables.
//   - types.go: DuckDB types → PostgreSQL OIDs, sizes and type modifiers.
//   - encode.go / decode.go: text and binary value codecs.
//   - chunks.go: the chunk path. Rows that implement ChunkRows hand over a
//     DuckDB result read a data chunk at a time (internal/duckstream);
//     sendChunks encodes each row's values straight from the chunk's
//     vectors into its DataRow (bool, int2/4/8 from every DuckDB integer
//     that maps to them, float4/8, text, bytea, date, timestamp,
//     timestamptz in the session's TimeZone, numeric from DECIMAL, uuid;
//     text and binary; NULLs from the validity mask), in a 64 KiB buffer
//     written straight to the socket: each value is written once, where
//     it is sent. No allocation per value (DECIMAL wider than 18 digits
//     goes through big.Int). The bytes are those of the row path
//     (AppendValue), checked by server's TestStreamSameBytes.
//   - session.go: the interfaces the server implements, and the optional
//     ones a Session may add: NoticeSink (notices while a statement
//     runs), ActivityObserver (Active with the query's text when the
//     connection starts on a query, Idle at ReadyForQuery: what
//     pg_stat_activity shows), Terminable (the function that ends the
//     connection, for pg_terminate_backend), ExecutionLog (each statement
//     that ran, with its parameters: the server runs a transaction
//     block's statements again for ROLLBACK TO SAVEPOINT). DEALLOCATE of
//     the connection's prepared statements (a name, or ALL) is answered
//     here, in a simple query and through the extended protocol alike
//     (psycopg 3 sends DEALLOCATE ALL after ROLLBACK TO). Options.Observer is told of
//     each statement (first keyword, SQLSTATE, time to its last row) and
//     of every byte written to the client (the server's metrics). A panic
//     while a message is served ends that connection with FATAL XX000.
//   - copy.go: the COPY sub-protocol (CopyInResponse/CopyData/CopyDone/
//     CopyFail, CopyOutResponse) for statements that implement
//     CopyStatement.
//   - copyformat.go: PostgreSQL's COPY text and CSV formats: option
//     checking (ParseCopyOptions), the row reader (CopyReader) and writer.
//
// # Simple query
//
// A Query message is split into statements (sqltext.Split). Each is
// prepared, described (RowDescription if it returns rows), executed and
// streamed (DataRow…), then closed with CommandComplete; the first error
// sends ErrorResponse and skips the rest of the string. ReadyForQuery ends
// the message with the session's transaction status. An empty string is
// answered with EmptyQueryResponse.
//
// # Extended query
//
// Parse prepares one statement (never runs it) and records its parameter
// types, declared or inferred by DuckDB. Bind decodes parameters (text or
// binary) and fixes the result formats; Describe reports
// ParameterDescription and RowDescription/NoData from the prepared
// statement alone; Execute runs the portal, stopping after MaxRows rows with
// PortalSuspended and resuming on the next Execute. After any error every
// message up to Sync is discarded, so pipelined clients stay in step.
//
// # COPY
//
// A prepared statement that implements CopyStatement is not Executed:
// COPY FROM STDIN answers CopyInResponse (text, one format code per
// column) and hands the session a CopyReader over the CopyData payloads; it
// ends at CopyDone (or a \. line), and CopyFail fails it with 57014.
// Flush and Sync are ignored while copy-in runs, as PostgreSQL does; after
// an error the CopyData, CopyDone and CopyFail still arriving are dropped by
// the message loop (and, in the extended protocol, everything up to Sync).
// COPY TO STDOUT sends CopyOutResponse, one CopyData per row (values in the
// PostgreSQL text format of encode.go, escaped or quoted for text or CSV),
// and CopyDone. Both end with CommandComplete "COPY n". Errors about the
// data carry the line number in the message and in the CONTEXT field.
//
// # Limits
//
// Every message body is bounded (Options.MaxMessageSize, also after a TLS
// upgrade); startup packets
// are bounded by pgproto3 (10000 bytes). A message that is too large, of an
// unknown type, or malformed ends the connection with a FATAL
// ErrorResponse; other connections never notice.
//
// With Options.ReadSpin set (vsqld sets 100 µs by default), a plain TCP
// or Unix-domain connection is read through spinReader (spin.go): after a
// message is handled, the next read spins on non-blocking reads for up
// to ReadSpin while the connection is alone (no other connection with a
// spin is busy, and none read a message in the last millisecond), then
// blocks as net.Conn does,
// so that a client's next message in a request/response loop is read
// without waking a sleeping thread. While it is alone, Serve also locks
// its goroutine to its OS thread (pinThread), so that a lone client's
// statements run on one thread, and unlocks it once it is not.
//
// # Caveats
//
// Output is flushed at ReadyForQuery, on Flush, and every 256 KiB of rows
// (64 KiB on the chunk path; a last batch smaller than that joins the
// buffered CommandComplete and ReadyForQuery, so a small result is one
// write). A session's statement may implement StreamingStatement: pgwire
// calls ExecuteStreaming for every run (a simple query, an Execute with or
// without a row limit, COPY TO STDOUT), and the server may return
// ChunkRows. A portal keeps its chunkCursor between Executes; before the
// session runs anything else (Parse, a simple query, another portal's
// first Execute) every open stream is detached (duckstream.Result.Detach:
// the rest of its rows fetched into memory), because DuckDB invalidates an
// open stream when its connection runs another statement. A Sync outside a
// transaction block closes every portal, as in PostgreSQL. On the chunk
// path the write to the socket blocks while the client does not read, and
// no chunk is fetched meanwhile (backpressure: the connection holds one
// chunk and the buffer); a failed write marks the connection lost and ends
// the result, which stops the query. The row path (driver values, then
// AppendValue) is kept for the types chunks.go does not encode. JSON is
// encoded on the chunk path from its stored text
// (pgcompat.AppendJSONBText: numbers exact, a JSON null is null); on the
// row path duckdb-go has already decoded it (float64 numbers, null as
// nil), which is why a JSON column beside a list column loses digits.
//
// Measured (server's BenchmarkWireSelect: pgx in the same process, 1M rows
// × int, text, decimal(12,2), text, both paths in one run, 2 shared
// CPUs): text 1.69 s → 0.33 s (5.2×), binary 3.14 s → 0.36 s (8.7×) in
// a quiet run; 4.2–5.6× and 5.6–9.9× in a second one, with other
// processes on the CPUs. Allocations for the whole query, client
// included: 10.0M → 737 (text), 20.0M → 738 (binary). Fetching the next
// chunk in the background while one is encoded (duckstream.QueryPrefetch,
// server.SetPrefetchChunks) measured within noise of fetching in line
// (text 0.37 s vs 0.40 s, binary 0.32 s vs 0.29 s) with pgx on the same
// two CPUs, so it is off. Not yet measured against PostgreSQL with go run
// ./bench.
// Text floats follow the session's extra_float_digits as PostgreSQL's do
// (FloatRows): 1 to 3, the default 1 included, print the shortest form
// that reads back exactly (one shortest-digits conversion laid out by
// hand, appendFloat); 0 and below print 15 (float8) or 6 (float4)
// significant digits plus the setting. Text dates and timestamps follow
// the session's DateStyle, intervals its IntervalStyle, bytea its
// bytea_output (StyleRows;
// appendTimeStyled and appendIntervalStyled write the other styles as
// PostgreSQL's EncodeDateTime and EncodeInterval do).
// Binary format is offered for the types pgx and pgjdbc ask for
// (CanEncodeBinary); other columns must be read as text. duckdb-go parses
// JSON values before vsql sees them, so jsonb columns are re-serialized
// the way PostgreSQL prints jsonb (keys shorter first, then in byte order,
// ", " and ": " between items; pgcompat.AppendJSONB, the one jsonb
// printer), numbers in their shortest form. json columns (pgcompat's
// engine type pg_json, text underneath) are reported as json (114) and
// sent as their text, in binary format too (json's binary form is its
// text). Structs (PostgreSQL's
// composite types, pgcompat's CREATE TYPE … AS (…)) are sent as text in
// PostgreSQL's row format, (1,"a b",): the fields in their order (Column.Fields,
// from the STRUCT's type), NULL empty, quoted as record_out quotes. Maps and
// unions (DuckDB-only) are sent as text in DuckDB's style.
//
// nested.go encodes LIST, ARRAY and STRUCT columns on the chunk path from
// their child vectors: a list of scalars as the PostgreSQL array it is
// announced as (text as array_out writes it; binary in array_send's
// layout, up to six dimensions, checked against PostgreSQL 15 byte for
// byte by server's TestBinaryArrays), a struct (its fields named or not:
// row(1, 2) and (1, 2) have no names, which duckdb-go's row path cannot
// read) and a list of structs as text in PostgreSQL's formats,
// (1,"a b") and {"(1,a)","(2,b)"}. The row path writes binary arrays the
// same way (appendBinaryArrayValues); a list of lists whose sub-lists
// differ in length is no PostgreSQL array, and binary format refuses it
// (array_dimensions_mismatch, 2202E).
package pgwire
