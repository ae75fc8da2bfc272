-- Errors: DuckDB's message, PostgreSQL's SQLSTATE, and the position where
-- DuckDB gives one (psql draws the LINE/caret from it).
\set VERBOSITY verbose
CREATE TABLE e (id integer PRIMARY KEY, name text NOT NULL, qty integer CHECK (qty >= 0));
INSERT INTO e VALUES (1, 'a', 1);
SELEC 1;
SELECT * FROM
  e WHERE nosuchcolumn = 1;
SELECT * FROM nosuchtable;
INSERT INTO e VALUES (1, 'dup', 1);
INSERT INTO e VALUES (2, NULL, 1);
INSERT INTO e VALUES (3, 'c', -1);
SELECT 'abc'::integer;
SELECT nosuchfunction(1);
SELECT 300::tinyint;
CREATE TABLE e (x integer);
-- nothing above changed the table
SELECT * FROM e ORDER BY id;
-- vsql manages attachments itself
ATTACH '/tmp/x.duckdb' AS x;
DETACH regress_errors;
USE memory;
SELECT current_database();
