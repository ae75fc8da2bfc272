package sqlfuncs

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/lakehouse"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Caller is the session that calls a function.
type Caller interface {
	// Database is the session's database.
	Database() string
	// Branch is the session's branch ("" when it reads a snapshot).
	Branch() string
	// InTransaction reports an open transaction block.
	InTransaction() bool
	// StatementContext is the context of the statement running now: it is
	// cancelled by the client's CancelRequest. (DuckDB binds a function at
	// PREPARE, so the context seen at bind time belongs to another step.)
	StatementContext() context.Context
	// Notice sends a NOTICE to the client while the statement runs.
	Notice(message string)
	Authorizer
}

type callerKey struct{}

// WithCaller attaches the calling session to ctx; the server does this for
// every statement it prepares and executes.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// Backend does the work; *branches.Manager implements it.
type Backend interface {
	CreateSnapshot(ctx context.Context, db, branch, name string) (branches.SnapshotResult, error)
	CreateBranch(ctx context.Context, db, name, snapshotRef, from string) (branches.BranchResult, error)
	DeleteBranch(ctx context.Context, db, name string, force bool) (branches.DeleteResult, error)
	Restore(ctx context.Context, db, branch, snapshotRef string, force bool) (branches.RestoreResult, error)
	Branches(ctx context.Context, db string) ([]branches.BranchInfo, error)
	Snapshots(ctx context.Context, db string) ([]catalog.Snapshot, error)
	// DeleteSnapshot deletes a snapshot's content; by is the caller's login.
	DeleteSnapshot(ctx context.Context, db, ref string, force bool, by string) (branches.DeleteSnapshotResult, error)
	// SetRetention records and applies db's retention policy.
	SetRetention(ctx context.Context, db string, keepLast int, keepWithin time.Duration, by string) (branches.RetentionResult, error)
	// Retention reads db's retention policy.
	Retention(ctx context.Context, db string) (catalog.Retention, error)
	// GC removes unreferenced blocks, chunk maps, images and files while
	// the server runs.
	GC(ctx context.Context, grace time.Duration) (branches.GCReport, error)
	Diff(ctx context.Context, db, from, to, table string) ([]branches.DiffRow, error)
	// SetRemote makes db export its snapshots to an S3 location.
	SetRemote(ctx context.Context, db, url string) (string, error)
	// SetLakehouse makes db export its snapshots as Iceberg tables (an
	// empty url stops it); it returns the normalized URL and the Iceberg
	// catalog's file.
	SetLakehouse(ctx context.Context, db, url, by string) (string, string, error)
	// LakehouseSnapshots lists, per exported snapshot and table, the
	// Iceberg snapshot that holds the table as of that snapshot.
	LakehouseSnapshots(ctx context.Context, db string) ([]catalog.LakeTable, error)
	// LakehouseStatus reports db's Iceberg export, a row per table.
	LakehouseStatus(ctx context.Context, db string) ([]lakehouse.TableStatus, error)
	// AttachRemote attaches a remote S3 head read-only under alias.
	AttachRemote(ctx context.Context, url, alias string) (attached, contentRoot string, err error)

	// Grant gives user privilege p on db's branches matching pattern
	// (replacing the user's grant on that pattern); by is the granting
	// login.
	Grant(ctx context.Context, by, db, user string, p catalog.Privilege, pattern string) error
	// Revoke takes p (and what is above it) from the user's grant on the
	// pattern and returns what is left of it.
	Revoke(ctx context.Context, db, user string, p catalog.Privilege, pattern string) (catalog.Privilege, error)
	// Grants lists db's grants.
	Grants(ctx context.Context, db string) ([]GrantInfo, error)
	// SetBranchProtection protects or unprotects a branch.
	SetBranchProtection(ctx context.Context, by, db, branch string, protected bool) error
}

type colType int

const (
	tVarchar colType = iota
	tBigint
	tBoolean
	tTimestamptz
	tBigintList
	tJSON
	tDouble
	tVarcharList
	tConflicts
	tSchemaChanges
	tViewChange
	tSchemaConflicts
	tTypedKey // a key as a list of typed values (conflict_details.key)
)

type column struct {
	name string
	typ  colType
}

type param struct {
	name string
	// positional params come first, in order; the rest are named only.
	positional bool
}

// args are a call's arguments after JSON decoding; absent and NULL are "".
type args map[string]any

