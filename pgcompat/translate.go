package pgcompat

import (
	"time"

	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/sqltext"
)

// Session is what the rewrite of a statement reads of its session: the
// settings typed date and time literals depend on.
type Session struct {
	Order    pgdatetime.Order // DateStyle's order of day, month and year
	Location *time.Location   // TimeZone (nil = UTC)
}

// Translation is a statement as DuckDB should run it.
type Translation struct {
	Statement sqltext.Statement
	// Catalogs: the statement names PostgreSQL's catalogs or functions
	// vsql provides (the rewrite of sqltext.RewritePostgres changed it),
	// so the session must publish its settings and login first.
	Catalogs bool
}

// Translate is the whole text layer between a PostgreSQL client's
// statement and DuckDB, in one place and in order: the named arguments of
// vsql_* calls (callsVsql), PostgreSQL's names (sqltext.RewritePostgres),
// PostgreSQL's semantics (Rewrite, which also reads hex bytea literals,
// drops operator classes of CREATE INDEX, names unnamed indexes and fixes
// spaced timestamptz offsets in DML). Each step returns at once when the
// statement has none of its trigger text.
func Translate(st sqltext.Statement, callsVsql bool) Translation {
	return TranslateIn(st, callsVsql, Session{})
}

// TranslateIn is Translate for a session with the settings sess. The
// statement is not lexed again: each step reads the tokens the one before
// left (sqltext.Statement.Edit moves the tokens an edit does not touch and
// lexes only the text it wrote).
func TranslateIn(st sqltext.Statement, callsVsql bool, sess Session) Translation {
	if callsVsql {
		st = sqltext.QuoteNamedArguments(st)
	}
	st, catalogs := sqltext.RewritePostgresIn(st)
	st, _ = rewrite(st, sess)
	return Translation{Statement: st, Catalogs: catalogs}
}
