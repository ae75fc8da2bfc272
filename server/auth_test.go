package server_test

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/binary"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
	"github.com/lib/pq"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/server"
)

// syncBuffer collects server logs from many goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// pki is a CA and a server certificate signed by it, written as PEM files.
type pki struct {
	dir, caFile, certFile, keyFile string
}

// newPKI generates a self-signed CA and a server certificate for
// 127.0.0.1, ::1, localhost and the extra IPs, in a temporary directory.
func newPKI(t *testing.T, extra ...net.IP) pki {
	t.Helper()
	p := pki{dir: t.TempDir()}
	p.caFile, p.certFile, p.keyFile = filepath.Join(p.dir, "ca.pem"), filepath.Join(p.dir, "server.pem"), filepath.Join(p.dir, "server.key")
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "vsql test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "localhost"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		DNSNames:    []string{"localhost"},
		IPAddresses: append([]net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("::1")}, extra...),
		KeyUsage:    x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	write := func(path, typ string, b []byte, mode os.FileMode) {
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: b}), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(p.caFile, "CERTIFICATE", caDER, 0o644)
	write(p.certFile, "CERTIFICATE", der, 0o644)
	write(p.keyFile, "PRIVATE KEY", keyDER, 0o600) // libpq insists on a private key file mode; the server's is ours
	return p
}

// addUser stores a SCRAM verifier for name in the users file at path.
func addUser(t *testing.T, path, name, password string) {
	t.Helper()
	v, err := auth.NewVerifier(password, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := auth.UpdateUsers(path, func(u auth.Users) error { u[name] = auth.User{Verifier: v, Role: auth.RoleAdmin}; return nil }); err != nil {
		t.Fatal(err)
	}
}

func authDSN(addr, user, password, sslmode string) string {
	host, port, _ := net.SplitHostPort(addr)
	return fmt.Sprintf("host=%s port=%s user=%s password='%s' dbname=postgres sslmode=%s", host, port, user, password, sslmode)
}

func pgxConnect(dsn string) (*pgx.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return pgx.Connect(ctx, dsn)
}

func wantSQLState(t *testing.T, what string, err error, state, msg string) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Errorf("%s: want SQLSTATE %s, got %v", what, state, err)
		return
	}
	if pe.Code != state || !strings.Contains(pe.Message, msg) || pe.Severity != "FATAL" {
		t.Errorf("%s: got %s %s %q, want FATAL %s %q", what, pe.Severity, pe.Code, pe.Message, state, msg)
	}
}

