package server

import (
	"context"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/pgcatalog"
)

// setupPGCatalog creates vsql's PostgreSQL catalogs in the engine (once
// per process) and fills pg_database.
func (s *Server) setupPGCatalog(ctx context.Context) error {
	defaults := map[string]string{}
	for name, st := range settings {
		defaults[name] = st.def
	}
	if err := pgcatalog.Setup(ctx, engineExec{s.engine}.Exec, pgcatalog.Options{ServerVersion: ServerVersion, Settings: defaults}); err != nil {
		return err
	}
	return s.syncPGDatabases(ctx)
}

// syncPGDatabases makes pg_database list the repository's databases.
func (s *Server) syncPGDatabases(ctx context.Context) error {
	dbs := map[string]int64{}
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		list, err := tx.Databases(ctx)
		for _, d := range list {
			dbs[d.Name] = d.ID
		}
		return err
	})
	if err != nil {
		return err
	}
	return engineExec{s.engine}.Exec(ctx, pgcatalog.SyncDatabases(dbs))
}
