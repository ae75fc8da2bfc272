-- Several statements in one Query message (psql's \; sends them together):
-- each has its own result and tag; the first error stops the rest.
CREATE TABLE m (a integer PRIMARY KEY) \; INSERT INTO m VALUES (1), (2) \; SELECT count(*) FROM m;
SELECT 1 AS one \; SELECT 2 AS two \; SELECT 3 AS three;
INSERT INTO m VALUES (3) \; SELECT * FROM missing \; INSERT INTO m VALUES (4);
-- 3 was inserted, 4 was not
SELECT a FROM m ORDER BY a;
-- tags of the common statements
\set QUIET off
UPDATE m SET a = a + 10 WHERE a > 1;
DELETE FROM m WHERE a > 10;
INSERT INTO m VALUES (5) RETURNING a;
CREATE VIEW mv AS SELECT a FROM m;
DROP VIEW mv;
CREATE TABLE m2 AS SELECT * FROM m;
CREATE INDEX m2_a ON m2 (a);
DROP TABLE m2;
\set QUIET on
-- an empty query string
;
