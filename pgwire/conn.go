package pgwire

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Options bound what one client may make the server do.
type Options struct {
	// MaxMessageSize is the largest message body accepted, in bytes.
	MaxMessageSize int
	Logger         *slog.Logger
	// TLS, if set, is offered to clients that send SSLRequest.
	TLS *tls.Config
	// Auth, if set, decides who must authenticate (see auth.go); nil
	// trusts every client.
	Auth Authenticator
	// AuthenticationTimeout bounds the whole startup: SSL negotiation, the
	// TLS handshake, the startup packet and the SASL exchange (0 =
	// DefaultAuthenticationTimeout). A client that has not finished by
	// then gets a FATAL authentication_timeout, if it can still be
	// written, and is disconnected.
	AuthenticationTimeout time.Duration
	// Observer, if set, is told of each statement and of the bytes sent
	// (the server's metrics).
	Observer Observer
	// Admit, if set, is asked for a connection slot once a StartupMessage
	// has been read, before authentication (a CancelRequest needs none, so
	// it is honoured when every slot is taken). An error refuses the
	// client with a FATAL; release is called when the connection ends.
	Admit func() (release func(), err error)
	// ReadSpin is how long a connection's goroutine reads its TCP socket
	// without sleeping before it blocks for the client's next message,
	// while no other connection is busy or read a message in the last
	// millisecond (spin.go); 0 never spins.
	ReadSpin time.Duration
}

// Observer is told what connections do, for metrics. Its methods are
// called from every connection's goroutine.
type Observer interface {
	// Statement: one statement ran; command is its first keyword (SELECT,
	// INSERT, …), sqlstate "" when it succeeded.
	Statement(command, sqlstate string, d time.Duration)
	// Sent: n bytes were written to a client.
	Sent(n int)
}

// countingWriter reports what it writes to an Observer.
type countingWriter struct {
	w   io.Writer
	obs Observer
}

func (c countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.obs.Sent(n)
	return n, err
}

func countWrites(w io.Writer, obs Observer) io.Writer {
	if obs == nil {
		return w
	}
	return countingWriter{w, obs}
}

// observe reports a statement to the Observer, if any.
func (c *Conn) observe(st sqltext.Statement, start time.Time, err error) {
	if c.opts.Observer == nil {
		return
	}
	state := ""
	if err != nil {
		state = vsqlerr.From(err).SQLState
	}
	c.opts.Observer.Statement(st.Keyword(0), state, time.Since(start))
}

// DefaultAuthenticationTimeout is PostgreSQL's default authentication_timeout.
const DefaultAuthenticationTimeout = time.Minute

// flushThreshold is how many bytes of DataRows are buffered before they are
// written out in the middle of a result.
const flushThreshold = 256 << 10

// Conn is one client connection.
type Conn struct {
	netConn net.Conn
	be      *pgproto3.Backend
	handler Handler
	opts    Options
	spin    *spinReader // the connection's reader when it spins (nil: it does not)
	pinned  bool        // the goroutine is locked to its OS thread (pinThread)
	log     *slog.Logger
	tls     bool // the connection was upgraded to TLS

	sess     Session
	activity ActivityObserver // sess, if it observes its activity
	release  func()           // from Options.Admit
	stmts    map[string]*prepared
	portals  map[string]*portal
	// ignoreTillSync is set after an error in the extended protocol: every
	// message up to the next Sync is discarded.
	ignoreTillSync bool

	// writeMu is held while a message is processed; Shutdown takes it to
	// wait for the running statement before it ends the connection.
	writeMu sync.Mutex
	closed  bool
	pending int
	// busy is set from a client's message until the ReadyForQuery that
	// answers it: an extended-protocol exchange (Parse … Execute … Sync)
	// spans several messages, and a shutdown between two of them would
	// cut off a statement already running or answered. shutdownPending
	// is a Shutdown that waits for that ReadyForQuery.
	busy            bool
	shutdownPending bool

	// sendMu guards the backend's output buffer: the message loop writes
	// it, and so does Notify, from the goroutine of a running statement.
	sendMu sync.Mutex
	// rowBuf is sendChunks' DataRow buffer, kept between results.
	rowBuf []byte
}

type prepared struct {
	st   sqltext.Statement
	stmt Statement // nil for an empty statement
}

