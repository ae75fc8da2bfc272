// Package branches will own the block store and chunk maps, snapshot
// creation, materialization of snapshot images, fork/restore/delete of
// branches, the live-file lifecycle (attach, gate, swap), gc and verify.
//
// Status: planned (issue "Storage: versioned databases"). Today a database
// has one live file, <data>/live/<db>/main.duckdb, managed by package
// server; this package takes that over when branches land.
package branches
