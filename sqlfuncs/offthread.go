package sqlfuncs

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/vsql/vsql/vsqlerr"
)

// OffThread runs a statement's heavy vsql_* calls (merges, previews,
// diffs, snapshots, restores) outside DuckDB's execution, so that their
// own DuckDB queries have every engine thread: a call made inside DuckDB's
// table-function callback holds one of the engine's threads while it
// waits, and on two cores its comparison then ran on one.
//
// A session that has one arms it for an execution (Arm) and runs the
// statement. The first time such a call is reached, the table function
// records it and fails the statement with a marker error; the session
// then sees Pending, runs the recorded calls itself (RunPending, on the
// session's goroutine, with the statement's context: cancellation, NOTICE
// and durable requests as before), and runs the statement again, whose
// calls now take their rows from the results. A statement is so executed
// at most twice per distinct call it makes; a call an execution reaches
// twice (a self-join) runs once. Only statements outside a transaction
// block are armed: the aborted first execution must leave nothing to roll
// back but itself.
type OffThread struct {
	mu      sync.Mutex
	armed   bool
	pending []offCall
	results map[string][][]any
}

type offCall struct {
	key string
	run func(context.Context) ([][]any, error)
}

// offThreadCaller is a Caller that can run calls outside DuckDB.
type offThreadCaller interface {
	OffThread() *OffThread
}

// Arm prepares an execution: calls are deferred until Disarm.
func (o *OffThread) Arm() {
	o.mu.Lock()
	o.armed, o.pending, o.results = true, nil, nil
	o.mu.Unlock()
}

// Disarm ends the statement: results are dropped, calls run in line again.
func (o *OffThread) Disarm() {
	o.mu.Lock()
	o.armed, o.pending, o.results = false, nil, nil
	o.mu.Unlock()
}

// Pending reports calls recorded by the last execution and not yet run.
func (o *OffThread) Pending() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.pending) > 0
}

// RunPending runs the recorded calls in order; the first error ends the
// statement with that error (the error the call would have raised).
func (o *OffThread) RunPending(ctx context.Context) error {
	o.mu.Lock()
	calls := o.pending
	o.pending = nil
	o.mu.Unlock()
	for _, c := range calls {
		offThreadCalls.Add(1)
		rows, err := c.run(ctx)
		if err != nil {
			return err
		}
		o.mu.Lock()
		if o.results == nil {
			o.results = map[string][][]any{}
		}
		o.results[c.key] = rows
		o.mu.Unlock()
	}
	return nil
}

var offThreadCalls atomic.Int64

// OffThreadCalls counts the calls run off DuckDB's thread since start.
func OffThreadCalls() int64 { return offThreadCalls.Load() }

// errDeferred ends an execution whose call was recorded; the session
// never shows it (it runs the call and the statement again).
var errDeferred = vsqlerr.New(vsqlerr.Internal, "vsql call deferred to the session")

// take returns the rows of a call that already ran (ok), or records it and
// reports deferred; neither when the caller is not armed.
func (o *OffThread) take(key string, run func(context.Context) ([][]any, error)) (rows [][]any, ok, deferred bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.armed {
		return nil, false, false
	}
	if rows, ok := o.results[key]; ok {
		return rows, true, false
	}
	for _, c := range o.pending {
		if c.key == key {
			return nil, false, true
		}
	}
	o.pending = append(o.pending, offCall{key: key, run: run})
	return nil, false, true
}

// callKey names a call by function, database and resolved arguments
// (encoding/json writes map keys in order).
func callKey(name, db string, a args) string {
	b, _ := json.Marshal(a)
	return name + "\x00" + db + "\x00" + string(b)
}

// heavyNames are the public names of the heavy functions (after every
// init has added its functions).
var heavyNames = sync.OnceValue(func() []string {
	var out []string
	for _, f := range functions {
		if f.heavy {
			out = append(out, f.name)
		}
	}
	return out
})

// MayCallHeavy reports whether a statement's text names a heavy function
// (a cheap test at prepare; a false positive only costs the arming).
func MayCallHeavy(sql string) bool {
	if !strings.Contains(sql, "vsql_") && !strings.Contains(sql, "VSQL_") {
		return false
	}
	lower := strings.ToLower(sql)
	for _, n := range heavyNames() {
		if strings.Contains(lower, n) {
			return true
		}
	}
	return false
}
