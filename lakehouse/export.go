package lakehouse

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/iceberg-go"
	icecat "github.com/apache/iceberg-go/catalog"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"
	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Engine runs SQL on the server's DuckDB instance.
type Engine = branches.Engine

// Versions attaches a snapshot's image read-only until release, which
// detaches it again unless sessions reached it (branches.Manager).
type Versions interface {
	SnapshotImage(ctx context.Context, db string, id int64) (alias, path string, release func(), err error)
}

// Config is what the exporter needs from the server.
type Config struct {
	DataDir string // the repository; Parquet is written in staging/lakehouse first
	S3      S3
	Log     *slog.Logger
	// Retry is how often a database whose export failed is tried again,
	// and how often the exporter looks for work nobody kicked (default 5s).
	Retry time.Duration
	// Observe, if set, is told of each snapshot's export attempt: how
	// long it took and its error (nil: exported).
	Observe func(took time.Duration, err error)
}

// Exporter exports the snapshots of every database with a lakehouse, in
// snapshot order, on its own goroutine (Run).
type Exporter struct {
	cfg      Config
	cat      *catalog.Catalog
	eng      Engine
	versions Versions
	kick     chan struct{}
	passMu   sync.Mutex // one pass at a time
	// recordMu makes recording a snapshot's export and counting it in
	// unsynced one step for Status and Lag, which read both under it: a
	// reader between the two saw lag 0 before the references moved.
	recordMu sync.RWMutex

	// signatures of the snapshot images compared: a snapshot exported
	// after its parent was reads the parent's from here.
	signatures *branches.SignatureCache

	mu    sync.Mutex
	whs   map[string]*warehouse // by catalog file
	fails map[int64]failure     // by database id: the last pass's error
	notes map[int64]map[string][]string
	// unsynced counts, per database, the snapshots exported whose tags
	// and branches are not moved yet: Status counts them in the lag.
	unsynced map[int64]int64
	// refsSig is, per database, what its references were last synced
	// from (syncRefs skips a pass where it has not changed).
	refsSig map[int64]string
}

type failure struct {
	err string
	at  time.Time
}

// New makes an exporter; Run starts it.
func New(cfg Config, cat *catalog.Catalog, eng Engine, versions Versions) *Exporter {
	if cfg.Retry <= 0 {
		cfg.Retry = 5 * time.Second
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	return &Exporter{cfg: cfg, cat: cat, eng: eng, versions: versions, kick: make(chan struct{}, 1), signatures: branches.NewSignatureCache(signatureCacheTables),
		whs: map[string]*warehouse{}, fails: map[int64]failure{}, notes: map[int64]map[string][]string{}, unsynced: map[int64]int64{}, refsSig: map[int64]string{}}
}

// signatureCacheTables bounds the Exporter's signature cache (one table
// in one image each; see branches.SignatureCache).
const signatureCacheTables = 256

// Kick asks for a pass soon (after a snapshot or a merge).
func (e *Exporter) Kick() {
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

// Run exports until ctx ends: a pass at start, after each Kick and every
// Retry.
func (e *Exporter) Run(ctx context.Context) {
	t := time.NewTicker(e.cfg.Retry)
	defer t.Stop()
	for {
		e.Pass(ctx)
		select {
		case <-ctx.Done():
			return
		case <-e.kick:
		case <-t.C:
		}
	}
}

// Close closes the warehouses' catalogs.
func (e *Exporter) Close() {
	e.passMu.Lock()
	defer e.passMu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	for k, w := range e.whs {
		w.close()
		delete(e.whs, k)
	}
}

func (e *Exporter) warehouseFor(t target) (*warehouse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if w := e.whs[t.catalog]; w != nil {
		return w, nil
	}
	w, err := openWarehouse(t, e.cfg.S3)
	if err != nil {
		return nil, err
	}
	e.whs[t.catalog] = w
	return w, nil
}

// Set records db's lakehouse (an empty url removes it) and returns the
// normalized URL. The warehouse's catalog and the database's namespace are
// created now, so a bad location fails here; the export itself runs in
// the background.
func (e *Exporter) Set(ctx context.Context, db string, dbID int64, raw, by string) (string, error) {
	// A pass running meanwhile for the old location records nothing more
	// (catalog.ErrLakehouseChanged), so this never waits for it.
	if raw == "" {
		return "", e.cat.Tx(ctx, func(tx *catalog.Tx) error { return tx.SetLakehouse(ctx, dbID, "", by) })
	}
	t, err := parseURL(e.cfg.DataDir, raw)
	if err != nil {
		return "", err
	}
	w, err := e.warehouseFor(t)
	if err != nil {
		return "", vsqlerr.Wrap(err, vsqlerr.LakehouseUnavailable, "lakehouse %s: %v", t.url, err)
	}
	if err := w.ensureNamespace(ctx, db); err != nil {
		return "", vsqlerr.Wrap(err, vsqlerr.LakehouseUnavailable, "lakehouse %s: create namespace %q: %v", t.url, db, err)
	}
	if err := e.cat.Tx(ctx, func(tx *catalog.Tx) error { return tx.SetLakehouse(ctx, dbID, t.url, by) }); err != nil {
		return "", err
	}
	e.Kick()
	return t.url, nil
}

// Pass exports what is pending in every database with a lakehouse. A
// database's failure is kept for Status and retried on the next pass; the
// others go on.
func (e *Exporter) Pass(ctx context.Context) {
	e.passMu.Lock()
	defer e.passMu.Unlock()
	var lakes []catalog.Lakehouse
	if err := e.cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		lakes, err = tx.Lakehouses(ctx)
		return err
	}); err != nil {
		if ctx.Err() == nil {
			e.cfg.Log.Warn("lakehouse: list", "err", err)
		}
		return
	}
	for _, l := range lakes {
		err := e.exportDatabase(ctx, l)
		if errors.Is(err, catalog.ErrLakehouseChanged) {
			continue // set again meanwhile: the next pass exports to the new one
		}
		e.mu.Lock()
		if err != nil && ctx.Err() == nil {
			if prev, ok := e.fails[l.DatabaseID]; !ok || prev.err != err.Error() {
				e.cfg.Log.Warn("lakehouse export failed; retrying", "db", l.Database, "err", err)
			}
			e.fails[l.DatabaseID] = failure{err: err.Error(), at: time.Now()}
		} else if err == nil {
			delete(e.fails, l.DatabaseID)
		}
		e.mu.Unlock()
	}
}

