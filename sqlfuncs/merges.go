package sqlfuncs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Merges is the merge half of the backend; *merge.Merger implements it.
type Merges interface {
	MergeBranch(ctx context.Context, db, ours, theirs, destination string, opt merge.Options) (merge.Result, error)
	Async(ctx context.Context, db string, opt merge.Options, run func(context.Context, merge.Options) (merge.Result, error)) (merge.Result, error)
	Running() []merge.Status
	MergeSnapshots(ctx context.Context, db, base, ours, theirs, destination string, opt merge.Options) (merge.Result, error)
	PreviewBranch(ctx context.Context, db, ours, theirs string, opt merge.Options) ([]merge.PreviewRow, error)
	PreviewSnapshots(ctx context.Context, db, base, ours, theirs string, opt merge.Options) ([]merge.PreviewRow, error)
	PreflightBranch(ctx context.Context, db, ours, theirs, destination string, opt merge.Options) (merge.Preflight, error)
	AncestryOf(ctx context.Context, db, a, b string) (merge.Ancestry, error)
	Requests(ctx context.Context, db, requestID string) ([]catalog.Request, error)
	Resolutions(ctx context.Context, db, requestID string) ([]merge.Resolution, error)
	Abort(ctx context.Context, db, operationID string) (catalog.Request, error)
}

func (a args) int64(name string) (int64, error) {
	switch v := a[name].(type) {
	case nil:
		return 0, nil
	case float64:
		return int64(v), nil
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be a snapshot id, not %q", name, v)
		}
		return n, nil
	}
	return 0, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be a number", name)
}

// duration accepts seconds as a number, or a Go duration such as '5s'.
func (a args) duration(name string) (time.Duration, error) {
	switch v := a[name].(type) {
	case nil:
		return 0, nil
	case float64:
		return time.Duration(v * float64(time.Second)), nil
	case string:
		if d, err := time.ParseDuration(strings.ReplaceAll(v, " ", "")); err == nil {
			return d, nil
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return time.Duration(f * float64(time.Second)), nil
		}
		return 0, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be seconds or a duration such as '30s', not %q", name, v)
	}
	return 0, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be seconds or a duration", name)
}

// qualifyTable gives a resolution table written schema.table or table the
// calling session's catalog (its database and branch), as a statement in
// that session would read it; catalog.schema.table stays as written. The
// one reading of such names is sqltext.ParseTableName (public is main).
func qualifyTable(c Caller, ref string) string {
	n, ok := sqltext.ParseTableName(ref)
	if !ok || n.Catalog != "" || c == nil || c.Branch() == "" {
		return ref // as written: the merge says what is wrong with it
	}
	n.Catalog = branches.BranchAlias(c.Database(), c.Branch())
	if n.Schema == "" {
		n.Schema = "main"
	}
	return n.String()
}

