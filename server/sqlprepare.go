package server

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/pgcatalog"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// SQL-level prepared statements, as PostgreSQL has them:
//
//	PREPARE name [(type, …)] AS statement
//	EXECUTE name [(argument, …)]
//	CREATE TABLE t AS EXECUTE name [(argument, …)] [WITH [NO] DATA]
//	DEALLOCATE [PREPARE] name | ALL
//
// and pg_prepared_statements. DuckDB's own PREPARE takes no parameter
// types and replaces a statement of the same name silently; its EXECUTE
// casts the arguments by DuckDB's rules. Here the session keeps each
// statement's text: PREPARE checks the statement (prepared once, with each
// declared parameter of its type, then closed) and records the types of
// all its parameters (those not declared as the engine infers them).
// EXECUTE evaluates the arguments once, each converted to its parameter's
// type as PostgreSQL's assignment would (a type that does not convert is
// 42804, a subquery 0A000, a wrong count 42601), and runs the statement
// with them as parameters, answering its rows and command tag. CREATE
// TABLE AS EXECUTE writes the arguments into the statement instead
// (DuckDB takes no parameters in CREATE TABLE AS). The statements are the
// session's: DEALLOCATE, DISCARD ALL and the end of the session drop them;
// ROLLBACK does not (as in PostgreSQL).

// sqlPrepared is one statement of PREPARE.
type sqlPrepared struct {
	text     string   // the PREPARE as the client wrote it
	body     string   // the statement after AS
	declared []string // the declared types as written; "" none or unknown
	typeOIDs []uint32 // every parameter's type (declared or inferred)
	created  time.Time
	runs     int64 // executions (pg_prepared_statements.custom_plans)
}

// prepareSQLPrepared prepares PREPARE, EXECUTE, DEALLOCATE and CREATE
// TABLE … AS EXECUTE; ok is false for any other statement.
func (s *Session) prepareSQLPrepared(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	switch st.Keyword(0) {
	case "PREPARE":
		p, err := s.prepareStatementText(ctx, st)
		if err != nil {
			return nil, true, err
		}
		return p, true, nil
	case "EXECUTE":
		stmt, err := s.prepareExecute(ctx, st, 0, "")
		return stmt, true, err
	case "DEALLOCATE":
		name, all := sqltext.DeallocateTarget(st.SQL)
		if !all && name == "" {
			return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "DEALLOCATE takes a prepared statement's name, or ALL")
		}
		if !all {
			if _, ok := s.prepared[name]; !ok {
				return nil, true, vsqlerr.New(vsqlerr.StatementNotFound, "prepared statement %q does not exist", name).
					WithHint("PREPARE it first; pg_prepared_statements lists the session's prepared statements.")
			}
		}
		return &settingStatement{tag: map[bool]string{false: "DEALLOCATE", true: "DEALLOCATE ALL"}[all], apply: func() error {
			if all {
				s.prepared = nil
			} else {
				delete(s.prepared, name)
			}
			return nil
		}}, true, nil
	case "CREATE":
		if at, ok := createAsExecute(st); ok {
			stmt, err := s.prepareExecute(ctx, st, at, st.SQL[:st.Tokens()[at].Start])
			return stmt, true, err
		}
	}
	return nil, false, nil
}

// DeallocateAll drops the session's SQL-level prepared statements
// (pgwire calls it for DEALLOCATE ALL, which it answers itself).
func (s *Session) DeallocateAll() { s.prepared = nil }

// createAsExecute finds CREATE [TEMP|TEMPORARY|UNLOGGED] TABLE name AS
// EXECUTE: the index of the EXECUTE token.
func createAsExecute(st sqltext.Statement) (int, bool) {
	toks := st.Tokens()
	for i := 1; i+1 < len(toks) && i < 12; i++ {
		if toks[i].Kind == sqltext.Word && strings.EqualFold(st.SQL[toks[i].Start:toks[i].End], "as") {
			n := toks[i+1]
			return i + 1, n.Kind == sqltext.Word && strings.EqualFold(st.SQL[n.Start:n.End], "execute")
		}
	}
	return 0, false
}

// statementName reads a prepared statement's name at token i.
func statementName(st sqltext.Statement, i int) (string, bool) {
	toks := st.Tokens()
	if i >= len(toks) {
		return "", false
	}
	return cursorName(st.SQL, toks[i])
}

