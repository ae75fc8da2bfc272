package merge

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Row outcomes of a three-way comparison (the result table's action).
const (
	actionNone         = "none"
	actionUpdate       = "update"
	actionInsert       = "insert"
	actionDelete       = "delete"
	conflictCell       = "cell"
	conflictDeleteEdit = "delete_update"
	conflictInsert     = "insert_insert"
)

// ConflictDetail describes one conflicting row.
type ConflictDetail struct {
	Key                                     string // JSON array of the key's values, in key order
	KeyValues                               []any  // the key's values as typed value structs
	Kind                                    string // cell, insert_insert or delete_update
	Columns                                 []string
	BasePresent, OursPresent, TheirsPresent bool
	Base, Ours, Theirs                      string // JSON objects of the rows ("" when absent)
	BaseValues, OursValues, TheirsValues    any    // column → typed value maps (nil when absent)
}

// typedValue renders one value as the typed value struct of conflict
// details: its DuckDB type, whether it is NULL, its exact text, and the
// value itself in the field of its kind (the others NULL). DECIMAL, UUID,
// TIME, INTERVAL and nested values are exact in text; integers beyond
// BIGINT too.
func typedValue(expr, dataType string) string {
	field := func(name, sqlType string, on bool) string {
		if on {
			return fmt.Sprintf("%s := TRY_CAST(%s AS %s)", name, expr, sqlType)
		}
		return fmt.Sprintf("%s := NULL::%s", name, sqlType)
	}
	t := dataType
	isInt := map[string]bool{"TINYINT": true, "SMALLINT": true, "INTEGER": true, "BIGINT": true, "UTINYINT": true,
		"USMALLINT": true, "UINTEGER": true, "UBIGINT": true, "HUGEINT": true, "UHUGEINT": true}[t]
	isTimestamp := t == "TIMESTAMP" || t == "TIMESTAMP_S" || t == "TIMESTAMP_MS" || t == "TIMESTAMP_NS"
	return "struct_pack(type := " + sqltext.QuoteString(t) + ", is_null := (" + expr + ") IS NULL, text := CAST(" + expr + " AS VARCHAR), " +
		strings.Join([]string{
			field("boolean_value", "BOOLEAN", t == "BOOLEAN"),
			field("integer_value", "BIGINT", isInt),
			field("double_value", "DOUBLE", t == "FLOAT" || t == "DOUBLE"),
			field("varchar_value", "VARCHAR", t == "VARCHAR"),
			field("blob_value", "BLOB", t == "BLOB"),
			field("date_value", "DATE", t == "DATE"),
			field("timestamp_value", "TIMESTAMP", isTimestamp),
			field("timestamptz_value", "TIMESTAMP WITH TIME ZONE", t == "TIMESTAMP WITH TIME ZONE"),
		}, ", ") + ")"
}

// TableResult is the comparison of one table.
type TableResult struct {
	Table                                       string
	OursInserts, OursUpdates, OursDeletes       int64
	TheirsInserts, TheirsUpdates, TheirsDeletes int64
	Conflicts                                   int64 // unresolved
	Resolved                                    int64 // conflicts decided by a resolution table or strategy
	Details                                     []ConflictDetail
	Changes                                     int64  // rows the result changes relative to ours
	Compared                                    int64  // rows that differ somewhere
	Method                                      Method // how rows were paired

	resultTable string // temp table holding the classified rows ("" when identical)
	t           *table
	// identical: the table's storage is byte-identical in all three inputs,
	// so nothing was compared and nothing can change.
	identical     bool
	detailsOffset int64
	detailsLimit  int64
}

// maxConflictDetails bounds the details a preview lists per table.
const maxConflictDetails = 1000

type cols struct {
	t    *table
	keys map[string]bool
}

func (c cols) q(i int) string { return sqltext.QuoteIdent(c.t.columns[i].name) }

func orAll(parts []string) string {
	if len(parts) == 0 {
		return "false"
	}
	return "(" + strings.Join(parts, " OR ") + ")"
}

// compareAll compares every table of the result (in name order).
func (s *session) compareAll(ctx context.Context, op string) ([]*TableResult, error) {
	var out []*TableResult
	// The signatures and row counts of every table the three inputs hold,
	// each input's in one statement: one per table and input cost about as
	// much for a table proven unchanged as its whole share of a merge.
	var threeSided []string
	for _, tp := range s.plan.tables {
		if tp.merged != nil && len(tp.conflicts) == 0 && tp.sides[0] != nil && tp.sides[1] != nil && tp.sides[2] != nil {
			threeSided = append(threeSided, tp.name)
		}
	}
	var sigs []map[string]map[string]string
	if len(threeSided) > 0 {
		sigs = s.tablesSignatures(ctx, threeSided)
	}
	counts := rowCounts(ctx, s.conn, threeSided, s.base.alias, s.ours.alias, s.theirs.alias)
	for i, tp := range s.plan.tables {
		if tp.merged == nil || len(tp.conflicts) > 0 {
			continue
		}
		n := tp.name
		tmp := fmt.Sprintf("__vsql_merge_%s_%d", op, i)
		s.temps = append(s.temps, tmp)
		s.progress.update(s.status, func(st *Status) { st.Phase, st.Table = PhaseComparison, n })
		t := tp.merged
		in := tableInputs{aliases: [3]string{s.base.alias, s.ours.alias, s.theirs.alias}, tables: tp.sides}
		var skipO, skipT map[string]bool
		sameCounts := false
		if tp.sides[0] != nil && tp.sides[1] != nil && tp.sides[2] != nil {
			skipO = unchangedColumns(t, sigs[0][n], sigs[1][n])
			skipT = unchangedColumns(t, sigs[0][n], sigs[2][n])
			c, ok := counts[n]
			sameCounts = ok && c[0] == c[1] && c[1] == c[2]
			if s.lineage && len(tp.changes) == 0 && allColumns(t, skipO) && allColumns(t, skipT) && sameCounts {
				// Byte-identical in all three inputs: nothing to compare.
				out = append(out, &TableResult{Table: n, Method: MethodIdentical, t: t, identical: true})
				continue
			}
		}
		r, err := compare(ctx, s.conn, t, in, tmp, skipO, skipT, sameCounts)
		if err != nil {
			return nil, err
		}
		r.detailsOffset, r.detailsLimit = s.opt.DetailsOffset, s.opt.DetailsLimit
		s.progress.update(s.status, func(st *Status) { st.RowsCompared += r.Compared })
		out = append(out, r)
	}
	return out, nil
}

// allColumns reports whether skip covers every column of t.
func allColumns(t *table, skip map[string]bool) bool {
	if skip == nil {
		return false
	}
	for _, c := range t.columns {
		if !skip[c.name] {
			return false
		}
	}
	return true
}

// rowCounts counts the rows of each table in each of the inputs (aliases),
// in one statement; a table missing from the result (the query failed)
// has no known counts. Equal counts matter for two things: pairing rows
// by position, and proving a table unchanged. Deleted rows keep their
// storage segments (DuckDB records deletions in row-group metadata), so
// identical segments alone do not prove identical rows. When base is an
// ancestor of both sides, a side can only add deletions (bringing a row
// back means inserting it, which changes the segments), so equal counts
// with identical segments mean identical rows. That is why a whole-table
// skip needs the recorded lineage of a branch merge; snapshot merges,
// whose base is only trusted, never skip tables.
func rowCounts(ctx context.Context, conn *sql.Conn, tables []string, aliases ...string) map[string][]int64 {
	if len(tables) == 0 {
		return nil
	}
	var parts []string
	for i, name := range tables {
		for k, alias := range aliases {
			parts = append(parts, fmt.Sprintf("SELECT %d::BIGINT, %d::BIGINT, count(*) FROM %s.main.%s", i, k, sqltext.QuoteIdent(alias), sqltext.QuoteIdent(name)))
		}
	}
	got := make([][]int64, len(tables))
	seen := 0
	err := queryRows(ctx, conn, strings.Join(parts, " UNION ALL "), func(v []any) error {
		i64, ok1 := v[0].(int64)
		k64, ok2 := v[1].(int64)
		i, k := int(i64), int(k64)
		if !ok1 || !ok2 || i < 0 || i >= len(tables) || k < 0 || k >= len(aliases) {
			return fmt.Errorf("row counts: unexpected row %v", v)
		}
		if got[i] == nil {
			got[i] = make([]int64, len(aliases))
		}
		got[i][k], _ = v[2].(int64)
		seen++
		return nil
	})
	if err != nil || seen != len(parts) {
		return nil
	}
	out := make(map[string][]int64, len(tables))
	for i, name := range tables {
		out[name] = got[i]
	}
	return out
}

// Method is how a table's rows were paired for the comparison.
type Method string

// Comparison methods of one table (TableResult.Method, Result.Methods).
const (
	// MethodIdentical: the table's storage is byte-identical in all three
	// inputs; nothing was compared.
	MethodIdentical Method = "identical"
	// MethodPositional: the three inputs hold the same keys in the same
	// storage order, so their rows were paired by position, not joined.
	MethodPositional Method = "positional"
	// MethodKeyed: the rows were paired by a join on the primary key.
	MethodKeyed Method = "keyed"
	// MethodKeyedAfterMisalignment: the row counts were equal, but a key
	// had moved (deletes and inserts), so the rows were joined on the key
	// after that check.
	MethodKeyedAfterMisalignment Method = "keyed_after_misalignment"
)

// PositionalComparison enables the positional pairing of rows (see
// compare). It is on; tests and benchmarks turn it off to check and
// measure the keyed join alone.
var PositionalComparison = true

// compare runs the three-way comparison of one table, keeping only rows
// that differ somewhere, and classifies every row in SQL (the result stays
// in a temp table on conn).
//
// skipOurs and skipTheirs name columns that cannot differ between base and
// that side (see signature.go); they are not compared on that side.
//
// Rows are paired in one of two ways. After updates in place, which is
// what UPDATE of non-key columns does in DuckDB, base, ours and theirs
// keep every row where it was, so when sameCounts (all three inputs hold
// as many rows of the table) and keysInPlace finds every key at the
// position base holds it, one statement pairs the rows by position
// (positionalQuery: a POSITIONAL JOIN, no hash table). As keys are unique,
// the positional pairs are then exactly the pairs of a join on the key, so
// the result cannot differ from it; the statement also flags any position
// whose keys differ, and its result is dropped if one does.
//
// Otherwise the rows are paired by chained FULL OUTER JOINs on the primary
// key: in one step over the full rows, or, when columns can be skipped, in
// two: the join of the keys and the columns that can differ finds the
// changed keys, and only their rows are then read in full, which keeps
// unchanged payload out of the big join.
func compare(ctx context.Context, conn *sql.Conn, t *table, in tableInputs, tmp string, skipOurs, skipTheirs map[string]bool, sameCounts bool) (*TableResult, error) {
	c := cols{t: t, keys: map[string]bool{}}
	for _, k := range t.key {
		c.keys[k] = true
	}
	src := func(i int) string { return in.rel(i, t, nil, "") }
	var sel, joinBO, joinT, same []string
	for i, col := range t.columns {
		q := c.q(i)
		sel = append(sel, fmt.Sprintf("b.%s AS b_%d, o.%s AS o_%d, t.%s AS t_%d", q, i, q, i, q, i))
		if c.keys[col.name] {
			joinBO = append(joinBO, "b."+q+" = o."+q)
			joinT = append(joinT, "coalesce(b."+q+", o."+q+") = t."+q)
		} else {
			same = append(same, "b."+q+" IS NOT DISTINCT FROM o."+q+" AND b."+q+" IS NOT DISTINCT FROM t."+q)
		}
	}
	unchanged := "b.__p IS NOT NULL AND o.__p IS NOT NULL AND t.__p IS NOT NULL"
	if len(same) > 0 {
		unchanged += " AND " + strings.Join(same, " AND ")
	}
	cmpTable := tmp + "_cmp"
	keysTable := tmp + "_keys"
	method := MethodKeyed
	if sameCounts && PositionalComparison && in.tables[0] != nil && in.tables[1] != nil && in.tables[2] != nil {
		aligned, err := keysInPlace(ctx, conn, t, in)
		if err != nil {
			return nil, fmt.Errorf("compare table %s: %w", t.name, err)
		}
		method = MethodKeyedAfterMisalignment
		if aligned {
			if _, err := conn.ExecContext(ctx, positionalQuery(c, in, cmpTable, skipOurs, skipTheirs)); err != nil {
				return nil, fmt.Errorf("compare table %s: %w", t.name, err)
			}
			// keysInPlace has proven the alignment; the flag checks it again
			// in the pairing that is used.
			var misaligned bool
			if err := conn.QueryRowContext(ctx, "SELECT coalesce(bool_or("+misalignedColumn+"), false) FROM "+sqltext.QuoteIdent(cmpTable)).Scan(&misaligned); err != nil {
				return nil, fmt.Errorf("compare table %s: %w", t.name, err)
			}
			if !misaligned {
				method = MethodPositional
			}
		}
	}
	if method != MethodPositional {
		presence := "CREATE OR REPLACE TEMP TABLE " + sqltext.QuoteIdent(cmpTable) + " AS SELECT b.__p IS NOT NULL AS pb, o.__p IS NOT NULL AS po, t.__p IS NOT NULL AS pt, " +
			strings.Join(sel, ", ") + " FROM "
		var q string
		if len(skipOurs)+len(skipTheirs) == 0 {
			q = presence + src(0) + " b FULL OUTER JOIN " + src(1) + " o ON " + strings.Join(joinBO, " AND ") +
				" FULL OUTER JOIN " + src(2) + " t ON " + strings.Join(joinT, " AND ") + " WHERE NOT (" + unchanged + ")"
		} else {
			defer conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+sqltext.QuoteIdent(keysTable))
			if _, err := conn.ExecContext(ctx, changedKeysQuery(c, in, keysTable, skipOurs, skipTheirs)); err != nil {
				return nil, fmt.Errorf("compare table %s: %w", t.name, err)
			}
			q = presence + sqltext.QuoteIdent(keysTable) + " k" +
				" LEFT JOIN " + keyedSrc(c, in, 0, keysTable) + " b ON " + keyOn(c, "b") +
				" LEFT JOIN " + keyedSrc(c, in, 1, keysTable) + " o ON " + keyOn(c, "o") +
				" LEFT JOIN " + keyedSrc(c, in, 2, keysTable) + " t ON " + keyOn(c, "t")
		}
		if _, err := conn.ExecContext(ctx, q); err != nil {
			return nil, fmt.Errorf("compare table %s: %w", t.name, err)
		}
	}

	// Classify each row and compute the merged cells.
	var och, tch, ot, cellConf, theirsOnly, merged, cellCols, oursCols, theirsCols, diffCols []string
	for i, col := range t.columns {
		if c.keys[col.name] {
			merged = append(merged, fmt.Sprintf("coalesce(b_%d, o_%d, t_%d) AS m_%d", i, i, i, i))
			continue
		}
		o := fmt.Sprintf("(o_%d IS DISTINCT FROM b_%d)", i, i)
		th := fmt.Sprintf("(t_%d IS DISTINCT FROM b_%d)", i, i)
		d := fmt.Sprintf("(o_%d IS DISTINCT FROM t_%d)", i, i)
		och, tch, ot = append(och, o), append(tch, th), append(ot, d)
		cellConf = append(cellConf, "("+o+" AND "+th+" AND "+d+")")
		theirsOnly = append(theirsOnly, "("+th+" AND NOT "+o+")")
		merged = append(merged, fmt.Sprintf("CASE WHEN NOT %s THEN o_%d WHEN NOT %s THEN t_%d ELSE o_%d END AS m_%d", th, i, o, i, i, i))
		name := sqltext.QuoteString(col.name)
		cellCols = append(cellCols, "CASE WHEN "+o+" AND "+th+" AND "+d+" THEN "+name+" END")
		oursCols = append(oursCols, "CASE WHEN "+o+" THEN "+name+" END")
		theirsCols = append(theirsCols, "CASE WHEN "+th+" THEN "+name+" END")
		diffCols = append(diffCols, "CASE WHEN "+d+" THEN "+name+" END")
	}
	list := func(parts []string) string {
		if len(parts) == 0 {
			return "[]::VARCHAR[]"
		}
		return "list_filter([" + strings.Join(parts, ", ") + "]::VARCHAR[], x -> x IS NOT NULL)"
	}
	action := `CASE
		WHEN pb AND po AND pt THEN CASE WHEN ` + orAll(cellConf) + ` THEN 'cell' WHEN ` + orAll(theirsOnly) + ` THEN 'update' ELSE 'none' END
		WHEN pb AND po AND NOT pt THEN CASE WHEN ` + orAll(och) + ` THEN 'delete_update' ELSE 'delete' END
		WHEN pb AND NOT po AND pt THEN CASE WHEN ` + orAll(tch) + ` THEN 'delete_update' ELSE 'none' END
		WHEN pb THEN 'none'
		WHEN po AND pt THEN CASE WHEN ` + orAll(ot) + ` THEN 'insert_insert' ELSE 'none' END
		WHEN po THEN 'none'
		ELSE 'insert' END`
	conflictCols := `CASE
		WHEN pb AND po AND pt THEN ` + list(cellCols) + `
		WHEN pb AND po THEN ` + list(oursCols) + `
		WHEN pb AND pt THEN ` + list(theirsCols) + `
		ELSE ` + list(diffCols) + ` END`
	compared := []string{"pb", "po", "pt"}
	for i := range t.columns {
		compared = append(compared, fmt.Sprintf("b_%d, o_%d, t_%d", i, i, i))
	}
	q := "CREATE OR REPLACE TEMP TABLE " + sqltext.QuoteIdent(tmp) + " AS SELECT " + strings.Join(compared, ", ") + ", " + action + " AS action, " + conflictCols + " AS conflict_columns, " +
		"NULL::VARCHAR AS decision, NULL::VARCHAR AS decision_columns, NULL::VARCHAR AS decided_by, " +
		"pb AND po AND " + orAll(och) + " AS ours_updated, pb AND pt AND " + orAll(tch) + " AS theirs_updated, " +
		strings.Join(merged, ", ") + " FROM " + sqltext.QuoteIdent(cmpTable)
	if _, err := conn.ExecContext(ctx, q); err != nil {
		return nil, fmt.Errorf("classify table %s: %w", t.name, err)
	}
	_, _ = conn.ExecContext(ctx, "DROP TABLE IF EXISTS "+sqltext.QuoteIdent(cmpTable))

	r := &TableResult{Table: t.name, Method: method, resultTable: tmp, t: t}
	q = `SELECT count(*) FILTER (NOT pb AND po), count(*) FILTER (ours_updated), count(*) FILTER (pb AND NOT po),
		count(*) FILTER (NOT pb AND pt), count(*) FILTER (theirs_updated), count(*) FILTER (pb AND NOT pt),
		count(*) FILTER (action IN ('cell', 'delete_update', 'insert_insert')),
		count(*) FILTER (action IN ('update', 'insert', 'delete')), count(*)
		FROM ` + sqltext.QuoteIdent(tmp)
	if err := conn.QueryRowContext(ctx, q).Scan(&r.OursInserts, &r.OursUpdates, &r.OursDeletes,
		&r.TheirsInserts, &r.TheirsUpdates, &r.TheirsDeletes, &r.Conflicts, &r.Changes, &r.Compared); err != nil {
		return nil, fmt.Errorf("count changes of %s: %w", t.name, err)
	}
	return r, nil
}

