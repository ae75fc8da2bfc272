package branches

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// DiffRow is one key that differs between two versions.
type DiffRow struct {
	Table  string
	Key    string // JSON object of the primary-key columns
	Change string // insert, update or delete
	Before string // JSON object of the row in from ("" when absent)
	After  string // JSON object of the row in to ("" when absent)
}

// resolveVersion attaches what a diff side names and returns its alias:
// digits are a snapshot id; a branch name is that branch's live state; any
// other name is a snapshot name.
func (m *Manager) resolveVersion(ctx context.Context, db, ref string) (string, error) {
	if ref == "" {
		return "", vsqlerr.New(vsqlerr.InvalidArgument, "vsql_diff needs a from and a to version")
	}
	isBranch := false
	if !sqltext.IsDigits(ref) {
		if err := m.inTx(ctx, db, func(tx *catalog.Tx, d catalog.Database) error {
			_, err := tx.Branch(ctx, d.ID, ref)
			isBranch = err == nil
			return nil
		}); err != nil {
			return "", err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if isBranch {
		a, err := m.attachBranchLocked(ctx, db, ref)
		if err != nil {
			return "", err
		}
		return a.alias, nil
	}
	if !sqltext.IsDigits(ref) {
		if err := validSnapshotName(ref); err != nil {
			return "", err
		}
	}
	a, err := m.attachSnapshotLocked(ctx, db, ref)
	if err != nil {
		return "", err
	}
	a.shared = true
	return a.alias, nil
}

type tableShape struct {
	columns []string
	key     []string
}

// tables lists the tables of the default schema of an attached catalog with
// their columns and primary-key columns.
func (m *Manager) tables(ctx context.Context, alias string) (map[string]tableShape, error) {
	shapes, err := m.tablesOf(ctx, alias)
	if err != nil {
		return nil, err
	}
	return shapes[alias], nil
}

// tablesOf is tables for several attached catalogs in one statement:
// DuckDB's catalog functions enumerate every attached catalog whatever
// the filter, so each call costs about as much as the engine has
// catalogs (2–8 ms each under vsqld; a diff made four).
func (m *Manager) tablesOf(ctx context.Context, aliases ...string) (map[string]map[string]tableShape, error) {
	quoted := make([]string, len(aliases))
	out := make(map[string]map[string]tableShape, len(aliases))
	for i, a := range aliases {
		quoted[i] = sqltext.QuoteString(a)
		out[a] = map[string]tableShape{}
	}
	in := "(" + strings.Join(quoted, ", ") + ")"
	q := `WITH c AS (SELECT database_name, table_name, list(column_name ORDER BY column_index) AS cols FROM duckdb_columns()
			WHERE database_name IN ` + in + ` AND schema_name = 'main' AND NOT internal GROUP BY database_name, table_name),
		t AS (SELECT database_name, table_name FROM duckdb_tables() WHERE database_name IN ` + in + ` AND schema_name = 'main'),
		k AS (SELECT database_name, table_name, constraint_column_names AS key FROM duckdb_constraints()
			WHERE database_name IN ` + in + ` AND schema_name = 'main' AND constraint_type = 'PRIMARY KEY')
		SELECT c.database_name, c.table_name, c.cols, k.key
		FROM c SEMI JOIN t ON c.database_name = t.database_name AND c.table_name = t.table_name
		LEFT JOIN k ON c.database_name = k.database_name AND c.table_name = k.table_name`
	err := m.eng.Query(ctx, q, func(row []any) error {
		byName := out[row[0].(string)]
		if byName == nil {
			return nil
		}
		shape := tableShape{columns: toStrings(row[2])}
		if row[3] != nil {
			shape.key = toStrings(row[3])
		}
		byName[row[1].(string)] = shape
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func toStrings(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, 0, len(xs))
	for _, x := range xs {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

// Diff lists, table by table and key by key, how version to differs from
// version from (snapshot ids or names, or branch names). Tables are matched
// by name in the default schema and rows by primary key; a table present
// on one side only shows all its rows inserted or deleted.
func (m *Manager) Diff(ctx context.Context, db, from, to, table string) ([]DiffRow, error) {
	fromAlias, err := m.resolveVersion(ctx, db, from)
	if err != nil {
		return nil, err
	}
	toAlias, err := m.resolveVersion(ctx, db, to)
	if err != nil {
		return nil, err
	}
	shapes, err := m.tablesOf(ctx, fromAlias, toAlias)
	if err != nil {
		return nil, err
	}
	fromTables, toTables := shapes[fromAlias], shapes[toAlias]
	names := map[string]bool{}
	for n := range fromTables {
		names[n] = true
	}
	for n := range toTables {
		names[n] = true
	}
	if table != "" {
		t := table
		if n, ok := sqltext.ParseTableName(table); ok && n.Catalog == "" && (n.Schema == "" || n.Schema == "main") {
			t = n.Table // orders, public.orders, main.orders
		}
		if !names[t] {
			return nil, vsqlerr.New(vsqlerr.InvalidArgument, "table %q exists in neither %s nor %s", table, from, to)
		}
		names = map[string]bool{t: true}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	var out []DiffRow
	for _, name := range sorted {
		ft, inFrom := fromTables[name]
		tt, inTo := toTables[name]
		key := tt.key
		if !inTo {
			key = ft.key
		}
		if len(key) == 0 || (inFrom && inTo && strings.Join(ft.key, ",") != strings.Join(tt.key, ",")) {
			return nil, vsqlerr.New(vsqlerr.InvalidArgument, "table %q has no primary key (or different ones in %s and %s); vsql_diff matches rows by primary key", name, from, to)
		}
		rows, err := m.diffTable(ctx, name, key, fromAlias, ft, inFrom, toAlias, tt, inTo)
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	return out, nil
}

func (m *Manager) diffTable(ctx context.Context, name string, key []string, fromAlias string, ft tableShape, inFrom bool, toAlias string, tt tableShape, inTo bool) ([]DiffRow, error) {
	// A row is present on a side when its first key column is not NULL:
	// primary-key columns never are. A constant presence column beside
	// the join (true AS present) made the bench's 1M-row diff about 20%
	// slower (see ARCHITECTURE.md, merge comparison).
	side := func(alias string, present bool) string {
		if !present {
			cols := make([]string, len(key))
			for i, k := range key {
				cols[i] = "NULL AS " + sqltext.QuoteIdent(k)
			}
			return "(SELECT " + strings.Join(cols, ", ") + " WHERE false)"
		}
		return sqltext.QuoteIdent(alias) + ".main." + sqltext.QuoteIdent(name)
	}
	firstKey := sqltext.QuoteIdent(key[0])
	fPresent, tPresent := "f."+firstKey+" IS NOT NULL", "t."+firstKey+" IS NOT NULL"
	rowOf := func(alias string, shape tableShape) string {
		parts := make([]string, len(shape.columns))
		for i, c := range shape.columns {
			parts[i] = sqltext.QuoteIdent(c) + " := " + alias + "." + sqltext.QuoteIdent(c)
		}
		return "struct_pack(" + strings.Join(parts, ", ") + ")"
	}
	var join, keyParts []string
	for _, k := range key {
		q := sqltext.QuoteIdent(k)
		join = append(join, "f."+q+" = t."+q)
		keyParts = append(keyParts, q+" := coalesce(t."+q+", f."+q+")")
	}
	// Changed rows: compare the columns both sides have.
	common := []string{}
	inTT := map[string]bool{}
	for _, c := range tt.columns {
		inTT[c] = true
	}
	for _, c := range ft.columns {
		if inTT[c] {
			common = append(common, c)
		}
	}
	changed := "false"
	if inFrom && inTo {
		// One IS DISTINCT FROM per column rather than of two packed rows:
		// the same answer, without building a struct per row (1M rows:
		// 149 → 124 ms, the bench's console diff page).
		// Key columns are equal in both paths: joined on, or checked
		// aligned by position.
		isKey := map[string]bool{}
		for _, k := range key {
			isKey[k] = true
		}
		var differs []string
		for _, c := range common {
			if isKey[c] {
				continue
			}
			q := sqltext.QuoteIdent(c)
			differs = append(differs, "f."+q+" IS DISTINCT FROM t."+q)
		}
		if len(differs) > 0 {
			changed = strings.Join(differs, " OR ")
		}
		if len(ft.columns) != len(tt.columns) || len(common) != len(ft.columns) {
			changed = "true" // the row's shape changed
		}
	}
	if inFrom && inTo && changed != "true" {
		rows, ok, err := m.diffInPlace(ctx, name, key, fromAlias, toAlias, rowOf("f", ft), rowOf("t", tt), changed)
		if err != nil || ok {
			return rows, err
		}
	}
	before, after := "NULL", "NULL"
	if inFrom {
		before = "CASE WHEN " + fPresent + " THEN to_json(" + rowOf("f", ft) + ")::VARCHAR END"
	}
	if inTo {
		after = "CASE WHEN " + tPresent + " THEN to_json(" + rowOf("t", tt) + ")::VARCHAR END"
	}
	q := `SELECT to_json(struct_pack(` + strings.Join(keyParts, ", ") + `))::VARCHAR AS k,
		CASE WHEN NOT (` + fPresent + `) THEN 'insert' WHEN NOT (` + tPresent + `) THEN 'delete' ELSE 'update' END,
		` + before + `, ` + after + `
		FROM ` + side(fromAlias, inFrom) + ` f FULL OUTER JOIN ` + side(toAlias, inTo) + ` t ON ` + strings.Join(join, " AND ") + `
		WHERE NOT (` + fPresent + `) OR NOT (` + tPresent + `) OR (` + changed + `)
		ORDER BY ` + orderBy(key) + ``
	var out []DiffRow
	err := m.eng.Query(ctx, q, func(row []any) error {
		r := DiffRow{Table: name, Key: row[0].(string), Change: row[1].(string)}
		if s, ok := row[2].(string); ok {
			r.Before = s
		}
		if s, ok := row[3].(string); ok {
			r.After = s
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// errMoved stops diffInPlace at the first row whose key is not where it
// was.
var errMoved = errors.New("a key moved")

// KeysMoved reports whether two versions of a table with as many rows
// hold any key at another row position, reading the key columns only: a
// change that deleted and inserted rows (a merge applies updates so)
// moves every key after the first deleted row, and comparing such
// versions row by row would only find that out after formatting all of
// them.
func KeysMoved(ctx context.Context, eng Engine, from, to string, key []string) (bool, error) {
	cols := make([]string, len(key))
	var moved []string
	for i, k := range key {
		q := sqltext.QuoteIdent(k)
		cols[i] = q
		moved = append(moved, "f."+q+" IS DISTINCT FROM t."+q)
	}
	list := strings.Join(cols, ", ")
	var found bool
	err := eng.Query(ctx, "SELECT EXISTS (SELECT 1 FROM (SELECT "+list+" FROM "+from+") f POSITIONAL JOIN (SELECT "+list+" FROM "+to+") t WHERE "+
		strings.Join(moved, " OR ")+")", func(row []any) error {
		found, _ = row[0].(bool)
		return nil
	})
	return found, err
}

// diffInPlace compares a table whose shape did not change row by row
// (POSITIONAL JOIN) when both versions hold as many rows and every key is
// where it was — DuckDB updates rows in place, so an UPDATE-only change
// keeps them aligned — which spares the join on the key. ok is false when
// the counts differ or a key moved (rows inserted and deleted in equal
// numbers); the caller then joins.
func (m *Manager) diffInPlace(ctx context.Context, name string, key []string, fromAlias, toAlias, fromRow, toRow, changed string) (rows []DiffRow, ok bool, err error) {
	from := sqltext.QuoteIdent(fromAlias) + ".main." + sqltext.QuoteIdent(name)
	to := sqltext.QuoteIdent(toAlias) + ".main." + sqltext.QuoteIdent(name)
	var counts [2]int64
	if err := m.eng.Query(ctx, "SELECT (SELECT count(*) FROM "+from+"), (SELECT count(*) FROM "+to+")", func(row []any) error {
		counts[0], _ = row[0].(int64)
		counts[1], _ = row[1].(int64)
		return nil
	}); err != nil || counts[0] != counts[1] {
		return nil, false, err
	}
	var moved, keyParts, order []string
	for _, k := range key {
		q := sqltext.QuoteIdent(k)
		moved = append(moved, "f."+q+" IS DISTINCT FROM t."+q)
		keyParts = append(keyParts, q+" := t."+q)
		order = append(order, "t."+q)
	}
	movedExpr := "(" + strings.Join(moved, " OR ") + ")"
	if anyMoved, err := KeysMoved(ctx, m.eng, from, to, key); err != nil || anyMoved {
		return nil, false, err
	}
	q := `SELECT to_json(struct_pack(` + strings.Join(keyParts, ", ") + `))::VARCHAR, ` + movedExpr + `,
		to_json(` + fromRow + `)::VARCHAR, to_json(` + toRow + `)::VARCHAR
		FROM ` + from + ` f POSITIONAL JOIN ` + to + ` t
		WHERE ` + movedExpr + ` OR (` + changed + `)
		ORDER BY ` + strings.Join(order, ", ")
	err = m.eng.Query(ctx, q, func(row []any) error {
		if isMoved, _ := row[1].(bool); isMoved {
			return errMoved
		}
		r := DiffRow{Table: name, Key: row[0].(string), Change: "update"}
		r.Before, _ = row[2].(string)
		r.After, _ = row[3].(string)
		rows = append(rows, r)
		return nil
	})
	if errors.Is(err, errMoved) {
		return nil, false, nil
	}
	return rows, err == nil, err
}

func orderBy(key []string) string {
	parts := make([]string, len(key))
	for i, k := range key {
		q := sqltext.QuoteIdent(k)
		parts[i] = "coalesce(t." + q + ", f." + q + ")"
	}
	return strings.Join(parts, ", ")
}
