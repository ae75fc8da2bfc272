// Package sqlfuncs will register every vsql_* function in DuckDB, parse its
// arguments, shape its result rows and turn errors into [vsql:code] errors.
// It holds no merge logic.
//
// Status: planned; no vsql_* function exists yet (see docs/sql.md).
package sqlfuncs