// exportDatabase exports db's snapshots not exported yet, oldest first,
// then moves the Iceberg branches and tags.
func (e *Exporter) exportDatabase(ctx context.Context, l catalog.Lakehouse) error {
	t, err := parseURL(e.cfg.DataDir, l.URL)
	if err != nil {
		return err
	}
	w, err := e.warehouseFor(t)
	if err != nil {
		return err
	}
	if err := w.ensureNamespace(ctx, l.Database); err != nil {
		return err
	}
	var snaps []catalog.Snapshot
	var done map[int64]time.Time
	if err := e.cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		if snaps, err = tx.Snapshots(ctx, l.DatabaseID); err != nil {
			return err
		}
		done, err = tx.ExportedSnapshots(ctx, l.DatabaseID)
		return err
	}); err != nil {
		return err
	}
	byID := map[int64]catalog.Snapshot{}
	for _, s := range snaps {
		byID[s.ID] = s
	}
	for _, s := range snaps {
		if _, ok := done[s.ID]; ok {
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if s.Deleted {
			// Its content is gone: nothing can be read from it.
			if err := e.cat.Tx(ctx, func(tx *catalog.Tx) error { return tx.RecordLakeExport(ctx, l.DatabaseID, l.URL, s.ID, nil) }); err != nil {
				return err
			}
			done[s.ID] = time.Now()
			continue
		}
		var parent *catalog.Snapshot
		if len(s.Parents) > 0 {
			if _, ok := done[s.Parents[0]]; ok {
				if p, ok := byID[s.Parents[0]]; ok && !p.Deleted {
					parent = &p
				}
			}
		}
		start := time.Now()
		err := e.exportSnapshot(ctx, w, l, s, parent)
		if e.cfg.Observe != nil && ctx.Err() == nil {
			e.cfg.Observe(time.Since(start), err)
		}
		if err != nil {
			return fmt.Errorf("snapshot %d: %w", s.ID, err)
		}
		done[s.ID] = time.Now()
	}
	if err := e.syncRefs(ctx, w, l); err != nil {
		return err
	}
	e.mu.Lock()
	delete(e.unsynced, l.DatabaseID)
	e.mu.Unlock()
	return nil
}

// column is one column of a table as exported.
type column struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// shape is a table's columns and primary key in one vsql snapshot.
type shape struct {
	Columns []column `json:"columns"`
	Key     []string `json:"key,omitempty"`
	types   []*duckType
}

func (s shape) json() string {
	b, _ := json.Marshal(s)
	return string(b)
}

// icebergSchema maps the table's columns; an unmappable type is an error
// naming the column.
func (s shape) icebergSchema() (*iceberg.Schema, error) {
	n := len(s.Columns)
	next := func() int { n++; return n }
	fields := make([]iceberg.NestedField, len(s.Columns))
	for i, c := range s.Columns {
		t, err := icebergType(s.types[i], next)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", c.Name, err)
		}
		fields[i] = iceberg.NestedField{ID: i + 1, Name: c.Name, Type: t}
	}
	return iceberg.NewSchema(0, fields...), nil
}

