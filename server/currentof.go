package server

import (
	"context"
	"strconv"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// UPDATE … WHERE CURRENT OF c and DELETE … WHERE CURRENT OF c: write the
// row a cursor is on. PostgreSQL finds the row by its ctid, read from the
// cursor's scan of the table (a "simply updatable" cursor: one table, no
// join, grouping, aggregate, DISTINCT, window function, set-returning
// function in the select list or set operation)
// or from its FOR UPDATE/FOR SHARE row marks (a join whose FOR UPDATE
// names the table once).
//
// DuckDB has no WHERE CURRENT OF; its tables have a rowid pseudo-column.
// When DECLARE's query reads a table the cursor could update (the one
// table of a simple query, or each table its FOR UPDATE or FOR SHARE
// names), the cursor reads that table's rowid too, as a hidden column
// after the client's (analyzeCursorQuery, prepareDeclare); FETCH sends
// only the client's columns. UPDATE and DELETE … WHERE CURRENT OF c
// become … WHERE t.rowid = $n, n one past the statement's own parameters,
// and each execution binds the rowid of the row c is on
// (currentOfStatement).
//
// A rowid names the same row for the life of a DuckDB transaction, and a
// cursor WHERE CURRENT OF may use lives in one: a WITH HOLD cursor of a
// committed transaction is refused (24000, as PostgreSQL refuses it). A
// row deleted since leaves nothing at its rowid (DELETE 0, UPDATE 0, as
// in PostgreSQL). DuckDB keeps a row's rowid through an UPDATE, except
// when the UPDATE changes an indexed column (a key) or a list: it deletes
// the row and inserts it anew. An UPDATE through the cursor notices that
// (the rowid held a row before and none after) and a later WHERE CURRENT
// OF on the same row is refused (0A000) rather than missing it; an
// UPDATE that moves the row by another statement cannot be seen, and a
// later WHERE CURRENT OF finds no row there (UPDATE 0).
//
// The cursor stays insensitive: its rows were read at DECLARE, so FETCH
// RELATIVE 0 after an UPDATE through it returns the row as it was, as
// PostgreSQL's does.
//
// Not supported, refused rather than guessed: a cursor over a view
// (PostgreSQL expands the view and may find the table under it), over a
// partition (a view of its root in vsql; a cursor over the partitioned
// table itself works, and its partitions are targets), over a subquery in
// FROM, or over a table with a column named rowid; a query starting with
// WITH. A cursor whose query sorts (ORDER BY) is accepted: PostgreSQL's
// answer there depends on its plan (an index scan that returns rows in
// order is updatable, a sort is not).

// cursorTable is a table of a cursor's query that UPDATE or DELETE …
// WHERE CURRENT OF can reach.
type cursorTable struct {
	parts  []string // its name as the query wrote it, unquoted
	qual   string   // what the query calls it (its alias, else its name), as written
	alias  string   // the same, unquoted
	marked bool     // FOR UPDATE or FOR SHARE names it
	rel    relation // the table it names
	col    int      // its rowid's index among the cursor's values; -1: not read
	why    string   // why it is not read (col -1), for a 0A000
}

// cursorUpdates is what DECLARE's query says about writing through the
// cursor.
type cursorUpdates struct {
	tables []cursorTable
	// simple: PostgreSQL's "simply updatable scan": one plain table and
	// no grouping, aggregate, DISTINCT, window function or set operation.
	simple bool
	// rowMarks: the query has FOR UPDATE or FOR SHARE (PostgreSQL then
	// finds the row through them, and the cursor cannot scroll).
	rowMarks bool
	// from is the byte offset of the query's top-level FROM (-1: none).
	from int
}

// hidden is the number of rowid columns the cursor reads.
func (u *cursorUpdates) hidden() int {
	n := 0
	for _, t := range u.tables {
		if t.col >= 0 {
			n++
		}
	}
	return n
}

// aggregateCalls are the aggregates whose call in a select list makes a
// query an aggregation (a query with another aggregate fails to prepare
// with the rowid, and is then read without it).
var aggregateCalls = map[string]bool{"count": true, "sum": true, "min": true, "max": true, "avg": true,
	"array_agg": true, "string_agg": true, "bool_and": true, "bool_or": true, "every": true,
	"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true,
	"stddev": true, "stddev_pop": true, "stddev_samp": true, "variance": true, "var_pop": true,
	"var_samp": true, "bit_and": true, "bit_or": true, "bit_xor": true, "percentile_cont": true,
	"percentile_disc": true, "mode": true, "xmlagg": true, "corr": true, "covar_pop": true, "covar_samp": true,
	"regr_count": true, "range_agg": true, "range_intersect_agg": true, "any_value": true}

// setReturningCalls are the set-returning functions whose call in a
// select list puts PostgreSQL's ProjectSet over the scan: the cursor is
// then not simply updatable.
var setReturningCalls = map[string]bool{"generate_series": true, "generate_subscripts": true, "unnest": true,
	"regexp_matches": true, "regexp_split_to_table": true, "string_to_table": true,
	"json_array_elements": true, "json_array_elements_text": true, "jsonb_array_elements": true, "jsonb_array_elements_text": true,
	"json_each": true, "json_each_text": true, "jsonb_each": true, "jsonb_each_text": true, "json_object_keys": true,
	"jsonb_object_keys": true, "json_populate_recordset": true, "jsonb_populate_recordset": true, "json_to_recordset": true,
	"jsonb_to_recordset": true, "jsonb_path_query": true}

// joinWords end an item of a FROM list (when no "(" follows: left(s, n)
// is a call).
var joinWords = map[string]bool{"join": true, "inner": true, "left": true, "right": true, "full": true,
	"outer": true, "cross": true, "natural": true}

// analyzeCursorQuery reads DECLARE's query: its plain tables, whether
// it is simply updatable, and its FOR UPDATE/FOR SHARE clauses. The
// tables are not resolved yet (rel is empty, col -1).
func analyzeCursorQuery(q sqltext.Statement) cursorUpdates {
	src, toks := q.SQL, q.Tokens()
	none := cursorUpdates{from: -1}
	word := func(i int) string {
		if i >= 0 && i < len(toks) && toks[i].Kind == sqltext.Word {
			return strings.ToLower(src[toks[i].Start:toks[i].End])
		}
		return ""
	}
	isOp := func(i int, op string) bool {
		return i >= 0 && i < len(toks) && toks[i].Kind == sqltext.Op && src[toks[i].Start:toks[i].End] == op
	}
	if word(0) != "select" {
		return none // VALUES, WITH, (SELECT …), TABLE t
	}
	var sub []bool // for each open parenthesis: inside a subquery
	inSub := func() bool { return len(sub) > 0 && sub[len(sub)-1] }
	fromAt, fromEnd := -1, len(toks)
	complexQuery, setOp := false, false
	var forAt []int
	for i, t := range toks {
		switch t.Kind {
		case sqltext.Open:
			w := word(i + 1)
			sub = append(sub, inSub() || w == "select" || w == "with" || w == "values")
			continue
		case sqltext.Close:
			if len(sub) == 0 {
				return none
			}
			sub = sub[:len(sub)-1]
			continue
		case sqltext.Semi:
			return none
		}
		w := word(i)
		if w == "" {
			continue
		}
		if fromAt < 0 {
			// the select list
			switch {
			case len(sub) == 0 && (w == "distinct" || w == "into"):
				complexQuery = true
			case !inSub() && w == "over":
				complexQuery = true // a window function
			case !inSub() && (aggregateCalls[w] || setReturningCalls[w]) && i+1 < len(toks) && toks[i+1].Kind == sqltext.Open && !isOp(i-1, "."):
				complexQuery = true
			case len(sub) == 0 && w == "from":
				fromAt = i
			}
			continue
		}
		if len(sub) != 0 {
			continue
		}
		switch w {
		case "where", "group", "having", "window", "qualify", "order", "limit", "offset", "fetch", "for", "union", "intersect", "except":
			if fromEnd == len(toks) {
				fromEnd = i
			}
		}
		switch w {
		case "group", "having", "window", "qualify":
			complexQuery = true
		case "union", "intersect", "except":
			setOp = true
		case "for":
			forAt = append(forAt, i)
		}
	}
	if fromAt < 0 || setOp {
		return none
	}
	u := cursorUpdates{from: toks[fromAt].Start}
	// the FROM list's items: split at "," and JOIN, without ON … and USING (…)
	var items [][2]int
	start, skipping, depth := fromAt+1, false, 0
	for i := fromAt + 1; i < fromEnd; i++ {
		switch toks[i].Kind {
		case sqltext.Open:
			depth++
			continue
		case sqltext.Close:
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		w := word(i)
		if isOp(i, ",") || joinWords[w] && !(i+1 < len(toks) && toks[i+1].Kind == sqltext.Open) {
			if !skipping && start < i {
				items = append(items, [2]int{start, i})
			}
			start, skipping = i+1, false
			continue
		}
		if (w == "on" || w == "using") && !skipping {
			if start < i {
				items = append(items, [2]int{start, i})
			}
			skipping = true
		}
	}
	if !skipping && start < fromEnd {
		items = append(items, [2]int{start, fromEnd})
	}
	plain := 0
	for _, it := range items {
		if t, ok := fromItem(src, toks, it[0], it[1]); ok {
			u.tables = append(u.tables, t)
			plain++
		}
	}
	u.simple = !complexQuery && len(items) == 1 && plain == 1
	// FOR UPDATE | NO KEY UPDATE | SHARE | KEY SHARE [OF name, …] [NOWAIT | SKIP LOCKED]
	for _, k := range forAt {
		j := k + 1
		switch {
		case word(j) == "update" || word(j) == "share":
			j++
		case word(j) == "no" && word(j+1) == "key" && word(j+2) == "update":
			j += 3
		case word(j) == "key" && word(j+1) == "share":
			j += 2
		default:
			continue
		}
		u.rowMarks = true
		if word(j) != "of" {
			for i := range u.tables {
				u.tables[i].marked = true
			}
			continue
		}
		for j++; j < len(toks); j++ {
			if toks[j].Kind != sqltext.Word && toks[j].Kind != sqltext.Quoted {
				break
			}
			for isOp(j+1, ".") && j+2 < len(toks) {
				j += 2 // a qualified name: its last part names the item
			}
			name := identText(src, toks[j])
			for i := range u.tables {
				if u.tables[i].alias == name {
					u.tables[i].marked = true
				}
			}
			if !isOp(j+1, ",") {
				break
			}
			j++
		}
	}
	if complexQuery {
		u.tables = nil
	}
	if !u.rowMarks && !u.simple {
		u.tables = nil
	}
	if u.rowMarks {
		kept := u.tables[:0]
		for _, t := range u.tables {
			if t.marked {
				kept = append(kept, t)
			}
		}
		u.tables = kept
	}
	return u
}

// fromItem reads one item of a FROM list, toks[a:b]: a plain table ([ONLY]
// name [*] [[AS] alias [(columns)]]); ok is false for anything else (a
// subquery, a function, a join in parentheses, TABLESAMPLE).
func fromItem(src string, toks []sqltext.Token, a, b int) (cursorTable, bool) {
	t := cursorTable{col: -1}
	i := a
	if i < b && toks[i].Kind == sqltext.Word && strings.EqualFold(src[toks[i].Start:toks[i].End], "only") &&
		i+1 < b && (toks[i+1].Kind == sqltext.Word || toks[i+1].Kind == sqltext.Quoted) {
		i++
	}
	isOp := func(i int, op string) bool {
		return i < b && toks[i].Kind == sqltext.Op && src[toks[i].Start:toks[i].End] == op
	}
	for {
		if i >= b || toks[i].Kind != sqltext.Word && toks[i].Kind != sqltext.Quoted {
			return t, false
		}
		t.parts = append(t.parts, identText(src, toks[i]))
		t.qual, t.alias = src[toks[i].Start:toks[i].End], identText(src, toks[i])
		i++
		if isOp(i, ".") {
			i++
			continue
		}
		break
	}
	if len(t.parts) > 3 {
		return t, false
	}
	if isOp(i, "*") {
		i++
	}
	if i < b && toks[i].Kind == sqltext.Open {
		return t, false // a function
	}
	if i < b && toks[i].Kind == sqltext.Word && strings.EqualFold(src[toks[i].Start:toks[i].End], "as") {
		i++
	}
	if i < b && (toks[i].Kind == sqltext.Word || toks[i].Kind == sqltext.Quoted) {
		t.qual, t.alias = src[toks[i].Start:toks[i].End], identText(src, toks[i])
		i++
		if i < b && toks[i].Kind == sqltext.Open {
			for depth := 0; i < b; i++ {
				if toks[i].Kind == sqltext.Open {
					depth++
				} else if toks[i].Kind == sqltext.Close {
					if depth--; depth == 0 {
						i++
						break
					}
				}
			}
		}
	}
	return t, i == b
}

// identText is a name token as PostgreSQL reads it: a word in lower
// case, a quoted name unquoted.
func identText(src string, t sqltext.Token) string {
	if t.Kind == sqltext.Quoted {
		return sqltext.UnquoteIdent(src[t.Start:t.End])
	}
	return strings.ToLower(src[t.Start:t.End])
}

// relation is a table or view of the session's catalogs.
type relation struct {
	db, schema, name string
	view             bool
	rowidColumn      bool // a table with a column of its own named rowid
}

func (r relation) key() string { return strings.ToLower(r.db + "." + r.schema + "." + r.name) }

// resolveRelation finds the table or view that a statement's name parts
// (unquoted) name, as DuckDB resolves it: a temporary one first, public
// as main; ok is false when there is none.
func (s *Session) resolveRelation(ctx context.Context, parts []string) (relation, bool) {
	lower := func(p string) string { return "lower(" + sqltext.QuoteString(p) + ")" }
	schema := func(p string) string {
		if strings.EqualFold(p, "public") {
			return "main"
		}
		return p
	}
	where := func(col string) string {
		w := "lower(" + col + ") = " + lower(parts[len(parts)-1]) + " AND "
		switch len(parts) {
		case 1:
			return w + "schema_name = 'main' AND database_name IN (current_database(), 'temp')"
		case 2:
			return w + "((lower(schema_name) = " + lower(schema(parts[0])) + " AND database_name IN (current_database(), 'temp')) OR (lower(database_name) = " +
				lower(parts[0]) + " AND schema_name = 'main'))"
		}
		return w + "lower(database_name) = " + lower(parts[0]) + " AND lower(schema_name) = " + lower(schema(parts[1]))
	}
	var rel relation
	found := false
	err := s.queryRows(ctx, `SELECT * FROM (SELECT database_name, schema_name, table_name, false, EXISTS (SELECT 1 FROM duckdb_columns() c
			WHERE c.database_name = t.database_name AND c.schema_name = t.schema_name AND c.table_name = t.table_name AND lower(c.column_name) = 'rowid')
		FROM duckdb_tables() t WHERE `+where("table_name")+`
		UNION ALL SELECT database_name, schema_name, view_name, true, false FROM duckdb_views() WHERE NOT internal AND `+where("view_name")+`)
		ORDER BY database_name = 'temp' DESC LIMIT 1`,
		func(row []any) {
			rel.db, _ = row[0].(string)
			rel.schema, _ = row[1].(string)
			rel.name, _ = row[2].(string)
			rel.view, _ = row[3].(bool)
			rel.rowidColumn, _ = row[4].(bool)
			found = true
		})
	return rel, err == nil && found
}

// updatableTables resolves the tables analyzeCursorQuery found and
// decides which the cursor reads the rowid of; it returns the query with
// those rowids after the select list ("" when none).
func (s *Session) updatableTables(ctx context.Context, q sqltext.Statement, u *cursorUpdates) string {
	if len(u.tables) == 0 || u.from < 0 {
		return ""
	}
	var add []string
	for i := range u.tables {
		t := &u.tables[i]
		rel, ok := s.resolveRelation(ctx, t.parts)
		switch {
		case !ok:
			t.why = "its table was not found"
			continue
		case rel.view:
			t.rel = rel
			if n, _ := s.partitionNode(ctx, t.parts); n != nil {
				t.why = "it reads a partition, not the partitioned table"
				continue
			}
			t.why = "it reads a view"
			continue
		case rel.rowidColumn:
			t.rel = rel
			t.why = "its table has a column named rowid"
			continue
		}
		t.rel = rel
		t.col = len(add) // relative to the client's columns; prepareDeclare adds their count
		add = append(add, t.qual+".rowid")
	}
	if len(add) == 0 {
		return ""
	}
	head := strings.TrimRight(q.SQL[:u.from], " \t\r\n")
	sep := ", "
	if toks := sqltext.Tokens(head); len(toks) == 1 {
		sep = " " // SELECT FROM t: no client column
	}
	return head + sep + strings.Join(add, ", ") + " " + q.SQL[u.from:]
}

// currentOfClause is UPDATE or DELETE … WHERE CURRENT OF cursor.
type currentOfClause struct {
	parts      []string // the target table's name, unquoted
	qual       string   // what the statement calls it, as written
	cursor     string
	start, end int // the bytes of "CURRENT OF cursor"
	update     bool
}

// findCurrentOf finds WHERE CURRENT OF in an UPDATE or DELETE; ok is
// false for any other statement.
func findCurrentOf(st sqltext.Statement) (currentOfClause, bool) {
	var c currentOfClause
	src, toks := st.SQL, st.Tokens()
	word := func(i int) string {
		if i >= 0 && i < len(toks) && toks[i].Kind == sqltext.Word {
			return strings.ToLower(src[toks[i].Start:toks[i].End])
		}
		return ""
	}
	var i int
	switch {
	case word(0) == "update":
		i, c.update = 1, true
	case word(0) == "delete" && word(1) == "from":
		i = 2
	default:
		return c, false
	}
	// WHERE CURRENT OF name at the top level, then the end or RETURNING
	depth, at := 0, -1
	for j := i; j < len(toks); j++ {
		switch toks[j].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		case sqltext.Word:
			if depth == 0 && word(j) == "where" && word(j+1) == "current" && word(j+2) == "of" && j+3 < len(toks) {
				at = j + 1
			}
		}
	}
	if at < 0 {
		return c, false
	}
	name := toks[at+2]
	if name.Kind != sqltext.Word && name.Kind != sqltext.Quoted {
		return c, false
	}
	if at+3 < len(toks) && word(at+3) != "returning" && toks[at+3].Kind != sqltext.Semi {
		return c, false
	}
	c.cursor = identText(src, name)
	c.start, c.end = toks[at].Start, name.End
	if word(i) == "only" && i+1 < len(toks) && (toks[i+1].Kind == sqltext.Word || toks[i+1].Kind == sqltext.Quoted) {
		i++
	}
	for {
		if i >= len(toks) || toks[i].Kind != sqltext.Word && toks[i].Kind != sqltext.Quoted {
			return c, false
		}
		c.parts = append(c.parts, identText(src, toks[i]))
		c.qual = src[toks[i].Start:toks[i].End]
		i++
		if i < len(toks) && toks[i].Kind == sqltext.Op && src[toks[i].Start:toks[i].End] == "." {
			i++
			continue
		}
		break
	}
	if i < len(toks) && toks[i].Kind == sqltext.Op && src[toks[i].Start:toks[i].End] == "*" {
		i++
	}
	if word(i) == "as" {
		i++
	}
	if w := word(i); i < len(toks) && (toks[i].Kind == sqltext.Quoted || w != "" && w != "set" && w != "using" && w != "where") {
		c.qual = src[toks[i].Start:toks[i].End]
	}
	return c, len(c.parts) <= 3
}

// isCurrentOf reports whether st is UPDATE or DELETE … WHERE CURRENT OF.
func isCurrentOf(st sqltext.Statement) bool {
	_, ok := findCurrentOf(st)
	return ok
}

// prepareCurrentOf prepares UPDATE or DELETE … WHERE CURRENT OF; ok is
// false for any other statement.
func (s *Session) prepareCurrentOf(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, bool, error) {
	c, ok := findCurrentOf(st)
	if !ok {
		return nil, false, nil
	}
	target, found := s.resolveRelation(ctx, c.parts)
	table := target
	if found && target.view {
		n, err := s.partitionNode(ctx, c.parts)
		if err != nil {
			return nil, true, s.failed(err)
		}
		if n == nil {
			return nil, true, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "WHERE CURRENT OF on a view is not implemented"))
		}
		// a partition: a view of its root's rows, which the root's rowid names
		root := n.root()
		table = relation{db: root.db, schema: root.schema, name: root.name}
	}
	// … WHERE t.rowid = $n, n past the statement's parameters
	n := max(st.Params, len(paramOIDs)) + 1
	text := st.SQL[:c.start] + c.qual + ".rowid = $" + strconv.Itoa(n) + st.SQL[c.end:]
	inner := sqltext.Parse(text)
	inner.Offset = st.Offset
	oids := make([]uint32, n)
	copy(oids, paramOIDs)
	oids[n-1] = 20 // int8
	stmt, err := s.Prepare(ctx, inner, oids)
	if err != nil {
		return nil, true, err
	}
	if !found {
		// DuckDB prepared it: a name it resolves and vsql does not
		stmt.Close()
		return nil, true, s.failed(vsqlerr.New(vsqlerr.FeatureNotSupported, "WHERE CURRENT OF: vsql cannot tell which table %q names", strings.Join(c.parts, ".")))
	}
	return &currentOfStatement{sess: s, inner: stmt, clause: c, table: table, tableName: target.name, params: n - 1}, true, nil
}

