package merge

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Schema modes (the schema_mode => argument).
const (
	SchemaStrict   = "strict"
	SchemaAdditive = "additive"
	SchemaCatalog  = "catalog"
)

// Kinds of schema conflicts. Any of them blocks the whole merge;
// resolution tables decide rows, not schemas.
const (
	ConflictTableDeleteModify  = "table_delete_modify"  // one side removed a table the other changed
	ConflictColumnDeleteModify = "column_delete_modify" // one side removed a column whose values the other changed
	ConflictTableDefinition    = "table_definition"     // both sides added a table, differently
	ConflictColumnDefinition   = "column_definition"    // both sides added a column, differently
	ConflictViewDefinition     = "view_definition"      // both sides changed a view, differently
	ConflictViewBinding        = "view_binding"         // a view no longer binds in the merged catalog
	ConflictViewOutput         = "view_output"          // a view's output columns would change silently
)

// SchemaChange is one planned column change of a table.
type SchemaChange struct {
	Column, Source, SQLType, Action string // Source: ours, theirs or both; Action: add or drop
}

// SchemaConflict is one schema conflict of a table or view.
type SchemaConflict struct {
	Kind, Column, Detail string
}

// ViewChange is the planned change of a view, relative to the base.
type ViewChange struct {
	Action     string // unchanged, create, replace or drop
	Source     string // ours, theirs or both ("" when unchanged)
	Definition string // the result's definition ("" when dropped)
}

// tablePlan is what the merge does with one table.
type tablePlan struct {
	name string
	// action relative to the base: "" (the table stays), add (new in the
	// result) or drop (removed from the result).
	action string
	source string // for add and drop: ours, theirs or both
	sides  [3]*table
	// merged is the result's definition (nil when dropped or in conflict).
	merged      *table
	addColumns  []column // columns ours' table lacks
	dropColumns []string // columns of ours' table the result drops
	changes     []SchemaChange
	conflicts   []SchemaConflict
}

// viewPlan is what the merge does with one view.
type viewPlan struct {
	name      string
	change    ViewChange
	columns   []column // the output columns of the chosen definition, as its input binds them
	conflicts []SchemaConflict
}

// schemaPlan is the merged catalog: every table and view of the inputs.
type schemaPlan struct {
	mode   string
	tables []*tablePlan // in name order
	views  []*viewPlan  // in name order
	// viewOrder is the creation order (dependencies first) of the result's views.
	viewOrder []string
}

func (p *schemaPlan) table(name string) *tablePlan {
	for _, t := range p.tables {
		if t.name == name {
			return t
		}
	}
	return nil
}

func (p *schemaPlan) view(name string) *viewPlan {
	for _, v := range p.views {
		if v.name == name {
			return v
		}
	}
	return nil
}

