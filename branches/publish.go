package branches

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/atomicfile"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/vsqlerr"
)

// DataPath is a path inside the repository.
func (m *Manager) DataPath(parts ...string) string {
	return filepath.Join(append([]string{m.dataDir}, parts...)...)
}

// StagingPath is a scratch file in the repository's staging directory
// (emptied at start-up).
func (m *Manager) StagingPath(name string) string {
	return filepath.Join(m.dataDir, "staging", name)
}

// SnapshotImage attaches snapshot id read-only for a merge and returns its
// catalog name ("db@id"), the image's path, and a release function: when
// the last merge releases an image that no session or query reached by
// name, it is detached again, so merges do not grow the engine's catalogs.
func (m *Manager) SnapshotImage(ctx context.Context, db string, id int64) (alias, path string, release func(), err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, err := m.attachSnapshotLocked(ctx, db, strconv.FormatInt(id, 10))
	if err != nil {
		return "", "", nil, err
	}
	a.users++
	var once sync.Once
	return a.alias, a.path, func() {
		once.Do(func() {
			m.mu.Lock()
			defer m.mu.Unlock()
			a.users--
			if a.users == 0 && !a.shared && a.sessions == 0 && m.attached[a.alias] == a {
				if err := m.detachLocked(context.Background(), a.alias); err != nil {
					m.log.Warn("detach merge input", "alias", a.alias, "err", err)
				}
			}
		})
	}, nil
}

// Target states of a branch, as preflight reports them.
const (
	TargetClean = "clean"
	TargetDirty = "dirty"
	TargetBusy  = "busy"
)

// TargetState reports whether a branch can take a merge now: clean (its
// live file equals its head), dirty (unsnapshotted writes) or busy (a
// session on it has an open transaction). head is the branch's head.
func (m *Manager) TargetState(ctx context.Context, db, branch string) (state string, head int64, err error) {
	b, headRoot, err := m.branchWithHeadRoot(ctx, db, branch)
	if err != nil {
		return "", 0, err
	}
	if m.Busy != nil && m.Busy(BranchAlias(db, branch)) {
		return TargetBusy, b.Head, nil
	}
	dirty, err := m.dirty(b, headRoot)
	if err != nil {
		return "", 0, err
	}
	if dirty {
		return TargetDirty, b.Head, nil
	}
	return TargetClean, b.Head, nil
}

// branchWithHeadRoot reads a branch and its head's content root ("" when
// it has no head).
func (m *Manager) branchWithHeadRoot(ctx context.Context, db, name string) (b catalog.Branch, headRoot string, err error) {
	err = m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		var err error
		if b, err = m.branch(ctx, tx, d, name); err != nil {
			return err
		}
		if b.Head > 0 {
			s, err := tx.Snapshot(ctx, d.ID, strconv.FormatInt(b.Head, 10))
			if err != nil {
				return err
			}
			headRoot = s.ContentRoot
		}
		return nil
	})
	return b, headRoot, err
}

// Publication is the final step of a merge, fast-forward or restore: one
// catalog transaction that moves (or creates) a branch.
type Publication struct {
	DB     string
	Branch string
	// NewBranch creates Branch; otherwise Branch exists and its head must
	// still be ExpectHead (else merge_inputs_changed) and it must be clean
	// (else merge_target_dirty) and free of open transactions (waited for
	// up to LockTimeout, else active_attachment_or_transaction).
	NewBranch   bool
	ExpectHead  int64
	LockTimeout time.Duration
	CreatedFrom string
	// File is a finished DuckDB file (in staging) that becomes the branch's
	// live file and the content of a new snapshot of Kind with Parents and
	// Provenance. With File empty, the branch moves to the existing
	// snapshot Existing and no snapshot is created.
	File       string
	Kind       string
	Parents    []int64
	Provenance map[string]any
	Existing   int64
	// Force skips the clean check (restore with force => true).
	Force bool
	// DirtyCode is the error for an unclean target (default merge_target_dirty).
	DirtyCode vsqlerr.Code
	// Commit, if set, runs inside the publishing catalog transaction with
	// the branch's new head (a merge completes its request there, so that a
	// crash can never publish a result twice).
	Commit func(ctx context.Context, tx *catalog.Tx, d catalog.Database, head int64) error
	// Remote, if set, publishes the new head remotely (an S3 merge, in its
	// durable steps) before the catalog transaction, in place of the
	// manager's Exporter; NoExport skips both (the remote already holds it).
	Remote   func(ctx context.Context, cm catalog.ChunkMap) error
	NoExport bool

	inPlace *InPlace // set by InPlace.Publish: the live file is the result
}

