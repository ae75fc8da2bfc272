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
//     shuts down gracefully. unixsocket.go adds the Unix-domain socket
//     .s.PGSQL.<port> in each of UnixSocketDirs, as PostgreSQL's
//     unix_socket_directories (a stale socket replaced, a live server's
//     refused, removed at shutdown); its clients are local, as loopback
//     ones, and pg_stat_activity shows them as PostgreSQL does (client_addr
//     NULL, client_port -1). A client takes one of MaxConnections slots
//     when its startup packet arrives (admit, via pgwire.Options.Admit),
//     never for a CancelRequest; AuthenticationTimeout bounds its startup.
//   - routing.go: ParseDBName reads "db", "db/branch", "db@snapshot"; the
//     branches.Manager attaches what it names (materializing a branch or a
//     snapshot image on first use) and counts the session on it.
//   - session.go: a Session owns one DuckDB connection whose default catalog
//     (USE) is its database, the transaction state reported in
//     ReadyForQuery, and the cancel hook of the running statement. A
//     cancel that arrives while the client's query is answered but before
//     its statement runs (parsed, prepared) cancels that statement, as in
//     PostgreSQL; one that arrives while the session is idle is ignored.
//   - spare.go: two DuckDB connections made ahead of the next sessions,
//     each with its process id, secret and token set and the last session's
//     branch made current (USE), so that a session's start runs USE only
//     for another branch; a session's end (or a session that found none)
//     makes spares up to two again.
//   - auth.go: the TLS certificate and the users file, checked at Open, and
//     the Authenticator policy (package auth): SCRAM-SHA-256 for every
//     client when the users file has users, otherwise trust for loopback
//     clients, those of the Unix-domain socket included (or all, with
//     TrustAll), and 28000 for the rest. Failed logins
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
//   - gc.go: the background pass (every GCInterval, stopped before
//     shutdown waits for sessions): each database's retention, then the
//     online gc (branches.Manager.GC) with GCGrace; vsql_gc runs the same
//     gc on demand.
//   - lakehouse.go: the Iceberg export (package lakehouse) runs beside
//     Serve (startLakehouse); snapshots, merges and restores kick it, and
//     vsql_set_lakehouse, vsql_lakehouse_status and
//     vsql_lakehouse_snapshots reach it through the backend.
//   - copy.go: COPY … FROM STDIN and COPY … TO STDOUT. COPY FROM appends
//     the rows, as text, to a session temp table (__vsql_copy) with DuckDB's
//     appender, then moves everything into the target with one INSERT …
//     SELECT under the statement's branch gates: all rows or none, inside
//     the open transaction block if any. The first value its column type
//     rejects (TRY of the cast, lowest line first) is looked for, to name
//     its line, only when that INSERT fails, or before it inside a
//     transaction block (a failed INSERT ends the block): a good COPY casts
//     each value once.
//   - truncate.go: PostgreSQL's TRUNCATE (several tables, CASCADE,
//     RESTRICT, ONLY, CONTINUE IDENTITY), which DuckDB reads only for one
//     table: a table another table's foreign key references is refused
//     unless that table is in the list (duckdb_constraints); the tables are
//     emptied with DELETE, referencing tables first, in one transaction
//     unless a foreign key links two of them (DuckDB checks a DELETE
//     against the referencing rows as of its transaction's start: then one
//     transaction each). RESTART IDENTITY remakes the sequences the
//     tables' defaults call (sequenceremake.go) in the same transaction.
//     A key referencing a partitioned table references its partitions.
//     truncate.go also orders DROP TABLE a, b, … referencing tables first,
//     and drops with a table the sequences its serial columns own.
//   - onconstraint.go: INSERT … ON CONFLICT ON CONSTRAINT name, read as
//     ON CONFLICT (columns) of the primary key or UNIQUE constraint that
//     pg_constraint names so.
//   - withdml.go: data-modifying WITH queries (WITH i AS (INSERT …
//     RETURNING …) SELECT …), which DuckDB refuses: each part prepared
//     like a client's statement and run in turn, its RETURNING rows held
//     in a temporary table (_vsql_with_<n>_<k>, typed by DuckDB from the
//     RETURNING list over the target table), then the main statement over
//     those tables; in one transaction, committed before the main
//     statement's rows are sent when vsqld opened it.
//     prepareReturning runs INSERT, UPDATE or DELETE … RETURNING with a
//     subquery in its list (DuckDB refuses it) so, as WITH _vsql_returning
//     AS (… RETURNING *) SELECT <list>, tagged as the statement.
//   - upsert.go: INSERT … VALUES … ON CONFLICT (keys) DO UPDATE runs a
//     check of its rows first (duckStatement.upsertCheck), with the same
//     arguments: PostgreSQL's 21000 when two rows propose one key. One
//     whose SET or WHERE holds a subquery runs as DuckDB's MERGE
//     (prepareUpsertMerge), its conflict target first checked by
//     preparing the INSERT with DO NOTHING; duckStatement.shown keeps
//     the INSERT for the tag and the RETURNING rows.
//   - sequenceremake.go makes a sequence anew for ALTER SEQUENCE (RESTART,
//     INCREMENT, bounds, CYCLE, AS type), a setval that moves it back and
//     TRUNCATE … RESTART IDENTITY: DuckDB can neither alter a sequence nor
//     replace one a column's DEFAULT calls, so those defaults are dropped
//     and set again around CREATE OR REPLACE SEQUENCE, in one transaction.
//   - seqvalues.go keeps each session's currval and lastval: the engine
//     functions behind sqltext.TrackedNextval, TrackedCurrval and
//     TrackedLastval record what nextval returned for the calling session
//     (named by its token, set in a DuckDB variable when it starts) and
//     read it back; DISCARD SEQUENCES clears it.
//   - sequences.go runs SELECT setval(…) [FROM …] (DuckDB has no setval:
//     the arguments are read by the same query without the call, then the
//     sequence is moved forward by nextval) and accepts ALTER SEQUENCE …
//     OWNED BY, as pg_dump and ORMs send them.
//   - altertype.go runs ALTER TYPE … ADD VALUE and RENAME VALUE: the enum
//     type made again with the new labels and its columns moved onto it
//     (splitStatement).
//   - partition.go, partitionddl.go and partitiondml.go give PostgreSQL's
//     declarative partitioning (LIST and RANGE): a partitioned table is one
//     DuckDB table holding every partition's rows, a partition a view of the
//     rows its bound selects, the tree kept as JSON comments on them; the
//     DDL (PARTITION BY, PARTITION OF, ATTACH, DETACH, DROP) runs in one
//     transaction with PostgreSQL's checks, and INSERT, UPDATE and DELETE
//     of a tree's table are rewritten onto the root after pgcompat's
//     translation, with a routing check that raises 23514 through DuckDB's
//     error().
//   - domain.go and domainddl.go give PostgreSQL's domains: CREATE DOMAIN
//     makes a DuckDB type alias of the base type, keeps the definition
//     (NOT NULL, DEFAULT, named CHECKs) as JSON in COMMENT ON TYPE and
//     creates a check macro __vsql_domain_<name> that pgcompat wraps every
//     cast to the domain in (pgcompat.Session.Domains, read once per
//     catalog generation); CREATE TABLE is rewritten before translation so
//     that a column of a domain type gets the domain's DEFAULT and a CHECK
//     of its constraints (raising 23514 / 23502 through DuckDB's error())
//     with a marker by which DROP and ALTER DOMAIN find the columns. DROP
//     DOMAIN checks or cascades to the columns and domains that depend on
//     it; ALTER DOMAIN runs on a domain no column uses and is refused
//     otherwise (DuckDB cannot change a table's CHECK).
//   - paraminfer.go types a parameter DuckDB leaves without a type
//     because it is an operand of arithmetic (n + $1): the other
//     operand's type when that is an integer literal or an integer or
//     floating-point column of a table the statement names, or the type
//     the client declared (numeric as DECIMAL(38, 10)); the statement is
//     prepared again with the parameter cast to it. A statement that
//     returns rows and still has a parameter without a type (SELECT $1,
//     $2) is prepared once more with it cast to its declared type or to
//     text (castUnresolved), as PostgreSQL resolves it: otherwise DuckDB
//     describes one placeholder column until the parameters are bound.
//   - selfref.go runs a multi-row INSERT … VALUES into a table with a
//     foreign key to itself one row at a time (splitStatement), so that
//     rows may reference earlier rows of the same statement.
//   - dropnever.go answers DROP [IF EXISTS] of the object kinds a vsql
//     database cannot hold (triggers, rules, operators, materialized
//     views, …): a NOTICE and the tag, or undefined_object without IF
//     EXISTS (after checking the table of … ON t).
//   - extensions.go answers CREATE and DROP EXTENSION as a PostgreSQL
//     with plpgsql alone installed (pg_extension lists it).
//   - viewddl.go: CREATE VIEW and CREATE TABLE … AS name their columns as
//     PostgreSQL names its query's columns (a column list added after
//     the name; DuckDB would name a cast "CAST(a AS BIGINT)"); a view
//     that reads a temporary table becomes temporary; CREATE OR REPLACE
//     VIEW may only add columns (invalid_table_definition, 42P16).
//   - searchpath.go: search_path's schemas that exist become the
//     session's DuckDB search_path (see SET/RESET below).
//   - altertable.go runs the ALTER TABLE forms DuckDB refuses that
//     migrations send (pgcompat.AlterTableConstraints reads them): ADD
//     COLUMN with NOT NULL or UNIQUE, ADD CONSTRAINT … UNIQUE (a unique
//     index), DROP CONSTRAINT of such an index, and SET/DROP NOT NULL and
//     renames on a table with CREATE INDEX indexes, which DuckDB alters
//     only without them: the indexes are dropped and made again around
//     the statement (unique ones in a second transaction; DuckDB keeps a
//     dropped index until its transaction commits). It also writes out
//     CREATE TABLE's LIKE elements (expandLike) and gives an INSERT of
//     fewer values than columns its column list (insertFirstColumns).
//   - savepoint.go also runs ALTER TABLE with several actions and DROP of
//     several objects (DuckDB takes one per statement): one ALTER TABLE
//     per action (sqltext.AlterActions), one DROP per object
//     (sqltext.DropList), the schema and each element of CREATE SCHEMA s CREATE
//     TABLE … (sqltext.SchemaElements), each prepared like a client's statement, in the
//     open transaction block or in one of their own (all or none).
//     COPY TO prepares its
//     query like any statement (gates, qualified names) and pgwire formats
//     the rows.
//   - guard.go: what clients may reach (below): DuckDB's configuration at
//     Open and the statement classification at Prepare.
//   - metrics.go: the Prometheus metrics of /metrics (and /healthz) on
//     Config.HTTPListen, in a registry of the server's own: pgwire reports
//     statements and bytes sent (pgwire.Observer), and the server counts
//     sessions, snapshots and gc passes where it runs them and merges
//     through meteredMerges, the Merger that sqlfuncs calls.
//   - console.go (templates in console/): the read-only web console on
//     the same address: databases, a database's history as an SVG graph
//     drawn on the server (lanes per branch, merges as double rings with a
//     dashed edge from their second parent), diffs (paged), merge previews
//     with their conflicts, merge requests, activity. Logins are checked
//     against the users file's SCRAM verifiers (auth.Verifier.Check), or,
//     with no users, loopback clients are admins as on the wire; a login
//     is a random cookie (HttpOnly, SameSite=Strict, 12 h). Every page
//     asks privilege() what a SQL session of that login would get.
//   - activity.go: pg_stat_activity, pg_cancel_backend and
//     pg_terminate_backend. Each session keeps what it runs (pgwire calls
//     Active and Idle around each query) and the function that ends its
//     connection (pgwire.Terminable). The engine functions behind the
//     catalog names (pgcatalog.ActivityFunction, SignalFunction, and
//     CursorsFunction for pg_cursors, cursor.go's cursorRows) learn
//     their caller from a token — "<pid>:<128 random bits>" — that
//     publishLogin puts in a DuckDB variable only the caller's connection
//     sees and clients cannot set (__vsql names are refused), so a session
//     cannot act as another. Visibility and permission follow PostgreSQL:
//     admins see and signal every session; other logins see other logins'
//     sessions without their queries and signal only their own login's.
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
// variables __vsql_user and __vsql_role, set before the first statement
// that reaches memory.__vsql_pg (publishLogin).
//
// # What clients may reach (guard.go)
//
// Nothing outside the repository for non-admins, nothing outside vsql for
// anyone. Two layers: DuckDB's own configuration, which DuckDB enforces
// for every statement however it is written, and vsql's classification of
// the statement text, for what that configuration cannot tell apart (the
// admin role from the others, vsql's files inside the directories DuckDB
// must open, per-session from process-wide settings).
//
// DuckDB, configured in Open before anything is attached:
//
//   - DSN: autoinstall_known_extensions, autoload_known_extensions and
//     allow_community_extensions false (true with --allow-extensions);
//     allow_persistent_secrets false (no secrets read from or written to
//     ~/.duckdb); temp_directory <data>/tmp, emptied at start.
//   - then (lockEngine): TimeZone UTC and default_null_order
//     nulls_last_on_asc_first_on_desc (PostgreSQL's order of NULLs) for
//     every connection; allowed_directories = live/, cache/, staging/,
//     requests/ (the only repository directories DuckDB opens files in:
//     branch files, snapshot images and remote heads, merge/restore/settle
//     staging, frozen merge decisions) plus every --file-access directory;
//     enable_external_access = false; allowed_configs = TimeZone, Calendar
//     (vsql sets them per session and per merge) and the admin tuning
//     settings (adminSettings: memory_limit, preserve_insertion_order, …; threads is
//     refused: vsqld runs DuckDB's threads, duckstream.Workers); lock_configuration
//     = true. Measured on DuckDB 1.5.6: with external access off, every
//     file or URL outside allowed_directories is a "Permission Error"
//     (relative paths and ".." are resolved first), external access cannot
//     be turned back on, allowed_directories and allow_community_extensions
//     cannot change; with the configuration locked every SET outside
//     allowed_configs fails ("the configuration has been locked") — so
//     lock_configuration works with vsql's per-session SET TimeZone only
//     through allowed_configs. schema and search_path stay settable (DuckDB
//     does not lock them). Spill files are written to temp_directory
//     without being in allowed_directories. No extension loads while
//     external access is off ("Loading external extensions is disabled
//     through configuration"), so --allow-extensions leaves it on and logs
//     a warning: non-admins are then kept from files by the classification
//     alone.
//   - DuckDB's errors map to vsql codes (vsqlerr): a Permission Error is
//     server_file_access, a locked setting permission_denied, both 42501.
//
// The classification (Session.guard) runs first in Prepare, on the text as
// the client wrote it, before vsql's own statements (settings, CREATE
// DATABASE, COPY) and before DuckDB's prepare, which already runs PRAGMA
// handlers and the leading statements of a multi-statement string.
// sqltext.ReachOf reads the statement's tokens (from the one lexing pass,
// sqltext.Split): called names, table positions (after
// FROM, JOIN, USING, CALL, LATERAL, TABLE, INTO, DESCRIBE, SUMMARIZE,
// SHOW, PIVOT, UNPIVOT, and after "," in a FROM list; not FROM inside
// EXTRACT/TRIM/SUBSTRING/OVERLAY or IS DISTINCT FROM), literals and
// qualifiers. Refusals are 42501, permission_denied or server_file_access,
// each with a hint; inside a transaction block they fail it.
//
// For every session, admins included:
//
//   - a string literal or quoted identifier naming a path inside the
//     repository, the users file or the TLS key (after file:// and ~, "..",
//     relative to the working directory; a glob — DuckDB's *, ? and [ ],
//     not { } — whose segments can match the way into the repository
//     (globReaches: JSON such as '{"a":"x/y"}' or '["a/b"]' is no path);
//     any literal holding the repository's absolute path, such as SQL
//     text handed to query(…)) is server_file_access. When vsqld's working directory is
//     inside the repository, a relative name counts only if it (or, with a
//     '/', its directory) exists, so that ordinary strings stay strings.
//   - IMPORT DATABASE and import_database(…) are refused (a script of
//     statements past these checks); ATTACH, DETACH and USE are refused in
//     Prepare as before (feature_not_supported for admins).
//   - SET/RESET/PRAGMA x = … of a protective setting (protectedSettings, and
//     any name containing extension, secret, directory, external_access) is
//     refused with the reason; other DuckDB settings are left to the lock.
//   - a statement that is not a read and names __vsql, or DDL whose target
//     vsql's PostgreSQL rewrite sends to memory.__vsql_pg,
//     memory.__vsql_is or memory.__vsql_fn (DROP VIEW pg_catalog.pg_class),
//     is refused; reads
//     naming __vsql, and CREATE/DROP DATABASE (vsql's own, which check
//     their names), stay reserved_name.
//   - INSTALL, LOAD, FORCE INSTALL and UPDATE EXTENSIONS are refused unless
//     --allow-extensions (then admins only).
//
// For write and read sessions, in addition (deny by default):
//
//   - statement kinds (first keyword; PREPARE … AS and EXPLAIN judged by
//     the statement they carry): SELECT, VALUES, WITH, TABLE, FROM, SHOW,
//     DESCRIBE, SUMMARIZE, EXPLAIN, INSERT, UPDATE, DELETE, MERGE, CREATE,
//     DROP, ALTER, TRUNCATE, COMMENT, transactions and savepoints,
//     PREPARE, EXECUTE, DEALLOCATE, SET, RESET, COPY, DISCARD, ANALYZE,
//     VACUUM, CALL, PRAGMA, PIVOT, UNPIVOT, and vsql's cursors (DECLARE,
//     whose query is judged as any query, FETCH, MOVE, CLOSE). Not: INSTALL, LOAD, EXPORT,
//     CHECKPOINT, ATTACH, DETACH, USE, CREATE/DROP SECRET, UPDATE
//     EXTENSIONS, anything else.
//   - table functions: the denied set is computed at Open from
//     duckdb_functions() (function_type table or table_macro in the system
//     catalog), minus userTableFunctions (range, generate_series, unnest,
//     repeat, repeat_row, json_each, json_tree, pg_timezone_names,
//     icu_calendar_names, duckdb_keywords) and vsql_*; a call of one is
//     refused anywhere, quoted or qualified. Names that are also scalar or
//     aggregate functions (histogram) are refused at a table position only,
//     as are pragma functions (CALL enable_profiling()) and DuckDB's
//     internal views of system.main (duckdb_databases, duckdb_logs, …).
//     A table function DuckDB adds later is refused until listed.
//   - replacement scans: a string at a table position (FROM '/etc/passwd',
//     DESCRIBE 'x.csv', … JOIN u ON true, 'x.csv'), and a lone quoted name
//     there holding '/', '\' or '.' (FROM "x.csv") are server_file_access.
//   - COPY other than FROM STDIN / TO STDOUT, and EXPORT DATABASE, are
//     server_file_access (COPY TO STDOUT's query is prepared, and so
//     judged, like any statement).
//   - PRAGMA: only table_info, show, show_tables, show_tables_expanded,
//     version, platform, collations, storage_info; PRAGMA x = … is a SET.
//   - SET/RESET: vsql's PostgreSQL settings (per session, settings.go and
//     settings_planner.go; a session's DateStyle order and TimeZone also
//     go to pgcompat.TranslateIn for typed date/time literals, and are
//     counted by pgcompat.SessionDateOrder/SessionZone for the engine's
//     session-less casts from text; search_path's schemas that exist in
//     the session's own database become DuckDB's search_path,
//     searchpath.go), RESET ALL, SET TRANSACTION / SESSION
//     CHARACTERISTICS, SET/RESET ROLE and SESSION AUTHORIZATION (vsql's
//     own: back to the login is a no-op, another user is refused) and SET
//     VARIABLE only; DuckDB's settings (all process-wide but schema and
//     search_path, which would reach the memory catalog), SET GLOBAL and
//     vsql_merge_max_concurrent are for admins.
//   - names qualified by the engine's memory or system catalog.
//   - after DuckDB's prepare, a statement type of COPY, EXPORT, LOAD,
//     EXTENSION, ATTACH, DETACH or LOGICAL_PLAN is refused, should the
//     lexical classification have missed it.
//
// Not covered: views and table macros an admin defined run with their
// definer's reach (a write user can read an admin's view over a file,
// within allowed_directories); symlinks inside a --file-access directory
// are followed by DuckDB; an admin can still name a file under live/,
// cache/, staging/ or requests/ with a computed path (concat(…), a
// variable), which
// only the DuckDB boundary (not the literal check) sees — DuckDB refuses
// catalog.db, blocks/ and the users file to everyone whatever the spelling.
// The classification costs 3–12 µs per statement (BenchmarkGuard, on a
// shared 2-core machine), against ~180 µs for DuckDB's prepare of the
// same SELECT.
//
// # PostgreSQL catalogs and the schema public
//
// Clients' catalog queries are answered by views and macros that package
// pgcatalog creates once per process in two schemas of the engine's
// in-memory database (memory.__vsql_pg, memory.__vsql_is; the PostgreSQL
// functions package pgcompat provides live in a third, memory.__vsql_fn);
// each view
// filters DuckDB's catalog functions by current_database(), so a session
// sees its own database or branch only. Before preparing a statement the
// server passes it through sqltext.RewritePostgres, which sends
// pg_catalog.pg_class, information_schema.tables and calls of the provided
// functions (bare or pg_catalog.f) there, and reads public.x as main.x.
//
// Then package pgcompat (Rewrite, one token pass, called once from
// Prepare through pgcompat.Translate with the other text steps) gives the statement PostgreSQL's semantics where DuckDB's
// differ: integer division, division by zero, at/by/show as names, jsonb,
// spaced timestamptz offsets, enum columns compared with literals by order,
// string literals assigned to array, date/time, interval and boolean
// columns by INSERT … VALUES and UPDATE … SET (the session tells pgcompat
// its enum columns and a table's column types: catalogcache.go, catalog
// queries kept until a statement that may change a catalog — DDL, a vsql_*
// call — or the end of the session's transaction). CREATE TABLE … AS reads DuckDB's count row
// for its SELECT n tag.
//
// Why a rewrite and not per-session objects or a schema named public:
// DuckDB resolves pg_catalog.x and information_schema.x to its own system
// schemas (with answers across every attached database, and DuckDB's type
// names), and a TEMP macro cannot be called as pg_catalog.f(…); a real
// schema public beside main would split a database's tables in two, and
// renaming main is not possible. Creating the catalogs once keeps a new
// session's cost at one statement (USE): the vsql_* functions are table macros
// in memory.__vsql_pg too, TimeZone is set once for the engine (SET GLOBAL),
// and the login's variables (__vsql_user, __vsql_role) are set by the first
// statement that reaches memory.__vsql_pg (publishLogin).
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
// COMMIT, which then rolls back), as in PostgreSQL. The transaction modes
// (txmodes.go) are session settings too: BEGIN's modes and SET TRANSACTION
// set the block's transaction_* values as SET LOCAL does, and a read-only
// block refuses writes in Prepare (what writesData calls a write, and COPY
// FROM STDIN). The settings a block changed are restored at its end:
// ROLLBACK restores them all, COMMIT those set with SET LOCAL
// (endTransactionSettings). A block's end also closes its cursors
// (endTransactionCursors), all but the WITH HOLD ones it committed.
//
// Savepoints (savepoint.go): DuckDB has none, so a block keeps the
// statements it ran (txLog, every statement but plain queries, with its
// parameters; pgwire reports each through pgwire.ExecutionLog), and
// ROLLBACK TO rolls the DuckDB transaction back, begins another and runs
// the statements before the savepoint again, from the settings the block
// began with. It refuses (0A000, the block aborted) where running them
// again would not give the same result: a function whose value changes
// (nextval, random, now, vsql_*), one of the database's macros or views
// that calls one, an INSERT whose defaults do (a serial column's
// sequence made before the block), COPY FROM, a statement naming another
// database or branch, an open cursor, or a commit on the branch by
// another session (Server.commits) or a change of it by vsql (the branch
// gate's ExclusiveHolds) since the block began.
//
// Results take one of two paths, chosen per statement from its column
// types when it is prepared (Describe time) and per run:
//
//   - The chunk path (default): a run (a simple query, an Execute with or
//     without a row limit, COPY TO STDOUT: pgwire.StreamingStatement) of
//     a SELECT whose columns are all of a type
//     pgwire encodes from chunks (bool, int2/4/8 and DuckDB's smaller and
//     unsigned integers, float4/8, text, bytea, date, timestamp,
//     timestamptz, numeric from DECIMAL, uuid, json, and lists and
//     structs of those) streams from DuckDB a
//     chunk at a time (internal/duckstream) and pgwire encodes it column
//     by column (pgwire.ChunkRows). INSERT, UPDATE and DELETE … RETURNING
//     a struct without field names (RETURNING (a, b)), which the row path
//     cannot read, take the same encoder over a materialized result (the
//     write is whole whatever the client reads); such a statement is never
//     run a second time on the row path: if its result types changed since
//     it was prepared (its table changed) it answers 0A000 "cached plan
//     must not change result type", as PostgreSQL does, after its write.
//     A SELECT is never materialized: DuckDB runs
//     only as fast as the client reads, so a connection's memory is a few
//     chunks and a 64 KiB output buffer; a client that disconnects fails
//     the next write, which closes the result and stops the query. The
//     statement's branch gates are held until the result is closed
//     (DuckDB is still reading the tables), so a client that reads
//     slowly makes a snapshot, restore or delete of that branch wait as a
//     long-running statement does (statement_timeout bounds both).
//     Statements calling vsql_*
//     functions, and results whose types differ at run time from the
//     prepared ones, take the row path.
//   - The row path: duckdb-go's driver rows, which DuckDB materializes,
//     one value at a time through pgwire.AppendValue. It serves every
//     other type (maps, unions, enums, intervals, time, …), EXPLAIN and
//     the like. A portal on it keeps its materialized result open and its
//     statement busy (another portal of the same statement gets a fresh
//     DuckDB statement).
//
// SQL cursors (DECLARE, FETCH, MOVE, CLOSE; cursor.go) are the session's:
// DECLARE prepares its query through Prepare like any statement and runs
// it on the row path; FETCH reads it forward as far as asked, and a SCROLL
// cursor keeps what it read so that it can move back. Cursors close when
// their transaction block ends (setTx, endTransactionCursors), unless
// WITH HOLD (a WITH HOLD cursor declared in a block that rolls back
// closes too), and with the session and DISCARD ALL. UPDATE and DELETE …
// WHERE CURRENT OF (currentof.go) write the row a cursor is on by its
// DuckDB rowid, which DECLARE reads as hidden columns after the client's
// when the query reads a table the cursor can update.
//
// SQL-level prepared statements (PREPARE, EXECUTE, DEALLOCATE, CREATE
// TABLE AS EXECUTE; sqlprepare.go) are the session's too, kept as text:
// PREPARE prepares the statement once to check it and learn its
// parameters' types; EXECUTE evaluates the arguments in one query, each
// cast to its parameter's type and then to text, and runs the statement
// with them as parameters; pg_prepared_statements reads them through
// pgcatalog.PreparedFunction as pg_cursors does.
//
// Heavy vsql_* calls (merges, previews, diffs, snapshots, restores) run on
// the session's goroutine, not in DuckDB's table-function callback
// (duckStatement.execute arms sqlfuncs.OffThread): the statement runs,
// stops at the call, the session runs the call, and the statement runs
// again with its result. Their results are materialized.
//
// Config.RowResults (--row-results) sends everything through the row
// path; SetStreamResults switches it for tests. Both paths send the same
// bytes (TestStreamSameBytes). Measured over pgx, 1M rows × (int, text,
// decimal, text), both paths in one run (BenchmarkWireSelect): see
// pgwire's package documentation.
//
// # Caveats
//
// SAVEPOINT and COPY in binary format are not there yet; each is refused
// with a clear error.
package server