// conflictError is the error of a plan with schema conflicts (nil without).
func (p *schemaPlan) conflictError() error {
	var parts []string
	for _, t := range p.tables {
		for _, c := range t.conflicts {
			parts = append(parts, fmt.Sprintf("%s on table %s (%s)", c.Kind, t.name, c.Detail))
		}
	}
	for _, v := range p.views {
		for _, c := range v.conflicts {
			parts = append(parts, fmt.Sprintf("%s on view %s (%s)", c.Kind, v.name, c.Detail))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return vsqlerr.New(vsqlerr.MergeSchemaConflict, "%d schema conflict(s): %s; nothing was published", len(parts), strings.Join(parts, "; "))
}

var sideNames = [3]string{"base", "ours", "theirs"}

func unsupported(format string, args ...any) error {
	return vsqlerr.New(vsqlerr.MergeUnsupported, format, args...)
}

// planSchema decides the merged catalog under the schema mode, refusing
// what no mode supports with merge_unsupported and recording schema
// conflicts in the plan.
func planSchema(ctx context.Context, conn *sql.Conn, mode string, base, ours, theirs *catalogShape) (*schemaPlan, error) {
	if mode == "" {
		mode = SchemaStrict
	}
	p := &schemaPlan{mode: mode}
	shapes := [3]*catalogShape{base, ours, theirs}
	if mode == SchemaStrict {
		if err := sameSchema(base, ours, theirs); err != nil {
			return nil, err
		}
	}
	names := map[string]bool{}
	for _, s := range shapes {
		for n := range s.tables {
			names[n] = true
		}
	}
	for _, n := range sortedKeys(names) {
		tp := &tablePlan{name: n, sides: [3]*table{base.tables[n], ours.tables[n], theirs.tables[n]}}
		if err := planTable(ctx, conn, mode, shapes, tp); err != nil {
			return nil, err
		}
		p.tables = append(p.tables, tp)
	}
	if err := planViews(mode, shapes, p); err != nil {
		return nil, err
	}
	if mode != SchemaStrict {
		if err := bindViews(ctx, conn, p); err != nil {
			return nil, err
		}
	} else {
		p.viewOrder = sortedKeys(keysOf(ours.views))
	}
	return p, nil
}

func planTable(ctx context.Context, conn *sql.Conn, mode string, shapes [3]*catalogShape, tp *tablePlan) error {
	b, o, t := tp.sides[0], tp.sides[1], tp.sides[2]
	n := tp.name
	switch {
	case b != nil && o != nil && t != nil:
		return planColumns(ctx, conn, mode, shapes, tp)
	case b != nil: // removed on at least one side
		tp.action = "drop"
		if mode != SchemaCatalog {
			return unsupported("schema mismatch: table %s was removed on %s; removing tables needs schema_mode => 'catalog'", n, removedOn(o, t))
		}
		tp.source = removedOn(o, t)
		for i, kept := range []*table{o, t} {
			if kept == nil {
				continue
			}
			same, err := tableUnchanged(ctx, conn, shapes[0].alias, shapes[i+1].alias, b, kept)
			if err != nil {
				return err
			}
			if !same {
				tp.conflicts = append(tp.conflicts, SchemaConflict{Kind: ConflictTableDeleteModify,
					Detail: fmt.Sprintf("%s removed it; %s changed its definition or rows", sideNames[2-i], sideNames[i+1])})
			}
		}
		return nil
	default: // added on at least one side
		tp.action = "add"
		if mode == SchemaStrict {
			return unsupported("schema mismatch: table %s exists in only some of the inputs (strict schema mode)", n)
		}
		tp.source = addedOn(o, t)
		for i, added := range []*table{o, t} {
			if added == nil {
				continue
			}
			if err := checkNewTable(added, sideNames[i+1]); err != nil {
				return err
			}
		}
		switch {
		case o != nil && t != nil && o.definition() != t.definition():
			tp.conflicts = append(tp.conflicts, SchemaConflict{Kind: ConflictTableDefinition,
				Detail: "both sides added it with different definitions: ours " + o.sql + "; theirs " + t.sql})
		case o != nil:
			tp.merged = o
		default:
			tp.merged = t
		}
		return nil
	}
}

func removedOn(o, t *table) string {
	switch {
	case o == nil && t == nil:
		return "both"
	case o == nil:
		return "ours"
	}
	return "theirs"
}

func addedOn(o, t *table) string {
	switch {
	case o != nil && t != nil:
		return "both"
	case o != nil:
		return "ours"
	}
	return "theirs"
}

// checkNewTable applies the additive rules to a table new on one side:
// defaults and CHECK constraints from the expression allowlist.
func checkNewTable(t *table, side string) error {
	for _, c := range t.columns {
		if c.defaultExpr != "" {
			if why := sqltext.UnsafeExpression(c.defaultExpr); why != "" {
				return unsupported("the default of column %s.%s (new on %s) is outside the allowlist: %s", t.name, c.name, side, why)
			}
		}
	}
	for _, k := range t.constraints {
		if why := sqltext.UnsafeExpression(k); why != "" {
			return unsupported("constraint %s of table %s (new on %s) is outside the allowlist: %s", k, t.name, side, why)
		}
	}
	return nil
}

// planColumns merges the columns of a table all three inputs have.
func planColumns(ctx context.Context, conn *sql.Conn, mode string, shapes [3]*catalogShape, tp *tablePlan) error {
	b := tp.sides[0]
	n := tp.name
	for i := 1; i <= 2; i++ {
		x := tp.sides[i]
		side := sideNames[i]
		for _, bc := range b.columns {
			xc, ok := x.column(bc.name)
			if !ok {
				continue
			}
			switch {
			case xc.dataType != bc.dataType:
				return unsupported("type change: column %s.%s is %s in the base and %s on %s (type changes are not merged)", n, bc.name, bc.dataType, xc.dataType, side)
			case xc.defaultExpr != bc.defaultExpr:
				return unsupported("changed default: column %s.%s on %s (changed defaults of existing columns are not merged)", n, bc.name, side)
			case xc.notNull != bc.notNull:
				return unsupported("changed constraint: NOT NULL of column %s.%s on %s (changed constraints of existing columns are not merged)", n, bc.name, side)
			}
		}
		if strings.Join(x.constraints, ";") != strings.Join(b.constraints, ";") {
			return unsupported("changed constraints: table %s on %s (changed keys, UNIQUE and CHECK constraints are not merged)", n, side)
		}
		if strings.Join(x.indexes, ";") != strings.Join(b.indexes, ";") {
			return unsupported("changed indexes: table %s on %s (index changes of existing tables are not merged)", n, side)
		}
		for _, xc := range x.columns {
			if _, inBase := b.column(xc.name); inBase {
				continue
			}
			if mode == SchemaStrict {
				return unsupported("schema mismatch: table %s has different definitions in the inputs (strict schema mode)", n)
			}
			if !x.plain(xc) {
				return unsupported("added column %s.%s on %s must be nullable, without a default and outside keys, constraints and indexes", n, xc.name, side)
			}
		}
	}
	if mode == SchemaStrict {
		tp.merged = tp.sides[1]
		return nil
	}
	o, t := tp.sides[1], tp.sides[2]
	merged := &table{name: n, key: b.key, indexes: b.indexes, constraints: b.constraints, constrained: b.constrained, rows: o.rows}
	// Base columns first (those removed on a side go), then the columns
	// ours added, then those only theirs added.
	for _, bc := range b.columns {
		_, inO := o.column(bc.name)
		_, inT := t.column(bc.name)
		if inO && inT {
			merged.columns = append(merged.columns, bc)
			continue
		}
		var oursKept, theirsKept *table
		if inO {
			oursKept = o
		}
		if inT {
			theirsKept = t
		}
		source := removedOn(oursKept, theirsKept)
		if mode != SchemaCatalog {
			return unsupported("schema mismatch: column %s.%s was removed on %s; removing columns needs schema_mode => 'catalog'", n, bc.name, source)
		}
		if !b.plain(bc) {
			return unsupported("removal of constrained column %s.%s on %s (only nullable columns without default, key, constraint or index can be removed)", n, bc.name, source)
		}
		tp.changes = append(tp.changes, SchemaChange{Column: bc.name, Source: source, SQLType: bc.dataType, Action: "drop"})
		if inO {
			tp.dropColumns = append(tp.dropColumns, bc.name)
		}
		for i, kept := range []bool{false, inO, inT} {
			if !kept {
				continue
			}
			same, err := columnUnchanged(ctx, conn, shapes[0].alias, shapes[i].alias, b, bc.name)
			if err != nil {
				return err
			}
			if !same {
				tp.conflicts = append(tp.conflicts, SchemaConflict{Kind: ConflictColumnDeleteModify, Column: bc.name,
					Detail: fmt.Sprintf("%s removed column %s; %s changed its values", sideNames[3-i], bc.name, sideNames[i])})
			}
		}
	}
	for _, oc := range o.columns {
		if _, inBase := b.column(oc.name); inBase {
			continue
		}
		source := "ours"
		if tc, inT := t.column(oc.name); inT {
			source = "both"
			if tc.dataType != oc.dataType {
				tp.conflicts = append(tp.conflicts, SchemaConflict{Kind: ConflictColumnDefinition, Column: oc.name,
					Detail: fmt.Sprintf("both sides added column %s: ours as %s, theirs as %s", oc.name, oc.dataType, tc.dataType)})
			}
		}
		merged.columns = append(merged.columns, oc)
		tp.changes = append(tp.changes, SchemaChange{Column: oc.name, Source: source, SQLType: oc.dataType, Action: "add"})
	}
	for _, tc := range t.columns {
		if _, inBase := b.column(tc.name); inBase {
			continue
		}
		if _, inO := o.column(tc.name); inO {
			continue
		}
		merged.columns = append(merged.columns, tc)
		tp.addColumns = append(tp.addColumns, tc)
		tp.changes = append(tp.changes, SchemaChange{Column: tc.name, Source: "theirs", SQLType: tc.dataType, Action: "add"})
	}
	// The definition the result's table has when it must be rebuilt.
	merged.sql = createTableSQL(merged)
	if len(tp.changes) == 0 {
		merged.sql = o.sql
	}
	tp.merged = merged
	return nil
}

// createTableSQL renders a table definition (for staging, where tables
// whose columns are removed are rebuilt). Column types, defaults and
// constraints are DuckDB's own renderings.
func createTableSQL(t *table) string {
	var parts []string
	for _, c := range t.columns {
		def := sqltext.QuoteIdent(c.name) + " " + c.dataType
		if c.defaultExpr != "" {
			def += " DEFAULT (" + c.defaultExpr + ")"
		}
		if c.notNull {
			def += " NOT NULL"
		}
		parts = append(parts, def)
	}
	parts = append(parts, t.constraints...)
	return "CREATE TABLE " + sqltext.QuoteIdent(t.name) + " (" + strings.Join(parts, ", ") + ")"
}

// tableUnchanged reports whether a table is exactly as in the base in
// another input: the same definition and the same rows.
func tableUnchanged(ctx context.Context, conn *sql.Conn, baseAlias, alias string, b, x *table) (bool, error) {
	if b.definition() != x.definition() {
		return false, nil
	}
	bt, xt := qualified(baseAlias, b.name), qualified(alias, x.name)
	q := "SELECT EXISTS (SELECT * FROM " + bt + " EXCEPT ALL SELECT * FROM " + xt + ") OR EXISTS (SELECT * FROM " + xt + " EXCEPT ALL SELECT * FROM " + bt + ")"
	var differs bool
	if err := conn.QueryRowContext(ctx, q).Scan(&differs); err != nil {
		return false, fmt.Errorf("compare table %s with the base: %w", b.name, err)
	}
	return !differs, nil
}

// columnUnchanged reports whether an input left a column's values as in
// the base: equal by key (IS NOT DISTINCT FROM) in the rows both have, and
// NULL in the rows the input inserted.
func columnUnchanged(ctx context.Context, conn *sql.Conn, baseAlias, alias string, b *table, col string) (bool, error) {
	var on []string
	for _, k := range b.key {
		on = append(on, "x."+sqltext.QuoteIdent(k)+" = b."+sqltext.QuoteIdent(k))
	}
	c := sqltext.QuoteIdent(col)
	q := "SELECT EXISTS (SELECT 1 FROM " + qualified(alias, b.name) + " x LEFT JOIN " + qualified(baseAlias, b.name) + " b ON " +
		strings.Join(on, " AND ") + " WHERE x." + c + " IS DISTINCT FROM b." + c + ")"
	var differs bool
	if err := conn.QueryRowContext(ctx, q).Scan(&differs); err != nil {
		return false, fmt.Errorf("compare column %s.%s with the base: %w", b.name, col, err)
	}
	return !differs, nil
}

func qualified(alias, name string) string {
	return sqltext.QuoteIdent(alias) + ".main." + sqltext.QuoteIdent(name)
}

// planViews merges view definitions as whole values: one side's change
// wins, equal changes agree, different changes conflict.
func planViews(mode string, shapes [3]*catalogShape, p *schemaPlan) error {
	names := map[string]bool{}
	for _, s := range shapes {
		for n := range s.views {
			names[n] = true
		}
	}
	for _, n := range sortedKeys(names) {
		vb, vo, vt := shapes[0].views[n], shapes[1].views[n], shapes[2].views[n]
		if mode != SchemaCatalog && (vb != vo || vb != vt) {
			return unsupported("schema mismatch: view %s differs between the inputs; merging view changes needs schema_mode => 'catalog'", n)
		}
		vp := &viewPlan{name: n}
		chosen, source, cols := vo, "ours", shapes[1].viewColumns[n]
		switch {
		case vo == vt:
			source = "both"
		case vo == vb:
			chosen, source, cols = vt, "theirs", shapes[2].viewColumns[n]
		case vt == vb:
		default:
			vp.conflicts = append(vp.conflicts, SchemaConflict{Kind: ConflictViewDefinition,
				Detail: "both sides changed it differently: ours " + orNone(vo) + "; theirs " + orNone(vt)})
		}
		vp.columns = cols
		vp.change = ViewChange{Action: "unchanged", Definition: chosen}
		if chosen != vb {
			vp.change.Source = source
			switch {
			case vb == "":
				vp.change.Action = "create"
			case chosen == "":
				vp.change.Action = "drop"
			default:
				vp.change.Action = "replace"
			}
		}
		if chosen != "" && mode != SchemaStrict && len(vp.conflicts) == 0 {
			if why := sqltext.UnsupportedView(chosen); why != "" {
				return unsupported("view %s is outside what merges re-create: %s", n, why)
			}
		}
		p.views = append(p.views, vp)
	}
	return nil
}

func orNone(def string) string {
	if def == "" {
		return "removed it"
	}
	return def
}

// bindViews re-binds the result's views against the merged catalog in a
// scratch in-memory database holding the result's tables (empty): a view
// that no longer binds is a view_binding conflict, one whose output columns
// would differ from its chosen definition's is a view_output conflict. The
// order in which views bind (dependencies first) is the order staging
// creates them in.
func bindViews(ctx context.Context, conn *sql.Conn, p *schemaPlan) (err error) {
	var pending []*viewPlan
	for _, v := range p.views {
		if v.change.Definition != "" && len(v.conflicts) == 0 {
			pending = append(pending, v)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	scratch := "__vsql_plan_" + newOperationID()
	prev, err := currentDatabase(ctx, conn)
	if err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "ATTACH ':memory:' AS "+sqltext.QuoteIdent(scratch)); err != nil {
		return err
	}
	defer func() {
		_, _ = conn.ExecContext(context.Background(), "USE "+sqltext.QuoteIdent(prev))
		_, _ = conn.ExecContext(context.Background(), "DETACH "+sqltext.QuoteIdent(scratch))
	}()
	if _, err := conn.ExecContext(ctx, "USE "+sqltext.QuoteIdent(scratch)); err != nil {
		return err
	}
	for _, t := range p.tables {
		def := t.merged
		if len(t.conflicts) > 0 { // bind against ours' version, so one conflict is reported once
			def = t.sides[1]
			if def == nil {
				def = t.sides[2]
			}
		}
		if def == nil {
			continue
		}
		var cols []string
		for _, c := range def.columns {
			cols = append(cols, sqltext.QuoteIdent(c.name)+" "+c.dataType)
		}
		if _, err := conn.ExecContext(ctx, "CREATE TABLE "+sqltext.QuoteIdent(t.name)+" ("+strings.Join(cols, ", ")+")"); err != nil {
			return fmt.Errorf("plan table %s: %w", t.name, err)
		}
	}
	// Views may depend on views: create what binds, pass after pass.
	failures := map[string]error{}
	for len(pending) > 0 {
		var next []*viewPlan
		for _, v := range pending {
			if _, err := conn.ExecContext(ctx, v.change.Definition); err != nil {
				failures[v.name] = err
				next = append(next, v)
				continue
			}
			delete(failures, v.name)
			p.viewOrder = append(p.viewOrder, v.name)
		}
		if len(next) == len(pending) {
			break
		}
		pending = next
	}
	for _, v := range pending {
		if err, failed := failures[v.name]; failed {
			v.conflicts = append(v.conflicts, SchemaConflict{Kind: ConflictViewBinding,
				Detail: "it does not bind in the merged catalog: " + vsqlerr.From(err).Message})
		}
	}
	bound := map[string][]column{}
	if err := queryRows(ctx, conn, "SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = "+
		sqltext.QuoteString(scratch)+" ORDER BY table_name, column_index", func(v []any) error {
		bound[str(v[0])] = append(bound[str(v[0])], column{name: str(v[1]), dataType: str(v[2])})
		return nil
	}); err != nil {
		return err
	}
	for _, name := range p.viewOrder {
		v := p.view(name)
		if got, want := columnList(bound[name]), columnList(v.columns); got != want {
			v.conflicts = append(v.conflicts, SchemaConflict{Kind: ConflictViewOutput,
				Detail: fmt.Sprintf("its output would change from (%s) to (%s)", want, got)})
		}
	}
	return nil
}

func columnList(cols []column) string {
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = c.name + " " + c.dataType
	}
	return strings.Join(parts, ", ")
}

func currentDatabase(ctx context.Context, conn *sql.Conn) (string, error) {
	var name string
	err := conn.QueryRowContext(ctx, "SELECT current_database()").Scan(&name)
	return name, err
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func keysOf(m map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range m {
		out[k] = true
	}
	return out
}
