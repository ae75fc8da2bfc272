package server

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// SQL cursors, as PostgreSQL has them: DECLARE name [NO] SCROLL CURSOR
// [WITH HOLD] FOR query, FETCH and MOVE in every direction, CLOSE name and
// CLOSE ALL. DuckDB has no cursors: DECLARE runs the query and keeps its
// rows (an insensitive cursor, which is what PostgreSQL's are for reads),
// FETCH and MOVE walk them. A cursor lives until CLOSE or the end of its
// transaction block; WITH HOLD keeps it after COMMIT, as PostgreSQL does.
type cursor struct {
	cols     []pgwire.Column
	rows     [][]any
	pos      int  // 0 before the first row, len(rows)+1 after the last
	noScroll bool // NO SCROLL: backward moves are refused
	hold     bool
	inTx     bool // declared in the open transaction block
}

var (
	declarePattern = regexp.MustCompile(`(?is)^\s*DECLARE\s+("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\s+((?:(?:BINARY|INSENSITIVE|ASENSITIVE|NO\s+SCROLL|SCROLL)\s+)*)CURSOR\s+(?:(WITH|WITHOUT)\s+HOLD\s+)?FOR\s+(.*)$`)
	fetchPattern   = regexp.MustCompile(`(?is)^\s*(FETCH|MOVE)\s+(?:(.*?)\s+)??(?:(?:FROM|IN)\s+)?("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\s*$`)
	closePattern   = regexp.MustCompile(`(?is)^\s*CLOSE\s+("(?:[^"]|"")+"|[a-z_][a-z0-9_$]*)\s*$`)
)

func noCursor(name string) error {
	e := vsqlerr.New(vsqlerr.InvalidArgument, "cursor %q does not exist", name).WithHint("DECLARE the cursor first, inside the transaction block that uses it (or WITH HOLD).")
	e.SQLState = "34000"
	return e
}

// prepareCursor handles DECLARE, FETCH, MOVE and CLOSE; ok is false for
// other statements.
func (s *Session) prepareCursor(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	switch st.Keyword(0) {
	case "DECLARE":
		m := declarePattern.FindStringSubmatch(st.SQL)
		if m == nil {
			return nil, false, nil
		}
		return s.declareCursor(ctx, foldName(m[1]), strings.ToUpper(m[2]), strings.EqualFold(m[3], "WITH"), m[4], st.Offset)
	case "FETCH", "MOVE":
		m := fetchPattern.FindStringSubmatch(st.SQL)
		if m == nil {
			return nil, false, nil
		}
		name := foldName(m[3])
		c, ok := s.cursors[name]
		if !ok {
			return nil, true, noCursor(name)
		}
		dir, count, err := fetchDirection(m[2])
		if err != nil {
			return nil, true, err
		}
		return &fetchStatement{c: c, dir: dir, count: count, move: strings.EqualFold(m[1], "MOVE")}, true, nil
	case "CLOSE":
		m := closePattern.FindStringSubmatch(st.SQL)
		if m == nil {
			return nil, false, nil
		}
		name := foldName(m[1])
		if strings.EqualFold(m[1], "ALL") {
			return &settingStatement{apply: func() error { s.cursors = nil; return nil }, tag: "CLOSE CURSOR ALL"}, true, nil
		}
		if _, ok := s.cursors[name]; !ok {
			return nil, true, noCursor(name)
		}
		return &settingStatement{apply: func() error { delete(s.cursors, name); return nil }, tag: "CLOSE CURSOR"}, true, nil
	}
	return nil, false, nil
}

