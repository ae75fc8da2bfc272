package merge

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/vsql/vsql/internal/sqlrows"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// table is one table of an input snapshot.
type table struct {
	name    string
	rows    int64  // row count as DuckDB stores it
	sql     string // CREATE TABLE as DuckDB renders it
	columns []column
	key     []string // primary-key columns, in key order
	indexes []string // CREATE INDEX statements
	// constraints are the table's PRIMARY KEY, UNIQUE and CHECK constraints
	// as DuckDB renders them, sorted (NOT NULL is a column property).
	constraints []string
	// constrained names the columns that a constraint or index mentions.
	constrained map[string]bool
}

type column struct {
	name     string
	dataType string
	// defaultExpr is the column's DEFAULT as DuckDB renders it ("" = none).
	defaultExpr string
	notNull     bool
}

// plain reports whether a column can be added or removed by a merge:
// nullable, without a default, and in no key, constraint or index.
func (t *table) plain(c column) bool {
	return !c.notNull && c.defaultExpr == "" && !t.constrained[c.name]
}

func (t *table) column(name string) (column, bool) {
	for _, c := range t.columns {
		if c.name == name {
			return c, true
		}
	}
	return column{}, false
}

// definition is the table's whole definition as one comparable string.
func (t *table) definition() string { return t.sql + strings.Join(t.indexes, ";") }

// catalogShape is what a merge needs to know about one input.
type catalogShape struct {
	alias  string
	tables map[string]*table
	views  map[string]string
	// viewColumns are the output columns of each view as bound in this input.
	viewColumns map[string][]column
}