func (a args) str(name string) string {
	switch v := a[name].(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(v)
	}
	return fmt.Sprint(a[name])
}

func (a args) boolean(name string) (bool, error) {
	switch v := a[name].(type) {
	case nil:
		return false, nil
	case bool:
		return v, nil
	case string:
		b, err := strconv.ParseBool(v)
		if err != nil {
			return false, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be true or false, not %q", name, v)
		}
		return b, nil
	}
	return false, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be true or false", name)
}

type function struct {
	name    string
	params  []param
	columns []column
	// mutates: refused inside a transaction block.
	mutates bool
	run     func(ctx context.Context, b Backend, db string, a args) ([][]any, error)
	// merges: the function runs on the merge half of the backend.
	merges   bool
	runMerge func(ctx context.Context, b Merges, db string, a args) ([][]any, error)
	// branchPattern: the branch argument is a pattern of branch names
	// (grants), never defaulted to the session's branch.
	branchPattern bool
	// heavy: the call runs DuckDB queries of its own (merges, previews,
	// diffs, snapshots, restores) and so runs off DuckDB's thread where
	// the caller allows (OffThread).
	heavy bool
}

func bigint(v int64) any {
	if v == 0 {
		return nil
	}
	return v
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

var functions = []function{
	{
		name:    "vsql_create_snapshot",
		heavy:   true,
		params:  []param{{"db", true}, {"branch", false}, {"name", false}},
		columns: []column{{"snapshot_id", tBigint}, {"branch_name", tVarchar}, {"name", tVarchar}, {"new_bytes", tBigint}, {"total_bytes", tBigint}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			r, err := b.CreateSnapshot(ctx, db, a.str("branch"), a.str("name"))
			if err != nil {
				return nil, err
			}
			return [][]any{{r.ID, r.Branch, nullable(r.Name), r.NewBytes, r.TotalBytes}}, nil
		},
	},
	{
		name:    "vsql_create_branch",
		params:  []param{{"db", true}, {"branch", true}, {"snapshot", false}, {"from", false}},
		columns: []column{{"branch_name", tVarchar}, {"head_snapshot_id", tBigint}, {"created_from", tVarchar}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			r, err := b.CreateBranch(ctx, db, a.str("branch"), a.str("snapshot"), a.str("from"))
			if err != nil {
				return nil, err
			}
			return [][]any{{r.Branch, r.Head, r.CreatedFrom}}, nil
		},
	},
	{
		name:    "vsql_set_remote",
		params:  []param{{"db", true}, {"url", true}},
		columns: []column{{"database_name", tVarchar}, {"remote", tVarchar}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			remote, err := b.SetRemote(ctx, db, a.str("url"))
			if err != nil {
				return nil, err
			}
			return [][]any{{db, remote}}, nil
		},
	},
	{
		name:    "vsql_set_lakehouse",
		params:  []param{{"db", true}, {"url", true}},
		columns: []column{{"database_name", tVarchar}, {"lakehouse", tVarchar}, {"catalog", tVarchar}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			url, cat, err := b.SetLakehouse(ctx, db, a.str("url"), callerOf(ctx).User())
			if err != nil {
				return nil, err
			}
			return [][]any{{db, nullable(url), nullable(cat)}}, nil
		},
	},
	{
		name:   "vsql_lakehouse_status",
		params: []param{{"db", true}},
		columns: []column{{"table_name", tVarchar}, {"exported_snapshot_id", tBigint}, {"iceberg_snapshot_id", tBigint}, {"lag", tBigint},
			{"last_error", tVarchar}, {"last_error_at", tTimestamptz}, {"note", tVarchar}, {"metadata_location", tVarchar}, {"lakehouse", tVarchar}, {"catalog", tVarchar}},
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			list, err := b.LakehouseStatus(ctx, db)
			if err != nil {
				return nil, err
			}
			out := make([][]any, len(list))
			for i, st := range list {
				var errAt any
				if !st.LastErrorAt.IsZero() {
					errAt = st.LastErrorAt
				}
				out[i] = []any{nullable(st.Table), bigint(st.ExportedSnapshot), bigint(st.IcebergSnapshot), st.Lag,
					nullable(st.LastError), errAt, nullable(st.Note), nullable(st.MetadataLocation), st.URL, nullable(st.Catalog)}
			}
			return out, nil
		},
	},
	{
		name:    "vsql_lakehouse_snapshots",
		params:  []param{{"db", true}},
		columns: []column{{"snapshot_id", tBigint}, {"table_name", tVarchar}, {"iceberg_snapshot_id", tBigint}, {"changed", tBoolean}, {"not_exported_because", tVarchar}},
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			list, err := b.LakehouseSnapshots(ctx, db)
			if err != nil {
				return nil, err
			}
			snaps, err := b.Snapshots(ctx, db)
			if err != nil {
				return nil, err
			}
			c := callerOf(ctx)
			readable := map[int64]bool{}
			for _, s := range snaps {
				readable[s.ID] = c.CanRead(db, s.Branch)
			}
			var out [][]any
			for _, l := range list {
				if readable[l.Snapshot] { // taken on a branch the caller may read
					out = append(out, []any{l.Snapshot, l.Table, bigint(l.IcebergSnapshot), l.MadeHere, nullable(l.Skipped)})
				}
			}
			return out, nil
		},
	},
	{
		name:    "vsql_attach_remote",
		params:  []param{{"url", true}, {"as", false}},
		columns: []column{{"alias", tVarchar}, {"content_root", tVarchar}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			alias, root, err := b.AttachRemote(ctx, a.str("url"), a.str("as"))
			if err != nil {
				return nil, err
			}
			return [][]any{{alias, root}}, nil
		},
	},
	{
		name:    "vsql_delete_branch",
		params:  []param{{"db", true}, {"branch", true}, {"force", false}},
		columns: []column{{"branch_name", tVarchar}, {"head_snapshot_id", tBigint}, {"discarded_writes", tBoolean}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			force, err := a.boolean("force")
			if err != nil {
				return nil, err
			}
			r, err := b.DeleteBranch(ctx, db, a.str("branch"), force)
			if err != nil {
				return nil, err
			}
			return [][]any{{r.Branch, bigint(r.Head), r.DiscardedWrites}}, nil
		},
	},
	{
		name:    "vsql_delete_snapshot",
		params:  []param{{"db", true}, {"snapshot", true}, {"force", false}},
		columns: []column{{"snapshot_id", tBigint}, {"name", tVarchar}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			force, err := a.boolean("force")
			if err != nil {
				return nil, err
			}
			r, err := b.DeleteSnapshot(ctx, db, a.str("snapshot"), force, callerOf(ctx).User())
			if err != nil {
				return nil, err
			}
			return [][]any{{r.ID, nullable(r.Name)}}, nil
		},
	},
	{
		name:    "vsql_set_retention",
		params:  []param{{"db", true}, {"keep_last", false}, {"keep_within", false}},
		columns: []column{{"database_name", tVarchar}, {"keep_last", tBigint}, {"keep_within", tVarchar}, {"deleted_snapshots", tBigintList}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			keepLast, err := a.count("keep_last")
			if err != nil {
				return nil, err
			}
			keepWithin, err := a.interval("keep_within")
			if err != nil {
				return nil, err
			}
			r, err := b.SetRetention(ctx, db, keepLast, keepWithin, callerOf(ctx).User())
			if err != nil {
				return nil, err
			}
			deleted := make([]any, len(r.Deleted))
			for i, id := range r.Deleted {
				deleted[i] = id
			}
			return [][]any{{db, bigint(int64(r.KeepLast)), nullable(formatInterval(r.KeepWithin)), deleted}}, nil
		},
	},
	{
		name:    "vsql_retention",
		params:  []param{{"db", true}},
		columns: []column{{"database_name", tVarchar}, {"keep_last", tBigint}, {"keep_within", tVarchar}, {"set_by", tVarchar}, {"set_at", tTimestamptz}},
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			r, err := b.Retention(ctx, db)
			if err != nil {
				return nil, err
			}
			if !r.Active() {
				return [][]any{{db, nil, nil, nil, nil}}, nil
			}
			return [][]any{{db, bigint(int64(r.KeepLast)), nullable(formatInterval(r.KeepWithin)), r.SetBy, r.SetAt}}, nil
		},
	},
	{
		name:   "vsql_gc",
		params: []param{{"grace", false}},
		columns: []column{{"blocks_removed", tBigint}, {"bytes_removed", tBigint}, {"blocks_kept", tBigint}, {"chunk_maps_removed", tBigint}, {"images_removed", tBigint}, {"live_files_removed", tBigint}, {"temp_files_removed", tBigint},
			{"remote_objects_removed", tBigint}, {"remote_bytes_removed", tBigint}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			grace := time.Duration(-1) // the server's --gc-grace
			if a["grace"] != nil {
				var err error
				if grace, err = a.interval("grace"); err != nil {
					return nil, err
				}
			}
			r, err := b.GC(ctx, grace)
			if err != nil {
				return nil, err
			}
			return [][]any{{int64(r.BlocksRemoved), r.BytesRemoved, int64(r.BlocksKept), r.ChunkMapsRemoved, int64(r.ImagesRemoved), int64(r.LiveFilesRemoved), int64(r.TempFilesRemoved),
				int64(r.RemoteObjectsRemoved), r.RemoteBytesRemoved}}, nil
		},
	},
	{
		name:    "vsql_restore",
		heavy:   true,
		params:  []param{{"db", true}, {"branch", true}, {"snapshot", false}, {"force", false}},
		columns: []column{{"branch_name", tVarchar}, {"snapshot_id", tBigint}, {"restored_snapshot_id", tBigint}},
		mutates: true,
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			force, err := a.boolean("force")
			if err != nil {
				return nil, err
			}
			r, err := b.Restore(ctx, db, a.str("branch"), a.str("snapshot"), force)
			if err != nil {
				return nil, err
			}
			return [][]any{{r.Branch, r.ID, r.Restored}}, nil
		},
	},
	{
		name:    "vsql_branches",
		params:  []param{{"db", true}},
		columns: []column{{"branch_name", tVarchar}, {"head_snapshot_id", tBigint}, {"dirty", tBoolean}, {"sessions", tBigint}, {"created_at", tTimestamptz}, {"created_from", tVarchar}, {"protected", tBoolean}},
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			list, err := b.Branches(ctx, db)
			if err != nil {
				return nil, err
			}
			c := callerOf(ctx)
			var out [][]any
			for _, br := range list {
				if c.CanRead(db, br.Name) {
					out = append(out, []any{br.Name, bigint(br.Head), br.Dirty, int64(br.Sessions), br.CreatedAt, nullable(br.CreatedFrom), c.IsProtected(db, br.Name)})
				}
			}
			return out, nil
		},
	},
	{
		name:   "vsql_snapshots",
		params: []param{{"db", true}},
		columns: []column{{"snapshot_id", tBigint}, {"name", tVarchar}, {"parents", tBigintList}, {"kind", tVarchar}, {"branch_name", tVarchar},
			{"created_at", tTimestamptz}, {"content_root", tVarchar}, {"total_bytes", tBigint}, {"new_bytes", tBigint}, {"provenance", tJSON}},
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			list, err := b.Snapshots(ctx, db)
			if err != nil {
				return nil, err
			}
			c := callerOf(ctx)
			var out [][]any
			for _, s := range list {
				if !c.CanRead(db, s.Branch) || s.Deleted {
					continue // taken on a branch the caller may not read, or deleted
				}
				parents := make([]any, len(s.Parents))
				for j, p := range s.Parents {
					parents[j] = p
				}
				out = append(out, []any{s.ID, nullable(s.Name), parents, s.Kind, s.Branch, s.CreatedAt, s.ContentRoot, s.TotalBytes, s.NewBytes, s.Provenance})
			}
			return out, nil
		},
	},
	{
		name:    "vsql_diff",
		heavy:   true,
		params:  []param{{"db", true}, {"from", true}, {"to", true}, {"table", false}},
		columns: []column{{"table_name", tVarchar}, {"key", tJSON}, {"change", tVarchar}, {"before", tJSON}, {"after", tJSON}},
		run: func(ctx context.Context, b Backend, db string, a args) ([][]any, error) {
			rows, err := b.Diff(ctx, db, a.str("from"), a.str("to"), a.str("table"))
			if err != nil {
				return nil, err
			}
			out := make([][]any, len(rows))
			for i, r := range rows {
				out[i] = []any{r.Table, r.Key, r.Change, nullable(r.Before), nullable(r.After)}
			}
			return out, nil
		},
	},
}

