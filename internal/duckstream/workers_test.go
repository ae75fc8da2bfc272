package duckstream

import (
	"context"
	"database/sql"
	"runtime"
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
