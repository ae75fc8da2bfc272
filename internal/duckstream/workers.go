package duckstream

/*
#include <stdint.h>
#include <stdbool.h>

// DuckDB's C API for threads that run its tasks (duckdb.h, stable since
// v0.9): duckdb-go-bindings links the library but does not wrap these.
typedef uint64_t idx_t;
typedef struct _duckdb_database { void *internal_ptr; } *duckdb_database;
typedef void *duckdb_task_state;

duckdb_task_state duckdb_create_task_state(duckdb_database database);
void duckdb_execute_tasks_state(duckdb_task_state state);
void duckdb_finish_execution(duckdb_task_state state);
void duckdb_destroy_task_state(duckdb_task_state state);
*/
import "C"

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// Workers runs DuckDB's tasks on threads started only while a statement
// has been running long enough to share its work.
//
// DuckDB's own worker threads wait on one semaphore and are woken for
// every task any query schedules. A point query schedules a few tasks
// that the thread running it executes itself anyway; waking an idle
// worker on another CPU for each costs more than the query's execution
// (internal/duckstream's BenchmarkPointQuery: a planned query 80 µs with
// a worker, 40 µs without; a prepared point query 250 µs vs 200 µs). So
// the engine is opened with every thread "external" (DuckDB's
// external_threads equal to threads: none of its own workers, while it
// still splits work for that many threads), and Workers supplies the
// others: a monitor looks every tick at the statements running (Track),
// and once one has run longer than Delay, while fewer statements run than
// there are threads, it starts Threads−1 helpers, each on a locked OS
// thread in duckdb_execute_tasks_state, until no statement runs (or as
// many run as there are threads: each has a CPU then). Scans, joins and
// merges get every core after the first Delay; point queries never wake
// anyone. After parkAfter with nothing running the monitor stops ticking
// until the next Track, so an idle server does not wake every tick.
type Workers struct {
	db      mapping.Database
	helpers int

	mu      sync.Mutex
	running map[*tracked]struct{}
	run     *helperRun     // the helpers running, nil when none
	started atomic.Int64   // helper runs started (tests, metrics)
	cpu     atomic.Int64   // CPU time of helpers that returned, ns
	live    sync.WaitGroup // helper goroutines not yet returned
	parked  atomic.Bool    // the monitor waits for wake, not ticking
	wake    chan struct{}
	quit    chan struct{}
	done    chan struct{}
}

type tracked struct{ since time.Time }

// helperRun is one start of the helpers: their DuckDB task states, and
// finished, closed when stopHelpers' duckdb_finish_execution calls have
// all returned. A helper frees its state only then: finish_execution
// clears the state's marker, which lets the helper's
// duckdb_execute_tasks_state return at once, and then still reads the
// state (its count and database) to wake DuckDB's threads. A helper that
// freed its state as soon as it returned made finish_execution read freed
// memory, and vsqld crashed in DatabaseInstance::GetScheduler (CI, stop
// 45, the monitor preempted between the two reads).
type helperRun struct {
	states   []C.duckdb_task_state
	finished chan struct{}
}

// Fault injection for TestHelperStateOutlivesFinish, which no real part
// can produce on demand: afterFinish runs in stopHelpers after each
// duckdb_finish_execution (a monitor preempted there), beforeDestroy in a
// helper before it frees its state.
var afterFinish, beforeDestroy = func() {}, func() {}

// Delay is how long a statement runs before the helpers start; tick is
// how often the monitor looks; parkAfter is how long nothing runs before
// it stops looking.
const (
	Delay     = time.Millisecond
	tick      = time.Millisecond
	parkAfter = time.Second
)

// StartWorkers starts the monitor for the database of c, which must have
// been opened with external_threads equal to threads (see Workers):
// threads is that number, the helpers are one fewer.
func StartWorkers(c *duckdb.Connector, threads int) (*Workers, error) {
	db, err := databaseHandle(c)
	if err != nil {
		return nil, err
	}
	w := &Workers{db: db, helpers: threads - 1, running: map[*tracked]struct{}{},
		wake: make(chan struct{}, 1), quit: make(chan struct{}), done: make(chan struct{})}
	go w.monitor()
	return w, nil
}

// Track marks a statement as running until done is called. It costs two
// map operations under a mutex and wakes nothing, but the monitor after
// an idle second.
func (w *Workers) Track() (done func()) {
	if w == nil || w.helpers <= 0 {
		return func() {}
	}
	t := &tracked{since: time.Now()}
	w.mu.Lock()
	w.running[t] = struct{}{}
	w.mu.Unlock()
	if w.parked.Load() {
		select {
		case w.wake <- struct{}{}:
		default:
		}
	}
	return func() {
		w.mu.Lock()
		delete(w.running, t)
		w.mu.Unlock()
	}
}

