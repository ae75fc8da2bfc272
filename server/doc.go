// Package server is vsqld's core: the accept loop, startup and routing of a
// connection's dbname to a database, the sessions, and the one DuckDB engine
// of the process.
//
// # Layers
//
//   - server.go: Open prepares the repository and the engine (an in-memory
//     DuckDB instance into which every database file is ATTACHed under its
//     own name); Serve accepts clients and shuts down gracefully.
//   - routing.go: ParseDBName reads "db", "db/branch", "db@snapshot"; the
//     branches.Manager attaches what it names (materializing a branch or a
//     snapshot image on first use) and counts the session on it.
//   - session.go: a Session owns one DuckDB connection whose default catalog
//     (USE) is its database, the transaction state reported in
//     ReadyForQuery, and the cancel hook of the running statement.
//   - auth.go: the TLS certificate and the users file, checked at Open, and
//     the Authenticator policy (package auth): SCRAM-SHA-256 for every
//     client when the users file has users, otherwise trust for loopback
//     clients (or all, with TrustAll) and 28000 for the rest. Failed logins
//     are logged with user and address.
//   - statement.go: statements prepared in DuckDB, and the few statements
//     vsql executes itself: BEGIN/COMMIT/ROLLBACK (PostgreSQL's warnings and
//     failed-transaction rules on top of DuckDB's transactions) and
//     CREATE/DROP DATABASE.
//   - copy.go: COPY … FROM STDIN and COPY … TO STDOUT. COPY FROM appends
//     the rows, as text, to a session temp table (__vsql_copy) with DuckDB's
//     appender, finds the first value its column type rejects (TRY of the
//     cast, lowest line first), then moves everything into the target with
//     one INSERT … SELECT under the statement's branch gates: all rows or
//     none, inside the open transaction block if any. COPY TO prepares its
//     query like any statement (gates, qualified names) and pgwire formats
//     the rows.
//
// The protocol itself (messages, formats, codecs) is package pgwire; SQL
// text is only looked at through package sqltext.
//
// # Repository layout
//
// See package branches; the server adds staging/, scratch space emptied at
// start-up.
//
// # Qualified names and vsql_* calls
//
// Before preparing a statement the server scans it (sqltext.ScanStatement):
// quoted catalog names such as "retail/dev" or "retail@4" are attached on
// first use; statements naming the internal __vsql functions are refused;
// statements calling vsql_* functions get their keyword-named arguments
// quoted (from => becomes "from" =>) and run without the branch gate.
//
// # Decisions
//
// Transaction state is tracked by the session, not asked of DuckDB: BEGIN,
// COMMIT and ROLLBACK never reach DuckDB as written (DuckDB does not know
// PostgreSQL's options such as ISOLATION LEVEL), and an error inside a
// transaction block makes it failed (25P02 for everything but ROLLBACK and
// COMMIT, which then rolls back), as in PostgreSQL.
//
// Results are read through duckdb-go's driver rows, which DuckDB
// materializes; a suspended portal keeps its result open and its statement
// busy, and another portal of the same statement gets a fresh DuckDB
// statement.
//
// # Caveats
//
// SAVEPOINT and COPY in binary format are not there yet; each is refused
// with a clear error.
package server