// tables reads the shapes of the tables of an attached version.
func (e *Exporter) tables(ctx context.Context, alias string) (map[string]*shape, error) {
	out := map[string]*shape{}
	q := `SELECT c.table_name, c.column_name, c.data_type FROM duckdb_columns() c JOIN duckdb_tables() t
		ON t.database_name = c.database_name AND t.schema_name = c.schema_name AND t.table_name = c.table_name
		WHERE c.database_name = ` + sqltext.QuoteString(alias) + ` AND c.schema_name = 'main' AND NOT c.internal
		ORDER BY c.table_name, c.column_index`
	err := e.eng.Query(ctx, q, func(row []any) error {
		name := fmt.Sprint(row[0])
		s := out[name]
		if s == nil {
			s = &shape{}
			out[name] = s
		}
		typ := fmt.Sprint(row[2])
		s.Columns = append(s.Columns, column{Name: fmt.Sprint(row[1]), Type: typ})
		dt, err := parseDuckType(typ)
		if err != nil {
			dt = &duckType{name: typ}
		}
		s.types = append(s.types, dt)
		return nil
	})
	if err != nil {
		return nil, err
	}
	q = `SELECT table_name, constraint_column_names FROM duckdb_constraints()
		WHERE database_name = ` + sqltext.QuoteString(alias) + ` AND schema_name = 'main' AND constraint_type = 'PRIMARY KEY'`
	err = e.eng.Query(ctx, q, func(row []any) error {
		if s := out[fmt.Sprint(row[0])]; s != nil {
			xs, _ := row[1].([]any)
			for _, x := range xs {
				s.Key = append(s.Key, fmt.Sprint(x))
			}
		}
		return nil
	})
	return out, err
}

// exportSnapshot exports every table of s and records it. parent is s's
// first parent when that one was exported.
func (e *Exporter) exportSnapshot(ctx context.Context, w *warehouse, l catalog.Lakehouse, s catalog.Snapshot, parent *catalog.Snapshot) error {
	alias, _, release, err := e.versions.SnapshotImage(ctx, l.Database, s.ID)
	if err != nil {
		return err
	}
	defer release()
	shapes, err := e.tables(ctx, alias)
	if err != nil {
		return err
	}
	prev := map[string]catalog.LakeTable{}
	if parent != nil {
		var rows []catalog.LakeTable
		if err := e.cat.Tx(ctx, func(tx *catalog.Tx) error {
			var err error
			rows, err = tx.LakeTables(ctx, l.DatabaseID, parent.ID)
			return err
		}); err != nil {
			return err
		}
		for _, r := range rows {
			if r.IcebergSnapshot != 0 {
				prev[r.Table] = r
			}
		}
	}
	x := &snapshotExport{e: e, w: w, l: l, s: s, parent: parent, alias: alias}
	defer x.close()
	names := make([]string, 0, len(shapes))
	for n := range shapes {
		names = append(names, n)
	}
	sort.Strings(names)
	var rows []catalog.LakeTable
	for _, name := range names {
		lt, err := x.table(ctx, name, shapes[name], prev)
		if err != nil {
			return fmt.Errorf("table %q: %w", name, err)
		}
		rows = append(rows, lt)
	}
	e.recordMu.Lock()
	defer e.recordMu.Unlock()
	if err := e.cat.Tx(ctx, func(tx *catalog.Tx) error { return tx.RecordLakeExport(ctx, l.DatabaseID, l.URL, s.ID, rows) }); err != nil {
		return err
	}
	e.mu.Lock()
	e.unsynced[l.DatabaseID]++
	e.mu.Unlock()
	return nil
}

// snapshotExport is the export of one vsql snapshot.
type snapshotExport struct {
	e             *Exporter
	w             *warehouse
	l             catalog.Lakehouse
	s             catalog.Snapshot
	parent        *catalog.Snapshot
	alias         string
	parentAlias   string
	parentRelease func()
	staging       string
}

func (x *snapshotExport) close() {
	if x.parentRelease != nil {
		x.parentRelease()
	}
	if x.staging != "" {
		os.RemoveAll(x.staging)
	}
}

func (x *snapshotExport) parentVersion(ctx context.Context) (string, error) {
	if x.parentAlias != "" {
		return x.parentAlias, nil
	}
	alias, _, release, err := x.e.versions.SnapshotImage(ctx, x.l.Database, x.parent.ID)
	if err != nil {
		return "", err
	}
	x.parentAlias, x.parentRelease = alias, release
	return alias, nil
}

func (x *snapshotExport) stagingFile(name string) (string, error) {
	if x.staging == "" {
		var b [8]byte
		_, _ = rand.Read(b[:])
		x.staging = filepath.Join(x.e.cfg.DataDir, "staging", "lakehouse-"+hex.EncodeToString(b[:]))
		if err := os.MkdirAll(x.staging, 0o700); err != nil {
			return "", err
		}
	}
	return filepath.Join(x.staging, name), nil
}

// summary is what every Iceberg snapshot vsql makes carries.
func (x *snapshotExport) summary() iceberg.Properties {
	p := iceberg.Properties{"vsql.database": x.l.Database, "vsql.snapshot-id": strconv.FormatInt(x.s.ID, 10), "vsql.branch": x.s.Branch}
	if x.s.Name != "" {
		p["vsql.name"] = x.s.Name
	}
	return p
}

