package server

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// SQL cursors: DECLARE, FETCH, MOVE and CLOSE, which DuckDB does not have
// and PostgreSQL clients use to read large results a slice at a time
// (psycopg2's named cursors, Django's QuerySet.iterator(), SQLAlchemy's
// stream_results). A cursor holds the result of its query, read forward
// as FETCH asks for rows; a SCROLL cursor also keeps the rows read so far,
// so that it can move backward and to absolute positions. A cursor declared
// with neither SCROLL nor NO SCROLL keeps the last defaultCursorWindow rows
// read: PostgreSQL lets such a cursor move backward where its plan allows,
// which is every simple query, and a window keeps that for the short
// backward moves clients make while a large result (psycopg2's named
// cursors) still streams in bounded memory; a move beyond the window is
// PostgreSQL's own "cursor can only scan forward". NO SCROLL keeps nothing. Cursors end
// with their transaction block unless declared WITH HOLD, and with the
// session.

// sqlCursor is one open cursor.
type sqlCursor struct {
	cols []pgwire.Column
	stmt pgwire.Statement // the prepared query
	rows pgwire.Rows      // its result, read forward
	// keep is how many rows read so far the cursor keeps: -1 all (SCROLL),
	// 0 none (NO SCROLL), else the window of a cursor declared with
	// neither.
	keep     int
	hold     bool
	inTx     bool    // declared in the open transaction block
	kept     [][]any // the rows kept: kept[0] is row keptFrom+1
	keptFrom int
	cur      []any // the last row read (the current row of a forward-only cursor)
	read     int   // rows read from rows
	done     bool  // rows is used up: read is the row count
	pos      int   // 0 before the first row, k on row k, read+1 after the last
	// statement and created: pg_cursors' statement and creation_time
	statement string
	created   time.Time
	binary    bool // DECLARE … BINARY: FETCH in the simple protocol sends binary values
	// scrollable: pg_cursors' is_scrollable. PostgreSQL decides it for a
	// cursor declared with neither SCROLL nor NO SCROLL from its plan: a
	// scan of one table or of VALUES can run backward, a join, an
	// aggregation or a SELECT without FROM cannot.
	scrollable bool
	// upd: the tables UPDATE or DELETE … WHERE CURRENT OF can reach; the
	// rows hold their rowids after the cols values (currentof.go).
	upd cursorUpdates
	// moved: rowids whose row an UPDATE through the cursor moved.
	moved map[any]bool
}

func (c *sqlCursor) close() {
	c.rows.Close()
	c.stmt.Close()
}

// next reads one more row of the result; false at its end.
func (c *sqlCursor) next() (bool, error) {
	if c.done {
		return false, nil
	}
	vals := make([]any, len(c.cols)+c.upd.hidden())
	if !c.rows.Next(vals) {
		c.done = true
		return false, c.rows.Err()
	}
	c.read++
	c.cur = vals
	if c.keep != 0 {
		c.kept = append(c.kept, vals)
		if c.keep > 0 && len(c.kept) >= 2*c.keep { // drop the oldest, amortized
			drop := len(c.kept) - c.keep
			c.kept = append([][]any(nil), c.kept[drop:]...)
			c.keptFrom += drop
		}
	}
	return true, nil
}

// defaultCursorWindow is how many of the rows read a cursor declared with
// neither SCROLL nor NO SCROLL keeps for backward moves.
const defaultCursorWindow = 1024

// have returns row k (1-based) if the cursor still holds it.
func (c *sqlCursor) have(k int) ([]any, bool) {
	if k >= 1 && k > c.keptFrom && k <= c.keptFrom+len(c.kept) {
		return c.kept[k-c.keptFrom-1], true
	}
	if k >= 1 && k == c.read && c.cur != nil {
		return c.cur, true
	}
	return nil, false
}

// rowAt returns row k (1-based), reading forward to it; ok is false past
// the last row. A forward-only cursor reaches only its current row and
// the rows after it.
func (c *sqlCursor) rowAt(k int) (row []any, ok bool, err error) {
	if k < 1 {
		return nil, false, nil
	}
	for c.read < k {
		more, err := c.next()
		if err != nil || !more {
			return nil, false, err
		}
	}
	if row, ok := c.have(k); ok {
		return row, true, nil
	}
	return nil, false, forwardOnly()
}

