package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Request is the durable record of one merge call with a request_id.
type Request struct {
	DatabaseID  int64
	RequestID   string
	OperationID string
	Arguments   string
	State       string
	MergeAction string
	Destination string
	Base        int64
	Ours        int64
	Theirs      int64
	Result      int64
	ResultRow   string
	ErrorCode   string
	ErrorHint   string
	// Publication records the S3 publication steps (JSON; see merge).
	Publication string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

const requestCols = `database_id, request_id, operation_id, arguments, state, merge_action, destination, base_snapshot_id, ours_snapshot_id,
	theirs_snapshot_id, result_snapshot_id, result, last_error_code, last_error_hint, publication, created_at, updated_at`

func scanRequest(sc interface{ Scan(...any) error }) (Request, error) {
	var r Request
	var created, updated string
	err := sc.Scan(&r.DatabaseID, &r.RequestID, &r.OperationID, &r.Arguments, &r.State, &r.MergeAction, &r.Destination,
		&r.Base, &r.Ours, &r.Theirs, &r.Result, &r.ResultRow, &r.ErrorCode, &r.ErrorHint, &r.Publication, &created, &updated)
	r.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	r.UpdatedAt, _ = time.Parse(time.RFC3339Nano, updated)
	return r, err
}

// Request looks up a request (ErrNotFound if absent).
func (t *Tx) Request(ctx context.Context, dbID int64, requestID string) (Request, error) {
	r, err := scanRequest(t.tx.QueryRowContext(t.ctx, `SELECT `+requestCols+` FROM merge_requests WHERE database_id = ? AND request_id = ?`, dbID, requestID))
	if errors.Is(err, sql.ErrNoRows) {
		return r, fmt.Errorf("request %q: %w", requestID, ErrNotFound)
	}
	return r, err
}

// Requests lists a database's requests, oldest first.
func (t *Tx) Requests(ctx context.Context, dbID int64) ([]Request, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT `+requestCols+` FROM merge_requests WHERE database_id = ? ORDER BY created_at, request_id`, dbID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Request
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// DeleteRequest removes a request record and its decisions (a merge
// refused before it started leaves its request_id free).
func (t *Tx) DeleteRequest(ctx context.Context, dbID int64, requestID string) error {
	for _, q := range []string{`DELETE FROM merge_resolutions WHERE database_id = ? AND request_id = ?`,
		`DELETE FROM merge_requests WHERE database_id = ? AND request_id = ?`} {
		if _, err := t.tx.ExecContext(t.ctx, q, dbID, requestID); err != nil {
			return fmt.Errorf("forget request %q: %w", requestID, err)
		}
	}
	return nil
}

// PutRequest inserts or replaces a request record.
func (t *Tx) PutRequest(ctx context.Context, r Request) error {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	created := r.CreatedAt.UTC().Format(time.RFC3339Nano)
	if r.CreatedAt.IsZero() {
		created = now
	}
	_, err := t.tx.ExecContext(t.ctx, `INSERT INTO merge_requests (`+requestCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (database_id, request_id) DO UPDATE SET state = excluded.state, merge_action = excluded.merge_action,
		destination = excluded.destination, base_snapshot_id = excluded.base_snapshot_id, ours_snapshot_id = excluded.ours_snapshot_id,
		theirs_snapshot_id = excluded.theirs_snapshot_id, result_snapshot_id = excluded.result_snapshot_id, result = excluded.result,
		last_error_code = excluded.last_error_code, last_error_hint = excluded.last_error_hint, publication = excluded.publication,
		updated_at = excluded.updated_at`,
		r.DatabaseID, r.RequestID, r.OperationID, r.Arguments, r.State, r.MergeAction, r.Destination, r.Base, r.Ours, r.Theirs,
		r.Result, r.ResultRow, r.ErrorCode, r.ErrorHint, r.Publication, created, now)
	if err != nil {
		return fmt.Errorf("record request %q: %w", r.RequestID, err)
	}
	return nil
}

// Resolution is one decision a request applied.
type Resolution struct {
	Table, Key, Action, Columns, Source string
	// KeyValues is the key as a JSON list of typed values (conflict
	// details' form); "" for decisions recorded before vsql kept it.
	KeyValues string
}

// PutResolutions replaces the audit of a request's decisions.
func (t *Tx) PutResolutions(ctx context.Context, dbID int64, requestID string, rs []Resolution) error {
	if _, err := t.tx.ExecContext(t.ctx, `DELETE FROM merge_resolutions WHERE database_id = ? AND request_id = ?`, dbID, requestID); err != nil {
		return err
	}
	for _, r := range rs {
		var cols any
		if r.Columns != "" {
			cols = r.Columns
		}
		if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO merge_resolutions (database_id, request_id, table_name, key, action, columns, source, key_values) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			dbID, requestID, r.Table, r.Key, r.Action, cols, r.Source, r.KeyValues); err != nil {
			return fmt.Errorf("record resolution: %w", err)
		}
	}
	return nil
}

// Resolutions lists a request's decisions by table and key.
func (t *Tx) Resolutions(ctx context.Context, dbID int64, requestID string) ([]Resolution, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT table_name, key, action, coalesce(columns, ''), source, key_values FROM merge_resolutions
		WHERE database_id = ? AND request_id = ? ORDER BY table_name, key`, dbID, requestID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Resolution
	for rows.Next() {
		var r Resolution
		if err := rows.Scan(&r.Table, &r.Key, &r.Action, &r.Columns, &r.Source, &r.KeyValues); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// InterruptRunningRequests marks requests left running by a stopped process
// as pending, with the error code interrupted.
func (t *Tx) InterruptRunningRequests(ctx context.Context) error {
	_, err := t.tx.ExecContext(t.ctx, `UPDATE merge_requests SET state = 'pending', last_error_code = 'interrupted',
		last_error_hint = 'The server stopped during this merge; retry the same request_id to finish it.' WHERE state = 'running'`)
	return err
}
