// Package pgcatalog builds vsql's answers to PostgreSQL clients' catalog
// queries: views named like pg_catalog's and information_schema's
// relations, and macros named like PostgreSQL's catalog functions
// (format_type, pg_get_indexdef, pg_table_is_visible, current_setting, …),
// and pg_get_keywords(), PostgreSQL 15's keyword list (keywords.go), which
// pgjdbc and sqlline quote names by: PostgreSQL's list, not DuckDB's.
//
// # Where they live
//
// Setup returns SQL that the server runs once per process, on the engine:
// it creates two schemas of the engine's in-memory database,
// sqltext.PGCatalogSchema and sqltext.InfoSchema, and everything in them.
// Sessions reach them only through sqltext.RewritePostgres, which sends
// pg_catalog.pg_class, information_schema.tables, bare pg_class after FROM
// and calls of the provided functions there. Nothing is created per
// session, so the catalogs add nothing to the cost of a connection.
//
// # What they show
//
// Every view reads DuckDB's own catalog functions (duckdb_tables(),
// duckdb_columns(), duckdb_constraints(), duckdb_indexes(), …) filtered to
// current_database() and temp: the session's own database or branch and its
// temporary objects, never another attached database. DuckDB's schema main
// is shown as public, the catalog temp as the schema pg_temp_1. pg_proc
// lists the database's own macros, not vsql's vsql_* table macros (which
// live in memory.__vsql_pg). Types are
// PostgreSQL's (oids, typmods and format_type names) as package pgwire
// reports them on the wire, except VARCHAR, which the catalogs call
// character varying. The database's own ENUM types (duckdb_types()) are
// in pg_type (typtype e, their DuckDB oid) and pg_enum (their labels); a
// column's DuckDB type spells an enum's labels, not its name, so
// vsql_type_oid finds the type by its labels (vsql_enum_sig). format_type
// of a built-in type has no subquery (vsql_builtin_type), so that
// x::regtype[] can run in a lambda. Every object is owned by the role
// vsql (oid 10). pg_sequences and information_schema.sequences read
// duckdb_sequences(); DuckDB's sequences are bigint, so a sequence's type
// is the one its bounds come from (vsql_sequence_type).
//
// clock_timestamp() is a macro over the server's engine function
// ClockFunction (the wall clock, volatile); statement_timestamp() reads
// the caller's query_start from pg_stat_activity.
//
// pg_cursors is a view over the server's engine function CursorsFunction
// (the calling session's SQL cursors, found by its token), and
// pg_prepared_statements over PreparedFunction (its statements of SQL
// PREPARE). TypeDisplay, TypeCategory and ArrayText give the server
// format_type's names of type OIDs, their categories and PostgreSQL's
// array text.
//
// pg_stat_activity is a view over the server's engine function
// ActivityFunction, and pg_cancel_backend, pg_terminate_backend and
// pg_backend_pid macros over SignalFunction and the session's token
// (SessionVariable); the server registers both functions and fills the
// token (server/activity.go).
//
// pg_database lists vsql's databases; the server keeps the table behind it
// (SyncDatabases) up to date at start and after CREATE and DROP DATABASE.
//
// Macros are expanded into the calling query, so their subqueries use
// aliases starting with vsql_ that a caller's aliases cannot shadow.
//
// # Caveats
//
// Index key arrays (indkey, conkey) are DuckDB lists: 1-based where
// PostgreSQL's int2vector is 0-based. VARCHAR(n) lengths are not kept by
// DuckDB, so they are not shown. Primary keys and UNIQUE constraints have
// no index in duckdb_indexes(); vsql shows one named as PostgreSQL would
// (t_pkey, t_col_key). NOT NULL constraints are not listed as CHECK
// constraints in information_schema.table_constraints.
package pgcatalog
