// Package merge holds vsql's three-way, cell-level merges of branches and
// snapshots. It never speaks pgwire; sqlfuncs exposes it as vsql_merge_*.
//
// # Files
//
//   - ancestry.go: base selection from recorded parent edges only (the best
//     common ancestors are those that are not ancestors of another common
//     ancestor; one is selected, several are ambiguous, none unavailable).
//   - schema.go: reading the three inputs' catalogs (one query per system
//     table for all three) and the scope checks: every unsupported object
//     is refused with merge_unsupported naming the first one, never skipped.
//     Strict schema mode requires identical definitions.
//   - plan.go: the merged catalog under the schema mode (strict, additive,
//     catalog): per table its merged columns, added/removed columns and
//     tables, per view the chosen definition; refusals (merge_unsupported)
//     and schema conflicts (merge_schema_conflict: table_delete_modify,
//     column_delete_modify, table_definition, column_definition,
//     view_definition, view_binding, view_output). Views are re-bound in a
//     scratch in-memory database holding the result's (empty) tables.
//   - stage_schema.go: the plan applied to staging before rows: views
//     dropped, tables dropped, rebuilt (removed columns), altered (added
//     columns) or created, and views created dependencies first.
//   - compare.go: the comparison phase (compareAll: per table the column
//     signatures, the row counts, and the byte-identical tables left out),
//     and per table the comparison of base, ours and theirs,
//     keeping only rows that differ somewhere: rows paired by position
//     (POSITIONAL JOIN) when the three inputs hold as many rows and every
//     key where base holds it (updates in place), else by chained FULL
//     OUTER JOINs on the primary key; then one classification pass in SQL
//     (the closed set of outcomes: none, update, insert, delete, cell,
//     insert_insert, delete_update) with the merged cells computed next to
//     it; and the application into ours' live file or a copy of ours:
//     DELETE of deleted keys, UPDATE of the columns that updated rows
//     change (rows stay where they were), INSERT of inserted rows, so cost
//     follows the change, not the table, and DuckDB checks every PRIMARY
//     KEY, UNIQUE, NOT NULL and CHECK constraint. When a changed column is
//     in a UNIQUE constraint, a CHECK or an index, updated rows are
//     deleted and inserted again instead (values swapped between rows
//     could collide in DuckDB's row-by-row unique check).
//   - signature.go: column signatures (storage segments and their blocks'
//     content hashes) that prove columns or whole tables unchanged; those
//     of snapshot images come from the Merger's branches.SignatureCache.
//   - merge.go: the public calls, durable requests, and the phases
//     (selection, target check, comparison, application, publication).
//   - preview.go: previews, preflight, ancestry.
//   - resolve.go: resolution tables (validated, frozen into the request on
//     first use under requests/<db>/<operation>.duckdb) and side strategies,
//     applied to the classified rows in SQL, with an audit.
//   - s3merge.go: merges into databases with an S3 remote: request_id
//     required, publication in durable steps (prepared → uploaded → the
//     conditional head write → local completion) recorded in the request,
//     and settling of interrupted ones by the request's token.
//   - requests.go, status.go: listing and aborting requests; the registry of
//     running merges behind vsql_merge_status(); async merges run on the
//     server's own goroutines.
//
// # How a merge runs
//
// The three input snapshots are attached read-only as snapshot images
// (branches patches a new image from an unused neighbour's, so an image
// costs what differs). The comparison results live in temp tables on one
// DuckDB connection owned by the merge. Then one of two paths:
//
//   - In place (the destination is ours' own branch, in_place not false): branches.OpenInPlace takes the
//     branch's gate exclusively before the inputs are attached and checks
//     it is clean at ours; ours is read from the live file itself, the
//     result is applied to it in one DuckDB transaction after an
//     ".applying" marker is written beside it, checkpointed, and published
//     by InPlace.Publish (only blocks whose xxh3 pre-check changed are
//     hashed and stored). A failure before COMMIT rolls back; a failure
//     after it, or a file whose bytes differ after a rollback, has the
//     branch rebuilt from its head (InPlace.Close); a crash leaves the
//     marker, and the next start rebuilds the branch from its head
//     (branches.RecoverInPlace), which is the result only if the catalog
//     transaction below committed.
//   - Copy (new branches, snapshot merges, in_place => false): the result is
//     built in staging/ from a plain copy of ours' image, checkpointed, and
//     published by branches.Publish: its blocks are stored, the file moves
//     into live/.
//
// Either way one catalog transaction records the merge snapshot (parents
// ours and theirs, provenance with the algorithm, the inputs and their
// content roots, the schema mode, the request id), moves the branch and
// completes the request. A crash or cancel before that transaction leaves
// every branch as it was (staging is emptied at start-up, gc removes
// unreferenced blocks and files); after it, retrying the same request_id
// replays the result, so a merge is never published twice.
//
// # Caveats
//
//   - A side that lacks a column or table contributes typed NULLs or no
//     rows (tableInputs.rel); renames are a removal plus an addition.
//   - Merge connections run with TimeZone UTC and the Gregorian calendar,
//     so no session setting can change a result between attempts.
//   - Comparison cost follows table size, less what signature.go can prove
//     unchanged: columns whose storage is byte-identical between base and a
//     side are not compared on that side, and in branch merges a table
//     byte-identical in all three inputs is not compared at all (see
//     docs/BENCHMARKS.md). Pairing rows by position reads each input once
//     without a hash table (1M rows, 100 changes per side: 46 ms against
//     364 ms for the key join); it needs rows that did not move. A merge
//     updates rows in place, so the merge after a merge still pairs by
//     position; user deletes and inserts (and updates of a constrained
//     column, above) move keys, and such tables join on the key
//     (vsql_merge_tables_total counts each method).
package merge