// count reads the whole result and returns its row count.
func (c *sqlCursor) count() (int, error) {
	for {
		more, err := c.next()
		if err != nil {
			return 0, err
		}
		if !more {
			return c.read, nil
		}
	}
}

func forwardOnly() error {
	return vsqlerr.New(vsqlerr.CursorForwardOnly, "cursor can only scan forward")
}

// fetchOp is a FETCH or MOVE direction: forward or backward by count
// (all: to the end), or to an absolute or relative position.
type fetchOp struct {
	kind  string // "forward", "backward", "absolute", "relative"
	count int
	all   bool
}

// run moves the cursor as op says and returns the rows passed over (the
// rows FETCH returns; for MOVE, move is true).
func (c *sqlCursor) run(op fetchOp, move bool) ([][]any, error) {
	if c.keep == 0 && c.rereads(op, move) {
		return nil, forwardOnly()
	}
	var out [][]any
	switch op.kind {
	case "forward":
		for n := 0; op.all || n < op.count; n++ {
			row, ok, err := c.rowAt(c.pos + 1)
			if err != nil {
				return nil, err
			}
			if !ok {
				c.pos = c.read + 1
				break
			}
			c.pos++
			out = append(out, row)
		}
	case "backward":
		if c.keep == 0 {
			return nil, forwardOnly()
		}
		if c.pos > c.read {
			if _, err := c.count(); err != nil {
				return nil, err
			}
			c.pos = c.read + 1
		}
		for n := 0; op.all || n < op.count; n++ {
			if c.pos-1 < 1 {
				c.pos = 0
				break
			}
			row, ok := c.have(c.pos - 1)
			if !ok {
				return nil, forwardOnly()
			}
			c.pos--
			out = append(out, row)
		}
	case "absolute", "relative":
		target := op.count
		if op.kind == "relative" {
			if op.count == 0 {
				if _, ok := c.have(c.pos); ok && c.pos <= c.read {
					row, _, err := c.rowAt(c.pos)
					return [][]any{row}, err
				}
				return nil, nil
			}
			target = c.pos + op.count
		} else if op.count < 0 {
			n, err := c.count()
			if err != nil {
				return nil, err
			}
			target = n + 1 + op.count
		}
		if target < c.pos || target <= c.read {
			// a position already passed: only a row the cursor holds
			if _, ok := c.have(target); !ok && target >= 1 {
				return nil, forwardOnly()
			}
		}
		if target < 1 {
			c.pos = 0
			return nil, nil
		}
		row, ok, err := c.rowAt(target)
		if err != nil {
			return nil, err
		}
		if !ok {
			c.pos = c.read + 1
			return nil, nil
		}
		c.pos = target
		out = append(out, row)
	}
	return out, nil
}

// rereads reports whether op would take a NO SCROLL cursor back to a row
// it has read, which PostgreSQL 15 refuses (DoPortalRunFetch): any
// backward move, FETCH RELATIVE 0 on a row (MOVE RELATIVE 0 only counts
// it), ABSOLUTE n at or before the current position or past the end, a
// negative ABSOLUTE, and ABSOLUTE 0 once the cursor has moved.
func (c *sqlCursor) rereads(op fetchOp, move bool) bool {
	switch op.kind {
	case "backward":
		return true
	case "relative":
		if op.count == 0 {
			return !move && c.pos >= 1 && c.pos <= c.read
		}
		return op.count < 0
	case "absolute":
		switch {
		case op.count < 0:
			return true
		case op.count == 0:
			return c.pos != 0
		}
		return op.count <= c.pos
	}
	return false
}

// cursorName reads the cursor name at token i: unquoted names fold to
// lower case.
func cursorName(src string, t sqltext.Token) (string, bool) {
	switch t.Kind {
	case sqltext.Word:
		return strings.ToLower(src[t.Start:t.End]), true
	case sqltext.Quoted:
		return sqltext.UnquoteIdent(src[t.Start:t.End]), true
	}
	return "", false
}

func cursorSyntax(format string, args ...any) error {
	return vsqlerr.New(vsqlerr.CursorSyntax, format, args...)
}

