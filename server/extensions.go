package server

import (
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// CREATE EXTENSION and DROP EXTENSION. A vsql database has PostgreSQL's
// one default extension, plpgsql (listed in pg_extension as PostgreSQL
// lists it: Rails' schema.rb starts with enable_extension "plpgsql"), and
// no other: CREATE EXTENSION [IF NOT EXISTS] plpgsql is PostgreSQL's
// answer for an installed one (42710, or a NOTICE), any other name is
// PostgreSQL's answer for one not installed on the server (0A000 "is not
// available"); DROP EXTENSION [IF EXISTS] of another name is 42704 or a
// NOTICE. Before, DuckDB's parser refused both statements.

// prepareExtension prepares CREATE and DROP EXTENSION; ok is false for any
// other statement.
func (s *Session) prepareExtension(st sqltext.Statement) (pgwire.Statement, bool, error) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int) string {
		if i < len(toks) && toks[i].Kind == sqltext.Word {
			return strings.ToLower(sql[toks[i].Start:toks[i].End])
		}
		return ""
	}
	name := func(i int) (string, bool) {
		if i >= len(toks) {
			return "", false
		}
		return cursorName(sql, toks[i])
	}
	create := word(0) == "create"
	if !create && word(0) != "drop" || word(1) != "extension" {
		return nil, false, nil
	}
	i, ifClause := 2, false
	if create && word(2) == "if" && word(3) == "not" && word(4) == "exists" {
		i, ifClause = 5, true
	} else if !create && word(2) == "if" && word(3) == "exists" {
		i, ifClause = 4, true
	}
	if create {
		ext, ok := name(i)
		if !ok {
			return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "CREATE EXTENSION needs the extension's name")
		}
		if ext != "plpgsql" {
			return nil, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "extension %q is not available", ext).
				WithHint("vsql has no PostgreSQL extensions besides plpgsql; see docs/sql.md (uuid-ossp's uuid_generate_v4() is gen_random_uuid(), built in).")
		}
		if !ifClause {
			return nil, true, vsqlerr.New(vsqlerr.DuplicateObject, "extension %q already exists", ext).
				WithHint("Write CREATE EXTENSION IF NOT EXISTS plpgsql: it is always there.")
		}
		return &settingStatement{tag: "CREATE EXTENSION", apply: func() error {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "42710", Message: `extension "plpgsql" already exists, skipping`})
			return nil
		}}, true, nil
	}
	var names []string
	for ; i < len(toks); i++ {
		ext, ok := name(i)
		if !ok {
			return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "DROP EXTENSION needs the extensions' names")
		}
		names = append(names, ext)
		if i+1 < len(toks) && sql[toks[i+1].Start:toks[i+1].End] == "," {
			i++
			continue
		}
		if w := word(i + 1); w == "cascade" || w == "restrict" {
			i++
		}
		break
	}
	for _, ext := range names {
		if ext == "plpgsql" {
			return nil, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "extension \"plpgsql\" cannot be dropped in vsql").
				WithHint("vsql keeps plpgsql, as every PostgreSQL database has it.")
		}
		if !ifClause {
			return nil, true, vsqlerr.New(vsqlerr.UndefinedObject, "extension %q does not exist", ext).
				WithHint("A vsql database has no extension besides plpgsql; DROP EXTENSION IF EXISTS succeeds.")
		}
	}
	return &settingStatement{tag: "DROP EXTENSION", apply: func() error {
		for _, ext := range names {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000", Message: "extension \"" + ext + "\" does not exist, skipping"})
		}
		return nil
	}}, true, nil
}
