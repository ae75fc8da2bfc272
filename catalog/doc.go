// Package catalog is the repository's metadata store: a SQLite file
// (catalog.db) opened through mattn/go-sqlite3 in WAL mode with
// synchronous=FULL, so a committed transaction survives a crash.
//
// Everything other packages know about databases, branches (name, head,
// live file, whether it is materialized, where it came from), snapshots
// (per-database ids 1, 2, 3…, optional unique names, ordered parent edges,
// kind root/linear/merge, content root, sizes, provenance), chunk maps and
// reader pins is read and written through Catalog.Tx, the one transaction
// API. Publishing a snapshot — chunk map, snapshot row, parent edges and
// the branch's new head — is one such transaction. The catalog never
// touches DuckDB files.
//
// Privileges (access.go, migration 6): grants give a user a privilege
// (read < write < merge < admin) on a database's branches matching a glob,
// one grant per user and pattern; protected_branches lists branches that
// move only by merges. Dropping a database drops both.
//
// Deleted snapshots and retention (retention.go, migration 8): a deleted
// snapshot keeps its row and parent edges, with deleted_at/deleted_by set,
// its name moved to deleted_name (freed) and its content root set to
// DeletedRoot, an empty chunk map that ChunkMap refuses (ErrDeleted), so
// its own map becomes unreferenced and gc frees its blocks. The retention
// table holds each database's keep_last/keep_within policy. The graph
// helpers (Ancestors, BestCommonAncestors) are the one implementation of
// merge-base candidates, shared by merge and retention.
//
// The lakehouse export (lakehouse.go, migration 9): lakehouses holds each
// database's warehouse URL; lakehouse_tables, per exported snapshot and
// table, the Iceberg snapshot holding the table as of that snapshot (or
// why it was not exported); lakehouse_snapshots marks a snapshot's export
// finished, written in the same transaction as its tables' rows.
//
// Schema changes are versioned migrations (migrations.go): each runs once,
// in order, inside a transaction that also records its version in
// schema_version. A catalog written by a newer vsqld (a higher version than
// this binary knows) is refused rather than guessed at.
package catalog