// listItems splits the parenthesized list opening at token open at its
// top-level commas: each item's source text, and the index of the closing
// token.
func listItems(st sqltext.Statement, open int) ([]string, int, bool) {
	toks, src := st.Tokens(), st.SQL
	depth, from := 0, open+1
	var items []string
	for j := open; j < len(toks); j++ {
		switch toks[j].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			if depth--; depth == 0 {
				if j > from {
					items = append(items, strings.TrimSpace(src[toks[from].Start:toks[j-1].End]))
				} else if len(items) > 0 {
					return nil, 0, false // "(a, )"
				}
				return items, j, true
			}
		case sqltext.Op:
			if depth == 1 && src[toks[j].Start:toks[j].End] == "," {
				if j == from {
					return nil, 0, false
				}
				items = append(items, strings.TrimSpace(src[toks[from].Start:toks[j-1].End]))
				from = j + 1
			}
		}
	}
	return nil, 0, false
}

// statementEnd is the end of st's text without a trailing semicolon.
func statementEnd(st sqltext.Statement) int {
	toks := st.Tokens()
	end := len(toks) - 1
	for end >= 0 && toks[end].Kind == sqltext.Semi {
		end--
	}
	if end < 0 {
		return 0
	}
	return toks[end].End
}

// prepareStatementText checks and records PREPARE name [(types)] AS
// statement.
func (s *Session) prepareStatementText(ctx context.Context, st sqltext.Statement) (pgwire.Statement, error) {
	toks, src := st.Tokens(), st.SQL
	syntax := func() error {
		return vsqlerr.New(vsqlerr.SyntaxError, "syntax error in PREPARE").
			WithHint("Write PREPARE name [(type, …)] AS statement.")
	}
	name, ok := statementName(st, 1)
	if !ok {
		return nil, syntax()
	}
	i := 2
	var declared []string
	if i < len(toks) && toks[i].Kind == sqltext.Open {
		items, closing, ok := listItems(st, i)
		if !ok {
			return nil, syntax()
		}
		declared, i = items, closing+1
	}
	if i+1 >= len(toks) || toks[i].Kind != sqltext.Word || !strings.EqualFold(src[toks[i].Start:toks[i].End], "as") {
		return nil, syntax()
	}
	body := src[toks[i+1].Start:statementEnd(st)]
	if _, exists := s.prepared[name]; exists {
		return nil, vsqlerr.New(vsqlerr.DuplicateStatement, "prepared statement %q already exists", name).
			WithHint("DEALLOCATE it first, or use another name.")
	}
	// the statement's text is the query string the client sent, as
	// PostgreSQL shows it (with the semicolon, and any other statements)
	s.activity.mu.Lock()
	text := s.activity.query
	s.activity.mu.Unlock()
	if !strings.Contains(text, strings.TrimSpace(src)) {
		text = strings.TrimSpace(src)
	}
	p := &sqlPrepared{text: text, body: body, created: time.Now()}
	for _, t := range declared {
		if strings.EqualFold(t, "unknown") {
			t = ""
		}
		p.declared = append(p.declared, t)
	}
	// the declared types: each must exist (42704 from the engine)
	p.typeOIDs = make([]uint32, len(p.declared))
	for k, t := range p.declared {
		if t == "" {
			continue
		}
		oid, err := s.typeOID(ctx, t)
		if err != nil {
			return nil, err
		}
		p.typeOIDs[k] = oid
	}
	// the statement: its errors now, and the types of the parameters not
	// declared
	var inferred []uint32
	before := s.txStatus()
	stmt, err := s.Prepare(ctx, sqltext.Parse(p.body), p.typeOIDs)
	switch {
	case err != nil && vsqlerr.From(err).Code == vsqlerr.ReadOnlyTransaction:
		// a write prepared in a READ ONLY transaction: refused when it
		// runs, as PostgreSQL refuses it at EXECUTE (the check failed
		// nothing)
		if before == txOpen && s.txStatus() == txFailed {
			s.setTx(txOpen)
		}
	case err != nil:
		return nil, err
	default:
		inferred = stmt.ParamOIDs()
		stmt.Close()
	}
	oids := make([]uint32, max(len(p.declared), len(inferred), maxParam(p.body)))
	for k := range oids {
		switch {
		case k < len(p.declared) && p.declared[k] != "":
			oids[k] = p.typeOIDs[k]
		case k < len(inferred) && inferred[k] != 0:
			oids[k] = inferred[k]
		default:
			oids[k] = 25 // text, as PostgreSQL types an unused or unknown one
		}
	}
	p.typeOIDs = oids
	return &settingStatement{tag: "PREPARE", apply: func() error {
		if s.prepared == nil {
			s.prepared = map[string]*sqlPrepared{}
		}
		s.prepared[name] = p
		return nil
	}}, nil
}

// typeOID is the PostgreSQL type OID of a type name as PostgreSQL's SQL
// writes it (int, double precision, numeric(10,2), text[]).
func (s *Session) typeOID(ctx context.Context, typ string) (uint32, error) {
	stmt, err := s.Prepare(ctx, sqltext.Parse("SELECT CAST(NULL AS "+typ+")"), nil)
	if err != nil {
		return 0, err
	}
	defer stmt.Close()
	cols := stmt.Columns()
	if len(cols) != 1 {
		return 0, vsqlerr.New(vsqlerr.SyntaxError, "syntax error in type %s", typ)
	}
	return cols[0].OID, nil
}

