package server

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"strconv"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqlfuncs"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// copyTable is the session's staging table of a COPY FROM STDIN: a line
// number and one VARCHAR column per target column, in DuckDB's temp
// catalog (names starting with __vsql are reserved, so no client table
// can collide with it).
const copyTable = "__vsql_copy"

// copyStatement is COPY … FROM STDIN or COPY … TO STDOUT (pgwire runs the
// sub-protocol and calls CopyIn or CopyOut).
type copyStatement struct {
	noRowsStatement
	sess *Session
	spec pgwire.CopySpec

	// COPY FROM
	table string   // the target, quoted through sqltext
	names []string // target columns
	types []string // their DuckDB types, as DESCRIBE shows them
	gates []string
	needs []accessNeed // write on the target's branch, checked again when the data comes

	// COPY TO
	query pgwire.Statement
}

func (c *copyStatement) Copy() pgwire.CopySpec { return c.spec }

func (c *copyStatement) Close() {
	if c.query != nil {
		c.query.Close()
	}
}

func (c *copyStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	return nil, vsqlerr.New(vsqlerr.Internal, "COPY runs through the copy sub-protocol")
}

// prepareCopy prepares COPY … FROM STDIN and COPY … TO STDOUT. ok is false
// for other COPY statements (server files), which DuckDB runs itself.
func (s *Session) prepareCopy(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	cp, err := st.ParseCopy()
	if err != nil {
		return nil, true, vsqlerr.New(vsqlerr.CopySyntax, "%v", err)
	}
	if !cp.Stdio {
		return nil, false, nil
	}
	format, err := pgwire.ParseCopyOptions(cp.Options, cp.From)
	if err != nil {
		return nil, true, err
	}
	if format.Binary {
		return nil, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "COPY in binary format is not supported").
			WithHint("Use FORMAT text (the default) or FORMAT csv.")
	}
	if !cp.From {
		return s.prepareCopyTo(ctx, cp, format)
	}
	scan := sqltext.ScanStatement(st)
	if scan.Reserved {
		return nil, true, vsqlerr.New(vsqlerr.ReservedName, "names starting with __vsql are reserved")
	}
	if s.readOnlyTransaction() {
		return nil, true, refuseReadOnly(st)
	}
	needs := s.statementNeeds(scan, true)
	if err := s.checkAll(ctx, needs); err != nil {
		return nil, true, err
	}
	for _, alias := range scan.Catalogs {
		if err := s.srv.versions.EnsureAttached(ctx, alias); err != nil {
			return nil, true, err
		}
	}
	cs := &copyStatement{sess: s, table: sqltext.QualifiedName(cp.Table), gates: s.gatesOf(scan), needs: needs}
	list := "*"
	if cp.Columns != nil {
		seen := map[string]bool{}
		quoted := make([]string, len(cp.Columns))
		for i, c := range cp.Columns {
			if seen[c] {
				return nil, true, &vsqlerr.Error{SQLState: "42701", Message: "column \"" + c + "\" specified more than once"}
			}
			seen[c] = true
			quoted[i] = sqltext.QuoteIdent(c)
		}
		list = strings.Join(quoted, ", ")
	}
	// The target's columns and types, without reading a row.
	rows, err := s.conn.QueryContext(ctx, "DESCRIBE SELECT "+list+" FROM "+cs.table, []driver.NamedValue{})
	if err != nil {
		return nil, true, err
	}
	vals := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(vals); err != nil {
			_ = rows.Close()
			if !errors.Is(err, io.EOF) {
				return nil, true, err
			}
			break
		}
		name, _ := vals[0].(string)
		typ, _ := vals[1].(string)
		cs.names, cs.types = append(cs.names, name), append(cs.types, typ)
	}
	if err := format.Bind(cs.names); err != nil {
		return nil, true, err
	}
	cs.spec = pgwire.CopySpec{In: true, Format: format, Table: cp.Table[len(cp.Table)-1], Columns: cs.names}
	return cs, true, nil
}

