package branches

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/vsqlerr"
)

// RetentionBy is what DeletedBy says of snapshots retention deleted.
const RetentionBy = "retention"

// history is what decides whether a snapshot of a database may be
// deleted, read in one catalog transaction.
type history struct {
	db    catalog.Database
	snaps []catalog.Snapshot
	byID  map[int64]catalog.Snapshot
	// heads maps a snapshot to the branches whose head it is.
	heads map[int64][]string
	// bases maps a snapshot to the pairs of branch heads it is a merge
	// base of ("main and dev").
	bases     map[int64][]string
	requests  map[int64]string // snapshot → an unfinished merge request that needs it
	pinned    map[int64]bool
	retention catalog.Retention
}

func (m *Manager) readHistory(ctx context.Context, tx *catalog.Tx, db string) (*history, error) {
	d, err := m.database(ctx, tx, db)
	if err != nil {
		return nil, err
	}
	h := &history{db: d, byID: map[int64]catalog.Snapshot{}, heads: map[int64][]string{}, bases: map[int64][]string{}, pinned: map[int64]bool{}}
	if h.snaps, err = tx.Snapshots(ctx, d.ID); err != nil {
		return nil, err
	}
	for _, s := range h.snaps {
		h.byID[s.ID] = s
	}
	brs, err := tx.Branches(ctx, d.ID)
	if err != nil {
		return nil, err
	}
	for _, b := range brs {
		if b.Head > 0 {
			h.heads[b.Head] = append(h.heads[b.Head], b.Name)
		}
	}
	// Every pair of branch heads may be merged later: their best common
	// ancestors are kept, or that merge could not be three-way.
	parents := catalog.ParentMap(h.snaps)
	for i := range brs {
		for j := i + 1; j < len(brs); j++ {
			a, b := brs[i], brs[j]
			if a.Head == 0 || b.Head == 0 || a.Head == b.Head {
				continue
			}
			best, _, _ := catalog.BestCommonAncestors(parents, a.Head, b.Head)
			for _, c := range best {
				if c != a.Head && c != b.Head {
					h.bases[c] = append(h.bases[c], strconv.Quote(a.Name)+" and "+strconv.Quote(b.Name))
				}
			}
		}
	}
	if h.requests, err = tx.UnfinishedRequestSnapshots(ctx, d.ID); err != nil {
		return nil, err
	}
	if h.retention, err = tx.Retention(ctx, d.ID); err != nil {
		return nil, err
	}
	pins, err := tx.Pins(ctx)
	if err != nil {
		return nil, err
	}
	for _, p := range pins {
		if p.DatabaseID == d.ID {
			h.pinned[p.SnapshotID] = true
		}
	}
	return h, nil
}

// refusal says why snapshot s must not be deleted: a hard reason (a branch
// head, an unfinished request, a pin) whatever force says, or a soft one
// (a name, a merge base) unless force is set; nil when it may go.
func (h *history) refusal(s catalog.Snapshot, force bool) *vsqlerr.Error {
	db := h.db.Name
	if s.Deleted {
		return vsqlerr.New(vsqlerr.SnapshotDeleted, "snapshot %d of %q was already deleted", s.ID, db)
	}
	if brs := h.heads[s.ID]; len(brs) > 0 {
		return vsqlerr.New(vsqlerr.SnapshotInUse, "snapshot %d of %q is the head of branch %s", s.ID, db, strings.Join(quoteAll(brs), ", "))
	}
	if req, ok := h.requests[s.ID]; ok {
		return vsqlerr.New(vsqlerr.SnapshotInUse, "snapshot %d of %q is needed by the unfinished merge request %q", s.ID, db, req)
	}
	if h.pinned[s.ID] {
		return vsqlerr.New(vsqlerr.SnapshotInUse, "snapshot %d of %q is pinned by a reader", s.ID, db)
	}
	if force {
		return nil
	}
	if s.Name != "" {
		return vsqlerr.New(vsqlerr.SnapshotProtected, "snapshot %d of %q is named %q", s.ID, db, s.Name)
	}
	if pairs := h.bases[s.ID]; len(pairs) > 0 {
		return vsqlerr.New(vsqlerr.SnapshotProtected, "snapshot %d of %q is the merge base of the heads of %s", s.ID, db, strings.Join(pairs, "; "))
	}
	return nil
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}

