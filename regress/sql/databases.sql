-- CREATE DATABASE and DROP DATABASE.
\set VERBOSITY verbose
CREATE DATABASE shop;
CREATE DATABASE shop;
CREATE DATABASE "Bad/Name";
CREATE DATABASE shop2 WITH OWNER = someone;
\c shop
SELECT current_database();
CREATE TABLE items (id integer PRIMARY KEY, name text);
INSERT INTO items VALUES (1, 'pen');
-- the database in use cannot be dropped
DROP DATABASE shop;
\c regress_databases
-- not inside a transaction block
BEGIN;
CREATE DATABASE shop3;
ROLLBACK;
-- while this session uses shop, another session cannot drop it (55006)
\c shop
\! psql -X -q -d regress_databases -c 'DROP DATABASE shop' 2>&1
\c regress_databases
DROP DATABASE shop;
DROP DATABASE shop;
DROP DATABASE IF EXISTS shop;
-- a dropped database is gone; a new one of the same name starts empty
CREATE DATABASE shop;
\c shop
SELECT * FROM items;
\c regress_databases
DROP DATABASE shop;
\! psql -X -q -d shop -c 'SELECT 1' 2>&1