func mergeOptions(c Caller, a args) (merge.Options, error) {
	var o merge.Options
	if c != nil {
		o.Notice = c.Notice
	}
	o.RequestID = a.str("request_id")
	for _, f := range []struct {
		name string
		dst  *int64
	}{{"expected_base_snapshot_id", &o.ExpectedBase}, {"expected_ours_snapshot_id", &o.ExpectedOurs}, {"expected_theirs_snapshot_id", &o.ExpectedTheirs}} {
		v, err := a.int64(f.name)
		if err != nil {
			return o, err
		}
		*f.dst = v
	}
	for _, f := range []struct {
		name string
		dst  *bool
	}{{"snapshot_target", &o.SnapshotTarget}, {"validate", &o.Validate}} {
		v, err := a.boolean(f.name)
		if err != nil {
			return o, err
		}
		*f.dst = v
	}
	if a["in_place"] != nil {
		inPlace, err := a.boolean("in_place")
		if err != nil {
			return o, err
		}
		o.CopyTarget = !inPlace
	}
	for _, f := range []struct {
		name string
		dst  *time.Duration
	}{{"lock_timeout", &o.LockTimeout}, {"timeout", &o.Timeout}} {
		v, err := a.duration(f.name)
		if err != nil {
			return o, err
		}
		*f.dst = v
	}
	switch v := a["resolution_tables"].(type) {
	case nil:
	case map[string]any:
		o.Resolutions.Tables = map[string]string{}
		for k, ref := range v {
			s, ok := ref.(string)
			if !ok || s == "" {
				return o, vsqlerr.New(vsqlerr.InvalidArgument, "resolution_tables => maps each table to a table name such as 'scratch.public.decisions'")
			}
			o.Resolutions.Tables[k] = qualifyTable(c, s)
		}
	default:
		return o, vsqlerr.New(vsqlerr.InvalidArgument, "resolution_tables => must be a map, e.g. map {'orders': 'scratch.public.decisions'}")
	}
	o.Resolutions.Strategy = a.str("conflict_strategy")
	switch o.Resolutions.Strategy {
	case "", "ours", "theirs":
	default:
		return o, vsqlerr.New(vsqlerr.InvalidArgument, "conflict_strategy => must be 'ours' or 'theirs', not %q", o.Resolutions.Strategy)
	}
	for _, l := range []struct {
		name string
		dst  *int64
	}{{"max_rows", &o.MaxRows}, {"max_input_bytes", &o.MaxInputBytes}, {"max_staging_bytes", &o.MaxStagingBytes},
		{"offset", &o.DetailsOffset}, {"limit", &o.DetailsLimit}} {
		v, err := a.int64(l.name)
		if err != nil {
			return o, err
		}
		if v < 0 {
			return o, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must not be negative", l.name)
		}
		*l.dst = v
	}
	o.SchemaMode = a.str("schema_mode")
	switch o.SchemaMode {
	case "", "strict", "additive", "catalog":
	default:
		return o, vsqlerr.New(vsqlerr.InvalidArgument, "schema_mode => must be strict, additive or catalog, not %q", o.SchemaMode)
	}
	return o, nil
}

var guardParams = []param{{"async", false}, {"in_place", false}, {"max_rows", false}, {"max_input_bytes", false}, {"max_staging_bytes", false}, {"request_id", false}, {"resolution_tables", false}, {"conflict_strategy", false}, {"expected_base_snapshot_id", false}, {"expected_ours_snapshot_id", false},
	{"expected_theirs_snapshot_id", false}, {"schema_mode", false}, {"lock_timeout", false}, {"timeout", false}}

var mergeResultColumns = []column{{"branch_name", tVarchar}, {"snapshot_id", tBigint}, {"merge_action", tVarchar},
	{"base_snapshot_id", tBigint}, {"ours_snapshot_id", tBigint}, {"theirs_snapshot_id", tBigint},
	{"selection_ms", tDouble}, {"target_check_ms", tDouble}, {"comparison_ms", tDouble}, {"application_ms", tDouble}, {"publication_ms", tDouble},
	{"ours_inserts", tBigint}, {"ours_updates", tBigint}, {"ours_deletes", tBigint},
	{"theirs_inserts", tBigint}, {"theirs_updates", tBigint}, {"theirs_deletes", tBigint},
	{"request_id", tVarchar}, {"operation_id", tVarchar}, {"state", tVarchar}}

func mergeResultRow(r merge.Result) []any {
	return []any{r.Branch, r.Snapshot, r.Action, r.Base, r.Ours, r.Theirs,
		r.SelectionMS, r.TargetCheckMS, r.ComparisonMS, r.ApplicationMS, r.PublicationMS,
		r.OursInserts, r.OursUpdates, r.OursDeletes, r.TheirsInserts, r.TheirsUpdates, r.TheirsDeletes,
		nullable(r.RequestID), nullable(r.OperationID), nullable(r.State)}
}

var previewColumns = []column{{"object_type", tVarchar}, {"object_name", tVarchar}, {"table_name", tVarchar},
	{"base_snapshot_id", tBigint}, {"ours_snapshot_id", tBigint}, {"theirs_snapshot_id", tBigint},
	{"ours_inserts", tBigint}, {"ours_updates", tBigint}, {"ours_deletes", tBigint},
	{"theirs_inserts", tBigint}, {"theirs_updates", tBigint}, {"theirs_deletes", tBigint},
	{"conflicts", tBigint}, {"resolved_conflicts", tBigint}, {"conflict_details", tConflicts},
	{"schema_changes", tSchemaChanges}, {"table_action", tVarchar}, {"view_change", tViewChange}, {"schema_conflicts", tBigint},
	{"schema_conflict_details", tSchemaConflicts}, {"validation_state", tVarchar}}

