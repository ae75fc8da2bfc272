package auth

import (
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The SCRAM-SHA-256 example of RFC 7677, section 3.
func TestExchangeRFC7677Vector(t *testing.T) {
	salt, _ := base64.StdEncoding.DecodeString("W22ZaJ0SNY7soEsUEjb6gQ==")
	v, err := DeriveVerifier("pencil", salt, 4096)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExchange(v, false)
	e.testNonce = "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
	out, done, err := e.Step([]byte("n,,n=user,r=rOprNGfwEbeRWgbNEkqO"))
	if err != nil || done {
		t.Fatal(err, done)
	}
	if want := "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"; string(out) != want {
		t.Fatalf("server-first %q, want %q", out, want)
	}
	out, done, err = e.Step([]byte("c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="))
	if err != nil || !done {
		t.Fatal(err, done)
	}
	if want := "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="; string(out) != want {
		t.Fatalf("server-final %q, want %q", out, want)
	}
}

// client runs the client side of SCRAM-SHA-256 against e.
func client(t *testing.T, e *Exchange, gs2, password string) error {
	t.Helper()
	bare := "n=,r=clientnonce123"
	out, _, err := e.Step([]byte(gs2 + bare))
	if err != nil {
		return err
	}
	serverFirst := string(out)
	var nonce, saltB64 string
	for _, a := range strings.Split(serverFirst, ",") {
		if v, ok := strings.CutPrefix(a, "r="); ok {
			nonce = v
		}
		if v, ok := strings.CutPrefix(a, "s="); ok {
			saltB64 = v
		}
	}
	salt, _ := base64.StdEncoding.DecodeString(saltB64)
	v, err := DeriveVerifier(password, salt, 4096)
	if err != nil {
		t.Fatal(err)
	}
	withoutProof := "c=" + base64.StdEncoding.EncodeToString([]byte(gs2)) + ",r=" + nonce
	authMessage := bare + "," + serverFirst + "," + withoutProof
	sig := mac(v.StoredKey, authMessage)
	clientKey := clientKeyFor(t, password, salt)
	proof := make([]byte, len(sig))
	for i := range sig {
		proof[i] = clientKey[i] ^ sig[i]
	}
	out, done, err := e.Step([]byte(withoutProof + ",p=" + base64.StdEncoding.EncodeToString(proof)))
	if err != nil {
		return err
	}
	if !done || string(out) != "v="+base64.StdEncoding.EncodeToString(mac(v.ServerKey, authMessage)) {
		t.Fatalf("bad server-final %q", out)
	}
	return nil
}

func clientKeyFor(t *testing.T, password string, salt []byte) []byte {
	t.Helper()
	// A verifier keeps only StoredKey = SHA-256(ClientKey): derive ClientKey.
	salted := pbkdf2Key(t, password, salt)
	h := hmac.New(sha256.New, salted)
	h.Write([]byte("Client Key"))
	return h.Sum(nil)
}

func TestExchangeOutcomes(t *testing.T) {
	v, err := NewVerifier("s3cret", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := client(t, NewExchange(v, false), "n,,", "s3cret"); err != nil {
		t.Errorf("right password: %v", err)
	}
	if err := client(t, NewExchange(v, false), "y,,", "s3cret"); err != nil {
		t.Errorf("right password, gs2 flag y: %v", err)
	}
	if err := client(t, NewExchange(v, false), "n,,", "wrong"); !errors.Is(err, ErrAuthFailed) {
		t.Errorf("wrong password: %v", err)
	}
	// An unknown user fails the same way, even with the mock's "password".
	s := NewStore(filepath.Join(t.TempDir(), "users"))
	mv, known := s.Lookup(Users{}, "ghost")
	if known {
		t.Fatal("ghost is known")
	}
	if err := client(t, NewExchange(mv, true), "n,,", "anything"); !errors.Is(err, ErrAuthFailed) {
		t.Errorf("unknown user: %v", err)
	}
	if mv2, _ := s.Lookup(Users{}, "ghost"); string(mv2.Salt) != string(mv.Salt) {
		t.Error("the mock salt of a name changes between attempts")
	}
	var pe *ProtocolError
	if _, _, err := NewExchange(v, false).Step([]byte("p=tls-server-end-point,,n=,r=abc")); !errors.As(err, &pe) || !strings.Contains(err.Error(), "channel binding") {
		t.Errorf("p= flag: %v", err)
	}
	for _, bad := range []string{"", "n,", "x,,n=,r=a", "n,a=bob,n=,r=a", "n,,m=ext,n=,r=a", "n,,n=,r="} {
		if _, _, err := NewExchange(v, false).Step([]byte(bad)); !errors.As(err, &pe) {
			t.Errorf("client-first %q: %v", bad, err)
		}
	}
	e := NewExchange(v, false)
	if _, _, err := e.Step([]byte("n,,n=,r=abc")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := e.Step([]byte("c=biws,r=abcX,p=AAAA")); !errors.As(err, &pe) {
		t.Errorf("wrong nonce: %v", err)
	}
}

func TestVerifierRoundTripAndUsersFile(t *testing.T) {
	v, _ := NewVerifier("pw", 0)
	p, err := ParseVerifier(v.String())
	if err != nil || p.String() != v.String() {
		t.Fatalf("%v %q", err, p.String())
	}
	if strings.Contains(v.String(), "pw") && !strings.HasPrefix(v.String(), "SCRAM-SHA-256$4096:") {
		t.Errorf("verifier %q", v)
	}
	path := filepath.Join(t.TempDir(), "users")
	s := NewStore(path)
	if u, err := s.Users(); err != nil || len(u) != 0 {
		t.Fatalf("missing file: %v %v", u, err)
	}
	if err := UpdateUsers(path, func(u Users) error { u["alice"] = User{Verifier: v, Role: RoleWrite}; return nil }); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("users file mode %v, %v", fi.Mode(), err)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "pw ") || !strings.Contains(string(data), "alice SCRAM-SHA-256$4096:") {
		t.Errorf("file:\n%s", data)
	}
	u, err := s.Users()
	if err != nil || len(u) != 1 {
		t.Fatalf("%v %v", u, err)
	}
	// A change is seen at once (a rename makes a new inode).
	if err := UpdateUsers(path, func(u Users) error { u["bob"] = User{Verifier: v, Role: RoleRead}; return nil }); err != nil {
		t.Fatal(err)
	}
	if u, _ := s.Users(); len(u) != 2 {
		t.Errorf("after adding bob: %v", u.Names())
	}
	os.WriteFile(path, []byte("alice nonsense\n"), 0o600)
	if _, err := s.Users(); err == nil || !strings.Contains(err.Error(), path+":1") {
		t.Errorf("malformed file: %v", err)
	}
	for _, bad := range []string{"", "a b", "x;y", strings.Repeat("a", 64)} {
		if ValidUserName(bad) == nil {
			t.Errorf("user name %q accepted", bad)
		}
	}
}

func TestIsLoopback(t *testing.T) {
	cases := map[string]bool{"127.0.0.1:5": true, "127.8.9.10:5": true, "[::1]:5": true, "[::ffff:127.0.0.1]:5": true,
		"192.0.2.2:5": false, "[2001:db8::1]:5": false, "10.0.0.1:5": false, "[::ffff:10.0.0.1]:5": false}
	for s, want := range cases {
		a, err := net.ResolveTCPAddr("tcp", s)
		if err != nil {
			t.Fatal(err)
		}
		if got := IsLoopback(a); got != want {
			t.Errorf("IsLoopback(%s) = %v", s, got)
		}
	}
	if !IsLoopback(&net.UnixAddr{Name: "/tmp/.s.PGSQL.5433", Net: "unix"}) || IsLoopback(nil) {
		t.Error("unix socket / nil")
	}
}

func pbkdf2Key(t *testing.T, password string, salt []byte) []byte {
	t.Helper()
	k, err := pbkdf2.Key(sha256.New, Normalize(password), salt, 4096, keyLen)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Malformed client-final messages are protocol errors, not wrong passwords,
// and nothing goes on after a refused client-first message.
func TestExchangeFinalMalformed(t *testing.T) {
	v, err := NewVerifier("s3cret", 0)
	if err != nil {
		t.Fatal(err)
	}
	var pe *ProtocolError
	for _, bad := range []string{"", "c=biws", "c=biws,r=abc" + "N", "c=bm90LWdzMg==,r=abcN,p=AAAA", "c=biws,r=abcN,p=AAAA", "c=biws,r=abcN,p=!!"} {
		e := NewExchange(v, false)
		e.testNonce = "N"
		if _, _, err := e.Step([]byte("n,,n=,r=abc")); err != nil {
			t.Fatal(err)
		}
		if _, done, err := e.Step([]byte(bad)); done || !errors.As(err, &pe) {
			t.Errorf("client-final %q: done %v, %v", bad, done, err)
		}
	}
	e := NewExchange(v, false)
	if _, _, err := e.Step([]byte("n,a=bob,n=,r=abc")); !errors.As(err, &pe) {
		t.Fatalf("authzid: %v", err)
	}
	if _, done, err := e.Step([]byte("c=biws,r=abc,p=AAAA")); done || !errors.As(err, &pe) {
		t.Errorf("client-final after a refused client-first: done %v, %v", done, err)
	}
	if _, _, err := e.Step([]byte("x")); !errors.As(err, &pe) {
		t.Errorf("third message: %v", err)
	}
}

// Passwords are SASLprepped (RFC 4013) as libpq and pgx do, and used raw
// when SASLprep refuses them.
func TestDeriveVerifierSASLprep(t *testing.T) {
	salt := []byte("0123456789abcdef")
	same := func(a, b string) bool {
		va, err := DeriveVerifier(a, salt, 16)
		if err != nil {
			t.Fatal(err)
		}
		vb, err := DeriveVerifier(b, salt, 16)
		if err != nil {
			t.Fatal(err)
		}
		return va.String() == vb.String()
	}
	if !same("pass\u00a0word", "pass word") { // non-ASCII space maps to space
		t.Error("U+00A0 is not mapped to a space")
	}
	if !same("I\u00adX", "IX") { // soft hyphen maps to nothing
		t.Error("U+00AD is not removed")
	}
	if !same("\u2168", "IX") { // NFKC
		t.Error("U+2168 is not normalized to IX")
	}
	if same("Pencil", "pencil") {
		t.Error("case is folded")
	}
	// U+1F511 is unassigned in Unicode 3.2: SASLprep refuses it, the raw
	// bytes are used.
	if got := Normalize("key\U0001F511"); got != "key\U0001F511" {
		t.Errorf("Normalize of a refused password = %q", got)
	}
	v, err := DeriveVerifier("key\U0001F511", salt, 16)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := pbkdf2.Key(sha256.New, "key\U0001F511", salt, 16, keyLen)
	if err != nil {
		t.Fatal(err)
	}
	h := hmac.New(sha256.New, raw)
	h.Write([]byte("Server Key"))
	if !hmac.Equal(v.ServerKey, h.Sum(nil)) {
		t.Error("a password SASLprep refuses is not used raw")
	}
}

func TestVerifierCheck(t *testing.T) {
	v, err := NewVerifier("s3cret pass", 4096)
	if err != nil {
		t.Fatal(err)
	}
	if !v.Check("s3cret pass") {
		t.Error("the right password was refused")
	}
	for _, wrong := range []string{"", "s3cret", "s3cret pass ", "S3cret pass"} {
		if v.Check(wrong) {
			t.Errorf("%q accepted", wrong)
		}
	}
}
