package catalog

import (
	"context"
	"fmt"
)

// migrations are applied in order; never edit one that has shipped, add a
// new one instead.
var migrations = []string{
	// 1: databases.
	`CREATE TABLE databases (
		id         INTEGER PRIMARY KEY,
		name       TEXT NOT NULL UNIQUE,
		created_at TEXT NOT NULL
	)`,
	// 2: versions — branches, snapshots and their parent edges, chunk maps, reader pins.
	`CREATE TABLE chunk_maps (
		root      TEXT PRIMARY KEY,          -- hex SHA-256 of the encoded map
		file_size INTEGER NOT NULL,
		chunks    BLOB NOT NULL              -- concatenated 32-byte block hashes, in file order
	);
	CREATE TABLE snapshots (
		database_id  INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		id           INTEGER NOT NULL,       -- 1, 2, 3 … per database
		name         TEXT,
		kind         TEXT NOT NULL CHECK (kind IN ('root', 'linear', 'merge')),
		branch       TEXT NOT NULL,          -- the branch it was taken on
		created_at   TEXT NOT NULL,
		content_root TEXT NOT NULL REFERENCES chunk_maps(root),
		total_bytes  INTEGER NOT NULL,
		new_bytes    INTEGER NOT NULL,
		provenance   TEXT NOT NULL,          -- JSON
		PRIMARY KEY (database_id, id),
		UNIQUE (database_id, name)
	);
	CREATE TABLE snapshot_parents (
		database_id INTEGER NOT NULL,
		snapshot_id INTEGER NOT NULL,
		ord         INTEGER NOT NULL,        -- 0 = the branch's own previous head
		parent_id   INTEGER NOT NULL,
		PRIMARY KEY (database_id, snapshot_id, ord),
		FOREIGN KEY (database_id, snapshot_id) REFERENCES snapshots(database_id, id) ON DELETE CASCADE,
		FOREIGN KEY (database_id, parent_id) REFERENCES snapshots(database_id, id)
	);
	CREATE TABLE branches (
		database_id  INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		name         TEXT NOT NULL,
		head         INTEGER,                -- NULL until the first snapshot
		live_file    TEXT NOT NULL,          -- path relative to the repository
		materialized INTEGER NOT NULL DEFAULT 0, -- 1 once live_file exists
		created_from TEXT NOT NULL DEFAULT '',
		created_at   TEXT NOT NULL,
		PRIMARY KEY (database_id, name),
		FOREIGN KEY (database_id, head) REFERENCES snapshots(database_id, id)
	);
	CREATE TABLE reader_pins (
		id          INTEGER PRIMARY KEY,
		database_id INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		snapshot_id INTEGER NOT NULL,
		holder      TEXT NOT NULL,
		created_at  TEXT NOT NULL
	);
	INSERT INTO branches (database_id, name, live_file, materialized, created_at)
		SELECT id, 'main', 'live/' || name || '/main.duckdb', 1, created_at FROM databases;`,
	// 3: durable merge requests.
	`CREATE TABLE merge_requests (
		database_id        INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		request_id         TEXT NOT NULL,
		operation_id       TEXT NOT NULL UNIQUE,
		arguments          TEXT NOT NULL,  -- canonical JSON of the call's arguments
		state              TEXT NOT NULL,  -- pending, complete, aborted
		merge_action       TEXT NOT NULL DEFAULT '',
		destination        TEXT NOT NULL DEFAULT '',
		base_snapshot_id   INTEGER NOT NULL DEFAULT 0,
		ours_snapshot_id   INTEGER NOT NULL DEFAULT 0,
		theirs_snapshot_id INTEGER NOT NULL DEFAULT 0,
		result_snapshot_id INTEGER NOT NULL DEFAULT 0,
		result             TEXT NOT NULL DEFAULT '',  -- JSON of the result row, replayed on retry
		last_error_code    TEXT NOT NULL DEFAULT '',
		last_error_hint    TEXT NOT NULL DEFAULT '',
		created_at         TEXT NOT NULL,
		updated_at         TEXT NOT NULL,
		PRIMARY KEY (database_id, request_id)
	)`,
	// 4: the decisions a request applied, kept as an audit.
	`CREATE TABLE merge_resolutions (
		database_id INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		request_id  TEXT NOT NULL,
		table_name  TEXT NOT NULL,
		key         TEXT NOT NULL,      -- JSON array of the key's values
		action      TEXT NOT NULL,      -- cells, ours, theirs, delete, custom
		columns     TEXT,               -- JSON object column → ours/theirs/custom, for cells
		source      TEXT NOT NULL,      -- table or strategy
		PRIMARY KEY (database_id, request_id, table_name, key)
	)`,
	// 5: S3 publication steps of a merge request (content root, token and
	// descriptor of its export; JSON, '' until the request is prepared).
	`ALTER TABLE merge_requests ADD COLUMN publication TEXT NOT NULL DEFAULT ''`,
	// 6: privileges — grants per database and branch pattern, protected branches.
	`CREATE TABLE grants (
		database_id    INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		user_name      TEXT NOT NULL,
		branch_pattern TEXT NOT NULL,  -- a glob over branch names; '*' is every branch
		privilege      TEXT NOT NULL CHECK (privilege IN ('read', 'write', 'merge', 'admin')),
		granted_by     TEXT NOT NULL,
		created_at     TEXT NOT NULL,
		PRIMARY KEY (database_id, user_name, branch_pattern)
	);
	CREATE TABLE protected_branches (
		database_id  INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		branch       TEXT NOT NULL,
		protected_by TEXT NOT NULL,
		created_at   TEXT NOT NULL,
		PRIMARY KEY (database_id, branch)
	)`,
	// 7: the typed form of a decision's key (a JSON list of the typed value
	// structs of conflict_details.key; '' for decisions recorded before).
	`ALTER TABLE merge_resolutions ADD COLUMN key_values TEXT NOT NULL DEFAULT ''`,
	// 8: deleted snapshots and retention. A deleted snapshot keeps its row
	// and parent edges (merge bases are found through it) but points at the
	// empty chunk map 'deleted', so its own map and blocks become garbage.
	`ALTER TABLE snapshots ADD COLUMN deleted_at TEXT;             -- NULL while the content is kept
	ALTER TABLE snapshots ADD COLUMN deleted_by TEXT NOT NULL DEFAULT '';   -- a login, or 'retention'
	ALTER TABLE snapshots ADD COLUMN deleted_name TEXT NOT NULL DEFAULT ''; -- the name it had (freed)
	ALTER TABLE snapshots ADD COLUMN deleted_root TEXT NOT NULL DEFAULT ''; -- the content root it had
	INSERT INTO chunk_maps (root, file_size, chunks) VALUES ('deleted', 0, x'') ON CONFLICT (root) DO NOTHING;
	CREATE TABLE retention (
		database_id         INTEGER PRIMARY KEY REFERENCES databases(id) ON DELETE CASCADE,
		keep_last           INTEGER NOT NULL DEFAULT 0, -- 0: no count rule
		keep_within_seconds INTEGER NOT NULL DEFAULT 0, -- 0: no age rule
		set_by              TEXT NOT NULL,
		set_at              TEXT NOT NULL
	)`,
	// 9: the lakehouse export (package lakehouse). lakehouse_tables has a
	// row per exported snapshot and table: the Iceberg snapshot that holds
	// the table as of that vsql snapshot (made by it, or inherited from
	// its parent when the table did not change), or the reason it was not
	// exported. lakehouse_snapshots marks snapshots whose export is
	// finished, with every table's row written in the same transaction.
	`CREATE TABLE lakehouses (
		database_id INTEGER PRIMARY KEY REFERENCES databases(id) ON DELETE CASCADE,
		url         TEXT NOT NULL,
		set_by      TEXT NOT NULL,
		set_at      TEXT NOT NULL
	);
	CREATE TABLE lakehouse_snapshots (
		database_id INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		snapshot_id INTEGER NOT NULL,
		exported_at TEXT NOT NULL,
		PRIMARY KEY (database_id, snapshot_id)
	);
	CREATE TABLE lakehouse_tables (
		database_id         INTEGER NOT NULL REFERENCES databases(id) ON DELETE CASCADE,
		snapshot_id         INTEGER NOT NULL,
		table_name          TEXT NOT NULL,
		iceberg_snapshot_id INTEGER NOT NULL DEFAULT 0, -- 0 when not exported
		made_here           INTEGER NOT NULL DEFAULT 0, -- 1: this vsql snapshot made the Iceberg snapshot
		schema_json         TEXT NOT NULL DEFAULT '',   -- the table's columns and key, as exported
		skipped             TEXT NOT NULL DEFAULT '',   -- why the table was not exported, if it was not
		PRIMARY KEY (database_id, snapshot_id, table_name)
	)`,
}

func (c *Catalog) migrate(ctx context.Context) error {
	if _, err := c.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	return c.Tx(ctx, func(tx *Tx) error {
		var version int
		if err := tx.tx.QueryRowContext(tx.ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&version); err != nil {
			return err
		}
		if version > len(migrations) {
			return fmt.Errorf("catalog schema version %d is newer than this vsqld knows (%d): upgrade vsqld", version, len(migrations))
		}
		for i := version; i < len(migrations); i++ {
			if _, err := tx.tx.ExecContext(tx.ctx, migrations[i]); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
			if _, err := tx.tx.ExecContext(tx.ctx, `INSERT INTO schema_version(version) VALUES (?)`, i+1); err != nil {
				return err
			}
		}
		return nil
	})
}