// Names lists the public function names.
func Names() []string {
	out := make([]string, len(functions))
	for i, f := range functions {
		out[i] = f.name
	}
	return out
}

// Macros returns the statements that define the public functions, one
// table macro per function in schema (created once per process; the
// server's rewrite sends bare calls there).
func Macros(schema string) []string {
	out := make([]string, len(functions))
	for i, f := range functions {
		var decl, fields []string
		for _, p := range f.params {
			q := sqltext.QuoteIdent(p.name)
			decl = append(decl, q+" := NULL")
			fields = append(fields, sqltext.QuoteString(p.name)+": "+q)
		}
		argsJSON := "to_json({" + strings.Join(fields, ", ") + "})::VARCHAR"
		if len(fields) == 0 {
			argsJSON = "'{}'"
		}
		out[i] = "CREATE OR REPLACE MACRO " + schema + "." + f.name + "(" + strings.Join(decl, ", ") + ") AS TABLE SELECT * FROM " +
			internalName(f.name) + "(" + argsJSON + ")"
	}
	return out
}

func internalName(name string) string { return "__" + name }

func typeInfo(t colType) duckdb.TypeInfo {
	var ti duckdb.TypeInfo
	switch t {
	case tBigint:
		ti, _ = duckdb.NewTypeInfo(duckdb.TYPE_BIGINT)
	case tBoolean:
		ti, _ = duckdb.NewTypeInfo(duckdb.TYPE_BOOLEAN)
	case tTimestamptz:
		ti, _ = duckdb.NewTypeInfo(duckdb.TYPE_TIMESTAMP_TZ)
	case tBigintList:
		child, _ := duckdb.NewTypeInfo(duckdb.TYPE_BIGINT)
		ti, _ = duckdb.NewListInfo(child)
	case tVarcharList:
		child, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
		ti, _ = duckdb.NewListInfo(child)
	case tDouble:
		ti, _ = duckdb.NewTypeInfo(duckdb.TYPE_DOUBLE)
	case tConflicts:
		ti = conflictsType()
	case tTypedKey:
		ti, _ = duckdb.NewListInfo(typedValueType())
	case tSchemaChanges:
		ti = structListType("column_name", "source", "sql_type", "action")
	case tSchemaConflicts:
		ti = structListType("kind", "column_name", "detail")
	case tViewChange:
		ti = varcharStruct("action", "source", "definition")
	default: // varchar and JSON text
		ti, _ = duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	}
	return ti
}