type trackedKey struct{}

// TrackContext is Track for work that runs in ctx, once: work nested in
// tracked work (an engine call inside a merge inside a statement) is not
// counted again, so that one statement counts as one when the monitor
// weighs the statements running against the threads. The context it
// returns carries the mark.
func (w *Workers) TrackContext(ctx context.Context) (context.Context, func()) {
	if w == nil || w.helpers <= 0 || ctx.Value(trackedKey{}) != nil {
		return ctx, func() {}
	}
	return context.WithValue(ctx, trackedKey{}, true), w.Track()
}

// Started is how many times the helpers were started.
func (w *Workers) Started() int64 { return w.started.Load() }

// HelperCPU is the CPU time the helpers that have returned spent.
func (w *Workers) HelperCPU() time.Duration { return time.Duration(w.cpu.Load()) }

// threadCPU is the calling OS thread's CPU time (RUSAGE_THREAD).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(1, &ru) != nil { // 1: RUSAGE_THREAD
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Close stops the monitor and the helpers before the database is closed.
// A stopped helper waiting for work in DuckDB's scheduler notices only
// when a task is scheduled, so Close runs kick (a statement on the
// database) until every helper has returned, for up to ten seconds.
func (w *Workers) Close(kick func()) {
	if w == nil {
		return
	}
	close(w.quit)
	<-w.done
	returned := make(chan struct{})
	go func() { w.live.Wait(); close(returned) }()
	for range 1000 {
		select {
		case <-returned:
			return
		case <-time.After(10 * time.Millisecond):
			kick()
		}
	}
}

func (w *Workers) monitor() {
	defer close(w.done)
	t := time.NewTicker(tick)
	defer t.Stop()
	var idleSince time.Time
	for {
		select {
		case <-w.quit:
			w.stopHelpers()
			return
		case now := <-t.C:
			w.mu.Lock()
			n, long := len(w.running), false
			for r := range w.running {
				if now.Sub(r.since) >= Delay {
					long = true
					break
				}
			}
			on := w.run != nil
			w.mu.Unlock()
			// As many statements as threads keep every CPU busy on their
			// own: helpers would only add wake-ups.
			spare := n <= w.helpers
			switch {
			case long && spare && !on:
				w.startHelpers()
			case (n == 0 || !spare) && on:
				w.stopHelpers()
			}
			if n > 0 || on {
				idleSince = time.Time{}
				continue
			}
			if idleSince.IsZero() {
				idleSince = now
			}
			if now.Sub(idleSince) >= parkAfter && !w.park(t) {
				return
			}
		}
	}
}

// park stops the ticker until Track wakes the monitor (false: Close).
// Parked is set before the last look at the statements running, so a
// Track either is seen here or sees parked and wakes the monitor.
func (w *Workers) park(t *time.Ticker) bool {
	w.parked.Store(true)
	defer w.parked.Store(false)
	w.mu.Lock()
	n := len(w.running)
	w.mu.Unlock()
	if n == 0 {
		t.Stop()
		select {
		case <-w.quit:
			return false
		case <-w.wake:
		}
		t.Reset(tick)
	}
	return true
}

func (w *Workers) startHelpers() {
	w.started.Add(1)
	db := C.duckdb_database(w.db.Ptr)
	run := &helperRun{states: make([]C.duckdb_task_state, w.helpers), finished: make(chan struct{})}
	for i := range run.states {
		st := C.duckdb_create_task_state(db)
		run.states[i] = st
		w.live.Add(1)
		go func() {
			defer w.live.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			before := threadCPU()
			defer func() { w.cpu.Add(int64(threadCPU() - before)) }()
			// Runs DuckDB's tasks, waiting on its scheduler's semaphore
			// when there are none, until stopHelpers calls
			// duckdb_finish_execution (noticed when it next wakes: at
			// the next task any statement schedules, or the wake-up
			// finish_execution itself sends).
			C.duckdb_execute_tasks_state(st)
			<-run.finished // finish_execution may still read st (helperRun)
			beforeDestroy()
			C.duckdb_destroy_task_state(st)
		}()
	}
	w.mu.Lock()
	w.run = run
	w.mu.Unlock()
}

func (w *Workers) stopHelpers() {
	w.mu.Lock()
	run := w.run
	w.run = nil
	w.mu.Unlock()
	if run == nil {
		return
	}
	for _, st := range run.states {
		C.duckdb_finish_execution(st)
		afterFinish()
	}
	close(run.finished)
}
