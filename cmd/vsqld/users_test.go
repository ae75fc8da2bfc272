package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/vsqlerr"
)

func runMain(env map[string]string, stdin string, args ...string) (string, error) {
	var out bytes.Buffer
	m := &Main{Stdout: &out, Stderr: &out, Stdin: strings.NewReader(stdin), Getenv: func(k string) string { return env[k] }}
	err := m.Run(context.Background(), args)
	return out.String(), err
}

// vsqld user add/list/remove through Main.Run: passwords from standard input
// or VSQL_PASSWORD, the file in <data>/users (or --users / VSQL_USERS) with
// mode 0600 and no password in it, and the errors of each misuse.
func TestUserSubcommands(t *testing.T) {
	data := t.TempDir()
	env := map[string]string{"VSQL_DATA": data}
	path := filepath.Join(data, "users")

	if out, err := runMain(env, "hunter2\n", "user", "add", "alice", "--password-stdin"); err != nil || !strings.Contains(out, "user alice added") {
		t.Fatalf("add alice: %v\n%s", err, out)
	}
	env["VSQL_PASSWORD"] = "from-env"
	if out, err := runMain(env, "", "user", "add", "--data", data, "bob"); err != nil {
		t.Fatalf("add bob: %v\n%s", err, out)
	}
	delete(env, "VSQL_PASSWORD")
	out, err := runMain(env, "", "user", "list")
	if err != nil || out != "alice\nbob\n" {
		t.Fatalf("list: %v %q", err, out)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("users file: %v %v", fi, err)
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "hunter2") || strings.Contains(string(raw), "from-env") {
		t.Fatalf("the users file holds a password:\n%s", raw)
	}
	// The stored verifiers match the passwords given.
	users, err := auth.LoadUsers(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, pw := range map[string]string{"alice": "hunter2", "bob": "from-env"} {
		if !verifies(t, users[name].Verifier, pw) || verifies(t, users[name].Verifier, pw+"x") {
			t.Errorf("verifier of %s does not match its password", name)
		}
	}

	// Misuse.
	if _, err := runMain(env, "x\n", "user", "add", "alice", "--password-stdin"); !vsqlerr.IsCode(err, vsqlerr.UserExists) {
		t.Errorf("add existing: %v", err)
	}
	if out, err := runMain(env, "new-pw\n", "user", "add", "alice", "--password-stdin", "--replace"); err != nil || !strings.Contains(out, "password of user alice changed") {
		t.Errorf("add --replace: %v %s", err, out)
	}
	if u, _ := auth.LoadUsers(path); !verifies(t, u["alice"].Verifier, "new-pw") {
		t.Error("--replace did not change the password")
	}
	for _, args := range [][]string{{"user", "add", "carol"}, {"user", "add", "carol", "--password-stdin"}, {"user"}, {"user", "frob"}, {"user", "add"}, {"user", "list", "x"}} {
		if _, err := runMain(env, "", args...); !errors.Is(err, errUsage) {
			t.Errorf("%v: %v", args, err)
		}
	}
	if _, err := runMain(env, "pw\n", "user", "add", "bad name", "--password-stdin"); !vsqlerr.IsCode(err, vsqlerr.InvalidName) {
		t.Errorf("bad name: %v", err)
	}
	if _, err := runMain(env, "", "user", "remove", "zed"); !vsqlerr.IsCode(err, vsqlerr.UserNotFound) {
		t.Errorf("remove unknown: %v", err)
	}
	if out, err := runMain(env, "", "user", "remove", "bob"); err != nil || !strings.Contains(out, "user bob removed") {
		t.Errorf("remove bob: %v %s", err, out)
	}
	if out, _ := runMain(env, "", "user", "list"); out != "alice\n" {
		t.Errorf("list after remove: %q", out)
	}

	// --users and VSQL_USERS name another file.
	other := filepath.Join(t.TempDir(), "sub", "vsql-users")
	if _, err := runMain(map[string]string{"VSQL_USERS": other, "VSQL_PASSWORD": "pw"}, "", "user", "add", "erin"); err != nil {
		t.Fatal(err)
	}
	if out, _ := runMain(nil, "", "user", "list", "--users", other); out != "erin\n" {
		t.Errorf("list --users: %q", out)
	}
	if out, err := runMain(nil, "", "user", "--help"); err != nil || !strings.Contains(out, "--password-stdin") {
		t.Errorf("user --help: %v %s", err, out)
	}
}

func verifies(t *testing.T, v auth.Verifier, password string) bool {
	t.Helper()
	w, err := auth.DeriveVerifier(password, v.Salt, v.Iterations)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(w.StoredKey, v.StoredKey) && bytes.Equal(w.ServerKey, v.ServerKey)
}

// The security flags are in --help, and a half TLS configuration or a
// broken users file stops serve at start.
func TestSecurityFlags(t *testing.T) {
	out, err := runMain(nil, "", "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"-tls-cert", "-tls-key", "-users", "-trust-all", "VSQL_TLS_CERT", "VSQL_TLS_KEY", "VSQL_USERS", "VSQL_TRUST_ALL", "vsqld user add", "VSQL_PASSWORD"} {
		if !strings.Contains(out, s) {
			t.Errorf("--help does not mention %s", s)
		}
	}
	data := t.TempDir()
	if _, err := runMain(map[string]string{"VSQL_DATA": data, "VSQL_LISTEN": "127.0.0.1:0", "VSQL_TLS_CERT": filepath.Join(data, "cert.pem")}, "", "serve"); !vsqlerr.IsCode(err, vsqlerr.TLSConfigInvalid) {
		t.Errorf("--tls-cert without --tls-key: %v", err)
	}
	if err := os.WriteFile(filepath.Join(data, "users"), []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := runMain(map[string]string{"VSQL_DATA": data, "VSQL_LISTEN": "127.0.0.1:0"}, "", "serve"); !vsqlerr.IsCode(err, vsqlerr.UsersFileInvalid) {
		t.Errorf("broken users file: %v", err)
	}
}
