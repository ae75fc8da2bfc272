package server

import (
	"context"
	"strings"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// prepareAlterTable answers the ALTER TABLE forms of this file; ok is false
// for the others.
func (s *Session) prepareAlterTable(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	if steps, ok, err := pgcompat.AlterTableConstraints(st); ok {
		// ADD COLUMN … NOT NULL / UNIQUE, ADD CONSTRAINT … UNIQUE
		if err != nil {
			return nil, true, s.failed(err)
		}
		if steps.SetsNotNull {
			if stmt, ok, err := s.prepareIndexedAlter(ctx, steps.Table, pgcompat.IndexedAlter{Action: "column"}, steps.Steps, steps.Indexes, steps.Warning); ok {
				return stmt, true, err
			}
		}
		return &splitStatement{sess: s, actions: append(steps.Steps, steps.Indexes...), tag: "ALTER TABLE", warning: steps.Warning}, true, nil
	}
	if drop, ok := pgcompat.AlterDropConstraint(st); ok {
		stmt, err := s.prepareDropConstraint(ctx, drop)
		return stmt, true, err
	}
	if a, ok := pgcompat.AlterOnIndexedTable(st); ok {
		if table, column, typ, ok := sqltext.AlterColumnType(st.SQL); a.ChangesType && ok && s.sameColumnType(ctx, table, column, typ) {
			return nil, false, nil // the type it has (GORM): prepareDDLText's no-op
		}
		return s.prepareIndexedAlter(ctx, a.Parts, a, []string{st.SQL}, nil, "")
	}
	return nil, false, nil
}

// prepareDropConstraint answers ALTER TABLE … DROP CONSTRAINT name, which
// DuckDB does not have. A unique index of that name on the table (what
// ADD CONSTRAINT … UNIQUE and ADD COLUMN … UNIQUE make here,
// pgcompat.AlterTableConstraints) is dropped; a constraint DuckDB keeps
// in the table (from CREATE TABLE) cannot be, and is refused; a name that
// is neither is PostgreSQL's 42704 (a NOTICE with IF EXISTS).
func (s *Session) prepareDropConstraint(ctx context.Context, d pgcompat.DropConstraint) (pgwire.Statement, error) {
	table := d.Parts[len(d.Parts)-1]
	where := tableWhere(d.Parts)
	if idxSchema := s.queryString(ctx, "SELECT schema_name FROM duckdb_indexes()"+where+" AND index_name = "+sqltext.QuoteString(d.Name)); idxSchema != "" {
		name := sqltext.QuoteIdent(idxSchema) + "." + sqltext.QuoteIdent(d.Name)
		if len(d.Parts) == 3 {
			name = sqltext.QuoteIdent(d.Parts[0]) + "." + name
		}
		return &splitStatement{sess: s, actions: []string{"DROP INDEX " + name}, tag: "ALTER TABLE"}, nil
	}
	if s.queryString(ctx, "SELECT conname FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_class r ON r.oid = c.conrelid WHERE lower(r.relname) = lower("+
		sqltext.QuoteString(table)+") AND c.conname = "+sqltext.QuoteString(d.Name)) != "" {
		return nil, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "constraint %q of relation %q cannot be dropped", d.Name, table).
			WithHint("DuckDB keeps a table's constraints from its CREATE TABLE and cannot remove one; create the table again without it and copy the rows. Constraints added with ALTER TABLE … ADD CONSTRAINT … UNIQUE can be dropped."))
	}
	if d.IfExists {
		return &warningStatement{sess: s, tag: "ALTER TABLE", notice: `constraint "` + d.Name + `" of relation "` + table + `" does not exist, skipping`}, nil
	}
	return nil, s.failed(vsqlerr.New(vsqlerr.UndefinedObject, "constraint %q of relation %q does not exist", d.Name, table))
}

// tableWhere is the WHERE clause that selects the table parts names in
// DuckDB's catalog functions (duckdb_indexes(), duckdb_columns()): in the
// catalog the name gives, else the session's database, and for a bare
// name also the temporary tables (callers that want one table order the
// temporary one first: it shadows).
func tableWhere(parts []string) string {
	db := "= current_database()"
	switch len(parts) {
	case 1:
		db = "IN (current_database(), 'temp')" // a temporary table shadows
	case 3:
		db = "= " + sqltext.QuoteString(parts[0])
	}
	where := " WHERE database_name " + db + " AND lower(table_name) = lower(" + sqltext.QuoteString(parts[len(parts)-1]) + ")"
	if len(parts) >= 2 {
		where += " AND schema_name = " + sqltext.QuoteString(pgcompat.PublicToMain(parts[len(parts)-2]))
	}
	return where
}

