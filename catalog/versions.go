package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Branch is a named line of history.
type Branch struct {
	DatabaseID int64
	Name       string
	// Head is the branch's latest snapshot; 0 when it has none yet.
	Head int64
	// LiveFile is the branch's DuckDB file, relative to the repository.
	LiveFile string
	// Materialized is false until the live file has been written (a new
	// branch costs nothing until a session first attaches it).
	Materialized bool
	CreatedFrom  string
	CreatedAt    time.Time
}

// Snapshot is an immutable, published version of a database file.
type Snapshot struct {
	DatabaseID  int64
	ID          int64
	Name        string // "" when unnamed
	Kind        string // root, linear or merge
	Branch      string
	Parents     []int64
	CreatedAt   time.Time
	ContentRoot string
	TotalBytes  int64
	NewBytes    int64
	Provenance  string // JSON
	// Deleted snapshots keep their row and parent edges (history and merge
	// bases go through them) but not their content: ContentRoot is then
	// DeletedRoot and Name is "" (the name is free again; DeletedName
	// keeps it).
	Deleted     bool
	DeletedAt   time.Time
	DeletedBy   string // the login, or "retention"
	DeletedName string
}

// DeletedRoot is the content root of every deleted snapshot: an empty
// chunk map that is never materialized (ChunkMap refuses it).
const DeletedRoot = "deleted"

// ErrDeleted is returned by ChunkMap for a deleted snapshot's content.
var ErrDeleted = errors.New("the snapshot was deleted")

// ChunkMap lists the blocks a snapshot's file consists of.
type ChunkMap struct {
	Root     string
	FileSize int64
	Chunks   [][32]byte
}

// Pin keeps a snapshot's blocks and image from gc while a reader uses it.
type Pin struct {
	ID         int64
	DatabaseID int64
	SnapshotID int64
	Holder     string
	CreatedAt  time.Time
}

const branchCols = `database_id, name, coalesce(head, 0), live_file, materialized, created_from, created_at`

func scanBranch(sc interface{ Scan(...any) error }) (Branch, error) {
	var b Branch
	var created string
	err := sc.Scan(&b.DatabaseID, &b.Name, &b.Head, &b.LiveFile, &b.Materialized, &b.CreatedFrom, &created)
	b.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	return b, err
}

