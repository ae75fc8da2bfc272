package branches

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/atomicfile"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// applyingSuffix names the marker beside a live file that an in-place
// merge is changing: while it exists, the file may hold writes that no
// snapshot records and no session made, so a start-up that finds it
// rebuilds the branch from its head (RecoverInPlace).
const applyingSuffix = ".applying"

// liveBase is the live file a path in live/ belongs to: the path itself,
// or the file whose WAL or in-place marker it is.
func liveBase(path string) string {
	return strings.TrimSuffix(strings.TrimSuffix(path, ".wal"), applyingSuffix)
}

// InPlace is a branch's live file held by a merge that writes its result
// into that file instead of into a copy of it. From OpenInPlace to Close
// the branch's gate is held exclusively: no statement runs on the branch,
// so the file holds exactly the branch's head until the merge applies its
// changes, and then exactly the merge's result.
type InPlace struct {
	m        *Manager
	db       string
	branch   string
	alias    string
	path     string // absolute path of the live file
	head     int64
	headRoot string
	release  func()
	marked   bool // the applying marker exists
	done     bool // published: the file is the branch's new head
}

// OpenInPlace takes branch's gate exclusively, waits up to lockTimeout for
// open transactions on it to end, and checks that the branch still has
// head expectHead and a clean live file. It returns nil (and no error)
// when the branch has no live file to write into (never materialized, or
// rebuilt on next use): the caller then builds a copy.
func (m *Manager) OpenInPlace(ctx context.Context, db, branch string, expectHead int64, lockTimeout time.Duration) (*InPlace, error) {
	alias := BranchAlias(db, branch)
	b, headRoot, err := m.branchWithHeadRoot(ctx, db, branch)
	if err != nil {
		return nil, err
	}
	if !b.Materialized || b.Head == 0 {
		return nil, nil
	}
	release, err := m.Gate(alias).Exclusive(ctx)
	if err != nil {
		return nil, err
	}
	w := &InPlace{m: m, db: db, branch: branch, alias: alias, release: release}
	if err := m.waitNotBusy(ctx, alias, lockTimeout); err != nil {
		w.Close()
		return nil, err
	}
	// Read again under the gate: the branch may have moved while we waited.
	b, headRoot, err = m.branchWithHeadRoot(ctx, db, branch)
	if err != nil {
		w.Close()
		return nil, err
	}
	if b.Head != expectHead {
		w.Close()
		return nil, vsqlerr.New(vsqlerr.MergeInputsChanged, "branch %q moved from snapshot %d to %d", branch, expectHead, b.Head)
	}
	if !b.Materialized {
		w.Close()
		return nil, nil
	}
	dirty, err := m.dirty(b, headRoot)
	if err != nil {
		w.Close()
		return nil, err
	}
	if dirty {
		w.Close()
		return nil, vsqlerr.New(vsqlerr.MergeTargetDirty, "branch %q of %q has writes that are not in a snapshot", branch, db)
	}
	m.mu.Lock()
	a, err := m.attachBranchLocked(ctx, db, branch)
	m.mu.Unlock()
	if err != nil {
		w.Close()
		return nil, err
	}
	w.path, w.head, w.headRoot = a.path, b.Head, headRoot
	return w, nil
}

// Alias is the catalog name of the live file in the engine.
func (w *InPlace) Alias() string { return w.alias }

// Path is the live file's path.
func (w *InPlace) Path() string { return w.path }

// Size is the live file's size now.
func (w *InPlace) Size() int64 {
	info, err := os.Stat(w.path)
	if err != nil {
		return 0
	}
	return info.Size()
}

// MarkApplying records, durably, that the live file is about to change.
// Call it before the first write.
func (w *InPlace) MarkApplying() error {
	if w.marked {
		return nil
	}
	if err := atomicfile.WriteFile(w.path+applyingSuffix, []byte(fmt.Sprintf("head %d\n", w.head)), 0o644); err != nil {
		return fmt.Errorf("mark in-place merge: %w", err)
	}
	w.marked = true
	return nil
}

// Publish records the live file's content (written and checkpointed by the
// caller) as a new snapshot of p.Kind with p.Parents, and moves the branch
// to it, in one catalog transaction. Only the blocks that may have changed
// are hashed (the pre-check of the live file's last chunking).
func (w *InPlace) Publish(ctx context.Context, p Publication) (PublishResult, error) {
	p.DB, p.Branch, p.ExpectHead, p.inPlace = w.db, w.branch, w.head, w
	res, err := w.m.publish(ctx, p)
	if err != nil {
		return res, err
	}
	w.done = true
	w.m.afterSnapshot(ctx, w.db)
	return res, nil
}

