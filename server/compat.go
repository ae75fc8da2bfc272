package server

import (
	"regexp"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
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

// grantSchemaPublic is PostgreSQL's GRANT … ON SCHEMA public TO PUBLIC
// (pg_regress's test_setup.sql runs it): vsql's roles and grants decide
// who reads and writes a branch, so the statement changes nothing; it is
// accepted with a warning that says so.
var grantSchemaPublic = regexp.MustCompile(`(?is)^\s*GRANT\s+[a-z, ]+\s+ON\s+SCHEMA\s+public\s+TO\s+public\s*;?\s*$`)

func (s *Session) prepareSchemaGrant(st sqltext.Statement) (pgwire.Statement, bool) {
	if st.Keyword(0) != "GRANT" || !grantSchemaPublic.MatchString(st.SQL) {
		return nil, false
	}
	return &warningStatement{sess: s, tag: "GRANT", warning: "vsql's roles and grants (vsql_grant) decide who may read and write a branch; GRANT … ON SCHEMA public TO PUBLIC changed nothing"}, true
}
