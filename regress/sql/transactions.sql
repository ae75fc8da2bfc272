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
-- undoing a statement cannot be honoured: the whole transaction fails
ROLLBACK TO s3;
SELECT 1;
COMMIT;
SELECT count(*) AS none_of_11_12 FROM acct WHERE id IN (10, 11, 12);