type portal struct {
	ps      *prepared
	args    []any
	formats []int16
	rows    Rows
	cursor  *chunkCursor // rows read a chunk at a time (nil: row by row)
	done    bool
}

// NewConn wraps an accepted connection.
func NewConn(netConn net.Conn, handler Handler, opts Options) *Conn {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.AuthenticationTimeout <= 0 {
		opts.AuthenticationTimeout = DefaultAuthenticationTimeout
	}
	reader := newSpinReader(netConn, opts.ReadSpin)
	spin, _ := reader.(*spinReader)
	return &Conn{
		netConn: netConn,
		spin:    spin,
		be:      pgproto3.NewBackend(reader, countWrites(netConn, opts.Observer)),
		handler: handler,
		opts:    opts,
		log:     opts.Logger.With("remote", netConn.RemoteAddr().String()),
		stmts:   map[string]*prepared{},
		portals: map[string]*portal{},
	}
}

// Serve runs the connection until the client leaves or ctx ends. It never
// panics on client input: every malformed message ends in an ErrorResponse
// and, where the stream cannot be trusted any more, a closed connection.
func (c *Conn) Serve(ctx context.Context) {
	defer c.netConn.Close()
	defer func() {
		if c.release != nil {
			c.release()
		}
	}()
	if c.opts.MaxMessageSize > 0 {
		c.be.SetMaxBodyLen(c.opts.MaxMessageSize)
	}
	// One deadline for everything before the session exists; cleared once
	// the client is authenticated.
	_ = c.netConn.SetDeadline(time.Now().Add(c.opts.AuthenticationTimeout))
	if !c.startup(ctx) {
		return
	}
	defer func() {
		c.writeMu.Lock()
		c.closeAll()
		c.sess.Close()
		c.closed = true
		c.writeMu.Unlock()
	}()
	defer c.unpinThread()
	for {
		c.pinThread()
		msg, err := c.be.Receive()
		if err != nil {
			c.receiveFailed(err)
			return
		}
		if _, ok := msg.(*pgproto3.Terminate); ok {
			return
		}
		c.writeMu.Lock()
		if c.closed {
			c.writeMu.Unlock()
			return
		}
		c.busy = true
		if c.opts.ReadSpin > 0 {
			busyConns.Add(1) // (read spins wait for a quiet server)
		}
		c.handleGuarded(ctx, msg)
		if c.opts.ReadSpin > 0 {
			busyConns.Add(-1)
		}
		closed := c.closed
		c.writeMu.Unlock()
		if closed {
			return
		}
	}
}

// handleGuarded runs handle, turning a panic (a bug in vsql) into a FATAL
// internal_error for this client and a logged stack, as net/http does for
// a handler: the deferred unlocks between here and the panic have run, the
// other sessions go on, and this connection ends because its state can no
// longer be trusted. Without it the panic would hang the connection on
// writeMu in Serve's deferred close.
func (c *Conn) handleGuarded(ctx context.Context, msg pgproto3.FrontendMessage) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("panic while serving a message; closing the connection", "panic", r, "stack", string(debug.Stack()))
			c.fatal(vsqlerr.New(vsqlerr.Internal, "internal error: %v", r))
		}
	}()
	c.handle(ctx, msg)
}

func (c *Conn) receiveFailed(err error) {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) {
		return
	}
	var tooBig *pgproto3.ExceededMaxBodyLenErr
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.closed {
		return
	}
	if errors.As(err, &tooBig) {
		c.fatal(vsqlerr.New(vsqlerr.MessageTooLarge, "message of %d bytes exceeds the limit of %d bytes", tooBig.ActualBodyLen, tooBig.MaxExpectedBodyLen))
		return
	}
	c.log.Debug("protocol violation", "err", err)
	c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "invalid message: %v", err))
}

// fatal sends a FATAL error and marks the connection closed.
func (c *Conn) fatal(e *vsqlerr.Error) {
	e.Severity = "FATAL"
	c.sendError(e)
	_ = c.flushOut()
	c.closed = true
}

// Shutdown ends the connection with a FATAL admin_shutdown error once the
// statement it is running, if any, has finished and been answered up to
// its ReadyForQuery (when the client is between messages of one exchange,
// the connection ends at that ReadyForQuery).
func (c *Conn) Shutdown() {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.closed {
		return
	}
	if c.busy {
		c.shutdownPending = true
		return
	}
	c.endForShutdown()
}

