package merge

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// table is one table of an input snapshot.
type table struct {
	name    string
	sql     string // CREATE TABLE as DuckDB renders it
	columns []column
	key     []string // primary-key columns, in key order
	indexes []string // CREATE INDEX statements
}

type column struct {
	name     string
	dataType string
}

// catalogShape is what a merge needs to know about one input.
type catalogShape struct {
	alias  string
	tables map[string]*table
	views  map[string]string
}

func queryRows(ctx context.Context, conn *sql.Conn, q string, fn func(vals []any) error) error {
	rows, err := conn.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		if err := fn(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

func str(v any) string {
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

func strs(v any) []string {
	xs, _ := v.([]any)
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = fmt.Sprint(x)
	}
	return out
}

// inspect reads an input's catalog and refuses anything merges do not
// support, naming the first offending object (in name order).
func inspect(ctx context.Context, conn *sql.Conn, alias, label string) (*catalogShape, error) {
	db := sqltext.QuoteString(alias)
	shape := &catalogShape{alias: alias, tables: map[string]*table{}, views: map[string]string{}}
	unsupported := func(object, why string) error {
		return vsqlerr.New(vsqlerr.MergeUnsupported, "%s in %s (%s): %s", object, label, alias, why)
	}
	var firstErr error
	fail := func(err error) {
		if firstErr == nil {
			firstErr = err
		}
	}
	if err := queryRows(ctx, conn, `SELECT schema_name, table_name, sql FROM duckdb_tables() WHERE database_name = `+db+` ORDER BY schema_name, table_name`, func(v []any) error {
		if str(v[0]) != "main" {
			fail(unsupported("table "+str(v[0])+"."+str(v[1]), "tables outside the default schema are not supported"))
			return nil
		}
		shape.tables[str(v[1])] = &table{name: str(v[1]), sql: str(v[2])}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := queryRows(ctx, conn, `SELECT schema_name, view_name, sql FROM duckdb_views() WHERE database_name = `+db+` AND NOT internal ORDER BY view_name`, func(v []any) error {
		if str(v[0]) != "main" {
			fail(unsupported("view "+str(v[0])+"."+str(v[1]), "views outside the default schema are not supported"))
			return nil
		}
		shape.views[str(v[1])] = str(v[2])
		return nil
	}); err != nil {
		return nil, err
	}
	if err := queryRows(ctx, conn, `SELECT table_name, column_name, data_type FROM duckdb_columns() WHERE database_name = `+db+` AND schema_name = 'main'
		AND table_name IN (SELECT table_name FROM duckdb_tables() WHERE database_name = `+db+`) ORDER BY table_name, column_index`, func(v []any) error {
		if t := shape.tables[str(v[0])]; t != nil {
			t.columns = append(t.columns, column{name: str(v[1]), dataType: str(v[2])})
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := queryRows(ctx, conn, `SELECT table_name, constraint_type, constraint_column_names FROM duckdb_constraints() WHERE database_name = `+db+` AND schema_name = 'main' ORDER BY table_name, constraint_index`, func(v []any) error {
		t := shape.tables[str(v[0])]
		if t == nil {
			return nil
		}
		switch str(v[1]) {
		case "PRIMARY KEY":
			t.key = strs(v[2])
		case "FOREIGN KEY":
			fail(unsupported("table "+t.name, "foreign keys are not supported"))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := queryRows(ctx, conn, `SELECT table_name, index_name, sql, expressions FROM duckdb_indexes() WHERE database_name = `+db+` ORDER BY table_name, index_name`, func(v []any) error {
		t := shape.tables[str(v[0])]
		if t == nil {
			return nil
		}
		t.indexes = append(t.indexes, str(v[2]))
		for _, e := range strs(v[3]) {
			if !isPlainColumn(t, e) {
				fail(unsupported("index "+str(v[1]), "expression indexes are not supported"))
			}
		}
		return nil
	}); err != nil {
		return nil, err
	}
	var seqs, macros, types []string
	_ = queryRows(ctx, conn, `SELECT sequence_name FROM duckdb_sequences() WHERE database_name = `+db+` ORDER BY 1`, func(v []any) error {
		seqs = append(seqs, str(v[0]))
		return nil
	})
	_ = queryRows(ctx, conn, `SELECT function_name FROM duckdb_functions() WHERE database_name = `+db+` AND NOT internal AND function_type IN ('macro', 'table_macro') ORDER BY 1`, func(v []any) error {
		macros = append(macros, str(v[0]))
		return nil
	})
	_ = queryRows(ctx, conn, `SELECT type_name FROM duckdb_types() WHERE database_name = `+db+` AND NOT internal ORDER BY 1`, func(v []any) error {
		types = append(types, str(v[0]))
		return nil
	})
	if len(seqs) > 0 {
		fail(unsupported("sequence "+seqs[0], "sequences are not supported"))
	}
	if len(macros) > 0 {
		fail(unsupported("macro "+macros[0], "macros are not supported"))
	}
	if len(types) > 0 {
		fail(unsupported("type "+types[0], "custom types are not supported"))
	}
	names := make([]string, 0, len(shape.tables))
	for n := range shape.tables {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t := shape.tables[n]
		switch {
		case len(t.key) == 0:
			fail(unsupported("table "+n, "every table needs a primary key (even an empty one)"))
		case strings.Contains(t.sql, "GENERATED ALWAYS"):
			fail(unsupported("table "+n, "generated columns are not supported"))
		case collatePattern.MatchString(t.sql):
			fail(unsupported("table "+n, "non-default collations are not supported"))
		}
		keys := map[string]bool{}
		for _, k := range t.key {
			keys[k] = true
		}
		for _, c := range t.columns {
			if why := unsupportedType(c.dataType, keys[c.name]); why != "" {
				fail(unsupported(fmt.Sprintf("column %s.%s", n, c.name), why))
			}
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return shape, nil
}

var collatePattern = regexp.MustCompile(`(?i)\bCOLLATE\b`)

func isPlainColumn(t *table, expr string) bool {
	e := strings.Trim(expr, `"`)
	for _, c := range t.columns {
		if c.name == e {
			return true
		}
	}
	return false
}

var scalarTypes = map[string]bool{
	"BOOLEAN": true, "TINYINT": true, "SMALLINT": true, "INTEGER": true, "BIGINT": true, "HUGEINT": true,
	"UTINYINT": true, "USMALLINT": true, "UINTEGER": true, "UBIGINT": true, "UHUGEINT": true,
	"FLOAT": true, "DOUBLE": true, "VARCHAR": true, "BLOB": true, "UUID": true, "DATE": true, "TIME": true,
	"TIME WITH TIME ZONE": true, "TIMESTAMP": true, "TIMESTAMP WITH TIME ZONE": true, "TIMESTAMP_S": true,
	"TIMESTAMP_MS": true, "TIMESTAMP_NS": true, "INTERVAL": true,
}

// unsupportedType says why a column type cannot be merged ("" = it can).
func unsupportedType(t string, isKey bool) string {
	nested := strings.HasSuffix(t, "]") || strings.HasPrefix(t, "STRUCT(") || strings.HasPrefix(t, "MAP(") || strings.HasPrefix(t, "UNION(")
	switch {
	case nested && isKey:
		return "nested primary-key columns are not supported"
	case nested:
		if strings.Contains(t, "JSON") || strings.Contains(t, "ENUM(") {
			return "type " + t + " is not supported"
		}
		return ""
	case scalarTypes[t]:
		return ""
	case strings.HasPrefix(t, "DECIMAL("):
		return ""
	}
	return "type " + t + " is not supported (JSON, ENUM, BIT, BIGNUM, VARIANT, GEOMETRY and custom types cannot be compared exactly)"
}

// sameSchema requires identical definitions in the three inputs (strict
// schema mode) and names the first object that differs.
func sameSchema(base, ours, theirs *catalogShape) error {
	names := map[string]bool{}
	for _, s := range []*catalogShape{base, ours, theirs} {
		for n := range s.tables {
			names["table "+n] = true
		}
		for n := range s.views {
			names["view "+n] = true
		}
	}
	sorted := make([]string, 0, len(names))
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	def := func(s *catalogShape, obj string) (string, bool) {
		if name, ok := strings.CutPrefix(obj, "table "); ok {
			t := s.tables[name]
			if t == nil {
				return "", false
			}
			return t.sql + strings.Join(t.indexes, ";"), true
		}
		v, ok := s.views[strings.TrimPrefix(obj, "view ")]
		return v, ok
	}
	for _, obj := range sorted {
		b, inB := def(base, obj)
		o, inO := def(ours, obj)
		t, inT := def(theirs, obj)
		switch {
		case !inB || !inO || !inT:
			return vsqlerr.New(vsqlerr.MergeUnsupported, "schema mismatch: %s exists in only some of the inputs (strict schema mode)", obj)
		case b != o || b != t:
			return vsqlerr.New(vsqlerr.MergeUnsupported, "schema mismatch: %s has different definitions in the inputs (strict schema mode)", obj)
		}
	}
	return nil
}