// keysInPlace reports whether ours and theirs hold every key of t at the
// row position base holds it (for inputs with equal row counts), reading
// the key columns only and stopping at the first moved key
// (branches.KeysMoved), so that a change that moved keys (deletes and
// inserts; merges apply updates so) costs little before the key join.
func keysInPlace(ctx context.Context, conn *sql.Conn, t *table, in tableInputs) (bool, error) {
	base := qualified(in.aliases[0], in.tables[0].name)
	for side := 1; side <= 2; side++ {
		moved, err := branches.KeysMoved(ctx, connEngine{conn}, base, qualified(in.aliases[side], in.tables[side].name), t.key)
		if err != nil || moved {
			return false, err
		}
	}
	return true, nil
}

// connEngine runs branches' engine calls on the merge's connection.
type connEngine struct{ conn *sql.Conn }

func (e connEngine) Exec(ctx context.Context, q string) error {
	_, err := e.conn.ExecContext(ctx, q)
	return err
}

func (e connEngine) Query(ctx context.Context, q string, fn func(row []any) error) error {
	return queryRows(ctx, e.conn, q, fn)
}

// misalignedColumn flags, in a positional comparison's table, the rows
// whose keys were not equal in all three inputs.
const misalignedColumn = "__vsql_misaligned"

// positionalQuery is the whole comparison when rows are paired by position
// (see compare): base's full rows beside ours' and theirs' keys and the
// columns that can differ on each side, keeping the rows that differ
// somewhere and any whose keys are not equal in all three inputs (flagged
// in misalignedColumn). Where the keys are equal every row is present on
// all three sides, and a column that cannot differ between base and a side
// (skipOurs, skipTheirs) has base's value there (same storage, same rows),
// so each input is read once and only base in full.
func positionalQuery(c cols, in tableInputs, cmpTable string, skipOurs, skipTheirs map[string]bool) string {
	var keys, needOurs, needTheirs, keysEqual, same, sel []string
	for i, col := range c.t.columns {
		q := c.q(i)
		if c.keys[col.name] {
			keys = append(keys, col.name)
			keysEqual = append(keysEqual, "b."+q+" = o."+q, "b."+q+" = t."+q)
			sel = append(sel, fmt.Sprintf("b.%s AS b_%d, o.%s AS o_%d, t.%s AS t_%d", q, i, q, i, q, i))
			continue
		}
		o, t := "b."+q, "b."+q
		if !skipOurs[col.name] {
			needOurs = append(needOurs, col.name)
			same = append(same, "b."+q+" IS NOT DISTINCT FROM o."+q)
			o = "o." + q
		}
		if !skipTheirs[col.name] {
			needTheirs = append(needTheirs, col.name)
			same = append(same, "b."+q+" IS NOT DISTINCT FROM t."+q)
			t = "t." + q
		}
		sel = append(sel, fmt.Sprintf("b.%s AS b_%d, %s AS o_%d, %s AS t_%d", q, i, o, i, t, i))
	}
	side := func(i int, cols []string) string {
		return in.relation(i, c.t, append(append([]string{}, keys...), cols...), "", false)
	}
	// Keys are NOT NULL, so a NULL here is a position only some inputs
	// have: misaligned too.
	aligned := "coalesce(" + strings.Join(keysEqual, " AND ") + ", false)"
	return "CREATE OR REPLACE TEMP TABLE " + sqltext.QuoteIdent(cmpTable) + " AS SELECT true AS pb, true AS po, true AS pt, " +
		strings.Join(sel, ", ") + ", NOT " + aligned + " AS " + misalignedColumn +
		" FROM " + in.relation(0, c.t, nil, "", false) + " b POSITIONAL JOIN " + side(1, needOurs) + " o POSITIONAL JOIN " + side(2, needTheirs) + " t" +
		" WHERE NOT (" + strings.Join(append([]string{aligned}, same...), " AND ") + ")"
}

