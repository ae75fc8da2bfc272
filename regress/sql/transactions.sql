-- Transactions with PostgreSQL's rules on top of DuckDB's.
\set VERBOSITY verbose
CREATE TABLE acct (id integer PRIMARY KEY, balance integer NOT NULL);
BEGIN;
INSERT INTO acct VALUES (1, 100);
INSERT INTO acct VALUES (2, 50);
COMMIT;
SELECT * FROM acct ORDER BY id;
-- rollback discards the work
BEGIN;
UPDATE acct SET balance = 0;
SELECT sum(balance) FROM acct;
ROLLBACK;
SELECT sum(balance) FROM acct;
-- an error fails the transaction: everything but ROLLBACK is refused (25P02)
BEGIN;
UPDATE acct SET balance = balance - 10 WHERE id = 1;
INSERT INTO acct VALUES (1, 0);
SELECT 1;
UPDATE acct SET balance = 0;
-- COMMIT of a failed transaction rolls it back
COMMIT;
SELECT * FROM acct ORDER BY id;
-- warnings, not errors, as in PostgreSQL
COMMIT;
ROLLBACK;
BEGIN;
BEGIN;
END;
-- other spellings
START TRANSACTION;
INSERT INTO acct VALUES (3, 1);
ABORT;
SELECT count(*) FROM acct;
BEGIN ISOLATION LEVEL SERIALIZABLE;
INSERT INTO acct VALUES (3, 1);
COMMIT;
SELECT count(*) FROM acct;
-- savepoints are emulated: they name points; RELEASE, and ROLLBACK TO
-- a savepoint nothing ran after, succeed
SAVEPOINT outside;
BEGIN;
SAVEPOINT s1;
INSERT INTO acct VALUES (10, 10);
RELEASE SAVEPOINT s1;
SAVEPOINT s2;
ROLLBACK TO SAVEPOINT s2;
RELEASE s9;
ROLLBACK;
BEGIN;
INSERT INTO acct VALUES (11, 11);
SAVEPOINT s3;
INSERT INTO acct VALUES (12, 12);
-- ROLLBACK TO runs the statements before the savepoint again: 12 is undone, 11 kept
ROLLBACK TO s3;
SELECT id FROM acct WHERE id IN (10, 11, 12) ORDER BY id;
COMMIT;
SELECT count(*) AS only_11 FROM acct WHERE id IN (10, 11, 12);
-- before the savepoint, a statement that would not give the same result run
-- again (random()): refused, and the whole transaction fails
BEGIN;
INSERT INTO acct SELECT 13, (random() * 0)::int;
SAVEPOINT s4;
INSERT INTO acct VALUES (14, 14);
ROLLBACK TO s4;
SELECT 1;
COMMIT;
SELECT count(*) AS none_of_13_14 FROM acct WHERE id IN (13, 14);
