package merge

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/sqlrows"
)

// ColumnSkipping enables the skipping of columns that cannot differ. It is
// on; benchmarks turn it off to measure the difference side by side.
var ColumnSkipping = true

// columnSignatures returns column → signature for one table of one input
// (branches.ColumnSignatures), or nil when any segment cannot be signed.
// cache is the Merger's for snapshot images, nil for a live file.
func columnSignatures(ctx context.Context, conn *sql.Conn, cache *branches.SignatureCache, alias, tableName string, chunks [][32]byte) map[string]string {
	return cache.ImageSignatures(func(q string, fn func([]any) error) error {
		return sqlrows.Of(conn.QueryContext(ctx, q))(fn)
	}, alias, tableName, chunks)
}

// unchangedColumns reports the non-key columns of t whose values cannot
// differ between inputs x and y (by their signatures).
func unchangedColumns(t *table, x, y map[string]string) map[string]bool {
	if x == nil || y == nil || !ColumnSkipping {
		return nil
	}
	for _, k := range t.key {
		if x[k] == "" || x[k] != y[k] {
			return nil
		}
	}
	out := map[string]bool{}
	for _, c := range t.columns {
		if x[c.name] != "" && x[c.name] == y[c.name] {
			out[c.name] = true
		}
	}
	return out
}

// chunkMaps reads the chunk maps of the inputs' snapshots.
func (m *Merger) chunkMaps(ctx context.Context, db string, ids ...int64) ([][][32]byte, error) {
	out := make([][][32]byte, len(ids))
	err := m.inDB(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		for i, id := range ids {
			s, err := tx.Snapshot(ctx, d.ID, strconv.FormatInt(id, 10))
			if err != nil {
				return err
			}
			cm, err := tx.ChunkMap(ctx, s.ContentRoot)
			if err != nil {
				return err
			}
			out[i] = cm.Chunks
		}
		return nil
	})
	return out, err
}