func previewRows(rows []merge.PreviewRow) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		details := make([]any, len(r.Details))
		for j, d := range r.Details {
			columns := make([]any, len(d.Columns))
			for k, c := range d.Columns {
				columns[k] = c
			}
			details[j] = map[string]any{"key": d.KeyValues, "key_json": d.Key, "kind": d.Kind, "columns": columns,
				"base_present": d.BasePresent, "ours_present": d.OursPresent, "theirs_present": d.TheirsPresent,
				"base": d.BaseValues, "ours": d.OursValues, "theirs": d.TheirsValues,
				"base_json": nullable(d.Base), "ours_json": nullable(d.Ours), "theirs_json": nullable(d.Theirs)}
		}
		changes := make([]any, len(r.SchemaChanges))
		for j, c := range r.SchemaChanges {
			changes[j] = map[string]any{"column_name": c.Column, "source": c.Source, "sql_type": c.SQLType, "action": c.Action}
		}
		conflicts := make([]any, len(r.SchemaConflicts))
		for j, c := range r.SchemaConflicts {
			conflicts[j] = map[string]any{"kind": c.Kind, "column_name": nullable(c.Column), "detail": c.Detail}
		}
		var view any
		if v := r.ViewChange; v != nil {
			view = map[string]any{"action": v.Action, "source": nullable(v.Source), "definition": nullable(v.Definition)}
		}
		out[i] = []any{r.ObjectType, r.ObjectName, nullable(r.TableName), r.Base, r.Ours, r.Theirs,
			r.OursInserts, r.OursUpdates, r.OursDeletes, r.TheirsInserts, r.TheirsUpdates, r.TheirsDeletes,
			r.Conflicts, r.ResolvedConflicts, details, changes, nullable(r.TableAction), view, int64(len(r.SchemaConflicts)), conflicts, r.ValidationState}
	}
	return out
}

func simple(t duckdb.Type) duckdb.TypeInfo { ti, _ := duckdb.NewTypeInfo(t); return ti }

func entry(t duckdb.TypeInfo, name string) duckdb.StructEntry {
	e, _ := duckdb.NewStructEntry(t, name)
	return e
}

// typedValueType is the struct of one typed value in conflict details (see
// merge.typedValue): type, is_null, text, and one field per value kind.
func typedValueType() duckdb.TypeInfo {
	st, _ := duckdb.NewStructInfo(entry(simple(duckdb.TYPE_VARCHAR), "type"), entry(simple(duckdb.TYPE_BOOLEAN), "is_null"),
		entry(simple(duckdb.TYPE_VARCHAR), "text"), entry(simple(duckdb.TYPE_BOOLEAN), "boolean_value"),
		entry(simple(duckdb.TYPE_BIGINT), "integer_value"), entry(simple(duckdb.TYPE_DOUBLE), "double_value"),
		entry(simple(duckdb.TYPE_VARCHAR), "varchar_value"), entry(simple(duckdb.TYPE_BLOB), "blob_value"),
		entry(simple(duckdb.TYPE_DATE), "date_value"), entry(simple(duckdb.TYPE_TIMESTAMP), "timestamp_value"),
		entry(simple(duckdb.TYPE_TIMESTAMP_TZ), "timestamptz_value"))
	return st
}

// varcharStruct is a struct of VARCHAR fields.
func varcharStruct(fields ...string) duckdb.TypeInfo {
	entries := make([]duckdb.StructEntry, len(fields))
	for i, f := range fields {
		entries[i] = entry(simple(duckdb.TYPE_VARCHAR), f)
	}
	st, _ := duckdb.NewStructInfo(entries[0], entries[1:]...)
	return st
}

// structListType is a list of structs of VARCHAR fields.
func structListType(fields ...string) duckdb.TypeInfo {
	l, _ := duckdb.NewListInfo(varcharStruct(fields...))
	return l
}