// changedKeysQuery is step one of a two-step comparison: the keys of rows
// that differ somewhere, joining only the keys and the columns that can
// differ on each side.
func changedKeysQuery(c cols, in tableInputs, keysTable string, skipOurs, skipTheirs map[string]bool) string {
	var keys, joinBO, joinT, coalesced []string
	var needOurs, needTheirs, needBase []string
	for i, col := range c.t.columns {
		q := c.q(i)
		if c.keys[col.name] {
			keys = append(keys, col.name)
			joinBO = append(joinBO, "b."+q+" = o."+q)
			joinT = append(joinT, "coalesce(b."+q+", o."+q+") = t."+q)
			coalesced = append(coalesced, "coalesce(b."+q+", o."+q+", t."+q+") AS "+q)
			continue
		}
		if !skipOurs[col.name] {
			needOurs = append(needOurs, col.name)
		}
		if !skipTheirs[col.name] {
			needTheirs = append(needTheirs, col.name)
		}
		if !skipOurs[col.name] || !skipTheirs[col.name] {
			needBase = append(needBase, col.name)
		}
	}
	proj := func(i int, cols []string) string {
		return in.rel(i, c.t, append(append([]string{}, keys...), cols...), "")
	}
	same := []string{"b.__p IS NOT NULL AND o.__p IS NOT NULL AND t.__p IS NOT NULL"}
	for _, n := range needOurs {
		q := sqltext.QuoteIdent(n)
		same = append(same, "b."+q+" IS NOT DISTINCT FROM o."+q)
	}
	for _, n := range needTheirs {
		q := sqltext.QuoteIdent(n)
		same = append(same, "b."+q+" IS NOT DISTINCT FROM t."+q)
	}
	return "CREATE OR REPLACE TEMP TABLE " + sqltext.QuoteIdent(keysTable) + " AS SELECT " + strings.Join(coalesced, ", ") +
		" FROM " + proj(0, needBase) + " b FULL OUTER JOIN " + proj(1, needOurs) + " o ON " + strings.Join(joinBO, " AND ") +
		" FULL OUTER JOIN " + proj(2, needTheirs) + " t ON " + strings.Join(joinT, " AND ") +
		" WHERE NOT (" + strings.Join(same, " AND ") + ")"
}

