package pgwire

import (
	"context"
	"net"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Handler is what a server gives pgwire: it opens sessions and routes
// cancel requests. It is shared by all connections.
type Handler interface {
	// Startup checks the StartupMessage parameters and opens a session. An
	// error is sent to the client as a FATAL ErrorResponse.
	Startup(ctx context.Context, params map[string]string, remote net.Addr) (Session, error)
	// Cancel interrupts the running statement of the session with this key,
	// if any. Wrong keys are ignored silently, as PostgreSQL does.
	Cancel(processID uint32, secret []byte)
}

// Session executes statements for one connection. pgwire calls it from one
// goroutine only.
type Session interface {
	// BackendKey is the cancel key sent in BackendKeyData.
	BackendKey() (processID uint32, secret []byte)
	// ParameterStatus lists the name/value pairs reported after startup.
	ParameterStatus() [][2]string
	// Prepare prepares one statement without running it. paramOIDs holds the
	// types the client declared (0 = infer).
	Prepare(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (Statement, error)
	// TxStatus is 'I' (idle), 'T' (in a transaction) or 'E' (failed transaction).
	TxStatus() byte
	// TakeNotices returns and forgets notices raised since the last call.
	TakeNotices() []*vsqlerr.Error
	// Close releases the session; it is called once, when the connection ends.
	Close()
}

// Statement is a prepared statement.
type Statement interface {
	// ParamOIDs holds one type per parameter, as declared or inferred.
	ParamOIDs() []uint32
	// Columns describes the result rows; nil for statements that return none.
	Columns() []Column
	// Execute runs the statement with decoded parameters (see DecodeParam).
	Execute(ctx context.Context, args []any) (Rows, error)
	// Close releases the statement.
	Close()
}

// ExecutionLog is implemented by a session that keeps the statements a
// transaction block ran (server: to run them again for ROLLBACK TO
// SAVEPOINT). Executed is called once per statement whose execution
// started without error, with its parameters as decoded; the session must
// copy what it keeps.
type ExecutionLog interface {
	Executed(st sqltext.Statement, paramOIDs []uint32, args []any)
}

// StreamingStatement is implemented by statements whose rows can stream
// from DuckDB: ExecuteStreaming may return ChunkRows, read a chunk at a
// time while the client takes them (a simple query, an Execute with or
// without a row limit, COPY TO STDOUT). pgwire detaches an open stream
// (duckstream.Result.Detach) before the session runs anything else.
type StreamingStatement interface {
	ExecuteStreaming(ctx context.Context, args []any) (Rows, error)
}

// BinaryResults is implemented by statements whose rows go out in
// binary format in the simple query protocol (FETCH from a cursor
// declared BINARY); in the extended protocol Bind's formats decide.
type BinaryResults interface {
	BinaryResults() bool
}

// Rows is the result of one execution.
type Rows interface {
	// Next fills dst (one value per column) with the next row; it returns
	// false at the end or on error (see Err).
	Next(dst []any) bool
	// Err reports the error that ended Next, if any.
	Err() error
	// Tag is the CommandComplete tag once rows rows have been sent (for
	// statements without rows, rows is 0 and the tag carries the count of
	// affected rows).
	Tag(rows int64) string
	// Close releases the result; it may be called more than once.
	Close()
}

// NoticeSink is implemented by sessions that send notices while a
// statement runs (progress of long operations).
type NoticeSink interface {
	SetNotifier(notify func(*vsqlerr.Error))
}

// ActivityObserver is implemented by sessions that report what they run
// (pg_stat_activity): Active when the connection starts on a query (the
// text of a simple Query, or of the statement an Execute runs), Idle when
// it waits for the client again (ReadyForQuery).
type ActivityObserver interface {
	Active(query string)
	Idle()
}

// Terminable is implemented by sessions that another session may end
// (pg_terminate_backend): pgwire gives it, once the session is open, the
// function that ends the connection with FATAL admin_shutdown after the
// statement it runs, if any.
type Terminable interface {
	SetTerminate(terminate func())
}

// ParameterReporter is implemented by sessions whose settings change with
// SET: the changes are sent as ParameterStatus after the statement.
type ParameterReporter interface {
	TakeParameterStatus() [][2]string
}