// PublishResult says what publication did.
type PublishResult struct {
	Snapshot   int64 // the branch's new head
	NewBytes   int64
	TotalBytes int64
}

// Publish stores the blocks of p.File, moves it into live/, and in one
// catalog transaction records the snapshot and moves (or creates) the
// branch; then it swaps the branch's attachment so sessions see the new
// state from their next statement. Before the catalog transaction nothing
// is visible; a crash leaves at most unreferenced blocks and files (gc).
func (m *Manager) Publish(ctx context.Context, p Publication) (PublishResult, error) {
	res, err := m.publish(ctx, p)
	if err == nil && p.File != "" {
		m.afterSnapshot(ctx, p.DB)
	}
	return res, err
}

func (m *Manager) publish(ctx context.Context, p Publication) (PublishResult, error) {
	defer m.holdStore()() // from storing blocks to recording them
	var res PublishResult
	alias := BranchAlias(p.DB, p.Branch)
	var cm catalog.ChunkMap
	var newRel string
	if p.File != "" {
		c, err := chunkFile(p.File, m.store, m.memo, nil)
		if err != nil {
			return res, err
		}
		cm, res.NewBytes = c.Map, c.NewBytes
		res.TotalBytes = cm.FileSize
		faults.Point("publish.after_blocks")
		newRel = liveFileFor(p.DB, p.Branch)
		if err := os.MkdirAll(filepath.Dir(m.abs(newRel)), 0o755); err != nil {
			return res, err
		}
		if err := os.Rename(p.File, m.abs(newRel)); err != nil {
			m.memo.forget(p.File)
			return res, fmt.Errorf("move merged file into place: %w", err)
		}
		m.memo.rename(p.File, m.abs(newRel))
		if err := atomicfile.SyncDir(filepath.Dir(m.abs(newRel))); err != nil {
			return res, err
		}
		faults.Point("publish.before_commit")
	} else if p.inPlace != nil {
		c, err := chunkFile(p.inPlace.path, m.store, m.memo, nil)
		if err != nil {
			return res, err
		}
		cm, res.NewBytes = c.Map, c.NewBytes
		res.TotalBytes = cm.FileSize
		faults.Point("publish.after_blocks")
	}
	cleanup := func() {
		if newRel != "" {
			os.Remove(m.abs(newRel))
			m.memo.forget(m.abs(newRel))
		}
	}
	var old catalog.Branch
	if !p.NewBranch && p.inPlace == nil { // in place, the caller holds the gate and checked the branch
		release, err := m.Gate(alias).Exclusive(ctx)
		if err != nil {
			cleanup()
			return res, err
		}
		defer release()
		if err := m.waitNotBusy(ctx, alias, p.LockTimeout); err != nil {
			cleanup()
			return res, err
		}
		state, head, err := m.TargetState(ctx, p.DB, p.Branch)
		if err != nil {
			cleanup()
			return res, err
		}
		if head != p.ExpectHead {
			cleanup()
			return res, vsqlerr.New(vsqlerr.MergeInputsChanged, "branch %q moved from snapshot %d to %d during the operation", p.Branch, p.ExpectHead, head)
		}
		if state == TargetDirty && !p.Force {
			cleanup()
			code := p.DirtyCode
			if code == "" {
				code = vsqlerr.MergeTargetDirty
			}
			return res, vsqlerr.New(code, "branch %q of %q has writes that are not in a snapshot", p.Branch, p.DB)
		}
	}
	if !p.NoExport && (p.Remote != nil || m.Exporter != nil) {
		if p.File == "" && p.Existing > 0 { // a fast-forward moves the remote head too
			if err := m.inTx(ctx, p.DB, func(tx *catalog.Tx, d catalog.Database) error {
				s, err := tx.Snapshot(ctx, d.ID, strconv.FormatInt(p.Existing, 10))
				if err != nil {
					return err
				}
				cm, err = tx.ChunkMap(ctx, s.ContentRoot)
				return err
			}); err != nil {
				cleanup()
				return res, err
			}
		}
		var err error
		switch {
		case cm.Root == "":
		case p.Remote != nil:
			err = p.Remote(ctx, cm)
		default:
			err = m.Exporter(ctx, p.DB, p.Branch, cm)
		}
		if err != nil {
			cleanup()
			return res, err
		}
	}
	err := m.inTx(ctx, p.DB, func(tx *catalog.Tx, d catalog.Database) error {
		if !p.NewBranch {
			var err error
			if old, err = m.branch(ctx, tx, d, p.Branch); err != nil {
				return err
			}
			if p.inPlace != nil && old.Head != p.ExpectHead {
				return vsqlerr.New(vsqlerr.MergeInputsChanged, "branch %q moved from snapshot %d to %d during the operation", p.Branch, p.ExpectHead, old.Head)
			}
		}
		head := p.Existing
		if p.File != "" || p.inPlace != nil {
			if err := tx.PutChunkMap(ctx, cm); err != nil {
				return err
			}
			id, err := tx.CreateSnapshot(ctx, catalog.Snapshot{DatabaseID: d.ID, Kind: p.Kind, Branch: p.Branch, Parents: p.Parents,
				ContentRoot: cm.Root, TotalBytes: cm.FileSize, NewBytes: res.NewBytes, Provenance: provenance(p.Provenance)})
			if err != nil {
				return err
			}
			head = id
		}
		res.Snapshot = head
		if p.Commit != nil {
			if err := p.Commit(ctx, tx, d, head); err != nil {
				return err
			}
		}
		if p.NewBranch {
			b := catalog.Branch{DatabaseID: d.ID, Name: p.Branch, Head: head, LiveFile: liveFileFor(p.DB, p.Branch), CreatedFrom: p.CreatedFrom}
			if newRel != "" {
				b.LiveFile, b.Materialized = newRel, true
			}
			err := tx.CreateBranch(ctx, b)
			if errors.Is(err, catalog.ErrExists) {
				return nameTaken(err, vsqlerr.BranchExists, "branch", p.Branch, " of database "+strconv.Quote(p.DB))
			}
			return err
		}
		if err := tx.SetBranchHead(ctx, d.ID, p.Branch, head); err != nil {
			return err
		}
		if newRel != "" {
			return tx.SetBranchLiveFile(ctx, d.ID, p.Branch, newRel)
		}
		if p.inPlace != nil {
			return nil // the live file is the new head
		}
		// A move to an existing snapshot: the branch's file is rebuilt from
		// that snapshot's blocks on next use.
		return tx.ResetBranchLiveFile(ctx, d.ID, p.Branch, liveFileFor(p.DB, p.Branch))
	})
	if err != nil {
		cleanup()
		return res, err
	}
	faults.Point("publish.after_commit")
	if p.inPlace != nil {
		m.rememberRoot(p.inPlace.path, cm.Root)
		return res, nil
	}
	if p.NewBranch {
		if newRel != "" {
			m.rememberRoot(m.abs(newRel), cm.Root)
		}
		return res, nil
	}
	// Swap what sessions see. The catalog already names the new state; if
	// the swap fails, the next start attaches it.
	m.mu.Lock()
	defer m.mu.Unlock()
	a := m.attached[alias]
	if a != nil {
		if err := m.detachLocked(ctx, alias); err != nil {
			return res, err
		}
		sessions := a.sessions
		na, err := m.attachBranchLocked(ctx, p.DB, p.Branch)
		if err != nil {
			return res, err
		}
		na.sessions = sessions
		*a = *na
		m.attached[alias] = a // releases held by sessions keep counting here
	}
	if newRel != "" {
		m.rememberRootLocked(m.abs(newRel), cm.Root)
	}
	if old.Materialized {
		oldPath := m.abs(old.LiveFile)
		os.Remove(oldPath)
		os.Remove(oldPath + ".wal")
		m.memo.forget(oldPath)
	}
	return res, nil
}

// MaterializeTo writes the file of a content root whose chunk map the
// catalog holds to dst (every block verified), e.g. to finish a merge
// whose result was published remotely before a crash.
func (m *Manager) MaterializeTo(ctx context.Context, db, root, dst string) error {
	var cm catalog.ChunkMap
	if err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		cm, err = tx.ChunkMap(ctx, root)
		return err
	}); err != nil {
		return err
	}
	if err := m.materialize(ctx, db, cm, dst); err != nil {
		return vsqlerr.Wrap(err, vsqlerr.StorageCorrupt, "materialize %s: %v", root, err)
	}
	return nil
}

// waitNotBusy waits up to timeout for sessions on alias to end their open
// transactions.
func (m *Manager) waitNotBusy(ctx context.Context, alias string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for m.Busy != nil && m.Busy(alias) {
		if time.Now().After(deadline) {
			return vsqlerr.New(vsqlerr.ActiveTransaction, "a session attached to %s has an open transaction (waited %v)", alias, timeout)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	return nil
}
