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
	return TablesSignatures(query, alias, []string{tableName}, chunks)[tableName]
}

// TablesSignatures is ColumnSignatures for several tables of one attached
// version in one statement: per table, column → signature, or nil for a
// table with a segment that cannot be signed. A failed query signs no
// table.
func TablesSignatures(query func(q string, fn func(row []any) error) error, alias string, tables []string, chunks [][32]byte) map[string]map[string]string {
	var none *SignatureCache
	return none.Signatures(query, SignatureRequest{Alias: alias, Tables: tables, Chunks: chunks})[0]
}

// SignatureRequest asks for the signatures of tables of one attached
// version whose file has the chunk map Chunks. Image marks a snapshot
// image, whose signatures a SignatureCache may keep.
type SignatureRequest struct {
	Alias  string
	Tables []string
	Chunks [][32]byte
	Image  bool
}

// signatureRows reads the storage segments of the listed (request, table)
// pairs in one statement, a UNION ALL of their pragma_storage_info whose
// parts DuckDB runs on all its threads, and returns each pair's column →
// signature (nil when a segment cannot be signed, or the query failed).
func signatureRows(query func(q string, fn func(row []any) error) error, reqs []SignatureRequest, pairs [][2]int) []map[string]string {
	out := make([]map[string]string, len(pairs))
	if len(pairs) == 0 {
		return out
	}
	parts := make([]string, len(pairs))
	for p, pair := range pairs {
		r := reqs[pair[0]]
		parts[p] = fmt.Sprintf("SELECT %d::BIGINT AS p, column_id, column_name, column_path, row_group_id, segment_id, start, count, compression, block_id, block_offset, has_updates, persistent, stats "+
			"FROM pragma_storage_info(%s)", p, sqltext.QuoteString(sqltext.QuoteIdent(r.Alias)+".main."+sqltext.QuoteIdent(r.Tables[pair[1]])))
	}
	q := strings.Join(parts, " UNION ALL ") + " ORDER BY p, column_id, column_path, row_group_id, segment_id"
	sigs := make([]map[string]*strings.Builder, len(pairs))
	unsigned := make([]bool, len(pairs))
	err := query(q, func(row []any) error {
		n, ok := row[0].(int64)
		if !ok {
			return fmt.Errorf("signature query: part %T", row[0])
		}
		p := int(n)
		if p < 0 || p >= len(pairs) || unsigned[p] {
			return nil
		}
		chunks := reqs[pairs[p][0]].Chunks
		v := row[2:]
		updates, _ := v[9].(bool)
		persistent, _ := v[10].(bool)
		block, isInt := v[7].(int64)
		if updates || !persistent || !isInt || block+1 >= int64(len(chunks)) {
			unsigned[p] = true
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
		if sigs[p] == nil {
			sigs[p] = map[string]*strings.Builder{}
		}
		b := sigs[p][col]
		if b == nil {
			b = &strings.Builder{}
			sigs[p][col] = b
		}
		fmt.Fprintf(b, "%v/%v/%v/%v/%v/%v/%s/%v/%v;", v[1], v[2], v[3], v[4], v[5], v[6], hash, v[8], v[11])
		return nil
	})
	for p := range pairs {
		if err != nil || unsigned[p] || sigs[p] == nil {
			continue
		}
		cols := make(map[string]string, len(sigs[p]))
		for c, b := range sigs[p] {
			cols[c] = b.String()
		}
		out[p] = cols
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
	return c.Signatures(query, SignatureRequest{Alias: alias, Tables: []string{tableName}, Chunks: chunks, Image: true})[0][tableName]
}

// Signatures answers each request, per table, with column → signature
// (nil for an unsignable table), in one statement for everything the
// cache (nil: none) does not hold: a merge proves a table unchanged by
// its signatures in base, ours and theirs, and one statement per table
// and input cost as much as the rest of an unchanged table's share of the
// merge. Unsignable tables are not cached.
func (c *SignatureCache) Signatures(query func(q string, fn func(row []any) error) error, reqs ...SignatureRequest) []map[string]map[string]string {
	out := make([]map[string]map[string]string, len(reqs))
	keys := make([][32]byte, len(reqs))
	var pairs [][2]int
	for i, r := range reqs {
		out[i] = make(map[string]map[string]string, len(r.Tables))
		cached := c != nil && r.Image
		if cached {
			h := sha256.New()
			for _, chunk := range r.Chunks {
				h.Write(chunk[:])
			}
			h.Sum(keys[i][:0])
		}
		for j, name := range r.Tables {
			if cached {
				c.mu.Lock()
				sig, ok := c.entries[signatureKey{chunks: keys[i], table: name}]
				c.mu.Unlock()
				if ok {
					out[i][name] = sig
					continue
				}
			}
			pairs = append(pairs, [2]int{i, j})
		}
	}
	read := signatureRows(query, reqs, pairs)
	for p, pair := range pairs {
		r := reqs[pair[0]]
		name := r.Tables[pair[1]]
		sig := read[p]
		out[pair[0]][name] = sig
		if c == nil || !r.Image || sig == nil {
			continue
		}
		c.put(signatureKey{chunks: keys[pair[0]], table: name}, sig)
	}
	return out
}

// put keeps sig, dropping the oldest entry beyond the cache's size.
func (c *SignatureCache) put(key signatureKey, sig map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[key]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[key] = sig
	c.order = append(c.order, key)
}
