package server

import (
	"context"
	"strings"
	"sync/atomic"

	"github.com/vsql/vsql/pgcompat"
)

// Two rewrites of pgcompat read the catalog: col < 'label' for a column
// of enum type (enumorder.go) needs the session's columns of enum type,
// and a string literal assigned by INSERT … VALUES or UPDATE … SET
// (assigned.go) needs its table's column types. Reading them is a
// catalog query (~2 ms), so a session keeps its answers until the
// catalog may have changed: catalogGeneration counts the statements that
// may change a catalog (CREATE, ALTER, DROP, vsql_* calls such as merges
// and checkouts), each counted when prepared and again when run, and the
// ends of transactions that ran one. A session also drops its answer at
// the end of each of its own transactions (it was read in that
// transaction's snapshot).
var catalogGeneration atomic.Int64

// enumColumnsCache is a session's last answer and the generation it was
// read at: the columns of enum types and those of array (list) types.
type enumColumnsCache struct {
	generation int64
	columns    map[string]string
	arrays     map[string]string
}

// catalogChanged records a statement that may change a catalog: other
// sessions read their enum columns again, and so does this one when its
// transaction ends.
func (s *Session) catalogChanged() {
	catalogGeneration.Add(1)
	if s.txStatus() != txIdle {
		s.catalogChangedInTx = true
	}
}

// endTransactionCatalog is the end of a transaction block for the cache.
func (s *Session) endTransactionCatalog() {
	if s.catalogChangedInTx {
		catalogGeneration.Add(1)
		s.catalogChangedInTx = false
	}
	s.enumColumns = nil
	s.tableColumns = nil
}

// enumColumnsFunc returns pgcompat.Session's EnumColumns for a statement
// being prepared under ctx.
func (s *Session) enumColumnsFunc(ctx context.Context) func() map[string]string {
	return func() map[string]string {
		if c := s.typedColumns(ctx); c != nil {
			return c.columns
		}
		return nil
	}
}

// arrayColumnsFunc returns pgcompat.Session's ArrayColumns.
func (s *Session) arrayColumnsFunc(ctx context.Context) func() map[string]string {
	return func() map[string]string {
		if c := s.typedColumns(ctx); c != nil {
			return c.arrays
		}
		return nil
	}
}

// typedColumns reads (or returns the session's last answer of) the
// columns of enum and array types, by lower-cased name.
func (s *Session) typedColumns(ctx context.Context) *enumColumnsCache {
	gen := catalogGeneration.Load()
	if c := s.enumColumns; c != nil && c.generation == gen {
		return c
	}
	c := &enumColumnsCache{generation: gen, columns: map[string]string{}, arrays: map[string]string{}}
	// A name that columns of different types share (an enum in one
	// table, text in another) is left out: the rewrite cannot know
	// which one a statement means.
	err := s.queryRows(ctx, `SELECT lower(column_name), min(data_type)
		FROM duckdb_columns()
		WHERE database_name IN (current_database(), 'temp') AND NOT internal
			AND schema_name NOT IN ('pg_catalog', 'information_schema')
		GROUP BY 1
		HAVING count(DISTINCT data_type) = 1 AND (min(data_type) LIKE 'ENUM(%' OR min(data_type) LIKE '%[]')`,
		func(row []any) {
			name, _ := row[0].(string)
			typ, _ := row[1].(string)
			if strings.HasPrefix(typ, "ENUM(") {
				c.columns[name] = typ
			}
			if strings.HasSuffix(typ, "[]") {
				c.arrays[name] = typ
			}
		})
	if err != nil {
		return nil // (a failed transaction: the statement fails anyway)
	}
	s.enumColumns = c
	return c
}

// tableColumnsCache is a session's answers for tables, by the name parts
// asked, and the generation they were read at.
type tableColumnsCache struct {
	generation int64
	tables     map[string][]pgcompat.TableColumn
}

// tableColumnsFunc returns pgcompat.Session's TableColumns for a
// statement being prepared under ctx.
func (s *Session) tableColumnsFunc(ctx context.Context) func([]string) []pgcompat.TableColumn {
	return func(parts []string) []pgcompat.TableColumn {
		gen := catalogGeneration.Load()
		if c := s.tableColumns; c == nil || c.generation != gen {
			s.tableColumns = &tableColumnsCache{generation: gen, tables: map[string][]pgcompat.TableColumn{}}
		}
		key := strings.Join(parts, "\x00")
		if cols, ok := s.tableColumns.tables[key]; ok {
			return cols
		}
		// As DuckDB resolves the name: case-insensitively, public as main,
		// a temporary table before the database's.
		lowered := make([]string, len(parts))
		for i, part := range parts {
			lowered[i] = strings.ToLower(part)
		}
		if len(lowered) >= 2 && lowered[len(lowered)-2] == "public" {
			lowered[len(lowered)-2] = "main"
		}
		var cols []pgcompat.TableColumn
		var first string
		err := s.queryRows(ctx, `SELECT database_name || '.' || schema_name, column_name, data_type,
				coalesce(list_contains((SELECT first(k.constraint_column_names) FROM duckdb_constraints() k
					WHERE k.database_name = c.database_name AND k.schema_name = c.schema_name
						AND k.table_name = c.table_name AND k.constraint_type = 'PRIMARY KEY'), column_name), false)
			FROM duckdb_columns() c
			WHERE `+catalogWhere("lower(table_name)", lowered)+`
			ORDER BY database_name <> 'temp', database_name, schema_name, column_index`,
			func(row []any) {
				where, _ := row[0].(string)
				if first == "" {
					first = where
				}
				if where != first {
					return
				}
				name, _ := row[1].(string)
				typ, _ := row[2].(string)
				key, _ := row[3].(bool)
				cols = append(cols, pgcompat.TableColumn{Name: name, Type: typ, Key: key})
			})
		if err != nil {
			return nil // (a failed transaction: the statement fails anyway)
		}
		s.tableColumns.tables[key] = cols
		return cols
	}
}
