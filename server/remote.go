package server

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/vsqlerr"
)

// backend is what the vsql_* functions call: the branch manager, plus the
// server's remotes.
type backend struct {
	*branches.Manager
	s *Server
}

// CreateSnapshot is the Manager's, counted in the metrics.
func (b backend) CreateSnapshot(ctx context.Context, db, branch, name string) (branches.SnapshotResult, error) {
	res, err := b.Manager.CreateSnapshot(ctx, db, branch, name)
	if err == nil {
		b.s.metrics.snapshotted(res)
		b.s.lake.Kick()
	}
	return res, err
}

func (b backend) SetRemote(ctx context.Context, db, url string) (string, error) {
	return b.s.SetRemote(ctx, db, url)
}

func (b backend) AttachRemote(ctx context.Context, url, alias string) (string, string, error) {
	return b.s.AttachRemote(ctx, url, alias)
}

// follower keeps one remote head attached and follows it.
type follower struct {
	head  s3sync.HeadURL
	alias string
	etag  string
	// synced is when the replica last knew it had the head (unix ns): at
	// attach, and at each poll that found the head unchanged or followed
	// it.
	synced atomic.Int64
}

type remoteState struct {
	mu        sync.Mutex
	followers map[string]*follower // by alias
	stop      chan struct{}
	wg        sync.WaitGroup
}

// openRemotes wires S3 export into snapshots and publications.
func (s *Server) openRemotes() error {
	open := s.cfg.OpenBucket
	if open == nil {
		open = func(ctx context.Context, bucket string) (s3sync.ObjectStore, error) {
			return s3sync.NewAWSStore(ctx, bucket, s3sync.AWSOptions{Endpoint: s.cfg.S3Endpoint, PathStyle: s.cfg.S3PathStyle})
		}
	}
	metered := func(ctx context.Context, bucket string) (s3sync.ObjectStore, error) {
		st, err := open(ctx, bucket)
		if err != nil {
			return nil, err
		}
		return s.metrics.meterStore(st), nil
	}
	var err error
	if s.remotes, err = s3sync.OpenRemotes(s.cfg.DataDir, metered); err != nil {
		return err
	}
	blocks := s.versions.Store()
	s.versions.Exporter = func(ctx context.Context, db, branch string, cm catalog.ChunkMap) error {
		return s.remotes.ExportSnapshot(ctx, db, branch, cm, blocks)
	}
	s.versions.Fetcher = func(ctx context.Context, db string, cm catalog.ChunkMap) error {
		return s.remotes.FetchExported(ctx, db, cm, blocks)
	}
	for db, url := range s.cfg.Remotes {
		if _, err := s.SetRemote(context.Background(), db, url); err != nil {
			return fmt.Errorf("--remote %s=%s: %w", db, url, err)
		}
	}
	s.remote = &remoteState{followers: map[string]*follower{}, stop: make(chan struct{})}
	s.remote.wg.Add(1)
	go s.followHeads()
	return nil
}

// SetRemote implements vsql_set_remote.
func (s *Server) SetRemote(ctx context.Context, db, url string) (string, error) {
	if _, err := s.versions.Branches(ctx, db); err != nil {
		return "", err
	}
	if err := s.remotes.SetRemote(ctx, db, url); err != nil {
		return "", err
	}
	return s.remotes.Remote(db), nil
}

// AttachRemote implements vsql_attach_remote and dbname=s3://…: it fetches
// the head's missing blocks, attaches the snapshot read-only under alias
// and follows the head from then on.
func (s *Server) AttachRemote(ctx context.Context, rawURL, alias string) (string, string, error) {
	h, err := s3sync.ParseHeadURL(rawURL)
	if err != nil {
		return "", "", err
	}
	if alias == "" {
		alias = h.String()
	}
	if strings.HasPrefix(strings.ToLower(alias), "__vsql") {
		return "", "", vsqlerr.New(vsqlerr.ReservedName, "%q is reserved", alias)
	}
	if !s.remoteAllowed(h.Location) {
		return "", "", vsqlerr.New(vsqlerr.PermissionDenied, "remote %s is not configured on this server; vsqld reads S3 heads only from locations an administrator allowed", h.Location).
			WithHint("An administrator allows a location with --allow-remote s3://bucket/prefix/ (VSQL_ALLOW_REMOTE), or by making it a database's remote (--remote db=s3://bucket/prefix/ or vsql_set_remote).")
	}
	etag, cm, err := s.remotes.FetchHead(ctx, h, s.versions.Store())
	if err != nil {
		return "", "", err
	}
	if err := s.versions.AttachImage(ctx, alias, cm); err != nil {
		return "", "", err
	}
	s.remote.mu.Lock()
	f := &follower{head: h, alias: alias, etag: etag}
	f.synced.Store(time.Now().UnixNano())
	s.remote.followers[alias] = f
	s.remote.mu.Unlock()
	return alias, cm.Root, nil
}

