package branches

import (
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// Column signatures let a merge or the lakehouse export skip comparing columns that
// cannot differ.
//
// A signature lists every storage segment of a column in one input: row
// group, segment, first row, row count, compression, offset, statistics,
// and the content hash of the 256 KiB block holding it (from the snapshot's
// chunk map; constant segments have no block, their value is in the
// statistics). Two
// inputs with equal signatures for a column and for every key column store
// the same values at the same row positions, so for every key present in
// both the column's values are equal: comparing them cannot find a change.
// Anything uncertain (segments with in-memory updates, non-persistent
// segments, a block outside the chunk map) yields no signature, and the
// column is compared.

// ColumnSignatures returns column → signature for one table of an
// attached version whose file has the given chunk map (query runs SQL on
// the engine), or nil when any segment cannot be signed.
func ColumnSignatures(query func(q string, fn func(row []any) error) error, alias, tableName string, chunks [][32]byte) map[string]string {
	q := "SELECT column_name, column_path, row_group_id, segment_id, start, count, compression, block_id, block_offset, has_updates, persistent, stats " +
		"FROM pragma_storage_info(" + sqltext.QuoteString(sqltext.QuoteIdent(alias)+".main."+sqltext.QuoteIdent(tableName)) + ") " +
		"ORDER BY column_id, column_path, row_group_id, segment_id"
	sigs := map[string]*strings.Builder{}
	ok := true
	err := query(q, func(v []any) error {
		updates, _ := v[9].(bool)
		persistent, _ := v[10].(bool)
		block, isInt := v[7].(int64)
		if updates || !persistent || !isInt || block+1 >= int64(len(chunks)) {
			ok = false
			return nil
		}
		// Constant segments have no block (block_id -1): their value is in
		// the segment's statistics, which are part of the signature.
		hash := "constant"
		if block >= 0 {
			h := chunks[block+1]
			hash = hex.EncodeToString(h[:])
		}
		col := fmt.Sprint(v[0])
		b := sigs[col]
		if b == nil {
			b = &strings.Builder{}
			sigs[col] = b
		}
		fmt.Fprintf(b, "%v/%v/%v/%v/%v/%v/%s/%v/%v;", v[1], v[2], v[3], v[4], v[5], v[6], hash, v[8], v[11])
		return nil
	})
	if err != nil || !ok {
		return nil
	}
	out := make(map[string]string, len(sigs))
	for c, b := range sigs {
		out[c] = b.String()
	}
	return out
}
