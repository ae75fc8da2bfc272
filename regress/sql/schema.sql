-- Schema changes: strict refusal, an additive merge (a new nullable column
-- and a new table), a catalog merge (a removed table and a replaced view).
\set VERBOSITY verbose
CREATE DATABASE atelier;
\c atelier
CREATE TABLE orders (
    order_id INTEGER PRIMARY KEY,
    customer VARCHAR,
    amount   DECIMAL(10, 2),
    status   VARCHAR
);
INSERT INTO orders VALUES
    (1, 'Ada', 40.00, 'refunded'), (2, 'Lin', 54.00, 'paid'), (4, 'Kim', 20.00, 'open'),
    (5, 'Max', 17.00, 'paid'), (6, 'Sam', 33.00, 'open');
CREATE VIEW open_orders AS SELECT order_id, customer, amount FROM orders WHERE status = 'open';
CREATE TABLE import_log (batch_id INTEGER PRIMARY KEY, note VARCHAR);
SELECT snapshot_id FROM vsql_create_snapshot(name => 'reporting');
SELECT branch_name FROM vsql_create_branch('atelier', 'channels');
-- the channels branch adds a column and a new table
\c atelier/channels
ALTER TABLE orders ADD COLUMN channel VARCHAR;
UPDATE orders SET channel = 'web' WHERE order_id IN (1, 2, 4);
CREATE TABLE customers (customer VARCHAR PRIMARY KEY, country VARCHAR NOT NULL DEFAULT 'UK', CHECK (length(country) = 2));
INSERT INTO customers VALUES ('Ada', 'UK'), ('Lin', 'SG'), ('Max', 'DE');
SELECT snapshot_id FROM vsql_create_snapshot();
-- main takes a new order
\c atelier
INSERT INTO orders VALUES (8, 'Ada', 22.00, 'open');
SELECT snapshot_id FROM vsql_create_snapshot();
-- strict (the default) refuses, naming the object
SELECT * FROM vsql_merge_branch('atelier', 'main', 'channels', 'main');
-- additive: the preview shows the planned changes
SELECT object_type, object_name, schema_changes, table_action, conflicts, schema_conflicts, validation_state
FROM vsql_merge_branch_preview('atelier', 'main', 'channels', schema_mode => 'additive', validate => true)
ORDER BY object_type, object_name;
SELECT branch_name, snapshot_id, merge_action
FROM vsql_merge_branch('atelier', 'main', 'channels', 'main', schema_mode => 'additive', request_id => 'merge-channels');
-- order 8 came from main, which never had the column: NULL
SELECT * FROM orders ORDER BY order_id;
SELECT * FROM customers ORDER BY customer;
SELECT column_name, data_type, is_nullable, column_default FROM duckdb_columns() WHERE database_name = current_database() AND table_name = 'customers' ORDER BY column_index;
SELECT constraint_type, constraint_text FROM duckdb_constraints() WHERE database_name = current_database() AND table_name = 'customers' ORDER BY constraint_text;
SELECT snapshot_id, provenance->>'schema_mode' AS schema_mode FROM vsql_snapshots() ORDER BY snapshot_id DESC LIMIT 1;
-- catalog: a tidy branch drops the log table and replaces the view
SELECT branch_name FROM vsql_create_branch('atelier', 'tidy');
\c atelier/tidy
DROP TABLE import_log;
CREATE OR REPLACE VIEW open_orders AS SELECT order_id, customer, amount, channel FROM orders WHERE status = 'open';
SELECT snapshot_id FROM vsql_create_snapshot();
\c atelier
UPDATE orders SET channel = 'store' WHERE order_id = 8;
SELECT snapshot_id FROM vsql_create_snapshot();
-- additive refuses the removal; catalog plans it
SELECT * FROM vsql_merge_branch_preview('atelier', 'main', 'tidy', schema_mode => 'additive');
SELECT object_type, object_name, table_action, view_change.action AS view_action, view_change.source AS view_source,
       schema_conflicts, validation_state
FROM vsql_merge_branch_preview('atelier', 'main', 'tidy', schema_mode => 'catalog', validate => true)
ORDER BY object_type, object_name;
SELECT branch_name, snapshot_id, merge_action
FROM vsql_merge_branch('atelier', 'main', 'tidy', 'main', schema_mode => 'catalog', request_id => 'merge-tidy');
SELECT * FROM open_orders ORDER BY order_id;
SHOW TABLES;