func conflictsType() duckdb.TypeInfo {
	list, _ := duckdb.NewListInfo(simple(duckdb.TYPE_VARCHAR))
	keyList, _ := duckdb.NewListInfo(typedValueType())
	row := func() duckdb.TypeInfo {
		m, _ := duckdb.NewMapInfo(simple(duckdb.TYPE_VARCHAR), typedValueType())
		return m
	}
	st, _ := duckdb.NewStructInfo(entry(keyList, "key"), entry(simple(duckdb.TYPE_VARCHAR), "key_json"), entry(simple(duckdb.TYPE_VARCHAR), "kind"),
		entry(list, "columns"), entry(simple(duckdb.TYPE_BOOLEAN), "base_present"), entry(simple(duckdb.TYPE_BOOLEAN), "ours_present"),
		entry(simple(duckdb.TYPE_BOOLEAN), "theirs_present"), entry(row(), "base"), entry(row(), "ours"), entry(row(), "theirs"),
		entry(simple(duckdb.TYPE_VARCHAR), "base_json"), entry(simple(duckdb.TYPE_VARCHAR), "ours_json"), entry(simple(duckdb.TYPE_VARCHAR), "theirs_json"))
	out, _ := duckdb.NewListInfo(st)
	return out
}

func init() {
	functions = append(functions, requestFunctions()...)
	functions = append(functions, statusFunction())
	functions = append(functions, privilegeFunctions()...)
	functions = append(functions,
		function{
			name:    "vsql_merge_branch",
			heavy:   true,
			params:  append([]param{{"db", true}, {"ours", true}, {"theirs", true}, {"destination", true}, {"snapshot_target", false}}, guardParams...),
			columns: mergeResultColumns,
			mutates: true,
			merges:  true,
			runMerge: withOptions([]string{"ours", "theirs"}, func(ctx context.Context, b Merges, db string, a args, opt merge.Options) ([][]any, error) {
				run := func(ctx context.Context, opt merge.Options) (merge.Result, error) {
					return b.MergeBranch(ctx, db, a.str("ours"), a.str("theirs"), a.str("destination"), opt)
				}
				r, err := runMaybeAsync(ctx, b, db, a, opt, run)
				if err != nil {
					return nil, err
				}
				return [][]any{mergeResultRow(r)}, nil
			}),
		},
		function{
			name:    "vsql_merge_snapshots",
			heavy:   true,
			params:  append([]param{{"db", true}, {"base", true}, {"ours", true}, {"theirs", true}, {"destination", true}}, guardParams...),
			columns: mergeResultColumns,
			mutates: true,
			merges:  true,
			runMerge: withOptions([]string{"base", "ours", "theirs"}, func(ctx context.Context, b Merges, db string, a args, opt merge.Options) ([][]any, error) {
				run := func(ctx context.Context, opt merge.Options) (merge.Result, error) {
					return b.MergeSnapshots(ctx, db, a.str("base"), a.str("ours"), a.str("theirs"), a.str("destination"), opt)
				}
				r, err := runMaybeAsync(ctx, b, db, a, opt, run)
				if err != nil {
					return nil, err
				}
				return [][]any{mergeResultRow(r)}, nil
			}),
		},
		function{
			name:    "vsql_merge_branch_preview",
			heavy:   true,
			params:  []param{{"db", true}, {"ours", true}, {"theirs", true}, {"validate", false}, {"schema_mode", false}, {"resolution_tables", false}, {"conflict_strategy", false}, {"offset", false}, {"limit", false}},
			columns: previewColumns,
			merges:  true,
			runMerge: withOptions([]string{"ours", "theirs"}, func(ctx context.Context, b Merges, db string, a args, opt merge.Options) ([][]any, error) {
				rows, err := b.PreviewBranch(ctx, db, a.str("ours"), a.str("theirs"), opt)
				if err != nil {
					return nil, err
				}
				return previewRows(rows), nil
			}),
		},
		function{
			name:    "vsql_merge_snapshots_preview",
			heavy:   true,
			params:  []param{{"db", true}, {"base", true}, {"ours", true}, {"theirs", true}, {"validate", false}, {"schema_mode", false}, {"resolution_tables", false}, {"conflict_strategy", false}, {"offset", false}, {"limit", false}},
			columns: previewColumns,
			merges:  true,
			runMerge: withOptions([]string{"base", "ours", "theirs"}, func(ctx context.Context, b Merges, db string, a args, opt merge.Options) ([][]any, error) {
				rows, err := b.PreviewSnapshots(ctx, db, a.str("base"), a.str("ours"), a.str("theirs"), opt)
				if err != nil {
					return nil, err
				}
				return previewRows(rows), nil
			}),
		},
		function{
			name:   "vsql_merge_branch_preflight",
			heavy:  true,
			params: []param{{"db", true}, {"ours", true}, {"theirs", true}, {"destination", true}, {"snapshot_target", false}, {"schema_mode", false}, {"resolution_tables", false}, {"conflict_strategy", false}},
			columns: []column{{"ready", tBoolean}, {"merge_action", tVarchar}, {"target_state", tVarchar}, {"validation_state", tVarchar},
				{"base_snapshot_id", tBigint}, {"ours_snapshot_id", tBigint}, {"theirs_snapshot_id", tBigint}, {"issues", tVarcharList}},
			merges: true,
			runMerge: withOptions([]string{"ours", "theirs"}, func(ctx context.Context, b Merges, db string, a args, opt merge.Options) ([][]any, error) {
				p, err := b.PreflightBranch(ctx, db, a.str("ours"), a.str("theirs"), a.str("destination"), opt)
				if err != nil {
					return nil, err
				}
				issues := make([]any, len(p.Issues))
				for i, s := range p.Issues {
					issues[i] = s
				}
				return [][]any{{p.Ready, nullable(p.Action), nullable(p.TargetState), p.Validation, bigint(p.Base), bigint(p.Ours), bigint(p.Theirs), issues}}, nil
			}),
		},
		function{
			name:   "vsql_merge_ancestry",
			params: []param{{"db", true}, {"a", true}, {"b", true}},
			columns: []column{{"snapshot_id", tBigint}, {"kind", tVarchar}, {"parents", tBigintList}, {"reachable_from", tVarchar},
				{"candidate", tBoolean}, {"selected_base", tBigint}, {"selection_state", tVarchar}},
			merges: true,
			runMerge: func(ctx context.Context, b Merges, db string, a args) ([][]any, error) {
				if err := needBranches(a, "a", "b"); err != nil {
					return nil, err
				}
				anc, err := b.AncestryOf(ctx, db, a.str("a"), a.str("b"))
				if err != nil {
					return nil, err
				}
				out := make([][]any, len(anc.Rows))
				for i, r := range anc.Rows {
					parents := make([]any, len(r.Parents))
					for j, p := range r.Parents {
						parents[j] = p
					}
					out[i] = []any{r.Snapshot, r.Kind, parents, r.ReachableFrom, r.Candidate, bigint(r.SelectedBase), r.State}
				}
				return out, nil
			},
		},
	)
	// Every function is now in the list: the rewrite sends bare calls to
	// the schema the server creates the macros in (TestMacros checks).
	sqltext.ProvideTableFunctions(Names()...)
}

