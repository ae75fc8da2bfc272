package pgwire

import (
	"context"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// simpleQuery runs every statement of a Query message in order; the first
// error ends the string.
func (c *Conn) simpleQuery(ctx context.Context, sql string) {
	// A Query message destroys the unnamed statement and portal.
	c.dropStatement("")
	c.dropPortal("")
	stmts := sqltext.Split(sql)
	if len(stmts) == 0 {
		c.out(&pgproto3.EmptyQueryResponse{})
		return
	}
	c.active(sql)
	for _, st := range stmts {
		start := time.Now()
		err := c.runSimple(ctx, st)
		c.observe(st, start, err)
		if err != nil {
			c.sendNotices()
			e := vsqlerr.From(err)
			e.ResolvePosition(st.SQL)
			if e.Position > 0 {
				// positions count characters of the whole query string
				e.Position += utf8.RuneCountInString(sql[:st.Offset])
			}
			c.sendError(e)
			return
		}
		if c.closed {
			return
		}
	}
}

func (c *Conn) runSimple(ctx context.Context, st sqltext.Statement) error {
	if tag, ok, err := c.deallocate(st); ok || err != nil {
		if err != nil {
			return err
		}
		c.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)}, 32)
		return nil
	}
	c.detachStreams(nil) // Prepare runs on the session's connection
	stmt, err := c.sess.Prepare(ctx, st, nil)
	if err != nil {
		return err
	}
	defer stmt.Close()
	if cs, ok := stmt.(CopyStatement); ok {
		tag, err := c.runCopy(ctx, cs)
		if err != nil {
			return err
		}
		c.sendNotices()
		c.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)}, 32)
		return nil
	}
	cols := stmt.Columns()
	rows, err := executeStreaming(ctx, stmt, nil)
	if err != nil {
		return err
	}
	defer rows.Close()
	c.executed(st, nil, nil)
	var formats []int16
	if b, ok := stmt.(BinaryResults); ok && b.BinaryResults() && cols != nil {
		formats = make([]int16, len(cols))
		for i := range formats {
			formats[i] = 1
		}
	}
	if cols != nil {
		c.sendRowDescription(cols, formats)
	}
	var cursor *chunkCursor
	n, _, err := c.sendRows(rows, &cursor, cols, formats, 0)
	if err != nil {
		return err
	}
	c.sendNotices()
	c.send(&pgproto3.CommandComplete{CommandTag: []byte(rows.Tag(n))}, 32)
	return nil
}

func (c *Conn) sendRowDescription(cols []Column, formats []int16) {
	fields := make([]pgproto3.FieldDescription, len(cols))
	for i, col := range cols {
		fields[i] = pgproto3.FieldDescription{
			Name:         []byte(col.Name),
			DataTypeOID:  col.OID,
			DataTypeSize: col.Size,
			TypeModifier: col.TypeMod,
		}
		if formats != nil {
			fields[i].Format = formats[i]
		}
	}
	c.send(&pgproto3.RowDescription{Fields: fields}, 64*len(cols))
}

// executed tells a session that keeps an ExecutionLog about a statement
// that ran.
func (c *Conn) executed(st sqltext.Statement, paramOIDs []uint32, args []any) {
	if l, ok := c.sess.(ExecutionLog); ok {
		l.Executed(st, paramOIDs, args)
	}
}

// executeStreaming runs stmt through StreamingStatement where it has it.
func executeStreaming(ctx context.Context, stmt Statement, args []any) (Rows, error) {
	if ss, ok := stmt.(StreamingStatement); ok {
		return ss.ExecuteStreaming(ctx, args)
	}
	return stmt.Execute(ctx, args)
}

// detachStreams makes every portal but keep that reads a DuckDB stream
// take the rest of its result now (duckstream.Result.Detach), before the
// session's connection runs anything else: DuckDB would invalidate an
// open stream. Only a client that interleaves portals pays the memory.
func (c *Conn) detachStreams(keep *portal) {
	for _, p := range c.portals {
		if p != keep && p.cursor != nil {
			p.cursor.res.Detach()
		}
	}
}