// Branches lists a database's branches by name.
func (t *Tx) Branches(ctx context.Context, dbID int64) ([]Branch, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+branchCols+` FROM branches WHERE database_id = ? ORDER BY name`, dbID)
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	defer rows.Close()
	var out []Branch
	for rows.Next() {
		b, err := scanBranch(rows)
		if err != nil {
			return nil, fmt.Errorf("list branches: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// Branch looks up one branch (ErrNotFound if absent).
func (t *Tx) Branch(ctx context.Context, dbID int64, name string) (Branch, error) {
	b, err := scanBranch(t.tx.QueryRowContext(t.ctx, `SELECT `+branchCols+` FROM branches WHERE database_id = ? AND name = ?`, dbID, name))
	if errors.Is(err, sql.ErrNoRows) {
		return b, fmt.Errorf("branch %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return b, fmt.Errorf("look up branch %q: %w", name, err)
	}
	return b, nil
}

// CreateBranch records a new branch (a *NameTaken, which is ErrExists, if
// the database has a branch of that name in any case).
func (t *Tx) CreateBranch(ctx context.Context, b Branch) error {
	var existing string
	err := t.tx.QueryRowContext(t.ctx, `SELECT name FROM branches WHERE database_id = ? AND lower(name) = lower(?)`, b.DatabaseID, b.Name).Scan(&existing)
	if err == nil {
		return &NameTaken{Kind: "branch", Existing: existing}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("create branch %q: %w", b.Name, err)
	}
	var head any
	if b.Head > 0 {
		head = b.Head
	}
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO branches (database_id, name, head, live_file, materialized, created_from, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		b.DatabaseID, b.Name, head, b.LiveFile, b.Materialized, b.CreatedFrom, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("create branch %q: %w", b.Name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("branch %q: %w", b.Name, ErrExists)
	}
	return nil
}

// DeleteBranch removes a branch's record.
func (t *Tx) DeleteBranch(ctx context.Context, dbID int64, name string) error {
	res, err := t.tx.ExecContext(t.ctx, `DELETE FROM branches WHERE database_id = ? AND name = ?`, dbID, name)
	if err != nil {
		return fmt.Errorf("delete branch %q: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("branch %q: %w", name, ErrNotFound)
	}
	return nil
}

// SetBranchHead moves a branch's head.
func (t *Tx) SetBranchHead(ctx context.Context, dbID int64, name string, head int64) error {
	return t.updateBranch(ctx, `UPDATE branches SET head = ? WHERE database_id = ? AND name = ?`, head, dbID, name)
}

// SetBranchLiveFile records a branch's (new) live file, materialized.
func (t *Tx) SetBranchLiveFile(ctx context.Context, dbID int64, name, liveFile string) error {
	return t.updateBranch(ctx, `UPDATE branches SET live_file = ?, materialized = 1 WHERE database_id = ? AND name = ?`, liveFile, dbID, name)
}

// ResetBranchLiveFile names a new, not yet materialized live file: the
// branch will be rebuilt from its head on next use.
func (t *Tx) ResetBranchLiveFile(ctx context.Context, dbID int64, name, liveFile string) error {
	return t.updateBranch(ctx, `UPDATE branches SET live_file = ?, materialized = 0 WHERE database_id = ? AND name = ?`, liveFile, dbID, name)
}

func (t *Tx) updateBranch(ctx context.Context, q string, args ...any) error {
	res, err := t.tx.ExecContext(t.ctx, q, args...)
	if err != nil {
		return fmt.Errorf("update branch: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("branch: %w", ErrNotFound)
	}
	return nil
}

const snapshotCols = `database_id, id, coalesce(name, ''), kind, branch, created_at, content_root, total_bytes, new_bytes, provenance,
	coalesce(deleted_at, ''), deleted_by, deleted_name,
	(SELECT coalesce(group_concat(parent_id, ','), '') FROM (SELECT parent_id FROM snapshot_parents p
	  WHERE p.database_id = s.database_id AND p.snapshot_id = s.id ORDER BY ord))`

func scanSnapshot(sc interface{ Scan(...any) error }) (Snapshot, error) {
	var s Snapshot
	var created, deleted, parents string
	err := sc.Scan(&s.DatabaseID, &s.ID, &s.Name, &s.Kind, &s.Branch, &created, &s.ContentRoot, &s.TotalBytes, &s.NewBytes, &s.Provenance,
		&deleted, &s.DeletedBy, &s.DeletedName, &parents)
	s.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	if deleted != "" {
		s.Deleted = true
		s.DeletedAt, _ = time.Parse(time.RFC3339Nano, deleted)
	}
	for _, p := range strings.Split(parents, ",") {
		if id, perr := strconv.ParseInt(p, 10, 64); perr == nil {
			s.Parents = append(s.Parents, id)
		}
	}
	return s, err
}

// Snapshots lists a database's snapshots by id.
func (t *Tx) Snapshots(ctx context.Context, dbID int64) ([]Snapshot, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+snapshotCols+` FROM snapshots s WHERE database_id = ? ORDER BY id`, dbID)
	if err != nil {
		return nil, fmt.Errorf("list snapshots: %w", err)
	}
	defer rows.Close()
	var out []Snapshot
	for rows.Next() {
		s, err := scanSnapshot(rows)
		if err != nil {
			return nil, fmt.Errorf("list snapshots: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// Snapshot looks up a snapshot by id, or by name when ref is not a number
// (ErrNotFound if absent).
func (t *Tx) Snapshot(ctx context.Context, dbID int64, ref string) (Snapshot, error) {
	q := `SELECT ` + snapshotCols + ` FROM snapshots s WHERE database_id = ? AND `
	var arg any = ref
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil {
		q += `id = ?`
		arg = id
	} else {
		q += `name = ?`
	}
	s, err := scanSnapshot(t.tx.QueryRowContext(t.ctx, q, dbID, arg))
	if errors.Is(err, sql.ErrNoRows) && arg == any(ref) {
		// A name freed by a deletion still says what became of it.
		s, err = scanSnapshot(t.tx.QueryRowContext(t.ctx, `SELECT `+snapshotCols+` FROM snapshots s
			WHERE database_id = ? AND deleted_name = ? ORDER BY id DESC LIMIT 1`, dbID, ref))
	}
	if errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("snapshot %q: %w", ref, ErrNotFound)
	}
	if err != nil {
		return s, fmt.Errorf("look up snapshot %q: %w", ref, err)
	}
	return s, nil
}

// SnapshotNameFree returns a *NameTaken (ErrExists) if the database has a
// snapshot named name in any case, else nil.
func (t *Tx) SnapshotNameFree(ctx context.Context, dbID int64, name string) error {
	var existing string
	err := t.tx.QueryRowContext(t.ctx, `SELECT name FROM snapshots WHERE database_id = ? AND lower(name) = lower(?)`, dbID, name).Scan(&existing)
	if err == nil {
		return &NameTaken{Kind: "snapshot", Existing: existing}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("look up snapshot name %q: %w", name, err)
	}
	return nil
}

// CreateSnapshot records a snapshot with the next id of its database and
// returns that id. Its chunk map must already be recorded. A taken name is
// ErrExists.
func (t *Tx) CreateSnapshot(ctx context.Context, s Snapshot) (int64, error) {
	if s.Name != "" {
		if err := t.SnapshotNameFree(ctx, s.DatabaseID, s.Name); err != nil {
			return 0, err
		}
	}
	var id int64
	if err := t.tx.QueryRowContext(t.ctx, `SELECT coalesce(max(id), 0) + 1 FROM snapshots WHERE database_id = ?`, s.DatabaseID).Scan(&id); err != nil {
		return 0, err
	}
	var name any
	if s.Name != "" {
		name = s.Name
	}
	if s.Provenance == "" {
		s.Provenance = "{}"
	}
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO snapshots (database_id, id, name, kind, branch, created_at, content_root, total_bytes, new_bytes, provenance)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, s.DatabaseID, id, name, s.Kind, s.Branch, time.Now().UTC().Format(time.RFC3339Nano),
		s.ContentRoot, s.TotalBytes, s.NewBytes, s.Provenance)
	if err != nil {
		return 0, fmt.Errorf("create snapshot: %w", err)
	}
	for i, p := range s.Parents {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO snapshot_parents (database_id, snapshot_id, ord, parent_id) VALUES (?, ?, ?, ?)`, s.DatabaseID, id, i, p); err != nil {
			return 0, fmt.Errorf("create snapshot parent: %w", err)
		}
	}
	return id, nil
}

// PutChunkMap records a chunk map; recording the same root again is a no-op.
func (t *Tx) PutChunkMap(ctx context.Context, m ChunkMap) error {
	buf := make([]byte, 0, 32*len(m.Chunks))
	for _, c := range m.Chunks {
		buf = append(buf, c[:]...)
	}
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO chunk_maps (root, file_size, chunks) VALUES (?, ?, ?) ON CONFLICT (root) DO NOTHING`, m.Root, m.FileSize, buf)
	if err != nil {
		return fmt.Errorf("record chunk map %s: %w", m.Root, err)
	}
	return nil
}

// ChunkMap reads a chunk map (ErrNotFound if absent, ErrDeleted for
// DeletedRoot).
func (t *Tx) ChunkMap(ctx context.Context, root string) (ChunkMap, error) {
	m := ChunkMap{Root: root}
	if root == DeletedRoot {
		return m, ErrDeleted
	}
	var buf []byte
	err := t.tx.QueryRowContext(t.ctx, `SELECT file_size, chunks FROM chunk_maps WHERE root = ?`, root).Scan(&m.FileSize, &buf)
	if errors.Is(err, sql.ErrNoRows) {
		return m, fmt.Errorf("chunk map %s: %w", root, ErrNotFound)
	}
	if err != nil {
		return m, fmt.Errorf("read chunk map %s: %w", root, err)
	}
	m.Chunks = decodeChunks(buf)
	return m, nil
}

func decodeChunks(buf []byte) [][32]byte {
	out := make([][32]byte, len(buf)/32)
	for i := range out {
		copy(out[i][:], buf[i*32:])
	}
	return out
}

// ChunkMaps returns every chunk map whose root is referenced by a snapshot
// (for gc and verify), and all recorded ones when referencedOnly is false.
func (t *Tx) ChunkMaps(ctx context.Context, referencedOnly bool) ([]ChunkMap, error) {
	q := `SELECT root, file_size, chunks FROM chunk_maps WHERE root <> '` + DeletedRoot + `'`
	if referencedOnly {
		q += ` AND root IN (` + referencedRoots + `)`
	}
	rows, err := t.tx.QueryContext(t.ctx, q)
	if err != nil {
		return nil, fmt.Errorf("list chunk maps: %w", err)
	}
	defer rows.Close()
	var out []ChunkMap
	for rows.Next() {
		var m ChunkMap
		var buf []byte
		if err := rows.Scan(&m.Root, &m.FileSize, &buf); err != nil {
			return nil, err
		}
		m.Chunks = decodeChunks(buf)
		out = append(out, m)
	}
	return out, rows.Err()
}

// referencedRoots are the content roots gc keeps: those of snapshots
// (deleted ones name DeletedRoot), and the results of merge requests not
// yet finished, which a retry publishes.
const referencedRoots = `SELECT content_root FROM snapshots UNION
	SELECT json_extract(publication, '$.content_root') FROM merge_requests
	WHERE publication <> '' AND state NOT IN ('complete', 'aborted')`

// DeleteUnreferencedChunkMaps removes chunk maps that no snapshot (nor an
// unfinished merge request's result) uses.
func (t *Tx) DeleteUnreferencedChunkMaps(ctx context.Context) (int64, error) {
	res, err := t.tx.ExecContext(t.ctx, `DELETE FROM chunk_maps WHERE root <> '`+DeletedRoot+`' AND root NOT IN (`+referencedRoots+`)`)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// AddPin records a reader pin and returns its id.
func (t *Tx) AddPin(ctx context.Context, dbID, snapshotID int64, holder string) (int64, error) {
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO reader_pins (database_id, snapshot_id, holder, created_at) VALUES (?, ?, ?, ?)`,
		dbID, snapshotID, holder, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return 0, fmt.Errorf("pin snapshot %d: %w", snapshotID, err)
	}
	return res.LastInsertId()
}

// RemovePin drops a reader pin.
func (t *Tx) RemovePin(ctx context.Context, id int64) error {
	_, err := t.tx.ExecContext(t.ctx, `DELETE FROM reader_pins WHERE id = ?`, id)
	return err
}

// Pins lists every reader pin.
func (t *Tx) Pins(ctx context.Context) ([]Pin, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT id, database_id, snapshot_id, holder, created_at FROM reader_pins ORDER BY id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Pin
	for rows.Next() {
		var p Pin
		var created string
		if err := rows.Scan(&p.ID, &p.DatabaseID, &p.SnapshotID, &p.Holder, &created); err != nil {
			return nil, err
		}
		p.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, p)
	}
	return out, rows.Err()
}