// prepareIndexedAlter runs an ALTER TABLE action that DuckDB refuses on a
// table with indexes made by CREATE INDEX (pgcompat.IndexedAlter) as
// PostgreSQL runs it: the indexes are dropped, the action runs, and they
// are made again. ok is false when the table has no such index (DuckDB
// runs the statement itself).
//
// DuckDB keeps a dropped index in the table until the transaction that
// dropped it commits. So it cannot make a unique index again under the
// name of one dropped in the same transaction ("An index with the name
// … already exists"): unique indexes are made again in a second
// transaction, which only a statement outside a transaction block can
// have. And it refuses DROP COLUMN and a column's TYPE while a dropped
// index lingers: those are refused with a hint, as is a unique index in
// a transaction block. A refusal changes nothing.
//
// alters are the ALTER TABLE statements to run on table (its unquoted
// parts) without the indexes, creates the new indexes to make after them
// and warning a WARNING for the client once all is done.
func (s *Session) prepareIndexedAlter(ctx context.Context, table []string, a pgcompat.IndexedAlter, alters, creates []string, warning string) (pgwire.Statement, bool, error) {
	type index struct {
		schema, name, sql string
		unique            bool
	}
	var indexes []index
	_ = s.queryRows(ctx, "SELECT schema_name, index_name, sql, is_unique FROM duckdb_indexes()"+tableWhere(table)+" AND sql IS NOT NULL ORDER BY index_oid", func(row []any) {
		schema, _ := row[0].(string)
		name, _ := row[1].(string)
		sql, _ := row[2].(string)
		unique, _ := row[3].(bool)
		indexes = append(indexes, index{schema, name, sql, unique})
	})
	if len(indexes) == 0 {
		return nil, false, nil
	}
	if a.Action == "drop" || a.ChangesType {
		// DuckDB keeps a dropped index in the table until the transaction
		// that dropped it commits, and refuses these two while it does.
		names := make([]string, len(indexes))
		for i, ix := range indexes {
			names[i] = sqltext.QuoteIdent(ix.name)
		}
		what := "drop a column of"
		if a.ChangesType {
			what = "change a column's type in"
		}
		return nil, true, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot %s table %q while it has indexes made by CREATE INDEX (%s)", what, table[len(table)-1], strings.Join(names, ", ")).
			WithHint("DuckDB alters such a table only once its indexes are gone: DROP INDEX them and commit, run the ALTER TABLE, then create them again."))
	}
	catalog := ""
	if len(table) == 3 {
		catalog = sqltext.QuoteIdent(table[0]) + "."
	}
	var drops, rebuilds, uniques []string
	for _, ix := range indexes {
		drops = append(drops, "DROP INDEX "+catalog+sqltext.QuoteIdent(ix.schema)+"."+sqltext.QuoteIdent(ix.name))
		create, keep := pgcompat.RebuiltIndex(ix.sql, a)
		switch {
		case !keep:
		case !ix.unique:
			rebuilds = append(rebuilds, create)
		case s.InTransaction():
			return nil, true, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "this ALTER TABLE cannot run in a transaction block on a table with unique index %q", ix.name).
				WithHint("DuckDB alters a table only without its indexes, and cannot create a unique index again in the transaction that dropped it: run the statement outside a transaction block, where vsql creates the index again in a second transaction."))
		default:
			uniques = append(uniques, create)
		}
	}
	actions := append(append(append(drops, alters...), rebuilds...), creates...)
	return &indexedAlterStatement{sess: s, actions: actions, uniques: uniques, warning: warning}, true, nil
}

// indexedAlterStatement runs prepareIndexedAlter's steps: the ALTER with
// the indexes dropped and the non-unique ones made again, all or none,
// then the unique ones in a transaction of their own.
type indexedAlterStatement struct {
	noRowsStatement
	sess             *Session
	actions, uniques []string
	warning          string
}

