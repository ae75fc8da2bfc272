// Package pgcompat gives PostgreSQL's SQL PostgreSQL's semantics on DuckDB
// where the two dialects read the same text differently.
//
// # Design
//
// One pass per statement: Rewrite lexes the statement once with package
// sqltext's lexer (sqltext.Tokens: the lexer Split and Classify use, with
// numbers as one token), then walks the tokens once. Each token that is a
// trigger — a lower-cased word or one operator character — runs the rule
// the table rules maps it to. A rule looks at its neighbours in the same
// token slice and records edits (byte ranges of the source and their
// replacement, mostly insertions); nothing is re-lexed between rules, and
// edits are applied once at the end in source order. Because rules insert
// around operands rather than replacing them, rules compose: the jsonb in
// '{"a":1}'::jsonb @> x is renamed while @> wraps its operands. A statement
// with none of the trigger bytes is returned untouched before lexing.
//
// The server calls Rewrite from one place (server.Session.Prepare, after
// the catalog-name rewrite of sqltext.RewritePostgres). Rewritten
// statements call two macros in memory.__vsql_pg that Setup creates once
// per process; client SQL cannot name them (names starting with __vsql are
// refused before the rewrite).
//
// sqltext is a lexer, not a parser: an operand is recognised by the shape
// of its tokens (a literal, a name, a parenthesised expression, a function
// call with FILTER/OVER, CASE … END, ARRAY[…], then ::type, [subscript],
// .field and ^). Where a rule cannot tell, it leaves the text as written:
// DuckDB's semantics, never an error of its own making. PostgreSQL's own
// grammar (pg_query_go) would remove the guessing at the price of a cgo
// parse per statement and a fallback for DuckDB-only syntax; the token pass
// costs about 1 µs for a point query (BenchmarkRewrite).
//
// # The rules
//
//   - a / b: integer division for integer operands, as DuckDB's //, which
//     divides every other numeric type as / does. Not for a left operand
//     that is visibly an interval (interval '…' / 2), which // cannot
//     divide; an interval computed by an expression ((t1 - t0) / 2) fails
//     with "No function matches '//(INTERVAL, …)'": write it * 0.5.
//   - a / b and a % b: a divisor that is not a nonzero literal goes through
//     pg_divisor, which raises [vsql:division_by_zero] (SQLSTATE 22012) for
//     zero, as PostgreSQL does for integers, numerics and floats alike
//     (DuckDB returns NULL or Infinity). Overflow needs no rule: DuckDB's
//     "Out of Range Error" is 22003 already (package vsqlerr).
//   - at, by, show: unreserved in PostgreSQL, keywords in DuckDB; quoted
//     where they are names (not AT TIME ZONE, GROUP/ORDER/PARTITION BY,
//     SHOW at the start of a statement).
//   - jsonb: DuckDB's JSON (pgwire reports JSON as jsonb, OID 3802, the type
//     ORMs declare; json columns are JSON too and are reported as jsonb).
//   - a @> b, a <@ b: pg_contains / pg_contained, DuckDB's json_contains on
//     both sides cast to JSON (lists become JSON arrays).
//   - a ? b, a ?| b, a ?& b: pg_exists, pg_exists_any, pg_exists_all over
//     the strings at the top level of a (an object's keys, an array's
//     string elements, a string). A ? that follows no operand is DuckDB's
//     placeholder and stays.
//   - a #> b, a #>> b: pg_path / pg_path_text, the path (text[]; a string
//     literal '{a,0}' goes through pg_text_array) walked one element at a
//     time: a key of an object (a JSON pointer step), an index of an array
//     (negative from the end).
//   - name: PostgreSQL's identifier type is VARCHAR where the word is
//     visibly a type (after ::, before a string literal, as CAST's
//     target, as a column's type in CREATE TABLE and ALTER TABLE); a
//     column or alias called name is left alone. Not truncated to 63
//     bytes as PostgreSQL's name is.
//   - time(p), timetz(p), timestamptz(p), timestamp(p) with time zone: the
//     precision, which DuckDB's types refuse, is dropped (values keep
//     microseconds; PostgreSQL rounds them to p digits).
//   - numeric(p, s), decimal(p, s) with p above 38: DECIMAL(38, s), the
//     widest DuckDB has; values that fit are exact, wider ones are
//     refused (out of range), never rounded.
//   - CREATE TABLE … WITH (fillfactor = n, parallel_workers = n,
//     autovacuum_enabled = b): PostgreSQL's storage parameters, which mean
//     nothing to DuckDB's storage, are dropped when every one is known and
//     its value one PostgreSQL accepts (else DuckDB refuses the clause).
//   - '… +00:00'::timestamptz, timestamptz '…', CAST('…' AS timestamp with
//     time zone): the space before a numeric offset is removed (DuckDB
//     reads "+00:00" after a space as a zone name). TimestampParam does the
//     same for text parameters bound as timestamp or timestamptz (Sequelize
//     sends its dates this way); an untyped literal is left alone.
//
// These operator rules (@>, <@, ?, #>) become calls by insertions only;
// their left operand takes in the ->, ->>, #> and #>> before it, which
// bind as tightly in PostgreSQL, and an operator further right wraps the
// ones before it (pass.open).
//
// # Caveats
//
// json_contains also finds a nested needle (PostgreSQL's @> compares from
// the top: '{"a":{"b":1}}' @> '{"b":1}' is false there, true here). jsonb
// values are printed in jsonb's form by package pgwire, numbers in their
// shortest form; ->> and #>> of an object or array give DuckDB's compact
// text. Rewritten operators are named ?column? as PostgreSQL names them
// (server's postgresColumnName).
package pgcompat
