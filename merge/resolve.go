package merge

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/sqlrows"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Resolutions are the decisions a merge applies to conflicts.
type Resolutions struct {
	// Tables maps a merged table ("orders", "main.orders" or
	// "public.orders") to a resolution table "catalog.schema.table"
	// (public is main; package sqlfuncs qualifies schema.table and table
	// with the calling session's catalog).
	Tables map[string]string
	// Strategy ("ours" or "theirs") decides every conflict no table decided.
	Strategy string
}

// Decision actions of a resolution table's _merge_action column.
var decisionActions = []string{"cells", "ours", "theirs", "delete", "custom"}

// normalizeTable is the merged table a resolution_tables key names:
// orders, public.orders and main.orders are one table (sqltext.ParseTableName
// reads public as main); other names stay as written and match no table.
func normalizeTable(name string) string {
	if n, ok := sqltext.ParseTableName(name); ok && (n.Schema == "" || n.Schema == "main") && n.Catalog == "" {
		return n.Table
	}
	return name
}

// frozenPath is where a request's decisions are frozen on first use.
func (m *Merger) frozenPath(db, operationID string) string {
	return m.versions.DataPath("requests", db, operationID+".duckdb")
}

// loadDecisions copies each table's decisions into a temp table on the
// merge connection: from the request's frozen copy when there is one,
// else from the resolution tables named in res (and, with freeze set,
// freezes them). It returns table name → temp table.
func (m *Merger) loadDecisions(ctx context.Context, s *session, results []*TableResult, res Resolutions, frozen string, freeze bool, op string) (map[string]string, error) {
	out := map[string]string{}
	byTable := map[string]string{}
	for k, v := range res.Tables {
		byTable[normalizeTable(k)] = v
	}
	known := map[string]bool{}
	for _, r := range results {
		known[r.Table] = true
	}
	names := make([]string, 0, len(byTable))
	for n := range byTable {
		if !known[n] {
			return nil, vsqlerr.New(vsqlerr.InvalidArgument, "resolution_tables names %q, which is not a merged table", n)
		}
		names = append(names, n)
	}
	sort.Strings(names)
	useFrozen := false
	if frozen != "" {
		if _, err := os.Stat(frozen); err == nil {
			useFrozen = true
		}
	}
	frozenAlias := "__vsql_frozen_" + op
	if useFrozen || (freeze && len(names) > 0) {
		if err := os.MkdirAll(filepath.Dir(frozen), 0o755); err != nil {
			return nil, err
		}
		q := "ATTACH " + sqltext.QuoteString(frozen) + " AS " + sqltext.QuoteIdent(frozenAlias)
		if useFrozen {
			q += " (READ_ONLY)"
		}
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("open frozen decisions: %w", err)
		}
		defer s.conn.ExecContext(context.Background(), "DETACH "+sqltext.QuoteIdent(frozenAlias))
	}
	if useFrozen {
		// The decisions of the first attempt, whatever the tables hold now.
		return out, sqlrows.Of(s.conn.QueryContext(ctx, "SELECT table_name FROM duckdb_tables() WHERE database_name = "+sqltext.QuoteString(frozenAlias)))(func(v []any) error {
			name := strings.TrimPrefix(fmt.Sprint(v[0]), "d_")
			tmp := fmt.Sprintf("__vsql_dec_%s_%d", op, len(out))
			s.temps = append(s.temps, tmp)
			out[name] = tmp
			_, err := s.conn.ExecContext(ctx, "CREATE OR REPLACE TEMP TABLE "+sqltext.QuoteIdent(tmp)+" AS SELECT * FROM "+
				sqltext.QuoteIdent(frozenAlias)+".main."+sqltext.QuoteIdent("d_"+name))
			return err
		})
	}
	for i, name := range names {
		var target *table
		for _, r := range results {
			if r.Table == name {
				target = r.t
			}
		}
		src, err := m.checkResolutionTable(ctx, s.conn, byTable[name], target)
		if err != nil {
			return nil, err
		}
		tmp := fmt.Sprintf("__vsql_dec_%s_%d", op, i)
		s.temps = append(s.temps, tmp)
		if _, err := s.conn.ExecContext(ctx, "CREATE OR REPLACE TEMP TABLE "+sqltext.QuoteIdent(tmp)+" AS SELECT * FROM "+src); err != nil {
			return nil, fmt.Errorf("read resolution table %s: %w", byTable[name], err)
		}
		out[name] = tmp
		if freeze {
			if _, err := s.conn.ExecContext(ctx, "CREATE TABLE "+sqltext.QuoteIdent(frozenAlias)+".main."+sqltext.QuoteIdent("d_"+name)+
				" AS SELECT * FROM "+sqltext.QuoteIdent(tmp)); err != nil {
				return nil, fmt.Errorf("freeze decisions: %w", err)
			}
		}
	}
	if freeze && len(names) > 0 {
		if _, err := s.conn.ExecContext(ctx, "CHECKPOINT "+sqltext.QuoteIdent(frozenAlias)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkResolutionTable validates a resolution table reference and returns
// its quoted name: a committed, native table (not temporary, not a view)
// with exactly the target's columns plus _merge_action and _merge_columns.
func (m *Merger) checkResolutionTable(ctx context.Context, conn *sql.Conn, ref string, t *table) (string, error) {
	n, ok := sqltext.ParseTableName(ref)
	if !ok || n.Catalog == "" {
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %q must be written catalog.schema.table (schema public or main)", ref)
	}
	parts := []string{n.Catalog, n.Schema, n.Table}
	if parts[0] == "temp" {
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %s is temporary; use a committed table (a scratch database is the natural place)", ref)
	}
	if strings.ContainsAny(parts[0], "/@") {
		if err := m.versions.EnsureAttached(ctx, parts[0]); err != nil {
			return "", err
		}
	}
	where := " WHERE database_name = " + sqltext.QuoteString(parts[0]) + " AND schema_name = " + sqltext.QuoteString(parts[1])
	var views int
	_ = conn.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_views()"+where+" AND view_name = "+sqltext.QuoteString(parts[2])).Scan(&views)
	if views > 0 {
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %s is a view; use a committed table", ref)
	}
	var temporary bool
	err := conn.QueryRowContext(ctx, "SELECT temporary FROM duckdb_tables()"+where+" AND table_name = "+sqltext.QuoteString(parts[2])).Scan(&temporary)
	if err == sql.ErrNoRows {
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %s does not exist (or the session cannot read it)", ref)
	}
	if err != nil {
		return "", err
	}
	if temporary {
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %s is temporary; use a committed table", ref)
	}
	have := map[string]string{}
	if err := sqlrows.Of(conn.QueryContext(ctx, "SELECT column_name, data_type FROM duckdb_columns()"+where+" AND table_name = "+sqltext.QuoteString(parts[2])))(func(v []any) error {
		have[fmt.Sprint(v[0])] = fmt.Sprint(v[1])
		return nil
	}); err != nil {
		return "", err
	}
	want := map[string]bool{"_merge_action": true, "_merge_columns": true}
	for _, c := range t.columns {
		want[c.name] = true
		if _, ok := have[c.name]; !ok {
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %s lacks column %q of table %s", ref, c.name, t.name)
		}
	}
	for c := range have {
		if !want[c] {
			return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %s has column %q, which table %s does not have", ref, c, t.name)
		}
	}
	if have["_merge_action"] != "VARCHAR" || have["_merge_columns"] != "MAP(VARCHAR, VARCHAR)" {
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "resolution table %s needs _merge_action VARCHAR and _merge_columns MAP(VARCHAR, VARCHAR)", ref)
	}
	return sqltext.QuoteIdent(parts[0]) + "." + sqltext.QuoteIdent(parts[1]) + "." + sqltext.QuoteIdent(parts[2]), nil
}

// applyDecisions validates one table's decisions against its conflicts and
// rewrites the resolved rows of the result table.
func applyDecisions(ctx context.Context, conn *sql.Conn, r *TableResult, dec string) error {
	t := r.t
	res, d := sqltext.QuoteIdent(r.resultTable), sqltext.QuoteIdent(dec)
	keyCols := map[string]bool{}
	var on, dk []string
	for i, col := range t.columns {
		for _, k := range t.key {
			if k == col.name {
				keyCols[k] = true
				on = append(on, fmt.Sprintf("r.m_%d = d.%s", i, sqltext.QuoteIdent(k)))
				dk = append(dk, "d."+sqltext.QuoteIdent(k))
			}
		}
	}
	join := " FROM " + d + " d LEFT JOIN " + res + " r ON " + strings.Join(on, " AND ")
	keyText := "'[' || concat_ws(',', " + strings.Join(func() []string {
		var out []string
		for _, k := range dk {
			out = append(out, "to_json("+k+")::VARCHAR")
		}
		return out
	}(), ", ") + ") || ']'"
	check := func(cond, format string) error {
		var key sql.NullString
		err := conn.QueryRowContext(ctx, "SELECT "+keyText+join+" WHERE "+cond+" LIMIT 1").Scan(&key)
		if err == sql.ErrNoRows {
			return nil
		}
		if err != nil {
			return err
		}
		return vsqlerr.New(vsqlerr.InvalidArgument, format, t.name, key.String)
	}
	var dup int64
	if err := conn.QueryRowContext(ctx, "SELECT count(*) FROM (SELECT "+strings.Join(dk, ", ")+" FROM "+d+" d GROUP BY ALL HAVING count(*) > 1)").Scan(&dup); err != nil {
		return err
	}
	if dup > 0 {
		return vsqlerr.New(vsqlerr.InvalidArgument, "resolution table for %s decides the same key more than once", t.name)
	}
	var allowed []string
	for _, a := range decisionActions {
		allowed = append(allowed, sqltext.QuoteString(a))
	}
	var keyList, nonKey []string
	for k := range keyCols {
		keyList = append(keyList, sqltext.QuoteString(k))
	}
	for _, c := range t.columns {
		if !keyCols[c.name] {
			nonKey = append(nonKey, sqltext.QuoteString(c.name))
		}
	}
	keyArr := "[" + strings.Join(keyList, ", ") + "]::VARCHAR[]"
	nonKeyArr := "[" + strings.Join(nonKey, ", ") + "]::VARCHAR[]"
	for _, c := range []struct{ cond, msg string }{
		{"r.action IS NULL OR r.action NOT IN ('cell', 'delete_update', 'insert_insert')", "resolution table for %s decides key %s, which has no conflict"},
		{"d._merge_action IS NULL OR d._merge_action NOT IN (" + strings.Join(allowed, ", ") + ")", "resolution table for %s: key %s has no valid _merge_action (cells, ours, theirs, delete or custom)"},
		{"d._merge_action = 'cells' AND r.action <> 'cell'", "resolution table for %s: key %s is not a cell conflict; decide it with ours, theirs, delete or custom"},
		{"d._merge_action = 'cells' AND len(list_filter(map_keys(d._merge_columns), c -> list_contains(" + keyArr + ", c))) > 0", "resolution table for %s: the decision for key %s changes a primary-key column; decisions never change a key"},
		{"d._merge_action = 'cells' AND len(list_filter(map_keys(d._merge_columns), c -> NOT list_contains(" + nonKeyArr + ", c))) > 0", "resolution table for %s: _merge_columns of key %s names a column the table does not have"},
		{"d._merge_action = 'cells' AND len(list_filter(r.conflict_columns, c -> d._merge_columns[c] IS NULL)) > 0", "resolution table for %s: _merge_columns of key %s does not decide every conflicting column"},
		{"d._merge_action = 'cells' AND len(list_filter(map_values(d._merge_columns), v -> v IS NULL OR v NOT IN ('ours', 'theirs', 'custom'))) > 0", "resolution table for %s: _merge_columns of key %s maps a column to something other than ours, theirs or custom"},
		{"d._merge_action <> 'cells' AND d._merge_columns IS NOT NULL", "resolution table for %s: key %s has _merge_columns, which only cells decisions take"},
	} {
		if err := check(c.cond, c.msg); err != nil {
			return err
		}
	}
	var sets []string
	for i, col := range t.columns {
		if keyCols[col.name] {
			continue
		}
		q := sqltext.QuoteIdent(col.name)
		name := sqltext.QuoteString(col.name)
		sets = append(sets, fmt.Sprintf(`m_%d = CASE d._merge_action
			WHEN 'cells' THEN CASE d._merge_columns[%s] WHEN 'ours' THEN %s.o_%d WHEN 'theirs' THEN %s.t_%d WHEN 'custom' THEN d.%s ELSE %s.m_%d END
			WHEN 'ours' THEN %s.o_%d WHEN 'theirs' THEN %s.t_%d WHEN 'custom' THEN d.%s ELSE %s.m_%d END`,
			i, name, res, i, res, i, q, res, i, res, i, res, i, q, res, i))
	}
	sets = append(sets, `action = CASE d._merge_action
			WHEN 'cells' THEN 'update'
			WHEN 'ours' THEN 'none'
			WHEN 'theirs' THEN CASE WHEN `+res+`.pt AND `+res+`.po THEN 'update' WHEN `+res+`.pt THEN 'insert' WHEN `+res+`.po THEN 'delete' ELSE 'none' END
			WHEN 'delete' THEN CASE WHEN `+res+`.po THEN 'delete' ELSE 'none' END
			ELSE CASE WHEN `+res+`.po THEN 'update' ELSE 'insert' END END`,
		"decision = d._merge_action", "decision_columns = to_json(d._merge_columns)::VARCHAR", "decided_by = 'table'")
	var where []string
	for i, col := range t.columns {
		if keyCols[col.name] {
			where = append(where, fmt.Sprintf("%s.m_%d = d.%s", res, i, sqltext.QuoteIdent(col.name)))
		}
	}
	q := "UPDATE " + res + " SET " + strings.Join(sets, ", ") + " FROM " + d + " d WHERE " + strings.Join(where, " AND ")
	if _, err := conn.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("apply decisions to %s: %w", t.name, err)
	}
	return nil
}

