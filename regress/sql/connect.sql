-- Connecting: the session's database, a plain query, reconnecting.
SELECT 42 AS answer;
SELECT current_database();
CREATE TABLE visits (id integer PRIMARY KEY, who text);
INSERT INTO visits VALUES (1, 'ann'), (2, NULL);
SELECT * FROM visits ORDER BY id;
-- postgres always exists
\c postgres
SELECT current_database();
-- the table above lives in its own database, not here
SELECT * FROM visits;
\c regress_connect
SELECT count(*) FROM visits;
-- Failed connections (psql ends a script at a failed \c, so these run as
-- separate psql processes):
-- unknown databases fail as PostgreSQL does (3D000)
\! psql -X -q -d no_such_database -c 'SELECT 1' 2>&1
-- branch and snapshot dbnames are parsed, and not supported yet
\! psql -X -q -d regress_connect/dev -c 'SELECT 1' 2>&1
\! psql -X -q -d regress_connect@1 -c 'SELECT 1' 2>&1
\! psql -X -q -d regress_connect@baseline -c 'SELECT 1' 2>&1
-- and names that cannot be databases are refused before any look-up
\! psql -X -q -d 'bad!name' -c 'SELECT 1' 2>&1
\! psql -X -q -d 'x/' -c 'SELECT 1' 2>&1
SELECT 'still connected' AS status;