// parseAllowRemotes reads Config.AllowRemotes.
func parseAllowRemotes(list []string) ([]s3sync.Location, error) {
	var out []s3sync.Location
	for _, raw := range list {
		loc, err := s3sync.ParseLocation(raw)
		if err == nil && !cleanPrefix(loc.Prefix) {
			err = fmt.Errorf("%q has empty, . or .. path segments", raw)
		}
		if err != nil {
			return nil, vsqlerr.New(vsqlerr.InvalidArgument, "--allow-remote %s: %v", raw, err).
				WithHint("Give S3 locations as s3://bucket/prefix/ (comma-separated, or the flag repeated).")
		}
		out = append(out, loc)
	}
	return out, nil
}

// cleanPrefix reports a key prefix without empty, "." or ".." segments,
// which could otherwise reach outside an allowed prefix.
func cleanPrefix(prefix string) bool {
	if prefix == "" {
		return true
	}
	for _, seg := range strings.Split(strings.TrimSuffix(prefix, "/"), "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// remoteAllowed reports whether clients may make the server read heads at
// loc: it is a database's remote (remotes.json, --remote) or lies under an
// --allow-remote location. Nothing is asked of S3.
func (s *Server) remoteAllowed(loc s3sync.Location) bool {
	if !cleanPrefix(loc.Prefix) {
		return false
	}
	allowed := s.allowRemotes
	for _, u := range s.remotes.URLs() {
		if l, err := s3sync.ParseLocation(u); err == nil {
			allowed = append(allowed[:len(allowed):len(allowed)], l)
		}
	}
	for _, a := range allowed {
		if a.Bucket == loc.Bucket && strings.HasPrefix(loc.Prefix, a.Prefix) {
			return true
		}
	}
	return false
}

// followHeads polls the followed heads and attaches each new snapshot.
func (s *Server) followHeads() {
	defer s.remote.wg.Done()
	tick := time.NewTicker(s.cfg.RemotePoll)
	defer tick.Stop()
	for {
		select {
		case <-s.remote.stop:
			return
		case <-tick.C:
		}
		s.remote.mu.Lock()
		fs := make([]*follower, 0, len(s.remote.followers))
		for _, f := range s.remote.followers {
			fs = append(fs, f)
		}
		s.remote.mu.Unlock()
		for _, f := range fs {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			etag, err := s.remotes.HeadETag(ctx, f.head)
			if err == nil && etag != f.etag {
				var cm catalog.ChunkMap
				if etag, cm, err = s.remotes.FetchHead(ctx, f.head, s.versions.Store()); err == nil {
					if err = s.versions.AttachImage(ctx, f.alias, cm); err == nil {
						f.etag = etag
						s.log.Info("remote head followed", "head", f.head.String(), "content_root", cm.Root)
					}
				}
			}
			if err != nil {
				s.log.Warn("remote head not followed", "head", f.head.String(), "err", err)
			} else {
				f.synced.Store(time.Now().UnixNano())
			}
			cancel()
		}
	}
}

func (s *Server) stopRemotes() {
	if s.remote != nil {
		close(s.remote.stop)
		s.remote.wg.Wait()
		s.remote = nil
	}
}

// remotePublisher gives merges the server's remotes.
type remotePublisher struct {
	r      *s3sync.Remotes
	blocks s3sync.Blocks
}

func (p remotePublisher) HasRemote(db string) bool { return p.r.Remote(db) != "" }

func (p remotePublisher) Upload(ctx context.Context, db, branch string, cm catalog.ChunkMap) (*s3sync.Pending, error) {
	return p.r.Upload(ctx, db, branch, cm, p.blocks)
}

func (p remotePublisher) PublishHead(ctx context.Context, pend *s3sync.Pending) (bool, error) {
	return p.r.PublishHead(ctx, pend)
}

func (p remotePublisher) Settle(ctx context.Context, db, branch, token string) (bool, error) {
	return p.r.Settle(ctx, db, branch, token)
}

// headLag is how long ago the least recently synced followed head was
// known current (0 with no followed head): the replica's lag behind S3.
func (s *Server) headLag() time.Duration {
	if s.remote == nil {
		return 0
	}
	s.remote.mu.Lock()
	defer s.remote.mu.Unlock()
	var lag time.Duration
	for _, f := range s.remote.followers {
		lag = max(lag, time.Since(time.Unix(0, f.synced.Load())))
	}
	return lag
}
