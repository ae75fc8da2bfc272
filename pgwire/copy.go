package pgwire

import (
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/vsql/vsql/vsqlerr"
)

// CopySpec describes a COPY … FROM STDIN or COPY … TO STDOUT.
type CopySpec struct {
	// In is true for COPY FROM STDIN.
	In     bool
	Format CopyFormat
	// Table is the table's name as errors show it (COPY t, line 3: …).
	Table string
	// Columns names the columns copied, in order (COPY FROM: the target
	// columns; COPY TO: the result columns).
	Columns []string
}

// CopyStatement is a prepared COPY FROM STDIN or TO STDOUT. Execute is not
// called for it: pgwire runs the copy sub-protocol and calls CopyIn or
// CopyOut. Columns returns nil (Describe answers NoData, as PostgreSQL does).
type CopyStatement interface {
	Statement
	Copy() CopySpec
	// CopyIn loads every row src yields, all or nothing, and returns how
	// many it loaded.
	CopyIn(ctx context.Context, src *CopyReader) (int64, error)
	// CopyOut runs the query whose rows are sent.
	CopyOut(ctx context.Context) (Rows, []Column, error)
}

// runCopy runs a COPY statement and returns its command tag.
func (c *Conn) runCopy(ctx context.Context, cs CopyStatement) (string, error) {
	spec := cs.Copy()
	if spec.In {
		return c.copyIn(ctx, cs, spec)
	}
	return c.copyOut(ctx, cs, spec)
}

func (c *Conn) copyIn(ctx context.Context, cs CopyStatement, spec CopySpec) (string, error) {
	c.out(&pgproto3.CopyInResponse{OverallFormat: 0, ColumnFormatCodes: make([]uint16, len(spec.Columns))})
	c.flush()
	if c.closed {
		return "", io.ErrClosedPipe
	}
	stream := &copyStream{c: c}
	n, err := cs.CopyIn(ctx, NewCopyReader(stream, &spec.Format, spec.Table, spec.Columns))
	if err != nil {
		// Any CopyData, CopyDone or CopyFail the client still sends is
		// dropped by the message loop, as PostgreSQL does.
		return "", err
	}
	return "COPY " + strconv.FormatInt(n, 10), nil
}

// copyStream is the data of a COPY FROM STDIN: the payloads of CopyData
// messages up to CopyDone (io.EOF) or CopyFail (an error).
type copyStream struct {
	c    *Conn
	buf  []byte
	done bool
	err  error
}

func (s *copyStream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		if s.done {
			return 0, io.EOF
		}
		if s.err != nil {
			return 0, s.err
		}
		s.receive()
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}

func (s *copyStream) receive() {
	c := s.c
	msg, err := c.be.Receive()
	if err != nil {
		var tooBig *pgproto3.ExceededMaxBodyLenErr
		if errors.As(err, &tooBig) {
			c.fatal(vsqlerr.New(vsqlerr.MessageTooLarge, "message of %d bytes exceeds the limit of %d bytes", tooBig.ActualBodyLen, tooBig.MaxExpectedBodyLen))
		} else {
			c.closed = true
		}
		s.err = vsqlerr.Wrap(err, vsqlerr.ProtocolViolation, "connection lost during COPY from stdin")
		return
	}
	switch m := msg.(type) {
	case *pgproto3.CopyData:
		s.buf = m.Data // valid until the next Receive, which waits for it to drain
	case *pgproto3.CopyDone:
		s.done = true
	case *pgproto3.CopyFail:
		s.err = vsqlerr.New(vsqlerr.CopyFailed, "COPY from stdin failed: %s", m.Message)
	case *pgproto3.Flush, *pgproto3.Sync:
		// ignored during copy-in, as PostgreSQL does
	case *pgproto3.Terminate:
		c.closed = true
		s.err = vsqlerr.New(vsqlerr.ProtocolViolation, "client terminated the connection during COPY from stdin")
	default:
		s.err = vsqlerr.New(vsqlerr.ProtocolViolation, "unexpected message type %T during COPY from stdin", msg)
	}
}

func (c *Conn) copyOut(ctx context.Context, cs CopyStatement, spec CopySpec) (string, error) {
	rows, cols, err := cs.CopyOut(ctx)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	f := &spec.Format
	c.send(&pgproto3.CopyOutResponse{OverallFormat: 0, ColumnFormatCodes: make([]uint16, len(cols))}, 16+2*len(cols))
	var out []byte
	if f.Header {
		names := make([]string, len(cols))
		for i, col := range cols {
			names[i] = col.Name
		}
		out = f.AppendCopyHeader(out[:0], names)
		c.send(&pgproto3.CopyData{Data: out}, len(out)+5)
	}
	cells := make([][]byte, len(cols))
	// next sets cells to the next row's values in text; false at the end.
	next := textRows(rows, cols, cells)
	var n int64
	for {
		more, err := next()
		if err != nil {
			return "", err
		}
		if !more {
			break
		}
		out = f.AppendCopyRow(out[:0], cells)
		c.send(&pgproto3.CopyData{Data: out}, len(out)+5)
		n++
	}
	if err := rows.Err(); err != nil {
		return "", err
	}
	c.send(&pgproto3.CopyDone{}, 5)
	return "COPY " + strconv.FormatInt(n, 10), nil
}

// textRows returns a function that sets cells to the next row of rows,
// each value in PostgreSQL's text form: straight from the chunk's vectors
// when rows stream from DuckDB (ChunkRows); else
// value by value (AppendValue). It returns false at the end of rows.
func textRows(rows Rows, cols []Column, cells [][]byte) func() (bool, error) {
	if cr, ok := rows.(ChunkRows); ok {
		if res, loc := cr.Chunks(); res != nil {
			k := newChunkCursor(cr, res, loc, cols, nil)
			return func() (bool, error) {
				if !k.next() {
					return false, nil
				}
				k.cells(cells)
				return true, nil
			}
		}
	}
	vals := make([]any, len(cols))
	starts, ends := make([]int, len(cols)), make([]int, len(cols))
	text := textSettingsOf(rows)
	var buf []byte
	return func() (bool, error) {
		if !rows.Next(vals) {
			return false, nil
		}
		buf = buf[:0]
		for i, v := range vals {
			if v == nil {
				starts[i] = -1
				continue
			}
			starts[i] = len(buf)
			var err error
			if buf, err = appendCell(buf, &cols[i], 0, v, text); err != nil {
				return false, vsqlerr.Wrap(err, vsqlerr.UnsupportedResultFormat, "column %q: %v", cols[i].Name, err)
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
		return true, nil
	}
}