// prepareCopyTo prepares the query of COPY … TO STDOUT like any other
// statement (branch gates, qualified names, vsql_* calls included).
func (s *Session) prepareCopyTo(ctx context.Context, cp sqltext.Copy, format pgwire.CopyFormat) (pgwire.Statement, bool, error) {
	query := cp.Query
	if query == "" {
		list := "*"
		if cp.Columns != nil {
			quoted := make([]string, len(cp.Columns))
			for i, c := range cp.Columns {
				quoted[i] = sqltext.QuoteIdent(c)
			}
			list = strings.Join(quoted, ", ")
		}
		query = "SELECT " + list + " FROM " + sqltext.QualifiedName(cp.Table)
	}
	inner := sqltext.Parse(query)
	if inner.Kind() == sqltext.KindCopy {
		return nil, true, vsqlerr.New(vsqlerr.CopySyntax, "COPY cannot copy the output of another COPY")
	}
	stmt, err := s.Prepare(ctx, inner, nil)
	if err != nil {
		return nil, true, err
	}
	if stmt.Columns() == nil {
		stmt.Close()
		return nil, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "COPY query must have a RETURNING clause").
			WithHint("COPY (SELECT …) TO STDOUT, or INSERT/UPDATE/DELETE … RETURNING.")
	}
	if len(stmt.ParamOIDs()) > 0 {
		stmt.Close()
		return nil, true, vsqlerr.New(vsqlerr.CopySyntax, "COPY query cannot have parameters ($1, …)")
	}
	names := make([]string, len(stmt.Columns()))
	for i, c := range stmt.Columns() {
		names[i] = c.Name
	}
	if err := format.Bind(names); err != nil {
		stmt.Close()
		return nil, true, err
	}
	table := "query"
	if cp.Table != nil {
		table = cp.Table[len(cp.Table)-1]
	}
	return &copyStatement{sess: s, query: stmt, spec: pgwire.CopySpec{Format: format, Table: table, Columns: names}}, true, nil
}

// CopyOut implements pgwire.CopyStatement.
func (c *copyStatement) CopyOut(ctx context.Context) (pgwire.Rows, []pgwire.Column, error) {
	var rows pgwire.Rows
	var err error
	if ss, ok := c.query.(pgwire.StreamingStatement); ok {
		rows, err = ss.ExecuteStreaming(ctx, nil) // a chunk at a time as the client reads
	} else {
		rows, err = c.query.Execute(ctx, nil)
	}
	if err != nil {
		return nil, nil, err
	}
	return rows, c.query.Columns(), nil
}

// CopyIn implements pgwire.CopyStatement: the rows are appended as text to
// the staging table, every value is checked against its column's type
// (the first bad one is reported with its line), and one INSERT … SELECT
// moves them into the target: all rows or none.
func (c *copyStatement) CopyIn(ctx context.Context, src *pgwire.CopyReader) (int64, error) {
	s := c.sess
	if err := s.checkAll(ctx, c.needs); err != nil {
		return 0, s.failed(err)
	}
	ctx, done := s.running(sqlfuncs.WithCaller(ctx, s))
	defer done()
	n, err := c.load(ctx, src)
	if err != nil {
		return 0, s.failed(s.readOnly(canceled(ctx, err)))
	}
	s.copiedIn(c.table)
	return n, nil
}

func (c *copyStatement) load(ctx context.Context, src *pgwire.CopyReader) (int64, error) {
	s := c.sess
	staging := "temp.main." + sqltext.QuoteIdent(copyTable)
	cols := make([]string, len(c.names))
	for i := range c.names {
		cols[i] = sqltext.QuoteIdent("c" + strconv.Itoa(i))
	}
	create := "CREATE OR REPLACE TEMP TABLE " + sqltext.QuoteIdent(copyTable) + " (line BIGINT"
	for _, col := range cols {
		create += ", " + col + " VARCHAR"
	}
	if err := s.exec(ctx, create+")"); err != nil {
		return 0, err
	}
	// The staging table is dropped however the COPY ends (inside a failed
	// transaction block ROLLBACK drops it).
	defer func() { _ = s.exec(context.Background(), "DROP TABLE IF EXISTS "+staging) }()

	n, err := c.stage(ctx, src)
	if err != nil || n == 0 {
		return n, err
	}
	exprs := make([]string, len(cols))
	var checks []string
	for i, col := range cols {
		exprs[i] = convertExpr(col, c.types[i])
		if exprs[i] != col {
			checks = append(checks, col+" IS NOT NULL AND TRY("+exprs[i]+") IS NULL")
		}
	}
	// A value the column's type cannot read is found and reported with
	// its line: first, inside a transaction block (a failed INSERT would
	// end it); otherwise only when the INSERT fails, so that a good COPY
	// casts each value once, not twice.
	precheck := len(checks) > 0 && s.txStatus() != txIdle
	if precheck {
		if err := c.findBadValue(ctx, staging, cols, checks); err != nil {
			return 0, err
		}
	}
	quoted := make([]string, len(c.names))
	for i, name := range c.names {
		quoted[i] = sqltext.QuoteIdent(name)
	}
	insert := "INSERT INTO " + c.table + " (" + strings.Join(quoted, ", ") + ") SELECT " + strings.Join(exprs, ", ") + " FROM " + staging
	for _, alias := range c.gates {
		leave, err := s.srv.versions.Gate(alias).Shared(ctx)
		if err != nil {
			return 0, err
		}
		defer leave()
	}
	res, err := s.conn.ExecContext(ctx, insert, []driver.NamedValue{})
	if err != nil {
		if len(checks) > 0 && !precheck && ctx.Err() == nil {
			var bad *vsqlerr.Error
			if errors.As(c.findBadValue(ctx, staging, cols, checks), &bad) && bad.Code == vsqlerr.CopyInvalidValue {
				return 0, bad
			}
		}
		return 0, err
	}
	affected, _ := res.RowsAffected()
	return affected, nil
}