// Close releases the branch. A merge that changed the file and did not
// publish it leaves the branch as it was: when the file no longer equals
// the head (a rolled-back transaction may still have changed its bytes),
// the branch gets a new live file rebuilt from its head.
func (w *InPlace) Close() {
	defer func() {
		if w.release != nil {
			w.release()
			w.release = nil
		}
	}()
	if !w.marked {
		return
	}
	m := w.m
	if !w.done {
		if err := m.eng.Exec(context.Background(), "CHECKPOINT "+sqltext.QuoteIdent(w.alias)); err != nil {
			m.log.Warn("checkpoint after an abandoned in-place merge", "alias", w.alias, "err", err)
		}
		root := ""
		if walSize(w.path) == 0 {
			if c, err := chunkFile(w.path, nil, m.memo, nil); err == nil {
				root = c.Map.Root
			}
		}
		if root != w.headRoot {
			if err := m.resetLive(context.Background(), w.db, w.branch); err != nil {
				// The marker stays: the next start rebuilds the branch.
				m.log.Error("rebuild a branch after an abandoned in-place merge", "alias", w.alias, "err", err)
				return
			}
		} else {
			m.rememberRoot(w.path, root)
		}
	}
	if err := os.Remove(w.path + applyingSuffix); err != nil && !os.IsNotExist(err) {
		m.log.Warn("remove in-place marker", "file", w.path+applyingSuffix, "err", err)
	}
	w.marked = false
}

// resetLive gives a branch a new live file rebuilt from its head and
// attaches it in place of the old one, which it removes. The caller holds
// the branch's gate exclusively.
func (m *Manager) resetLive(ctx context.Context, db, branch string) error {
	alias := BranchAlias(db, branch)
	var old catalog.Branch
	if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		var err error
		if old, err = m.branch(ctx, tx, d, branch); err != nil {
			return err
		}
		return tx.ResetBranchLiveFile(ctx, d.ID, branch, liveFileFor(db, branch))
	}); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.attached[alias]; a != nil {
		if err := m.detachLocked(ctx, alias); err != nil {
			return err
		}
		sessions := a.sessions
		na, err := m.attachBranchLocked(ctx, db, branch)
		if err != nil {
			return err
		}
		na.sessions = sessions
		*a = *na
		m.attached[alias] = a
	}
	oldPath := m.abs(old.LiveFile)
	os.Remove(oldPath)
	os.Remove(oldPath + ".wal")
	os.Remove(oldPath + applyingSuffix)
	m.memo.forget(oldPath)
	return nil
}

// RecoverInPlace runs at start-up, before any branch is attached: every
// live file that an in-place merge was changing when the process stopped
// is replaced by a new one rebuilt (on first use) from its branch's head.
// If the merge was published, the head is its result; if not, the head is
// what the branch held before it: either way the branch holds exactly a
// recorded snapshot.
func RecoverInPlace(ctx context.Context, dataDir string, cat *catalog.Catalog) (int, error) {
	var markers []string
	_ = filepath.WalkDir(filepath.Join(dataDir, "live"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, applyingSuffix) {
			markers = append(markers, path)
		}
		return nil
	})
	n := 0
	for _, marker := range markers {
		live := strings.TrimSuffix(marker, applyingSuffix)
		rel, err := filepath.Rel(dataDir, live)
		if err != nil {
			return n, err
		}
		if err := cat.Tx(ctx, func(tx *catalog.Tx) error {
			dbs, err := tx.Databases(ctx)
			if err != nil {
				return err
			}
			for _, d := range dbs {
				bs, err := tx.Branches(ctx, d.ID)
				if err != nil {
					return err
				}
				for _, b := range bs {
					if b.LiveFile == rel {
						return tx.ResetBranchLiveFile(ctx, d.ID, b.Name, liveFileFor(d.Name, b.Name))
					}
				}
			}
			return nil
		}); err != nil {
			return n, err
		}
		faults.Point("inplace.recover_before_remove")
		os.Remove(live)
		os.Remove(live + ".wal")
		os.Remove(marker)
		n++
	}
	return n, nil
}
