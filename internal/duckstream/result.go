package duckstream

import (
	"context"
	"database/sql/driver"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	bindings "github.com/duckdb/duckdb-go-bindings"
	duckdb "github.com/duckdb/duckdb-go/v2"
)

// fetched counts the chunks fetched by every Result of the process.
var fetched atomic.Int64

// Fetched is how many chunks Results have fetched since the process
// started (tests watch it to see backpressure).
func Fetched() int64 { return fetched.Load() }

// Column is the physical type of one result column.
type Column struct {
	Type duckdb.Type
	// Internal is the storage type of a DECIMAL (SMALLINT, INTEGER,
	// BIGINT or HUGEINT); Width and Scale are its precision and scale.
	Internal     duckdb.Type
	Width, Scale uint8
	// Alias is the logical type's alias ("JSON" for json), "" if none.
	Alias string
	// Name is a STRUCT field's name ("" for row(…)'s unnamed fields).
	Name string
	// Children are a LIST's or ARRAY's element type (one) or a STRUCT's
	// fields, in order.
	Children []Column
	// Size is an ARRAY's number of elements per value.
	Size int
}

// Vector is one column of a chunk: Data points at Size values of the
// column's physical type; Valid is DuckDB's validity mask (nil: no NULLs).
// A LIST's Data holds each row's (offset, length) into its one child
// vector (see List); an ARRAY's child holds Column.Size elements per row;
// a STRUCT has a child vector per field.
type Vector struct {
	Data     unsafe.Pointer
	Valid    *uint64
	Children []Vector
}

// Null reports whether row i is NULL.
func (v *Vector) Null(i int) bool {
	if v.Valid == nil {
		return false
	}
	w := *(*uint64)(unsafe.Add(unsafe.Pointer(v.Valid), (i>>6)*8))
	return w&(1<<(uint(i)&63)) == 0
}

// Result is a DuckDB result read a data chunk at a time. It is not safe
// for concurrent use.
type Result struct {
	res       bindings.Result
	conn      bindings.Connection
	ctx       context.Context
	stop      func() bool
	Columns   []Column
	chunk     bindings.DataChunk
	size      int
	vecs      []Vector
	streaming bool
	err       error
	mu        sync.Mutex // closed, against the interrupt of a canceled ctx
	closed    bool

	// With prefetch, a goroutine fetches the next chunk while the caller
	// encodes the current one (at most one waits in ahead). It starts
	// after the first full chunk (prefetchMinRows).
	prefetchWanted bool
	ahead          chan bindings.DataChunk
	quit           chan struct{}
	fetcher        sync.WaitGroup

	// After Detach, the chunks not yet read, in order, and the error that
	// ended the result (nil: it ended normally).
	detached bool
	kept     []bindings.DataChunk
	keptErr  error
}

// Query binds args to stmt and runs it on conn (the connection stmt was
// prepared on). With streaming, DuckDB produces the result as it is read
// (duckdb_pending_prepared_streaming): nothing runs ahead of Next, and no
// other statement may run on conn until the Result is closed. Without it,
// DuckDB materializes the result first, as duckdb-go does. Canceling ctx
// interrupts the query, also between chunks.
func Query(ctx context.Context, conn driver.Conn, stmt *duckdb.Stmt, args []driver.NamedValue, streaming bool) (*Result, error) {
	return query(ctx, conn, stmt, args, streaming, false)
}

// QueryPrefetch is Query whose Result fetches the next chunk in the
// background while the current one is used: both cores work, and no more
// than two chunks are held ahead of the reader (backpressure holds). The
// background fetcher starts once a chunk comes back full; until then
// chunks are fetched on the caller's goroutine.
func QueryPrefetch(ctx context.Context, conn driver.Conn, stmt *duckdb.Stmt, args []driver.NamedValue, streaming bool) (*Result, error) {
	return query(ctx, conn, stmt, args, streaming, true)
}

func query(ctx context.Context, conn driver.Conn, stmt *duckdb.Stmt, args []driver.NamedValue, streaming, prefetch bool) (*Result, error) {
	ch, err := connHandle(conn)
	if err != nil {
		return nil, err
	}
	ps, err := stmtHandle(stmt)
	if err != nil {
		return nil, err
	}
	if err := stmt.BindWithCtx(ctx, args); err != nil {
		return nil, err
	}
	var pending bindings.PendingResult
	var state bindings.State
	if streaming {
		state = bindings.PendingPreparedStreaming(ps, &pending)
	} else {
		state = bindings.PendingPrepared(ps, &pending)
	}
	if state == bindings.StateError {
		msg := bindings.PendingError(pending)
		bindings.DestroyPending(&pending)
		return nil, pendingError(msg)
	}
	r := &Result{conn: ch, ctx: ctx, streaming: streaming}
	// The interrupt must not land after the result is destroyed: DuckDB
	// would keep it for the connection's next query.
	r.stop = context.AfterFunc(ctx, func() {
		r.mu.Lock()
		if !r.closed {
			bindings.Interrupt(ch)
		}
		r.mu.Unlock()
	})
	state = bindings.ExecutePending(pending, &r.res)
	bindings.DestroyPending(&pending)
	if state == bindings.StateError {
		err := r.resultError()
		r.Close()
		return nil, errors.Join(ctx.Err(), err)
	}
	n := int(bindings.ColumnCount(&r.res))
	r.Columns = make([]Column, n)
	r.vecs = make([]Vector, n)
	for i := range n {
		lt := bindings.ColumnLogicalType(&r.res, bindings.IdxT(i))
		r.Columns[i] = columnOf(lt)
		bindings.DestroyLogicalType(&lt)
	}
	r.prefetchWanted = prefetch
	return r, nil
}