// expired lists the snapshots retention r deletes now: every snapshot
// that neither rule keeps and nothing else needs (heads, names, merge
// bases of branch heads, unfinished merge requests, pins).
func (h *history) expired(r catalog.Retention, now time.Time) []int64 {
	if !r.Active() {
		return nil
	}
	var live []catalog.Snapshot
	for _, s := range h.snaps {
		if !s.Deleted {
			live = append(live, s)
		}
	}
	sort.Slice(live, func(i, j int) bool { return live[i].ID > live[j].ID })
	var out []int64
	for i, s := range live {
		if r.KeepLast > 0 && i < r.KeepLast {
			continue
		}
		if r.KeepWithin > 0 && now.Sub(s.CreatedAt) < r.KeepWithin {
			continue
		}
		if h.refusal(s, false) != nil {
			continue
		}
		out = append(out, s.ID)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// imageAliasesLocked lists the attached images of db's snapshots ids.
func (m *Manager) imageAliasesLocked(db string, ids map[int64]bool) []*attachment {
	var out []*attachment
	for _, a := range m.attached {
		if a.db == db && a.branch == "" && a.snapshot > 0 && ids[a.snapshot] {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].alias < out[j].alias })
	return out
}

// deleteSnapshots deletes what pick chooses from db's history. pick runs
// twice: once to find the images to take out of service (their gates are
// taken exclusively, so statements reading them finish first), and again
// in the transaction that deletes, limited to what the first pick chose,
// so nothing that became needed in between goes. A chosen snapshot that a
// session or a merge reads is refused (strict) or left for later.
func (m *Manager) deleteSnapshots(ctx context.Context, db, by string, strict bool, pick func(h *history) ([]int64, error)) ([]int64, error) {
	var first []int64
	if err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		h, err := m.readHistory(ctx, tx, db)
		if err != nil {
			return err
		}
		first, err = pick(h)
		return err
	}); err != nil {
		return nil, err
	}
	if len(first) == 0 {
		return nil, nil
	}
	chosen := map[int64]bool{}
	for _, id := range first {
		chosen[id] = true
	}
	m.mu.Lock()
	images := m.imageAliasesLocked(db, chosen)
	m.mu.Unlock()
	for _, a := range images { // sorted: one order for everyone
		release, err := m.Gate(a.alias).Exclusive(ctx)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, a := range m.imageAliasesLocked(db, chosen) {
		if a.sessions > 0 || a.users > 0 {
			if strict {
				return nil, vsqlerr.New(vsqlerr.SnapshotInUse, "snapshot %d of %q is read by %d session(s) and %d merge(s) (%s)", a.snapshot, db, a.sessions, a.users, a.alias)
			}
			delete(chosen, a.snapshot)
		}
	}
	var deleted []int64
	err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		h, err := m.readHistory(ctx, tx, db)
		if err != nil {
			return err
		}
		again, err := pick(h)
		if err != nil {
			return err
		}
		for _, id := range again {
			if !chosen[id] {
				continue
			}
			if err := tx.DeleteSnapshot(ctx, h.db.ID, id, by); err != nil {
				return err
			}
			deleted = append(deleted, id)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	faults.Point("retention.after_delete")
	gone := map[int64]bool{}
	for _, id := range deleted {
		gone[id] = true
	}
	for _, a := range m.imageAliasesLocked(db, gone) {
		if err := m.detachLocked(context.WithoutCancel(ctx), a.alias); err != nil {
			m.log.Warn("detach deleted snapshot", "alias", a.alias, "err", err)
		}
	}
	for _, id := range deleted {
		m.removeImages(db, id)
	}
	if len(deleted) > 0 {
		m.log.Info("snapshots deleted", "db", db, "ids", deleted, "by", by)
	}
	return deleted, nil
}

// removeImages removes the images of a snapshot (by id and by its names).
func (m *Manager) removeImages(db string, id int64) {
	dir := filepath.Join(m.dataDir, "cache", db)
	matches, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("%d@*.duckdb", id)))
	for _, p := range append(matches, filepath.Join(dir, fmt.Sprintf("%d.duckdb", id))) {
		os.Remove(p)
		os.Remove(p + ".wal")
	}
}

// DeleteSnapshotResult is what vsql_delete_snapshot returns.
type DeleteSnapshotResult struct {
	ID   int64
	Name string
}

