package branches

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Engine runs statements on the DuckDB instance (ATTACH, DETACH,
// CHECKPOINT, and the read-only queries of diffs).
type Engine interface {
	Exec(ctx context.Context, query string) error
	// Query calls fn for every row of the result.
	Query(ctx context.Context, query string, fn func(row []any) error) error
}

// Manager owns the repository's files: the block store, live branch files,
// snapshot images, and which of them are attached to the engine.
type Manager struct {
	dataDir string
	cat     *catalog.Catalog
	store   *BlockStore
	eng     Engine
	log     *slog.Logger

	// Busy, if set, reports whether a session attached to the alias has
	// an open transaction (restore refuses then).
	Busy func(alias string) bool
	// Exporter, if set, exports a snapshot (s3sync) under the branch's
	// exclusive gate before the catalog records it; an error leaves the
	// snapshot unrecorded.
	Exporter func(ctx context.Context, db, branch string, cm catalog.ChunkMap) error
	// Fetcher, if set, brings back blocks of an exported snapshot that were
	// evicted (s3sync reads and verifies them).
	Fetcher func(ctx context.Context, db string, cm catalog.ChunkMap) error

	// storeMu is held shared from storing a snapshot's blocks to recording
	// its chunk map, and exclusively by online gc (holdStore, GC).
	storeMu sync.RWMutex

	mu       sync.Mutex
	attached map[string]*attachment
	gates    map[string]*Gate
	roots    map[string]rootEntry
	// memo holds each chunked file's last chunking, so that the next one
	// SHA-256-hashes only the blocks whose xxh3 differs (prehash.go).
	memo *hashMemo
}

type attachment struct {
	alias    string
	db       string
	branch   string // "" for snapshot images
	snapshot int64  // the snapshot an image holds
	path     string // absolute
	readOnly bool
	sessions int
	// users counts merges reading a snapshot image; shared marks images that
	// sessions or queries reached by name. A merge's own image is detached
	// when its last merge ends, unless it is shared.
	users  int
	shared bool
}

type rootEntry struct {
	size  int64
	mtime time.Time
	root  string
}

// NewManager opens the block store under dataDir and attaches the main
// branch of every database, so qualified names reach them from any session.
// A database that cannot be attached (a damaged live file, a bad catalog
// row) is logged and left detached: the others are served, and each
// session or query that names it tries again (and gets the error).
func NewManager(ctx context.Context, dataDir string, cat *catalog.Catalog, eng Engine, log *slog.Logger) (*Manager, error) {
	store, err := OpenBlockStore(filepath.Join(dataDir, "blocks"))
	if err != nil {
		return nil, err
	}
	m := &Manager{dataDir: dataDir, cat: cat, store: store, eng: eng, log: log,
		attached: map[string]*attachment{}, gates: map[string]*Gate{}, roots: map[string]rootEntry{}, memo: newHashMemo()}
	var dbs []catalog.Database
	if err := cat.Tx(ctx, func(tx *catalog.Tx) error {
		dbs, err = tx.Databases(ctx)
		return err
	}); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, d := range dbs {
		if _, err := m.attachBranchLocked(ctx, d.Name, "main"); err != nil {
			if ctx.Err() != nil {
				return nil, err
			}
			log.Error("database not attached: its sessions are refused until it can be", "db", d.Name, "err", err)
		}
	}
	return m, nil
}

// Store is the block store.
func (m *Manager) Store() *BlockStore { return m.store }

// BranchAlias is the DuckDB catalog name of a branch's live file: the
// database name for main, "db/branch" otherwise.
func BranchAlias(db, branch string) string {
	if branch == "" || branch == "main" {
		return db
	}
	return db + "/" + branch
}

// SnapshotAlias is the catalog name of a snapshot image as the user wrote
// it: "db@4" or "db@baseline".
func SnapshotAlias(db, ref string) string { return db + "@" + ref }

// ParseAlias splits a catalog name into database, branch and snapshot ref.
// ok is false for names that are not vsql aliases.
func ParseAlias(alias string) (db, branch, snapshot string, ok bool) {
	if i := strings.IndexAny(alias, "/@"); i >= 0 {
		db = alias[:i]
		if alias[i] == '/' {
			branch = alias[i+1:]
		} else {
			snapshot = alias[i+1:]
		}
	} else {
		db, branch = alias, "main"
	}
	if sqltext.ValidName("database", db) != nil {
		return "", "", "", false
	}
	if branch != "" && sqltext.ValidName("branch", branch) != nil {
		return "", "", "", false
	}
	if snapshot != "" && !sqltext.IsDigits(snapshot) && sqltext.ValidName("snapshot", snapshot) != nil {
		return "", "", "", false
	}
	return db, branch, snapshot, true
}

// Gate returns the admission gate of a branch alias.
func (m *Manager) Gate(alias string) *Gate {
	m.mu.Lock()
	defer m.mu.Unlock()
	g := m.gates[alias]
	if g == nil {
		g = newGate()
		m.gates[alias] = g
	}
	return g
}

func (m *Manager) abs(rel string) string { return filepath.Join(m.dataDir, rel) }

// liveFileFor names a new live file for a branch: unique, so a restore can
// build the new file beside the old one.
func liveFileFor(db, branch string) string {
	return filepath.Join("live", db, fmt.Sprintf("%s-%d.duckdb", branch, time.Now().UnixNano()))
}

func (m *Manager) database(ctx context.Context, tx *catalog.Tx, name string) (catalog.Database, error) {
	d, err := tx.Database(ctx, name)
	if errors.Is(err, catalog.ErrNotFound) {
		return d, vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", name)
	}
	return d, err
}

func (m *Manager) branch(ctx context.Context, tx *catalog.Tx, d catalog.Database, name string) (catalog.Branch, error) {
	b, err := tx.Branch(ctx, d.ID, name)
	if errors.Is(err, catalog.ErrNotFound) {
		return b, vsqlerr.New(vsqlerr.BranchNotFound, "branch %q of database %q does not exist", name, d.Name)
	}
	return b, err
}

func (m *Manager) snapshot(ctx context.Context, tx *catalog.Tx, d catalog.Database, ref string) (catalog.Snapshot, error) {
	s, err := tx.Snapshot(ctx, d.ID, ref)
	if errors.Is(err, catalog.ErrNotFound) {
		return s, vsqlerr.New(vsqlerr.SnapshotNotFound, "snapshot %q of database %q does not exist", ref, d.Name)
	}
	if err == nil && s.Deleted {
		return s, deletedError(s, d.Name)
	}
	return s, err
}

func (m *Manager) attach(ctx context.Context, a *attachment) error {
	q := "ATTACH " + sqltext.QuoteString(a.path) + " AS " + sqltext.QuoteIdent(a.alias)
	if a.readOnly {
		q += " (READ_ONLY)"
	}
	if err := m.eng.Exec(ctx, q); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("attach %s: %w", a.alias, err)
		}
		m.log.Warn("attach failed", "alias", a.alias, "file", a.path, "err", err)
		// Clients see the reason with the repository's path left out.
		msg := err.Error()
		abs, _ := filepath.Abs(m.dataDir)
		for _, dir := range []string{abs, filepath.Clean(m.dataDir)} {
			if len(dir) > 1 {
				msg = strings.ReplaceAll(msg, dir, "<data>")
			}
		}
		return vsqlerr.Wrap(err, vsqlerr.DatabaseUnavailable, "%q cannot be attached: %s", a.alias, msg)
	}
	m.attached[a.alias] = a
	return nil
}

