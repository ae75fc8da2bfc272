package branches

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// SnapshotResult is what vsql_create_snapshot returns.
type SnapshotResult struct {
	ID         int64
	Branch     string
	Name       string
	NewBytes   int64
	TotalBytes int64
}

// validSnapshotName checks a snapshot name: a valid name that is not all
// digits (digits mean ids).
func validSnapshotName(name string) error {
	if err := sqltext.ValidName("snapshot", name); err != nil {
		return vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	return nil
}

func validBranchName(name string) error {
	if err := sqltext.ValidName("branch", name); err != nil {
		return vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	return nil
}

// CreateSnapshot publishes the branch's current state as a new snapshot
// whose parent is the branch's head. Under the branch's exclusive gate it
// checkpoints the live file, requires an empty WAL, stores the blocks the
// store lacks (each fsynced), and then, in one catalog transaction, records
// the chunk map and the snapshot and moves the head; then the database's
// retention is applied (a failure there is logged, not returned).
func (m *Manager) CreateSnapshot(ctx context.Context, db, branch, name string) (SnapshotResult, error) {
	res, err := m.createSnapshot(ctx, db, branch, name)
	if err == nil {
		m.afterSnapshot(ctx, db)
	}
	return res, err
}

func (m *Manager) createSnapshot(ctx context.Context, db, branch, name string) (SnapshotResult, error) {
	res := SnapshotResult{Branch: branch, Name: name}
	if err := validBranchName(branch); err != nil {
		return res, err
	}
	if name != "" {
		if err := validSnapshotName(name); err != nil {
			return res, err
		}
	}
	var b catalog.Branch
	var headMap catalog.ChunkMap
	if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		var err error
		if b, err = m.branch(ctx, tx, d, branch); err != nil {
			return err
		}
		if name != "" {
			if err := tx.SnapshotNameFree(ctx, d.ID, name); errors.Is(err, catalog.ErrExists) {
				return nameTaken(err, vsqlerr.SnapshotExists, "snapshot", name, " of database "+strconv.Quote(db))
			} else if err != nil {
				return err
			}
		}
		if !b.Materialized && b.Head > 0 {
			s, err := tx.Snapshot(ctx, d.ID, strconv.FormatInt(b.Head, 10))
			if err != nil {
				return err
			}
			headMap, err = tx.ChunkMap(ctx, s.ContentRoot)
			return err
		}
		return nil
	}); err != nil {
		return res, err
	}
	alias := BranchAlias(db, branch)
	release, err := m.Gate(alias).Exclusive(ctx)
	if err != nil {
		return res, err
	}
	defer release()
	defer m.holdStore()() // from storing blocks to recording them

	cm := headMap
	var newBytes int64
	var path string
	if b.Materialized || b.Head == 0 {
		// The branch has a live file (or, a new database's main, is about to):
		// checkpoint it and hash it.
		m.mu.Lock()
		a, err := m.attachBranchLocked(ctx, db, branch)
		m.mu.Unlock()
		if err != nil {
			return res, err
		}
		path = a.path
		if err := m.checkpoint(ctx, alias); err != nil {
			return res, err
		}
		if n := walSize(path); n > 0 {
			return res, vsqlerr.New(vsqlerr.ActiveTransaction, "branch %q still has %d bytes of write-ahead log after CHECKPOINT", branch, n).
				WithHint("A transaction is committing on the branch; retry the snapshot.")
		}
		faults.Point("snapshot.after_checkpoint")
		c, err := chunkFile(path, m.store, m.memo, func() { faults.Point("snapshot.after_block") })
		if err != nil {
			return res, err
		}
		cm, newBytes = c.Map, c.NewBytes
		faults.Point("snapshot.before_publish")
	}
	if m.Exporter != nil {
		if err := m.Exporter(ctx, db, branch, cm); err != nil {
			return res, err
		}
	}
	err = m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		cur, err := m.branch(ctx, tx, d, branch)
		if err != nil {
			return err
		}
		if err := tx.PutChunkMap(ctx, cm); err != nil {
			return err
		}
		s := catalog.Snapshot{DatabaseID: d.ID, Name: name, Kind: "root", Branch: branch,
			ContentRoot: cm.Root, TotalBytes: cm.FileSize, NewBytes: newBytes,
			Provenance: provenance(map[string]any{"operation": "snapshot", "branch": branch})}
		if cur.Head > 0 {
			s.Kind, s.Parents = "linear", []int64{cur.Head}
		}
		id, err := tx.CreateSnapshot(ctx, s)
		if errors.Is(err, catalog.ErrExists) {
			return nameTaken(err, vsqlerr.SnapshotExists, "snapshot", name, " of database "+strconv.Quote(db))
		}
		if err != nil {
			return err
		}
		res.ID = id
		return tx.SetBranchHead(ctx, d.ID, branch, id)
	})
	if err != nil {
		return res, err
	}
	faults.Point("snapshot.after_publish")
	if path != "" {
		m.rememberRoot(path, cm.Root)
	}
	res.NewBytes, res.TotalBytes = newBytes, cm.FileSize
	return res, nil
}

