-- Versions over psql: snapshots, branches, isolation, time travel, diffs,
-- restore, and every refusal with its code.
\set VERBOSITY verbose
CREATE DATABASE retail;
\c retail
CREATE TABLE orders (id integer PRIMARY KEY, item text NOT NULL, qty integer);
INSERT INTO orders VALUES (1, 'pen', 1), (2, 'ink', 2), (3, 'pad', 3);
-- snapshot 1 is the root; everything in it is new, stored compressed
SELECT snapshot_id, branch_name, name, new_bytes BETWEEN 1 AND total_bytes - 1 AS compressed FROM vsql_create_snapshot('retail', name => 'baseline');
-- a branch is metadata only: created from main's head
SELECT * FROM vsql_create_branch('retail', 'cleanup', from => 'main');
SELECT branch_name, head_snapshot_id, dirty, sessions, created_from FROM vsql_branches('retail') ORDER BY branch_name;
-- edit main: it becomes dirty until snapshot 2
UPDATE orders SET qty = 10 WHERE id = 1;
SELECT branch_name, dirty FROM vsql_branches() ORDER BY branch_name;
SELECT snapshot_id, branch_name, name FROM vsql_create_snapshot();
-- the branch does not see main's edit
\c retail/cleanup
SELECT current_database();
SELECT * FROM orders ORDER BY id;
DELETE FROM orders WHERE id = 3;
INSERT INTO orders VALUES (4, 'clip', 4);
UPDATE orders SET item = 'blue ink' WHERE id = 2;
SELECT snapshot_id, branch_name FROM vsql_create_snapshot();
-- and main does not see the branch's edits
\c retail
SELECT * FROM orders ORDER BY id;
SELECT snapshot_id, name, parents, kind, branch_name, new_bytes <= total_bytes AS sizes_ok FROM vsql_snapshots('retail') ORDER BY snapshot_id;
-- time travel by dbname; snapshots are read-only (25006)
\c retail@1
SELECT * FROM orders ORDER BY id;
INSERT INTO orders VALUES (9, 'nine', 9);
\c retail@baseline
SELECT current_database(), count(*) FROM orders;
\c retail
-- three versions in one query, by qualified name
SELECT cur.id, cur.qty AS qty_now, base.qty AS qty_baseline, c.item AS item_cleanup
FROM orders cur JOIN "retail@1".orders base USING (id) LEFT JOIN "retail/cleanup".orders c USING (id)
ORDER BY cur.id;
-- diffs: by name, by id, between branches
SELECT table_name, key, change, before, after FROM vsql_diff('retail', 'baseline', 'cleanup');
SELECT table_name, key, change, before, after FROM vsql_diff('retail', 1, 2);
SELECT change, count(*) FROM vsql_diff('retail', 'main', 'cleanup', table => 'orders') GROUP BY change ORDER BY change;
-- table names read public as statements do
SELECT change, count(*) FROM vsql_diff('retail', 'main', 'cleanup', table => 'public.orders') GROUP BY change ORDER BY change;
-- restore refuses to discard unsnapshotted writes unless forced
UPDATE orders SET qty = 99;
SELECT * FROM vsql_restore('retail', 'main', snapshot => 1);
SELECT branch_name, snapshot_id, restored_snapshot_id FROM vsql_restore('retail', 'main', snapshot => 'baseline', force => true);
SELECT * FROM orders ORDER BY id;
SELECT snapshot_id, parents, kind, provenance FROM vsql_snapshots() WHERE snapshot_id = 4;
-- a snapshot of an unchanged branch stores no block
SELECT snapshot_id, name, new_bytes FROM vsql_create_snapshot(name => 'again');
-- refusals, each with its code; nothing is written
SELECT * FROM vsql_create_branch('retail', 'cleanup');
SELECT * FROM vsql_create_branch('retail', 'bad/name');
SELECT * FROM vsql_create_branch('retail', 'a..b');
SELECT * FROM vsql_create_branch('retail', 'has"quote');
SELECT * FROM vsql_create_branch('retail', E'tab\there');
SELECT * FROM vsql_create_branch('retail', repeat('x', 64));
SELECT * FROM vsql_create_branch('retail', '');
SELECT * FROM vsql_create_branch('retail', NULL);
SELECT * FROM vsql_create_branch('retail');
SELECT * FROM vsql_create_snapshot(name => '');
SELECT * FROM vsql_create_branch('retail', 'x', snapshot => 99);
SELECT * FROM vsql_create_branch('retail', 'x', from => 'nope');
SELECT * FROM vsql_create_branch('retail', 'x', snapshot => 1, from => 'main');
SELECT * FROM vsql_create_branch('nodb', 'x');
SELECT * FROM vsql_create_snapshot(name => 'baseline');
SELECT * FROM vsql_create_snapshot(name => 'x@y');
SELECT * FROM vsql_create_snapshot(branch => 'nope');
SELECT * FROM vsql_restore('retail', 'main', snapshot => 'nope');
SELECT * FROM vsql_delete_branch('retail', 'main');
SELECT * FROM vsql_diff('retail', 'baseline', 'nope');
SELECT branch_name, head_snapshot_id FROM vsql_branches() ORDER BY branch_name;
SELECT count(*) AS snapshots FROM vsql_snapshots();
-- delete: refused while a session is attached or while writes are unsnapshotted
SELECT * FROM vsql_create_branch('retail', 'scratch', snapshot => 2);
\c retail/scratch
\! psql -X -q -d retail -c "SELECT * FROM vsql_delete_branch('retail', 'scratch')" 2>&1
INSERT INTO orders VALUES (5, 'tape', 5);
\c retail
SELECT * FROM vsql_delete_branch('retail', 'scratch');
SELECT branch_name, head_snapshot_id, discarded_writes FROM vsql_delete_branch('retail', 'scratch', force => true);
SELECT branch_name FROM vsql_branches() ORDER BY branch_name;
-- functions that change versions do not run inside a transaction block
BEGIN;
SELECT * FROM vsql_create_snapshot();
ROLLBACK;
-- the internal functions are not callable
SELECT * FROM __vsql_snapshots('{}');
-- dbnames of versions that do not exist (3D000)
\! psql -X -q -d retail/nope -c 'SELECT 1' 2>&1
\! psql -X -q -d retail@77 -c 'SELECT 1' 2>&1
