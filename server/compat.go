package server

import (
	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/sqltext"
)

// pgCompat passes a statement through package pgcompat (PostgreSQL's
// semantics on DuckDB: integer division, division by zero, names DuckDB
// reserves, jsonb, timestamptz offsets), keeping its offset in the query.
func pgCompat(st sqltext.Statement) sqltext.Statement {
	rewritten, ok := pgcompat.Rewrite(st.SQL)
	if !ok {
		return st
	}
	offset := st.Offset
	st = sqltext.Parse(rewritten)
	st.Offset = offset
	return st
}