// exportedBefore finds the Iceberg snapshot an earlier try made for this
// vsql snapshot (it committed, then stopped before vsql recorded it).
func (x *snapshotExport) exportedBefore(tbl *table.Table) int64 {
	want := strconv.FormatInt(x.s.ID, 10)
	for _, sn := range tbl.Metadata().Snapshots() {
		if sn.Summary != nil && sn.Summary.Properties["vsql.snapshot-id"] == want && sn.Summary.Properties["vsql.database"] == x.l.Database {
			return sn.SnapshotID
		}
	}
	return 0
}

const schemaDiffers = "its columns differ from those of the Iceberg table's current schema (main's), and Iceberg reads every snapshot of a branch with that one schema"

// table exports one table of the snapshot and returns its row.
func (x *snapshotExport) table(ctx context.Context, name string, sh *shape, prev map[string]catalog.LakeTable) (catalog.LakeTable, error) {
	lt := catalog.LakeTable{Snapshot: x.s.ID, Table: name, Schema: sh.json()}
	want, err := sh.icebergSchema()
	if err != nil {
		lt.Skipped = err.Error()
		return lt, nil
	}
	p, hasPrev := prev[name]
	if hasPrev && p.Schema == lt.Schema && x.parent.ContentRoot == x.s.ContentRoot {
		lt.IcebergSnapshot = p.IcebergSnapshot // the same file: nothing changed
		return lt, nil
	}
	tbl, err := x.w.loadTable(ctx, x.l.Database, name)
	if err != nil {
		return lt, err
	}
	if tbl == nil {
		// Every commit writes a metadata file listing the whole history;
		// keeping the last 100 (Iceberg's default number) and deleting
		// older ones keeps the warehouse from growing with the square of
		// the number of exports.
		props := iceberg.Properties{"format-version": "2", "write.delete.mode": "merge-on-read", "write.update.mode": "merge-on-read",
			table.MetadataDeleteAfterCommitEnabledKey: "true", table.MetadataPreviousVersionsMaxKey: "100",
			"vsql.database": x.l.Database, "vsql.table": name}
		if len(sh.Key) > 0 {
			props["vsql.primary-key"] = strings.Join(sh.Key, ",")
		}
		if tbl, err = x.w.cat.CreateTable(ctx, icecat.ToIdentifier(x.l.Database, name), want, icecat.WithProperties(props)); err != nil {
			return lt, err
		}
	}
	if id := x.exportedBefore(tbl); id != 0 {
		lt.IcebergSnapshot, lt.MadeHere = id, true
		return lt, nil
	}
	if !sameColumns(tbl.Schema(), want) {
		// Only main's snapshots change the table's schema: Iceberg reads
		// main, like every branch, with the current one.
		if len(tbl.Metadata().Snapshots()) > 0 && x.s.Branch != "main" {
			lt.Skipped = "not exported on branch " + x.s.Branch + ": " + schemaDiffers
			return lt, nil
		}
		if tbl, err = x.evolve(ctx, tbl, want); err != nil {
			return lt, err
		}
		hasPrev = false
	}
	if hasPrev && p.Schema != lt.Schema {
		hasPrev = false // same Iceberg columns, other DuckDB types or key: rewrite
	}
	id, err := x.commit(ctx, tbl, name, sh, p, hasPrev)
	var derr *duckdb.Error
	if errors.As(err, &derr) && (derr.Type == duckdb.ErrorTypeConversion || derr.Type == duckdb.ErrorTypeBinder || derr.Type == duckdb.ErrorTypeInvalidInput) {
		// DuckDB refuses these rows the same way at every try: report
		// the table instead of holding up the database's export.
		lt.Skipped = "DuckDB could not write it: " + derr.Msg
		return lt, nil
	}
	if err != nil {
		return lt, err
	}
	if id == 0 {
		lt.IcebergSnapshot = p.IcebergSnapshot // compared: no row changed
		return lt, nil
	}
	faults.Point("lakehouse.after_table_commit")
	lt.IcebergSnapshot, lt.MadeHere = id, true
	return lt, nil
}

// sameColumns compares two schemas' top-level names and types, ignoring
// field ids.
func sameColumns(a, b *iceberg.Schema) bool {
	fa, fb := a.Fields(), b.Fields()
	if len(fa) != len(fb) {
		return false
	}
	for i := range fa {
		if fa[i].Name != fb[i].Name || !sameType(fa[i].Type, fb[i].Type) {
			return false
		}
	}
	return true
}

