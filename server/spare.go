package server

import (
	"context"
	"slices"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
)

// A new session needs a DuckDB connection with its token set (seqvalues.go)
// and its branch made current (USE). Those cost about half of a
// connection's start (measured: DuckDB's connect 40 µs, the variable
// 150–220 µs, USE 80–120 µs, and the first statement of a connection runs
// about 120 µs slower than the next), so the server makes them ahead:
// spareTarget spare connections, token set and USE run for the branch of
// the session whose end made them, wait for the next sessions, which run
// USE only when they are on another branch. A session's end makes the
// spares up to spareTarget again, and so does a session that found none;
// a storm of connections finds none and connects as before.
//
// Two, not one: a client that closes a connection and opens the next at
// once (a script, a pool recycling connections, the bench) arrives while
// the spare its last session's end started is still being made; with one
// spare it waited for it (a third of 400 connections back to back waited
// over 1 ms at Startup, measured), with two it takes the other.
//
// A spare counts as no session on its branch: it holds nothing a detach,
// a branch deletion or a merge waits for. DuckDB resolves USE's catalog by
// name at every statement: if the branch is detached, the spare's
// statements fail (they never fall back to another catalog), and a
// session that takes the spare has attached its branch again under the
// same name first (Startup acquires before newSession).

// spareTarget is how many spare connections the server keeps.
const spareTarget = 2

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

// spares holds the server's spare connections and the goroutine making
// the next ones.
type spares struct {
	mu      sync.Mutex
	ready   []*spareConn
	alias   string    // the branch the next spare is made current on
	making  bool      // a goroutine is making spares
	madeGen uint64    // spares made so far (takeSpare waits for one)
	made    sync.Cond // on mu: a spare was made, or making ended
	closed  bool
	wg      sync.WaitGroup
}

// takeSpare returns a spare connection, one current on alias if there is
// one, else the oldest. With none ready it waits for the one being made,
// only that one (a storm of connections does not queue behind a single
// maker), or returns nil when none is: then it starts making spares (for
// alias), and the session connects on its own. A session's end makes the
// next spares (refillSpare), not its start, so that making them does not
// compete with the new session's first statements for the CPUs.
func (s *Server) takeSpare(alias string) *spareConn {
	p := &s.spares
	p.mu.Lock()
	for gen := p.madeGen; p.making && len(p.ready) == 0 && p.madeGen == gen; {
		p.made.Wait()
	}
	var sc *spareConn
	if len(p.ready) > 0 {
		i := 0
		for j, r := range p.ready {
			if r.alias == alias {
				i = j
				break
			}
		}
		sc = p.ready[i]
		p.ready = slices.Delete(p.ready, i, i+1)
	}
	p.mu.Unlock()
	if sc == nil {
		s.refillSpare(alias)
	}
	return sc
}

// refillSpare makes spare connections, with alias made current (none for
// ""), until spareTarget are ready, unless they are being made (the maker
// then uses alias for the next) or the server is closing.
func (s *Server) refillSpare(alias string) {
	p := &s.spares
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.alias = alias
	if p.making || len(p.ready) >= spareTarget {
		return
	}
	p.making = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.mu.Lock()
		defer p.mu.Unlock()
		for !p.closed && len(p.ready) < spareTarget {
			alias := p.alias
			p.mu.Unlock()
			sc, err := s.makeSessionConn(context.Background(), alias)
			p.mu.Lock()
			if err != nil {
				s.log.Debug("spare connection not made", "err", err)
				break
			}
			if p.closed {
				sc.conn.Close()
				break
			}
			p.ready = append(p.ready, sc)
			p.madeGen++
			p.made.Broadcast()
		}
		p.making = false
		p.made.Broadcast()
	}()
}

// closeSpares drops the spare connections and waits for the one being
// made; no other is made after.
func (s *Server) closeSpares() {
	p := &s.spares
	p.mu.Lock()
	p.closed = true
	ready := p.ready
	p.ready = nil
	p.mu.Unlock()
	p.wg.Wait()
	for _, sc := range ready {
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
