package sqlfuncs

import (
	"context"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Need is one privilege a call needs, checked by the Caller (the session)
// before the function runs, at every execution.
type Need struct {
	DB string
	// Branch names a branch; "" with Ref and Catalog empty means any
	// branch of DB (the best grant the user has there counts).
	Branch string
	// Ref names a branch or a snapshot (id or name) of DB.
	Ref string
	// Catalog is a name as written in SQL before a table name ("scratch",
	// "scratch/dev", "scratch@3"): checked only if it names a database.
	Catalog   string
	Privilege catalog.Privilege
	// Direct changes (writes, restores, deletes) are refused on protected
	// branches; merges and snapshots are not direct.
	Direct bool
}

// Authorizer is the part of the Caller that decides privileges.
type Authorizer interface {
	// User is the session's login.
	User() string
	// Require refuses (permission_denied, branch_protected) what the
	// session may not do.
	Require(ctx context.Context, n Need) error
	// RequireDatabaseAdmin refuses callers that do not administer db (the
	// admin role, or an admin grant on all of db's branches).
	RequireDatabaseAdmin(db string) error
	// RequireAdminRole refuses callers without the admin role.
	RequireAdminRole(what string) error
	// CanRead reports whether the session may read a branch of db.
	CanRead(db, branch string) bool
	// IsDatabaseAdmin is RequireDatabaseAdmin as a question.
	IsDatabaseAdmin(db string) bool
	// IsProtected reports whether a branch of db is protected.
	IsProtected(db, branch string) bool
}

// requirement is one entry of what a function needs: the argument that
// names the branch or version, and the privilege there.
type requirement struct {
	arg       string // "" = the database (any branch)
	version   bool   // arg names a branch or a snapshot
	privilege catalog.Privilege
	direct    bool
}

// access is what calling a function needs.
type access struct {
	adminRole        bool // server admins only (the call uses the server's own credentials)
	databaseAdmin    bool // admins of the database
	reqs             []requirement
	resolutionTables bool // read on the databases its resolution tables live in
}

func dbNeeds(p catalog.Privilege) access { return access{reqs: []requirement{{privilege: p}}} }

// needsOf is the one table of what each vsql_* function needs; a test
// checks that every function has an entry.
var needsOf = map[string]access{
	"vsql_create_snapshot":     {reqs: []requirement{{arg: "branch", privilege: catalog.Write}}},
	"vsql_create_branch":       {reqs: []requirement{{arg: "branch", privilege: catalog.Write}, {arg: "from", version: true, privilege: catalog.Read}, {arg: "snapshot", version: true, privilege: catalog.Read}}},
	"vsql_set_remote":          {adminRole: true},
	"vsql_attach_remote":       {adminRole: true},
	"vsql_set_lakehouse":       {adminRole: true},
	"vsql_lakehouse_status":    dbNeeds(catalog.Read),
	"vsql_lakehouse_snapshots": dbNeeds(catalog.Read),
	"vsql_delete_branch":       {reqs: []requirement{{arg: "branch", privilege: catalog.Merge, direct: true}}},
	"vsql_restore":             {reqs: []requirement{{arg: "branch", privilege: catalog.Merge, direct: true}}},
	"vsql_branches":            dbNeeds(catalog.Read),
	"vsql_snapshots":           dbNeeds(catalog.Read),
	"vsql_delete_snapshot":     {databaseAdmin: true},
	"vsql_set_retention":       {databaseAdmin: true},
	"vsql_retention":           dbNeeds(catalog.Read),
	"vsql_gc":                  {adminRole: true},
	"vsql_diff":                {reqs: []requirement{{arg: "from", version: true, privilege: catalog.Read}, {arg: "to", version: true, privilege: catalog.Read}}},

	"vsql_merge_branch": {resolutionTables: true, reqs: []requirement{{arg: "ours", privilege: catalog.Read}, {arg: "theirs", privilege: catalog.Read},
		{arg: "destination", privilege: catalog.Merge}}},
	"vsql_merge_snapshots": {resolutionTables: true, reqs: []requirement{{arg: "base", version: true, privilege: catalog.Read}, {arg: "ours", version: true, privilege: catalog.Read},
		{arg: "theirs", version: true, privilege: catalog.Read}, {arg: "destination", privilege: catalog.Merge}}},
	"vsql_merge_branch_preview": {resolutionTables: true, reqs: []requirement{{arg: "ours", privilege: catalog.Read}, {arg: "theirs", privilege: catalog.Read}}},
	"vsql_merge_snapshots_preview": {resolutionTables: true, reqs: []requirement{{arg: "base", version: true, privilege: catalog.Read}, {arg: "ours", version: true, privilege: catalog.Read},
		{arg: "theirs", version: true, privilege: catalog.Read}}},
	"vsql_merge_branch_preflight": {resolutionTables: true, reqs: []requirement{{arg: "ours", privilege: catalog.Read}, {arg: "theirs", privilege: catalog.Read},
		{arg: "destination", privilege: catalog.Read}}},
	"vsql_merge_ancestry":    {reqs: []requirement{{arg: "a", version: true, privilege: catalog.Read}, {arg: "b", version: true, privilege: catalog.Read}}},
	"vsql_merge_requests":    dbNeeds(catalog.Read),
	"vsql_merge_resolutions": dbNeeds(catalog.Read),
	"vsql_abort_merge":       dbNeeds(catalog.Merge),
	"vsql_merge_status":      {}, // rows filtered to the databases the caller reads

	"vsql_grant":                 {databaseAdmin: true},
	"vsql_revoke":                {databaseAdmin: true},
	"vsql_privileges":            dbNeeds(catalog.Read), // rows: all for database admins, else the caller's own
	"vsql_set_branch_protection": {databaseAdmin: true},
}

// authorize checks everything f needs for this call.
func (f function) authorize(ctx context.Context, c Caller, db string, a args) error {
	acc, ok := needsOf[f.name]
	if !ok {
		return vsqlerr.New(vsqlerr.Internal, "%s has no privilege entry", f.name)
	}
	if acc.adminRole {
		if err := c.RequireAdminRole(f.name); err != nil {
			return err
		}
	}
	if acc.databaseAdmin {
		if err := c.RequireDatabaseAdmin(db); err != nil {
			return err
		}
	}
	for _, r := range acc.reqs {
		n := Need{DB: db, Privilege: r.privilege, Direct: r.direct}
		if r.arg != "" {
			name := a.str(r.arg)
			if name == "" {
				name = defaultVersion(c, db, r.arg, a)
			}
			if name == "" {
				continue // the argument is absent and has no default (snapshot =>)
			}
			if r.version {
				n.Ref = name
			} else {
				n.Branch = name
			}
		}
		if err := c.Require(ctx, n); err != nil {
			return err
		}
	}
	if acc.resolutionTables {
		if m, ok := a["resolution_tables"].(map[string]any); ok {
			for _, v := range m {
				table, _ := v.(string)
				// schema.table and table are in the session's own catalog
				if n, ok := sqltext.ParseTableName(table); ok && n.Catalog != "" {
					if err := c.Require(ctx, Need{Catalog: n.Catalog, Privilege: catalog.Read}); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// defaultVersion is what an omitted branch argument means: the session's
// branch for its own database, else main; from => defaults to main unless
// snapshot => is given.
func defaultVersion(c Caller, db, arg string, a args) string {
	switch arg {
	case "branch":
		if db == c.Database() && c.Branch() != "" {
			return c.Branch()
		}
		return "main"
	case "from":
		if a.str("snapshot") != "" {
			return ""
		}
		return "main"
	}
	return ""
}

// privilegeFunctions manage grants and protected branches.
func privilegeFunctions() []function {
	grantCols := []column{{"database_name", tVarchar}, {"user_name", tVarchar}, {"branch_pattern", tVarchar}, {"privilege", tVarchar}}
	return []function{
		{
			name:          "vsql_grant",
			branchPattern: true,
			params:        []param{{"db", true}, {"user", true}, {"privilege", true}, {"branch", false}},
			columns:       grantCols,
			mutates:       true,
			run: withGrantArgs(func(ctx context.Context, b Backend, db, user string, p catalog.Privilege, pattern string) (any, error) {
				return p.String(), b.Grant(ctx, callerOf(ctx).User(), db, user, p, pattern)
			}),
		},
		{
			name:          "vsql_revoke",
			branchPattern: true,
			params:        []param{{"db", true}, {"user", true}, {"privilege", true}, {"branch", false}},
			columns:       grantCols,
			mutates:       true,
			run: withGrantArgs(func(ctx context.Context, b Backend, db, user string, p catalog.Privilege, pattern string) (any, error) {
				left, err := b.Revoke(ctx, db, user, p, pattern)
				if left == catalog.NoPrivilege {
					return nil, err // nothing left: NULL
				}
				return left.String(), err
			}),
		},
		{
			name:   "vsql_privileges",
			params: []param{{"db", true}},
			columns: []column{{"database_name", tVarchar}, {"user_name", tVarchar}, {"role", tVarchar}, {"branch_pattern", tVarchar},
				{"privilege", tVarchar}, {"granted_by", tVarchar}, {"created_at", tTimestamptz}},
			run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
				grants, err := b.Grants(ctx, db)
				if err != nil {
					return nil, err
				}
				c := callerOf(ctx)
				all := c.IsDatabaseAdmin(db)
				var out [][]any
				for _, g := range grants {
					if all || g.User == c.User() {
						out = append(out, []any{g.Database, g.User, nullable(g.Role), g.Branches, g.Privilege.String(), g.GrantedBy, g.CreatedAt})
					}
				}
				return out, nil
			},
		},
		{
			name:    "vsql_set_branch_protection",
			params:  []param{{"db", true}, {"branch", true}, {"protected", false}},
			columns: []column{{"database_name", tVarchar}, {"branch_name", tVarchar}, {"protected", tBoolean}},
			mutates: true,
			run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
				protected := true
				if _, ok := a["protected"]; ok {
					var err error
					if protected, err = a.boolean("protected"); err != nil {
						return nil, err
					}
				}
				if err := b.SetBranchProtection(ctx, callerOf(ctx).User(), db, a.str("branch"), protected); err != nil {
					return nil, err
				}
				return [][]any{{db, a.str("branch"), protected}}, nil
			},
		},
	}
}

// GrantInfo is one grant as vsql_privileges shows it.
type GrantInfo struct {
	catalog.Grant
	Role string // the user's role now ("" if the user no longer exists)
}

// withGrantArgs parses vsql_grant's and vsql_revoke's arguments, runs fn
// and shapes its row: the grant's database, user, pattern and privilege.
func withGrantArgs(fn func(ctx context.Context, b Backend, db, user string, p catalog.Privilege, pattern string) (any, error)) func(context.Context, Backend, string, args) ([][]any, error) {
	return func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
		p, pattern, err := grantArgs(a)
		if err != nil {
			return nil, err
		}
		privilege, err := fn(ctx, b, db, a.str("user"), p, pattern)
		if err != nil {
			return nil, err
		}
		return [][]any{{db, a.str("user"), pattern, privilege}}, nil
	}
}

func grantArgs(a args) (catalog.Privilege, string, error) {
	if a.str("user") == "" {
		return 0, "", vsqlerr.New(vsqlerr.InvalidArgument, "a user name is required")
	}
	p, err := catalog.ParsePrivilege(a.str("privilege"))
	if err != nil {
		return 0, "", vsqlerr.New(vsqlerr.InvalidArgument, "%v", err)
	}
	pattern := a.str("branch")
	if pattern == "" {
		pattern = catalog.AllBranches
	}
	if err := catalog.ValidBranchPattern(pattern); err != nil {
		return 0, "", vsqlerr.New(vsqlerr.InvalidArgument, "%v", err)
	}
	return p, pattern, nil
}

// callerOf is the session a running function was called by (the server
// attaches it to every statement's context).
func callerOf(ctx context.Context) Caller {
	c, _ := ctx.Value(callerKey{}).(Caller)
	return c
}