// keyedSrc reads one input's rows whose keys are in keysTable.
func keyedSrc(c cols, in tableInputs, i int, keysTable string) string {
	var match []string
	for _, k := range c.t.key {
		q := sqltext.QuoteIdent(k)
		match = append(match, "x."+q+" = s."+q)
	}
	return in.rel(i, c.t, nil, " WHERE EXISTS (SELECT 1 FROM "+sqltext.QuoteIdent(keysTable)+" x WHERE "+strings.Join(match, " AND ")+")")
}

// tableInputs are one table as base, ours and theirs have it (nil where an
// input lacks it), with the inputs' aliases.
type tableInputs struct {
	aliases [3]string
	tables  [3]*table
}

// rel reads input i's rows of the merged table t as a subquery: the
// columns in names (all of t's when nil), a typed NULL for a column the
// input lacks (schema_mode additive), no rows when it lacks the table, and
// __p = true on every row; filter is an optional WHERE clause over alias s.
// Column types are DuckDB's own renderings from its catalog.
func (in tableInputs) rel(i int, t *table, names []string, filter string) string {
	return in.relation(i, t, names, filter, true)
}

// relation is rel, with the __p column only when marked. A positional
// pairing leaves it out: a constant column beside a POSITIONAL JOIN made
// DuckDB's pairing three times slower (1M rows: 31 against 11 ms), and the
// keys, which are never NULL, show presence there.
func (in tableInputs) relation(i int, t *table, names []string, filter string, marked bool) string {
	own := in.tables[i]
	if names == nil {
		for _, c := range t.columns {
			names = append(names, c.name)
		}
	}
	sel := make([]string, 0, len(names)+1)
	for _, n := range names {
		q := sqltext.QuoteIdent(n)
		if own != nil {
			if _, ok := own.column(n); ok {
				sel = append(sel, "s."+q)
				continue
			}
		}
		c, _ := t.column(n)
		sel = append(sel, "CAST(NULL AS "+c.dataType+") AS "+q)
	}
	if marked {
		sel = append(sel, "true AS __p")
	}
	if own == nil {
		return "(SELECT " + strings.Join(sel, ", ") + " WHERE false)"
	}
	return "(SELECT " + strings.Join(sel, ", ") + " FROM " + qualified(in.aliases[i], own.name) + " s" + filter + ")"
}

