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
	sem   *semaphore.Weighted
	holds atomic.Int64 // exclusive holds taken so far
}

// ExclusiveHolds is the number of exclusive holds taken so far: it moves
// whenever vsql changed the branch under its sessions (a snapshot, a
// merge in place, a restore, a pull).
func (g *Gate) ExclusiveHolds() int64 { return g.holds.Load() }

func newGate() *Gate { return &Gate{sem: semaphore.NewWeighted(gateMax)} }

// Shared admits one statement.
func (g *Gate) Shared(ctx context.Context) (release func(), err error) {
	if err := g.sem.Acquire(ctx, 1); err != nil {
		return nil, err
	}
	return func() { g.sem.Release(1) }, nil
}

// Exclusive waits for running statements to finish and keeps new ones out.
func (g *Gate) Exclusive(ctx context.Context) (release func(), err error) {
	if err := g.sem.Acquire(ctx, gateMax); err != nil {
		return nil, err
	}
	g.holds.Add(1)
	return func() { g.sem.Release(gateMax) }, nil
}