// applyStrategy decides every conflict still open with one side: the
// conflicting cells of a cell conflict take that side (the other cells
// still merge), and other conflicts take that side's whole row state.
func applyStrategy(ctx context.Context, conn *sql.Conn, r *TableResult, side string) error {
	t := r.t
	res := sqltext.QuoteIdent(r.resultTable)
	p := "o"
	if side == "theirs" {
		p = "t"
	}
	var sets []string
	for i, col := range t.columns {
		isKey := false
		for _, k := range t.key {
			isKey = isKey || k == col.name
		}
		if isKey {
			continue
		}
		name := sqltext.QuoteString(col.name)
		sets = append(sets, fmt.Sprintf("m_%d = CASE WHEN action <> 'cell' OR list_contains(conflict_columns, %s) THEN %s_%d ELSE m_%d END", i, name, p, i, i))
	}
	present := "po"
	if side == "theirs" {
		present = "pt"
	}
	sets = append(sets, `action = CASE WHEN action = 'cell' THEN 'update'
			WHEN `+present+` AND po THEN 'update' WHEN `+present+` THEN 'insert' WHEN po THEN 'delete' ELSE 'none' END`,
		"decision = CASE WHEN action = 'cell' THEN 'cells' ELSE "+sqltext.QuoteString(side)+" END",
		"decision_columns = CASE WHEN action = 'cell' THEN to_json(map_from_entries(list_transform(conflict_columns, c -> {'k': c, 'v': "+sqltext.QuoteString(side)+"})))::VARCHAR END",
		"decided_by = 'strategy'")
	q := "UPDATE " + res + " SET " + strings.Join(sets, ", ") + " WHERE decided_by IS NULL AND action IN ('cell', 'delete_update', 'insert_insert')"
	if _, err := conn.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("apply strategy to %s: %w", t.name, err)
	}
	return nil
}

