package server

import (
	"errors"
	"log/slog"
	"net"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/vsqlerr"
)

// openSecurity loads the TLS certificate and checks the users file, so that
// a bad configuration stops vsqld at start rather than at the first client.
func (s *Server) openSecurity() error {
	cfg, err := auth.LoadTLS(s.cfg.TLSCert, s.cfg.TLSKey)
	if err != nil {
		return vsqlerr.Wrap(err, vsqlerr.TLSConfigInvalid, "%v", err)
	}
	s.tls = cfg
	s.users = auth.NewStore(s.cfg.UsersFile)
	users, err := s.users.Users()
	if err != nil {
		return vsqlerr.Wrap(err, vsqlerr.UsersFileInvalid, "users file: %v", err)
	}
	policy := "SCRAM-SHA-256 for every client; privileges from roles and grants"
	if len(users) == 0 {
		policy = "no users: loopback clients are trusted as admins (superusers), others refused"
		if s.cfg.TrustAll {
			policy = "no users: every client is trusted as an admin (superuser) (--trust-all)"
		}
	}
	for _, name := range users.Names() {
		if users[name].Legacy {
			s.log.Warn("users file line without a role: the user is an admin, as before roles existed; set a role with vsqld user add NAME --replace --role write|read|admin", "user", name)
		}
	}
	s.log.Info("authentication", "users_file", s.cfg.UsersFile, "users", len(users), "policy", policy, "tls", cfg != nil)
	return nil
}

// Authenticate implements pgwire.Authenticator. With users in the users
// file every client runs SCRAM-SHA-256 (an unknown user against a mock
// verifier, failing as a wrong password does); with none, loopback clients
// (and every client under --trust-all) are trusted and others refused.
func (s *Server) Authenticate(user string, remote net.Addr, tls bool) (pgwire.SASLExchange, error) {
	users, err := s.users.Users()
	if err != nil {
		s.log.Error("users file unreadable: connection refused", "users_file", s.cfg.UsersFile, "err", err, "user", user, "remote", addrString(remote))
		return nil, vsqlerr.Wrap(err, vsqlerr.UsersFileInvalid, "the server cannot read its users file").Fatal()
	}
	if len(users) == 0 {
		if s.cfg.TrustAll || s.cfg.IsLoopback(remote) {
			return nil, nil
		}
		s.log.Warn("connection refused: no users are configured and the client is not on loopback", "user", user, "remote", addrString(remote))
		return nil, vsqlerr.New(vsqlerr.AuthRequired, "no users are configured, so connections are accepted only from loopback addresses (this one comes from %s)", addrString(remote)).Fatal()
	}
	v, known := s.users.Lookup(users, user)
	return &scramExchange{ex: auth.NewExchange(v, !known), known: known, user: user, remote: remote, tls: tls, log: s.log}, nil
}

func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}

// scramExchange adapts auth.Exchange to pgwire and logs the outcome with
// the user name and address, never the password, proof or keys.
type scramExchange struct {
	ex     *auth.Exchange
	known  bool
	user   string
	remote net.Addr
	tls    bool
	log    *slog.Logger
}

func (e *scramExchange) Mechanism() string { return auth.Mechanism }

func (e *scramExchange) Step(in []byte) ([]byte, bool, error) {
	out, done, err := e.ex.Step(in)
	switch {
	case err == nil:
		if done {
			e.log.Debug("authenticated", "user", e.user, "remote", addrString(e.remote), "tls", e.tls)
		}
		return out, done, nil
	case errors.Is(err, auth.ErrAuthFailed):
		reason := "wrong password"
		if !e.known {
			reason = "no such user"
		}
		e.log.Warn("password authentication failed", "user", e.user, "remote", addrString(e.remote), "reason", reason)
		return nil, false, vsqlerr.New(vsqlerr.AuthFailed, "password authentication failed for user %q", e.user).Fatal()
	default:
		var pe *auth.ProtocolError
		if errors.As(err, &pe) {
			e.log.Warn("authentication failed: malformed SCRAM message", "user", e.user, "remote", addrString(e.remote), "err", err)
			return nil, false, vsqlerr.New(vsqlerr.ProtocolViolation, "%v", err).Fatal()
		}
		return nil, false, err
	}
}

// roleOf is the role of a session's login, read when the session starts:
// with no users configured every session that got in (loopback, or any
// under --trust-all) is an admin, as local trust is PostgreSQL's superuser.
func (s *Server) roleOf(user string) (auth.Role, error) {
	users, err := s.users.Users()
	if err != nil {
		return "", vsqlerr.Wrap(err, vsqlerr.UsersFileInvalid, "the server cannot read its users file").Fatal()
	}
	if len(users) == 0 {
		return auth.RoleAdmin, nil
	}
	u, ok := users[user]
	if !ok {
		// Removed between authentication and startup.
		return "", vsqlerr.New(vsqlerr.AuthFailed, "password authentication failed for user %q", user).Fatal()
	}
	return u.Role, nil
}
