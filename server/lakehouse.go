package server

import (
	"context"
	"errors"
	"os"
	"sync"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/lakehouse"
	"github.com/vsql/vsql/vsqlerr"
)

// lakehouseS3 is the S3 configuration of warehouses on S3: the remotes'
// endpoint and the SDK's environment credentials.
func lakehouseS3(cfg Config) lakehouse.S3 {
	endpoint := cfg.S3Endpoint
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL_S3")
	}
	if endpoint == "" {
		endpoint = os.Getenv("AWS_ENDPOINT_URL")
	}
	return lakehouse.S3{Endpoint: endpoint, Region: os.Getenv("AWS_REGION"),
		AccessKey: os.Getenv("AWS_ACCESS_KEY_ID"), SecretKey: os.Getenv("AWS_SECRET_ACCESS_KEY")}
}

// startLakehouse runs the Iceberg export until the returned stop is called;
// stop cancels an export in progress (it resumes at the next start) and
// waits for it.
func (s *Server) startLakehouse() (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.lake.Run(ctx)
	}()
	return func() { cancel(); wg.Wait() }
}

// SetLakehouse implements vsql_set_lakehouse.
func (b backend) SetLakehouse(ctx context.Context, db, url, by string) (string, string, error) {
	d, err := b.s.databaseRow(ctx, db)
	if err != nil {
		return "", "", err
	}
	norm, err := b.s.lake.Set(ctx, db, d.ID, url, by)
	if err != nil || norm == "" {
		return norm, "", err
	}
	st, _, err := b.s.lake.Status(ctx, d.ID)
	if err != nil || len(st) == 0 {
		return norm, "", err
	}
	return norm, st[0].Catalog, nil
}

// LakehouseStatus implements vsql_lakehouse_status: no row when db has no
// lakehouse.
func (b backend) LakehouseStatus(ctx context.Context, db string) ([]lakehouse.TableStatus, error) {
	d, err := b.s.databaseRow(ctx, db)
	if err != nil {
		return nil, err
	}
	st, _, err := b.s.lake.Status(ctx, d.ID)
	return st, err
}

// LakehouseSnapshots implements vsql_lakehouse_snapshots.
func (b backend) LakehouseSnapshots(ctx context.Context, db string) ([]catalog.LakeTable, error) {
	d, err := b.s.databaseRow(ctx, db)
	if err != nil {
		return nil, err
	}
	var out []catalog.LakeTable
	err = b.s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		out, err = tx.LakeTables(ctx, d.ID, 0)
		return err
	})
	return out, err
}

// Restore records a snapshot, so it starts the export too.
func (b backend) Restore(ctx context.Context, db, branch, snapshotRef string, force bool) (branches.RestoreResult, error) {
	res, err := b.Manager.Restore(ctx, db, branch, snapshotRef, force)
	if err == nil {
		b.s.lake.Kick()
	}
	return res, err
}

// databaseRow reads a database's catalog row (database_not_found when it
// does not exist).
func (s *Server) databaseRow(ctx context.Context, db string) (catalog.Database, error) {
	var d catalog.Database
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		d, err = tx.Database(ctx, db)
		return err
	})
	if errors.Is(err, catalog.ErrNotFound) {
		return d, vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", db)
	}
	return d, err
}