// maxParam is the highest parameter number ($n) in text.
func maxParam(text string) int {
	n := 0
	for _, t := range sqltext.Tokens(text) {
		if t.Kind == sqltext.Param {
			if k, err := strconv.Atoi(text[t.Start+1 : t.End]); err == nil && k > n {
				n = k
			}
		}
	}
	return n
}

// withArguments is the statement with each parameter replaced by its
// argument, cast to the parameter's declared type.
func (p *sqlPrepared) withArguments(args []string) string {
	body := sqltext.Parse(p.body)
	var edits []sqltext.Edit
	for _, t := range body.Tokens() {
		if t.Kind != sqltext.Param {
			continue
		}
		n, err := strconv.Atoi(p.body[t.Start+1 : t.End])
		if err != nil || n < 1 || n > len(args) {
			continue
		}
		edits = append(edits, sqltext.Edit{Start: t.Start, End: t.End, Text: p.argument(n-1, args[n-1])})
	}
	return body.Edit(edits).SQL
}

// argument is the text of argument k (a): cast to the parameter's
// declared type, a constant as written ('{1,2}'::int[] is read as
// PostgreSQL reads an array constant), any other expression in
// parentheses.
func (p *sqlPrepared) argument(k int, a string) string {
	if len(sqltext.Tokens(a)) > 1 {
		a = "(" + a + ")"
	}
	if k < len(p.declared) && p.declared[k] != "" {
		return "CAST(" + a + " AS " + p.declared[k] + ")"
	}
	return a
}

// prepareExecute prepares EXECUTE name [(args)] (at token at of st; prefix
// is CREATE TABLE … AS when st is CREATE TABLE AS EXECUTE).
func (s *Session) prepareExecute(ctx context.Context, st sqltext.Statement, at int, prefix string) (pgwire.Statement, error) {
	toks, src := st.Tokens(), st.SQL
	name, ok := statementName(st, at+1)
	if !ok {
		return nil, vsqlerr.New(vsqlerr.SyntaxError, "EXECUTE takes a prepared statement's name").WithHint("Write EXECUTE name [(argument, …)].")
	}
	p, ok := s.prepared[name]
	if !ok {
		return nil, vsqlerr.New(vsqlerr.StatementNotFound, "prepared statement %q does not exist", name).
			WithHint("PREPARE it first; pg_prepared_statements lists the session's prepared statements.")
	}
	i := at + 2
	var args []string
	if i < len(toks) && toks[i].Kind == sqltext.Open {
		items, closing, ok := listItems(st, i)
		if !ok {
			return nil, vsqlerr.New(vsqlerr.SyntaxError, "syntax error in the arguments of EXECUTE")
		}
		for j := i; j < closing; j++ {
			if toks[j].Kind == sqltext.Word && strings.EqualFold(src[toks[j].Start:toks[j].End], "select") {
				return nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot use subquery in EXECUTE parameter").
					WithHint("Compute the value first, or write the subquery inside the prepared statement.")
			}
		}
		args, i = items, closing+1
	}
	suffix := ""
	if i < len(toks) && toks[i].Kind != sqltext.Semi {
		if prefix == "" {
			return nil, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", src[toks[i].Start:toks[i].End])
		}
		suffix = " " + src[toks[i].Start:statementEnd(st)] // WITH [NO] DATA
	}
	if len(args) != len(p.typeOIDs) {
		e := vsqlerr.New(vsqlerr.SyntaxError, "wrong number of parameters for prepared statement %q", name).
			WithHint("Pass one argument per parameter of the PREPARE.")
		e.Detail = fmt.Sprintf("Expected %d parameters but got %d.", len(p.typeOIDs), len(args))
		return nil, e
	}
	if err := s.checkArguments(ctx, p, args); err != nil {
		return nil, err
	}
	if prefix != "" {
		p.runs++
		stmt, err := s.Prepare(ctx, sqltext.Parse(prefix+p.withArguments(args)+suffix), nil)
		if ds, ok := stmt.(*duckStatement); ok && err == nil {
			shown := st // its tag: SELECT n even WITH NO DATA, as PostgreSQL's
			ds.shown = &shown
		}
		return stmt, err
	}
	// the arguments, evaluated once, as text of their parameter's type
	values := "SELECT "
	for k, a := range args {
		if k > 0 {
			values += ", "
		}
		values += "CAST(" + p.argument(k, a) + " AS VARCHAR)"
	}
	var argStmt pgwire.Statement
	if len(args) > 0 {
		var err error
		if argStmt, err = s.Prepare(ctx, sqltext.Parse(values), nil); err != nil {
			return nil, err
		}
	}
	body, err := s.Prepare(ctx, sqltext.Parse(p.body), p.typeOIDs)
	if err != nil {
		if argStmt != nil {
			argStmt.Close()
		}
		return nil, err
	}
	return &executeStatement{sess: s, prepared: p, args: argStmt, body: body}, nil
}

