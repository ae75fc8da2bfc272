// Package server is vsqld's core: the accept loop, startup and routing of a
// connection's dbname to a database, the sessions, and the one DuckDB engine
// of the process.
//
// # Layers
//
//   - server.go: Open prepares the repository and the engine (an in-memory
//     DuckDB instance into which every database file is ATTACHed under its
//     own name; one that cannot be attached is logged and skipped, and its
//     sessions get database_unavailable); Serve accepts clients (retrying
//     after accept errors such as running out of file descriptors) and
//     shuts down gracefully. A client takes one of MaxConnections slots
//     when its startup packet arrives (admit, via pgwire.Options.Admit),
//     never for a CancelRequest; AuthenticationTimeout bounds its startup.
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
//     CREATE/DROP DATABASE (names checked by branches.ValidDatabaseName;
//     the catalog row commits only after the file is attached).
//   - remote.go: S3 remotes and remote heads. A head (dbname s3://…,
//     vsql_attach_remote) is read only from a location an administrator
//     configured: a database's remote or an AllowRemotes prefix; anything
//     else is permission_denied before any S3 request.
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
// # Privileges (access.go)
//
// A session acts as its login (principal: user and role, read at
// startup; with no users every trusted session is an admin). Grants and
// protected branches live in the catalog and are cached in memory
// (accessRules), reloaded by the same process after every change. Checks:
// at Startup (read on the version connected to; FATAL 42501); at Prepare,
// read on every version the statement names — the session's own, quoted
// "db/branch" and "db@n" catalogs, and any first part of a dotted name
// that is a database's name (sqltext.Scan.Qualifiers) — before anything is
// attached, then write on every branch it names if DuckDB's statement
// type writes (writesData); COPY FROM STDIN needs write; the needs are
// kept on the statement and checked again at every Execute, so a revoke
// or a new protection stops prepared statements. Protected branches refuse
// direct writes to everyone; vsql_* functions check their own needs
// (sqlfuncs/access.go) through the Session's Authorizer methods.
// pg_roles, current_user and has_*_privilege read tables that
// syncPGAccess fills from the users file and the grants, and the session
// variables __vsql_user and __vsql_role set at session start.
//
// # PostgreSQL catalogs and the schema public
//
// Clients' catalog queries are answered by views and macros that package
// pgcatalog creates once per process in two schemas of the engine's
// in-memory database (memory.__vsql_pg, memory.__vsql_is); each view
// filters DuckDB's catalog functions by current_database(), so a session
// sees its own database or branch only. Before preparing a statement the
// server passes it through sqltext.RewritePostgres, which sends
// pg_catalog.pg_class, information_schema.tables and calls of the provided
// functions (bare or pg_catalog.f) there, and reads public.x as main.x.
//
// Then package pgcompat (one token pass, called once from Prepare through
// pgCompat) gives the statement PostgreSQL's semantics where DuckDB's
// differ: integer division, division by zero, at/by/show as names, jsonb,
// spaced timestamptz offsets. CREATE TABLE … AS reads DuckDB's count row
// for its SELECT n tag.
//
// Why a rewrite and not per-session objects or a schema named public:
// DuckDB resolves pg_catalog.x and information_schema.x to its own system
// schemas (with answers across every attached database, and DuckDB's type
// names), and a TEMP macro cannot be called as pg_catalog.f(…); a real
// schema public beside main would split a database's tables in two, and
// renaming main is not possible. Creating the catalogs once keeps a new
// session's cost where it was (one USE and the vsql_* TEMP macros).
// current_setting() reads the session's settings from a DuckDB session
// variable that the server sets only when a statement calls it after a
// setting changed; SELECT set_config(…) is run by the server like SET.
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