// With users in the users file every client runs SCRAM-SHA-256, pgx and
// lib/pq alike; a wrong password and an unknown user both fail with 28P01,
// and the log names user and address but never the password. Users added
// or removed while the server runs count from the next connection.
func TestSCRAMPasswords(t *testing.T) {
	users := filepath.Join(t.TempDir(), "users")
	addUser(t, users, "alice", "correct horse")
	logs := &syncBuffer{}
	addr := startServer(t, func(c *server.Config) {
		c.UsersFile = users
		c.Logger = slog.New(slog.NewTextHandler(logs, nil))
	})
	ctx := context.Background()

	conn, err := pgxConnect(authDSN(addr, "alice", "correct horse", "disable"))
	if err != nil {
		t.Fatalf("right password: %v", err)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT 41 + 1").Scan(&n); err != nil || n != 42 {
		t.Fatalf("query after SCRAM: %d %v", n, err)
	}
	conn.Close(ctx)

	_, err = pgxConnect(authDSN(addr, "alice", "wrong horse", "disable"))
	wantSQLState(t, "wrong password", err, "28P01", `password authentication failed for user "alice"`)
	_, err = pgxConnect(authDSN(addr, "mallory", "correct horse", "disable"))
	wantSQLState(t, "unknown user", err, "28P01", `password authentication failed for user "mallory"`)

	// lib/pq.
	db, err := sql.Open("postgres", authDSN(addr, "alice", "correct horse", "disable"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.QueryRow("SELECT 7").Scan(&n); err != nil || n != 7 {
		t.Errorf("lib/pq, right password: %d %v", n, err)
	}
	bad, _ := sql.Open("postgres", authDSN(addr, "alice", "nope", "disable"))
	defer bad.Close()
	var pqe *pq.Error
	if err := bad.Ping(); !errors.As(err, &pqe) || pqe.Code != "28P01" {
		t.Errorf("lib/pq, wrong password: %v", err)
	}

	// Users change while the server runs.
	if _, err := pgxConnect(authDSN(addr, "bob", "pw-b", "disable")); err == nil {
		t.Fatal("bob connected before he was added")
	}
	addUser(t, users, "bob", "pw-b")
	conn, err = pgxConnect(authDSN(addr, "bob", "pw-b", "disable"))
	if err != nil {
		t.Fatalf("bob after user add: %v", err)
	}
	conn.Close(ctx)
	if err := auth.UpdateUsers(users, func(u auth.Users) error { delete(u, "bob"); return nil }); err != nil {
		t.Fatal(err)
	}
	_, err = pgxConnect(authDSN(addr, "bob", "pw-b", "disable"))
	wantSQLState(t, "bob after removal", err, "28P01", `password authentication failed for user "bob"`)

	out := logs.String()
	for _, want := range []string{`msg="password authentication failed" user=alice remote=127.0.0.1:`, `user=mallory`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	for _, secret := range []string{"wrong horse", "correct horse", "nope", "pw-b"} {
		if strings.Contains(out, secret) {
			t.Errorf("log contains %q:\n%s", secret, out)
		}
	}
}

// An unknown user gets the same exchange as a real one: AuthenticationSASL,
// then a server-first message with a salt (the same on every attempt, as a
// real user's is) and 4096 iterations; the failure comes only after the
// proof, as 28P01.
func TestUnknownUserRunsFullExchange(t *testing.T) {
	users := filepath.Join(t.TempDir(), "users")
	addUser(t, users, "alice", "pw")
	addr := startServer(t, func(c *server.Config) { c.UsersFile = users })
	serverFirst := func(user string) string {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		_ = nc.SetDeadline(time.Now().Add(20 * time.Second))
		fe := pgproto3.NewFrontend(nc, nc)
		fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": user, "database": "postgres"}})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		msg, err := fe.Receive()
		if sasl, ok := msg.(*pgproto3.AuthenticationSASL); err != nil || !ok || len(sasl.AuthMechanisms) != 1 || sasl.AuthMechanisms[0] != "SCRAM-SHA-256" {
			t.Fatalf("%s: first answer %#v, %v", user, msg, err)
		}
		fe.Send(&pgproto3.SASLInitialResponse{AuthMechanism: "SCRAM-SHA-256", Data: []byte("n,,n=,r=abcdefgh")})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		msg, err = fe.Receive()
		cont, ok := msg.(*pgproto3.AuthenticationSASLContinue)
		if err != nil || !ok {
			t.Fatalf("%s: second answer %#v, %v", user, msg, err)
		}
		first := string(cont.Data)
		nonce, _, _ := strings.Cut(first, ",")
		fe.Send(&pgproto3.SASLResponse{Data: []byte("c=biws," + nonce + ",p=" + strings.Repeat("A", 43) + "=")})
		if err := fe.Flush(); err != nil {
			t.Fatal(err)
		}
		msg, err = fe.Receive()
		if e, ok := msg.(*pgproto3.ErrorResponse); err != nil || !ok || e.Code != "28P01" {
			t.Fatalf("%s: after the proof %#v, %v", user, msg, err)
		}
		_, salt, _ := strings.Cut(first, ",s=")
		return salt
	}
	known, unknown := serverFirst("alice"), serverFirst("nobody")
	if !strings.HasSuffix(known, ",i=4096") || !strings.HasSuffix(unknown, ",i=4096") {
		t.Errorf("salts and counts: %q / %q", known, unknown)
	}
	if again := serverFirst("nobody"); again != unknown {
		t.Errorf("the unknown user's salt changed between attempts: %q, %q", unknown, again)
	}
}

// TLS: pgx and lib/pq with sslmode=require and verify-full against a CA the
// test generates; a CancelRequest sent over TLS works; without a
// certificate configured, SSL is refused and sslmode=prefer falls back.
func TestTLS(t *testing.T) {
	p := newPKI(t)
	addr := startServer(t, func(c *server.Config) { c.TLSCert, c.TLSKey = p.certFile, p.keyFile })
	ctx := context.Background()
	_, port, _ := net.SplitHostPort(addr)
	for _, dsn := range []string{
		authDSN(addr, "tester", "", "require"),
		fmt.Sprintf("host=127.0.0.1 port=%s user=tester dbname=postgres sslmode=verify-full sslrootcert=%s", port, p.caFile),
		fmt.Sprintf("host=localhost port=%s user=tester dbname=postgres sslmode=verify-full sslrootcert=%s", port, p.caFile),
	} {
		conn, err := pgxConnect(dsn)
		if err != nil {
			t.Fatalf("%s: %v", dsn, err)
		}
		if _, ok := conn.PgConn().Conn().(*tls.Conn); !ok {
			t.Errorf("%s: connection is %T, not TLS", dsn, conn.PgConn().Conn())
		}
		var n int
		if err := conn.QueryRow(ctx, "SELECT 5").Scan(&n); err != nil || n != 5 {
			t.Errorf("%s: query %d %v", dsn, n, err)
		}
		conn.Close(ctx)
	}
	// A CA that did not sign the server's certificate is refused by the client.
	other := newPKI(t)
	if _, err := pgxConnect(fmt.Sprintf("host=127.0.0.1 port=%s user=tester dbname=postgres sslmode=verify-full sslrootcert=%s", port, other.caFile)); err == nil {
		t.Error("verify-full accepted a certificate from another CA")
	}
	// lib/pq, verify-full.
	db, err := sql.Open("postgres", fmt.Sprintf("host=localhost port=%s user=tester dbname=postgres sslmode=verify-full sslrootcert=%s", port, p.caFile))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT 9").Scan(&n); err != nil || n != 9 {
		t.Errorf("lib/pq verify-full: %d %v", n, err)
	}

	// CancelRequest over TLS.
	conn, err := pgxConnect(authDSN(addr, "tester", "", "require"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := conn.Exec(ctx, "SELECT count(*) FROM range(5000000000) t1 WHERE t1.range % 7 = 3")
		done <- err
	}()
	time.Sleep(300 * time.Millisecond)
	sendCancelOverTLS(t, addr, conn.PgConn().PID(), conn.PgConn().SecretKey())
	select {
	case err := <-done:
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" {
			t.Errorf("cancel over TLS: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the statement was not cancelled")
	}

	// A server that is full still speaks TLS to say so.
	full := startServer(t, func(c *server.Config) { c.TLSCert, c.TLSKey, c.MaxConnections = p.certFile, p.keyFile, 1 })
	holder, err := pgxConnect(authDSN(full, "tester", "", "require"))
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close(ctx)
	_, err = pgxConnect(authDSN(full, "tester", "", "require"))
	wantSQLState(t, "too many connections over TLS", err, "53300", "too many clients")

	// No certificate configured: SSL is refused.
	plain := startServer(t, nil)
	if _, err := pgxConnect(authDSN(plain, "tester", "", "require")); err == nil {
		t.Error("sslmode=require connected to a server without TLS")
	}
	c2, err := pgxConnect(authDSN(plain, "tester", "", "prefer"))
	if err != nil {
		t.Fatalf("sslmode=prefer without TLS: %v", err)
	}
	if _, ok := c2.PgConn().Conn().(*tls.Conn); ok {
		t.Error("TLS without a certificate?")
	}
	c2.Close(ctx)
}

// sendCancelOverTLS sends SSLRequest, upgrades to TLS and sends a
// CancelRequest, as libpq does for sslmode=require.
func sendCancelOverTLS(t *testing.T, addr string, pid uint32, secret []byte) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	req := binary.BigEndian.AppendUint32(nil, 8)
	req = binary.BigEndian.AppendUint32(req, 80877103)
	if _, err := nc.Write(req); err != nil {
		t.Fatal(err)
	}
	answer := make([]byte, 1)
	if _, err := io.ReadFull(nc, answer); err != nil || answer[0] != 'S' {
		t.Fatalf("SSLRequest answered %q, %v", answer, err)
	}
	tc := tls.Client(nc, &tls.Config{InsecureSkipVerify: true})
	msg := binary.BigEndian.AppendUint32(nil, uint32(12+len(secret)))
	msg = binary.BigEndian.AppendUint32(msg, 80877102)
	msg = binary.BigEndian.AppendUint32(msg, pid)
	msg = append(msg, secret...)
	if _, err := tc.Write(msg); err != nil {
		t.Fatal(err)
	}
	_, _ = tc.Read(answer) // the server closes the connection
}

// nonLoopbackIPv4 returns a local IPv4 address that is not loopback, or nil.
func nonLoopbackIPv4() net.IP {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
			return ipn.IP
		}
	}
	return nil
}