func requestFunctions() []function {
	return []function{
		{
			name:   "vsql_merge_requests",
			params: []param{{"db", true}, {"request_id", false}},
			columns: []column{{"request_id", tVarchar}, {"operation_id", tVarchar}, {"state", tVarchar}, {"merge_action", tVarchar},
				{"destination", tVarchar}, {"base_snapshot_id", tBigint}, {"ours_snapshot_id", tBigint}, {"theirs_snapshot_id", tBigint},
				{"result_snapshot_id", tBigint}, {"last_error_code", tVarchar}, {"last_error_hint", tVarchar}, {"created_at", tTimestamptz}, {"updated_at", tTimestamptz}},
			merges: true,
			runMerge: func(ctx context.Context, b Merges, db string, a args) ([][]any, error) {
				reqs, err := b.Requests(ctx, db, a.str("request_id"))
				if err != nil {
					return nil, err
				}
				out := make([][]any, len(reqs))
				for i, r := range reqs {
					out[i] = []any{r.RequestID, r.OperationID, r.State, nullable(r.MergeAction), nullable(r.Destination), bigint(r.Base), bigint(r.Ours),
						bigint(r.Theirs), bigint(r.Result), nullable(r.ErrorCode), nullable(r.ErrorHint), r.CreatedAt, r.UpdatedAt}
				}
				return out, nil
			},
		},
		{
			name:    "vsql_merge_resolutions",
			params:  []param{{"db", true}, {"request_id", true}},
			columns: []column{{"table_name", tVarchar}, {"key", tTypedKey}, {"key_json", tJSON}, {"action", tVarchar}, {"columns", tJSON}, {"source", tVarchar}},
			merges:  true,
			runMerge: func(ctx context.Context, b Merges, db string, a args) ([][]any, error) {
				if err := needBranches(a, "request_id"); err != nil {
					return nil, err
				}
				rs, err := b.Resolutions(ctx, db, a.str("request_id"))
				if err != nil {
					return nil, err
				}
				out := make([][]any, len(rs))
				for i, r := range rs {
					out[i] = []any{r.Table, r.KeyValues, r.Key, r.Action, nullable(r.Columns), r.Source}
				}
				return out, nil
			},
		},
		{
			name:    "vsql_abort_merge",
			params:  []param{{"db", true}, {"operation_id", true}, {"request_id", false}},
			columns: []column{{"request_id", tVarchar}, {"operation_id", tVarchar}, {"state", tVarchar}, {"snapshot_id", tBigint}},
			mutates: true,
			merges:  true,
			runMerge: func(ctx context.Context, b Merges, db string, a args) ([][]any, error) {
				if err := needBranches(a, "operation_id"); err != nil {
					return nil, err
				}
				r, err := b.Abort(ctx, db, a.str("operation_id"))
				if err != nil {
					return nil, err
				}
				return [][]any{{r.RequestID, r.OperationID, r.State, bigint(r.Result)}}, nil
			},
		},
	}
}

