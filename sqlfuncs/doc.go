// Package sqlfuncs makes the vsql_* functions: it registers them in DuckDB,
// parses their arguments, shapes their result rows and turns their errors
// into [vsql:code] errors. It holds no versioning logic; that is package
// branches (and later merge).
//
// # How a call runs
//
// Each public function is a table macro that the server creates once per
// process in memory.__vsql_pg (Macros: CREATE MACRO
// memory.__vsql_pg.vsql_snapshots(db := NULL) AS TABLE …); the server's
// rewrite (sqltext.RewritePostgres, from the names registered here with
// sqltext.ProvideTableFunctions) sends every bare call there, so a new
// session creates nothing. The macro
// packs its arguments into one JSON string and calls the internal table
// function __vsql_snapshots(json), registered once through duckdb-go. This
// indirection exists because duckdb-go aborts the process when a table
// function receives a NULL argument; a JSON string is never NULL. The
// server refuses any statement that names __vsql directly.
//
// DuckDB binds a table function when it prepares a statement, so binding
// only parses and checks arguments: PREPARE, Describe and EXPLAIN of a call
// run nothing. The work runs when the statement executes (the first row is
// requested), once per execution.
//
// # Privileges
//
// Before a function runs (at every execution, not at bind), the session
// checks what it needs: needsOf in access.go is the one table, an entry
// per function, naming the argument that names the branch or version and
// the privilege there (read, write, merge, admin), or the admin role, or
// database admin; a test checks every function has an entry. The checks
// themselves are the Caller's (the server's grants); listing functions
// (vsql_branches, vsql_snapshots, vsql_merge_status, vsql_privileges)
// filter their rows through it. access.go also holds vsql_grant,
// vsql_revoke, vsql_privileges and vsql_set_branch_protection.
//
// # Decisions
//
// The heavy functions — merges, their previews and preflight, diffs,
// snapshots, restores: the ones that run DuckDB queries of their own — do
// not run inside DuckDB's table-function callback when the caller can run
// them itself (OffThread, offthread.go): the server arms each statement
// that names one, outside a transaction block; the first execution that
// reaches the call records it and stops, the session runs the call on its
// own goroutine, and the statement runs again, its call now handing out
// the rows already made. A call in the callback held one of DuckDB's
// threads while its own queries ran, and on two cores a merge's
// comparison then ran on one thread in some runs and on two in others.
// Other calls, and heavy ones inside a transaction block, run in the
// callback. Functions never wait for the caller's own transaction: the server does not hold the
// caller's branch gate for statements that call vsql_* functions, and
// functions that change versions refuse to run inside a transaction block.
//
// A caller that implements PhaseReporter (the server's session, for
// pg_stat_activity) is told what a heavy call is doing while it runs: each
// progress message of a merge, the function's name for the others, and ""
// when the call ends.
//
// Every argument may be NULL or omitted: db means the session's database,
// branch the session's branch. Positions never shift: vsql_create_branch
// ('dev') names a database; write vsql_create_branch(NULL, 'dev') or
// vsql_create_branch(branch => 'dev') for the session's database.
package sqlfuncs
