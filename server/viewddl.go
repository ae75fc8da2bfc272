package server

import (
	"context"
	"database/sql/driver"
	"fmt"
	"io"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// CREATE [OR REPLACE] VIEW as PostgreSQL runs it, where DuckDB differs:
//
//   - a view that reads a temporary table or view is itself temporary
//     (PostgreSQL: NOTICE "view … will be a temporary view"); DuckDB
//     would store it in the database, where it breaks when the session
//     ends. Named in a schema that is not the temporary one, it is
//     refused (42P16).
//   - CREATE OR REPLACE VIEW keeps the view's columns: the new query may
//     add columns at the end, but not drop, rename or retype the old
//     ones (42P16); DuckDB would replace the view whatever it returns.

// viewHeader is what a CREATE VIEW or CREATE TABLE … AS statement says
// before its query.
type viewHeader struct {
	table         bool // CREATE TABLE … AS
	replace, temp bool
	schema, name  string
	columns       []string
	view          int // the token VIEW (TABLE)
	afterName     int // the token after the name
	listEnd       int // the token after the column list (afterName without one)
	query         int // the first token of the query
}

// readViewHeader reads CREATE [OR REPLACE] [TEMP|TEMPORARY] [RECURSIVE]
// VIEW name [(columns)] AS and CREATE [TEMP] TABLE [IF NOT EXISTS] name
// [(columns)] AS; false for any other statement.
func readViewHeader(st sqltext.Statement) (viewHeader, bool) {
	var h viewHeader
	toks := st.Tokens()
	word := func(i int) string {
		if i < len(toks) && toks[i].Kind == sqltext.Word {
			return strings.ToLower(st.SQL[toks[i].Start:toks[i].End])
		}
		return ""
	}
	name := func(i int) (string, bool) {
		if i >= len(toks) {
			return "", false
		}
		switch toks[i].Kind {
		case sqltext.Word:
			return strings.ToLower(st.SQL[toks[i].Start:toks[i].End]), true
		case sqltext.Quoted:
			return sqltext.UnquoteIdent(st.SQL[toks[i].Start:toks[i].End]), true
		}
		return "", false
	}
	if word(0) != "create" {
		return h, false
	}
	i := 1
	if word(i) == "or" && word(i+1) == "replace" {
		h.replace = true
		i += 2
	}
	if w := word(i); w == "temp" || w == "temporary" {
		h.temp = true
		i++
	}
	if word(i) == "recursive" {
		return h, false // (its column list is its query's names)
	}
	switch word(i) {
	case "view":
	case "table":
		if h.replace {
			return h, false
		}
		h.table = true
		if word(i+1) == "if" && word(i+2) == "not" && word(i+3) == "exists" {
			i += 3
		}
	default:
		return h, false
	}
	h.view = i
	i++
	n, ok := name(i)
	if !ok {
		return h, false
	}
	i++
	if i+1 < len(toks) && toks[i].Kind == sqltext.Op && st.SQL[toks[i].Start:toks[i].End] == "." {
		h.schema = n
		if n, ok = name(i + 1); !ok {
			return h, false
		}
		i += 2
	}
	h.name = n
	h.afterName = i
	if i < len(toks) && toks[i].Kind == sqltext.Open {
		for i++; i < len(toks) && toks[i].Kind != sqltext.Close; i++ {
			if c, ok := name(i); ok {
				h.columns = append(h.columns, c)
			} else if toks[i].Kind != sqltext.Op {
				return h, false // CREATE TABLE t (a int …): not a query's columns
			}
		}
		i++
	}
	h.listEnd = i
	if word(i) != "as" || i+1 >= len(toks) {
		return h, false
	}
	h.query = i + 1
	return h, true
}

// prepareViewDefinition applies the rules above to a CREATE VIEW
// statement (after pgcompat's translation); other statements come back
// unchanged.
func (s *Session) prepareViewDefinition(ctx context.Context, st sqltext.Statement) (sqltext.Statement, error) {
	h, ok := readViewHeader(st)
	if !ok {
		return st, nil
	}
	if h.table {
		return s.namePostgresColumns(ctx, st, h)
	}
	if !h.temp {
		temps, err := s.tempRelations(ctx)
		if err != nil {
			return st, err
		}
		if len(temps) > 0 && readsAny(st, h.query, temps) {
			if h.schema != "" && h.schema != "pg_temp" && h.schema != "temp" {
				return st, vsqlerr.New(vsqlerr.InvalidTableDefinition, "cannot create temporary relation in non-temporary schema").
					WithHint("A view that reads a temporary table is temporary: leave out the schema, or create it with CREATE TEMP VIEW.")
			}
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000",
				Message: fmt.Sprintf("view %q will be a temporary view", h.name)})
			at := st.Tokens()[h.view].Start
			offset := st.Offset
			st = sqltext.Parse(st.SQL[:at] + "TEMP " + st.SQL[at:])
			st.Offset = offset
			if h, ok = readViewHeader(st); !ok {
				return st, nil
			}
		}
	}
	if h.replace {
		if err := s.checkViewReplacement(ctx, st, h); err != nil {
			return st, err
		}
	}
	return s.namePostgresColumns(ctx, st, h)
}

