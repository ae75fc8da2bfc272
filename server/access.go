package server

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/sqlfuncs"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// accessRules are the catalog's grants and protected branches, kept in
// memory: every statement's check reads them, and only this process
// changes them (each change reloads them from the catalog).
type accessRules struct {
	mu        sync.RWMutex
	grants    map[string][]catalog.Grant // by database
	protected map[string]map[string]bool // database → branch
	databases map[string]string          // lower-case name → name
}

// loadAccess reads grants, protected branches and database names from the
// catalog.
func (s *Server) loadAccess(ctx context.Context) error {
	var grants []catalog.Grant
	var protected []catalog.ProtectedBranch
	var dbs []catalog.Database
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		if grants, err = tx.Grants(ctx); err != nil {
			return err
		}
		if protected, err = tx.ProtectedBranches(ctx); err != nil {
			return err
		}
		dbs, err = tx.Databases(ctx)
		return err
	})
	if err != nil {
		return fmt.Errorf("load privileges: %w", err)
	}
	a := &s.access
	a.mu.Lock()
	defer a.mu.Unlock()
	a.grants = map[string][]catalog.Grant{}
	for _, g := range grants {
		a.grants[g.Database] = append(a.grants[g.Database], g)
	}
	a.protected = map[string]map[string]bool{}
	for _, p := range protected {
		if a.protected[p.Database] == nil {
			a.protected[p.Database] = map[string]bool{}
		}
		a.protected[p.Database][p.Branch] = true
	}
	a.databases = map[string]string{}
	for _, d := range dbs {
		a.databases[strings.ToLower(d.Name)] = d.Name
	}
	return nil
}

// reloadAccess is loadAccess after a change; a failure is logged (the
// change is in the catalog and the next reload picks it up).
func (s *Server) reloadAccess(ctx context.Context) {
	ctx = context.WithoutCancel(ctx)
	if err := s.loadAccess(ctx); err != nil {
		s.log.Error("reload privileges", "err", err)
	}
	if err := s.syncPGAccess(ctx); err != nil {
		s.log.Warn("pg_roles not updated", "err", err)
	}
}

// privilege is what user (with role) may do on a branch of db; branch ""
// asks for the best privilege on any branch of db.
func (s *Server) privilege(user string, role auth.Role, db, branch string) catalog.Privilege {
	if role == auth.RoleAdmin {
		return catalog.Admin
	}
	a := &s.access
	a.mu.RLock()
	best := catalog.NoPrivilege
	for _, g := range a.grants[db] {
		if g.User == user && g.Privilege > best && (branch == "" || catalog.MatchBranch(g.Branches, branch)) {
			best = g.Privilege
		}
	}
	a.mu.RUnlock()
	if role == auth.RoleRead && best > catalog.Read {
		best = catalog.Read
	}
	return best
}

// databaseAdmin reports whether user administers db: the admin role, or an
// admin grant on every branch of it.
func (s *Server) databaseAdmin(user string, role auth.Role, db string) bool {
	if role == auth.RoleAdmin {
		return true
	}
	if role == auth.RoleRead {
		return false
	}
	a := &s.access
	a.mu.RLock()
	defer a.mu.RUnlock()
	for _, g := range a.grants[db] {
		if g.User == user && g.Branches == catalog.AllBranches && g.Privilege == catalog.Admin {
			return true
		}
	}
	return false
}

// isProtected reports whether a branch of db is protected.
func (s *Server) isProtected(db, branch string) bool {
	a := &s.access
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.protected[db][branch]
}

// databaseNamed returns the database whose name equals name without regard
// to case (DuckDB's catalog names are case-insensitive), or "".
func (s *Server) databaseNamed(name string) string {
	a := &s.access
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.databases[strings.ToLower(name)]
}

// snapshotBranch is the branch a snapshot of db was taken on.
func (s *Server) snapshotBranch(ctx context.Context, db, ref string) (string, error) {
	var branch string
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, db)
		if err != nil {
			return err
		}
		snap, err := tx.Snapshot(ctx, d.ID, ref)
		if err != nil {
			return err
		}
		branch = snap.Branch
		return nil
	})
	return branch, err
}

