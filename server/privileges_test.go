package server_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/internal/pgtest"
	"github.com/vsql/vsql/server"
)

// privServer starts a server whose users file holds one user per role
// given (name → role), each with the password "pw-"+name, and returns
// its address.
func privServer(t *testing.T, users map[string]auth.Role, tweak func(*server.Config)) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "users")
	for name, role := range users {
		v, err := auth.NewVerifier("pw-"+name, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := auth.UpdateUsers(path, func(u auth.Users) error { u[name] = auth.User{Verifier: v, Role: role}; return nil }); err != nil {
			t.Fatal(err)
		}
	}
	return startServer(t, func(c *server.Config) {
		c.UsersFile = path
		if tweak != nil {
			tweak(c)
		}
	})
}

// loginTo connects as user to dbname (password "pw-"+user).
func loginTo(addr, user, dbname string) (*pgx.Conn, error) {
	host, port, _ := net.SplitHostPort(addr)
	return pgxConnect("host=" + host + " port=" + port + " user=" + user + " password=pw-" + user + " dbname='" + dbname + "' sslmode=disable")
}

func mustLogin(t *testing.T, addr, user, dbname string) *pgx.Conn {
	t.Helper()
	c, err := loginTo(addr, user, dbname)
	if err != nil {
		t.Fatalf("%s to %s: %v", user, dbname, err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// wantRefused checks a statement fails with SQLSTATE state and the vsql
// code in its message, with a hint.
func wantRefused(t *testing.T, c *pgx.Conn, q, state, code string) {
	t.Helper()
	_, err := c.Exec(context.Background(), q)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Errorf("%s: want %s [vsql:%s], got %v", q, state, code, err)
		return
	}
	if pe.Code != state || !strings.Contains(pe.Message, "[vsql:"+code+"]") || pe.Hint == "" {
		t.Errorf("%s: got %s %q (hint %q), want %s [vsql:%s] with a hint", q, pe.Code, pe.Message, pe.Hint, state, code)
	}
}

// shopDatabase has alice (an admin) create database shop with a table t
// of one row, snapshot it and branch dev from it; it returns alice's
// session on shop.
func shopDatabase(t *testing.T, addr string) *pgx.Conn {
	t.Helper()
	admin := mustLogin(t, addr, "alice", "postgres")
	mustExec(t, admin, "CREATE DATABASE shop")
	shop := mustLogin(t, addr, "alice", "shop")
	mustExec(t, shop, "CREATE TABLE t (id int PRIMARY KEY, v text)", "INSERT INTO t VALUES (1, 'a')",
		"SELECT * FROM vsql_create_snapshot()", "SELECT * FROM vsql_create_branch('shop', 'dev')")
	return shop
}

func qstr(t *testing.T, c *pgx.Conn, q string) string {
	t.Helper()
	var s string
	if err := c.QueryRow(context.Background(), q).Scan(&s); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return s
}

// Grants decide who reaches what: a write user reaches only the branches
// granted, a read user only reads, qualified names and vsql_* functions
// are checked like connections, and a revoke stops sessions already open.
func TestGrants(t *testing.T) {
	addr := privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "bob": auth.RoleWrite, "rita": auth.RoleRead}, nil)
	ctx := context.Background()

	// No grant: no connection, as in PostgreSQL (FATAL 42501).
	_, err := loginTo(addr, "bob", "postgres")
	wantSQLState(t, "bob without a grant", err, "42501", "permission denied")

	shop := shopDatabase(t, addr)
	mustExec(t, shop, "SELECT * FROM vsql_grant('shop', 'bob', 'write', branch => 'dev')")
	mustExec(t, shop, "SELECT * FROM vsql_grant('shop', 'rita', 'read')")
	wantRefused(t, shop, "SELECT * FROM vsql_grant('shop', 'nobody', 'read')", "42704", "user_not_found")
	wantRefused(t, shop, "SELECT * FROM vsql_grant('shop', 'bob', 'owner')", "22023", "invalid_argument")

	// bob: writes dev, cannot reach main, not even by qualified name.
	dev := mustLogin(t, addr, "bob", "shop/dev")
	mustExec(t, dev, "INSERT INTO t VALUES (2, 'b')")
	if got := qstr(t, dev, "SELECT current_user"); got != "bob" {
		t.Errorf("current_user = %q, want bob", got)
	}
	_, err = loginTo(addr, "bob", "shop")
	wantSQLState(t, "bob to main", err, "42501", "permission denied")
	wantRefused(t, dev, "SELECT * FROM shop.t", "42501", "permission_denied")
	wantRefused(t, dev, `SELECT * FROM "shop/main".t`, "42501", "permission_denied")
	wantRefused(t, dev, `SELECT * FROM "postgres".main.pg_x`, "42501", "permission_denied")
	wantRefused(t, dev, "SELECT * FROM vsql_diff('shop', 'main', 'dev')", "42501", "permission_denied")
	wantRefused(t, dev, "SELECT * FROM vsql_restore('shop', 'dev', snapshot => 1)", "42501", "permission_denied")
	wantRefused(t, dev, "SELECT * FROM vsql_grant('shop', 'bob', 'admin')", "42501", "permission_denied")
	wantRefused(t, dev, "CREATE DATABASE bobs", "42501", "permission_denied")
	wantRefused(t, dev, "SET vsql_merge_max_concurrent = 1", "42501", "permission_denied")
	mustExec(t, dev, "SELECT * FROM vsql_create_snapshot()")
	var branches int
	if err := dev.QueryRow(ctx, "SELECT count(*) FROM vsql_branches('shop')").Scan(&branches); err != nil || branches != 1 {
		t.Errorf("bob sees %d branches (%v), want only dev", branches, err)
	}

	// rita: reads everything of shop, writes nothing.
	ro := mustLogin(t, addr, "rita", "shop")
	if got := qstr(t, ro, "SELECT v FROM t WHERE id = 1"); got != "a" {
		t.Errorf("rita reads %q", got)
	}
	if got := qstr(t, ro, `SELECT count(*)::text FROM "shop/dev".t`); got != "2" {
		t.Errorf("rita reads dev: %q", got)
	}
	for _, q := range []string{
		"INSERT INTO t VALUES (3, 'c')",
		"UPDATE t SET v = 'x'",
		"DELETE FROM t",
		"CREATE TABLE u (a int)",
		"DROP TABLE t",
		`INSERT INTO "shop/dev".t VALUES (9, 'z')`,
		"SELECT * FROM vsql_create_snapshot()",
		"SELECT * FROM vsql_create_branch('shop', 'rita')",
		"SELECT * FROM vsql_merge_branch('shop', 'main', 'dev', 'main')",
		"SELECT * FROM vsql_grant('shop', 'rita', 'write')",
		"SELECT * FROM vsql_set_branch_protection('shop', 'main')",
	} {
		wantRefused(t, ro, q, "42501", "permission_denied")
	}
	mustExec(t, ro, "CREATE TEMP TABLE scratch AS SELECT * FROM t") // temp objects are the session's own
	if got := qstr(t, ro, "SELECT has_table_privilege('t', 'SELECT')::text || has_table_privilege('t', 'INSERT')::text"); got != "truefalse" {
		t.Errorf("has_table_privilege for rita: %s", got)
	}
	if got := qstr(t, ro, "SELECT rolsuper::text FROM pg_roles WHERE rolname = current_user"); got != "false" {
		t.Errorf("pg_roles.rolsuper for rita: %s", got)
	}
	if got := qstr(t, ro, "SELECT has_database_privilege('postgres', 'CONNECT')::text || has_database_privilege('shop', 'CONNECT')::text"); got != "falsetrue" {
		t.Errorf("has_database_privilege for rita: %s", got)
	}
	var own int
	if err := ro.QueryRow(ctx, "SELECT count(*) FROM vsql_privileges('shop')").Scan(&own); err != nil || own != 1 {
		t.Errorf("rita sees %d grants (%v), want her own", own, err)
	}
	if err := shop.QueryRow(ctx, "SELECT count(*) FROM vsql_privileges('shop')").Scan(&own); err != nil || own != 2 {
		t.Errorf("alice sees %d grants (%v), want 2", own, err)
	}
	if got := qstr(t, shop, "SELECT has_table_privilege('t', 'INSERT')::text || (SELECT rolsuper::text FROM pg_roles WHERE rolname = current_user)"); got != "truetrue" {
		t.Errorf("alice's privileges: %s", got)
	}

	// A revoke counts at once, for statements prepared before it too.
	stmt, err := dev.Prepare(ctx, "ins", "INSERT INTO t VALUES ($1, 'p')")
	if err != nil {
		t.Fatal(err)
	}
	var left *string
	if err := shop.QueryRow(ctx, "SELECT privilege FROM vsql_revoke('shop', 'bob', 'write', branch => 'dev')").Scan(&left); err != nil || left == nil || *left != "read" {
		t.Fatalf("revoke write: %v %v", left, err)
	}
	_, err = dev.Exec(ctx, stmt.Name, 10)
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42501" {
		t.Errorf("prepared INSERT after revoke: %v", err)
	}
	if got := qstr(t, dev, "SELECT count(*)::text FROM t"); got != "2" {
		t.Errorf("bob still reads dev: %q", got)
	}
	if err := shop.QueryRow(ctx, "SELECT privilege FROM vsql_revoke('shop', 'bob', 'read', branch => 'dev')").Scan(&left); err != nil || left != nil {
		t.Fatalf("revoke read: %v %v", left, err)
	}
	wantRefused(t, dev, "SELECT 1 FROM t", "42501", "permission_denied")
}