// namePostgresColumns gives a view's or a new table's columns the names
// PostgreSQL gives its query's columns (a.b::bigint is "b", count(*) is
// "count", 1 + 1 is "?column?"; DuckDB would name them after their text,
// "CAST(a.b AS BIGINT)", and a later SELECT b from the view would fail),
// as a column list after the name; names the statement lists stay. Two
// columns of the same name are PostgreSQL's error (42701).
func (s *Session) namePostgresColumns(ctx context.Context, st sqltext.Statement, h viewHeader) (sqltext.Statement, error) {
	toks := st.Tokens()
	var duck []string
	if err := s.eachRow(ctx, "DESCRIBE "+st.SQL[toks[h.query].Start:], func(row []driver.Value) {
		n, _ := row[0].(string)
		duck = append(duck, n)
	}); err != nil || len(duck) == 0 {
		return st, nil // DuckDB's own CREATE gives the query's error
	}
	names := make([]string, len(duck))
	changed := false
	seen := map[string]bool{}
	for i, d := range duck {
		names[i] = postgresColumnName(d)
		if i < len(h.columns) {
			names[i] = h.columns[i]
		}
		if seen[names[i]] {
			return st, vsqlerr.New(vsqlerr.DuplicateColumn, "column %q specified more than once", names[i]).
				WithHint("Name the query's columns apart with AS, or list the names after the view's or table's name.")
		}
		seen[names[i]] = true
		changed = changed || names[i] != d
	}
	if !changed || len(h.columns) > len(duck) {
		return st, nil
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = sqltext.QuoteIdent(n)
	}
	start, end := toks[h.afterName].Start, toks[h.afterName].Start
	if h.listEnd > h.afterName {
		end = toks[h.listEnd-1].End
	}
	offset := st.Offset
	rewritten := sqltext.Parse(st.SQL[:start] + " (" + strings.Join(quoted, ", ") + ") " + st.SQL[end:])
	rewritten.Offset = offset
	return rewritten, nil
}

// tempRelations are the names of the session's temporary tables and
// views.
func (s *Session) tempRelations(ctx context.Context) (map[string]bool, error) {
	names := map[string]bool{}
	err := s.eachRow(ctx, "SELECT table_name FROM duckdb_tables() WHERE database_name = 'temp' UNION ALL "+
		"SELECT view_name FROM duckdb_views() WHERE database_name = 'temp' AND NOT internal", func(row []driver.Value) {
		if n, ok := row[0].(string); ok {
			names[n] = true
		}
	})
	return names, err
}

// readsAny reports whether the query (from token first) names one of
// names as a table in a FROM list or a JOIN: unqualified or in pg_temp.
func readsAny(st sqltext.Statement, first int, names map[string]bool) bool {
	toks := st.Tokens()
	text := func(i int) string { return st.SQL[toks[i].Start:toks[i].End] }
	inFrom := map[int]bool{}
	depth := 0
	for i := first; i < len(toks); i++ {
		t := toks[i]
		switch t.Kind {
		case sqltext.Open:
			depth++
			continue
		case sqltext.Close:
			inFrom[depth] = false
			depth--
			continue
		}
		candidate := false
		switch {
		case t.Kind == sqltext.Word:
			switch strings.ToLower(text(i)) {
			case "from", "join":
				inFrom[depth] = true
				candidate = true
			case "where", "group", "having", "order", "limit", "offset", "union", "intersect", "except", "window", "qualify", "fetch":
				inFrom[depth] = false
			}
		case t.Kind == sqltext.Op && text(i) == "," && inFrom[depth]:
			candidate = true
		}
		if !candidate || i+1 >= len(toks) {
			continue
		}
		j := i + 1
		if toks[j].Kind == sqltext.Word && strings.EqualFold(text(j), "only") || toks[j].Kind == sqltext.Word && strings.EqualFold(text(j), "lateral") {
			j++
		}
		if j+2 < len(toks) && toks[j+1].Kind == sqltext.Op && text(j+1) == "." {
			if !strings.EqualFold(text(j), "pg_temp") && !strings.EqualFold(text(j), "temp") {
				continue
			}
			j += 2
		}
		if j >= len(toks) || j+1 < len(toks) && toks[j+1].Kind == sqltext.Open { // a function
			continue
		}
		var n string
		switch toks[j].Kind {
		case sqltext.Word:
			n = strings.ToLower(text(j))
		case sqltext.Quoted:
			n = sqltext.UnquoteIdent(text(j))
		default:
			continue
		}
		if names[n] {
			return true
		}
	}
	return false
}

