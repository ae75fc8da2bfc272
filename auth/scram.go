package auth

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/secure/precis"
)

// Mechanism is the one SASL mechanism vsqld offers.
const Mechanism = "SCRAM-SHA-256"

// DefaultIterations is the PBKDF2 iteration count of new verifiers (the
// count PostgreSQL uses by default).
const DefaultIterations = 4096

const (
	saltLen  = 16
	nonceLen = 18 // random bytes of the server's half of the nonce
	keyLen   = sha256.Size
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
func DeriveVerifier(password string, salt []byte, iterations int) (Verifier, error) {
	salted, err := pbkdf2.Key(sha256.New, Normalize(password), salt, iterations, keyLen)
	if err != nil {
		return Verifier{}, err
	}
	clientKey := mac(salted, "Client Key")
	stored := sha256.Sum256(clientKey)
	return Verifier{Salt: salt, Iterations: iterations, StoredKey: stored[:], ServerKey: mac(salted, "Server Key")}, nil
}

// Normalize prepares a password the way SCRAM clients (libpq, pgx) do:
// SASLprep, here by PRECIS OpaqueString, or the raw string when the
// password is not valid for it (PostgreSQL accepts those too).
func Normalize(password string) string {
	for _, r := range password {
		if r > unicode.MaxASCII {
			if p, err := precis.OpaqueString.String(password); err == nil {
				return p
			}
			return password
		}
	}
	return password // ASCII: SASLprep changes nothing
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

// Exchange is the server side of one SCRAM-SHA-256 authentication. Feed the
// client's messages to Step in order.
type Exchange struct {
	v    Verifier
	mock bool // the user is unknown: fail at the proof, like a wrong password
	step int

	testNonce string // replaces the random server nonce in tests

	gs2Header       string
	clientFirstBare string
	serverFirst     string
	nonce           string
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

func (e *Exchange) first(msg string) ([]byte, error) {
	// gs2-header: cbind-flag "," [authzid] ","
	flag, rest, ok := strings.Cut(msg, ",")
	if !ok {
		return nil, protoErr("malformed SCRAM client-first message")
	}
	switch {
	case flag == "n", flag == "y":
		// No channel binding; "y" means the client could bind but saw no
		// SCRAM-SHA-256-PLUS offered, which is true.
	case strings.HasPrefix(flag, "p="):
		return nil, protoErr("SCRAM channel binding (%s) is not supported: vsqld offers SCRAM-SHA-256 only", flag[2:])
	default:
		return nil, protoErr("malformed SCRAM client-first message: unknown channel binding flag %q", flag)
	}
	authzid, bare, ok := strings.Cut(rest, ",")
	if !ok {
		return nil, protoErr("malformed SCRAM client-first message")
	}
	if authzid != "" {
		return nil, protoErr("SCRAM authorization identities (a=…) are not supported")
	}
	e.gs2Header = flag + "," + authzid + ","
	e.clientFirstBare = bare
	attrs := strings.Split(bare, ",")
	if len(attrs) < 2 || !strings.HasPrefix(attrs[0], "n=") {
		if strings.HasPrefix(bare, "m=") {
			return nil, protoErr("SCRAM mandatory extensions (m=…) are not supported")
		}
		return nil, protoErr("malformed SCRAM client-first message: expected n=user,r=nonce")
	}
	// The user name in the message is ignored: the StartupMessage's user is
	// the one authenticated, as in PostgreSQL.
	clientNonce, ok := strings.CutPrefix(attrs[1], "r=")
	if !ok || !validNonce(clientNonce) {
		return nil, protoErr("malformed SCRAM client-first message: bad or missing nonce")
	}
	raw := make([]byte, nonceLen)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	e.nonce = clientNonce + base64.RawStdEncoding.EncodeToString(raw)
	if e.testNonce != "" {
		e.nonce = clientNonce + e.testNonce
	}
	e.serverFirst = fmt.Sprintf("r=%s,s=%s,i=%d", e.nonce, b64.EncodeToString(e.v.Salt), e.v.Iterations)
	return []byte(e.serverFirst), nil
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
	cut := strings.LastIndex(msg, ",p=")
	if cut < 0 {
		return nil, protoErr("malformed SCRAM client-final message: no proof")
	}
	withoutProof, proofB64 := msg[:cut], msg[cut+3:]
	attrs := strings.Split(withoutProof, ",")
	if len(attrs) < 2 {
		return nil, protoErr("malformed SCRAM client-final message")
	}
	cbind, ok := strings.CutPrefix(attrs[0], "c=")
	if !ok {
		return nil, protoErr("malformed SCRAM client-final message: expected c=")
	}
	if got, err := b64.DecodeString(cbind); err != nil || string(got) != e.gs2Header {
		return nil, protoErr("SCRAM channel binding data does not match the client-first message")
	}
	nonce, ok := strings.CutPrefix(attrs[1], "r=")
	if !ok || nonce != e.nonce {
		return nil, protoErr("SCRAM nonce does not match")
	}
	proof, err := b64.DecodeString(proofB64)
	if err != nil || len(proof) != keyLen {
		return nil, protoErr("malformed SCRAM client proof")
	}
	authMessage := e.clientFirstBare + "," + e.serverFirst + "," + withoutProof
	clientSignature := mac(e.v.StoredKey, authMessage)
	clientKey := make([]byte, keyLen)
	for i := range clientKey {
		clientKey[i] = proof[i] ^ clientSignature[i]
	}
	computed := sha256.Sum256(clientKey)
	match := hmac.Equal(computed[:], e.v.StoredKey)
	serverSignature := mac(e.v.ServerKey, authMessage)
	if !match || e.mock {
		return nil, ErrAuthFailed
	}
	return []byte("v=" + b64.EncodeToString(serverSignature)), nil
}
