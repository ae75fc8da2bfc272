// Command bench measures vsql and writes docs/BENCHMARKS.md.
//
//	go run ./bench                         # the full run (tens of minutes), writes docs/BENCHMARKS.md
//	go run ./bench -quick -out /tmp/b.md   # small sizes, one run: checks the command end to end
//	go run ./bench -only merge,wire        # some sections only
//
// It builds vsqld from this checkout into a temporary directory (go build),
// and for each section starts that binary with its own temporary repository
// (--data) on a free loopback port, so each section's peak memory (VmHWM of
// /proc/<pid>/status) is its own. Everything is driven as a client would:
// through pgx, with the vsql_* functions' own result columns where they
// report timings.
//
// # Sections
//
//   - merge: vsql_merge_branch of a 1M- and a 3M-row table with 100 and 300
//     rows changed per side (its selection, comparison, application and
//     publication timings), against the comparison's join run in DuckDB in
//     this process on copies of the same three snapshot images (the floor a
//     SQL merge can reach); then 10 tables of 1M rows where one changed,
//     against one table, merged alternately, for the cost of the unchanged
//     tables.
//   - snapshot: vsql_create_snapshot after updating, inserting or deleting
//     100 rows of a 1M-row table: time, and new_bytes as a fraction of the
//     file.
//   - branch: vsql_create_branch, the first query on db/branch (which
//     materializes its file), and the first query on db@N (a snapshot
//     image built from blocks).
//   - wire: SELECT of 1M rows × 4 columns through pgx in text and binary
//     result formats, against the same query in DuckDB in this process and
//     against a PostgreSQL 15 server the command starts (initdb into a
//     temporary directory, as user nobody when run as root); point queries
//     by primary key with 1 and 16 clients, also over the first vsqld's
//     Unix-domain socket, on a vsqld with --read-spin 0 and one on the
//     other C allocator (--allocator system where the default runs on
//     tcmalloc, else --allocator tcmalloc); a new connection and its
//     first query, over TCP and over the socket; COPY FROM STDIN of 1M CSV
//     rows. Every vsqld puts its socket in the benchmark's temporary
//     directory (--unix-socket-dir), never in the system's.
//   - lakehouse: the Iceberg export (vsql_set_lakehouse) of a 1M-row table
//     after updating 100 scattered rows: the bytes the export adds to the
//     warehouse directory (data and equality-delete files, manifests,
//     metadata.json; the SQLite catalog apart) as a fraction of the
//     table's Parquet size from the first, full export, and the export's
//     time (vsql_create_snapshot returning → vsql_lakehouse_status's lag
//     at 0, polled every 2 ms) against that snapshot's, run by run.
//
// Every figure is the median of -runs runs (7 by default), and every
// comparison is measured side by side: the runs of the two systems
// alternate, and ratios are medians of per-run ratios. Where a goal is
// missed, a CPU profile of vsqld (perf record on its pid, when perf works)
// is summarized in the file; each merge run also records vsqld's CPU
// time and minor page faults over the call (/proc), so that a slow run
// shows whether it left a core idle or did the same work in more CPU
// time, and whether it faulted pages in. The machine description, the tool versions,
// the load average before and after, vsqld's C allocator (from its
// /proc/<pid>/maps) and the command line are written at the top of the
// file. A vsqld that ends on its own fails its section, which then reports
// its flags, exit status and the end of its log (exitedServers).
//
// TestQuick runs the command with -quick into a temporary file and checks
// that it is well formed; the full run is not part of the test suite.
package main