// checkViewReplacement refuses a CREATE OR REPLACE VIEW whose query
// drops, renames or retypes a column of the view it replaces.
func (s *Session) checkViewReplacement(ctx context.Context, st sqltext.Statement, h viewHeader) error {
	database, schema := "current_database()", "current_schema()"
	if h.temp {
		database, schema = "'temp'", "'main'"
	} else if h.schema != "" {
		schema = sqltext.QuoteString(h.schema)
		if h.schema == "public" {
			schema = "'main'"
		}
	}
	type column struct{ name, typ, duck string }
	var old []column
	err := s.eachRow(ctx, "SELECT c.column_name, c.data_type FROM duckdb_columns() c JOIN duckdb_views() v ON v.view_oid = c.table_oid "+
		"WHERE c.database_name = "+database+" AND c.schema_name = "+schema+" AND c.table_name = "+sqltext.QuoteString(h.name)+
		" ORDER BY c.column_index", func(row []driver.Value) {
		n, _ := row[0].(string)
		t, _ := row[1].(string)
		old = append(old, column{n, t, n})
	})
	if err != nil || len(old) == 0 {
		return err
	}
	var now []column
	query := st.SQL[st.Tokens()[h.query].Start:]
	if err := s.eachRow(ctx, "DESCRIBE "+query, func(row []driver.Value) {
		n, _ := row[0].(string)
		t, _ := row[1].(string)
		now = append(now, column{postgresColumnName(n), t, n})
	}); err != nil {
		return nil // DuckDB's own CREATE gives the query's error
	}
	for i := range now {
		if i < len(h.columns) {
			now[i].name, now[i].duck = h.columns[i], h.columns[i]
		}
	}
	if len(now) < len(old) {
		return vsqlerr.New(vsqlerr.InvalidTableDefinition, "cannot drop columns from view").
			WithHint("A replacement view keeps the view's columns and may add others after them; to change them, DROP VIEW and CREATE VIEW.")
	}
	for i, o := range old {
		switch {
		case now[i].name != o.name && now[i].duck != o.name:
			// (a view created before vsql named its columns as
			// PostgreSQL does has DuckDB's names: replacing it renames
			// them)
			return vsqlerr.New(vsqlerr.InvalidTableDefinition, "cannot change name of view column %q to %q", o.name, now[i].name).
				WithHint("Use ALTER VIEW … RENAME COLUMN … to change the name of a view column instead.")
		case now[i].typ != o.typ:
			return vsqlerr.New(vsqlerr.InvalidTableDefinition, "cannot change data type of view column %q from %s to %s", o.name, viewTypeName(o.typ), viewTypeName(now[i].typ)).
				WithHint("A replacement view keeps the types of the view's columns; to change them, DROP VIEW and CREATE VIEW.")
		}
	}
	return nil
}

// viewTypeName names a DuckDB type as PostgreSQL would, with a
// numeric's precision and scale.
func viewTypeName(typ string) string {
	if strings.HasPrefix(typ, "DECIMAL(") {
		return "numeric" + strings.TrimPrefix(typ, "DECIMAL")
	}
	return pgTypeName(typ)
}

// eachRow runs an internal query on the session's connection and calls
// f with each row.
func (s *Session) eachRow(ctx context.Context, query string, f func([]driver.Value)) error {
	rows, err := s.conn.QueryContext(ctx, query, []driver.NamedValue{})
	if err != nil {
		return err
	}
	defer rows.Close()
	dest := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(dest); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
		f(dest)
	}
}
