package branches

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"

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

// SignatureCache keeps the column signatures of snapshot images. An
// image's bytes are those of its chunk map, and a signature is read from
// the bytes alone, so the signatures of one table of one chunk map never
// change: a merge after its preview, a retried merge, or a merge whose
// base was the previous one's input reads them once (pragma_storage_info
// of three 1M-row inputs costs 7–30 ms). Only images may be cached: a
// live file changes under the same chunk map until its next snapshot. It
// holds at most max tables' signatures, dropping the oldest first; the
// maps it returns are shared and must not be modified.
type SignatureCache struct {
	mu      sync.Mutex
	max     int
	entries map[signatureKey]map[string]string
	order   []signatureKey
}

type signatureKey struct {
	chunks [32]byte // SHA-256 of the chunk map's hashes
	table  string
}

// NewSignatureCache returns a cache of at most max tables' signatures.
func NewSignatureCache(max int) *SignatureCache {
	return &SignatureCache{max: max, entries: map[signatureKey]map[string]string{}}
}

// ImageSignatures is ColumnSignatures for an attached snapshot image,
// through the cache (nil: no cache). Unsignable tables are not cached.
func (c *SignatureCache) ImageSignatures(query func(q string, fn func(row []any) error) error, alias, tableName string, chunks [][32]byte) map[string]string {
	if c == nil {
		return ColumnSignatures(query, alias, tableName, chunks)
	}
	h := sha256.New()
	for _, chunk := range chunks {
		h.Write(chunk[:])
	}
	key := signatureKey{table: tableName}
	h.Sum(key.chunks[:0])
	c.mu.Lock()
	sig, ok := c.entries[key]
	c.mu.Unlock()
	if ok {
		return sig
	}
	sig = ColumnSignatures(query, alias, tableName, chunks)
	if sig == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; !ok {
		if len(c.order) >= c.max {
			delete(c.entries, c.order[0])
			c.order = c.order[1:]
		}
		c.entries[key] = sig
		c.order = append(c.order, key)
	}
	return sig
}