// sendRows streams up to limit rows (0 = all) as DataRows. suspended is true
// when the limit was reached. A result read a chunk at a time gets its
// cursor in *cursor, kept by a portal from one Execute to the next.
func (c *Conn) sendRows(rows Rows, cursor **chunkCursor, cols []Column, formats []int16, limit int64) (n int64, suspended bool, err error) {
	if cols == nil {
		for rows.Next(nil) {
		}
		return 0, false, rows.Err()
	}
	if *cursor == nil {
		if cr, ok := rows.(ChunkRows); ok {
			if res, loc := cr.Chunks(); res != nil {
				*cursor = newChunkCursor(cr, res, loc, cols, formats)
			}
		}
	}
	if *cursor != nil {
		return c.sendChunks(*cursor, limit)
	}
	vals := make([]any, len(cols))
	cells := make([][]byte, len(cols))
	starts, ends := make([]int, len(cols)), make([]int, len(cols))
	text := textSettingsOf(rows)
	// Never nil: an empty value is an empty cell, not NULL (a nil slice).
	buf := make([]byte, 0, 256)
	for {
		if limit > 0 && n >= limit {
			return n, true, nil
		}
		if !rows.Next(vals) {
			return n, false, rows.Err()
		}
		buf = buf[:0]
		for i, v := range vals {
			if v == nil {
				starts[i] = -1
				continue
			}
			var format int16
			if formats != nil {
				format = formats[i]
			}
			starts[i] = len(buf)
			buf, err = appendCell(buf, &cols[i], format, v, text)
			if err != nil {
				code := vsqlerr.UnsupportedResultFormat
				if errors.Is(err, errRaggedArray) {
					code = vsqlerr.ArrayDimensions
				}
				return n, false, vsqlerr.Wrap(err, code, "column %q: %v", cols[i].Name, err)
			}
			ends[i] = len(buf)
		}
		for i := range cols {
			if starts[i] < 0 {
				cells[i] = nil
			} else {
				cells[i] = buf[starts[i]:ends[i]]
			}
		}
		c.send(&pgproto3.DataRow{Values: cells}, len(buf)+5+4*len(cols))
		n++
	}
}

func (c *Conn) parse(ctx context.Context, m *pgproto3.Parse) error {
	c.detachStreams(nil) // Prepare runs on the session's connection
	if m.Name != "" {
		if _, ok := c.stmts[m.Name]; ok {
			return vsqlerr.New(vsqlerr.DuplicateStatement, "prepared statement %q already exists", m.Name)
		}
	} else {
		c.dropStatement("")
	}
	stmts := sqltext.Split(m.Query)
	ps := &prepared{}
	switch len(stmts) {
	case 0:
	case 1:
		ps.st = stmts[0]
		if d, ok := c.deallocateLater(stmts[0]); ok {
			ps.stmt = d
			break
		}
		stmt, err := c.sess.Prepare(ctx, stmts[0], m.ParameterOIDs)
		if err != nil {
			e := vsqlerr.From(err)
			e.ResolvePosition(stmts[0].SQL)
			return e
		}
		ps.stmt = stmt
	default:
		return vsqlerr.New(vsqlerr.MultipleStatements, "cannot insert multiple commands into a prepared statement")
	}
	c.stmts[m.Name] = ps
	c.out(&pgproto3.ParseComplete{})
	return nil
}

func (c *Conn) bind(m *pgproto3.Bind) error {
	ps, ok := c.stmts[m.PreparedStatement]
	if !ok {
		return vsqlerr.New(vsqlerr.StatementNotFound, "prepared statement %q does not exist", m.PreparedStatement)
	}
	if m.DestinationPortal != "" {
		if _, ok := c.portals[m.DestinationPortal]; ok {
			return vsqlerr.New(vsqlerr.DuplicatePortal, "portal %q already exists", m.DestinationPortal)
		}
	} else {
		c.dropPortal("")
	}
	var oids []uint32
	var cols []Column
	if ps.stmt != nil {
		oids = ps.stmt.ParamOIDs()
		cols = ps.stmt.Columns()
	}
	if len(m.Parameters) != len(oids) {
		return vsqlerr.New(vsqlerr.ProtocolViolation, "bind message supplies %d parameters, but prepared statement %q requires %d", len(m.Parameters), m.PreparedStatement, len(oids))
	}
	if n := len(m.ParameterFormatCodes); n > 1 && n != len(m.Parameters) {
		return vsqlerr.New(vsqlerr.InvalidParameterFormat, "bind message has %d parameter formats but %d parameters", n, len(m.Parameters))
	}
	args := make([]any, len(m.Parameters))
	for i, raw := range m.Parameters {
		format := formatAt(m.ParameterFormatCodes, i)
		if format != 0 && format != 1 {
			return vsqlerr.New(vsqlerr.InvalidParameterFormat, "unsupported format code: %d", format)
		}
		v, err := DecodeParam(oids[i], format, raw)
		if err != nil {
			e := vsqlerr.From(err)
			e.Message = "parameter $" + itoa(i+1) + ": " + e.Message
			return e
		}
		args[i] = v
	}
	if n := len(m.ResultFormatCodes); n > 1 && n != len(cols) {
		return vsqlerr.New(vsqlerr.InvalidParameterFormat, "bind message has %d result formats but query has %d columns", n, len(cols))
	}
	var formats []int16
	if len(m.ResultFormatCodes) > 0 {
		formats = make([]int16, len(cols))
		for i := range cols {
			f := formatAt(m.ResultFormatCodes, i)
			switch {
			case f == 0:
			case f == 1 && CanEncodeBinary(cols[i]):
			case f == 1:
				return vsqlerr.New(vsqlerr.UnsupportedResultFormat, "no binary output function available for column %q (type %d)", cols[i].Name, cols[i].OID)
			default:
				return vsqlerr.New(vsqlerr.InvalidParameterFormat, "unsupported format code: %d", f)
			}
			formats[i] = f
		}
	}
	c.portals[m.DestinationPortal] = &portal{ps: ps, args: args, formats: formats}
	c.out(&pgproto3.BindComplete{})
	return nil
}