// ForceShutdown ends the connection now, whatever exchange it is in (the
// server's shutdown timeout has passed and running statements were
// canceled).
func (c *Conn) ForceShutdown() {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if !c.closed {
		c.endForShutdown()
	}
}

func (c *Conn) endForShutdown() {
	c.fatal(vsqlerr.New(vsqlerr.ServerShutdown, "terminating connection due to administrator command"))
	_ = c.netConn.Close()
}

func (c *Conn) startup(ctx context.Context) bool {
	for {
		msg, err := c.be.ReceiveStartupMessage()
		if err != nil {
			switch {
			case isTimeout(err):
				c.authTimedOut()
			case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, net.ErrClosed):
				c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "invalid startup packet: %v", err))
			}
			return false
		}
		switch m := msg.(type) {
		case *pgproto3.SSLRequest:
			if !c.answerSSLRequest(ctx) {
				return false
			}
		case *pgproto3.GSSEncRequest:
			// GSSAPI encryption is not offered: answer 'N' and the client
			// continues without it (or gives up, if it requires it).
			if _, err := c.netConn.Write([]byte{'N'}); err != nil {
				return false
			}
		case *pgproto3.CancelRequest:
			c.handler.Cancel(m.ProcessID, m.SecretKey)
			return false
		case *pgproto3.StartupMessage:
			if c.opts.Admit != nil {
				release, err := c.opts.Admit()
				if err != nil {
					c.fatal(vsqlerr.From(err))
					return false
				}
				c.release = release
			}
			if !c.authenticate(m) {
				return false
			}
			_ = c.netConn.SetDeadline(time.Time{})
			sess, err := c.handler.Startup(ctx, m.Parameters, c.netConn.RemoteAddr())
			if err != nil {
				c.fatal(vsqlerr.From(err))
				return false
			}
			c.sess = sess
			if ns, ok := sess.(NoticeSink); ok {
				ns.SetNotifier(c.Notify)
			}
			if t, ok := sess.(Terminable); ok {
				t.SetTerminate(c.Shutdown)
			}
			c.activity, _ = sess.(ActivityObserver)
			c.out(&pgproto3.AuthenticationOk{})
			for _, kv := range sess.ParameterStatus() {
				c.out(&pgproto3.ParameterStatus{Name: kv[0], Value: kv[1]})
			}
			pid, secret := sess.BackendKey()
			c.out(&pgproto3.BackendKeyData{ProcessID: pid, SecretKey: secret})
			c.out(&pgproto3.ReadyForQuery{TxStatus: sess.TxStatus()})
			if err := c.flushOut(); err != nil {
				sess.Close()
				return false
			}
			return true
		}
	}
}

// send buffers a message and writes the buffer out once it is large.
func (c *Conn) send(msg pgproto3.BackendMessage, size int) {
	c.out(msg)
	c.pending += size
	if c.pending >= flushThreshold {
		c.flush()
	}
}

func (c *Conn) flush() {
	c.pending = 0
	if err := c.flushOut(); err != nil {
		c.closed = true
		_ = c.netConn.Close()
	}
}

func (c *Conn) sendError(e *vsqlerr.Error) {
	sev := e.Severity
	if sev == "" {
		sev = "ERROR"
	}
	c.out(&pgproto3.ErrorResponse{
		Severity:            sev,
		SeverityUnlocalized: sev,
		Code:                e.SQLState,
		Message:             e.Error(),
		Detail:              e.Detail,
		Hint:                e.Hint,
		Where:               e.Where,
		Position:            int32(e.Position),
	})
}

func (c *Conn) sendNotices() {
	if r, ok := c.sess.(ParameterReporter); ok {
		for _, kv := range r.TakeParameterStatus() {
			c.out(&pgproto3.ParameterStatus{Name: kv[0], Value: kv[1]})
		}
	}
	for _, n := range c.sess.TakeNotices() {
		sev := n.Severity
		if sev == "" {
			sev = "NOTICE"
		}
		c.out(&pgproto3.NoticeResponse{
			Severity: sev, SeverityUnlocalized: sev, Code: n.SQLState,
			Message: n.Error(), Detail: n.Detail, Hint: n.Hint,
		})
	}
}

