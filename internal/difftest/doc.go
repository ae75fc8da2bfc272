// Package difftest is the differential test of vsqld against real
// PostgreSQL 15: it runs a corpus of public SQL (PostgreSQL's regression
// scripts and SQLite's sqllogictest, read at run time from
// ../shared/corpus, never copied into the repository) statement by
// statement on both servers and compares the answers: result rows as text
// (simple protocol, so each server formats its own values) and, for
// errors, the SQLSTATE class. Each file runs in a fresh database on both
// sides (PostgreSQL regression files after test_setup.sql). Each
// statement has a timeout; vsqld runs as a child process (ChildMain, the
// runner's own executable) so a crash is reported and vsqld restarted.
//
// ReadPsqlFile splits scripts as psql does (quotes, dollar quotes,
// comments, parentheses, meta-commands, COPY FROM stdin data) and
// Substitute emulates psql variables; ReadSLTFile parses sqllogictest
// records (skipif/onlyif, halt, sort modes). Run compares, compare and
// vsqldError classify divergences into groups (order.go: the ORDER BY of
// the result itself, and ties under it, which may come in any order),
// WriteReport writes
// docs/COMPATIBILITY.md. The command is go run ./cmd/vsql-compat -out
// docs/COMPATIBILITY.md; TestShort is the short version for CI.
package difftest