// checkArguments refuses an argument whose type PostgreSQL would not
// convert to its parameter's in an assignment: a string constant or NULL
// converts to any type, any type to a string type, numbers to numbers and
// dates and times to each other.
func (s *Session) checkArguments(ctx context.Context, p *sqlPrepared, args []string) error {
	if len(args) == 0 {
		return nil
	}
	query := "SELECT "
	for k, a := range args {
		if k > 0 {
			query += ", "
		}
		query += "(" + a + ")"
	}
	stmt, err := s.Prepare(ctx, sqltext.Parse(query), nil)
	if err != nil {
		return err
	}
	cols := stmt.Columns()
	stmt.Close()
	for k, a := range args {
		if k >= len(p.declared) || p.declared[k] == "" || k >= len(cols) {
			continue
		}
		arg := sqltext.Parse(a).Tokens()
		if len(arg) == 1 && (arg[0].Kind == sqltext.String || arg[0].Kind == sqltext.Word && strings.EqualFold(a, "null")) {
			continue // unknown: converts to any type
		}
		from, to := cols[k].OID, p.typeOIDs[k]
		if from == to || assignable(from, to) {
			continue
		}
		return vsqlerr.New(vsqlerr.DatatypeMismatch, "parameter $%d of type %s cannot be coerced to the expected type %s", k+1, pgcatalog.TypeDisplay(from), pgcatalog.TypeDisplay(to)).
			WithHint("You will need to rewrite or cast the expression.")
	}
	return nil
}

// assignable reports whether PostgreSQL assigns a value of type from to a
// parameter of type to (by category: any to a string, numbers to numbers,
// dates and times among themselves).
func assignable(from, to uint32) bool {
	cf, ct := pgcatalog.TypeCategory(from), pgcatalog.TypeCategory(to)
	switch {
	case ct == "S":
		return true
	case cf == "" || ct == "":
		return true // a type vsql does not classify: leave it to the engine's cast
	case cf == ct && (cf == "N" || cf == "D" || cf == "S" || cf == "T" || cf == "V"):
		return true
	}
	return false
}

// executeStatement is EXECUTE of a statement of PREPARE.
type executeStatement struct {
	sess     *Session
	prepared *sqlPrepared
	args     pgwire.Statement // the arguments' query (nil: no arguments)
	body     pgwire.Statement
}

func (e *executeStatement) ParamOIDs() []uint32      { return nil }
func (e *executeStatement) Columns() []pgwire.Column { return e.body.Columns() }
func (e *executeStatement) Close() {
	if e.args != nil {
		e.args.Close()
	}
	e.body.Close()
}

func (e *executeStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	var values []any
	if e.args != nil {
		rows, err := e.args.Execute(ctx, nil)
		if err != nil {
			return nil, err
		}
		values = make([]any, len(e.args.Columns()))
		if !rows.Next(values) {
			err := rows.Err()
			rows.Close()
			if err == nil {
				err = vsqlerr.New(vsqlerr.Internal, "the arguments of EXECUTE gave no row")
			}
			return nil, err
		}
		rows.Close()
	}
	e.prepared.runs++
	return e.body.Execute(ctx, values)
}

// preparedColumns are pg_prepared_statements' columns (PostgreSQL 15's).
var preparedColumns = []catalogColumn{{"name", duckdb.TYPE_VARCHAR}, {"statement", duckdb.TYPE_VARCHAR}, {"prepare_time", duckdb.TYPE_TIMESTAMP_TZ},
	{"parameter_types", duckdb.TYPE_VARCHAR}, {"from_sql", duckdb.TYPE_BOOLEAN}, {"generic_plans", duckdb.TYPE_BIGINT}, {"custom_plans", duckdb.TYPE_BIGINT}}

// preparedRows are pg_prepared_statements' rows: the session's statements
// of PREPARE (those of the extended protocol are pgwire's and not shown);
// parameter_types is the text of PostgreSQL's regtype[] ({text,integer}).
func (s *Session) preparedRows() [][]any {
	rows := make([][]any, 0, len(s.prepared))
	for name, p := range s.prepared {
		types := make([]string, len(p.typeOIDs))
		for k, oid := range p.typeOIDs {
			types[k] = pgcatalog.TypeDisplay(oid)
		}
		rows = append(rows, []any{name, p.text, p.created, pgcatalog.ArrayText(types), true, int64(0), p.runs})
	}
	return rows
}