// prefetchMinRows is the chunk size from which a Result with prefetch
// starts its fetcher: DuckDB's full vector. A result whose chunks are
// smaller (a point query's one row) is fetched on the caller's goroutine,
// which saves the hand-off to another thread where there is nothing to
// overlap.
const prefetchMinRows = 2048

// startPrefetch starts the fetcher once a full chunk suggests that more
// follow.
func (r *Result) startPrefetch() {
	r.prefetchWanted = false
	r.ahead, r.quit = make(chan bindings.DataChunk, 1), make(chan struct{})
	r.fetcher.Add(1)
	go r.prefetch()
}

func (r *Result) prefetch() {
	defer r.fetcher.Done()
	defer close(r.ahead)
	for r.ctx.Err() == nil {
		chunk := bindings.FetchChunk(r.res)
		fetched.Add(1)
		if chunk.Ptr == nil {
			return
		}
		select {
		case r.ahead <- chunk:
		case <-r.quit:
			bindings.DestroyDataChunk(&chunk)
			return
		}
	}
}

// columnOf describes a logical type, nested types with their children.
func columnOf(lt bindings.LogicalType) Column {
	c := Column{Type: duckdb.Type(bindings.GetTypeId(lt)), Alias: bindings.LogicalTypeGetAlias(lt)}
	child := func(ct bindings.LogicalType) Column {
		cc := columnOf(ct)
		bindings.DestroyLogicalType(&ct)
		return cc
	}
	switch c.Type {
	case duckdb.TYPE_DECIMAL:
		c.Internal = duckdb.Type(bindings.DecimalInternalType(lt))
		c.Width, c.Scale = bindings.DecimalWidth(lt), bindings.DecimalScale(lt)
	case duckdb.TYPE_LIST:
		c.Children = []Column{child(bindings.ListTypeChildType(lt))}
	case duckdb.TYPE_ARRAY:
		c.Children = []Column{child(bindings.ArrayTypeChildType(lt))}
		c.Size = int(bindings.ArrayTypeArraySize(lt))
	case duckdb.TYPE_STRUCT:
		n := int(bindings.StructTypeChildCount(lt))
		c.Children = make([]Column, n)
		for k := range n {
			c.Children[k] = child(bindings.StructTypeChildType(lt, bindings.IdxT(k)))
			c.Children[k].Name = bindings.StructTypeChildName(lt, bindings.IdxT(k))
		}
	}
	return c
}

// setVector points v at vec, and its children at vec's children as the
// column's type says.
func setVector(v *Vector, vec bindings.Vector, c *Column) {
	v.Data, v.Valid = bindings.VectorGetData(vec), (*uint64)(bindings.VectorGetValidity(vec))
	if len(c.Children) == 0 {
		return
	}
	if len(v.Children) != len(c.Children) {
		v.Children = make([]Vector, len(c.Children))
	}
	switch c.Type {
	case duckdb.TYPE_LIST:
		setVector(&v.Children[0], bindings.ListVectorGetChild(vec), &c.Children[0])
	case duckdb.TYPE_ARRAY:
		setVector(&v.Children[0], bindings.ArrayVectorGetChild(vec), &c.Children[0])
	case duckdb.TYPE_STRUCT:
		for k := range c.Children {
			setVector(&v.Children[k], bindings.StructVectorGetChild(vec, bindings.IdxT(k)), &c.Children[k])
		}
	}
}

func (r *Result) resultError() error {
	return &duckdb.Error{Type: duckdb.ErrorType(bindings.ResultErrorType(&r.res)), Msg: bindings.ResultError(&r.res)}
}