// access is one version a statement reaches, and what it needs there.
type accessNeed struct {
	db, branch string // branch "" with snapshot set: a snapshot
	snapshot   string
	need       catalog.Privilege
	// direct: a change other than a merge or snapshot (refused on
	// protected branches, to everyone).
	direct bool
}

func (n accessNeed) String() string {
	switch {
	case n.snapshot != "":
		return fmt.Sprintf("%s@%s", n.db, n.snapshot)
	case n.branch == "":
		return n.db
	}
	return n.db + "/" + n.branch
}

// principal is who a session acts as: its login and that login's role.
type principal struct {
	user string
	role auth.Role
}

// permissionDenied is the refusal of need on what.
func (s principal) permissionDenied(what accessNeed, has catalog.Privilege) *vsqlerr.Error {
	scope := fmt.Sprintf("branch %q of database %q", what.branch, what.db)
	switch {
	case what.snapshot != "":
		scope = fmt.Sprintf("snapshot %s of database %q", what.snapshot, what.db)
	case what.branch == "":
		scope = fmt.Sprintf("database %q", what.db)
	}
	if s.role == auth.RoleRead && what.need > catalog.Read {
		return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied for %s: user %q has the read role, which never writes (needs %s)", scope, s.user, what.need).
			WithHint("Read users only read. An admin can change the role: vsqld user add %s --replace --role write.", s.user)
	}
	return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied for %s: user %q has %s, needs %s", scope, s.user, has, what.need).
		WithHint("An admin of the database can grant it: SELECT * FROM vsql_grant('%s', '%s', '%s'%s).", what.db, s.user, what.need, grantBranchArg(what.branch))
}

func grantBranchArg(branch string) string {
	if branch == "" {
		return ""
	}
	return ", branch => '" + branch + "'"
}

// check refuses what p may not do: a privilege it lacks, or a write to a
// protected branch (refused to everyone).
func (srv *Server) check(ctx context.Context, p principal, n accessNeed) error {
	branch := n.branch
	if n.snapshot != "" {
		if p.role == auth.RoleAdmin {
			return nil
		}
		b, err := srv.snapshotBranch(ctx, n.db, n.snapshot)
		if err != nil {
			if errors.Is(err, catalog.ErrNotFound) {
				return nil // the statement fails on its own, as for an admin
			}
			return err
		}
		branch = b
	}
	if n.direct && n.snapshot == "" && branch != "" && srv.isProtected(n.db, branch) {
		return vsqlerr.New(vsqlerr.BranchProtected, "branch %q of database %q is protected: it changes only by merges", branch, n.db)
	}
	if has := srv.privilege(p.user, p.role, n.db, branch); has < n.need {
		return p.permissionDenied(n, has)
	}
	return nil
}

// checkAll runs check on each need, as the session's login.
func (s *Session) checkAll(ctx context.Context, needs []accessNeed) error {
	for _, n := range needs {
		if err := s.srv.check(ctx, s.principal, n); err != nil {
			return err
		}
	}
	return nil
}

// targetNeed is what a session needs on the version it is connected to.
func targetNeed(t Target, need catalog.Privilege) accessNeed {
	branch := t.Branch
	if branch == "" && t.Snapshot == "" {
		branch = "main"
	}
	return accessNeed{db: t.Database, branch: branch, snapshot: t.Snapshot, need: need}
}

// statementNeeds lists the versions a statement reaches: the session's
// own, every quoted "db/branch" or "db@n" catalog, and every bare name
// used as a qualifier that names a database (its main branch). A writing
// statement needs write on every branch it names — vsql does not tell the
// written table from the read ones — and read on snapshots (DuckDB refuses
// writes to them anyway).
func (s *Session) statementNeeds(scan sqltext.Scan, writes bool) []accessNeed {
	need := catalog.Read
	if writes {
		need = catalog.Write
	}
	own := targetNeed(s.target, need)
	own.direct = writes
	if s.target.Snapshot != "" {
		own.need = catalog.Read
	}
	needs := []accessNeed{own}
	seen := map[string]bool{own.String(): true}
	add := func(n accessNeed) {
		if !seen[n.String()] {
			seen[n.String()] = true
			needs = append(needs, n)
		}
	}
	for _, alias := range scan.Catalogs {
		db, branch, snapshot, ok := branches.ParseAlias(alias)
		if !ok {
			continue
		}
		if snapshot != "" {
			add(accessNeed{db: db, snapshot: snapshot, need: catalog.Read})
		} else {
			add(accessNeed{db: db, branch: branch, need: need, direct: writes})
		}
	}
	for _, q := range scan.Qualifiers {
		if db := s.srv.databaseNamed(q); db != "" {
			add(accessNeed{db: db, branch: "main", need: need, direct: writes})
		}
	}
	sort.SliceStable(needs[1:], func(i, j int) bool { return needs[1+i].String() < needs[1+j].String() })
	return needs
}

