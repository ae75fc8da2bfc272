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
	if err != nil || out != "alice write\nbob write\n" {
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
	if out, _ := runMain(env, "", "user", "list"); out != "alice write\n" {
		t.Errorf("list after remove: %q", out)
	}

	// --users and VSQL_USERS name another file.
	other := filepath.Join(t.TempDir(), "sub", "vsql-users")
	if _, err := runMain(map[string]string{"VSQL_USERS": other, "VSQL_PASSWORD": "pw"}, "", "user", "add", "erin"); err != nil {
		t.Fatal(err)
	}
	if out, _ := runMain(nil, "", "user", "list", "--users", other); out != "erin write\n" {
		t.Errorf("list --users: %q", out)
	}
	if out, err := runMain(nil, "", "user", "--help"); err != nil || !strings.Contains(out, "--password-stdin") {
		t.Errorf("user --help: %v %s", err, out)
	}
}

// Roles: --role on add (default write), a bad role refused with the valid
// ones named, --replace with and without a password and --role, and legacy
// two-field lines in list.
func TestUserRoles(t *testing.T) {
	data := t.TempDir()
	env := map[string]string{"VSQL_DATA": data}
	path := filepath.Join(data, "users")
	load := func() auth.Users {
		t.Helper()
		u, err := auth.LoadUsers(path)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}

	if out, err := runMain(env, "pw-w\n", "user", "add", "walt", "--password-stdin"); err != nil || !strings.Contains(out, "with role write") {
		t.Fatalf("add without --role: %v\n%s", err, out)
	}
	if out, err := runMain(env, "pw-r\n", "user", "add", "--role", "read", "rita", "--password-stdin"); err != nil || !strings.Contains(out, "with role read") {
		t.Fatalf("add --role read: %v\n%s", err, out)
	}
	if out, err := runMain(env, "pw-a\n", "user", "add", "ada", "--role=ADMIN", "--password-stdin"); err != nil {
		t.Fatalf("add --role=ADMIN: %v\n%s", err, out)
	}
	if out, err := runMain(env, "", "user", "list"); err != nil || out != "ada admin\nrita read\nwalt write\n" {
		t.Fatalf("list: %v %q", err, out)
	}

	// A bad role is a usage error naming the valid roles, and writes nothing.
	before, _ := os.ReadFile(path)
	for _, args := range [][]string{
		{"user", "add", "bad", "--role", "superuser", "--password-stdin"},
		{"user", "add", "walt", "--replace", "--role", "owner"},
		{"user", "add", "bad", "--role=", "--password-stdin"},
	} {
		out, err := runMain(env, "pw\n", args...)
		if !errors.Is(err, errUsage) || !strings.Contains(out, "admin, write and read") {
			t.Errorf("%v: %v %q", args, err, out)
		}
	}
	for _, args := range [][]string{{"user", "list", "--role", "read"}, {"user", "remove", "rita", "--role", "read"}} {
		if out, err := runMain(env, "", args...); !errors.Is(err, errUsage) || !strings.Contains(out, "--role applies to user add only") {
			t.Errorf("%v: %v %q", args, err, out)
		}
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("a refused command changed the users file")
	}
	// An existing user needs --replace, with or without --role.
	if _, err := runMain(env, "pw\n", "user", "add", "rita", "--role", "write", "--password-stdin"); !vsqlerr.IsCode(err, vsqlerr.UserExists) {
		t.Errorf("add existing with --role: %v", err)
	}

	// --replace --role without a password: only the role changes.
	if out, err := runMain(env, "", "user", "add", "rita", "--replace", "--role", "write"); err != nil || !strings.Contains(out, "role of user rita changed from read to write") {
		t.Fatalf("--replace --role, no password: %v\n%s", err, out)
	}
	u := load()
	if u["rita"].Role != auth.RoleWrite || !verifies(t, u["rita"].Verifier, "pw-r") {
		t.Errorf("after --replace --role write: role %s, old password kept: %v", u["rita"].Role, verifies(t, u["rita"].Verifier, "pw-r"))
	}
	// ... and does not add a user that does not exist.
	if _, err := runMain(env, "", "user", "add", "nobody", "--replace", "--role", "read"); !vsqlerr.IsCode(err, vsqlerr.UserNotFound) {
		t.Errorf("--replace --role of an unknown user without a password: %v", err)
	}
	if _, ok := load()["nobody"]; ok {
		t.Error("nobody was added without a password")
	}
	// --replace with neither a password nor --role has nothing to do.
	if _, err := runMain(env, "", "user", "add", "rita", "--replace"); !errors.Is(err, errUsage) {
		t.Errorf("--replace with nothing: %v", err)
	}

	// --replace with a password and no --role keeps the role.
	if out, err := runMain(env, "pw-r2\n", "user", "add", "rita", "--replace", "--password-stdin"); err != nil || !strings.Contains(out, "password of user rita changed") {
		t.Fatalf("--replace, password: %v\n%s", err, out)
	}
	u = load()
	if u["rita"].Role != auth.RoleWrite || !verifies(t, u["rita"].Verifier, "pw-r2") {
		t.Errorf("after --replace with a password: role %s", u["rita"].Role)
	}
	// VSQL_PASSWORD counts as a password too: the role is kept.
	if _, err := runMain(map[string]string{"VSQL_DATA": data, "VSQL_PASSWORD": "pw-a2"}, "", "user", "add", "ada", "--replace"); err != nil {
		t.Fatal(err)
	}
	if u = load(); u["ada"].Role != auth.RoleAdmin || !verifies(t, u["ada"].Verifier, "pw-a2") {
		t.Errorf("after --replace with VSQL_PASSWORD: role %s", u["ada"].Role)
	}
	// With a password and --role, both change.
	if out, err := runMain(env, "pw-w2\n", "user", "add", "walt", "--replace", "--role", "read", "--password-stdin"); err != nil || !strings.Contains(out, "role changed from write to read") {
		t.Fatalf("--replace --role with a password: %v\n%s", err, out)
	}
	if u = load(); u["walt"].Role != auth.RoleRead || !verifies(t, u["walt"].Verifier, "pw-w2") {
		t.Errorf("after --replace --role read with a password: role %s", u["walt"].Role)
	}
	if out, _ := runMain(env, "", "user", "list"); out != "ada admin\nrita write\nwalt read\n" {
		t.Errorf("list: %q", out)
	}

	// A two-field line from before roles is an admin, marked in list,
	// and keeps admin when its password is replaced.
	legacy := filepath.Join(t.TempDir(), "users")
	v, err := auth.NewVerifier("old-pw", 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(legacy, []byte("alice "+v.String()+"\nbob "+v.String()+" read\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := runMain(nil, "", "user", "list", "--users", legacy); err != nil || out != "alice admin (legacy line without a role: admin)\nbob read\n" {
		t.Errorf("list with a legacy line: %v %q", err, out)
	}
	if _, err := runMain(nil, "new-pw\n", "user", "add", "alice", "--replace", "--password-stdin", "--users", legacy); err != nil {
		t.Fatal(err)
	}
	if out, _ := runMain(nil, "", "user", "list", "--users", legacy); out != "alice admin\nbob read\n" {
		t.Errorf("list after replacing a legacy user's password: %q", out)
	}
	if out, err := runMain(nil, "", "user", "--help"); err != nil || !strings.Contains(out, "--role") || !strings.Contains(out, "admin|write|read") {
		t.Errorf("user --help: %v %s", err, out)
	}
	if out, _ := runMain(nil, "", "--help"); !strings.Contains(out, "--role admin|write|read") {
		t.Errorf("--help does not mention --role")
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
