package server

import (
	"context"
	"fmt"
	"strings"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/pgcatalog"
	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/sqlfuncs"
	"github.com/vsql/vsql/sqltext"
)

// setupPGCatalog creates vsql's PostgreSQL catalogs in the engine (once
// per process) and fills pg_database.
func (s *Server) setupPGCatalog(ctx context.Context) error {
	defaults := map[string]string{}
	for name, st := range settings {
		defaults[name] = st.def
	}
	if err := pgcatalog.Setup(ctx, s.engineExec().Exec, pgcatalog.Options{ServerVersion: ServerVersion, Settings: defaults}); err != nil {
		return err
	}
	if err := pgcompat.Setup(ctx, s.engineExec().Exec); err != nil {
		return err
	}
	// The vsql_* functions: table macros created once per process, which
	// every session's bare calls reach through the rewrite.
	for _, q := range sqlfuncs.Macros(sqltext.PGCatalogSchema) {
		if err := s.engineExec().Exec(ctx, q); err != nil {
			return fmt.Errorf("create the vsql functions: %w", err)
		}
	}
	if err := s.syncPGDatabases(ctx); err != nil {
		return err
	}
	return s.syncPGAccess(ctx)
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
	return s.engineExec().Exec(ctx, pgcatalog.SyncDatabases(dbs))
}

// syncPGAccess makes pg_roles and the has_*_privilege functions answer
// from the users file, the grants and the protected branches. It runs
// after each change of grants and when a session starts with a users file
// that changed since the last run.
func (s *Server) syncPGAccess(ctx context.Context) error {
	users, err := s.users.Users()
	if err != nil {
		return err
	}
	var roles []pgcatalog.Role
	var sig strings.Builder
	for _, name := range users.Names() {
		roles = append(roles, pgcatalog.Role{Name: name, Role: string(users[name].Role)})
		fmt.Fprintf(&sig, "%s %s\n", name, users[name].Role)
	}
	var grants []pgcatalog.AccessGrant
	var protected []pgcatalog.Protected
	a := &s.access
	a.mu.RLock()
	for _, list := range a.grants {
		for _, g := range list {
			grants = append(grants, pgcatalog.AccessGrant{User: g.User, Database: g.Database, Pattern: g.Branches, Level: int(g.Privilege)})
		}
	}
	for db, set := range a.protected {
		for b := range set {
			protected = append(protected, pgcatalog.Protected{Database: db, Branch: b})
		}
	}
	a.mu.RUnlock()
	s.pgAccessMu.Lock()
	defer s.pgAccessMu.Unlock()
	if err := s.engineExec().Exec(ctx, pgcatalog.SyncAccess(roles, grants, protected)); err != nil {
		return fmt.Errorf("sync pg_roles: %w", err)
	}
	s.pgUsersSig = sig.String()
	return nil
}

// syncPGAccessIfUsersChanged runs syncPGAccess when the users file's
// names or roles changed since it last ran.
func (s *Server) syncPGAccessIfUsersChanged(ctx context.Context) {
	users, err := s.users.Users()
	if err != nil {
		return
	}
	var sig strings.Builder
	for _, name := range users.Names() {
		fmt.Fprintf(&sig, "%s %s\n", name, users[name].Role)
	}
	s.pgAccessMu.Lock()
	same := sig.String() == s.pgUsersSig
	s.pgAccessMu.Unlock()
	if !same {
		if err := s.syncPGAccess(ctx); err != nil {
			s.log.Warn("pg_roles not updated", "err", err)
		}
	}
}