func sameType(a, b iceberg.Type) bool {
	switch a := a.(type) {
	case *iceberg.ListType:
		bl, ok := b.(*iceberg.ListType)
		return ok && sameType(a.Element, bl.Element)
	case *iceberg.MapType:
		bm, ok := b.(*iceberg.MapType)
		return ok && sameType(a.KeyType, bm.KeyType) && sameType(a.ValueType, bm.ValueType)
	case *iceberg.StructType:
		bs, ok := b.(*iceberg.StructType)
		if !ok || len(a.FieldList) != len(bs.FieldList) {
			return false
		}
		for i := range a.FieldList {
			if a.FieldList[i].Name != bs.FieldList[i].Name || !sameType(a.FieldList[i].Type, bs.FieldList[i].Type) {
				return false
			}
		}
		return true
	}
	return a.String() == b.String()
}

// evolve makes want the table's current schema: columns that went away or
// changed type are dropped, new ones added (Iceberg keeps the old
// snapshots' schemas for time travel).
func (x *snapshotExport) evolve(ctx context.Context, tbl *table.Table, want *iceberg.Schema) (*table.Table, error) {
	txn := tbl.NewTransaction()
	u := txn.UpdateSchema(true, true)
	have := tbl.Schema()
	for _, f := range have.Fields() {
		if g, ok := want.FindFieldByName(f.Name); !ok || !sameType(f.Type, g.Type) {
			u.DeleteColumn([]string{f.Name})
		}
	}
	for _, g := range want.Fields() {
		if f, ok := have.FindFieldByName(g.Name); !ok || !sameType(f.Type, g.Type) {
			u.AddColumn([]string{g.Name}, g.Type, "", false, nil)
		}
	}
	if err := u.Commit(); err != nil {
		return nil, fmt.Errorf("evolve the Iceberg schema: %w", err)
	}
	return txn.Commit(ctx)
}

// commit writes the table's change since the parent (hasPrev) or all its
// rows, and commits one Iceberg snapshot on exportRef. It returns 0 when
// nothing changed.
func (x *snapshotExport) commit(ctx context.Context, tbl *table.Table, name string, sh *shape, p catalog.LakeTable, hasPrev bool) (int64, error) {
	from := sqltext.QuoteIdent(x.alias) + ".main." + sqltext.QuoteIdent(name)
	cols := make([]string, len(sh.Columns))
	sel := make([]string, len(sh.Columns))
	for i, c := range sh.Columns {
		cols[i] = c.Name
		sel[i] = selectExpr(sh.types[i], "s."+sqltext.QuoteIdent(c.Name)) + " AS " + sqltext.QuoteIdent(c.Name)
	}
	ids := fieldIDs(tbl.Schema(), cols)
	parentIce := int64(0)
	if hasPrev {
		parentIce = p.IcebergSnapshot
	}
	if hasPrev && len(sh.Key) > 0 && keyComparable(sh) {
		return x.commitDelta(ctx, tbl, name, sh, from, sel, ids, parentIce)
	}
	if hasPrev {
		// No usable key: compare as multisets, then rewrite the table.
		pAlias, err := x.parentVersion(ctx)
		if err != nil {
			return 0, err
		}
		pfrom := sqltext.QuoteIdent(pAlias) + ".main." + sqltext.QuoteIdent(name)
		var differs bool
		q := "SELECT EXISTS (SELECT * FROM " + from + " EXCEPT ALL SELECT * FROM " + pfrom + ") OR EXISTS (SELECT * FROM " + pfrom + " EXCEPT ALL SELECT * FROM " + from + ")"
		if err := x.e.eng.Query(ctx, q, func(row []any) error { differs, _ = row[0].(bool); return nil }); err != nil {
			return 0, err
		}
		if !differs {
			return 0, nil
		}
	}
	local, err := x.stagingFile("rows.parquet")
	if err != nil {
		return 0, err
	}
	if err := x.e.eng.Exec(ctx, "COPY (SELECT "+strings.Join(sel, ", ")+" FROM "+from+" s) TO "+sqltext.QuoteString(local)+
		" (FORMAT parquet, COMPRESSION zstd, FIELD_IDS "+ids+")"); err != nil {
		return 0, fmt.Errorf("write rows: %w", err)
	}
	tbl, txn, ref, err := x.begin(ctx, tbl, parentIce)
	if err != nil {
		return 0, err
	}
	df, err := x.upload(ctx, tbl, local, iceberg.EntryContentData, nil, 0)
	if err != nil {
		return 0, err
	}
	oldData, oldDeletes, err := x.files(ctx, tbl, txnBase(tbl, parentIce))
	if err != nil {
		return 0, err
	}
	if len(oldData) == 0 && len(oldDeletes) == 0 {
		err = txn.AddDataFiles(ctx, []iceberg.DataFile{df}, x.summary())
	} else {
		err = txn.ReplaceFiles(ctx, oldData, []iceberg.DataFile{df}, oldDeletes, x.summary())
	}
	if err != nil {
		return 0, fmt.Errorf("stage the Iceberg snapshot: %w", err)
	}
	return x.finish(ctx, txn, ref)
}

