package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/xdg-go/scram"
	"github.com/xdg-go/stringprep"
)

// Mechanism is the one SASL mechanism vsqld offers.
const Mechanism = "SCRAM-SHA-256"

// DefaultIterations is the PBKDF2 iteration count of new verifiers (the
// count PostgreSQL uses by default).
const DefaultIterations = 4096

const (
	saltLen = 16
	keyLen  = sha256.Size
)

// Verifier is what the server stores for a password: enough to check a
// client's SCRAM proof and to prove itself to the client, not enough to log
// in as the user.
type Verifier struct {
	Salt       []byte
	Iterations int
	StoredKey  []byte // SHA-256(ClientKey)
	ServerKey  []byte // HMAC(SaltedPassword, "Server Key")
}

// NewVerifier derives a verifier for password with a fresh random salt.
func NewVerifier(password string, iterations int) (Verifier, error) {
	if iterations <= 0 {
		iterations = DefaultIterations
	}
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return Verifier{}, err
	}
	return DeriveVerifier(password, salt, iterations)
}

// DeriveVerifier computes the verifier of password with a given salt and
// iteration count (what a client computes to check the server, and tests).
// The key derivation is xdg-go/scram's, after SASLprep of the password; a
// password that SASLprep refuses is used as it is, as PostgreSQL, libpq and
// pgx do.
func DeriveVerifier(password string, salt []byte, iterations int) (Verifier, error) {
	c, err := scram.SHA256.NewClient("", password, "")
	if err != nil {
		if c, err = scram.SHA256.NewClientUnprepped("", password, ""); err != nil {
			return Verifier{}, err
		}
	}
	cred, err := c.GetStoredCredentialsWithError(scram.KeyFactors{Salt: string(salt), Iters: iterations})
	if err != nil {
		return Verifier{}, err
	}
	return Verifier{Salt: salt, Iterations: iterations, StoredKey: cred.StoredKey, ServerKey: cred.ServerKey}, nil
}

// Check reports whether password is the one v was derived from (for
// logins that send the password itself, such as the web console's form).
// It costs one key derivation, as a SCRAM login does.
func (v Verifier) Check(password string) bool {
	w, err := DeriveVerifier(password, v.Salt, v.Iterations)
	return err == nil && subtle.ConstantTimeCompare(w.StoredKey, v.StoredKey) == 1 &&
		subtle.ConstantTimeCompare(w.ServerKey, v.ServerKey) == 1
}

// Normalize prepares a password the way SCRAM clients (libpq, pgx) do:
// SASLprep (RFC 4013, xdg-go/stringprep), or the raw string when SASLprep
// refuses the password (PostgreSQL accepts those too). DeriveVerifier
// applies the same rule.
func Normalize(password string) string {
	if p, err := stringprep.SASLprep.Prepare(password); err == nil {
		return p
	}
	return password
}

func mac(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}

var b64 = base64.StdEncoding

// String is the verifier as stored in the users file (PostgreSQL's format):
// SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>, base64.
func (v Verifier) String() string {
	return fmt.Sprintf("%s$%d:%s$%s:%s", Mechanism, v.Iterations, b64.EncodeToString(v.Salt), b64.EncodeToString(v.StoredKey), b64.EncodeToString(v.ServerKey))
}

// ParseVerifier reads the format String writes.
func ParseVerifier(s string) (Verifier, error) {
	bad := func(why string) (Verifier, error) {
		return Verifier{}, fmt.Errorf("invalid SCRAM-SHA-256 verifier: %s", why)
	}
	rest, ok := strings.CutPrefix(s, Mechanism+"$")
	if !ok {
		return bad("it must start with " + Mechanism + "$")
	}
	params, keys, ok := strings.Cut(rest, "$")
	if !ok {
		return bad("missing '$' before the keys")
	}
	iter, salt, ok1 := strings.Cut(params, ":")
	stored, server, ok2 := strings.Cut(keys, ":")
	if !ok1 || !ok2 {
		return bad("missing ':'")
	}
	var v Verifier
	var err error
	if v.Iterations, err = strconv.Atoi(iter); err != nil || v.Iterations <= 0 {
		return bad("iteration count " + strconv.Quote(iter))
	}
	if v.Salt, err = b64.DecodeString(salt); err != nil || len(v.Salt) == 0 {
		return bad("salt is not base64")
	}
	if v.StoredKey, err = b64.DecodeString(stored); err != nil || len(v.StoredKey) != keyLen {
		return bad("StoredKey is not 32 bytes of base64")
	}
	if v.ServerKey, err = b64.DecodeString(server); err != nil || len(v.ServerKey) != keyLen {
		return bad("ServerKey is not 32 bytes of base64")
	}
	return v, nil
}