// runMaybeAsync runs a merge, in the background with async => true. A
// synchronous merge that runs longer than a second reports its progress to
// the caller as NOTICE messages, at most one a second.
func runMaybeAsync(ctx context.Context, b Merges, db string, a args, opt merge.Options, run func(context.Context, merge.Options) (merge.Result, error)) (merge.Result, error) {
	async, err := a.boolean("async")
	if err != nil {
		return merge.Result{}, err
	}
	if async {
		opt.Notice = nil // the statement has returned by then
		return b.Async(ctx, db, opt, run)
	}
	if caller, ok := ctx.Value(callerKey{}).(Caller); ok {
		start, last := time.Now(), time.Time{}
		phases, _ := caller.(PhaseReporter)
		opt.Progress = func(message string) {
			if phases != nil {
				phases.Phase(message)
			}
			if time.Since(start) < time.Second || time.Since(last) < time.Second {
				return
			}
			last = time.Now()
			caller.Notice(message)
		}
		if phases != nil {
			defer phases.Phase("")
		}
	}
	return run(ctx, opt)
}

// PhaseReporter is implemented by callers that show what a long call is
// doing while it runs (pg_stat_activity): Phase gets each progress message
// of a merge, the name of any other heavy call (snapshots, diffs,
// restores) while it runs, and "" when the call ends.
type PhaseReporter interface {
	Phase(message string)
}

func statusFunction() function {
	return function{
		name:   "vsql_merge_status",
		params: nil,
		columns: []column{{"operation_id", tVarchar}, {"request_id", tVarchar}, {"database_name", tVarchar}, {"destination", tVarchar},
			{"phase", tVarchar}, {"table_name", tVarchar}, {"rows_compared", tBigint}, {"rows_applied", tBigint}, {"started_at", tTimestamptz}},
		merges: true,
		runMerge: func(ctx context.Context, b Merges, db string, a args) ([][]any, error) {
			list := b.Running()
			c := callerOf(ctx)
			var out [][]any
			for _, s := range list {
				if !c.CanRead(s.Database, "") {
					continue
				}
				out = append(out, []any{s.OperationID, nullable(s.RequestID), s.Database, nullable(s.Destination), s.Phase, nullable(s.Table), s.RowsCompared, s.RowsApplied, s.Started})
			}
			return out, nil
		},
	}
}