// A protected branch changes only by merges: writes are refused to
// everyone (admins too), restores and deletes as well, and a merge by a
// user with merge moves it.
func TestProtectedBranch(t *testing.T) {
	addr := privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "bob": auth.RoleWrite, "mia": auth.RoleWrite}, nil)
	ctx := context.Background()
	shop := shopDatabase(t, addr)
	mustExec(t, shop, "SELECT * FROM vsql_grant('shop', 'bob', 'write')")
	mustExec(t, shop, "SELECT * FROM vsql_grant('shop', 'mia', 'merge')")
	mustExec(t, shop, "SELECT * FROM vsql_set_branch_protection('shop', 'main', protected => true)")
	var protected bool
	if err := shop.QueryRow(ctx, "SELECT protected FROM vsql_branches('shop') WHERE branch_name = 'main'").Scan(&protected); err != nil || !protected {
		t.Errorf("vsql_branches.protected of main: %v %v", protected, err)
	}

	bob := mustLogin(t, addr, "bob", "shop")
	wantRefused(t, bob, "INSERT INTO t VALUES (2, 'b')", "42501", "branch_protected")
	wantRefused(t, shop, "INSERT INTO t VALUES (2, 'b')", "42501", "branch_protected")
	wantRefused(t, shop, "SELECT * FROM vsql_restore('shop', 'main', snapshot => 1)", "42501", "branch_protected")
	wantRefused(t, bob, "SELECT * FROM vsql_merge_branch('shop', 'main', 'dev', 'main')", "42501", "permission_denied")

	bobDev := mustLogin(t, addr, "bob", "shop/dev")
	mustExec(t, bobDev, "INSERT INTO t VALUES (2, 'b')")
	mustExec(t, bobDev, "SELECT * FROM vsql_create_snapshot()")
	mia := mustLogin(t, addr, "mia", "shop/dev")
	var action string
	if err := mia.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch('shop', 'main', 'dev', 'main', request_id => 'm1')").Scan(&action); err != nil {
		t.Fatalf("merge by mia: %v", err)
	}
	if action != "fast_forward" && action != "merged" {
		t.Errorf("merge action %q", action)
	}
	if got := qstr(t, bob, "SELECT count(*)::text FROM t"); got != "2" {
		t.Errorf("main after the merge has %s rows, want 2", got)
	}
	wantRefused(t, mia, "SELECT * FROM vsql_delete_branch('shop', 'main')", "42501", "branch_protected")
	// Lifted, main takes writes again.
	mustExec(t, shop, "SELECT * FROM vsql_set_branch_protection('shop', 'main', protected => false)")
	mustExec(t, bob, "INSERT INTO t VALUES (3, 'c')")
}

