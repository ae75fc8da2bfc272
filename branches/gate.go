package branches

import (
	"context"
	"sync/atomic"

	"golang.org/x/sync/semaphore"
)

// gateMax is the weight of an exclusive hold; shared holds weigh 1.
const gateMax = 1 << 30

// Gate is a branch's admission lock. Every statement that runs on the
// branch holds it shared for its duration; snapshot creation, restore and
// delete hold it exclusively. Waiting is FIFO: once an exclusive holder
// waits, new statements queue behind it, so it cannot starve.
type Gate struct {
	sem *semaphore.Weighted
}

func newGate() *Gate { return &Gate{sem: semaphore.NewWeighted(gateMax)} }

// Shared admits one statement.
func (g *Gate) Shared(ctx context.Context) (release func(), err error) {
	if err := g.sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	return func() { g.sem.Release(1) }, nil
}

// exclusiveHolds counts exclusive holds of every gate: the changes vsql
// itself makes to branches (ExclusiveHolds).
var exclusiveHolds atomic.Int64

// ExclusiveHolds is the number of exclusive holds taken so far, of any
// branch's gate: it moves whenever vsql changed a branch under its
// sessions (a snapshot, a merge in place, a restore, a pull).
func ExclusiveHolds() int64 { return exclusiveHolds.Load() }

// Exclusive waits for running statements to finish and keeps new ones out.
func (g *Gate) Exclusive(ctx context.Context) (release func(), err error) {
	if err := g.sem.Acquire(ctx, gateMax); err != nil {
		return nil, err
	}
	exclusiveHolds.Add(1)
	return func() { g.sem.Release(gateMax) }, nil
}
