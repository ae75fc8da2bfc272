package duckstream

import (
	"context"
	"database/sql"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// cpuTime is the process's user and system time so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestWorkers: with every DuckDB thread external, a statement that runs
// long gets the helpers (they take part of its work), also after the
// monitor parked on an idle engine; short ones never start them; and
// Close returns once the helpers have left DuckDB's scheduler.
func TestWorkers(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Fatalf("this test needs 2 CPUs, the machine has %d", runtime.NumCPU())
	}
	c, err := duckdb.NewConnector("?threads=2&external_threads=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	w, err := StartWorkers(c, 2)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	// A table scan is split by row groups (range() is not).
	if _, err := db.ExecContext(ctx, `CREATE TABLE t AS SELECT range AS i FROM range(20000000)`); err != nil {
		t.Fatal(err)
	}
	const heavy = `SELECT sum(hash(i * 7 + 1)) FROM t`
	run := func(tracked bool) (wall, cpu time.Duration) {
		if tracked {
			defer w.Track()()
		}
		c0, t0 := cpuTime(t), time.Now()
		var sum any
		if err := db.QueryRowContext(ctx, heavy).Scan(&sum); err != nil {
			t.Fatal(err)
		}
		return time.Since(t0), cpuTime(t) - c0
	}
	// Work nested in tracked work counts once.
	outer, endOuter := w.TrackContext(ctx)
	_, endInner := w.TrackContext(outer)
	w.mu.Lock()
	n := len(w.running)
	w.mu.Unlock()
	endInner()
	endOuter()
	if n != 1 {
		t.Fatalf("a statement and the work nested in it count as %d", n)
	}
	// Statements that end at once never start the helpers.
	for range 1000 {
		w.Track()()
	}
	time.Sleep(5 * tick)
	if n := w.Started(); n != 0 {
		t.Fatalf("helpers started %d times for statements that took no time", n)
	}
	// Untracked, the statement runs on its own thread only.
	wall, cpu := run(false)
	t.Logf("untracked: wall %v, CPU %v", wall, cpu)
	if r := float64(cpu) / float64(wall); r > 1.3 {
		t.Fatalf("an untracked statement used %.2f CPUs: DuckDB has a worker of its own", r)
	}
	if n := w.Started(); n != 0 {
		t.Fatalf("helpers started %d times with nothing tracked", n)
	}
	// Idle for parkAfter, the monitor stops ticking; Track wakes it.
	time.Sleep(parkAfter + 100*time.Millisecond)
	if !w.parked.Load() {
		t.Fatal("the monitor still ticks on an idle engine")
	}
	wall, cpu = run(true)
	t.Logf("tracked: wall %v, CPU %v", wall, cpu)
	if w.Started() == 0 {
		t.Fatal("a statement of a long run did not start the helpers")
	}
	// After a tick with nothing running the helpers are told to stop;
	// Close wakes them (a statement) until they have returned.
	time.Sleep(5 * tick)
	done := make(chan struct{})
	go func() {
		w.Close(func() { _, _ = db.ExecContext(ctx, "SELECT 1") })
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not return")
	}
	// The helpers ran part of the scan (a share of its CPU time, less on a
	// loaded machine, none if they never got a task).
	if h := w.HelperCPU(); h < cpu/10 {
		t.Fatalf("the helpers spent %v of the statement's %v of CPU", h, cpu)
	} else {
		t.Logf("helpers: %v of CPU", h)
	}
}

// TestHelperStateOutlivesFinish: a helper frees its DuckDB task state only
// after duckdb_finish_execution has returned, because that function lets
// the helper go and then still reads the state. Fault injection, which no
// real part produces on demand (afterFinish, beforeDestroy): the stopper
// is held after each finish_execution, as a monitor preempted there is,
// and a helper that frees its state meanwhile is counted. Then the helpers
// are started and stopped many times while statements run, with nothing
// injected: none of it may crash or leave a helper behind.
func TestHelperStateOutlivesFinish(t *testing.T) {
	c, err := duckdb.NewConnector("?threads=2&external_threads=2", nil)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(c)
	defer db.Close()
	handle, err := databaseHandle(c)
	if err != nil {
		t.Fatal(err)
	}
	// No monitor: the test starts and stops the helpers itself.
	w := &Workers{db: handle, helpers: 1, running: map[*tracked]struct{}{}}
	waitHelpers := func() {
		returned := make(chan struct{})
		go func() { w.live.Wait(); close(returned) }()
		select {
		case <-returned:
		case <-time.After(5 * time.Second):
			t.Fatal("a stopped helper did not return")
		}
	}
	var holding atomic.Bool
	var early, destroyed atomic.Int64
	afterFinish = func() {
		holding.Store(true)
		time.Sleep(50 * time.Millisecond)
		holding.Store(false)
	}
	beforeDestroy = func() {
		destroyed.Add(1)
		if holding.Load() {
			early.Add(1)
		}
	}
	t.Cleanup(func() { afterFinish, beforeDestroy = func() {}, func() {} })
	for range 3 {
		w.startHelpers()
		time.Sleep(20 * time.Millisecond) // the helper waits in DuckDB's scheduler
		w.stopHelpers()
		waitHelpers()
	}
	if n := destroyed.Load(); n != 3 {
		t.Fatalf("%d task states freed for 3 helper runs", n)
	}
	if n := early.Load(); n != 0 {
		t.Fatalf("%d of 3 helpers freed their task state while duckdb_finish_execution could still read it", n)
	}
	afterFinish, beforeDestroy = func() {}, func() {}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := db.ExecContext(ctx, `CREATE TABLE t AS SELECT range AS i FROM range(2000000)`); err != nil {
		t.Fatal(err)
	}
	queries := make(chan error, 1)
	go func() {
		for ctx.Err() == nil {
			var sum any
			if err := db.QueryRowContext(ctx, `SELECT sum(hash(i)) FROM t`).Scan(&sum); err != nil && ctx.Err() == nil {
				queries <- err
				return
			}
		}
		queries <- nil
	}()
	for i := range 300 {
		w.startHelpers()
		time.Sleep(time.Duration(i%4) * 500 * time.Microsecond)
		w.stopHelpers()
	}
	waitHelpers()
	cancel()
	if err := <-queries; err != nil {
		t.Fatal(err)
	}
	if w.HelperCPU() == 0 {
		t.Fatal("the helpers never ran a task while statements ran")
	}
}
