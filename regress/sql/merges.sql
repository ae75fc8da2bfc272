-- Merges: the first lifecycle of a cleanup branch merged back into main,
-- fast-forward, no-op, a new branch, ancestry, a criss-cross history.
\set VERBOSITY verbose
CREATE DATABASE shop;
\c shop
CREATE TABLE orders (
    order_id INTEGER PRIMARY KEY,
    customer VARCHAR,
    amount   DECIMAL(10, 2),
    status   VARCHAR
);
INSERT INTO orders VALUES
    (1, 'Ada', 40.00, 'paid'), (2, 'Lin', 60.00, 'paid'), (3, 'Jo', 25.00, 'open'),
    (4, 'Kim', NULL, 'open'), (5, 'Max', 15.00, 'paid');
SELECT snapshot_id FROM vsql_create_snapshot(name => 'baseline');
SELECT branch_name, head_snapshot_id FROM vsql_create_branch('shop', 'cleanup', snapshot => 1);
-- the cleanup: an update, a delete, a two-column update and an insert
\c shop/cleanup
UPDATE orders SET amount = 54.00 WHERE order_id = 2;
DELETE FROM orders WHERE order_id = 3;
UPDATE orders SET amount = 20.00, status = 'paid' WHERE order_id = 4;
INSERT INTO orders VALUES (6, 'Sam', 30.00, 'open');
SELECT snapshot_id FROM vsql_create_snapshot(name => 'cleanup_done');
-- meanwhile main inserts and updates
\c shop
INSERT INTO orders VALUES (7, 'Eve', 12.00, 'open');
UPDATE orders SET status = 'refunded' WHERE order_id = 1;
SELECT snapshot_id FROM vsql_create_snapshot(name => 'monday');
-- preview: base selected automatically, per-side counts, validated in staging
SELECT table_name, base_snapshot_id AS base, ours_snapshot_id AS ours, theirs_snapshot_id AS theirs,
       [ours_inserts, ours_updates, ours_deletes] AS ours_ins_upd_del,
       [theirs_inserts, theirs_updates, theirs_deletes] AS theirs_ins_upd_del,
       conflicts, validation_state
FROM vsql_merge_branch_preview('shop', 'main', 'cleanup', validate => true);
SELECT ready, merge_action, target_state, validation_state, base_snapshot_id, ours_snapshot_id, theirs_snapshot_id, issues
FROM vsql_merge_branch_preflight('shop', 'main', 'cleanup', 'main');
-- guards: reviewed ids that are no longer true refuse the merge
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('shop', 'main', 'cleanup', 'main',
    request_id => 'merge-cleanup', expected_base_snapshot_id => 1, expected_ours_snapshot_id => 2, expected_theirs_snapshot_id => 2);
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('shop', 'main', 'cleanup', 'main',
    request_id => 'merge-cleanup-reviewed', expected_base_snapshot_id => 1, expected_ours_snapshot_id => 3, expected_theirs_snapshot_id => 2);
SELECT * FROM orders ORDER BY order_id;
SELECT snapshot_id, parents, kind, provenance->>'algorithm' AS algorithm, provenance->'inputs'->'base'->>'snapshot_id' AS base
FROM vsql_snapshots() WHERE snapshot_id = 4;
-- the same request replays its result; other arguments under it are refused
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('shop', 'main', 'cleanup', 'main',
    request_id => 'merge-cleanup-reviewed', expected_base_snapshot_id => 1, expected_ours_snapshot_id => 3, expected_theirs_snapshot_id => 2);
