// Command vsql-compat runs the differential test of package
// internal/difftest: the corpus in ../shared/corpus (or -corpus) statement
// by statement against a PostgreSQL 15 it starts and a vsqld it starts
// (its own executable, as a child process), and writes the comparison as
// Markdown:
//
//	go run ./cmd/vsql-compat -out docs/COMPATIBILITY.md
package main
