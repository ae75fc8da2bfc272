package merge

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/vsqlerr"
)

func (m *Merger) inDB(ctx context.Context, db string, fn func(tx *catalog.Tx, d catalog.Database) error) error {
	return m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, db)
		if errors.Is(err, catalog.ErrNotFound) {
			return vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", db)
		}
		if err != nil {
			return err
		}
		return fn(tx, d)
	})
}

// Requests lists a database's merge requests (one, if requestID is set).
func (m *Merger) Requests(ctx context.Context, db, requestID string) ([]catalog.Request, error) {
	var out []catalog.Request
	err := m.inDB(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		if requestID != "" {
			r, err := tx.Request(ctx, d.ID, requestID)
			if errors.Is(err, catalog.ErrNotFound) {
				return nil
			}
			out = append(out, r)
			return err
		}
		var err error
		out, err = tx.Requests(ctx, d.ID)
		return err
	})
	return out, err
}

// Resolutions lists the decisions a request applied (its audit).
func (m *Merger) Resolutions(ctx context.Context, db, requestID string) ([]Resolution, error) {
	var rs []catalog.Resolution
	err := m.inDB(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		if _, err := tx.Request(ctx, d.ID, requestID); errors.Is(err, catalog.ErrNotFound) {
			return vsqlerr.New(vsqlerr.InvalidArgument, "no merge request %q in database %q", requestID, db)
		}
		var err error
		rs, err = tx.Resolutions(ctx, d.ID, requestID)
		return err
	})
	if err != nil || len(rs) == 0 {
		return nil, err
	}
	// The typed keys, back from their JSON in one query: a list per
	// decision (NULL for decisions recorded without them).
	lists := make([]string, len(rs))
	for i, r := range rs {
		lists[i] = r.KeyValues
		if lists[i] == "" {
			lists[i] = "null"
		}
	}
	var keys any
	q := `SELECT list_transform(from_json(?, '[[` + typedValueJSONSpec + `]]'), lambda k: list_transform(k, lambda v: struct_pack(
		type := v.type, is_null := v.is_null, text := v.text, boolean_value := v.boolean_value, integer_value := v.integer_value,
		double_value := v.double_value, varchar_value := v.varchar_value, blob_value := v.blob_value, date_value := v.date_value,
		timestamp_value := v.timestamp_value, timestamptz_value := v.timestamptz_value)))`
	if err := m.db.QueryRowContext(ctx, q, "["+strings.Join(lists, ",")+"]").Scan(&keys); err != nil {
		return nil, fmt.Errorf("read the typed keys of request %s: %w", requestID, err)
	}
	typed, _ := keys.([]any)
	for _, k := range typed {
		values, _ := k.([]any)
		for _, v := range values {
			if m, ok := v.(map[string]any); ok {
				if s, ok := m["blob_value"].(string); ok {
					m["blob_value"] = duckBlobText(s)
				}
			}
		}
	}
	out := make([]Resolution, len(rs))
	for i, r := range rs {
		out[i].Resolution = r
		if i < len(typed) {
			out[i].KeyValues = typed[i]
		}
	}
	return out, nil
}

// Resolution is one decision of a request's audit, with its key as typed
// values (conflict_details' form; nil for decisions recorded before vsql
// kept them).
type Resolution struct {
	catalog.Resolution
	KeyValues any
}

// typedValueJSONSpec is from_json's structure of one typed value (see
// typedValue); a blob travels as DuckDB's escaped text (duckBlobText).
const typedValueJSONSpec = `{"type":"VARCHAR","is_null":"BOOLEAN","text":"VARCHAR","boolean_value":"BOOLEAN","integer_value":"BIGINT",` +
	`"double_value":"DOUBLE","varchar_value":"VARCHAR","blob_value":"VARCHAR","date_value":"DATE","timestamp_value":"TIMESTAMP",` +
	`"timestamptz_value":"TIMESTAMPTZ"}`

// Abort makes the request with operationID terminal: a replay then fails
// with merge_aborted. A complete request cannot be aborted.
func (m *Merger) Abort(ctx context.Context, db, operationID string) (catalog.Request, error) {
	var out catalog.Request
	err := m.inDB(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		reqs, err := tx.Requests(ctx, d.ID)
		if err != nil {
			return err
		}
		for _, r := range reqs {
			if r.OperationID != operationID {
				continue
			}
			switch r.State {
			case "complete":
				return vsqlerr.New(vsqlerr.InvalidArgument, "merge request %q is complete and cannot be aborted", r.RequestID)
			case "aborted":
				out = r
				return nil
			case StateUploaded, StatePublicationUncertain:
				return vsqlerr.New(vsqlerr.PublicationPending, "merge request %q may have published: its S3 head write is not settled", r.RequestID)
			}
			r.State = "aborted"
			out = r
			return tx.PutRequest(ctx, r)
		}
		return vsqlerr.New(vsqlerr.InvalidArgument, "no merge operation %q in database %q", operationID, db)
	})
	return out, err
}

// duckBlobText reads the text DuckDB writes for a BLOB (to_json, a cast
// to VARCHAR): \xHH for each byte that is not printable ASCII or is a
// backslash or double quote, every other byte itself. It is read here, not
// by a cast back to BLOB: the engine's cast of text to bytea is
// PostgreSQL's (pgcompat.ParseBytea), which reads \x as hex for the
// whole value.
func duckBlobText(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			if b, err := hex.DecodeString(s[i+2 : i+4]); err == nil {
				out = append(out, b[0])
				i += 3
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}