SELECT * FROM vsql_merge_branch('shop', 'main', 'cleanup', 'main', request_id => 'merge-cleanup-reviewed');
-- fast-forward the branch to the merge, then nothing left to merge
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('shop', 'cleanup', 'main', 'cleanup', request_id => 'update-cleanup');
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('shop', 'main', 'cleanup', 'main', request_id => 'merge-again');
SELECT count(*) AS snapshots FROM vsql_snapshots();
-- the graph behind it
SELECT snapshot_id, kind, parents, reachable_from, candidate, selected_base, selection_state
FROM vsql_merge_ancestry('shop', 4, 2) ORDER BY snapshot_id;
-- a merge into a new branch leaves both inputs as they are
SELECT * FROM vsql_create_branch('shop', 'pricing');
\c shop/pricing
UPDATE orders SET amount = 18.00 WHERE order_id = 5;
SELECT snapshot_id FROM vsql_create_snapshot();
\c shop
UPDATE orders SET status = 'paid' WHERE order_id = 6;
SELECT snapshot_id FROM vsql_create_snapshot();
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('shop', 'main', 'pricing', 'review');
SELECT order_id, amount, status FROM "shop/review".orders WHERE order_id IN (5, 6) ORDER BY order_id;
SELECT order_id, amount, status FROM orders WHERE order_id IN (5, 6) ORDER BY order_id;
-- a dirty target is refused unless snapshot_target => true
UPDATE orders SET customer = 'Maxine' WHERE order_id = 5;
SELECT * FROM vsql_merge_branch('shop', 'main', 'pricing', 'main');
SELECT branch_name, merge_action FROM vsql_merge_branch('shop', 'main', 'pricing', 'main', snapshot_target => true);
SELECT order_id, customer, amount FROM orders WHERE order_id = 5;
-- merges need autocommit
BEGIN;
SELECT * FROM vsql_merge_branch('shop', 'main', 'pricing', 'main');
ROLLBACK;
-- a criss-cross history has two best common ancestors
CREATE DATABASE crisscross;
\c crisscross
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer VARCHAR, amount DECIMAL(10, 2), status VARCHAR);
INSERT INTO orders VALUES (1, 'Ada', 40.00, 'paid'), (2, 'Lin', 60.00, 'paid');
SELECT snapshot_id FROM vsql_create_snapshot();
SELECT branch_name FROM vsql_create_branch('crisscross', 'a', snapshot => 1);
SELECT branch_name FROM vsql_create_branch('crisscross', 'b', snapshot => 1);
\c crisscross/a
UPDATE orders SET status = 'refunded' WHERE order_id = 1;
SELECT snapshot_id FROM vsql_create_snapshot();
\c crisscross/b
UPDATE orders SET amount = 54.00 WHERE order_id = 2;
SELECT snapshot_id FROM vsql_create_snapshot();
\c crisscross
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('crisscross', 'a', 'b', 'ab');
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('crisscross', 'b', 'a', 'ba');
\c crisscross/ab
INSERT INTO orders VALUES (3, 'Jo', 25.00, 'open');
SELECT snapshot_id FROM vsql_create_snapshot();
\c crisscross/ba
INSERT INTO orders VALUES (4, 'Kim', 20.00, 'open');
SELECT snapshot_id FROM vsql_create_snapshot();
\c crisscross
SELECT * FROM vsql_merge_branch_preview('crisscross', 'ab', 'ba');
SELECT snapshot_id, kind, parents, reachable_from, candidate, selection_state
FROM vsql_merge_ancestry('crisscross', 6, 7) ORDER BY snapshot_id;
-- with an explicit base, into a new branch
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_snapshots('crisscross', 4, 6, 7, 'combined', request_id => 'combine-ab-ba');
SELECT * FROM "crisscross/combined".orders ORDER BY order_id;
SELECT snapshot_id, parents, kind FROM vsql_snapshots() WHERE snapshot_id = 8;
-- Scope: what merges cannot do is refused, naming the first offending
-- object, never skipped.
CREATE DATABASE scope;
\c scope
CREATE TABLE keyed (id INTEGER PRIMARY KEY, v INTEGER);
INSERT INTO keyed VALUES (1, 1);
SELECT snapshot_id FROM vsql_create_snapshot();
SELECT branch_name FROM vsql_create_branch('scope', 'dev');
\c scope/dev
ALTER TABLE keyed ADD COLUMN note VARCHAR;
SELECT snapshot_id FROM vsql_create_snapshot();
\c scope
SELECT * FROM vsql_merge_branch_preview('scope', 'main', 'dev');
SELECT ready, issues FROM vsql_merge_branch_preflight('scope', 'main', 'dev', 'main');
CREATE TABLE no_key (v INTEGER);
SELECT snapshot_id FROM vsql_create_snapshot();
SELECT * FROM vsql_merge_branch_preview('scope', 'main', 'dev');
DROP TABLE no_key;
CREATE TABLE docs (id INTEGER PRIMARY KEY, body JSON);
SELECT snapshot_id FROM vsql_create_snapshot();
SELECT * FROM vsql_merge_branch_preview('scope', 'main', 'dev');
DROP TABLE docs;
CREATE SEQUENCE seq;
SELECT snapshot_id FROM vsql_create_snapshot();
SELECT * FROM vsql_merge_branch_preview('scope', 'main', 'dev');
SELECT * FROM vsql_merge_branch('scope', 'main', 'dev', 'main', schema_mode => 'additive');