func (a *indexedAlterStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	if _, err := (&splitStatement{sess: a.sess, actions: a.actions, warning: a.warning}).Execute(ctx, nil); err != nil {
		return nil, err
	}
	if len(a.uniques) > 0 {
		if _, err := (&splitStatement{sess: a.sess, actions: a.uniques}).Execute(ctx, nil); err != nil {
			return nil, err
		}
	}
	return &tagRows{tag: "ALTER TABLE"}, nil
}

// insertFirstColumns gives an INSERT without a column list the list of
// its table's n first columns.
func (s *Session) insertFirstColumns(ctx context.Context, st sqltext.Statement, n int) (sqltext.Statement, bool) {
	parts, at, ok := pgcompat.InsertTarget(st)
	if !ok {
		return st, false
	}
	columns := s.firstColumns(ctx, parts, n)
	if columns == nil {
		return st, false
	}
	offset := st.Offset
	st = pgcompat.WithColumnList(st, at, columns)
	st.Offset = offset
	return st, true
}

// firstColumns are the names of the n first columns of the table parts
// names (a temporary table first: it shadows), or nil when it has fewer.
func (s *Session) firstColumns(ctx context.Context, parts []string, n int) []string {
	var columns []string
	var first string
	_ = s.queryRows(ctx, "SELECT database_name || '.' || schema_name, column_name FROM duckdb_columns()"+tableWhere(parts)+
		" ORDER BY database_name = 'temp' DESC, database_name, schema_name, column_index", func(row []any) {
		table, _ := row[0].(string)
		column, _ := row[1].(string)
		if first == "" {
			first = table
		}
		if table == first && len(columns) < n {
			columns = append(columns, column)
		}
	})
	if len(columns) != n {
		return nil
	}
	return columns
}

// expandLike writes CREATE TABLE's LIKE elements out as their source
// tables' columns (pgcompat.CreateTableLike), from DuckDB's catalog.
func (s *Session) expandLike(ctx context.Context, st sqltext.Statement, likes []pgcompat.TableLike) (sqltext.Statement, error) {
	columns := make([][]pgcompat.LikeColumn, len(likes))
	constraints := make([][]string, len(likes))
	for n, l := range likes {
		var first string
		err := s.queryRows(ctx, "SELECT database_name || '.' || schema_name || '.' || table_name, column_name, data_type, coalesce(column_default, ''), NOT is_nullable FROM duckdb_columns()"+
			tableWhere(l.Source)+" ORDER BY database_name = 'temp' DESC, database_name, schema_name, column_index", func(row []any) {
			table, _ := row[0].(string)
			if first == "" {
				first = table
			}
			if table != first {
				return
			}
			var c pgcompat.LikeColumn
			c.Name, _ = row[1].(string)
			c.Type, _ = row[2].(string)
			c.Default, _ = row[3].(string)
			c.Default = sqltext.UntrackDefault(c.Default)
			c.NotNull, _ = row[4].(bool)
			columns[n] = append(columns[n], c)
		})
		if err != nil {
			return st, err
		}
		if len(columns[n]) == 0 {
			return st, vsqlerr.New(vsqlerr.TableNotFound, "relation %q does not exist", strings.Join(l.Source, "."))
		}
		if !l.Constraints && !l.Indexes {
			continue
		}
		err = s.queryRows(ctx, "SELECT constraint_type, constraint_column_names, coalesce(expression, '') FROM duckdb_constraints() WHERE database_name || '.' || schema_name || '.' || table_name = "+
			sqltext.QuoteString(first)+" ORDER BY constraint_index", func(row []any) {
			kind, _ := row[0].(string)
			var cols []string
			if list, ok := row[1].([]any); ok {
				for _, c := range list {
					name, _ := c.(string)
					cols = append(cols, sqltext.QuoteIdent(name))
				}
			}
			expr, _ := row[2].(string)
			switch {
			case kind == "CHECK" && l.Constraints && expr != "":
				constraints[n] = append(constraints[n], "CHECK ("+expr+")")
			case kind == "PRIMARY KEY" && l.Indexes:
				constraints[n] = append(constraints[n], "PRIMARY KEY ("+strings.Join(cols, ", ")+")")
			case kind == "UNIQUE" && l.Indexes:
				constraints[n] = append(constraints[n], "UNIQUE ("+strings.Join(cols, ", ")+")")
			}
		})
		if err != nil {
			return st, err
		}
	}
	offset := st.Offset
	st = pgcompat.WithLikeColumns(st, likes, columns, constraints)
	st.Offset = offset
	return st, nil
}