func (m *Manager) detachLocked(ctx context.Context, alias string) error {
	if _, ok := m.attached[alias]; !ok {
		return nil
	}
	if err := m.eng.Exec(ctx, "DETACH "+sqltext.QuoteIdent(alias)); err != nil {
		return fmt.Errorf("detach %s: %w", alias, err)
	}
	delete(m.attached, alias)
	return nil
}

// attachBranchLocked attaches a branch's live file, materializing it from
// the branch's head the first time.
func (m *Manager) attachBranchLocked(ctx context.Context, db, branch string) (*attachment, error) {
	if branch == "" {
		branch = "main"
	}
	alias := BranchAlias(db, branch)
	if a := m.attached[alias]; a != nil {
		return a, nil
	}
	var b catalog.Branch
	var head catalog.ChunkMap
	err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := m.database(ctx, tx, db)
		if err != nil {
			return err
		}
		if b, err = m.branch(ctx, tx, d, branch); err != nil {
			return err
		}
		if !b.Materialized && b.Head > 0 {
			s, err := tx.Snapshot(ctx, d.ID, strconv.FormatInt(b.Head, 10))
			if err != nil {
				return err
			}
			head, err = tx.ChunkMap(ctx, s.ContentRoot)
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	a := &attachment{alias: alias, db: db, branch: branch, path: m.abs(b.LiveFile)}
	if b.Materialized {
		// ATTACH would create a missing file: an empty database in place
		// of the lost one.
		if _, err := os.Stat(a.path); err != nil {
			m.log.Warn("live file missing", "alias", alias, "file", a.path, "err", err)
			return nil, vsqlerr.New(vsqlerr.DatabaseUnavailable, "the live file of branch %q of %q is missing (%s)", branch, db, b.LiveFile)
		}
	}
	if !b.Materialized {
		if b.Head > 0 {
			if err := m.materialize(ctx, db, head, a.path); err != nil {
				return nil, vsqlerr.Wrap(err, vsqlerr.StorageCorrupt, "materialize branch %q of %q: %v", branch, db, err)
			}
		} else if err := os.MkdirAll(filepath.Dir(a.path), 0o755); err != nil {
			return nil, err
		}
		if err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
			d, err := tx.Database(ctx, db)
			if err != nil {
				return err
			}
			return tx.SetBranchLiveFile(ctx, d.ID, branch, b.LiveFile)
		}); err != nil {
			return nil, err
		}
	}
	if err := m.attach(ctx, a); err != nil {
		return nil, err
	}
	return a, nil
}