// Register installs the internal table functions on the engine (they are
// global to the DuckDB instance).
func Register(conn *sql.Conn, b Backend, mg Merges) error {
	for _, f := range functions {
		f := f
		strType, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
		err := duckdb.RegisterTableUDF(conn, internalName(f.name), duckdb.RowTableFunction{
			Config: duckdb.TableFunctionConfig{Arguments: []duckdb.TypeInfo{strType}},
			BindArgumentsContext: func(ctx context.Context, _ map[string]any, in ...any) (duckdb.RowTableSource, error) {
				src, err := bind(ctx, b, mg, f, in)
				if err != nil {
					return nil, vsqlerr.ForEngine(err)
				}
				return src, nil
			},
		})
		if err != nil {
			return fmt.Errorf("register %s: %w", f.name, err)
		}
	}
	return nil
}

// bind parses the arguments; it runs nothing.
func bind(ctx context.Context, b Backend, mg Merges, f function, in []any) (duckdb.RowTableSource, error) {
	// The caller is known when a session prepares the call; a macro body is
	// bound without one, and then the session is looked up at execution.
	caller, _ := ctx.Value(callerKey{}).(Caller)
	raw, _ := in[0].(string)
	a := args{}
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		return nil, vsqlerr.New(vsqlerr.InvalidArgument, "%s: bad arguments: %v", f.name, err)
	}
	for _, p := range []string{"db", "branch", "name", "from", "ours", "theirs", "destination", "base", "request_id", "operation_id"} {
		if s, ok := a[p].(string); ok && s == "" {
			return nil, vsqlerr.New(vsqlerr.InvalidName, "%s => must not be an empty name", p)
		}
	}
	cols := make([]duckdb.ColumnInfo, len(f.columns))
	for i, c := range f.columns {
		cols[i] = duckdb.ColumnInfo{Name: c.name, T: typeInfo(c.typ)}
	}
	src := &source{ctx: ctx, caller: caller, backend: b, merges: mg, f: f, args: a, cols: cols}
	if caller != nil {
		if _, _, err := src.resolve(); err != nil {
			return nil, err
		}
	}
	return src, nil
}

