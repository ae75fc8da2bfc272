package server

import (
	"regexp"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
)

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