// attachSnapshotLocked attaches a snapshot image read-only under the alias
// the user wrote (db@4 or db@name), materializing the image on first use.
func (m *Manager) attachSnapshotLocked(ctx context.Context, db, ref string) (*attachment, error) {
	alias := SnapshotAlias(db, ref)
	if a := m.attached[alias]; a != nil {
		return a, nil
	}
	var s catalog.Snapshot
	var cm catalog.ChunkMap
	err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := m.database(ctx, tx, db)
		if err != nil {
			return err
		}
		if s, err = m.snapshot(ctx, tx, d, ref); err != nil {
			return err
		}
		cm, err = tx.ChunkMap(ctx, s.ContentRoot)
		return err
	})
	if err != nil {
		return nil, err
	}
	image := filepath.Join(m.dataDir, "cache", db, fmt.Sprintf("%d.duckdb", s.ID))
	if _, err := os.Stat(image); err != nil {
		recycled, err := m.recycleImage(ctx, db, cm, image)
		if err != nil {
			m.log.Warn("image not recycled", "db", db, "snapshot", s.ID, "err", err)
		}
		if !recycled {
			if err := m.materialize(ctx, db, cm, image); err != nil {
				return nil, vsqlerr.Wrap(err, vsqlerr.StorageCorrupt, "materialize snapshot %d of %q: %v", s.ID, db, err)
			}
		}
	}
	path := image
	if ref != strconv.FormatInt(s.ID, 10) {
		// DuckDB attaches a path once; a name gets its own hard link.
		path = filepath.Join(m.dataDir, "cache", db, fmt.Sprintf("%d@%s.duckdb", s.ID, ref))
		if _, err := os.Stat(path); err != nil {
			if err := os.Link(image, path); err != nil {
				return nil, fmt.Errorf("link snapshot image: %w", err)
			}
		}
	}
	a := &attachment{alias: alias, db: db, snapshot: s.ID, path: path, readOnly: true}
	if err := m.attach(ctx, a); err != nil {
		return nil, err
	}
	return a, nil
}

// Acquire attaches what a connection's target names (a branch, or a
// snapshot when snapshot is not "") and counts one more session on it.
func (m *Manager) Acquire(ctx context.Context, db, branch, snapshot string) (alias string, release func(), err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var a *attachment
	if snapshot != "" {
		a, err = m.attachSnapshotLocked(ctx, db, snapshot)
	} else {
		a, err = m.attachBranchLocked(ctx, db, branch)
	}
	if err != nil {
		return "", nil, err
	}
	a.sessions++
	a.shared = true
	var once sync.Once
	return a.alias, func() {
		once.Do(func() {
			m.mu.Lock()
			a.sessions--
			m.mu.Unlock()
		})
	}, nil
}