// listenNonLoopback makes the server see clients as non-loopback: it
// listens on a non-loopback local address when the machine has one, and
// otherwise (no such interface) injects a classifier that calls every
// address remote; auth.IsLoopback itself is unit-tested in package auth.
func listenNonLoopback(t *testing.T, c *server.Config) {
	if ip := nonLoopbackIPv4(); ip != nil {
		c.Listen = net.JoinHostPort(ip.String(), "0")
		return
	}
	t.Log("no non-loopback IPv4 interface: injecting the remote-address classifier")
	c.IsLoopback = func(net.Addr) bool { return false }
}

// Without users, a client that is not on loopback is refused with 28000
// and a hint naming vsqld user add; --trust-all lets it in; with a user
// configured it logs in with its password.
func TestNonLoopbackNeedsUsers(t *testing.T) {
	addr := startServer(t, func(c *server.Config) { listenNonLoopback(t, c) })
	_, err := pgxConnect(authDSN(addr, "tester", "", "disable"))
	wantSQLState(t, "non-loopback without users", err, "28000", "only from loopback")
	var pe *pgconn.PgError
	if errors.As(err, &pe) && !strings.Contains(pe.Hint, "vsqld user add") {
		t.Errorf("hint %q does not say how to add users", pe.Hint)
	}

	trusting := startServer(t, func(c *server.Config) { listenNonLoopback(t, c); c.TrustAll = true })
	conn, err := pgxConnect(authDSN(trusting, "tester", "", "disable"))
	if err != nil {
		t.Fatalf("--trust-all: %v", err)
	}
	conn.Close(context.Background())

	users := filepath.Join(t.TempDir(), "users")
	addUser(t, users, "carol", "s3cret!")
	withUsers := startServer(t, func(c *server.Config) { listenNonLoopback(t, c); c.UsersFile = users })
	conn, err = pgxConnect(authDSN(withUsers, "carol", "s3cret!", "disable"))
	if err != nil {
		t.Fatalf("non-loopback with a password: %v", err)
	}
	conn.Close(context.Background())
}

