package server

import (
	"context"
	"sync"
	"time"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/s3sync"
)

// GC implements vsql_gc for the backend: a negative grace means the
// server's --gc-grace.
func (b backend) GC(ctx context.Context, grace time.Duration) (branches.GCReport, error) {
	if grace < 0 {
		grace = b.s.cfg.GCGrace
	}
	return b.s.runGC(ctx, grace, "vsql_gc")
}

// runGC is one online gc: the repository's, then each S3 remote's.
func (s *Server) runGC(ctx context.Context, grace time.Duration, by string) (branches.GCReport, error) {
	rep, err := s.versions.GC(ctx, grace)
	defer func() { s.metrics.gcRan(by, rep, err) }()
	if err != nil {
		return rep, err
	}
	remote, err := s.collectRemotes(ctx, grace)
	rep.RemoteObjectsRemoved = remote.DescriptorsRemoved + remote.PacksRemoved
	rep.RemoteBytesRemoved = remote.BytesRemoved
	s.log.Info("gc", "blocks_removed", rep.BlocksRemoved, "bytes_removed", rep.BytesRemoved, "chunk_maps_removed", rep.ChunkMapsRemoved,
		"images_removed", rep.ImagesRemoved, "blocks_kept", rep.BlocksKept, "remote_descriptors_removed", remote.DescriptorsRemoved,
		"remote_packs_removed", remote.PacksRemoved, "remote_bytes_removed", remote.BytesRemoved, "by", by)
	return rep, err
}

// collectRemotes runs the remote gc of every database with an S3 remote,
// keeping the exports of its kept snapshots, of unfinished merge requests
// and of snapshots deleted within grace.
func (s *Server) collectRemotes(ctx context.Context, grace time.Duration) (s3sync.CollectReport, error) {
	var total s3sync.CollectReport
	if s.remotes == nil {
		return total, nil
	}
	dbs, err := s.databases(ctx)
	if err != nil {
		return total, err
	}
	for _, d := range dbs {
		if s.remotes.Remote(d.Name) == "" {
			continue
		}
		var keep map[string]bool
		if err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
			var err error
			keep, err = tx.RemoteRoots(ctx, d.ID, time.Now().Add(-grace))
			return err
		}); err != nil {
			return total, err
		}
		rep, err := s.remotes.Collect(ctx, d.Name, keep, grace)
		total.DescriptorsRemoved += rep.DescriptorsRemoved
		total.PacksRemoved += rep.PacksRemoved
		total.BytesRemoved += rep.BytesRemoved
		if err != nil {
			return total, err
		}
	}
	return total, nil
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
	work := s.startBackground("background gc: retention, then the online gc", "listing databases")
	defer s.endBackground(work)
	dbs, err := s.databases(ctx)
	if err != nil {
		s.log.Warn("background gc: list databases", "err", err)
		return
	}
	for _, d := range dbs {
		work.setPhase("retention of " + d.Name)
		if _, err := s.versions.ApplyRetention(ctx, d.Name); err != nil && ctx.Err() == nil {
			s.log.Warn("background gc: retention", "db", d.Name, "err", err)
		}
	}
	work.setPhase("gc of the block store and S3 remotes")
	if _, err := s.runGC(ctx, s.cfg.GCGrace, "background"); err != nil && ctx.Err() == nil {
		s.log.Warn("background gc", "err", err)
	}
}

// databases lists the repository's databases.
func (s *Server) databases(ctx context.Context) ([]catalog.Database, error) {
	var dbs []catalog.Database
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		dbs, err = tx.Databases(ctx)
		return err
	})
	return dbs, err
}
