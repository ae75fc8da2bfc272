package server

import (
	"context"
	"sync/atomic"
)

// The rewrite of col < 'label' for a column of enum type (pgcompat's
// enumorder.go) needs the session's columns of enum type. Reading them is
// a catalog query (~2 ms), so a session keeps its answer until the
// catalog may have changed: catalogGeneration counts the statements that
// may change a catalog (CREATE, ALTER, DROP, vsql_* calls such as merges
// and checkouts), each counted when prepared and again when run, and the
// ends of transactions that ran one. A session also drops its answer at
// the end of each of its own transactions (it was read in that
// transaction's snapshot).
var catalogGeneration atomic.Int64

// enumColumnsCache is a session's last answer and the generation it was
// read at.
type enumColumnsCache struct {
	generation int64
	columns    map[string]string
}

// catalogChanged records a statement that may change a catalog: other
// sessions read their enum columns again, and so does this one when its
// transaction ends.
func (s *Session) catalogChanged() {
	catalogGeneration.Add(1)
	if s.txStatus() != 'I' {
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
}

// enumColumnsFunc returns pgcompat.Session's EnumColumns for a statement
// being prepared under ctx.
func (s *Session) enumColumnsFunc(ctx context.Context) func() map[string]string {
	return func() map[string]string {
		gen := catalogGeneration.Load()
		if c := s.enumColumns; c != nil && c.generation == gen {
			return c.columns
		}
		cols := map[string]string{}
		// A name that columns of different types share (an enum in one
		// table, text in another) is left out: the rewrite cannot know
		// which one a statement means.
		err := s.queryRows(ctx, `SELECT lower(column_name), min(data_type)
			FROM duckdb_columns()
			WHERE database_name IN (current_database(), 'temp') AND NOT internal
				AND schema_name NOT IN ('pg_catalog', 'information_schema')
			GROUP BY 1
			HAVING count(DISTINCT data_type) = 1 AND min(data_type) LIKE 'ENUM(%'`,
			func(row []any) {
				name, _ := row[0].(string)
				typ, _ := row[1].(string)
				cols[name] = typ
			})
		if err != nil {
			return nil // (a failed transaction: the statement fails anyway)
		}
		s.enumColumns = &enumColumnsCache{generation: gen, columns: cols}
		return cols
	}
}