func queryRows(ctx context.Context, conn *sql.Conn, q string, fn func(vals []any) error) error {
	rows, err := conn.QueryContext(ctx, q)
	return sqlrows.Each(rows, err, fn)
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

// inspectAll reads the catalogs of the inputs (aliases in the order
// base, ours, theirs) with one query per system table, and refuses anything
// merges do not support, naming the first offending object.
// shown are the inputs as errors show them (the snapshot "db@id", even
// when ours is read from its branch's live file).
func inspectAll(ctx context.Context, conn *sql.Conn, aliases, shown, labels []string) ([]*catalogShape, error) {
	shapes := make([]*catalogShape, len(aliases))
	byAlias := map[string]*catalogShape{}
	quoted := make([]string, len(aliases))
	for i, a := range aliases {
		if byAlias[a] == nil { // the same snapshot on two sides shares one shape
			byAlias[a] = &catalogShape{alias: a, tables: map[string]*table{}, views: map[string]string{}, viewColumns: map[string][]column{}}
		}
		shapes[i] = byAlias[a]
		quoted[i] = sqltext.QuoteString(a)
	}
	in := "database_name IN (" + strings.Join(quoted, ", ") + ")"
	problems := map[string][]string{} // alias → "object: why", in discovery order
	fail := func(alias, object, why string) { problems[alias] = append(problems[alias], object+": "+why) }
	steps := []struct {
		q  string
		fn func(s *catalogShape, v []any)
	}{
		{`SELECT database_name, schema_name, table_name, sql, estimated_size FROM duckdb_tables() WHERE ` + in + ` ORDER BY schema_name, table_name`, func(s *catalogShape, v []any) {
			if str(v[1]) != "main" {
				fail(s.alias, "table "+str(v[1])+"."+str(v[2]), "tables outside the default schema are not supported")
				return
			}
			n, _ := v[4].(int64)
			s.tables[str(v[2])] = &table{name: str(v[2]), sql: str(v[3]), rows: n, constrained: map[string]bool{}}
		}},
		{`SELECT database_name, schema_name, view_name, sql FROM duckdb_views() WHERE ` + in + ` AND NOT internal ORDER BY view_name`, func(s *catalogShape, v []any) {
			if str(v[1]) != "main" {
				fail(s.alias, "view "+str(v[1])+"."+str(v[2]), "views outside the default schema are not supported")
				return
			}
			s.views[str(v[2])] = str(v[3])
		}},
		{`SELECT database_name, table_name, column_name, data_type, column_default, is_nullable FROM duckdb_columns() WHERE ` + in + ` AND schema_name = 'main' ORDER BY table_name, column_index`, func(s *catalogShape, v []any) {
			nullable, _ := v[5].(bool)
			c := column{name: str(v[2]), dataType: str(v[3]), defaultExpr: str(v[4]), notNull: !nullable}
			if t := s.tables[str(v[1])]; t != nil {
				t.columns = append(t.columns, c)
			} else if _, ok := s.views[str(v[1])]; ok {
				s.viewColumns[str(v[1])] = append(s.viewColumns[str(v[1])], column{name: c.name, dataType: c.dataType})
			}
		}},
		{`SELECT database_name, table_name, constraint_type, constraint_column_names, constraint_text FROM duckdb_constraints() WHERE ` + in + ` AND schema_name = 'main' ORDER BY table_name, constraint_index`, func(s *catalogShape, v []any) {
			t := s.tables[str(v[1])]
			if t == nil {
				return
			}
			switch str(v[2]) {
			case "PRIMARY KEY":
				t.key = strs(v[3])
			case "FOREIGN KEY":
				fail(s.alias, "table "+t.name, "foreign keys are not supported")
			}
			if str(v[2]) != "NOT NULL" {
				t.constraints = append(t.constraints, str(v[4]))
				for _, c := range strs(v[3]) {
					t.constrained[c] = true
				}
			}
		}},
		{`SELECT database_name, table_name, index_name, sql, expressions FROM duckdb_indexes() WHERE ` + in + ` ORDER BY table_name, index_name`, func(s *catalogShape, v []any) {
			t := s.tables[str(v[1])]
			if t == nil {
				return
			}
			t.indexes = append(t.indexes, str(v[3]))
			for _, e := range strs(v[4]) {
				if !isPlainColumn(t, e) {
					fail(s.alias, "index "+str(v[2]), "expression indexes are not supported")
				}
				t.constrained[strings.Trim(e, `"`)] = true
			}
		}},
		{`SELECT database_name, sequence_name FROM duckdb_sequences() WHERE ` + in + ` ORDER BY 2`, func(s *catalogShape, v []any) {
			fail(s.alias, "sequence "+str(v[1]), "sequences are not supported")
		}},
		{`SELECT database_name, function_name FROM duckdb_functions() WHERE ` + in + ` AND NOT internal AND function_type IN ('macro', 'table_macro') ORDER BY 2`, func(s *catalogShape, v []any) {
			fail(s.alias, "macro "+str(v[1]), "macros are not supported")
		}},
		{`SELECT database_name, type_name FROM duckdb_types() WHERE ` + in + ` AND NOT internal ORDER BY 2`, func(s *catalogShape, v []any) {
			fail(s.alias, "type "+str(v[1]), "custom types are not supported")
		}},
	}
	for _, st := range steps {
		if err := queryRows(ctx, conn, st.q, func(v []any) error {
			if s := byAlias[str(v[0])]; s != nil {
				st.fn(s, v)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	for i, s := range shapes {
		names := make([]string, 0, len(s.tables))
		for n := range s.tables {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			t := s.tables[n]
			sort.Strings(t.constraints)
			switch {
			case len(t.key) == 0:
				fail(s.alias, "table "+n, "every table needs a primary key (even an empty one)")
			case strings.Contains(t.sql, "GENERATED ALWAYS"):
				fail(s.alias, "table "+n, "generated columns are not supported")
			case collatePattern.MatchString(t.sql):
				fail(s.alias, "table "+n, "non-default collations are not supported")
			}
			keys := map[string]bool{}
			for _, k := range t.key {
				keys[k] = true
			}
			for _, c := range t.columns {
				if why := unsupportedType(c.dataType, keys[c.name]); why != "" {
					fail(s.alias, fmt.Sprintf("column %s.%s", n, c.name), why)
				}
			}
		}
		if p := problems[s.alias]; len(p) > 0 {
			return nil, vsqlerr.New(vsqlerr.MergeUnsupported, "%s (in %s, snapshot %s)", p[0], labels[i], shown[i])
		}
	}
	return shapes, nil
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
	if t == "pg_json" {
		t = "json" // vsql's json (pgcompat), text kept as written
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