func keyOn(c cols, side string) string {
	var on []string
	for _, k := range c.t.key {
		q := sqltext.QuoteIdent(k)
		on = append(on, side+"."+q+" = k."+q)
	}
	return strings.Join(on, " AND ")
}

// rowJSON renders one side of a result row as a JSON object.
func rowJSON(t *table, prefix string) string {
	parts := make([]string, len(t.columns))
	for i, col := range t.columns {
		parts[i] = fmt.Sprintf("%s := %s_%d", sqltext.QuoteIdent(col.name), prefix, i)
	}
	return "to_json(struct_pack(" + strings.Join(parts, ", ") + "))::VARCHAR"
}

// keyJSONExpr renders a result row's key as a JSON array, in key order.
func keyJSONExpr(t *table) (expr string, order []string) {
	var parts []string
	for _, k := range t.key {
		for i, col := range t.columns {
			if col.name == k {
				parts = append(parts, fmt.Sprintf("to_json(m_%d)::VARCHAR", i))
				order = append(order, fmt.Sprintf("m_%d", i))
			}
		}
	}
	return "'[' || concat_ws(',', " + strings.Join(parts, ", ") + ") || ']'", order
}

// keyTypedExpr is the list of the typed values of a result row's key, in
// key-column order (conflict_details.key, vsql_merge_resolutions.key).
func keyTypedExpr(t *table) string {
	var keyTyped []string
	for _, k := range t.key {
		for i, col := range t.columns {
			if col.name == k {
				keyTyped = append(keyTyped, typedValue(fmt.Sprintf("m_%d", i), col.dataType))
			}
		}
	}
	return "[" + strings.Join(keyTyped, ", ") + "]"
}

