package server

import (
	"context"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
)

// A new session needs a DuckDB connection with its token set (seqvalues.go)
// and its branch made current (USE). Those cost about half of a
// connection's start (measured: DuckDB's connect 40 µs, the variable
// 150–220 µs, USE 80–120 µs, and the first statement of a connection runs
// about 120 µs slower than the next), so the server makes them ahead: one
// spare connection, token set and USE run for the branch of the session
// whose end made it, waits for the next session, which runs USE only when
// it is on another branch. A session's end makes the next spare, and so
// does a session that found none; a storm of connections finds none and
// connects as before.
//
// A spare counts as no session on its branch: it holds nothing a detach,
// a branch deletion or a merge waits for. DuckDB resolves USE's catalog by
// name at every statement: if the branch is detached, the spare's
// statements fail (they never fall back to another catalog), and a
// session that takes the spare has attached its branch again under the
// same name first (Startup acquires before newSession).

// spareConn is a DuckDB connection made ahead of a session, with the
// session's process id, cancel secret and token, and the catalog its USE
// made current ("" when none did).
type spareConn struct {
	conn   *duckdb.Conn
	pid    uint32
	secret []byte
	token  string
	alias  string
}

// spares holds the server's spare connection and the goroutine making
// the next one.
type spares struct {
	mu     sync.Mutex
	ready  *spareConn
	making bool
	made   sync.Cond // on mu: making became false
	closed bool
	wg     sync.WaitGroup
}

// takeSpare returns the spare connection, waiting for the one being
// made, or nil when none is: then it starts making the next (for alias),
// and the session connects on its own. A session's end makes the next
// spare (refillSpare), not its start, so that making it does not compete
// with the new session's first statements for the CPUs.
func (s *Server) takeSpare(alias string) *spareConn {
	p := &s.spares
	p.mu.Lock()
	for p.making && p.ready == nil {
		p.made.Wait()
	}
	sc := p.ready
	p.ready = nil
	p.mu.Unlock()
	if sc == nil {
		s.refillSpare(alias)
	}
	return sc
}

// refillSpare starts making a spare connection, with alias made current
// (none for ""), unless one is ready or being made, or the server is
// closing.
func (s *Server) refillSpare(alias string) {
	p := &s.spares
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ready != nil || p.making || p.closed {
		return
	}
	p.making = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		sc, err := s.makeSessionConn(context.Background(), alias)
		p.mu.Lock()
		defer p.mu.Unlock()
		p.making = false
		p.made.Broadcast()
		switch {
		case err != nil:
			s.log.Debug("spare connection not made", "err", err)
		case p.closed:
			sc.conn.Close()
		default:
			p.ready = sc
		}
	}()
}

// closeSpares drops the spare connection and waits for the one being
// made; no other is made after.
func (s *Server) closeSpares() {
	p := &s.spares
	p.mu.Lock()
	p.closed = true
	sc := p.ready
	p.ready = nil
	p.mu.Unlock()
	p.wg.Wait()
	if sc != nil {
		sc.conn.Close()
	}
}

// makeSessionConn connects to DuckDB, sets a new session's token and makes
// alias current; a USE that fails (the branch was detached meanwhile)
// leaves the connection without one.
func (s *Server) makeSessionConn(ctx context.Context, alias string) (*spareConn, error) {
	dc, err := s.connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	conn := dc.(*duckdb.Conn)
	pid, secret := s.newKey()
	sc := &spareConn{conn: conn, pid: pid, secret: secret, token: sessionToken(pid)}
	if _, err := conn.ExecContext(ctx, "SET VARIABLE "+sqltext.SessionVariable+" = "+sqltext.QuoteString(sc.token), nil); err != nil {
		conn.Close()
		return nil, err
	}
	if alias != "" {
		if _, err := conn.ExecContext(ctx, "USE "+sqltext.QuoteIdent(alias), nil); err == nil {
			sc.alias = alias
		}
	}
	return sc, nil
}
