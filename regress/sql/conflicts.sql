-- Conflicts: typed by kind, resolved with a table of decisions or a side
-- strategy, audited, and requests that can be listed and aborted.
\set VERBOSITY verbose
CREATE DATABASE market;
CREATE DATABASE scratch;
\c market
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer VARCHAR, amount DECIMAL(10, 2), status VARCHAR);
INSERT INTO orders VALUES (5, 'Max', 15.00, 'paid'), (6, 'Sam', 30.00, 'open'), (7, 'Eve', 12.00, 'open');
SELECT snapshot_id FROM vsql_create_snapshot();
SELECT branch_name FROM vsql_create_branch('market', 'pricing');
-- pricing changes three prices
\c market/pricing
UPDATE orders SET amount = 18.00 WHERE order_id = 5;
UPDATE orders SET amount = 13.50 WHERE order_id = 7;
UPDATE orders SET amount = 33.00 WHERE order_id = 6;
SELECT snapshot_id FROM vsql_create_snapshot(name => 'new_prices');
-- main corrects order 5, cancels order 7 and marks order 6 paid
\c market
UPDATE orders SET amount = 16.50 WHERE order_id = 5;
DELETE FROM orders WHERE order_id = 7;
UPDATE orders SET status = 'paid' WHERE order_id = 6;
SELECT snapshot_id FROM vsql_create_snapshot(name => 'tuesday');
-- exactly two conflicts; order 6 (different columns) merges
SELECT c.key_json, c.kind, c.columns, c.base_present, c.ours_present, c.theirs_present, c.base_json, c.ours_json, c.theirs_json
FROM (SELECT unnest(conflict_details) AS c FROM vsql_merge_branch_preview('market', 'main', 'pricing'));
-- the same, typed: key values and cells with their types
SELECT c.key[1].integer_value AS order_id, c.key[1].type AS key_type, c.base['amount'].text AS base_amount,
       c.ours['amount'].text AS ours_amount, c.theirs['amount'].text AS theirs_amount, c.ours['amount'].type AS amount_type,
       c.ours['customer'].varchar_value AS customer, c.ours IS NULL AS ours_missing
FROM (SELECT unnest(conflict_details) AS c FROM vsql_merge_branch_preview('market', 'main', 'pricing'));
SELECT conflicts, resolved_conflicts, theirs_updates FROM vsql_merge_branch_preview('market', 'main', 'pricing');
-- without decisions the merge fails and publishes nothing
SELECT * FROM vsql_merge_branch('market', 'main', 'pricing', 'main', request_id => 'merge-pricing-unresolved');
SELECT head_snapshot_id FROM vsql_branches() WHERE branch_name = 'main';
-- a table of decisions: a custom amount for order 5, main's side for order 7
CREATE TABLE scratch.main.price_decisions (
    order_id INTEGER, customer VARCHAR, amount DECIMAL(10, 2), status VARCHAR,
    _merge_action VARCHAR, _merge_columns MAP(VARCHAR, VARCHAR));
INSERT INTO scratch.main.price_decisions VALUES
    (5, NULL, 17.00, NULL, 'cells', map {'amount': 'custom'}),
    (7, NULL, NULL, NULL, 'ours', NULL);
SELECT conflicts, resolved_conflicts, validation_state
FROM vsql_merge_branch_preview('market', 'main', 'pricing', validate => true,
     resolution_tables => map {'main.orders': 'scratch.main.price_decisions'});
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('market', 'main', 'pricing', 'main',
    request_id => 'merge-pricing', resolution_tables => map {'orders': 'scratch.public.price_decisions'});
SELECT * FROM orders ORDER BY order_id;
-- the audit of what was decided, its key typed as conflict_details' key
SELECT table_name, key[1].integer_value AS order_id, key[1].type AS key_type, key_json, action, columns, source FROM vsql_merge_resolutions('market', 'merge-pricing');
-- requests, failed ones too, with their codes
SELECT request_id, state, merge_action, destination, base_snapshot_id AS base, ours_snapshot_id AS ours,
       theirs_snapshot_id AS theirs, result_snapshot_id AS result, last_error_code