// recount refreshes the conflict counts after decisions, and loads the
// details of the conflicts left.
func (r *TableResult) recount(ctx context.Context, conn *sql.Conn) error {
	if r.identical {
		return nil
	}
	q := `SELECT count(*) FILTER (action IN ('cell', 'delete_update', 'insert_insert')), count(*) FILTER (decided_by IS NOT NULL),
		count(*) FILTER (action IN ('update', 'insert', 'delete')) FROM ` + sqltext.QuoteIdent(r.resultTable)
	if err := conn.QueryRowContext(ctx, q).Scan(&r.Conflicts, &r.Resolved, &r.Changes); err != nil {
		return fmt.Errorf("count conflicts of %s: %w", r.Table, err)
	}
	r.Details = nil
	if r.Conflicts > 0 {
		return r.loadDetails(ctx, conn)
	}
	return nil
}

func (r *TableResult) loadDetails(ctx context.Context, conn *sql.Conn) error {
	t := r.t
	keyExpr, order := keyJSONExpr(t)
	rowTyped := func(prefix string) string {
		var keys, vals []string
		for i, col := range t.columns {
			keys = append(keys, sqltext.QuoteString(col.name))
			vals = append(vals, typedValue(fmt.Sprintf("%s_%d", prefix, i), col.dataType))
		}
		return "map([" + strings.Join(keys, ", ") + "], [" + strings.Join(vals, ", ") + "])"
	}
	q := `SELECT ` + keyExpr + `, action, conflict_columns, pb, po, pt,
		CASE WHEN pb THEN ` + rowJSON(t, "b") + ` END, CASE WHEN po THEN ` + rowJSON(t, "o") + ` END, CASE WHEN pt THEN ` + rowJSON(t, "t") + ` END,
		` + keyTypedExpr(t) + `,
		CASE WHEN pb THEN ` + rowTyped("b") + ` END, CASE WHEN po THEN ` + rowTyped("o") + ` END, CASE WHEN pt THEN ` + rowTyped("t") + ` END
		FROM ` + sqltext.QuoteIdent(r.resultTable) + ` WHERE action IN ('cell', 'delete_update', 'insert_insert')
		ORDER BY ` + strings.Join(order, ", ") + fmt.Sprintf(" LIMIT %d OFFSET %d", max(r.detailsLimit, 1), r.detailsOffset)
	return queryRows(ctx, conn, q, func(v []any) error {
		d := ConflictDetail{Key: str(v[0]), Kind: str(v[1]), Columns: strs(v[2])}
		d.BasePresent, _ = v[3].(bool)
		d.OursPresent, _ = v[4].(bool)
		d.TheirsPresent, _ = v[5].(bool)
		d.Base, d.Ours, d.Theirs = str(v[6]), str(v[7]), str(v[8])
		d.KeyValues, _ = v[9].([]any)
		d.BaseValues, d.OursValues, d.TheirsValues = v[10], v[11], v[12]
		r.Details = append(r.Details, d)
		return nil
	})
}

