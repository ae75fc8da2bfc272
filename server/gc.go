package server

import (
	"context"
	"sync"
	"time"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
)

// GC implements vsql_gc for the backend: a negative grace means the
// server's --gc-grace.
func (b backend) GC(ctx context.Context, grace time.Duration) (branches.GCReport, error) {
	if grace < 0 {
		grace = b.s.cfg.GCGrace
	}
	rep, err := b.Manager.GC(ctx, grace)
	if err == nil {
		b.s.log.Info("gc", "blocks_removed", rep.BlocksRemoved, "bytes_removed", rep.BytesRemoved, "chunk_maps_removed", rep.ChunkMapsRemoved,
			"images_removed", rep.ImagesRemoved, "blocks_kept", rep.BlocksKept, "by", "vsql_gc")
	}
	return rep, err
}

// startGC runs retention and the online gc every GCInterval (off when it
// is negative) until the returned stop is called; stop cancels a pass in
// progress and waits for it.
func (s *Server) startGC() (stop func()) {
	if s.cfg.GCInterval < 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(s.cfg.GCInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			s.gcPass(ctx)
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// gcPass applies every database's retention (keep_within ages snapshots
// out even when no new snapshot is taken), then runs the online gc.
func (s *Server) gcPass(ctx context.Context) {
	var dbs []catalog.Database
	if err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		dbs, err = tx.Databases(ctx)
		return err
	}); err != nil {
		s.log.Warn("background gc: list databases", "err", err)
		return
	}
	for _, d := range dbs {
		if _, err := s.versions.ApplyRetention(ctx, d.Name); err != nil && ctx.Err() == nil {
			s.log.Warn("background gc: retention", "db", d.Name, "err", err)
		}
	}
	rep, err := s.versions.GC(ctx, s.cfg.GCGrace)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("background gc", "err", err)
		}
		return
	}
	s.log.Info("gc", "blocks_removed", rep.BlocksRemoved, "bytes_removed", rep.BytesRemoved, "chunk_maps_removed", rep.ChunkMapsRemoved,
		"images_removed", rep.ImagesRemoved, "blocks_kept", rep.BlocksKept, "by", "background")
}