// writesData reports whether a prepared statement changes a database:
// DuckDB's own classification, with SQL-level PREPARE and EXECUTE counted
// as writes (their inner statement is not classified) and CREATE TEMP
// objects not (they live in the session's temp catalog).
func writesData(t duckdb.StmtType, st sqltext.Statement) bool {
	switch t {
	case duckdb.STATEMENT_TYPE_EXPLAIN:
		return st.Keyword(1) == "ANALYZE" // EXPLAIN ANALYZE runs the statement
	case duckdb.STATEMENT_TYPE_SELECT, duckdb.STATEMENT_TYPE_TRANSACTION, duckdb.STATEMENT_TYPE_RELATION,
		duckdb.STATEMENT_TYPE_VARIABLE_SET, duckdb.STATEMENT_TYPE_SET, duckdb.STATEMENT_TYPE_PRAGMA,
		duckdb.STATEMENT_TYPE_CALL, duckdb.STATEMENT_TYPE_ANALYZE:
		return false
	case duckdb.STATEMENT_TYPE_CREATE, duckdb.STATEMENT_TYPE_CREATE_FUNC:
		return !createsTemp(st)
	}
	return true
}

// createsTemp reports CREATE [OR REPLACE] TEMP|TEMPORARY ….
func createsTemp(st sqltext.Statement) bool {
	i := 1
	if st.Keyword(1) == "OR" && st.Keyword(2) == "REPLACE" {
		i = 3
	}
	k := st.Keyword(i)
	return k == "TEMP" || k == "TEMPORARY"
}

// User implements sqlfuncs.Authorizer.
func (s *Session) User() string { return s.user }

// Require implements sqlfuncs.Authorizer.
func (s *Session) Require(ctx context.Context, n sqlfuncs.Need) error {
	need := accessNeed{db: n.DB, branch: n.Branch, need: n.Privilege, direct: n.Direct}
	switch {
	case n.Catalog != "":
		db, branch, snapshot, ok := branches.ParseAlias(n.Catalog)
		if !ok || s.srv.databaseNamed(db) == "" {
			return nil // a schema of the session's database, or nothing vsql attaches
		}
		need = accessNeed{db: s.srv.databaseNamed(db), branch: branch, snapshot: snapshot, need: n.Privilege}
	case n.Ref != "":
		// A branch if one has that name, else a snapshot.
		if s.srv.branchExists(ctx, n.DB, n.Ref) {
			need.branch = n.Ref
		} else {
			need.snapshot = n.Ref
		}
	}
	return s.srv.check(ctx, s.principal, need)
}

// RequireDatabaseAdmin implements sqlfuncs.Authorizer.
func (s *Session) RequireDatabaseAdmin(db string) error {
	if s.IsDatabaseAdmin(db) {
		return nil
	}
	return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: only an admin of database %q may manage its privileges and protected branches", db).
		WithHint("Ask a server admin, or the database's admin (a grant of admin on branch pattern '*'), to do it.")
}

// IsDatabaseAdmin implements sqlfuncs.Authorizer.
func (s *Session) IsDatabaseAdmin(db string) bool { return s.srv.databaseAdmin(s.user, s.role, db) }

// RequireAdminRole implements sqlfuncs.Authorizer.
func (s *Session) RequireAdminRole(what string) error {
	if s.admin() {
		return nil
	}
	return vsqlerr.New(vsqlerr.PermissionDenied, "permission denied: %s is for the admin role (it acts with the server's own credentials and settings)", what).
		WithHint("Ask an admin to run it; vsqld user list shows the roles.")
}

// CanRead implements sqlfuncs.Authorizer.
func (s *Session) CanRead(db, branch string) bool {
	return s.srv.privilege(s.user, s.role, db, branch) >= catalog.Read
}

