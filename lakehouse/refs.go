package lakehouse

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/iceberg-go/table"

	"github.com/vsql/vsql/catalog"
)

// syncRefs points each exported table's Iceberg references at what vsql's
// branches and named snapshots hold: a branch per vsql branch whose head
// is exported ("main" for main), when the table's columns there are those
// of the Iceberg table's current schema; a tag per named snapshot. Other
// references are removed (deleted branches, the export's working ref).
func (e *Exporter) syncRefs(ctx context.Context, w *warehouse, l catalog.Lakehouse) error {
	var branches []catalog.Branch
	var snaps []catalog.Snapshot
	var rows []catalog.LakeTable
	if err := e.cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		if branches, err = tx.Branches(ctx, l.DatabaseID); err != nil {
			return err
		}
		if snaps, err = tx.Snapshots(ctx, l.DatabaseID); err != nil {
			return err
		}
		rows, err = tx.LakeTables(ctx, l.DatabaseID, 0)
		return err
	}); err != nil {
		return err
	}
	// What the references depend on; unchanged since the last sync, no
	// table's metadata is read (a warehouse on S3 would be asked every
	// pass).
	var sig strings.Builder
	fmt.Fprintf(&sig, "%s;%d;", l.URL, len(rows))
	for _, b := range branches {
		fmt.Fprintf(&sig, "%s=%d;", b.Name, b.Head)
	}
	for _, s := range snaps {
		if s.Name != "" && !s.Deleted {
			fmt.Fprintf(&sig, "%d:%s;", s.ID, s.Name)
		}
	}
	e.mu.Lock()
	synced := e.refsSig[l.DatabaseID] == sig.String()
	e.mu.Unlock()
	if synced {
		return nil
	}
	at := map[int64]map[string]catalog.LakeTable{}
	names := map[string]bool{}
	for _, r := range rows {
		if at[r.Snapshot] == nil {
			at[r.Snapshot] = map[string]catalog.LakeTable{}
		}
		at[r.Snapshot][r.Table] = r
		if r.IcebergSnapshot != 0 {
			names[r.Table] = true
		}
	}
	notes := map[string][]string{}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, name := range sorted {
		tbl, err := w.loadTable(ctx, l.Database, name)
		if err != nil {
			return err
		}
		if tbl == nil {
			continue
		}
		want := map[string]int64{}
		kinds := map[string]table.RefType{}
		for _, b := range branches {
			r, ok := at[b.Head][name]
			if !ok {
				continue // the table is not on this branch, or its head is not exported yet
			}
			if r.IcebergSnapshot == 0 {
				notes[name] = append(notes[name], fmt.Sprintf("branch %s not exported: %s", b.Name, r.Skipped))
				continue
			}
			sn := tbl.Metadata().SnapshotByID(r.IcebergSnapshot)
			if sn == nil || sn.SchemaID == nil || *sn.SchemaID != tbl.Schema().ID {
				notes[name] = append(notes[name], fmt.Sprintf("branch %s not exported: %s", b.Name, schemaDiffers))
				continue
			}
			want[b.Name], kinds[b.Name] = r.IcebergSnapshot, table.BranchRef
		}
		for _, s := range snaps {
			if s.Name == "" || s.Deleted {
				continue
			}
			r, ok := at[s.ID][name]
			if !ok || r.IcebergSnapshot == 0 {
				continue
			}
			if _, isBranch := kinds[s.Name]; isBranch {
				notes[name] = append(notes[name], fmt.Sprintf("tag %s not exported: a branch has that name", s.Name))
				continue
			}
			want[s.Name], kinds[s.Name] = r.IcebergSnapshot, table.TagRef
		}
		change := map[string]int64{}
		for ref, cur := range tbl.Metadata().Refs() {
			if id, ok := want[ref]; !ok {
				change[ref] = 0
			} else if id != cur.SnapshotID || kinds[ref] != cur.SnapshotRefType {
				if kinds[ref] != cur.SnapshotRefType {
					// A ref changes kind by going away first.
					if _, err := w.setRefs(ctx, tbl, map[string]int64{ref: 0}, nil); err != nil {
						return err
					}
				}
				change[ref] = id
			}
		}
		for ref, id := range want {
			if _, ok := refOf(tbl, ref); !ok {
				change[ref] = id // new
			}
		}
		if len(change) > 0 {
			if tbl, err = w.cat.LoadTable(ctx, tbl.Identifier()); err != nil {
				return err
			}
			if _, err := w.setRefs(ctx, tbl, change, kinds); err != nil {
				return fmt.Errorf("table %q: move references: %w", name, err)
			}
		}
	}
	e.mu.Lock()
	e.notes[l.DatabaseID] = notes
	e.refsSig[l.DatabaseID] = sig.String()
	e.mu.Unlock()
	return nil
}

