-- COPY FROM STDIN / TO STDOUT in text and CSV, as psql sends them.
\set VERBOSITY verbose
CREATE TABLE people (id integer PRIMARY KEY, name text, born date, active boolean, score numeric(5,2));
-- text format: tab-separated, \N is NULL, backslash escapes
COPY people FROM STDIN;
1	Ada	1815-12-10	t	99.50
2	Tab\there	\N	f	\N
3	back\\slash and\nnewline	2000-02-29	true	1
\.
SELECT id, name, born, active, score FROM people ORDER BY id;
COPY people TO STDOUT;
-- CSV with a header, quoted fields, a field over two lines, empty = NULL
COPY people (id, name, score) FROM STDIN WITH (FORMAT csv, HEADER);
id,name,score
4,"Smith, John",
5,"two
lines",12.5
6,"",0
\.
COPY people (id, name, score) TO STDOUT WITH (FORMAT csv, HEADER);
-- the old syntax, another delimiter and NULL string
COPY people (id, name) FROM STDIN WITH CSV DELIMITER ';' NULL 'nil';
7;nil
8;"nil"
\.
COPY (SELECT id, name IS NULL AS is_null, name FROM people WHERE id >= 7 ORDER BY id) TO STDOUT WITH CSV HEADER;
-- \copy goes through COPY … TO STDOUT / FROM STDIN
CREATE TABLE people2 (id integer, name text, born date, active boolean, score numeric(5,2));
\copy people to '/tmp/vsql_regress_copy.csv' with (format csv)
\copy people2 from '/tmp/vsql_regress_copy.csv' with (format csv)
\! rm -f /tmp/vsql_regress_copy.csv
SELECT count(*), sum(id) FROM people2;
\copy (SELECT id, score FROM people2 WHERE score IS NOT NULL ORDER BY id) to stdout with csv
-- a malformed row fails the whole COPY; the table is unchanged (option
-- errors are tested in server/copy_test.go: psql versions differ in how
-- they skip the data of a COPY refused before it starts)
COPY people2 FROM STDIN;
10	ok	\N	\N	\N
11	bad	not a date	\N	\N
\.
COPY people2 FROM STDIN;
12	too few
\.
COPY people2 (id, name) FROM STDIN (FORMAT csv);
13,"never closed
\.
SELECT count(*) FROM people2;
-- constraint violations keep their SQLSTATE
COPY people (id, name) FROM STDIN (FORMAT csv);
100,new
1,duplicate
\.
SELECT count(*) FROM people;
-- inside a transaction: ROLLBACK undoes the COPY
BEGIN;
COPY people (id, name) FROM STDIN;
20	rolled back
\.
SELECT count(*) FROM people;
ROLLBACK;
SELECT count(*) FROM people;