// stage appends every row of src to the staging table.
func (c *copyStatement) stage(ctx context.Context, src *pgwire.CopyReader) (int64, error) {
	app, err := duckdb.NewAppender(c.sess.conn, "temp", "main", copyTable)
	if err != nil {
		return 0, err
	}
	vals := make([]any, len(c.names))
	row := make([]driver.Value, len(c.names)+1)
	var n int64
	for {
		line, err := src.Next(vals)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			_ = app.Close()
			return 0, err
		}
		row[0] = line
		for i, v := range vals {
			row[i+1] = v
		}
		if err := app.AppendRow(row...); err != nil {
			_ = app.Close()
			return 0, err
		}
		n++
		if n%4096 == 0 && ctx.Err() != nil {
			_ = app.Close()
			return 0, ctx.Err()
		}
	}
	if err := app.Close(); err != nil {
		return 0, err
	}
	return n, nil
}

// findBadValue reports the first staged value (by line) that its column's
// type does not accept, as PostgreSQL's COPY would.
func (c *copyStatement) findBadValue(ctx context.Context, staging string, cols, checks []string) error {
	var which []string
	for i, col := range cols {
		if convertExpr(col, c.types[i]) != col {
			which = append(which, "WHEN "+col+" IS NOT NULL AND TRY("+convertExpr(col, c.types[i])+") IS NULL THEN "+strconv.Itoa(i))
		}
	}
	q := "SELECT line, CASE " + strings.Join(which, " ") + " END AS bad, " + strings.Join(cols, ", ") +
		" FROM " + staging + " WHERE (" + strings.Join(checks, ") OR (") + ") ORDER BY line LIMIT 1"
	rows, err := c.sess.conn.QueryContext(ctx, q, []driver.NamedValue{})
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]driver.Value, 2+len(cols))
	if err := rows.Next(vals); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	line, _ := vals[0].(int64)
	col := int(toInt(vals[1]))
	value, _ := vals[2+col].(string)
	where := "COPY " + c.spec.Table + ", line " + strconv.FormatInt(line, 10) + ", column " + c.names[col]
	e := vsqlerr.New(vsqlerr.CopyInvalidValue, "%s: invalid input syntax for type %s: \"%s\"", where, pgTypeName(c.types[col]), value)
	e.Where = where + ": \"" + value + "\""
	return e
}

func toInt(v driver.Value) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case int32:
		return int64(x)
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	}
	return 0
}

// convertExpr is the SQL that turns the staged text of col into typ,
// reading PostgreSQL's text formats where DuckDB's differ: bytea's \x hex,
// arrays in braces, booleans on/off.
func convertExpr(col, typ string) string {
	switch {
	case typ == "VARCHAR":
		return col
	case typ == "BLOB":
		return "CASE WHEN starts_with(" + col + `, '\x') THEN unhex(` + col + "[3:]) ELSE CAST(" + col + " AS BLOB) END"
	case typ == "BOOLEAN":
		return "CAST(CASE lower(trim(" + col + ")) WHEN 'on' THEN 'true' WHEN 'off' THEN 'false' ELSE " + col + " END AS BOOLEAN)"
	case strings.HasSuffix(typ, "[]"):
		return "CAST(CASE WHEN starts_with(" + col + ", '{') THEN translate(" + col + ", '{}', '[]') ELSE " + col + " END AS " + typ + ")"
	}
	return "CAST(" + col + " AS " + typ + ")"
}

// pgTypeName names a DuckDB type as PostgreSQL would in an error message.
func pgTypeName(typ string) string {
	switch typ {
	case "INTEGER":
		return "integer"
	case "BIGINT":
		return "bigint"
	case "SMALLINT":
		return "smallint"
	case "BOOLEAN":
		return "boolean"
	case "DOUBLE":
		return "double precision"
	case "FLOAT":
		return "real"
	case "TIMESTAMP":
		return "timestamp"
	case "TIMESTAMP WITH TIME ZONE":
		return "timestamp with time zone"
	case "TIME":
		return "time"
	case "BLOB":
		return "bytea"
	}
	switch strings.ToLower(typ) {
	case pgcompat.BitType:
		return "bit"
	case pgcompat.VarbitType:
		return "bit varying"
	}
	if strings.HasPrefix(typ, "DECIMAL") {
		return "numeric"
	}
	return strings.ToLower(typ)
}