func refOf(tbl *table.Table, name string) (table.SnapshotRef, bool) {
	for n, r := range tbl.Metadata().Refs() {
		if n == name {
			return r, true
		}
	}
	return table.SnapshotRef{}, false
}

// TableStatus is one row of vsql_lakehouse_status.
type TableStatus struct {
	Table            string // "" when nothing was exported yet
	URL              string
	Catalog          string // the SQLite file of the Iceberg SQL catalog
	ExportedSnapshot int64  // the newest vsql snapshot exported for the table
	IcebergSnapshot  int64
	MetadataLocation string
	Lag              int64 // the database's snapshots not exported yet, tags and branches included
	LastError        string
	LastErrorAt      time.Time
	Note             string // why the table, or some branch of it, is not exported
}

// Status reports a database's export: a row per table exported so far (or
// one row without a table).
func (e *Exporter) Status(ctx context.Context, dbID int64) ([]TableStatus, bool, error) {
	var l catalog.Lakehouse
	var ok bool
	var snaps []catalog.Snapshot
	var done map[int64]time.Time
	var rows []catalog.LakeTable
	var unsynced int64
	e.recordMu.RLock()
	err := e.cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		if l, ok, err = tx.LakehouseOf(ctx, dbID); err != nil || !ok {
			return err
		}
		if snaps, err = tx.Snapshots(ctx, dbID); err != nil {
			return err
		}
		if done, err = tx.ExportedSnapshots(ctx, dbID); err != nil {
			return err
		}
		rows, err = tx.LakeTables(ctx, dbID, 0)
		return err
	})
	e.mu.Lock()
	unsynced = e.unsynced[dbID]
	e.mu.Unlock()
	e.recordMu.RUnlock()
	if err != nil || !ok {
		return nil, ok, err
	}
	base := TableStatus{URL: l.URL}
	if t, err := parseURL(e.cfg.DataDir, l.URL); err == nil {
		base.Catalog = t.catalog
	}
	base.Lag = pending(snaps, done) + unsynced
	e.mu.Lock()
	if f, ok := e.fails[dbID]; ok {
		base.LastError, base.LastErrorAt = f.err, f.at
	}
	notes := e.notes[dbID]
	e.mu.Unlock()
	latest := map[string]catalog.LakeTable{}
	for _, r := range rows { // ordered by snapshot
		latest[r.Table] = r
	}
	if len(latest) == 0 {
		return []TableStatus{base}, true, nil
	}
	var w *warehouse
	if t, err := parseURL(e.cfg.DataDir, l.URL); err == nil {
		w, _ = e.warehouseFor(t)
	}
	names := make([]string, 0, len(latest))
	for n := range latest {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []TableStatus
	for _, n := range names {
		r := latest[n]
		st := base
		st.Table, st.ExportedSnapshot, st.IcebergSnapshot = n, r.Snapshot, r.IcebergSnapshot
		if r.Skipped != "" {
			st.Note = "snapshot " + strconv.FormatInt(r.Snapshot, 10) + " not exported: " + r.Skipped
		}
		for _, note := range notes[n] {
			if st.Note != "" {
				st.Note += "; "
			}
			st.Note += note
		}
		if w != nil {
			if tbl, err := w.loadTable(ctx, l.Database, n); err == nil && tbl != nil {
				st.MetadataLocation = tbl.MetadataLocation()
			}
		}
		out = append(out, st)
	}
	return out, true, nil
}

// Lag is the number of snapshots, over every database with a lakehouse,
// not exported yet (tags and branches included), for the metrics.
func (e *Exporter) Lag(ctx context.Context) (int64, error) {
	var total int64
	e.recordMu.RLock()
	defer e.recordMu.RUnlock()
	err := e.cat.Tx(ctx, func(tx *catalog.Tx) error {
		lakes, err := tx.Lakehouses(ctx)
		if err != nil {
			return err
		}
		for _, l := range lakes {
			snaps, err := tx.Snapshots(ctx, l.DatabaseID)
			if err != nil {
				return err
			}
			done, err := tx.ExportedSnapshots(ctx, l.DatabaseID)
			if err != nil {
				return err
			}
			total += pending(snaps, done)
		}
		return nil
	})
	e.mu.Lock()
	for _, n := range e.unsynced {
		total += n
	}
	e.mu.Unlock()
	return total, err
}

// pending counts the snapshots not exported yet (deleted ones are never
// exported).
func pending(snaps []catalog.Snapshot, done map[int64]time.Time) int64 {
	var n int64
	for _, s := range snaps {
		if _, ok := done[s.ID]; !ok && !s.Deleted {
			n++
		}
	}
	return n
}