// currentOfStatement is UPDATE or DELETE … WHERE CURRENT OF prepared:
// inner is the statement with WHERE t.rowid = $n.
type currentOfStatement struct {
	sess      *Session
	inner     pgwire.Statement
	clause    currentOfClause
	table     relation // the table whose rowid the cursor must read
	tableName string   // the target's name, for messages
	params    int      // the statement's own parameters
}

func (c *currentOfStatement) ParamOIDs() []uint32 {
	oids := c.inner.ParamOIDs()
	if len(oids) > c.params {
		oids = oids[:c.params]
	}
	return oids
}
func (c *currentOfStatement) Columns() []pgwire.Column { return c.inner.Columns() }
func (c *currentOfStatement) Close()                   { c.inner.Close() }

func (c *currentOfStatement) Execute(ctx context.Context, args []any) (pgwire.Rows, error) {
	s := c.sess
	cur, rowid, err := s.currentRow(c.clause.cursor, c.table, c.tableName)
	if err != nil {
		return nil, s.failed(err)
	}
	full := make([]any, c.params+1)
	copy(full, args)
	full[c.params] = rowid
	existed := c.clause.update && rowid != nil && s.rowidExists(ctx, c.table, rowid)
	rows, err := c.inner.Execute(ctx, full)
	if err != nil {
		return nil, s.failed(err)
	}
	if existed && !s.rowidExists(ctx, c.table, rowid) {
		// DuckDB deleted the row and inserted it anew (a key or a list
		// changed): its new rowid is not known
		if cur.moved == nil {
			cur.moved = map[any]bool{}
		}
		cur.moved[rowid] = true
	}
	return rows, nil
}

