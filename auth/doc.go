// Package auth holds who may connect to vsqld and how they prove it: the
// users file and its roles, the server side of SCRAM-SHA-256 (RFC 5802 and
// RFC 7677, as PostgreSQL speaks it), the loopback test behind the "no
// users" policy, and the TLS configuration.
//
// # Files
//
//   - scram.go: Verifier (salt, iteration count, StoredKey, ServerKey: what
//     the server keeps instead of a password, in PostgreSQL's text format)
//     and Exchange, one SCRAM-SHA-256 conversation. The exchange itself
//     (message parsing, nonce, proof check, server signature) and the key
//     derivation are github.com/xdg-go/scram's server and client; passwords
//     are SASLprepped by github.com/xdg-go/stringprep. Exchange adds what
//     PostgreSQL adds: the user name inside the SCRAM message is ignored
//     (the StartupMessage's user is authenticated), authorization
//     identities (a=…) are refused, the client nonce must be printable, and
//     errors are sorted into ErrAuthFailed (the proof does not match) and
//     *ProtocolError (anything malformed).
//   - roles.go: Role (admin, write, read), ParseRole and User.
//   - users.go: the users file, one "name verifier role" line per user (a
//     line without a role, written before roles existed, is an admin),
//     replaced atomically and durably by internal/atomicfile (mode 0600),
//     and Store, which re-reads it when its modification time or size
//     changes, so `vsqld user add` takes effect on the next connection.
//   - policy.go: IsLoopback and the mock verifier used for unknown users.
//   - tls.go: LoadTLS reads a PEM certificate chain and key.
//
// # Policy (applied by package server)
//
// With at least one user in the file, every connection authenticates with
// SCRAM-SHA-256. An unknown user runs the same exchange against a mock
// verifier (a stable salt derived from the user name and a per-process
// secret) and fails at the same step with the same error as a wrong
// password, so the answers do not reveal which users exist. With no users,
// loopback clients are trusted and others are refused (28000) unless the
// server runs with --trust-all.
//
// # Caveats
//
// No channel binding: vsqld offers SCRAM-SHA-256 only, never
// SCRAM-SHA-256-PLUS, even over TLS. The gs2 flags "n" and "y" are
// accepted and "p=…" is refused, so a client that demands channel binding
// (libpq's channel_binding=require) cannot connect; with TLS, certificate
// verification on the client (sslmode=verify-full) is what protects
// against a man in the middle.
//
// Passwords are normalized as PostgreSQL and libpq do: SASLprep (RFC 4013,
// with NFKC), or the raw bytes when SASLprep refuses the password (emoji,
// for one, are unassigned in SASLprep's Unicode 3.2). ASCII passwords and
// usual accented letters are unaffected by any of this. pgx normalizes by
// PRECIS OpaqueString instead (NFC, not NFKC), so a password holding
// compatibility characters (ligatures such as "ﬁ", Roman numerals,
// fullwidth forms, a soft hyphen) works from libpq-based clients and not
// from pgx, as against PostgreSQL itself. Verifiers written before the
// switch to xdg-go/stringprep were derived with PRECIS OpaqueString: for
// such a password, set it again with vsqld user add --replace.
package auth
