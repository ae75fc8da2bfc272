package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Lakehouse is where a database's snapshots are exported as Iceberg
// tables (package lakehouse).
type Lakehouse struct {
	DatabaseID int64
	Database   string
	URL        string
	SetBy      string
	SetAt      time.Time
}

// SetLakehouse records (or replaces) a database's lakehouse. An empty url
// removes it. A new location forgets what was exported to the old one
// (the files stay there), so the whole history is exported again.
func (t *Tx) SetLakehouse(ctx context.Context, dbID int64, url, by string) error {
	// What was exported to another location says nothing of this one: the
	// new warehouse gets the whole history.
	if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM lakehouse_tables WHERE database_id = ? AND NOT EXISTS
		(SELECT 1 FROM lakehouses WHERE database_id = ? AND url = ?)`, dbID, dbID, url); err != nil {
		return fmt.Errorf("set lakehouse: %w", err)
	}
	if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM lakehouse_snapshots WHERE database_id = ? AND NOT EXISTS
		(SELECT 1 FROM lakehouses WHERE database_id = ? AND url = ?)`, dbID, dbID, url); err != nil {
		return fmt.Errorf("set lakehouse: %w", err)
	}
	var err error
	if url == "" {
		_, err = t.tx.ExecContext(t.ctx, `DELETE FROM lakehouses WHERE database_id = ?`, dbID)
	} else {
		_, err = t.tx.ExecContext(t.ctx, `INSERT INTO lakehouses (database_id, url, set_by, set_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (database_id) DO UPDATE SET url = excluded.url, set_by = excluded.set_by, set_at = excluded.set_at`,
			dbID, url, by, time.Now().UTC().Format(time.RFC3339Nano))
	}
	if err != nil {
		return fmt.Errorf("set lakehouse: %w", err)
	}
	return nil
}

// Lakehouses lists every database's lakehouse.
func (t *Tx) Lakehouses(ctx context.Context) ([]Lakehouse, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT l.database_id, d.name, l.url, l.set_by, l.set_at
		FROM lakehouses l JOIN databases d ON d.id = l.database_id ORDER BY d.name`)
	if err != nil {
		return nil, fmt.Errorf("list lakehouses: %w", err)
	}
	defer rows.Close()
	var out []Lakehouse
	for rows.Next() {
		var l Lakehouse
		var at string
		if err := rows.Scan(&l.DatabaseID, &l.Database, &l.URL, &l.SetBy, &at); err != nil {
			return nil, err
		}
		l.SetAt, _ = time.Parse(time.RFC3339Nano, at)
		out = append(out, l)
	}
	return out, rows.Err()
}

// LakehouseOf reads one database's lakehouse; ok is false when it has none.
func (t *Tx) LakehouseOf(ctx context.Context, dbID int64) (l Lakehouse, ok bool, err error) {
	var at string
	err = t.tx.QueryRowContext(t.ctx, `SELECT l.database_id, d.name, l.url, l.set_by, l.set_at
		FROM lakehouses l JOIN databases d ON d.id = l.database_id WHERE l.database_id = ?`, dbID).
		Scan(&l.DatabaseID, &l.Database, &l.URL, &l.SetBy, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return l, false, nil
	}
	if err != nil {
		return l, false, fmt.Errorf("read lakehouse: %w", err)
	}
	l.SetAt, _ = time.Parse(time.RFC3339Nano, at)
	return l, true, nil
}

// LakeTable is one table's export as of one vsql snapshot.
type LakeTable struct {
	Snapshot int64
	Table    string
	// IcebergSnapshot holds the table as of Snapshot; 0 when the table was
	// not exported (Skipped says why).
	IcebergSnapshot int64
	MadeHere        bool // Snapshot changed the table and made IcebergSnapshot
	Schema          string
	Skipped         string
}

// ExportedSnapshots lists the snapshots of db whose export is finished.
func (t *Tx) ExportedSnapshots(ctx context.Context, dbID int64) (map[int64]time.Time, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT snapshot_id, exported_at FROM lakehouse_snapshots WHERE database_id = ?`, dbID)
	if err != nil {
		return nil, fmt.Errorf("list exported snapshots: %w", err)
	}
	defer rows.Close()
	out := map[int64]time.Time{}
	for rows.Next() {
		var id int64
		var at string
		if err := rows.Scan(&id, &at); err != nil {
			return nil, err
		}
		out[id], _ = time.Parse(time.RFC3339Nano, at)
	}
	return out, rows.Err()
}

// LakeTables lists the tables exported as of the given snapshot (every
// exported snapshot when snapshot is 0), by snapshot then table name.
func (t *Tx) LakeTables(ctx context.Context, dbID, snapshot int64) ([]LakeTable, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT snapshot_id, table_name, iceberg_snapshot_id, made_here, schema_json, skipped
		FROM lakehouse_tables WHERE database_id = ? AND (? = 0 OR snapshot_id = ?) ORDER BY snapshot_id, table_name`, dbID, snapshot, snapshot)
	if err != nil {
		return nil, fmt.Errorf("list exported tables: %w", err)
	}
	defer rows.Close()
	var out []LakeTable
	for rows.Next() {
		var l LakeTable
		if err := rows.Scan(&l.Snapshot, &l.Table, &l.IcebergSnapshot, &l.MadeHere, &l.Schema, &l.Skipped); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// ErrLakehouseChanged is returned by RecordLakeExport when the database's
// lakehouse is no longer the URL the export was made for.
var ErrLakehouseChanged = errors.New("the lakehouse was changed meanwhile")

// RecordLakeExport marks snapshot exported to the lakehouse at url, with
// every table's row, in one transaction step: either all of it is recorded
// or none, and nothing when the lakehouse is no longer url
// (ErrLakehouseChanged).
func (t *Tx) RecordLakeExport(ctx context.Context, dbID int64, url string, snapshot int64, tables []LakeTable) error {
	var current string
	err := t.tx.QueryRowContext(t.ctx, `SELECT url FROM lakehouses WHERE database_id = ?`, dbID).Scan(&current)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && current != url) {
		return ErrLakehouseChanged
	}
	if err != nil {
		return fmt.Errorf("read lakehouse: %w", err)
	}
	for _, l := range tables {
		if _, err := t.tx.ExecContext(t.ctx, `INSERT OR REPLACE INTO lakehouse_tables
			(database_id, snapshot_id, table_name, iceberg_snapshot_id, made_here, schema_json, skipped) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			dbID, snapshot, l.Table, l.IcebergSnapshot, l.MadeHere, l.Schema, l.Skipped); err != nil {
			return fmt.Errorf("record exported table: %w", err)
		}
	}
	if _, err := t.tx.ExecContext(t.ctx, `INSERT OR REPLACE INTO lakehouse_snapshots (database_id, snapshot_id, exported_at) VALUES (?, ?, ?)`,
		dbID, snapshot, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return fmt.Errorf("record exported snapshot: %w", err)
	}
	return nil
}
