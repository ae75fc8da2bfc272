// Package catalog is the repository's metadata store: a SQLite file
// (catalog.db) opened through mattn/go-sqlite3 in WAL mode with
// synchronous=FULL, so a committed transaction survives a crash.
//
// Everything other packages know about databases (and, as the storage work
// lands, branches, snapshots, chunk maps, requests and pins) is read and
// written through Catalog.Tx, the one transaction API. The catalog never
// touches DuckDB files.
//
// Schema changes are versioned migrations (migrations.go): each runs once,
// in order, inside a transaction that also records its version in
// schema_version. A catalog written by a newer vsqld (a higher version than
// this binary knows) is refused rather than guessed at.
package catalog