// Next fetches the next chunk and returns its row count; 0 at the end or
// on error (see Err). The vectors of the previous chunk are released.
func (r *Result) Next() int {
	if r.closed || r.err != nil {
		return 0
	}
	r.release()
	if err := r.ctx.Err(); err != nil {
		r.err = err
		return 0
	}
	if r.detached {
		if len(r.kept) == 0 {
			r.err = r.keptErr
			return 0
		}
		r.chunk, r.kept = r.kept[0], r.kept[1:]
	} else if r.ahead != nil {
		r.chunk = <-r.ahead // zero once the fetcher has ended: it no longer touches res
	} else {
		r.chunk = bindings.FetchChunk(r.res)
		fetched.Add(1)
	}
	if r.chunk.Ptr == nil {
		if msg := bindings.ResultError(&r.res); msg != "" {
			r.err = errors.Join(r.ctx.Err(), r.resultError())
		} else if err := r.ctx.Err(); err != nil {
			r.err = err
		}
		return 0
	}
	r.size = int(bindings.DataChunkGetSize(r.chunk))
	for i := range r.vecs {
		setVector(&r.vecs[i], bindings.DataChunkGetVector(r.chunk, bindings.IdxT(i)), &r.Columns[i])
	}
	if r.size == 0 {
		r.release()
	} else if r.prefetchWanted && r.size >= prefetchMinRows && !r.detached {
		r.startPrefetch()
	}
	return r.size
}

// Detach fetches every chunk not read yet and keeps them, so that the
// connection is free for other statements: DuckDB invalidates an open
// streaming result as soon as its connection runs anything else. The
// current chunk stays valid; Next then returns the kept chunks in order.
// The rest of the result is then held in memory, as a materialized
// result would be. Detach of a result that is not streaming, or already
// detached or closed, does nothing.
func (r *Result) Detach() {
	if r.closed || r.detached || !r.streaming {
		return
	}
	r.detached = true
	for {
		var chunk bindings.DataChunk
		if r.ahead != nil {
			c, ok := <-r.ahead
			if !ok || c.Ptr == nil {
				break
			}
			chunk = c
		} else {
			chunk = bindings.FetchChunk(r.res)
			fetched.Add(1)
			if chunk.Ptr == nil {
				break
			}
		}
		r.kept = append(r.kept, chunk)
	}
	if msg := bindings.ResultError(&r.res); msg != "" {
		r.keptErr = errors.Join(r.ctx.Err(), r.resultError())
	} else if err := r.ctx.Err(); err != nil {
		r.keptErr = err
	}
}

// Vector returns column i of the current chunk.
func (r *Result) Vector(i int) *Vector { return &r.vecs[i] }

// Err is the error that ended Next, if any.
func (r *Result) Err() error { return r.err }

func (r *Result) release() {
	if r.chunk.Ptr != nil {
		bindings.DestroyDataChunk(&r.chunk)
		r.chunk.Ptr = nil
	}
	r.size = 0
}

// Close releases the result (a streaming query still running stops). It
// may be called more than once.
func (r *Result) Close() {
	if r.closed {
		return
	}
	if r.ahead != nil {
		close(r.quit)
		for chunk := range r.ahead { // also waits for a fetch in progress to end
			bindings.DestroyDataChunk(&chunk)
		}
		r.fetcher.Wait()
	}
	r.stop()
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
	r.release()
	for i := range r.kept {
		bindings.DestroyDataChunk(&r.kept[i])
	}
	r.kept = nil
	bindings.DestroyResult(&r.res)
}

// pendingError is the error of a statement DuckDB refused before running
// it (a statement bound again at execution: a table dropped or changed
// since it was prepared). The C API gives only the message, whose prefix
// names the error's type ("Catalog Error: …").
func pendingError(msg string) error {
	typ := duckdb.ErrorTypeInvalid
	if prefix, _, ok := strings.Cut(msg, ": "); ok {
		if t, ok := pendingErrorTypes[prefix]; ok {
			typ = t
		}
	}
	return &duckdb.Error{Type: typ, Msg: msg}
}

var pendingErrorTypes = map[string]duckdb.ErrorType{
	"Binder Error":             duckdb.ErrorTypeBinder,
	"Catalog Error":            duckdb.ErrorTypeCatalog,
	"Conversion Error":         duckdb.ErrorTypeConversion,
	"Constraint Error":         duckdb.ErrorTypeConstraint,
	"Parser Error":             duckdb.ErrorTypeParser,
	"Invalid Input Error":      duckdb.ErrorTypeInvalidInput,
	"Out of Range Error":       duckdb.ErrorTypeOutOfRange,
	"Not implemented Error":    duckdb.ErrorTypeNotImplemented,
	"Dependency Error":         duckdb.ErrorTypeDependency,
	"Permission Error":         duckdb.ErrorTypePermission,
	"Divide by Zero Error":     duckdb.ErrorTypeDivideByZero,
	"Mismatch Type Error":      duckdb.ErrorTypeMismatchType,
	"Invalid type Error":       duckdb.ErrorTypeInvalidType,
	"INTERRUPT Error":          duckdb.ErrorTypeInterrupt,
	"Out of Memory Error":      duckdb.ErrorTypeOutOfMemory,
	"TransactionContext Error": duckdb.ErrorTypeTransaction,
}