// keyComparable reports whether equality deletes can name the key: Iceberg
// refuses floating-point equality fields, and nested types cannot be
// compared by value in a delete file.
func keyComparable(sh *shape) bool {
	for _, k := range sh.Key {
		for i, c := range sh.Columns {
			if c.Name != k {
				continue
			}
			switch sh.types[i].name {
			case "FLOAT", "DOUBLE", "LIST", "STRUCT", "MAP":
				return false
			}
		}
	}
	return true
}

// commitDelta writes the rows whose key is new or whose values changed as
// a data file, and the keys whose old row went away (changed or deleted)
// as an equality-delete file, in one Iceberg snapshot: an equality delete
// applies to data files of earlier snapshots only, so the new rows stay.
func (x *snapshotExport) commitDelta(ctx context.Context, tbl *table.Table, name string, sh *shape, from string, sel []string, ids string, parentIce int64) (int64, error) {
	pAlias, err := x.parentVersion(ctx)
	if err != nil {
		return 0, err
	}
	pfrom := sqltext.QuoteIdent(pAlias) + ".main." + sqltext.QuoteIdent(name)
	isKey := map[string]bool{}
	var on, keyOut, keyJoin, keySel []string
	keyTypes := map[string]*duckType{}
	for i, c := range sh.Columns {
		for _, k := range sh.Key {
			if k == c.Name {
				keyTypes[k] = sh.types[i]
			}
		}
	}
	for _, k := range sh.Key {
		q := sqltext.QuoteIdent(k)
		isKey[k] = true
		on = append(on, "p."+q+" = s."+q)
		keyOut = append(keyOut, "coalesce(s."+q+", p."+q+") AS "+q)
		keyJoin = append(keyJoin, "c."+q+" = s."+q)
		keySel = append(keySel, selectExpr(keyTypes[k], "c."+q)+" AS "+q)
	}
	same, err := x.unchangedColumns(ctx, pAlias, name, sh.Key)
	if err != nil {
		return 0, err
	}
	var differ []string
	for _, c := range sh.Columns {
		if !isKey[c.Name] && !same[c.Name] {
			q := sqltext.QuoteIdent(c.Name)
			differ = append(differ, "p."+q+" IS DISTINCT FROM s."+q)
		}
	}
	first := sqltext.QuoteIdent(sh.Key[0])
	where := "p." + first + " IS NULL OR s." + first + " IS NULL"
	if len(differ) > 0 {
		where += " OR " + strings.Join(differ, " OR ")
	}
	changes, err := x.stagingFile(name + "-changes.parquet")
	if err != nil {
		return 0, err
	}
	inPlace, err := x.comparePositionally(ctx, pfrom, from, sh.Key, differ, changes)
	if err != nil {
		return 0, err
	}
	if !inPlace {
		if err := x.e.eng.Exec(ctx, "COPY (SELECT "+strings.Join(keyOut, ", ")+", p."+first+" IS NOT NULL AS __vsql_old, s."+first+" IS NOT NULL AS __vsql_new FROM "+
			pfrom+" p FULL JOIN "+from+" s ON "+strings.Join(on, " AND ")+" WHERE "+where+") TO "+sqltext.QuoteString(changes)+" (FORMAT parquet)"); err != nil {
			return 0, fmt.Errorf("compare with the parent: %w", err)
		}
	}
	var olds, news int64
	if err := x.e.eng.Query(ctx, "SELECT count(*) FILTER (__vsql_old), count(*) FILTER (__vsql_new) FROM read_parquet("+sqltext.QuoteString(changes)+")", func(row []any) error {
		olds, _ = row[0].(int64)
		news, _ = row[1].(int64)
		return nil
	}); err != nil {
		return 0, err
	}
	if olds == 0 && news == 0 {
		return 0, nil
	}
	tbl, txn, ref, err := x.begin(ctx, tbl, parentIce)
	if err != nil {
		return 0, err
	}
	rd := txn.NewRowDelta(x.summary())
	if news > 0 {
		local, err := x.stagingFile(name + "-rows.parquet")
		if err != nil {
			return 0, err
		}
		if err := x.e.eng.Exec(ctx, "COPY (SELECT "+strings.Join(sel, ", ")+" FROM "+from+" s SEMI JOIN (SELECT * FROM read_parquet("+sqltext.QuoteString(changes)+
			") WHERE __vsql_new) c ON "+strings.Join(keyJoin, " AND ")+") TO "+sqltext.QuoteString(local)+" (FORMAT parquet, COMPRESSION zstd, FIELD_IDS "+ids+")"); err != nil {
			return 0, fmt.Errorf("write changed rows: %w", err)
		}
		df, err := x.upload(ctx, tbl, local, iceberg.EntryContentData, nil, news)
		if err != nil {
			return 0, err
		}
		rd.AddRows(df)
	}
	if olds > 0 {
		local, err := x.stagingFile(name + "-deletes.parquet")
		if err != nil {
			return 0, err
		}
		if err := x.e.eng.Exec(ctx, "COPY (SELECT "+strings.Join(keySel, ", ")+" FROM read_parquet("+sqltext.QuoteString(changes)+") c WHERE __vsql_old) TO "+
			sqltext.QuoteString(local)+" (FORMAT parquet, COMPRESSION zstd, FIELD_IDS "+fieldIDs(tbl.Schema(), sh.Key)+")"); err != nil {
			return 0, fmt.Errorf("write deleted keys: %w", err)
		}
		var keyIDs []int
		for _, k := range sh.Key {
			f, _ := tbl.Schema().FindFieldByName(k)
			keyIDs = append(keyIDs, f.ID)
		}
		df, err := x.upload(ctx, tbl, local, iceberg.EntryContentEqDeletes, keyIDs, olds)
		if err != nil {
			return 0, err
		}
		rd.AddDeletes(df)
	}
	if err := rd.Commit(ctx); err != nil {
		return 0, fmt.Errorf("stage the Iceberg snapshot: %w", err)
	}
	return x.finish(ctx, txn, ref)
}