// ErrAuthFailed is returned by Exchange.Step when the client's proof does
// not match: a wrong password or an unknown user, indistinguishably.
var ErrAuthFailed = errors.New("SCRAM proof does not match")

// ProtocolError is a malformed or unsupported SCRAM message.
type ProtocolError struct{ Msg string }

func (e *ProtocolError) Error() string { return e.Msg }

func protoErr(format string, args ...any) error {
	return &ProtocolError{Msg: fmt.Sprintf(format, args...)}
}

// Exchange is the server side of one SCRAM-SHA-256 authentication, run by
// xdg-go/scram's ServerConversation. Feed the client's messages to Step in
// order.
type Exchange struct {
	v    Verifier
	mock bool // the user is unknown: fail at the proof, like a wrong password
	step int
	conv *scram.ServerConversation // nil until the client-first message was accepted

	testNonce string // replaces the random server nonce in tests
}

// NewExchange starts an exchange against v. With mock set, the exchange
// runs in full and then fails as a wrong password does.
func NewExchange(v Verifier, mock bool) *Exchange {
	return &Exchange{v: v, mock: mock}
}

// Step takes the client's next message. After the client-first message it
// returns the server-first message; after the client-final message it
// returns the server-final message with done set, or ErrAuthFailed. Any
// other error is a *ProtocolError.
func (e *Exchange) Step(in []byte) (out []byte, done bool, err error) {
	e.step++
	switch e.step {
	case 1:
		out, err = e.first(string(in))
		return out, false, err
	case 2:
		out, err = e.final(string(in))
		return out, err == nil, err
	default:
		return nil, false, protoErr("unexpected SCRAM message after the exchange ended")
	}
}

// conversation builds the library's server for this one exchange. The user
// name in the client-first message is ignored: the StartupMessage's user is
// the one authenticated (and looked up before the exchange), as in
// PostgreSQL, whose clients send an empty name.
func (e *Exchange) conversation() (*scram.ServerConversation, error) {
	cred := scram.StoredCredentials{
		KeyFactors: scram.KeyFactors{Salt: string(e.v.Salt), Iters: e.v.Iterations},
		StoredKey:  e.v.StoredKey,
		ServerKey:  e.v.ServerKey,
	}
	srv, err := scram.SHA256.NewServer(func(string) (scram.StoredCredentials, error) { return cred, nil })
	if err != nil {
		return nil, err
	}
	if e.testNonce != "" {
		nonce := e.testNonce
		srv = srv.WithNonceGenerator(func() string { return nonce })
	}
	// No channel binding is offered (no SCRAM-SHA-256-PLUS): the library
	// then accepts the gs2 flags "n" and "y" and refuses "p=…".
	return srv.NewConversation(), nil
}

func (e *Exchange) first(msg string) ([]byte, error) {
	if flag, _, _ := strings.Cut(msg, ","); strings.HasPrefix(flag, "p=") {
		return nil, protoErr("SCRAM channel binding (%s) is not supported: vsqld offers SCRAM-SHA-256 only", flag[2:])
	}
	conv, err := e.conversation()
	if err != nil {
		return nil, err
	}
	out, err := conv.Step(msg)
	if err != nil {
		return nil, protoErr("malformed SCRAM client-first message: %v", err)
	}
	// Stricter than the library: no authorization identity (PostgreSQL
	// refuses one too), and a client nonce of printable characters.
	if conv.AuthzID() != "" {
		return nil, protoErr("SCRAM authorization identities (a=…) are not supported")
	}
	if fields := strings.Split(msg, ","); len(fields) < 4 || !validNonce(strings.TrimPrefix(fields[3], "r=")) {
		return nil, protoErr("malformed SCRAM client-first message: bad or missing nonce")
	}
	e.conv = conv
	return []byte(out), nil
}

// validNonce: printable ASCII except ','.
func validNonce(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e || s[i] == ',' {
			return false
		}
	}
	return true
}

func (e *Exchange) final(msg string) ([]byte, error) {
	if e.conv == nil {
		return nil, protoErr("unexpected SCRAM client-final message: the client-first message was refused")
	}
	out, err := e.conv.Step(msg)
	switch {
	case err == nil && !e.mock:
		return []byte(out), nil
	case err == nil, out == scram.ErrInvalidProof:
		return nil, ErrAuthFailed
	default:
		return nil, protoErr("malformed SCRAM client-final message: %v", err)
	}
}