func (s *Session) declareCursor(ctx context.Context, name, options string, hold bool, query string, offset int) (pgwire.Statement, bool, error) {
	if s.txStatus() == 'I' && !hold {
		e := vsqlerr.New(vsqlerr.TransactionBlock, "DECLARE CURSOR can only be used in transaction blocks").WithHint("Run BEGIN first, or DECLARE … CURSOR WITH HOLD.")
		e.SQLState = "25P01"
		return nil, true, e
	}
	if _, ok := s.cursors[name]; ok {
		e := vsqlerr.New(vsqlerr.InvalidArgument, "cursor %q already exists", name).WithHint("CLOSE it first, or use another name.")
		e.SQLState = "42P03"
		return nil, true, e
	}
	inner := sqltext.Parse(query)
	inner.Offset = offset
	if k := inner.Keyword(0); k != "SELECT" && k != "VALUES" && k != "WITH" && k != "TABLE" {
		e := vsqlerr.New(vsqlerr.SyntaxError, "DECLARE CURSOR needs a query (SELECT, VALUES, WITH or TABLE)")
		return nil, true, e
	}
	stmt, err := s.Prepare(ctx, inner, nil)
	if err != nil {
		return nil, true, err
	}
	c := &cursor{cols: stmt.Columns(), noScroll: strings.Contains(options, "NO"), hold: hold}
	return &declareStatement{sess: s, name: name, c: c, stmt: stmt}, true, nil
}

type declareStatement struct {
	noRowsStatement
	sess *Session
	name string
	c    *cursor
	stmt pgwire.Statement
}

func (d *declareStatement) Close() { d.stmt.Close() }

func (d *declareStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := d.sess
	rows, err := d.stmt.Execute(ctx, nil)
	if err != nil {
		return nil, s.failed(err)
	}
	defer rows.Close()
	for {
		dst := make([]any, len(d.c.cols))
		if !rows.Next(dst) {
			break
		}
		for i, v := range dst {
			if b, ok := v.([]byte); ok {
				dst[i] = append([]byte(nil), b...)
			}
		}
		d.c.rows = append(d.c.rows, dst)
	}
	if err := rows.Err(); err != nil {
		return nil, s.failed(err)
	}
	d.c.inTx = s.txStatus() != 'I'
	if s.cursors == nil {
		s.cursors = map[string]*cursor{}
	}
	s.cursors[d.name] = d.c
	return &tagRows{tag: "DECLARE CURSOR"}, nil
}

// endTransactionCursors drops the cursors of a block that ended: all but
// WITH HOLD ones at COMMIT; at ROLLBACK also the WITH HOLD ones it declared.
func (s *Session) endTransactionCursors(committed bool) {
	for name, c := range s.cursors {
		if !c.hold || !committed && c.inTx {
			delete(s.cursors, name)
			continue
		}
		c.inTx = false
	}
}

// Directions of FETCH and MOVE.
const (
	dirForward  = iota // count rows forward (negative: backward)
	dirAbsolute        // to row count (negative: from the end)
	dirRelative        // count rows from here, one row returned
)

const allRows = int(^uint(0) >> 2)

// fetchDirection reads FETCH's direction: NEXT, PRIOR, FIRST, LAST,
// ABSOLUTE n, RELATIVE n, n, ALL, FORWARD [n | ALL], BACKWARD [n | ALL].
func fetchDirection(s string) (dir, count int, err error) {
	f := strings.Fields(strings.ToUpper(s))
	num := func(i int) (int, bool) {
		if i >= len(f) {
			return 0, false
		}
		n, err := strconv.Atoi(strings.TrimPrefix(f[i], "+"))
		return n, err == nil
	}
	bad := vsqlerr.New(vsqlerr.SyntaxError, "syntax error in FETCH direction %q", strings.TrimSpace(s))
	switch {
	case len(f) == 0:
		return dirForward, 1, nil
	case len(f) == 1 && f[0] == "NEXT":
		return dirForward, 1, nil
	case len(f) == 1 && f[0] == "PRIOR":
		return dirForward, -1, nil
	case len(f) == 1 && f[0] == "FIRST":
		return dirAbsolute, 1, nil
	case len(f) == 1 && f[0] == "LAST":
		return dirAbsolute, -1, nil
	case len(f) == 1 && f[0] == "ALL":
		return dirForward, allRows, nil
	case len(f) == 2 && f[0] == "ABSOLUTE":
		if n, ok := num(1); ok {
			return dirAbsolute, n, nil
		}
	case len(f) == 2 && f[0] == "RELATIVE":
		if n, ok := num(1); ok {
			return dirRelative, n, nil
		}
	case len(f) <= 2 && (f[0] == "FORWARD" || f[0] == "BACKWARD"):
		sign := 1
		if f[0] == "BACKWARD" {
			sign = -1
		}
		if len(f) == 1 {
			return dirForward, sign, nil
		}
		if f[1] == "ALL" {
			return dirForward, sign * allRows, nil
		}
		if n, ok := num(1); ok {
			if n == 0 {
				return dirRelative, 0, nil
			}
			return dirForward, sign * n, nil
		}
	case len(f) == 1:
		if n, ok := num(0); ok {
			if n == 0 {
				return dirRelative, 0, nil
			}
			return dirForward, n, nil
		}
	}
	return 0, 0, bad
}