// begin opens the transaction that makes the table's next Iceberg
// snapshot, on a branch whose head is the parent's Iceberg snapshot: the
// Iceberg branch of the snapshot's own vsql branch when it is there (the
// usual case: the commit moves it, and nothing else is written), else
// exportRef, pointed there first (or removed when there is no parent, so
// the transaction starts from main's). It returns the branch used.
func (x *snapshotExport) begin(ctx context.Context, tbl *table.Table, parentIce int64) (*table.Table, *table.Transaction, string, error) {
	if r, ok := refOf(tbl, x.s.Branch); ok && parentIce != 0 && r.SnapshotRefType == table.BranchRef && r.SnapshotID == parentIce {
		txn, err := tbl.NewTransactionOnBranchWithError(x.s.Branch)
		return tbl, txn, x.s.Branch, err
	}
	var err error
	cur := tbl.SnapshotByName(exportRef)
	switch {
	case parentIce != 0 && (cur == nil || cur.SnapshotID != parentIce):
		tbl, err = x.w.setRefs(ctx, tbl, map[string]int64{exportRef: parentIce}, map[string]table.RefType{exportRef: table.BranchRef})
	case parentIce == 0 && cur != nil:
		tbl, err = x.w.setRefs(ctx, tbl, map[string]int64{exportRef: 0}, nil)
	}
	if err != nil {
		return nil, nil, "", fmt.Errorf("point %s: %w", exportRef, err)
	}
	txn, err := tbl.NewTransactionOnBranchWithError(exportRef)
	return tbl, txn, exportRef, err
}

// txnBase is the Iceberg snapshot a transaction begun by begin starts
// from (nil for an empty table).
func txnBase(tbl *table.Table, parentIce int64) *table.Snapshot {
	if parentIce != 0 {
		return tbl.Metadata().SnapshotByID(parentIce)
	}
	return tbl.CurrentSnapshot()
}

// files lists the live data and delete files of an Iceberg snapshot.
func (x *snapshotExport) files(ctx context.Context, tbl *table.Table, snap *table.Snapshot) (data, deletes []iceberg.DataFile, err error) {
	if snap == nil {
		return nil, nil, nil
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, nil, err
	}
	mans, err := snap.Manifests(fs)
	if err != nil {
		return nil, nil, err
	}
	for _, m := range mans {
		entries, err := m.FetchEntries(fs, true)
		if err != nil {
			return nil, nil, err
		}
		for _, en := range entries {
			df := en.DataFile()
			if df.ContentType() == iceberg.EntryContentData {
				data = append(data, df)
			} else {
				deletes = append(deletes, df)
			}
		}
	}
	return data, deletes, nil
}