// prepareCursorStatement prepares DECLARE, FETCH, MOVE and CLOSE; ok is
// false for any other statement.
func (s *Session) prepareCursorStatement(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (pgwire.Statement, bool, error) {
	switch st.Keyword(0) {
	case "DECLARE":
		d, err := s.prepareDeclare(ctx, st, paramOIDs)
		if err != nil {
			return nil, true, err
		}
		return d, true, nil
	case "FETCH", "MOVE":
		f, err := s.prepareFetch(st)
		if err != nil {
			return nil, true, err
		}
		return f, true, nil
	case "EXPLAIN":
		// EXPLAIN [ANALYZE] [(options)] DECLARE … FOR query explains the
		// query; PostgreSQL opens no cursor either
		toks, depth := st.Tokens(), 0
		for i, t := range toks {
			switch t.Kind {
			case sqltext.Open:
				depth++
			case sqltext.Close:
				depth--
			case sqltext.Word:
				w := strings.ToLower(st.SQL[t.Start:t.End])
				if depth != 0 || i == 0 {
					continue
				}
				if w != "declare" {
					if w == "analyze" || w == "analyse" || w == "verbose" {
						continue
					}
					return nil, false, nil
				}
				d, err := s.prepareDeclareParts(sqltext.Parse(st.SQL[t.Start:]))
				if err != nil {
					return nil, true, err
				}
				q := sqltext.Parse(st.SQL[:t.Start] + d.query.SQL)
				q.Offset = st.Offset
				stmt, err := s.Prepare(ctx, q, paramOIDs)
				return stmt, true, err
			}
		}
		return nil, false, nil
	case "CLOSE":
		toks := st.Tokens()
		if len(toks) == 2 && toks[1].Kind == sqltext.Word && strings.EqualFold(st.SQL[toks[1].Start:toks[1].End], "all") {
			return &closeCursorStatement{sess: s, all: true}, true, nil
		}
		if len(toks) != 2 {
			return nil, true, cursorSyntax("CLOSE takes one cursor name, or ALL")
		}
		name, ok := cursorName(st.SQL, toks[1])
		if !ok {
			return nil, true, cursorSyntax("CLOSE takes one cursor name, or ALL")
		}
		return &closeCursorStatement{sess: s, name: name}, true, nil
	}
	return nil, false, nil
}

// declareStatement is DECLARE name [options] CURSOR [WITH[OUT] HOLD] FOR query.
type declareStatement struct {
	noRowsStatement
	sess         *Session
	name         string
	query        sqltext.Statement
	paramOIDs    []uint32
	params       []uint32
	scroll, hold bool
	noScroll     bool
	binary       bool
	first        pgwire.Statement // the query prepared with the DECLARE, for its first execution
	text         string           // the DECLARE as the client wrote it (pg_cursors)
	// upd: the tables WHERE CURRENT OF may reach; query reads their
	// rowids after the client's columns when there are any (currentof.go).
	upd cursorUpdates
}

func (s *Session) prepareDeclare(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) (*declareStatement, error) {
	d, err := s.prepareDeclareParts(st)
	if err != nil {
		return nil, err
	}
	d.paramOIDs = paramOIDs
	d.upd = analyzeCursorQuery(d.query)
	if d.upd.rowMarks {
		if d.scroll {
			e := vsqlerr.New(vsqlerr.FeatureNotSupported, "DECLARE SCROLL CURSOR ... FOR UPDATE is not supported")
			e.Detail = "Scrollable cursors must be READ ONLY."
			return nil, e
		}
		d.noScroll = true // PostgreSQL's FOR UPDATE cursors cannot scroll
	}
	if with := s.updatableTables(ctx, d.query, &d.upd); with != "" {
		// the query with the rowids of the tables WHERE CURRENT OF may reach
		q := sqltext.Parse(with)
		q.Offset = d.query.Offset
		wasOpen := s.txStatus() == txOpen
		first, err := s.Prepare(ctx, q, paramOIDs)
		if err == nil && len(first.Columns()) >= d.upd.hidden() {
			d.query, d.first, d.params = q, first, first.ParamOIDs()
			return d, nil
		}
		if first != nil {
			first.Close()
		}
		// an aggregate or another query the rowid does not fit: read it
		// without, and WHERE CURRENT OF will refuse it
		if wasOpen && s.txStatus() == txFailed {
			s.setTx(txOpen) // the failed attempt only prepared
		}
		d.upd.tables = nil
		d.upd.simple = false
	}
	first, err := s.Prepare(ctx, d.query, paramOIDs)
	if err != nil {
		return nil, err
	}
	d.first, d.params = first, first.ParamOIDs()
	return d, nil
}

// prepareDeclareParts reads DECLARE name [options] CURSOR [WITH[OUT]
// HOLD] FOR query.
func (s *Session) prepareDeclareParts(st sqltext.Statement) (*declareStatement, error) {
	toks := st.Tokens()
	word := func(i int) string {
		if i < len(toks) && toks[i].Kind == sqltext.Word {
			return strings.ToLower(st.SQL[toks[i].Start:toks[i].End])
		}
		return ""
	}
	if len(toks) < 2 {
		return nil, cursorSyntax("DECLARE needs a cursor name")
	}
	name, ok := cursorName(st.SQL, toks[1])
	if !ok {
		return nil, cursorSyntax("DECLARE needs a cursor name")
	}
	d := &declareStatement{sess: s, name: name, text: strings.TrimSpace(st.SQL)}
	i := 2
	for ; word(i) != "cursor"; i++ {
		switch word(i) {
		case "scroll":
			d.scroll = true
		case "no":
			if word(i+1) != "scroll" {
				return nil, cursorSyntax("DECLARE: NO must be followed by SCROLL")
			}
			d.noScroll = true
			i++
		case "insensitive", "asensitive":
		case "binary":
			d.binary = true
		default:
			return nil, cursorSyntax("DECLARE %s: expected CURSOR", name)
		}
	}
	i++
	switch {
	case word(i) == "with" && word(i+1) == "hold":
		d.hold, i = true, i+2
	case word(i) == "without" && word(i+1) == "hold":
		i += 2
	}
	if word(i) != "for" || i+1 >= len(toks) {
		return nil, cursorSyntax("DECLARE %s CURSOR: expected FOR and a query", name)
	}
	d.query = sqltext.Parse(st.SQL[toks[i+1].Start:])
	d.query.Offset = st.Offset + toks[i+1].Start
	if !d.query.ReturnsRows() {
		return nil, cursorSyntax("DECLARE %s CURSOR FOR: the query must be a SELECT or VALUES", name)
	}
	if pgcompat.SelectsInto(d.query) {
		return nil, vsqlerr.New(vsqlerr.SyntaxError, "SELECT ... INTO is not allowed here").
			WithHint("A cursor reads a query: leave out INTO (CREATE TABLE … AS makes a table of it).")
	}
	return d, nil
}

func (d *declareStatement) ParamOIDs() []uint32 { return d.params }

func (d *declareStatement) Close() {
	if d.first != nil {
		d.first.Close()
		d.first = nil
	}
}

func (d *declareStatement) Execute(ctx context.Context, args []any) (pgwire.Rows, error) {
	s := d.sess
	if !d.hold && !s.InTransaction() {
		return nil, vsqlerr.New(vsqlerr.CursorOutsideBlock, "DECLARE CURSOR can only be used in transaction blocks")
	}
	if _, ok := s.cursors[d.name]; ok {
		return nil, s.failed(vsqlerr.New(vsqlerr.DuplicateCursor, "cursor %q already exists", d.name))
	}
	stmt := d.first
	d.first = nil
	if stmt == nil {
		var err error
		if stmt, err = s.Prepare(ctx, d.query, d.paramOIDs); err != nil {
			return nil, err
		}
	}
	rows, err := stmt.Execute(ctx, args)
	if err != nil {
		stmt.Close()
		return nil, err
	}
	if s.cursors == nil {
		s.cursors = map[string]*sqlCursor{}
	}
	keep := defaultCursorWindow
	switch {
	case d.scroll:
		keep = -1
	case d.noScroll:
		keep = 0
	}
	cols := stmt.Columns()
	cols = cols[:len(cols)-d.upd.hidden()]
	s.cursors[d.name] = &sqlCursor{cols: cols, stmt: stmt, rows: rows, keep: keep, hold: d.hold, inTx: s.InTransaction(),
		statement: s.declareText(d.text), created: time.Now(), binary: d.binary, upd: d.upd,
		scrollable: keep < 0 || keep > 0 && (d.upd.simple || d.query.Keyword(0) == "VALUES")}
	return &tagRows{tag: "DECLARE CURSOR"}, nil
}

// fetchStatement is FETCH or MOVE [direction] [FROM | IN] name.
type fetchStatement struct {
	sess   *Session
	name   string
	op     fetchOp
	move   bool
	cols   []pgwire.Column
	binary bool
}

// BinaryResults implements pgwire.BinaryResults: a FETCH from a BINARY
// cursor sends binary values in the simple query protocol (in the
// extended one, Bind's result formats decide, as in PostgreSQL).
func (f *fetchStatement) BinaryResults() bool { return f.binary }

// declareText is pg_cursors' statement: the query string the DECLARE
// came in as the client sent it (PostgreSQL's whole string, with its
// semicolon), else the DECLARE alone.
func (s *Session) declareText(own string) string {
	a := s.activity
	if a == nil {
		return own
	}
	a.mu.Lock()
	q := a.query
	a.mu.Unlock()
	if !strings.Contains(q, own) {
		return own
	}
	return q
}

func (s *Session) prepareFetch(st sqltext.Statement) (*fetchStatement, error) {
	verb := st.Keyword(0)
	toks := st.Tokens()[1:]
	if len(toks) == 0 {
		return nil, cursorSyntax("%s needs a cursor name", verb)
	}
	last := toks[len(toks)-1]
	name, ok := cursorName(st.SQL, last)
	if !ok {
		return nil, cursorSyntax("%s needs a cursor name", verb)
	}
	toks = toks[:len(toks)-1]
	if n := len(toks); n > 0 && toks[n-1].Kind == sqltext.Word {
		if w := strings.ToLower(st.SQL[toks[n-1].Start:toks[n-1].End]); w == "from" || w == "in" {
			toks = toks[:n-1]
		}
	}
	op, err := parseDirection(st.SQL, toks)
	if err != nil {
		return nil, cursorSyntax("%s: %v", verb, err)
	}
	f := &fetchStatement{sess: s, name: name, op: op, move: verb == "MOVE"}
	c, ok := s.cursors[name]
	if !ok {
		return nil, s.failed(vsqlerr.New(vsqlerr.CursorNotFound, "cursor %q does not exist", name))
	}
	if !f.move {
		f.cols, f.binary = c.cols, c.binary
	}
	return f, nil
}

// parseDirection reads FETCH's direction: NEXT, PRIOR, FIRST, LAST,
// ABSOLUTE n, RELATIVE n, n, ALL, FORWARD [n | ALL], BACKWARD [n | ALL].
func parseDirection(src string, toks []sqltext.Token) (fetchOp, error) {
	text := func(i int) string { return strings.ToLower(src[toks[i].Start:toks[i].End]) }
	number := func(from int) (int, bool) {
		var b strings.Builder
		for i := from; i < len(toks); i++ {
			b.WriteString(text(i))
		}
		n, err := strconv.Atoi(b.String())
		return n, err == nil && from < len(toks)
	}
	signed := func(kind string, n int) fetchOp {
		switch {
		case n == 0:
			return fetchOp{kind: "relative"}
		case n < 0 && kind == "forward":
			return fetchOp{kind: "backward", count: -n}
		case n < 0:
			return fetchOp{kind: "forward", count: -n}
		}
		return fetchOp{kind: kind, count: n}
	}
	if len(toks) == 0 {
		return fetchOp{kind: "forward", count: 1}, nil
	}
	switch w := text(0); w {
	case "next":
		if len(toks) == 1 {
			return fetchOp{kind: "forward", count: 1}, nil
		}
	case "prior":
		if len(toks) == 1 {
			return fetchOp{kind: "backward", count: 1}, nil
		}
	case "first":
		if len(toks) == 1 {
			return fetchOp{kind: "absolute", count: 1}, nil
		}
	case "last":
		if len(toks) == 1 {
			return fetchOp{kind: "absolute", count: -1}, nil
		}
	case "all":
		if len(toks) == 1 {
			return fetchOp{kind: "forward", all: true}, nil
		}
	case "absolute", "relative":
		if n, ok := number(1); ok {
			return fetchOp{kind: w, count: n}, nil
		}
	case "forward", "backward":
		if len(toks) == 1 {
			return fetchOp{kind: w, count: 1}, nil
		}
		if len(toks) == 2 && text(1) == "all" {
			return fetchOp{kind: w, all: true}, nil
		}
		if n, ok := number(1); ok {
			return signed(w, n), nil
		}
	default:
		if n, ok := number(0); ok {
			return signed("forward", n), nil
		}
	}
	return fetchOp{}, errDirection
}

var errDirection = vsqlerr.New(vsqlerr.CursorSyntax, "unknown direction")

func (f *fetchStatement) ParamOIDs() []uint32      { return nil }
func (f *fetchStatement) Columns() []pgwire.Column { return f.cols }
func (f *fetchStatement) Close()                   {}

func (f *fetchStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	s := f.sess
	c, ok := s.cursors[f.name]
	if !ok {
		return nil, s.failed(vsqlerr.New(vsqlerr.CursorNotFound, "cursor %q does not exist", f.name))
	}
	rows, err := c.run(f.op, f.move)
	if err != nil {
		return nil, s.failed(err)
	}
	if f.move {
		return &tagRows{tag: "MOVE " + strconv.Itoa(len(rows))}, nil
	}
	if h := c.upd.hidden(); h > 0 {
		for i, row := range rows {
			rows[i] = row[:len(row)-h] // the rowids stay the cursor's
		}
	}
	return &heldRows{rows: rows, tag: func(n int64) string { return "FETCH " + strconv.FormatInt(n, 10) }}, nil
}

// closeCursorStatement is CLOSE name or CLOSE ALL.
type closeCursorStatement struct {
	noRowsStatement
	sess *Session
	name string
	all  bool
}

func (cs *closeCursorStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	s := cs.sess
	if cs.all {
		s.closeCursors(false)
		return &tagRows{tag: "CLOSE CURSOR ALL"}, nil
	}
	c, ok := s.cursors[cs.name]
	if !ok {
		return nil, s.failed(vsqlerr.New(vsqlerr.CursorNotFound, "cursor %q does not exist", cs.name))
	}
	c.close()
	delete(s.cursors, cs.name)
	return &tagRows{tag: "CLOSE CURSOR"}, nil
}

// endTransactionCursors closes the cursors of a block that ended: all but
// WITH HOLD ones at COMMIT; at ROLLBACK also the WITH HOLD ones it
// declared, as PostgreSQL does.
func (s *Session) endTransactionCursors(committed bool) {
	for name, c := range s.cursors {
		if !c.hold || !committed && c.inTx {
			c.close()
			delete(s.cursors, name)
			continue
		}
		c.inTx = false
	}
}

// closeCursors closes the session's cursors: all of them, or (keepHeld)
// those not declared WITH HOLD, as the end of a transaction block does.
func (s *Session) closeCursors(keepHeld bool) {
	for name, c := range s.cursors {
		if keepHeld && c.hold {
			continue
		}
		c.close()
		delete(s.cursors, name)
	}
}

// cursorColumns are pg_cursors' columns.
var cursorColumns = []catalogColumn{{"name", duckdb.TYPE_VARCHAR}, {"statement", duckdb.TYPE_VARCHAR}, {"is_holdable", duckdb.TYPE_BOOLEAN},
	{"is_binary", duckdb.TYPE_BOOLEAN}, {"is_scrollable", duckdb.TYPE_BOOLEAN}, {"creation_time", duckdb.TYPE_TIMESTAMP_TZ}}

// cursorRows are pg_cursors' rows: the session's open SQL cursors. Read on the
// session's own query (the table function runs while the session waits
// for it).
func (s *Session) cursorRows() [][]any {
	rows := make([][]any, 0, len(s.cursors))
	for name, c := range s.cursors {
		rows = append(rows, []any{name, c.statement, c.hold, c.binary, c.scrollable, c.created})
	}
	return rows
}
