package merge

import (
	"context"
	"strconv"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/sqlrows"
)

// ColumnSkipping enables the skipping of columns that cannot differ. It is
// on; benchmarks turn it off to measure the difference side by side.
var ColumnSkipping = true

// tablesSignatures returns, per input (base, ours, theirs), per table,
// column → signature (branches.SignatureCache.Signatures), nil for a
// table any segment of which cannot be signed. The Merger's cache keeps
// those of snapshot images; a live ours is read every time. What no
// cache holds is read in one statement.
func (s *session) tablesSignatures(ctx context.Context, tables []string) []map[string]map[string]string {
	query := func(q string, fn func([]any) error) error {
		return sqlrows.Of(s.conn.QueryContext(ctx, q))(fn)
	}
	return s.signatures.Signatures(query,
		branches.SignatureRequest{Alias: s.base.alias, Tables: tables, Chunks: s.chunks[0], Image: true},
		branches.SignatureRequest{Alias: s.ours.alias, Tables: tables, Chunks: s.chunks[1], Image: !s.oursLive},
		branches.SignatureRequest{Alias: s.theirs.alias, Tables: tables, Chunks: s.chunks[2], Image: true})
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
