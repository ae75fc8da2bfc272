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
}

func (c *Catalog) migrate(ctx context.Context) error {
	if _, err := c.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)`); err != nil {
		return err
	}
	return c.Tx(ctx, func(tx *Tx) error {
		var version int
		if err := tx.tx.QueryRowContext(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&version); err != nil {
			return err
		}
		if version > len(migrations) {
			return fmt.Errorf("catalog schema version %d is newer than this vsqld knows (%d): upgrade vsqld", version, len(migrations))
		}
		for i := version; i < len(migrations); i++ {
			if _, err := tx.tx.ExecContext(ctx, migrations[i]); err != nil {
				return fmt.Errorf("migration %d: %w", i+1, err)
			}
			if _, err := tx.tx.ExecContext(ctx, `INSERT INTO schema_version(version) VALUES (?)`, i+1); err != nil {
				return err
			}
		}
		return nil
	})
}