// apply writes the comparison's changes into the staging copy of ours
// (or ours itself, in place), so the cost follows the change, not the
// table: DELETE of the deleted keys, UPDATE of the updated rows' changed
// columns, INSERT of the inserted rows. Updating in place keeps every row
// where it was, so the next comparison of these versions still pairs rows
// by position, and DuckDB's CHECKPOINT writes less than for a DELETE plus
// INSERT of the same rows (ARCHITECTURE.md, "What makes rows move"). When
// an updated column is in a UNIQUE constraint, a CHECK or an index, the
// updated rows are deleted and inserted again instead, as before: DuckDB
// checks a unique index row by row within an UPDATE, so values moved
// between rows could collide. DuckDB checks primary keys, UNIQUE, NOT
// NULL and CHECK either way.
func apply(ctx context.Context, conn *sql.Conn, r *TableResult, staging string) error {
	if r.Changes == 0 {
		return nil
	}
	t := r.t
	target := sqltext.QuoteIdent(staging) + ".main." + sqltext.QuoteIdent(t.name)
	res := sqltext.QuoteIdent(r.resultTable)
	var on, names, vals []string
	for i, col := range t.columns {
		q := sqltext.QuoteIdent(col.name)
		names = append(names, q)
		vals = append(vals, fmt.Sprintf("m_%d", i))
		for _, k := range t.key {
			if k == col.name {
				on = append(on, fmt.Sprintf("x.%s = r.m_%d", q, i))
			}
		}
	}
	updates, changed, err := updatedColumns(ctx, conn, r)
	if err != nil {
		return err
	}
	inPlace := true
	for _, i := range changed {
		inPlace = inPlace && !t.constrained[t.columns[i].name]
	}
	deleted, inserted := "('update', 'delete')", "('update', 'insert')"
	if inPlace {
		deleted, inserted = "('delete')", "('insert')"
	}
	del := "DELETE FROM " + target + " AS x USING " + res + " AS r WHERE r.action IN " + deleted + " AND " + strings.Join(on, " AND ")
	if _, err := conn.ExecContext(ctx, del); err != nil {
		return fmt.Errorf("apply deletes to %s: %w", t.name, err)
	}
	if inPlace && updates > 0 && len(changed) > 0 {
		sets := make([]string, len(changed))
		for j, i := range changed {
			sets[j] = fmt.Sprintf("%s = r.m_%d", sqltext.QuoteIdent(t.columns[i].name), i)
		}
		upd := "UPDATE " + target + " AS x SET " + strings.Join(sets, ", ") + " FROM " + res + " AS r WHERE r.action = 'update' AND " + strings.Join(on, " AND ")
		result, err := conn.ExecContext(ctx, upd)
		if err != nil {
			return fmt.Errorf("apply updates to %s: %w", t.name, err)
		}
		// Every updated key is one of ours (the comparison found it
		// there), so each must have matched exactly one row.
		n, err := result.RowsAffected()
		if err != nil {
			return fmt.Errorf("apply updates to %s: %w", t.name, err)
		}
		if n != updates {
			return vsqlerr.New(vsqlerr.Internal, "merge of %s updated %d rows for %d updated keys", t.name, n, updates)
		}
	}
	ins := "INSERT INTO " + target + " (" + strings.Join(names, ", ") + ") SELECT " + strings.Join(vals, ", ") + " FROM " + res + " WHERE action IN " + inserted
	if _, err := conn.ExecContext(ctx, ins); err != nil {
		return err
	}
	return nil
}