// resolveAll applies decisions and the strategy to every table, recounts
// the conflicts left, and returns the audit of what was decided.
func (m *Merger) resolveAll(ctx context.Context, s *session, results []*TableResult, res Resolutions, frozen string, freeze bool, op string) ([]catalog.Resolution, error) {
	decs, err := m.loadDecisions(ctx, s, results, res, frozen, freeze, op)
	if err != nil {
		return nil, err
	}
	var audit []catalog.Resolution
	for _, r := range results {
		if r.identical {
			if dec, ok := decs[r.Table]; ok {
				var n int64
				if err := s.conn.QueryRowContext(ctx, "SELECT count(*) FROM "+sqltext.QuoteIdent(dec)).Scan(&n); err != nil {
					return nil, err
				}
				if n > 0 {
					return nil, vsqlerr.New(vsqlerr.InvalidArgument, "resolution table for %s decides %d keys, but %s has no conflicts", r.Table, n, r.Table)
				}
			}
			continue
		}
		if dec, ok := decs[r.Table]; ok {
			if err := applyDecisions(ctx, s.conn, r, dec); err != nil {
				return nil, err
			}
		}
		if res.Strategy != "" {
			if err := applyStrategy(ctx, s.conn, r, res.Strategy); err != nil {
				return nil, err
			}
		}
		if err := r.recount(ctx, s.conn); err != nil {
			return nil, err
		}
		if r.Resolved == 0 {
			continue
		}
		keyExpr, order := keyJSONExpr(r.t)
		q := "SELECT " + keyExpr + ", decision, decision_columns, decided_by, to_json(" + keyTypedExpr(r.t) + ")::VARCHAR FROM " + sqltext.QuoteIdent(r.resultTable) +
			" WHERE decided_by IS NOT NULL ORDER BY " + strings.Join(order, ", ")
		if err := sqlrows.Of(s.conn.QueryContext(ctx, q))(func(v []any) error {
			a := catalog.Resolution{Table: r.Table, Key: str(v[0]), Action: str(v[1]), Columns: str(v[2]), Source: str(v[3]), KeyValues: str(v[4])}
			audit = append(audit, a)
			return nil
		}); err != nil {
			return nil, err
		}
	}
	return audit, nil
}
