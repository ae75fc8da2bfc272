package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"time"
)

// DeleteSnapshot drops a snapshot's content: its row and parent edges stay
// (history and merge bases go through them), its content root becomes
// DeletedRoot and its name is freed. by is the login that asked, or
// "retention". Deleting a deleted snapshot is a no-op.
func (t *Tx) DeleteSnapshot(ctx context.Context, dbID, id int64, by string) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE snapshots SET deleted_root = content_root, content_root = ?, deleted_at = ?, deleted_by = ?,
		deleted_name = coalesce(name, ''), name = NULL WHERE database_id = ? AND id = ? AND deleted_at IS NULL`,
		DeletedRoot, time.Now().UTC().Format(time.RFC3339Nano), by, dbID, id)
	if err != nil {
		return fmt.Errorf("delete snapshot %d: %w", id, err)
	}
	return nil
}

// RemoteRoots are the content roots of db whose exports an S3 remote gc
// keeps: those of kept snapshots, of unfinished merge requests' results,
// and of snapshots deleted after since (a reader may still be fetching
// them).
func (t *Tx) RemoteRoots(ctx context.Context, dbID int64, since time.Time) (map[string]bool, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT content_root FROM snapshots WHERE database_id = ? AND deleted_at IS NULL
		UNION SELECT deleted_root FROM snapshots WHERE database_id = ? AND deleted_at >= ?
		UNION SELECT json_extract(publication, '$.content_root') FROM merge_requests
		WHERE database_id = ? AND publication <> '' AND state NOT IN ('complete', 'aborted')`,
		dbID, dbID, since.UTC().Format(time.RFC3339Nano), dbID)
	if err != nil {
		return nil, fmt.Errorf("list content roots: %w", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var root sql.NullString
		if err := rows.Scan(&root); err != nil {
			return nil, err
		}
		if root.Valid {
			out[root.String] = true
		}
	}
	return out, rows.Err()
}

// Retention is a database's policy for deleting old snapshots. A snapshot
// is kept when either rule keeps it: it is one of the KeepLast newest, or
// it was created within KeepWithin. Zero turns a rule off; with both off
// nothing is deleted by retention.
type Retention struct {
	KeepLast   int
	KeepWithin time.Duration
	SetBy      string
	SetAt      time.Time
}

// Active reports whether the policy deletes anything at all.
func (r Retention) Active() bool { return r.KeepLast > 0 || r.KeepWithin > 0 }

// Retention reads a database's policy (the zero policy when none is set).
func (t *Tx) Retention(ctx context.Context, dbID int64) (Retention, error) {
	var r Retention
	var secs int64
	var at string
	err := t.tx.QueryRowContext(t.ctx, `SELECT keep_last, keep_within_seconds, set_by, set_at FROM retention WHERE database_id = ?`, dbID).
		Scan(&r.KeepLast, &secs, &r.SetBy, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return Retention{}, nil
	}
	if err != nil {
		return r, fmt.Errorf("read retention: %w", err)
	}
	r.KeepWithin = time.Duration(secs) * time.Second
	r.SetAt, _ = time.Parse(time.RFC3339Nano, at)
	return r, nil
}

// SetRetention records a database's policy (the zero policy removes it).
func (t *Tx) SetRetention(ctx context.Context, dbID int64, r Retention) error {
	var err error
	if !r.Active() {
		_, err = t.tx.ExecContext(t.ctx, `DELETE FROM retention WHERE database_id = ?`, dbID)
	} else {
		_, err = t.tx.ExecContext(t.ctx, `INSERT INTO retention (database_id, keep_last, keep_within_seconds, set_by, set_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (database_id) DO UPDATE SET keep_last = excluded.keep_last, keep_within_seconds = excluded.keep_within_seconds,
			set_by = excluded.set_by, set_at = excluded.set_at`,
			dbID, r.KeepLast, int64(r.KeepWithin/time.Second), r.SetBy, time.Now().UTC().Format(time.RFC3339Nano))
	}
	if err != nil {
		return fmt.Errorf("set retention: %w", err)
	}
	return nil
}

// UnfinishedRequestSnapshots lists the snapshots that merge requests not
// yet complete or aborted name (their base, ours, theirs and result): a
// retry needs them.
func (t *Tx) UnfinishedRequestSnapshots(ctx context.Context, dbID int64) (map[int64]string, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT request_id, base_snapshot_id, ours_snapshot_id, theirs_snapshot_id, result_snapshot_id
		FROM merge_requests WHERE database_id = ? AND state NOT IN ('complete', 'aborted')`, dbID)
	if err != nil {
		return nil, fmt.Errorf("list merge requests: %w", err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var req string
		var ids [4]int64
		if err := rows.Scan(&req, &ids[0], &ids[1], &ids[2], &ids[3]); err != nil {
			return nil, err
		}
		for _, id := range ids {
			if id > 0 {
				out[id] = req
			}
		}
	}
	return out, rows.Err()
}

// Ancestors returns id and every snapshot reachable from it by parent
// edges (parents maps a snapshot to its parents).
func Ancestors(parents map[int64][]int64, id int64) map[int64]bool {
	seen := map[int64]bool{}
	stack := []int64{id}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, parents[n]...)
	}
	return seen
}

// BestCommonAncestors returns, in id order, the common ancestors of a and
// b that are not proper ancestors of another common ancestor: the merge
// base candidates. Only recorded parent edges count; deleted snapshots
// are part of the graph like any other.
func BestCommonAncestors(parents map[int64][]int64, a, b int64) (best []int64, fromA, fromB map[int64]bool) {
	fromA = Ancestors(parents, a)
	fromB = Ancestors(parents, b)
	var common []int64
	for id := range fromA {
		if fromB[id] {
			common = append(common, id)
		}
	}
	// c is a proper ancestor of another common ancestor exactly when one
	// of its children is common (the path down from that ancestor ends in
	// a child of c, itself an ancestor of it): linear, where comparing
	// every pair of common ancestors was quadratic in the history.
	dominated := map[int64]bool{}
	for child := range fromA {
		if !fromB[child] {
			continue
		}
		for _, p := range parents[child] {
			dominated[p] = true
		}
	}
	for _, c := range common {
		if !dominated[c] {
			best = append(best, c)
		}
	}
	sort.Slice(best, func(i, j int) bool { return best[i] < best[j] })
	return best, fromA, fromB
}

// ParentMap is the parent edges of snaps.
func ParentMap(snaps []Snapshot) map[int64][]int64 {
	parents := make(map[int64][]int64, len(snaps))
	for _, s := range snaps {
		parents[s.ID] = s.Parents
	}
	return parents
}
