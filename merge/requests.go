package merge

import (
	"context"
	"errors"

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
func (m *Merger) Resolutions(ctx context.Context, db, requestID string) ([]catalog.Resolution, error) {
	var out []catalog.Resolution
	err := m.inDB(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
		if _, err := tx.Request(ctx, d.ID, requestID); errors.Is(err, catalog.ErrNotFound) {
			return vsqlerr.New(vsqlerr.InvalidArgument, "no merge request %q in database %q", requestID, db)
		}
		var err error
		out, err = tx.Resolutions(ctx, d.ID, requestID)
		return err
	})
	return out, err
}

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