// A bad TLS or users configuration stops the server at start.
func TestSecurityConfigErrors(t *testing.T) {
	p := newPKI(t)
	bad := filepath.Join(t.TempDir(), "users")
	if err := os.WriteFile(bad, []byte("alice plaintext-password\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, cfg := range map[string]server.Config{
		"cert without key": {TLSCert: p.certFile},
		"key is not a key": {TLSCert: p.certFile, TLSKey: p.caFile},
		"bad users file":   {UsersFile: bad},
	} {
		cfg.DataDir = t.TempDir()
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
		srv, err := server.Open(context.Background(), cfg)
		if err == nil {
			t.Errorf("%s: server opened", name)
			srv.Serve(canceled(), nil)
			continue
		}
		want := "[vsql:tls_config_invalid]"
		if name == "bad users file" {
			want = "[vsql:users_file_invalid]"
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// The real psql: sslmode=require and verify-full with PGPASSWORD, the
// query output, \conninfo reporting SSL, and a wrong password refused.
func TestPsqlTLSAndPassword(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Skip("psql is not installed (CI installs postgresql-client)")
	}
	p := newPKI(t)
	users := filepath.Join(t.TempDir(), "users")
	addUser(t, users, "dave", "p4ss word")
	addr := startServer(t, func(c *server.Config) { c.UsersFile = users; c.TLSCert, c.TLSKey = p.certFile, p.keyFile })
	host, port, _ := net.SplitHostPort(addr)
	run := func(password, conninfo string) (string, error) {
		cmd := exec.Command(psql, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", conninfo, "-c", "SELECT 40 + 2 AS answer", "-c", `\conninfo`)
		cmd.Env = append(os.Environ(), "PGPASSWORD="+password, "PGPASSFILE="+os.DevNull, "PGCONNECT_TIMEOUT=20")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	for _, ci := range []string{
		fmt.Sprintf("host=%s port=%s user=dave dbname=postgres sslmode=require", host, port),
		fmt.Sprintf("host=localhost port=%s user=dave dbname=postgres sslmode=verify-full sslrootcert=%s", port, p.caFile),
	} {
		out, err := run("p4ss word", ci)
		if err != nil {
			t.Fatalf("psql %s: %v\n%s", ci, err, out)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) < 2 || lines[0] != "42" || !strings.Contains(out, "SSL connection") {
			t.Errorf("psql %s:\n%s", ci, out)
		}
	}
	out, err := run("wrong", fmt.Sprintf("host=%s port=%s user=dave dbname=postgres sslmode=require", host, port))
	if err == nil || !strings.Contains(out, `password authentication failed for user "dave"`) {
		t.Errorf("psql with a wrong password: %v\n%s", err, out)
	}
}