func formatAt(codes []int16, i int) int16 {
	switch len(codes) {
	case 0:
		return 0
	case 1:
		return codes[0]
	}
	return codes[i]
}

func (c *Conn) describe(m *pgproto3.Describe) error {
	switch m.ObjectType {
	case 'S':
		ps, ok := c.stmts[m.Name]
		if !ok {
			return vsqlerr.New(vsqlerr.StatementNotFound, "prepared statement %q does not exist", m.Name)
		}
		var oids []uint32
		var cols []Column
		if ps.stmt != nil {
			oids, cols = ps.stmt.ParamOIDs(), ps.stmt.Columns()
		}
		c.out(&pgproto3.ParameterDescription{ParameterOIDs: oids})
		if cols == nil {
			c.out(&pgproto3.NoData{})
		} else {
			c.sendRowDescription(cols, nil)
		}
	case 'P':
		p, ok := c.portals[m.Name]
		if !ok {
			return vsqlerr.New(vsqlerr.PortalNotFound, "portal %q does not exist", m.Name)
		}
		var cols []Column
		if p.ps.stmt != nil {
			cols = p.ps.stmt.Columns()
		}
		if cols == nil {
			c.out(&pgproto3.NoData{})
		} else {
			c.sendRowDescription(cols, p.formats)
		}
	default:
		return vsqlerr.New(vsqlerr.ProtocolViolation, "invalid DESCRIBE message subtype %d", m.ObjectType)
	}
	return nil
}

func (c *Conn) execute(ctx context.Context, m *pgproto3.Execute) error {
	p, ok := c.portals[m.Portal]
	if !ok {
		return vsqlerr.New(vsqlerr.PortalNotFound, "portal %q does not exist", m.Portal)
	}
	if p.ps.stmt == nil {
		c.out(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	if p.rows == nil {
		c.detachStreams(p) // this Execute runs a statement
	}
	c.active(p.ps.st.SQL)
	cols := p.ps.stmt.Columns()
	if p.done {
		c.send(&pgproto3.CommandComplete{CommandTag: []byte(p.ps.st.Tag(0))}, 32)
		return nil
	}
	if cs, ok := p.ps.stmt.(CopyStatement); ok {
		p.done = true
		tag, err := c.runCopy(ctx, cs)
		c.sendNotices()
		if err != nil {
			return err
		}
		c.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)}, 32)
		return nil
	}
	if p.rows == nil {
		rows, err := executeStreaming(ctx, p.ps.stmt, p.args)
		if err != nil {
			c.sendNotices()
			e := vsqlerr.From(err)
			e.ResolvePosition(p.ps.st.SQL)
			return e
		}
		p.rows = rows
		c.executed(p.ps.st, p.ps.stmt.ParamOIDs(), p.args)
	}
	n, suspended, err := c.sendRows(p.rows, &p.cursor, cols, p.formats, int64(m.MaxRows))
	if err != nil {
		p.rows.Close()
		p.rows, p.cursor, p.done = nil, nil, true
		return err
	}
	c.sendNotices()
	if suspended {
		c.send(&pgproto3.PortalSuspended{}, 5)
		return nil
	}
	tag := p.rows.Tag(n)
	p.rows.Close()
	p.rows, p.cursor, p.done = nil, nil, true
	c.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)}, 32)
	return nil
}