// DeleteSnapshot deletes one snapshot's content (its row and parent edges
// stay, so history and merge bases still go through it). It refuses
// branch heads, snapshots an unfinished merge request needs or a reader
// holds, and, unless force is set, named snapshots and merge bases of
// branch heads. Its blocks are freed by the next gc.
func (m *Manager) DeleteSnapshot(ctx context.Context, db, ref string, force bool, by string) (DeleteSnapshotResult, error) {
	var res DeleteSnapshotResult
	if ref == "" {
		return res, vsqlerr.New(vsqlerr.InvalidArgument, "vsql_delete_snapshot needs a snapshot (an id or a name)")
	}
	_, err := m.deleteSnapshots(ctx, db, by, true, func(h *history) ([]int64, error) {
		s, err := m.lookupSnapshot(h, ref)
		if err != nil {
			return nil, err
		}
		if why := h.refusal(s, force); why != nil {
			return nil, why
		}
		res.ID, res.Name = s.ID, s.Name
		return []int64{s.ID}, nil
	})
	return res, err
}

// lookupSnapshot finds ref (an id or a name, also a name a deleted
// snapshot had) in h.
func (m *Manager) lookupSnapshot(h *history, ref string) (catalog.Snapshot, error) {
	id, numeric := strconv.ParseInt(ref, 10, 64)
	var freed *catalog.Snapshot
	for i, s := range h.snaps {
		switch {
		case numeric == nil && s.ID == id, numeric != nil && s.Name == ref:
			return s, nil
		case numeric != nil && s.Deleted && s.DeletedName == ref:
			freed = &h.snaps[i]
		}
	}
	if freed != nil {
		return *freed, deletedError(*freed, h.db.Name)
	}
	return catalog.Snapshot{}, vsqlerr.New(vsqlerr.SnapshotNotFound, "snapshot %q of database %q does not exist", ref, h.db.Name)
}

// deletedError is snapshot_deleted for s, saying when and by whom.
func deletedError(s catalog.Snapshot, db string) *vsqlerr.Error {
	name := ""
	if s.DeletedName != "" {
		name = fmt.Sprintf(" (named %q)", s.DeletedName)
	}
	how := "by " + strconv.Quote(s.DeletedBy)
	if s.DeletedBy == RetentionBy {
		how = "by the database's retention"
	}
	return vsqlerr.New(vsqlerr.SnapshotDeleted, "snapshot %d%s of %q was deleted %s at %s", s.ID, name, db, how, s.DeletedAt.Format(time.RFC3339))
}

// RetentionResult is what vsql_set_retention returns.
type RetentionResult struct {
	KeepLast   int
	KeepWithin time.Duration
	Deleted    []int64
}

// SetRetention records db's retention policy and applies it at once; it
// is applied again after every snapshot of the database. keepLast 0 and
// keepWithin 0 turn retention off (nothing is deleted by it).
func (m *Manager) SetRetention(ctx context.Context, db string, keepLast int, keepWithin time.Duration, by string) (RetentionResult, error) {
	res := RetentionResult{KeepLast: keepLast, KeepWithin: keepWithin}
	if keepLast < 0 {
		return res, vsqlerr.New(vsqlerr.InvalidArgument, "keep_last must be 0 (no count rule) or more, not %d", keepLast)
	}
	if keepWithin < 0 {
		return res, vsqlerr.New(vsqlerr.InvalidArgument, "keep_within must not be negative (%s)", keepWithin)
	}
	if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		return tx.SetRetention(ctx, d.ID, catalog.Retention{KeepLast: keepLast, KeepWithin: keepWithin.Truncate(time.Second), SetBy: by})
	}); err != nil {
		return res, err
	}
	var err error
	res.Deleted, err = m.ApplyRetention(ctx, db)
	return res, err
}

// Retention reads db's retention policy.
func (m *Manager) Retention(ctx context.Context, db string) (catalog.Retention, error) {
	var r catalog.Retention
	err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		var err error
		r, err = tx.Retention(ctx, d.ID)
		return err
	})
	return r, err
}

// ApplyRetention deletes the snapshots db's retention policy no longer
// keeps and returns their ids. Snapshots being read are left for a later
// pass.
func (m *Manager) ApplyRetention(ctx context.Context, db string) ([]int64, error) {
	if r, err := m.Retention(ctx, db); err != nil || !r.Active() {
		return nil, err // no policy: the history is not even read
	}
	now := time.Now()
	return m.deleteSnapshots(ctx, db, RetentionBy, false, func(h *history) ([]int64, error) {
		return h.expired(h.retention, now), nil
	})
}

// afterSnapshot applies db's retention after a snapshot was recorded; a
// failure is logged, never the snapshot's.
func (m *Manager) afterSnapshot(ctx context.Context, db string) {
	if _, err := m.ApplyRetention(context.WithoutCancel(ctx), db); err != nil {
		m.log.Warn("retention not applied", "db", db, "err", err)
	}
}