// BranchResult is what vsql_create_branch returns.
type BranchResult struct {
	Branch      string
	Head        int64
	CreatedFrom string
}

// CreateBranch records a new branch whose head is the snapshot ref, or the
// head of branch from (default main). Nothing is copied: the live file is
// materialized when a session first attaches the branch.
func (m *Manager) CreateBranch(ctx context.Context, db, name, snapshotRef, from string) (BranchResult, error) {
	res := BranchResult{Branch: name}
	if err := validBranchName(name); err != nil {
		return res, err
	}
	if snapshotRef != "" && from != "" {
		return res, vsqlerr.New(vsqlerr.InvalidArgument, "give either snapshot => or from =>, not both")
	}
	err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		if snapshotRef != "" {
			s, err := m.snapshot(ctx, tx, d, snapshotRef)
			if err != nil {
				return err
			}
			res.Head, res.CreatedFrom = s.ID, "snapshot "+strconv.FormatInt(s.ID, 10)
		} else {
			if from == "" {
				from = "main"
			}
			if err := validBranchName(from); err != nil {
				return err
			}
			fb, err := m.branch(ctx, tx, d, from)
			if err != nil {
				return err
			}
			if fb.Head == 0 {
				return vsqlerr.New(vsqlerr.NoSnapshot, "branch %q of database %q has no snapshot to branch from", from, db)
			}
			res.Head, res.CreatedFrom = fb.Head, from+"@"+strconv.FormatInt(fb.Head, 10)
		}
		err := tx.CreateBranch(ctx, catalog.Branch{DatabaseID: d.ID, Name: name, Head: res.Head,
			LiveFile: liveFileFor(db, name), CreatedFrom: res.CreatedFrom})
		if errors.Is(err, catalog.ErrExists) {
			return nameTaken(err, vsqlerr.BranchExists, "branch", name, " of database "+strconv.Quote(db))
		}
		return err
	})
	return res, err
}

// DeleteResult is what vsql_delete_branch returns.
type DeleteResult struct {
	Branch          string
	Head            int64
	DiscardedWrites bool
}

// DeleteBranch removes a branch. It refuses main, branches with sessions,
// and branches with unsnapshotted writes unless force is set. Snapshots
// stay (they are history).
func (m *Manager) DeleteBranch(ctx context.Context, db, name string, force bool) (DeleteResult, error) {
	res := DeleteResult{Branch: name}
	if err := validBranchName(name); err != nil {
		return res, err
	}
	if name == "main" {
		return res, vsqlerr.New(vsqlerr.BranchProtected, "the main branch of %q cannot be deleted", db)
	}
	alias := BranchAlias(db, name)
	m.waitForSessions(ctx, alias) // outside the gate: attached sessions keep working meanwhile
	release, err := m.Gate(alias).Exclusive(ctx)
	if err != nil {
		return res, err
	}
	defer release()
	b, headRoot, err := m.branchWithHeadRoot(ctx, db, name)
	if err != nil {
		return res, err
	}
	res.Head = b.Head
	if n := m.Sessions(alias); n > 0 {
		return res, vsqlerr.New(vsqlerr.BranchInUse, "branch %q of %q has %d session(s) attached", name, db, n)
	}
	dirty, err := m.dirty(b, headRoot)
	if err != nil {
		return res, err
	}
	if dirty && !force {
		return res, vsqlerr.New(vsqlerr.BranchDirty, "branch %q of %q has writes that are not in a snapshot", name, db)
	}
	res.DiscardedWrites = dirty
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := m.detachLocked(ctx, alias); err != nil {
		return res, err
	}
	if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		return tx.DeleteBranch(ctx, d.ID, name)
	}); err != nil {
		return res, err
	}
	path := m.abs(b.LiveFile)
	os.Remove(path)
	os.Remove(path + ".wal")
	m.memo.forget(path)
	return res, nil
}

// RestoreResult is what vsql_restore returns.
type RestoreResult struct {
	Branch   string
	ID       int64 // the new snapshot recording the restore
	Restored int64
}

