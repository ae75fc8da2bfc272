package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"syscall"
)

func main() {
	preloadAllocator(os.Args) // may execute vsqld again (allocator.go)
	raiseGOMAXPROCS(os.Getenv)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	m := &Main{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin, Getenv: os.Getenv}
	if err := m.Run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "vsqld:", err)
		os.Exit(exitCode(err))
	}
}

// statementProcs is how many of Go's Ps vsqld runs with beyond one per CPU.
//
// A session runs its statement in DuckDB inside a cgo call, and a
// goroutine in a cgo call keeps its P. With one P per CPU, two sessions in
// DuckDB hold every P: the other sessions' goroutines, woken by their
// clients' messages, then wait until Go's sysmon takes a P back from a
// cgo call (after 20 µs or more), hands it to another thread, and the
// returning call finds no P and sleeps (a futex wait and wake for each).
// With Ps to spare, a returning call takes its own P back and the network
// goroutines run on idle ones; the OS shares the CPUs among the threads as
// before. Measured side by side (16 pgx clients of point queries on two
// vCPUs, three vsqlds): 3,199–3,436 q/s with 2 Ps, 3,526–3,925 with 32,
// and no change at 1 client; sysmon's share of vsqld's CPU went from 4.7%
// to 1.4%.
const statementProcs = 16

// raiseGOMAXPROCS gives vsqld statementProcs more Ps than CPUs, unless
// GOMAXPROCS is set in the environment.
func raiseGOMAXPROCS(getenv func(string) string) {
	if getenv("GOMAXPROCS") != "" {
		return
	}
	runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + statementProcs)
}