// EnsureAttached attaches a catalog name used in a query ("retail/dev",
// "retail@4"), if it names a branch or snapshot that exists.
func (m *Manager) EnsureAttached(ctx context.Context, alias string) error {
	db, branch, snapshot, ok := ParseAlias(alias)
	if !ok {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.attached[alias]; a != nil {
		a.shared = true
		return nil
	}
	var a *attachment
	var err error
	if snapshot != "" {
		a, err = m.attachSnapshotLocked(ctx, db, snapshot)
	} else {
		a, err = m.attachBranchLocked(ctx, db, branch)
	}
	if err == nil {
		a.shared = true
	}
	return err
}

// Sessions reports how many sessions are connected to an alias.
func (m *Manager) Sessions(alias string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a := m.attached[alias]; a != nil {
		return a.sessions
	}
	return 0
}

// waitForSessions gives sessions of alias that are just ending a few
// seconds to go (as PostgreSQL's DROP DATABASE does) and returns how many
// remain.
func (m *Manager) waitForSessions(ctx context.Context, alias string) int {
	deadline := time.Now().Add(dropWait)
	for {
		n := m.Sessions(alias)
		if n == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// reservedDatabaseNames are catalog names DuckDB keeps for itself (memory
// is the engine's own database, system/temp/main cannot be attached under),
// or that DuckDB or vsql resolve as schemas (information_schema and
// pg_catalog would become ambiguous, public is read as main). They are
// compared without case, as DuckDB compares catalog names.
var reservedDatabaseNames = []string{"memory", "system", "temp", "main", "information_schema", "pg_catalog", "public"}

// ValidDatabaseName checks a new database's name: the name rules, no name
// reserved by DuckDB or vsql (in any case), no __vsql prefix.
func ValidDatabaseName(name string) error {
	if err := sqltext.ValidName("database", name); err != nil {
		return vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	for _, r := range reservedDatabaseNames {
		if strings.EqualFold(name, r) {
			return vsqlerr.New(vsqlerr.ReservedName, "database name %q is reserved: DuckDB (or vsql) uses %q itself", name, r).
				WithHint("Choose another name; %s are reserved in any case.", strings.Join(reservedDatabaseNames, ", "))
		}
	}
	if strings.HasPrefix(strings.ToLower(name), "__vsql") {
		return vsqlerr.New(vsqlerr.ReservedName, "database name %q is reserved: names starting with __vsql belong to vsql's internals", name).
			WithHint("Choose a name that does not start with __vsql.")
	}
	return nil
}

// CreateDatabase records a new database and attaches its (empty) main
// branch, atomically: the catalog row is committed only once the file is
// attached, so a failure leaves neither a row nor a file.
func (m *Manager) CreateDatabase(ctx context.Context, name string) error {
	if err := ValidDatabaseName(name); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	rel := catalog.MainLiveFile(name)
	dir := filepath.Dir(m.abs(rel))
	var a *attachment
	err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.CreateDatabase(ctx, name)
		if errors.Is(err, catalog.ErrExists) {
			return nameTaken(err, vsqlerr.DatabaseExists, "database", name, "")
		}
		if err != nil {
			return err
		}
		// No database of this name exists (in any case), so whatever is in
		// its directory is left over from an interrupted create or drop.
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := tx.SetBranchLiveFile(ctx, d.ID, "main", rel); err != nil {
			return err
		}
		a = &attachment{alias: name, db: name, branch: "main", path: m.abs(rel)}
		return m.attach(ctx, a)
	})
	if err != nil {
		if a != nil && m.attached[name] == a {
			// Attached, but the catalog commit failed.
			if derr := m.detachLocked(ctx, name); derr != nil {
				m.log.Warn("detach after failed create database", "db", name, "err", derr)
			}
		}
		if !vsqlerr.IsCode(err, vsqlerr.DatabaseExists) {
			_ = os.RemoveAll(dir)
		}
		return err
	}
	return nil
}

// dropWait is how long DROP DATABASE waits for other sessions to end.
const dropWait = 5 * time.Second

// DropDatabase removes a database, its branches and snapshots. It refuses
// while sessions use any of its branches or snapshots (after waiting a few
// seconds for sessions that are just ending, as PostgreSQL does). Blocks
// stay until vsqld gc.
func (m *Manager) DropDatabase(ctx context.Context, name string, ifExists bool) (notice *vsqlerr.Error, err error) {
	deadline := time.Now().Add(dropWait)
	m.mu.Lock()
	for m.dbSessionsLocked(name) > 0 && time.Now().Before(deadline) && ctx.Err() == nil {
		m.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
		m.mu.Lock()
	}
	defer m.mu.Unlock()
	if n := m.dbSessionsLocked(name); n > 0 {
		return nil, vsqlerr.New(vsqlerr.DatabaseInUse, "database %q is being accessed by %d other session(s)", name, n)
	}
	err = m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		if err := tx.DropDatabase(ctx, name); err != nil {
			return err
		}
		for alias, a := range m.attached {
			if a.db == name {
				if err := m.detachLocked(ctx, alias); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if errors.Is(err, catalog.ErrNotFound) {
		if ifExists {
			n := vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist, skipping", name)
			n.Severity, n.SQLState, n.Hint = "NOTICE", "00000", ""
			return n, nil
		}
		return nil, vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", name)
	}
	if err != nil {
		return nil, err
	}
	// The records are gone; remove the files. A failure leaves garbage for
	// gc, never a half-visible database.
	for _, dir := range []string{filepath.Join(m.dataDir, "live", name), filepath.Join(m.dataDir, "cache", name), filepath.Join(m.dataDir, "requests", name)} {
		if err := os.RemoveAll(dir); err != nil {
			m.log.Warn("remove dropped database files", "dir", dir, "err", err)
		}
		m.memo.forgetDir(dir)
	}
	return nil, nil
}

func (m *Manager) dbSessionsLocked(db string) int {
	n := 0
	for _, a := range m.attached {
		if a.db == db {
			n += a.sessions
		}
	}
	return n
}

// CheckpointAll writes every attached branch's WAL into its file.
func (m *Manager) CheckpointAll(ctx context.Context) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for alias, a := range m.attached {
		if a.readOnly {
			continue
		}
		if err := m.eng.Exec(ctx, "CHECKPOINT "+sqltext.QuoteIdent(alias)); err != nil {
			m.log.Error("checkpoint", "alias", alias, "err", err)
		}
	}
}

func walSize(path string) int64 {
	info, err := os.Stat(path + ".wal")
	if err != nil {
		return 0
	}
	return info.Size()
}

// fileRoot is the content root of a file, cached by size and mtime.
func (m *Manager) fileRoot(path string) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	m.mu.Lock()
	e, ok := m.roots[path]
	m.mu.Unlock()
	if ok && e.size == info.Size() && e.mtime.Equal(info.ModTime()) {
		return e.root, nil
	}
	c, err := chunkFile(path, nil, m.memo, nil)
	if err != nil {
		return "", err
	}
	m.rememberRoot(path, c.Map.Root)
	return c.Map.Root, nil
}

func (m *Manager) rememberRoot(path, root string) {
	m.mu.Lock()
	m.rememberRootLocked(path, root)
	m.mu.Unlock()
}

func (m *Manager) rememberRootLocked(path, root string) {
	if info, err := os.Stat(path); err == nil {
		m.roots[path] = rootEntry{size: info.Size(), mtime: info.ModTime(), root: root}
	}
}

// dirty reports whether a branch's live file holds writes its head does not.
func (m *Manager) dirty(b catalog.Branch, headRoot string) (bool, error) {
	if !b.Materialized {
		return false, nil
	}
	if b.Head == 0 {
		return true, nil // never snapshotted: everything in it is unpublished
	}
	path := m.abs(b.LiveFile)
	if walSize(path) > 0 {
		return true, nil
	}
	root, err := m.fileRoot(path)
	if err != nil {
		return false, err
	}
	return root != headRoot, nil
}

// provenance encodes a snapshot's provenance record.
func provenance(fields map[string]any) string {
	b, _ := json.Marshal(fields)
	return string(b)
}

// nameTaken is the error of code for creating kind name (suffix completes
// the message, e.g. ` of database "sales"`) when the catalog reports the
// name taken: "already exists", or, when the existing name differs only in
// case, an error naming it (DuckDB's catalog names are case-insensitive, so
// both could not be attached).
func nameTaken(err error, code vsqlerr.Code, kind, name, suffix string) *vsqlerr.Error {
	var t *catalog.NameTaken
	if errors.As(err, &t) && t.Existing != name {
		return vsqlerr.New(code, "%s %q%s conflicts with the existing %s %q: names that differ only in case are the same name to DuckDB", kind, name, suffix, kind, t.Existing).
			WithHint("Choose a name that differs in more than case, or use the existing %s %q.", kind, t.Existing)
	}
	return vsqlerr.New(code, "%s %q%s already exists", kind, name, suffix)
}

// inTx runs fn in a catalog transaction after resolving the database.
func (m *Manager) inTx(ctx context.Context, db string, fn func(tx *catalog.Tx, d catalog.Database) error) error {
	return m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := m.database(ctx, tx, db)
		if err != nil {
			return err
		}
		return fn(tx, d)
	})
}

var _ = faults.Point
