// Package lakehouse exports a database's snapshots as Apache Iceberg
// tables (format version 2) that engines read without vsql: one Iceberg
// table per table (namespace = database), one Iceberg snapshot per vsql
// snapshot that changed the table, named snapshots as tags, branch heads
// as Iceberg branches. docs/lakehouse.md says how each engine reads it.
//
// # Pieces
//
//   - warehouse.go: lakehouse URLs (an absolute directory, or
//     s3://bucket/prefix with the remotes' S3 settings) and the Iceberg SQL
//     catalog (iceberg-go's catalog/sql over mattn/go-sqlite3, catalog name
//     "vsql"): in the directory itself (vsql_catalog.sqlite), or for S3 in
//     the repository (lakehouse/<hash>.sqlite).
//   - types.go: DuckDB's type strings parsed, mapped to Iceberg types, the
//     casts that make DuckDB's Parquet hold what Iceberg reads as that
//     type, and DuckDB's FIELD_IDS taken from the Iceberg schema.
//   - export.go: the Exporter. Run passes over every database with a
//     lakehouse (after Kick — each snapshot, merge and restore — and every
//     Retry); a pass exports the snapshots not exported yet, oldest
//     first, each from its attached image, then syncRefs (refs.go) moves
//     tags and branches (only when exports, branch heads or snapshot names
//     changed since its last run: it reads every table's metadata). A database's failure is kept for Status and
//     retried; vsql never waits for the export.
//
// # One snapshot, one table
//
// The table's Iceberg parent is the Iceberg snapshot that holds it as of
// the vsql snapshot's first parent (catalog lakehouse_tables). If the file
// is the parent's (same content root) nothing is written. Otherwise, for a
// table with a usable primary key (not floating point, not nested), the
// change is computed against the parent's image: row by row (POSITIONAL
// JOIN) when both hold as many rows with every key in place — DuckDB
// updates in place — else by a FULL JOIN on the key; columns whose
// storage signatures are equal in both (branches.ColumnSignatures, kept
// per image in the Exporter's branches.SignatureCache, so a snapshot's
// export reads its parent's from the parent's own export) are
// left out of the comparison. The new and changed rows become a Parquet
// data file and the keys of changed and deleted rows an equality-delete
// file, committed together as one RowDelta: an equality delete applies to
// earlier data files only. A table without such a key is compared as a
// multiset and written whole when it differs. DuckDB writes the Parquet
// (COPY … FIELD_IDS) into staging/, and the file is copied into the
// table's data/ through iceberg-go's file IO.
//
// The commit goes to the Iceberg branch of the snapshot's vsql branch when
// its head is the parent (the usual case: one metadata file), else to the
// working branch "vsql-export", pointed at the parent first; syncRefs
// removes that one. Only main's snapshots change a table's schema (columns
// dropped and added by name, then a whole rewrite): Iceberg reads every
// branch with the current schema, so a snapshot of another branch with
// other columns is recorded as not exported, and so is that branch head.
// A type without a faithful Iceberg form, or rows DuckDB refuses to write,
// mark the table not exported for that snapshot instead of holding up the
// database.
//
// # Exactly once
//
// Each Iceberg snapshot's summary carries vsql.database, vsql.snapshot-id,
// vsql.branch and vsql.name. vsql records a snapshot's export (every
// table's row, one catalog transaction) only after its Iceberg commits; a
// crash in between leaves commits that the next try finds by their summary
// and adopts instead of writing them again (cmd/vsqld's
// TestCrashDuringLakehouseExport kills vsqld there). A new lakehouse URL
// forgets what was exported to the old one.
package lakehouse