func (c *Conn) closeObject(m *pgproto3.Close) error {
	switch m.ObjectType {
	case 'S':
		c.dropStatement(m.Name)
	case 'P':
		c.dropPortal(m.Name)
	default:
		return vsqlerr.New(vsqlerr.ProtocolViolation, "invalid CLOSE message subtype %d", m.ObjectType)
	}
	c.out(&pgproto3.CloseComplete{})
	return nil
}

// dropStatement closes a prepared statement and every portal made from it.
func (c *Conn) dropStatement(name string) {
	ps, ok := c.stmts[name]
	if !ok {
		return
	}
	for pname, p := range c.portals {
		if p.ps == ps {
			c.dropPortal(pname)
		}
	}
	if ps.stmt != nil {
		ps.stmt.Close()
	}
	delete(c.stmts, name)
}

func (c *Conn) dropPortal(name string) {
	if p, ok := c.portals[name]; ok {
		if p.rows != nil {
			p.rows.Close()
		}
		delete(c.portals, name)
	}
}

func (c *Conn) closeAll() {
	for name := range c.portals {
		c.dropPortal(name)
	}
	for name := range c.stmts {
		c.dropStatement(name)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

// deallocate runs DEALLOCATE [PREPARE] name | ALL for statements prepared
// with the extended protocol (psqlODBC frees its _PLAN… statements this
// way); names it does not know go on to the session (SQL-level PREPARE).
// deallocateStatement is DEALLOCATE [PREPARE] name | ALL of the
// connection's prepared statements sent through the extended protocol
// (psycopg 3 sends DEALLOCATE ALL after ROLLBACK TO SAVEPOINT): it drops
// them when it runs, as the simple query's deallocate does.
type deallocateStatement struct {
	c    *Conn
	name string
	all  bool
}

// deallocateLater is the DEALLOCATE of st, when st deallocates all of the
// connection's statements or one it knows; others (a DuckDB PREPARE's
// name) reach the session.
func (c *Conn) deallocateLater(st sqltext.Statement) (*deallocateStatement, bool) {
	if st.Keyword(0) != "DEALLOCATE" {
		return nil, false
	}
	name, all := sqltext.DeallocateTarget(st.SQL)
	if _, known := c.stmts[name]; !all && (!known || name == "") {
		return nil, false
	}
	return &deallocateStatement{c: c, name: name, all: all}, true
}

func (d *deallocateStatement) ParamOIDs() []uint32 { return nil }
func (d *deallocateStatement) Columns() []Column   { return nil }
func (d *deallocateStatement) Close()              {}

func (d *deallocateStatement) Execute(context.Context, []any) (Rows, error) {
	if !d.all {
		d.c.dropStatement(d.name)
		return doneRows("DEALLOCATE"), nil
	}
	for n := range d.c.stmts {
		if n != "" { // the unnamed statement is this one
			d.c.dropStatement(n)
		}
	}
	d.c.deallocateSessionStatements()
	return doneRows("DEALLOCATE ALL"), nil
}

// SQLStatements is implemented by a session that keeps statements of SQL
// PREPARE (server): DEALLOCATE ALL, which the connection answers, drops
// those too.
type SQLStatements interface {
	DeallocateAll()
}

func (c *Conn) deallocateSessionStatements() {
	if s, ok := c.sess.(SQLStatements); ok {
		s.DeallocateAll()
	}
}

// doneRows is the result of a statement without rows: its tag.
type doneRows string

func (r doneRows) Next([]any) bool  { return false }
func (r doneRows) Err() error       { return nil }
func (r doneRows) Tag(int64) string { return string(r) }
func (r doneRows) Close()           {}

func (c *Conn) deallocate(st sqltext.Statement) (tag string, ok bool, err error) {
	if st.Keyword(0) != "DEALLOCATE" {
		return "", false, nil
	}
	name, all := sqltext.DeallocateTarget(st.SQL)
	if all {
		for n := range c.stmts {
			c.dropStatement(n)
		}
		c.deallocateSessionStatements()
		return "DEALLOCATE ALL", true, nil
	}
	if _, known := c.stmts[name]; !known || name == "" {
		return "", false, nil
	}
	c.dropStatement(name)
	return "DEALLOCATE", true, nil
}