// upload copies a Parquet file from staging into the table's data
// directory and describes it for a manifest.
func (x *snapshotExport) upload(ctx context.Context, tbl *table.Table, local string, content iceberg.ManifestEntryContent, eqIDs []int, rows int64) (iceberg.DataFile, error) {
	fs, err := tbl.FS(ctx)
	if err != nil {
		return nil, err
	}
	wfs, ok := fs.(iceio.WriteFileIO)
	if !ok {
		return nil, errors.New("the warehouse's file system cannot be written")
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	kind := "data"
	if content == iceberg.EntryContentEqDeletes {
		kind = "eq-deletes"
	}
	dest := strings.TrimSuffix(tbl.Location(), "/") + fmt.Sprintf("/data/vsql-%d-%s-%s.parquet", x.s.ID, kind, hex.EncodeToString(b[:]))
	in, err := os.Open(local)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return nil, err
	}
	out, err := wfs.Create(dest)
	if err != nil {
		return nil, fmt.Errorf("create %s: %w", dest, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return nil, fmt.Errorf("write %s: %w", dest, err)
	}
	if err := out.Close(); err != nil {
		return nil, fmt.Errorf("write %s: %w", dest, err)
	}
	if content == iceberg.EntryContentData {
		return table.FileToDataFile(ctx, fs, dest, tbl.Schema(), tbl.Spec(), 0, tbl.Properties())
	}
	bld, err := iceberg.NewDataFileBuilder(tbl.Spec(), content, dest, iceberg.ParquetFile, nil, nil, nil, rows, st.Size())
	if err != nil {
		return nil, err
	}
	return bld.EqualityFieldIDs(eqIDs).Build(), nil
}

// finish commits the transaction and returns the new Iceberg snapshot,
// the head of ref.
func (x *snapshotExport) finish(ctx context.Context, txn *table.Transaction, ref string) (int64, error) {
	tbl, err := txn.Commit(ctx)
	if err != nil {
		return 0, fmt.Errorf("commit the Iceberg snapshot: %w", err)
	}
	sn := tbl.SnapshotByName(ref)
	if sn == nil {
		return 0, errors.New("the Iceberg commit left no snapshot on " + ref)
	}
	return sn.SnapshotID, nil
}

// comparePositionally finds the changed rows without a join when no row
// was inserted or deleted: both versions hold as many rows, in the same
// order (DuckDB updates rows in place), so row i of one is row i of the
// other. It writes the changes file as the FULL JOIN would (each changed
// key is both an old row to delete and a new row to add) and reports
// true; when the counts differ, or any key is not where it was (rows
// moved, or deleted and inserted in equal numbers), it reports false and
// the caller joins on the key.
func (x *snapshotExport) comparePositionally(ctx context.Context, pfrom, from string, key, differ []string, changes string) (bool, error) {
	var counts [2]int64
	if err := x.e.eng.Query(ctx, "SELECT (SELECT count(*) FROM "+pfrom+"), (SELECT count(*) FROM "+from+")", func(row []any) error {
		counts[0], _ = row[0].(int64)
		counts[1], _ = row[1].(int64)
		return nil
	}); err != nil {
		return false, err
	}
	if counts[0] != counts[1] {
		return false, nil
	}
	if anyMoved, err := branches.KeysMoved(ctx, x.e.eng, pfrom, from, key); err != nil || anyMoved {
		return false, err
	}
	var keys, moved []string
	for _, k := range key {
		q := sqltext.QuoteIdent(k)
		keys = append(keys, "s."+q+" AS "+q)
		moved = append(moved, "p."+q+" IS DISTINCT FROM s."+q)
	}
	movedExpr := "(" + strings.Join(moved, " OR ") + ")"
	where := movedExpr
	if len(differ) > 0 {
		where += " OR " + strings.Join(differ, " OR ")
	}
	if err := x.e.eng.Exec(ctx, "COPY (SELECT "+strings.Join(keys, ", ")+", true AS __vsql_old, true AS __vsql_new, "+movedExpr+" AS __vsql_moved FROM "+
		pfrom+" p POSITIONAL JOIN "+from+" s WHERE "+where+") TO "+sqltext.QuoteString(changes)+" (FORMAT parquet)"); err != nil {
		return false, fmt.Errorf("compare with the parent: %w", err)
	}
	var anyMoved bool
	if err := x.e.eng.Query(ctx, "SELECT coalesce(bool_or(__vsql_moved), false) FROM read_parquet("+sqltext.QuoteString(changes)+")", func(row []any) error {
		anyMoved, _ = row[0].(bool)
		return nil
	}); err != nil {
		return false, err
	}
	return !anyMoved, nil
}

// unchangedColumns lists the non-key columns of a table whose values
// cannot differ between the parent and this snapshot at any key both
// hold: their storage signatures (branches.ColumnSignatures) and the
// key's are equal, so the comparison leaves them out.
func (x *snapshotExport) unchangedColumns(ctx context.Context, pAlias, name string, key []string) (map[string]bool, error) {
	var chunks [2][][32]byte
	if err := x.e.cat.Tx(ctx, func(tx *catalog.Tx) error {
		for i, root := range []string{x.parent.ContentRoot, x.s.ContentRoot} {
			cm, err := tx.ChunkMap(ctx, root)
			if err != nil {
				return err
			}
			chunks[i] = cm.Chunks
		}
		return nil
	}); err != nil {
		return nil, err
	}
	query := func(q string, fn func([]any) error) error { return x.e.eng.Query(ctx, q, fn) }
	// Both are snapshot images (SnapshotImage).
	before := x.e.signatures.ImageSignatures(query, pAlias, name, chunks[0])
	after := x.e.signatures.ImageSignatures(query, x.alias, name, chunks[1])
	if before == nil || after == nil {
		return nil, nil
	}
	for _, k := range key {
		if before[k] == "" || before[k] != after[k] {
			return nil, nil
		}
	}
	same := map[string]bool{}
	for c, sig := range before {
		if sig != "" && after[c] == sig {
			same[c] = true
		}
	}
	return same, nil
}
