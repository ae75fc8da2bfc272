package pgcompat

import (
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/sqltext"
)

// Session is what the rewrite of a statement reads of its session: the
// settings typed date and time literals depend on, and the columns of enum
// type its database has.
type Session struct {
	Order    pgdatetime.Order // DateStyle's order of day, month and year
	Location *time.Location   // TimeZone (nil = UTC)
	// EnumColumns, when set, returns the columns of an enum type that the
	// statement may name: lower-cased column name → its type as DuckDB
	// writes it (ENUM('a', 'b')), absent for a name that columns of
	// different types share. The rewrite calls it at most once, and only
	// for a statement comparing a name with a string literal by order
	// (enumorder.go).
	EnumColumns func() map[string]string
	// ArrayColumns, when set, is EnumColumns for the columns of an array
	// (list) type, INTEGER[] or VARCHAR[][]. The rewrite calls it at most
	// once, and only for a statement comparing a name with a string
	// literal that holds PostgreSQL array input (arraycompare.go).
	ArrayColumns func() map[string]string
	// TableColumns, when set, returns the columns of the table that the
	// name parts (table, schema.table or database.schema.table, unquoted)
	// name, in the table's order; nil when there is none. The rewrite
	// calls it only for an INSERT … VALUES or UPDATE … SET that assigns a
	// plain string literal to a column (assigned.go), and for CREATE
	// SEQUENCE … OWNED BY t.c (sequences.go).
	TableColumns func(parts []string) []TableColumn
	// Domains, when set, returns the session's domains: a domain's name
	// as a cast names it, lower-cased (name, schema.name)
	// → the SQL that calls its check macro. The rewrite calls it at most
	// once, and only for a statement that casts to a type name that is
	// not a built-in one (domains.go).
	Domains func() map[string]string
}

// Translation is a statement as DuckDB should run it.
type Translation struct {
	Statement sqltext.Statement
	// Catalogs: the statement names PostgreSQL's catalogs or functions
	// vsql provides (the rewrite of sqltext.RewritePostgres changed it),
	// so the session must publish its settings and login first.
	Catalogs bool
	// Err is an error PostgreSQL raises for the statement before running
	// it, which vsql found reading it (a malformed recursive query): the
	// statement must not run.
	Err error
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
	st, _, err := rewriteChecked(st, sess)
	return Translation{Statement: st, Catalogs: catalogs, Err: err}
}

// NumericWarnings reads the column types of a CREATE TABLE or ALTER TABLE
// that DuckDB stores less exactly than PostgreSQL: numeric or decimal
// without a precision (DuckDB's DECIMAL(18,3): values are rounded to
// three decimal places, where PostgreSQL keeps every digit) and a
// precision above 38 digits (capped at 38). One warning per kind.
func NumericWarnings(st sqltext.Statement) []string {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i >= 0 && i < len(toks) && toks[i].Kind == sqltext.Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	if !(word(0, "create") || word(0, "alter")) {
		return nil
	}
	var bare, wide bool
	for i := 1; i < len(toks); i++ {
		if !word(i, "numeric") && !word(i, "decimal") {
			continue
		}
		prev := toks[i-1]
		if prev.Kind != sqltext.Word && prev.Kind != sqltext.Quoted {
			continue // ::numeric, CAST(… AS numeric) in an expression
		}
		if word(i-1, "as") && !word(i-2, "type") {
			continue // CAST(x AS numeric)
		}
		if i+1 < len(toks) && toks[i+1].Kind == sqltext.Open {
			if i+2 < len(toks) && toks[i+2].Kind == sqltext.Number {
				if p, err := strconv.Atoi(sql[toks[i+2].Start:toks[i+2].End]); err == nil && p > maxDecimalDigits {
					wide = true
				}
			}
			continue
		}
		bare = true
	}
	var out []string
	if bare {
		out = append(out, "a numeric (decimal) column without a precision is DECIMAL(18,3) here: values are rounded to 3 decimal places, where PostgreSQL keeps every digit; declare numeric(p, s) (up to 38 digits) for the scale you need")
	}
	if wide {
		out = append(out, "a numeric precision above 38 digits is capped at 38 here (DuckDB's DECIMAL): larger values are refused")
	}
	return out
}
