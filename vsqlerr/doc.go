// Package vsqlerr holds every error a vsql user can see: the symbolic codes,
// their SQLSTATEs and recovery hints (one table, codes.go), and the mapping
// of DuckDB's error classes to PostgreSQL SQLSTATEs (one table, duckdb.go).
//
// A vsql error is shown to clients as "[vsql:code] message" with its
// SQLSTATE and hint in the ErrorResponse. Errors that PostgreSQL itself has
// a SQLSTATE for (3D000 unknown database, 25P02 failed transaction, …) use
// that SQLSTATE so clients react as they do with PostgreSQL; errors that
// only vsql has use class VS.
//
// Ordinary SQL errors raised by DuckDB keep DuckDB's message and get the
// matching PostgreSQL SQLSTATE; DuckDB's "LINE n: …" context becomes the
// ErrorResponse position, so psql draws the caret itself. Where fills the
// CONTEXT field (COPY errors name the line there).
//
// A vsql error raised inside a vsql_* function reaches the session as
// DuckDB's error text: From recovers its code and SQLSTATE from the
// "[vsql:code]" prefix, and a hint of its own (not the code's) from the
// text ForEngine appends, so such hints reach the client too.
package vsqlerr
