// Package icebergread reads the Iceberg tables vsql's lakehouse export
// writes, for tests and the bench, with libraries vsql's export does not
// use to decide what it writes: iceberg-go's scanner (which applies the
// delete files itself), and the plain list of each snapshot's data and
// delete files for another engine (DuckDB's read_parquet) to read.
package icebergread

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/iceberg-go"
	icecat "github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	_ "github.com/apache/iceberg-go/io/gocloud/s3" // warehouses on S3
	"github.com/apache/iceberg-go/table"
	_ "github.com/mattn/go-sqlite3"
)

// Reader is an open Iceberg SQL catalog (SQLite).
type Reader struct {
	db  *sql.DB
	cat *sqlcat.Catalog
}

// Open opens the SQL catalog in the SQLite file at path.
func Open(path string, props iceberg.Properties) (*Reader, error) {
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro&_busy_timeout=10000")
	if err != nil {
		return nil, err
	}
	all := iceberg.Properties{"init_catalog_tables": "false"}
	for k, v := range props {
		all[k] = v
	}
	cat, err := sqlcat.NewCatalog("vsql", db, sqlcat.SQLite, all)
	if err != nil {
		db.Close()
		return nil, err
	}
	return &Reader{db: db, cat: cat}, nil
}

// Close closes the catalog.
func (r *Reader) Close() error { return r.db.Close() }

// Table loads ns.name.
func (r *Reader) Table(ctx context.Context, ns, name string) (*table.Table, error) {
	return r.cat.LoadTable(ctx, icecat.ToIdentifier(ns, name))
}

// Rows scans a table at an Iceberg snapshot (id), or at a reference
// (ref, when id is 0), with iceberg-go's scanner and returns each row as
// a JSON object, sorted.
func Rows(ctx context.Context, tbl *table.Table, id int64, ref string) ([]string, error) {
	scan := tbl.Scan()
	if id != 0 {
		scan = tbl.Scan(table.WithSnapshotID(id))
	} else {
		var err error
		if scan, err = scan.UseRef(ref); err != nil {
			return nil, err
		}
	}
	at, err := scan.ToArrowTable(ctx)
	if err != nil {
		return nil, err
	}
	defer at.Release()
	tr := array.NewTableReader(at, 1024)
	defer tr.Release()
	var out []string
	for tr.Next() {
		rec := tr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			row := map[string]any{}
			for c := 0; c < int(rec.NumCols()); c++ {
				row[rec.ColumnName(c)] = rec.Column(c).GetOneForMarshal(i)
			}
			b, err := json.Marshal(row)
			if err != nil {
				return nil, err
			}
			out = append(out, string(b))
		}
	}
	sort.Strings(out)
	return out, tr.Err()
}

// Task is one data file of a snapshot with the equality-delete files that
// apply to it.
type Task struct {
	Data            string
	EqualityDeletes []string
	PositionDeletes []string
}

// Files lists the data files of an Iceberg snapshot and their delete
// files, as iceberg-go's planner assigns them by sequence number.
func Files(ctx context.Context, tbl *table.Table, id int64) ([]Task, error) {
	tasks, err := tbl.Scan(table.WithSnapshotID(id)).PlanFiles(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Task, len(tasks))
	for i, t := range tasks {
		out[i].Data = t.File.FilePath()
		for _, d := range t.EqualityDeleteFiles {
			out[i].EqualityDeletes = append(out[i].EqualityDeletes, d.FilePath())
		}
		for _, d := range t.DeleteFiles {
			out[i].PositionDeletes = append(out[i].PositionDeletes, d.FilePath())
		}
	}
	return out, nil
}

// SnapshotsOf counts the Iceberg snapshots of a table made for a vsql
// snapshot (summary vsql.snapshot-id).
func SnapshotsOf(tbl *table.Table, vsqlID int64) int {
	n := 0
	for _, s := range tbl.Metadata().Snapshots() {
		if s.Summary != nil && s.Summary.Properties["vsql.snapshot-id"] == strconv.FormatInt(vsqlID, 10) {
			n++
		}
	}
	return n
}

// Refs lists a table's references: name → snapshot id and kind.
func Refs(tbl *table.Table) map[string]string {
	out := map[string]string{}
	for name, r := range tbl.Metadata().Refs() {
		out[name] = fmt.Sprintf("%s:%d", r.SnapshotRefType, r.SnapshotID)
	}
	return out
}
