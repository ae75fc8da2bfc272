// Package sqltext is the one place where vsql looks at SQL as text.
//
// It does these things and nothing else:
//
//   - Split cuts a query string into statements at top-level semicolons,
//     honouring quotes, dollar quotes, E” strings and both comment styles,
//     the way PostgreSQL's own simple-query protocol does.
//   - Classify reports the leading keywords of a statement so the server can
//     choose the command tag (INSERT 0 n, CREATE TABLE, …), spot
//     transaction-control statements and the few statements vsql executes
//     itself (CREATE DATABASE, DROP DATABASE).
//   - ParseCopy reads COPY … FROM STDIN / TO STDOUT (table, columns or
//     query, and options in both the parenthesized and the pre-9.0 forms)
//     so the server can run the copy itself.
//   - QuoteIdent, QualifiedName and ValidName are the only functions that
//     may put a name (database, branch, table, column) into SQL text
//     (ARCHITECTURE invariant 4).
//
// Caveats: sqltext is a lexer, not a parser. It never rewrites statements;
// a statement that it misclassifies still runs on DuckDB unchanged, and only
// its command tag may be generic.
package sqltext