// updatedColumns counts the result's updated rows and lists the non-key
// columns (indexes into t.columns) whose merged value differs from ours'
// in at least one of them: the columns an in-place update must set.
func updatedColumns(ctx context.Context, conn *sql.Conn, r *TableResult) (updates int64, changed []int, err error) {
	t := r.t
	keys := map[string]bool{}
	for _, k := range t.key {
		keys[k] = true
	}
	exprs := []string{"count(*)"}
	var candidates []int
	for i, col := range t.columns {
		if !keys[col.name] {
			exprs = append(exprs, fmt.Sprintf("coalesce(bool_or(m_%d IS DISTINCT FROM o_%d), false)", i, i))
			candidates = append(candidates, i)
		}
	}
	row := make([]any, len(exprs))
	err = queryRows(ctx, conn, "SELECT "+strings.Join(exprs, ", ")+" FROM "+sqltext.QuoteIdent(r.resultTable)+" WHERE action = 'update'", func(v []any) error {
		copy(row, v)
		return nil
	})
	if err != nil {
		return 0, nil, fmt.Errorf("apply updates to %s: %w", t.name, err)
	}
	updates, _ = row[0].(int64)
	for j, i := range candidates {
		if differs, _ := row[j+1].(bool); differs {
			changed = append(changed, i)
		}
	}
	return updates, changed, nil
}
