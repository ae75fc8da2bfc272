package pgwire

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/vsql/vsql/vsqlerr"
)

// Authenticator decides, for each StartupMessage, whether the client must
// prove who it is.
type Authenticator interface {
	// Authenticate returns nil to let the client in without a password, an
	// exchange to run (SASL), or an error that refuses the connection
	// (sent as FATAL). tls tells whether the connection is encrypted.
	Authenticate(user string, remote net.Addr, tls bool) (SASLExchange, error)
}

// SASLExchange is the server side of one SASL authentication.
type SASLExchange interface {
	// Mechanism is the one mechanism offered in AuthenticationSASL.
	Mechanism() string
	// Step takes the client's next message and returns the server's
	// answer; done means the client is authenticated and the answer goes
	// in AuthenticationSASLFinal. An error ends the connection as FATAL.
	Step(in []byte) (out []byte, done bool, err error)
}

// answerSSLRequest answers an SSLRequest: 'S' and a TLS handshake when TLS
// is configured (the backend is then re-created over the TLS stream, and
// the real StartupMessage, or a CancelRequest, comes through it), else 'N'.
// It returns false if the connection is to be dropped.
func (c *Conn) answerSSLRequest(ctx context.Context) bool {
	if c.tls {
		c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "SSLRequest on a connection that already uses TLS"))
		return false
	}
	if c.opts.TLS == nil {
		_, err := c.netConn.Write([]byte{'N'})
		return err == nil
	}
	if _, err := c.netConn.Write([]byte{'S'}); err != nil {
		return false
	}
	// The handshake runs under the connection's startup deadline (see
	// Conn.Serve); tls.Conn passes deadlines on to the TCP connection.
	tc := tls.Server(c.netConn, c.opts.TLS)
	if err := tc.HandshakeContext(ctx); err != nil {
		c.log.Info("TLS handshake failed", "err", err)
		return false
	}
	c.writeMu.Lock()
	c.sendMu.Lock()
	c.netConn = tc
	c.be = pgproto3.NewBackend(tc, countWrites(tc, c.opts.Observer))
	c.spin = nil // (TLS reads through its own record layer, without a spin)
	if c.opts.MaxMessageSize > 0 {
		c.be.SetMaxBodyLen(c.opts.MaxMessageSize)
	}
	c.tls = true
	c.sendMu.Unlock()
	c.writeMu.Unlock()
	return true
}

// authenticate runs the Authenticator's policy for the StartupMessage's
// user: nothing (trust), a SASL exchange, or a FATAL refusal. The exchange
// ends with AuthenticationSASLFinal; AuthenticationOk follows at startup.
func (c *Conn) authenticate(m *pgproto3.StartupMessage) bool {
	if c.opts.Auth == nil {
		return true
	}
	ex, err := c.opts.Auth.Authenticate(m.Parameters["user"], c.netConn.RemoteAddr(), c.tls)
	if err != nil {
		c.fatal(vsqlerr.From(err))
		return false
	}
	if ex == nil {
		return true
	}
	defer func() { _ = c.be.SetAuthType(pgproto3.AuthTypeOk) }()

	c.out(&pgproto3.AuthenticationSASL{AuthMechanisms: []string{ex.Mechanism()}})
	if c.flushOut() != nil {
		return false
	}
	_ = c.be.SetAuthType(pgproto3.AuthTypeSASL)
	msg, ok := c.receiveAuth()
	if !ok {
		return false
	}
	first, isFirst := msg.(*pgproto3.SASLInitialResponse)
	if !isFirst {
		c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "expected SASLInitialResponse, got %T", msg))
		return false
	}
	if first.AuthMechanism != ex.Mechanism() {
		c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "client selected SASL mechanism %q; the server offers only %s", first.AuthMechanism, ex.Mechanism()))
		return false
	}
	in := first.Data
	for {
		out, done, err := ex.Step(in)
		if err != nil {
			c.fatal(vsqlerr.From(err))
			return false
		}
		if done {
			c.out(&pgproto3.AuthenticationSASLFinal{Data: out})
			return true
		}
		c.out(&pgproto3.AuthenticationSASLContinue{Data: out})
		if c.flushOut() != nil {
			return false
		}
		_ = c.be.SetAuthType(pgproto3.AuthTypeSASLContinue)
		if msg, ok = c.receiveAuth(); !ok {
			return false
		}
		resp, isResp := msg.(*pgproto3.SASLResponse)
		if !isResp {
			c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "expected SASLResponse, got %T", msg))
			return false
		}
		in = resp.Data
	}
}

// receiveAuth reads the next message during authentication. A client that
// hangs up there (psql does, to ask for a password and reconnect) is not an
// error.
func (c *Conn) receiveAuth() (pgproto3.FrontendMessage, bool) {
	msg, err := c.be.Receive()
	if err != nil {
		switch {
		case isTimeout(err):
			c.authTimedOut()
		case !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, net.ErrClosed):
			c.fatal(vsqlerr.New(vsqlerr.ProtocolViolation, "invalid authentication message: %v", err))
		}
		return nil, false
	}
	return msg, true
}
