// Package auth holds who may connect to vsqld and how they prove it: the
// users file, the server side of SCRAM-SHA-256 (RFC 5802 and RFC 7677, as
// PostgreSQL speaks it), the loopback test behind the "no users" policy, and
// the TLS configuration.
//
// # Files
//
//   - scram.go: Verifier (salt, iteration count, StoredKey, ServerKey: what
//     the server keeps instead of a password) and Exchange, one
//     SCRAM-SHA-256 conversation. Channel binding is not offered: the gs2
//     flags "n" and "y" are accepted, "p=…" is refused.
//   - users.go: the users file, one "name verifier" line per user, written
//     atomically (temporary file, fsync, rename; mode 0600), and Store,
//     which re-reads it when its modification time or size changes, so
//     `vsqld user add` takes effect on the next connection.
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
// Passwords are normalized as SCRAM clients do (SASLprep, by way of PRECIS
// OpaqueString, falling back to the raw bytes when that fails), so a
// password with unusual Unicode may only work with clients that normalize
// the same way; ASCII passwords are unaffected.
package auth