// Restore makes a snapshot's state the branch's state: a new live file is
// built from the snapshot's blocks and published as a new snapshot whose
// parent is the old head (history is never rewritten). Unsnapshotted writes
// are refused unless force is set; a session with an open transaction on
// the branch blocks it. Idle sessions see the restored state from their
// next statement on.
func (m *Manager) Restore(ctx context.Context, db, branch, snapshotRef string, force bool) (RestoreResult, error) {
	res := RestoreResult{Branch: branch}
	if err := validBranchName(branch); err != nil {
		return res, err
	}
	if snapshotRef == "" {
		return res, vsqlerr.New(vsqlerr.InvalidArgument, "vsql_restore needs snapshot => the snapshot to restore")
	}
	var target catalog.Snapshot
	var targetMap catalog.ChunkMap
	if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		if _, err := m.branch(ctx, tx, d, branch); err != nil {
			return err
		}
		var err error
		if target, err = m.snapshot(ctx, tx, d, snapshotRef); err != nil {
			return err
		}
		targetMap, err = tx.ChunkMap(ctx, target.ContentRoot)
		return err
	}); err != nil {
		return res, err
	}
	res.Restored = target.ID
	state, head, err := m.TargetState(ctx, db, branch)
	if err != nil {
		return res, err
	}
	if state == TargetBusy {
		return res, vsqlerr.New(vsqlerr.ActiveTransaction, "a session attached to branch %q of %q has an open transaction", branch, db)
	}
	if state == TargetDirty && !force {
		return res, vsqlerr.New(vsqlerr.BranchDirty, "branch %q of %q has writes that are not in a snapshot", branch, db)
	}
	staging := m.StagingPath(fmt.Sprintf("restore-%s-%s-%d.duckdb", db, branch, time.Now().UnixNano()))
	defer os.Remove(staging)
	if err := m.materialize(ctx, db, targetMap, staging); err != nil {
		return res, vsqlerr.Wrap(err, vsqlerr.StorageCorrupt, "materialize snapshot %d: %v", target.ID, err)
	}
	faults.Point("restore.after_materialize")
	kind, parents := "root", []int64(nil)
	if head > 0 {
		kind, parents = "linear", []int64{head}
	}
	pub, err := m.Publish(ctx, Publication{DB: db, Branch: branch, ExpectHead: head, File: staging, Kind: kind, Parents: parents,
		Provenance: map[string]any{"operation": "restore", "branch": branch, "restored_snapshot": target.ID},
		Force:      force, DirtyCode: vsqlerr.BranchDirty})
	if err != nil {
		return res, err
	}
	res.ID = pub.Snapshot
	return res, nil
}

// BranchInfo is one row of vsql_branches.
type BranchInfo struct {
	Name        string
	Head        int64
	Dirty       bool
	Sessions    int
	CreatedAt   time.Time
	CreatedFrom string
}

// Branches lists a database's branches with their state.
func (m *Manager) Branches(ctx context.Context, db string) ([]BranchInfo, error) {
	var out []BranchInfo
	var list []catalog.Branch
	heads := map[int64]string{}
	if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		var err error
		if list, err = tx.Branches(ctx, d.ID); err != nil {
			return err
		}
		snaps, err := tx.Snapshots(ctx, d.ID)
		for _, s := range snaps {
			heads[s.ID] = s.ContentRoot
		}
		return err
	}); err != nil {
		return nil, err
	}
	for _, b := range list {
		dirty, err := m.dirty(b, heads[b.Head])
		if err != nil {
			return nil, err
		}
		out = append(out, BranchInfo{Name: b.Name, Head: b.Head, Dirty: dirty, Sessions: m.Sessions(BranchAlias(db, b.Name)),
			CreatedAt: b.CreatedAt, CreatedFrom: b.CreatedFrom})
	}
	return out, nil
}

// Snapshots lists a database's snapshots.
func (m *Manager) Snapshots(ctx context.Context, db string) ([]catalog.Snapshot, error) {
	var out []catalog.Snapshot
	err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		var err error
		out, err = tx.Snapshots(ctx, d.ID)
		return err
	})
	return out, err
}

// checkpoint runs CHECKPOINT on an attached branch whose exclusive gate
// the caller holds. DuckDB refuses it while another transaction of the
// engine's is finishing a write there; under the gate no session can
// start one, so the refusal is transient and the checkpoint is retried
// for up to two seconds before the error is returned.
func (m *Manager) checkpoint(ctx context.Context, alias string) error {
	deadline := time.Now().Add(2 * time.Second)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		err := m.eng.Exec(ctx, "CHECKPOINT "+sqltext.QuoteIdent(alias))
		if err == nil || !strings.Contains(err.Error(), "other write transactions active") || time.Now().After(deadline) {
			return err
		}
		m.log.Debug("checkpoint refused while a transaction finishes; retrying", "alias", alias, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
	}
}
