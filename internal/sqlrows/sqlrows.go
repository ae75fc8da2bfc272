// Package sqlrows reads database/sql results as rows of untyped values, for
// the catalog queries that vsql runs on DuckDB internally.
package sqlrows

import "database/sql"

// Each calls fn with the values of every row of rows, then closes rows.
// The slice passed to fn is new for each row.
func Each(rows *sql.Rows, err error, fn func(vals []any) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
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

// Of adapts a query's (rows, err) result for Each:
// sqlrows.Of(conn.QueryContext(ctx, q))(fn).
func Of(rows *sql.Rows, err error) func(fn func(vals []any) error) error {
	return func(fn func(vals []any) error) error { return Each(rows, err, fn) }
}