func (c *Conn) readyForQuery() {
	c.out(&pgproto3.ReadyForQuery{TxStatus: c.sess.TxStatus()})
	if c.activity != nil {
		c.activity.Idle()
	}
	c.flush()
	c.busy = false
	if c.shutdownPending && !c.closed {
		c.endForShutdown()
	}
}

// active tells the session's observer, if any, that a query starts.
func (c *Conn) active(query string) {
	if c.activity != nil {
		c.activity.Active(query)
	}
}

func (c *Conn) handle(ctx context.Context, msg pgproto3.FrontendMessage) {
	if c.ignoreTillSync {
		switch msg.(type) {
		case *pgproto3.Sync:
		case *pgproto3.Flush:
			// Skipping until Sync still honours Flush: asyncpg's prepare()
			// sends Parse, Describe, Flush and waits for the answer.
			c.flush()
			return
		default:
			return
		}
	}
	switch m := msg.(type) {
	case *pgproto3.Query:
		c.simpleQuery(ctx, m.String)
		c.readyForQuery()
	case *pgproto3.Parse:
		c.extended(c.parse(ctx, m))
	case *pgproto3.Bind:
		c.extended(c.bind(m))
	case *pgproto3.Describe:
		c.extended(c.describe(m))
	case *pgproto3.Execute:
		start := time.Now()
		err := c.execute(ctx, m)
		if p := c.portals[m.Portal]; p != nil && p.ps.stmt != nil {
			c.observe(p.ps.st, start, err)
		}
		c.extended(err)
	case *pgproto3.Close:
		c.extended(c.closeObject(m))
	case *pgproto3.Sync:
		c.ignoreTillSync = false
		if c.sess.TxStatus() == 'I' {
			// Outside a transaction block, Sync ends the implicit
			// transaction, and with it every portal (as in PostgreSQL): no
			// stream or gate outlives it.
			for name := range c.portals {
				c.dropPortal(name)
			}
		}
		c.readyForQuery()
	case *pgproto3.Flush:
		c.flush()
	case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
		// Outside COPY these are ignored, as PostgreSQL does.
	case *pgproto3.FunctionCall:
		c.sendError(vsqlerr.New(vsqlerr.FeatureNotSupported, "the fastpath function call protocol is not supported"))
		c.readyForQuery()
	default:
		c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "unexpected message %T", msg))
	}
}

// extended finishes an extended-protocol message: on error it sends the
// ErrorResponse at once (PostgreSQL flushes every ErrorResponse, so a
// client waiting without a Sync sees it) and discards messages until Sync.
func (c *Conn) extended(err error) {
	if err == nil {
		return
	}
	c.sendError(vsqlerr.From(err))
	c.flush()
	c.ignoreTillSync = true
}

// isTimeout reports a deadline that passed.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// authTimedOut ends a connection whose startup outlived
// Options.AuthenticationTimeout: a FATAL if it can still be written within
// a second, then the close.
func (c *Conn) authTimedOut() {
	c.log.Info("client did not finish startup in time; disconnected", "timeout", c.opts.AuthenticationTimeout)
	_ = c.netConn.SetWriteDeadline(time.Now().Add(time.Second))
	c.fatal(vsqlerr.New(vsqlerr.AuthenticationTimeout, "canceling authentication due to timeout (%s)", c.opts.AuthenticationTimeout))
}

// out buffers one message.
func (c *Conn) out(msg pgproto3.BackendMessage) {
	c.sendMu.Lock()
	c.be.Send(msg)
	c.sendMu.Unlock()
}

// flushOut writes the buffered messages.
func (c *Conn) flushOut() error {
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	return c.be.Flush()
}

// Notify sends a notice to the client now, even while a statement runs
// (long merges report progress this way).
func (c *Conn) Notify(n *vsqlerr.Error) {
	sev := n.Severity
	if sev == "" {
		sev = "NOTICE"
	}
	c.sendMu.Lock()
	defer c.sendMu.Unlock()
	c.be.Send(&pgproto3.NoticeResponse{Severity: sev, SeverityUnlocalized: sev, Code: n.SQLState, Message: n.Error(), Detail: n.Detail, Hint: n.Hint})
	_ = c.be.Flush()
}