// IsProtected implements sqlfuncs.Authorizer.
func (s *Session) IsProtected(db, branch string) bool { return s.srv.isProtected(db, branch) }

// Grant implements sqlfuncs.Backend.
func (b backend) Grant(ctx context.Context, by, db, user string, p catalog.Privilege, pattern string) error {
	s := b.s
	users, err := s.users.Users()
	if err != nil {
		return vsqlerr.Wrap(err, vsqlerr.UsersFileInvalid, "users file: %v", err)
	}
	if _, ok := users[user]; !ok {
		return vsqlerr.New(vsqlerr.UserNotFound, "user %q does not exist", user).
			WithHint("Add the user on the server first: vsqld user add %s --role write --password-stdin.", user)
	}
	err = s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, db)
		if err != nil {
			return err
		}
		return tx.PutGrant(ctx, d.ID, catalog.Grant{User: user, Branches: pattern, Privilege: p, GrantedBy: by})
	})
	if err != nil {
		return databaseErr(db, err)
	}
	s.reloadAccess(ctx)
	s.log.Info("grant", "database", db, "user", user, "privilege", p.String(), "branches", pattern, "by", by)
	return nil
}

// Revoke implements sqlfuncs.Backend: the grant on the pattern keeps what
// is below p (revoking write leaves read), or goes.
func (b backend) Revoke(ctx context.Context, db, user string, p catalog.Privilege, pattern string) (catalog.Privilege, error) {
	s := b.s
	left := catalog.NoPrivilege
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, db)
		if err != nil {
			return err
		}
		grants, err := tx.Grants(ctx)
		if err != nil {
			return err
		}
		for _, g := range grants {
			if g.Database != db || g.User != user || g.Branches != pattern {
				continue
			}
			left = g.Privilege
			if g.Privilege < p {
				return nil // nothing at or above p to take
			}
			left = p - 1
			if left == catalog.NoPrivilege {
				_, err = tx.DeleteGrant(ctx, d.ID, user, pattern)
				return err
			}
			g.Privilege = left
			return tx.PutGrant(ctx, d.ID, g)
		}
		return nil
	})
	if err != nil {
		return 0, databaseErr(db, err)
	}
	s.reloadAccess(ctx)
	return left, nil
}

// Grants implements sqlfuncs.Backend.
func (b backend) Grants(ctx context.Context, db string) ([]sqlfuncs.GrantInfo, error) {
	s := b.s
	users, _ := s.users.Users()
	var out []sqlfuncs.GrantInfo
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		if _, err := tx.Database(ctx, db); err != nil {
			return err
		}
		grants, err := tx.Grants(ctx)
		for _, g := range grants {
			if g.Database == db {
				out = append(out, sqlfuncs.GrantInfo{Grant: g, Role: string(users[g.User].Role)})
			}
		}
		return err
	})
	return out, databaseErr(db, err)
}

// SetBranchProtection implements sqlfuncs.Backend.
func (b backend) SetBranchProtection(ctx context.Context, by, db, branch string, protected bool) error {
	s := b.s
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, db)
		if err != nil {
			return err
		}
		if _, err := tx.Branch(ctx, d.ID, branch); err != nil {
			if errors.Is(err, catalog.ErrNotFound) {
				return vsqlerr.New(vsqlerr.BranchNotFound, "branch %q of database %q does not exist", branch, db)
			}
			return err
		}
		return tx.SetBranchProtection(ctx, d.ID, branch, protected, by)
	})
	if err != nil {
		return databaseErr(db, err)
	}
	s.reloadAccess(ctx)
	s.log.Info("branch protection", "database", db, "branch", branch, "protected", protected, "by", by)
	return nil
}

// databaseErr names a missing database as database_not_found.
func databaseErr(db string, err error) error {
	var ve *vsqlerr.Error
	if err == nil || errors.As(err, &ve) {
		return err
	}
	if errors.Is(err, catalog.ErrNotFound) {
		return vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", db)
	}
	return err
}

// branchExists reports whether db has a branch of that name.
func (s *Server) branchExists(ctx context.Context, db, name string) bool {
	err := s.catalog.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, db)
		if err != nil {
			return err
		}
		_, err = tx.Branch(ctx, d.ID, name)
		return err
	})
	return err == nil
}
