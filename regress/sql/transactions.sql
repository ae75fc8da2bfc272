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
-- savepoints are refused clearly, and fail the transaction
BEGIN;
SAVEPOINT s1;
ROLLBACK;