// --create-databases write lets write users create databases, which they
// then administer; without it only admins create.
func TestCreateDatabasesPolicy(t *testing.T) {
	addr := privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "bob": auth.RoleWrite, "rita": auth.RoleRead}, func(c *server.Config) {
		c.CreateDatabases = server.CreateDatabasesWrite
	})
	admin := mustLogin(t, addr, "alice", "postgres")
	mustExec(t, admin, "SELECT * FROM vsql_grant('postgres', 'bob', 'read')")
	mustExec(t, admin, "SELECT * FROM vsql_grant('postgres', 'rita', 'read')")
	bob := mustLogin(t, addr, "bob", "postgres")
	mustExec(t, bob, "CREATE DATABASE bobs")
	own := mustLogin(t, addr, "bob", "bobs")
	mustExec(t, own, "CREATE TABLE x (a int PRIMARY KEY)")
	mustExec(t, own, "SELECT * FROM vsql_grant('bobs', 'rita', 'read')")
	rita := mustLogin(t, addr, "rita", "postgres")
	wantRefused(t, rita, "CREATE DATABASE ritas", "42501", "permission_denied")
	wantRefused(t, rita, "DROP DATABASE bobs", "42501", "permission_denied")
	wantRefused(t, bob, "SELECT * FROM vsql_grant('postgres', 'bob', 'write')", "42501", "permission_denied")
}