// resolve fills in what the session decides: the database (db omitted)
// and the branch (branch omitted, where it is optional).
func (s *source) resolve() (string, args, error) {
	a := args{}
	for k, v := range s.args {
		a[k] = v
	}
	db := a.str("db")
	if db == "" {
		db = s.caller.Database()
	}
	if _, ok := a["branch"]; ok && a.str("branch") == "" && !s.f.branchPattern {
		for _, p := range s.f.params {
			if p.name == "branch" && p.positional {
				return "", nil, vsqlerr.New(vsqlerr.InvalidArgument, "%s needs a branch name", s.f.name)
			}
		}
		a["branch"] = "main"
		if db == s.caller.Database() && s.caller.Branch() != "" {
			a["branch"] = s.caller.Branch()
		}
	}
	if err := sqltext.ValidName("database", db); err != nil {
		return "", nil, vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	return db, a, nil
}

// source runs the function when DuckDB asks for its first row.
type source struct {
	ctx     context.Context
	caller  Caller
	backend Backend
	merges  Merges
	f       function
	args    args
	cols    []duckdb.ColumnInfo

	ran  bool
	rows [][]any
	next int
}

func (s *source) ColumnInfos() []duckdb.ColumnInfo     { return s.cols }
func (s *source) Cardinality() *duckdb.CardinalityInfo { return nil }

// Init starts one execution.
func (s *source) Init() { s.ran, s.rows, s.next = false, nil, 0 }

// FillRow runs the call on its first row and hands out its rows; errors
// go to DuckDB with their own hints in the text (vsqlerr.ForEngine).
func (s *source) FillRow(row duckdb.Row) (bool, error) {
	ok, err := s.fillRow(row)
	return ok, vsqlerr.ForEngine(err)
}

func (s *source) fillRow(row duckdb.Row) (bool, error) {
	if !s.ran {
		s.ran = true
		if s.caller == nil {
			c, _ := s.ctx.Value(callerKey{}).(Caller)
			if c == nil {
				return false, vsqlerr.New(vsqlerr.Internal, "%s called outside a vsql session", s.f.name)
			}
			s.caller = c
		}
		db, a, err := s.resolve()
		if err != nil {
			return false, err
		}
		if err := s.f.authorize(s.ctx, s.caller, db, a); err != nil {
			return false, err
		}
		if s.f.mutates && s.caller.InTransaction() {
			return false, vsqlerr.New(vsqlerr.TransactionBlock, "%s cannot run inside a transaction block", s.f.name)
		}
		call := func(ctx context.Context) ([][]any, error) {
			if s.f.merges {
				return s.f.runMerge(ctx, s.merges, db, a)
			}
			// What runs shows in the caller's activity while it runs
			// (a merge reports its own phases).
			if p, ok := s.caller.(PhaseReporter); ok && s.f.heavy {
				p.Phase(s.f.name + " (" + db + ")")
				defer p.Phase("")
			}
			return s.f.run(ctx, s.backend, db, a)
		}
		if o, ok := s.caller.(offThreadCaller); ok && s.f.heavy {
			rows, done, deferred := o.OffThread().take(callKey(s.f.name, db, a), func(ctx context.Context) ([][]any, error) {
				return call(WithCaller(ctx, s.caller))
			})
			if deferred {
				return false, errDeferred
			}
			if done {
				s.rows = rows
				return s.serve(row)
			}
		}
		ctx := s.caller.StatementContext()
		if ctx == nil {
			ctx = s.ctx
		}
		rows, err := call(WithCaller(ctx, s.caller))
		if err != nil {
			return false, vsqlerr.From(err)
		}
		s.rows = rows
	}
	return s.serve(row)
}

// serve hands out the next result row.
func (s *source) serve(row duckdb.Row) (bool, error) {
	if s.next >= len(s.rows) {
		return false, nil
	}
	for i, v := range s.rows[s.next] {
		if t, ok := v.(time.Time); ok {
			v = t.UTC()
		}
		if err := duckdb.SetRowValue(row, i, v); err != nil {
			return false, fmt.Errorf("%s: column %s: %w", s.f.name, s.cols[i].Name, err)
		}
	}
	s.next++
	return true, nil
}