// withOptions parses a merge call's named options and checks its required
// arguments before running fn.
func withOptions(required []string, fn func(ctx context.Context, b Merges, db string, a args, opt merge.Options) ([][]any, error)) func(context.Context, Merges, string, args) ([][]any, error) {
	return func(ctx context.Context, b Merges, db string, a args) ([][]any, error) {
		opt, err := mergeOptions(callerOf(ctx), a)
		if err != nil {
			return nil, err
		}
		if err := needBranches(a, required...); err != nil {
			return nil, err
		}
		return fn(ctx, b, db, a, opt)
	}
}

// needBranches requires the named positional arguments.
func needBranches(a args, names ...string) error {
	for _, n := range names {
		if a.str(n) == "" {
			return vsqlerr.New(vsqlerr.InvalidArgument, "%s is required", n)
		}
	}
	return nil
}

// count accepts a whole number of 0 or more (absent is 0).
func (a args) count(name string) (int, error) {
	switch v := a[name].(type) {
	case nil:
		return 0, nil
	case float64:
		if v == float64(int(v)) && v >= 0 {
			return int(v), nil
		}
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 {
			return n, nil
		}
	}
	return 0, vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be a whole number of 0 or more, not %v", name, a[name])
}

// intervalUnits are the units an interval argument may use, as PostgreSQL
// and DuckDB print and read them (a month is 30 days, a year 365).
var intervalUnits = map[string]time.Duration{
	"second": time.Second, "sec": time.Second, "s": time.Second,
	"minute": time.Minute, "min": time.Minute, "m": time.Minute,
	"hour": time.Hour, "h": time.Hour,
	"day": 24 * time.Hour, "d": 24 * time.Hour,
	"week": 7 * 24 * time.Hour, "w": 7 * 24 * time.Hour,
	"month": 30 * 24 * time.Hour, "mon": 30 * 24 * time.Hour,
	"year": 365 * 24 * time.Hour, "y": 365 * 24 * time.Hour,
}

// interval accepts an INTERVAL (DuckDB passes '7 days', '1 day 02:00:00',
// '01:30:00'), a number of seconds, or a Go duration such as '90m'.
func (a args) interval(name string) (time.Duration, error) {
	v, ok := a[name].(string)
	if !ok {
		return a.duration(name)
	}
	bad := vsqlerr.New(vsqlerr.InvalidArgument, "%s => must be an interval such as '7 days' or '12 hours', not %q", name, v)
	fields := strings.Fields(strings.ToLower(v))
	if len(fields) == 0 {
		return 0, bad
	}
	var total time.Duration
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if strings.Contains(f, ":") { // hh:mm[:ss[.fff]]
			parts := strings.Split(f, ":")
			if len(parts) > 3 {
				return 0, bad
			}
			units := []time.Duration{time.Hour, time.Minute, time.Second}
			for j, p := range parts {
				n, err := strconv.ParseFloat(p, 64)
				if err != nil || n < 0 {
					return 0, bad
				}
				total += time.Duration(n * float64(units[j]))
			}
			continue
		}
		n, err := strconv.ParseFloat(f, 64)
		if err != nil {
			if d, derr := time.ParseDuration(f); derr == nil && len(fields) == 1 {
				return d, nil
			}
			return 0, bad
		}
		if i+1 == len(fields) {
			if len(fields) == 1 { // a bare number is seconds
				return time.Duration(n * float64(time.Second)), nil
			}
			return 0, bad
		}
		i++
		unit, found := intervalUnits[strings.TrimSuffix(fields[i], "s")]
		if !found {
			unit, found = intervalUnits[fields[i]]
		}
		if !found {
			return 0, bad
		}
		total += time.Duration(n * float64(unit))
	}
	if total < 0 {
		return 0, bad
	}
	return total, nil
}

// formatInterval prints a duration as an interval ('7 days', '36:00:00'
// for what is not whole days); "" for zero.
func formatInterval(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	day := 24 * time.Hour
	days, rest := d/day, d%day
	var parts []string
	switch {
	case days == 1:
		parts = append(parts, "1 day")
	case days > 1:
		parts = append(parts, fmt.Sprintf("%d days", days))
	}
	if rest > 0 {
		s := rest / time.Second
		parts = append(parts, fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60))
	}
	return strings.Join(parts, " ")
}