FROM vsql_merge_requests('market') ORDER BY created_at;
-- abort the stale request; replaying it is refused
SELECT operation_id AS stale FROM vsql_merge_requests('market', request_id => 'merge-pricing-unresolved') \gset
SELECT request_id, state FROM vsql_abort_merge('market', :'stale', request_id => 'abort-stale');
SELECT * FROM vsql_merge_branch('market', 'main', 'pricing', 'main', request_id => 'merge-pricing-unresolved');
SELECT request_id, state FROM vsql_merge_requests('market') ORDER BY created_at;
-- a completed request cannot be aborted
SELECT operation_id AS done FROM vsql_merge_requests('market', request_id => 'merge-pricing') \gset
SELECT * FROM vsql_abort_merge('market', :'done');
-- decisions are frozen: a retry after the table is dropped replays the same result
DROP TABLE scratch.main.price_decisions;
SELECT branch_name, snapshot_id, merge_action FROM vsql_merge_branch('market', 'main', 'pricing', 'main',
    request_id => 'merge-pricing', resolution_tables => map {'orders': 'scratch.public.price_decisions'});
-- bad decision tables are refused clearly
SELECT branch_name FROM vsql_create_branch('market', 'p2', snapshot => 'new_prices');
SELECT branch_name FROM vsql_create_branch('market', 'm2', snapshot => 'tuesday');
CREATE TABLE scratch.main.bad_key (order_id INTEGER, customer VARCHAR, amount DECIMAL(10, 2), status VARCHAR,
    _merge_action VARCHAR, _merge_columns MAP(VARCHAR, VARCHAR));
INSERT INTO scratch.main.bad_key VALUES (5, NULL, 17.00, NULL, 'cells', map {'amount': 'custom', 'order_id': 'custom'});
SELECT * FROM vsql_merge_branch_preview('market', 'm2', 'p2', resolution_tables => map {'orders': 'scratch.main.bad_key'});
CREATE TABLE scratch.main.too_few (order_id INTEGER, _merge_action VARCHAR, _merge_columns MAP(VARCHAR, VARCHAR));
SELECT * FROM vsql_merge_branch_preview('market', 'm2', 'p2', resolution_tables => map {'orders': 'scratch.main.too_few'});
CREATE TEMP TABLE tmp_decisions AS SELECT * FROM scratch.main.bad_key;
SELECT * FROM vsql_merge_branch_preview('market', 'm2', 'p2', resolution_tables => map {'orders': 'temp.main.tmp_decisions'});
DELETE FROM scratch.main.bad_key;
INSERT INTO scratch.main.bad_key VALUES (5, NULL, NULL, NULL, 'cells', map {'status': 'ours'});
SELECT * FROM vsql_merge_branch_preview('market', 'm2', 'p2', resolution_tables => map {'orders': 'scratch.main.bad_key'});
DELETE FROM scratch.main.bad_key;
INSERT INTO scratch.main.bad_key VALUES (6, NULL, NULL, NULL, 'ours', NULL);
SELECT * FROM vsql_merge_branch_preview('market', 'm2', 'p2', resolution_tables => map {'orders': 'scratch.main.bad_key'});
-- an incomplete set of decisions leaves the merge failing
DELETE FROM scratch.main.bad_key;
INSERT INTO scratch.main.bad_key VALUES (7, NULL, NULL, NULL, 'theirs', NULL);
SELECT conflicts, resolved_conflicts FROM vsql_merge_branch_preview('market', 'm2', 'p2', resolution_tables => map {'orders': 'scratch.main.bad_key'});
SELECT * FROM vsql_merge_branch('market', 'm2', 'p2', 'm2', resolution_tables => map {'orders': 'scratch.main.bad_key'});
-- side strategies: every conflict no table decided, explicitly
SELECT branch_name, merge_action FROM vsql_merge_branch('market', 'm2', 'p2', 'with_ours', conflict_strategy => 'ours', request_id => 'strategy-ours');
SELECT * FROM "market/with_ours".orders ORDER BY order_id;
SELECT table_name, key_json, action, columns, source FROM vsql_merge_resolutions('market', 'strategy-ours');
SELECT branch_name, merge_action FROM vsql_merge_branch('market', 'm2', 'p2', 'with_theirs', conflict_strategy => 'theirs',
    resolution_tables => map {'orders': 'scratch.main.bad_key'}, request_id => 'strategy-theirs');
SELECT * FROM "market/with_theirs".orders ORDER BY order_id;
SELECT table_name, key_json, action, columns, source FROM vsql_merge_resolutions('market', 'strategy-theirs');
SELECT * FROM vsql_merge_branch('market', 'm2', 'p2', 'x', conflict_strategy => 'mine');