// rowidExists reports whether the table has a row at rowid.
func (s *Session) rowidExists(ctx context.Context, t relation, rowid any) bool {
	id, ok := rowid.(int64)
	if !ok {
		return false
	}
	q := "SELECT count(*) > 0 FROM " + sqltext.QuoteIdent(t.db) + "." + sqltext.QuoteIdent(t.schema) + "." + sqltext.QuoteIdent(t.name) +
		" WHERE rowid = " + strconv.FormatInt(id, 10)
	ok, err := s.queryBool(ctx, q)
	return err == nil && ok
}

// currentRow is the rowid of t's row that cursor name is on, with
// PostgreSQL's errors (execCurrentOf) when there is none.
func (s *Session) currentRow(name string, t relation, tableName string) (*sqlCursor, any, error) {
	c, ok := s.cursors[name]
	if !ok {
		return nil, nil, vsqlerr.New(vsqlerr.CursorNotFound, "cursor %q does not exist", name)
	}
	if c.hold && !c.inTx {
		return nil, nil, vsqlerr.New(vsqlerr.InvalidCursorState, "cursor %q is held from a previous transaction", name)
	}
	var match []cursorTable
	var under *cursorTable // a view the cursor reads: the table may be under it
	for i, ct := range c.upd.tables {
		if ct.rel.key() == t.key() {
			match = append(match, ct)
		} else if ct.rel.view {
			under = &c.upd.tables[i]
		}
	}
	if len(match) == 0 && under != nil {
		return nil, nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "WHERE CURRENT OF cursor %q is not supported: %s", name, under.why).
			WithHint("Declare the cursor over the table itself, or update the row by its key (WHERE id = …).")
	}
	switch {
	case c.upd.rowMarks && len(match) == 0:
		return nil, nil, vsqlerr.New(vsqlerr.InvalidCursorState, "cursor %q does not have a FOR UPDATE/SHARE reference to table %q", name, tableName)
	case c.upd.rowMarks && len(match) > 1:
		return nil, nil, vsqlerr.New(vsqlerr.InvalidCursorState, "cursor %q has multiple FOR UPDATE/SHARE references to table %q", name, tableName)
	case !c.upd.rowMarks && (!c.upd.simple || len(match) != 1):
		return nil, nil, vsqlerr.New(vsqlerr.InvalidCursorState, "cursor %q is not a simply updatable scan of table %q", name, tableName)
	}
	ct := match[0]
	if ct.col < 0 {
		return nil, nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "WHERE CURRENT OF cursor %q is not supported: %s", name, ct.why).
			WithHint("Update the row by its key instead (WHERE id = …).")
	}
	row, ok := c.have(c.pos)
	if c.pos < 1 || c.pos > c.read || !ok {
		return nil, nil, vsqlerr.New(vsqlerr.InvalidCursorState, "cursor %q is not positioned on a row", name)
	}
	rowid := row[len(c.cols)+ct.col]
	if c.moved[rowid] {
		return nil, nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "the row cursor %q is on was moved by an UPDATE through it (a key, an indexed column or a list changed), and vsql cannot follow it", name).
			WithHint("Update the row by its key instead (WHERE id = …).")
	}
	return c, rowid, nil
}