type fetchStatement struct {
	c          *cursor
	dir, count int
	move       bool
}

func (f *fetchStatement) ParamOIDs() []uint32 { return nil }
func (f *fetchStatement) Close()              {}
func (f *fetchStatement) Columns() []pgwire.Column {
	if f.move {
		return nil
	}
	return f.c.cols
}

func (f *fetchStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	c := f.c
	n := len(c.rows)
	var out [][]any
	at := func() {
		if c.pos >= 1 && c.pos <= n {
			out = append(out, c.rows[c.pos-1])
		}
	}
	if c.noScroll && f.backward() {
		e := vsqlerr.New(vsqlerr.InvalidArgument, "cursor can only scan forward").WithHint("Declare it with SCROLL option to enable backward scan.")
		e.SQLState = "55000"
		return nil, e
	}
	switch f.dir {
	case dirForward:
		step, k := 1, f.count
		if k < 0 {
			step, k = -1, -k
		}
		for ; k > 0; k-- {
			if step > 0 && c.pos > n || step < 0 && c.pos < 1 {
				break
			}
			c.pos += step
			at()
			if step > 0 && c.pos > n || step < 0 && c.pos < 1 {
				break
			}
		}
	case dirAbsolute:
		switch {
		case f.count > 0:
			c.pos = min(f.count, n+1)
		case f.count < 0:
			c.pos = max(n+1+f.count, 0)
		default:
			c.pos = 0
		}
		at()
	case dirRelative:
		c.pos = min(max(c.pos+f.count, 0), n+1)
		at()
	}
	tag := "FETCH "
	if f.move {
		tag = "MOVE "
		return &tagRows{tag: tag + strconv.Itoa(len(out))}, nil
	}
	return &sliceRows{rows: out, tag: tag}, nil
}

// backward reports whether the move reads backward (or rewinds), which a
// NO SCROLL cursor refuses, as PostgreSQL decides it: ABSOLUTE n rewinds
// when row n is less than halfway from the start, RELATIVE 0 steps back
// to re-read the current row.
func (f *fetchStatement) backward() bool {
	pos := f.c.pos
	switch f.dir {
	case dirForward:
		return f.count < 0
	case dirRelative:
		return f.count < 0 || f.count == 0 && pos > 0
	default:
		switch {
		case f.count < 0:
			return true
		case f.count == 0:
			return pos != 0
		case f.count-1 <= pos/2:
			return pos != 0 // a rewind, needless at the start
		default:
			return f.count <= pos
		}
	}
}

// sliceRows are rows held in memory.
type sliceRows struct {
	rows [][]any
	i    int
	tag  string
}

func (r *sliceRows) Next(dst []any) bool {
	if r.i >= len(r.rows) {
		return false
	}
	copy(dst, r.rows[r.i])
	r.i++
	return true
}
func (r *sliceRows) Err() error            { return nil }
func (r *sliceRows) Tag(rows int64) string { return r.tag + strconv.FormatInt(rows, 10) }
func (r *sliceRows) Close()                {}
