// Package sqltext is the one place where vsql looks at SQL as text.
//
// It does these things and nothing else:
//
//   - Split cuts a query string into statements at top-level semicolons,
//     honouring quotes, dollar quotes, E” strings and both comment styles,
//     the way PostgreSQL's own simple-query protocol does.
//
//   - Classify reports the leading keywords of a statement so the server can
//     choose the command tag (INSERT 0 n, CREATE TABLE, …), spot
//     transaction-control statements and the few statements vsql executes
//     itself (CREATE DATABASE, DROP DATABASE).
//
//   - ParseCopy reads COPY … FROM STDIN / TO STDOUT (table, columns or
//     query, and options in both the parenthesized and the pre-9.0 forms)
//     so the server can run the copy itself.
//
//   - QuoteIdent, QualifiedName and ValidName are the only functions that
//     may put a name (database, branch, table, column) into SQL text
//     (ARCHITECTURE invariant 4).
//
//   - ParseTableName reads a table named in a vsql_* argument
//     (resolution_tables, vsql_diff's table =>): catalog.schema.table,
//     schema.table or table, quoted or not, with public read as main, as
//     RewritePostgres reads statements.
//
//   - AlterActions (alter.go) splits ALTER TABLE … action, action, …
//     into one ALTER TABLE per action (commas outside parentheses), and
//     DropList DROP TABLE a, b, … into one DROP per object.
//     SchemaElements CREATE SCHEMA s CREATE TABLE a … into the schema and
//     each element, qualified.
//
//   - ModifyingWith and ReturningShape (with.go) read a WITH whose
//     queries include INSERT/UPDATE/DELETE, and the shape of a
//     RETURNING list; Kind reads WITH … INSERT as an INSERT (its tag).
//
//   - ParseTruncate (truncate.go) reads PostgreSQL's TRUNCATE (tables,
//     ONLY, CASCADE/RESTRICT, identity options) for the server, which
//     carries out what DuckDB's TRUNCATE does not read.
//
//   - TrackedNextval, TrackedCurrval and TrackedLastval (seqtrack.go)
//     write nextval, currval and lastval as calls of the server's engine
//     functions that keep the values for the calling session;
//     UntrackDefault reads a stored DEFAULT back as plain nextval.
//
//   - ScanStatement (vsql.go) collects what the server checks before it
//     prepares a statement: vsql_* calls, __vsql names, quoted
//     "db/branch" and "db@n" catalogs, and the first name of every dotted
//     name (Qualifiers), which the privilege checks match against database
//     names. ReachOf (reach.go) lists what a statement reaches (called
//     names, table positions, literals) for the server's guard.
//
//   - One lexing pass per statement: Split (and Parse) lex the text once
//     and each Statement keeps its tokens (Statement.Tokens). Everything
//     after reads them: ScanStatement, ReachOf, SettingOf, InnerStatement,
//     ParseCopy, DatabaseTarget, QuoteNamedArguments, RewritePostgresIn
//     and package pgcompat's rules. A rewrite returns a Statement through
//     Statement.Edit (edit.go), which moves the tokens its edits do not
//     touch and lexes only the text they wrote (and tokens they cut or
//     touch), so the rewritten statement needs no new pass either.
//     LexPasses counts passes for the tests and the bench; Tokens lexes
//     text that is not a Statement's. The CREATE/ALTER helpers
//     (serial.go) still lex on their own, and run only for those
//     statements.
//
//   - RewritePostgres turns PostgreSQL clients' names into DuckDB's, token
//     by token: public.x → main.x, pg_catalog and information_schema
//     relations and functions → vsql's catalogs (package pgcatalog),
//     OPERATOR(pg_catalog.~), COLLATE pg_catalog.default, ::regclass casts;
//     x ~ 'pattern' (and !~, ~*, !~*) as DuckDB's whole-string match of a
//     pattern that searches, or, when the literal pattern has back
//     references or lookaround, as a call of pg_regex_op (PostgreSQL's
//     regexp_like, on a backtracking engine).
//
// Caveats: sqltext is a lexer, not a parser. Apart from RewritePostgres (and
// the quoting of vsql_* named arguments) it never rewrites statements; a
// statement that it misclassifies still runs on DuckDB unchanged, and only
// its command tag may be generic. RewritePostgres leaves every token it
// does not know as written.
package sqltext