// What a read-only login sees of itself — current_user, session_user,
// pg_roles.rolsuper, has_table_privilege, has_database_privilege — is what
// PostgreSQL 15 answers for a role granted only SELECT (and CONNECT).
func TestPrivilegeAnswersMatchPostgres(t *testing.T) {
	ctx := context.Background()
	const probe = `SELECT current_user::text, session_user::text,
		(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)::text,
		has_table_privilege('t', 'SELECT')::text, has_table_privilege('t', 'INSERT')::text,
		has_table_privilege('t', 'UPDATE')::text, has_database_privilege('shop', 'CONNECT')::text`

	// PostgreSQL: rita may connect to shop and read t.
	admin := pgtest.Connect(t)
	for _, q := range []string{"DROP DATABASE IF EXISTS shop", "DROP ROLE IF EXISTS rita", "CREATE ROLE rita LOGIN", "CREATE DATABASE shop"} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatalf("PostgreSQL: %s: %v", q, err)
		}
	}
	shopDSN := strings.Replace(pgtest.DSN(t), "dbname=postgres", "dbname=shop", 1)
	owner, err := pgx.Connect(ctx, shopDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	for _, q := range []string{"CREATE TABLE t (id int PRIMARY KEY, v text)", "GRANT SELECT ON t TO rita"} {
		if _, err := owner.Exec(ctx, q); err != nil {
			t.Fatalf("PostgreSQL: %s: %v", q, err)
		}
	}
	pgRita, err := pgx.Connect(ctx, strings.Replace(shopDSN, "user=postgres", "user=rita", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer pgRita.Close(ctx)
	want := rows(t, pgRita, probe)

	// vsqld: rita has the read role and a read grant on shop.
	addr := privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "rita": auth.RoleRead}, nil)
	shop := shopDatabase(t, addr)
	mustExec(t, shop, "SELECT * FROM vsql_grant('shop', 'rita', 'read')")
	got := rows(t, mustLogin(t, addr, "rita", "shop"), probe)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("vsqld answers %v, PostgreSQL 15 %v", got, want)
	}
}
