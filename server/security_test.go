package server_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/server"
)

// guardEnv is a server with an admin (alice), a write user (bob) and a
// read user (rita), a --file-access directory holding x.csv, and a
// snapshot of postgres (so that blocks/ holds a stored block).
type guardEnv struct {
	addr, data, users, fa string
	block                 string // a stored block's path
	admin                 *pgx.Conn
}

func newGuardEnv(t *testing.T, tweak func(*server.Config)) *guardEnv {
	t.Helper()
	e := &guardEnv{fa: t.TempDir()}
	if err := os.WriteFile(filepath.Join(e.fa, "x.csv"), []byte("a,b\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.addr = privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "bob": auth.RoleWrite, "rita": auth.RoleRead}, func(c *server.Config) {
		c.FileAccess = []string{e.fa}
		if tweak != nil {
			tweak(c)
		}
		e.data, e.users = c.DataDir, c.UsersFile
	})
	e.admin = mustLogin(t, e.addr, "alice", "postgres")
	mustExec(t, e.admin,
		"CREATE TABLE t (id int PRIMARY KEY, v text)",
		"INSERT INTO t VALUES (1, 'a'), (2, 'b')",
		"SELECT * FROM vsql_create_snapshot()",
		"SELECT * FROM vsql_grant('postgres', 'bob', 'write')",
		"SELECT * FROM vsql_grant('postgres', 'rita', 'read')")
	_ = filepath.WalkDir(filepath.Join(e.data, "blocks"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && e.block == "" {
			e.block = p
		}
		return nil
	})
	if e.block == "" {
		t.Fatal("no stored block after a snapshot")
	}
	return e
}

func (e *guardEnv) expand(q string) string {
	return strings.NewReplacer("<data>", e.data, "<users>", e.users, "<fa>", e.fa, "<block>", e.block).Replace(q)
}

// snapshot of what the probes must leave alone.
type guardState struct {
	users, block []byte
	memory       string
	threads      string
	faFiles      []string
}

func (e *guardEnv) state(t *testing.T) guardState {
	t.Helper()
	var s guardState
	var err error
	if s.users, err = os.ReadFile(e.users); err != nil {
		t.Fatal(err)
	}
	if s.block, err = os.ReadFile(e.block); err != nil {
		t.Fatal(err)
	}
	s.memory = duckSetting(t, e.admin, "memory_limit")
	s.threads = duckSetting(t, e.admin, "threads")
	entries, _ := os.ReadDir(e.fa)
	for _, d := range entries {
		s.faFiles = append(s.faFiles, d.Name())
	}
	return s
}

// psql 15's \l.
const psqlList = `SELECT
  d.datname as "Name",
  pg_catalog.pg_get_userbyid(d.datdba) as "Owner",
  pg_catalog.pg_encoding_to_char(d.encoding) as "Encoding",
  d.datcollate as "Collate",
  d.datctype as "Ctype",
  d.daticulocale as "ICU Locale",
  CASE d.datlocprovider WHEN 'c' THEN 'libc' WHEN 'i' THEN 'icu' END AS "Locale Provider",
  pg_catalog.array_to_string(d.datacl, E'\n') AS "Access privileges"
FROM pg_catalog.pg_database d
ORDER BY 1`

// guardProbes are the probes and their variants, each with the
// vsql code a write or read session gets.
var guardProbes = []struct{ q, code string }{
	{"SELECT * FROM read_csv('/etc/passwd', header => false)", "permission_denied"},
	{"SELECT * FROM read_text('<data>/users')", "server_file_access"},
	{"SELECT * FROM read_text('<fa>/x.csv')", "permission_denied"},
	{"SELECT * FROM glob('/etc/*')", "permission_denied"},
	{"SELECT * FROM '/etc/passwd'", "server_file_access"},
	{"SELECT * FROM '<fa>/x.csv'", "server_file_access"},
	{`SELECT * FROM "<fa>/x.csv"`, "server_file_access"},
	{"DESCRIBE '<fa>/x.csv'", "server_file_access"},
	{"SUMMARIZE '<fa>/x.csv'", "server_file_access"},
	{"TABLE '<fa>/x.csv'", "server_file_access"},
	{"SELECT exists(FROM '<fa>/x.csv')", "server_file_access"},
	{"SELECT * FROM t JOIN t u ON true, '<fa>/x.csv'", "server_file_access"},
	{"DELETE FROM t USING '<fa>/x.csv' s WHERE t.id = s.a", "server_file_access"},
	{"WITH x AS (FROM '<fa>/x.csv') FROM x", "server_file_access"},
	{"SELECT * FROM histogram('<fa>/x.csv', a)", "permission_denied"},
	{"SELECT * FROM query_table('<fa>/x.csv')", "permission_denied"},
	{"SELECT * FROM \"READ_TEXT\"('<fa>/x.csv')", "permission_denied"},
	{"SELECT * FROM system.main.read_blob('<fa>/x.csv')", "permission_denied"},
	{"SELECT * FROM read_blob('/etc/hostname')", "permission_denied"},
	{"SELECT * FROM parquet_scan('/tmp/x.parquet')", "permission_denied"},
	{"SELECT * FROM sniff_csv('/etc/passwd')", "permission_denied"},
	{"SELECT * FROM duckdb_secrets()", "permission_denied"},
	{"SELECT * FROM duckdb_settings()", "permission_denied"},
	{"SELECT * FROM duckdb_databases", "permission_denied"},
	{"CALL enable_profiling()", "permission_denied"},
	{"COPY (SELECT 1) TO '<block>'", "server_file_access"},
	{"COPY (SELECT 1) TO '<users>'", "server_file_access"},
	{"COPY (SELECT 1) TO '<fa>/out.csv'", "server_file_access"},
	{"COPY t FROM '<fa>/x.csv'", "server_file_access"},
	{"INSTALL x FROM community", "permission_denied"},
	{"LOAD x", "permission_denied"},
	{"FORCE INSTALL httpfs", "permission_denied"},
	{"UPDATE EXTENSIONS", "permission_denied"},
	{"PREPARE p AS INSTALL httpfs", "permission_denied"},
	{"IMPORT DATABASE '<fa>'", "permission_denied"},
	{"PRAGMA import_database('<fa>')", "permission_denied"},
	{"EXPORT DATABASE '<fa>/exp'", "server_file_access"},
	{"SET memory_limit = '20MB'", "permission_denied"},
	{"SET block_allocator_memory = '1GB'", "permission_denied"},
	{"SET GLOBAL TimeZone = 'Asia/Tokyo'", "permission_denied"},
	{"SET schema = 'memory.main'", "permission_denied"},
	{"SET vsql_merge_max_concurrent = 1", "permission_denied"},
	{"SET enable_external_access = false", "permission_denied"},
	{"SET allowed_directories = ['/']", "permission_denied"},
	{"SET lock_configuration = false", "permission_denied"},
	{"SET temp_directory = '/tmp'", "permission_denied"},
	{"SET autoload_known_extensions = true", "permission_denied"},
	{"DROP SCHEMA memory.__vsql_pg CASCADE", "permission_denied"},
	{"DROP VIEW pg_catalog.pg_class", "permission_denied"},
	{"CREATE OR REPLACE VIEW information_schema.tables AS SELECT 1", "permission_denied"},
	{"CREATE TABLE memory.main.x (a int)", "permission_denied"},
	{"ATTACH '<fa>/a.duckdb' AS a", "permission_denied"},
	{"DETACH postgres", "permission_denied"},
	{"USE memory", "permission_denied"},
	{"CHECKPOINT", "permission_denied"},
	{"FORCE CHECKPOINT", "permission_denied"},
	{"PRAGMA database_list", "permission_denied"},
	{"PRAGMA enable_profiling", "permission_denied"},
	{"CREATE SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')", "permission_denied"},
	{"CREATE PERSISTENT SECRET s (TYPE s3, KEY_ID 'a', SECRET 'b')", "permission_denied"},
	{"DROP SECRET s", "permission_denied"},
}

// Every probe of the issue, as a write and as a read user: 42501 with a
// code and a hint, and nothing changed (users file and a stored block
// byte for byte, the process's settings as another session sees them,
// psql's \l, no file written).
func TestGuardProbes(t *testing.T) {
	e := newGuardEnv(t, nil)
	before := e.state(t)
	for _, user := range []string{"bob", "rita"} {
		c := mustLogin(t, e.addr, user, "postgres")
		for _, p := range guardProbes {
			wantRefused(t, c, e.expand(p.q), "42501", p.code)
		}
		for _, q := range []string{"SET threads = 1", "SET GLOBAL threads TO 1", "RESET threads", "PRAGMA threads = 1"} {
			wantRefused(t, c, q, "55P02", "cant_change_runtime_param")
		}
		// extended protocol too (pgx prepares), and a refused statement
		// hidden behind an allowed one in a simple query
		var n int
		err := c.QueryRow(context.Background(), e.expand("SELECT count(*) FROM read_text('<fa>/x.csv')")).Scan(&n)
		wantState(t, err, "42501")
		_, err = c.Exec(context.Background(), "SELECT 1; LOAD httpfs", pgx.QueryExecModeSimpleProtocol)
		wantState(t, err, "42501")
		_, err = c.Exec(context.Background(), "SELECT 1; SET memory_limit = '20MB'", pgx.QueryExecModeSimpleProtocol)
		wantState(t, err, "42501")
		// a refusal inside a transaction block fails it, as in PostgreSQL
		mustExec(t, c, "BEGIN")
		_, err = c.Exec(context.Background(), "SELECT * FROM glob('/etc/*')")
		wantState(t, err, "42501")
		_, err = c.Exec(context.Background(), "SELECT 1")
		wantState(t, err, "25P02")
		mustExec(t, c, "ROLLBACK")
	}
	after := e.state(t)
	if !bytes.Equal(before.users, after.users) {
		t.Error("the users file changed")
	}
	if !bytes.Equal(before.block, after.block) {
		t.Error("a stored block changed")
	}
	if before.memory != after.memory || before.threads != after.threads {
		t.Errorf("settings changed for another session: memory_limit %s → %s, threads %s → %s", before.memory, after.memory, before.threads, after.threads)
	}
	if strings.Join(before.faFiles, ",") != strings.Join(after.faFiles, ",") {
		t.Errorf("files written: %v → %v", before.faFiles, after.faFiles)
	}
	for _, user := range []string{"alice", "bob", "rita"} {
		c := mustLogin(t, e.addr, user, "postgres")
		if got := rows(t, c, psqlList); len(got) == 0 || got[0][0] != "postgres" {
			t.Errorf("\\l as %s after the probes: %v", user, got)
		}
	}
	mustExec(t, e.admin, "CREATE DATABASE afterprobes") // SET enable_external_access broke it once
}

// What write and read sessions keep: queries with the harmless table
// functions, DML and DDL on their database, COPY through the connection,
// vsql's per-session settings, session variables, EXPLAIN, PREPARE, the
// PRAGMAs that describe their tables, and the SQL forms that look like
// file access but are not (EXTRACT(… FROM '…'), IS DISTINCT FROM '…').
func TestGuardAllowsOrdinaryWork(t *testing.T) {
	e := newGuardEnv(t, nil)
	bob := mustLogin(t, e.addr, "bob", "postgres")
	ctx := context.Background()
	mustExec(t, bob,
		"CREATE TABLE b (id int PRIMARY KEY, v text)",
		"INSERT INTO b SELECT i, 'v' || i FROM range(3) r(i)",
		"UPDATE b SET v = 'x' WHERE id = 0",
		"DELETE FROM b WHERE id = 2",
		"CREATE VIEW bv AS SELECT * FROM b",
		"CREATE MACRO twice(x) AS x * 2",
		"SET TimeZone = 'Europe/Berlin'",
		"SET statement_timeout = '10s'",
		"SET search_path = public",
		"SET VARIABLE k = 3",
		"RESET ALL",
		"PREPARE q AS SELECT * FROM b WHERE id = $1",
		"EXECUTE q(1)",
		"DEALLOCATE q",
		"EXPLAIN SELECT * FROM b",
		"PRAGMA table_info('b')",
		"SHOW TABLES",
		"DESCRIBE b",
		"ANALYZE",
	)
	wantRows(t, bob, "SELECT count(*) FROM generate_series(1, 4)", [][]string{{"4"}})
	wantRows(t, bob, "SELECT x FROM unnest([1, 2]) u(x) ORDER BY x", [][]string{{"1"}, {"2"}})
	wantRows(t, bob, "SELECT extract(year FROM '2020-01-02'::date), trim(both 'x' FROM 'xax'), 1 IS DISTINCT FROM 2, getvariable('k')", [][]string{{"2020", "a", "true", "3"}})
	wantRows(t, bob, "SELECT histogram(v) IS NOT NULL FROM b", [][]string{{"true"}})
	wantRows(t, bob, "SELECT twice(id) FROM bv ORDER BY 1", [][]string{{"0"}, {"2"}})
	wantRows(t, bob, "SELECT count(*) FROM pg_catalog.pg_class WHERE relname = 'b'", [][]string{{"1"}})
	wantRows(t, bob, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'b'", [][]string{{"1"}})
	wantRows(t, bob, "SELECT '/etc/passwd' AS path", [][]string{{"/etc/passwd"}})
	if _, err := copyIn(t, bob, "COPY b FROM STDIN", "7\tseven\n"); err != nil {
		t.Fatalf("COPY FROM STDIN: %v", err)
	}
	if got := copyOut(t, bob, "COPY (SELECT v FROM b WHERE id = 7) TO STDOUT"); got != "seven\n" {
		t.Errorf("COPY TO STDOUT: %q", got)
	}
	var branches int
	if err := bob.QueryRow(ctx, "SELECT count(*) FROM vsql_branches('postgres')").Scan(&branches); err != nil {
		t.Errorf("vsql_branches: %v", err)
	}
	rita := mustLogin(t, e.addr, "rita", "postgres")
	wantRows(t, rita, "SELECT count(*) FROM t", [][]string{{"2"}})
	if _, err := copyIn(t, rita, "COPY memory.main.x FROM STDIN", "1\n"); err == nil {
		t.Error("COPY into the engine's memory catalog was accepted")
	}
}

// Admins reach server files in --file-access directories and nowhere
// else; repository paths are refused even to them; they may change the
// process's tuning settings, not those that undo the protection.
func TestGuardAdmin(t *testing.T) {
	e := newGuardEnv(t, nil)
	a := e.admin
	ctx := context.Background()
	mustExec(t, a, e.expand("COPY (SELECT 42 AS a) TO '<fa>/out.csv' (HEADER)"))
	wantRows(t, a, e.expand("SELECT a FROM read_csv('<fa>/out.csv')"), [][]string{{"42"}})
	wantRows(t, a, e.expand("SELECT count(*) FROM glob('<fa>/*.csv')"), [][]string{{"2"}})
	wantRows(t, a, e.expand("SELECT b FROM '<fa>/x.csv'"), [][]string{{"2"}})
	mustExec(t, a, e.expand("CREATE TABLE fromfile AS SELECT * FROM '<fa>/x.csv'"))
	mustExec(t, a, e.expand("EXPORT DATABASE '<fa>/exp'"))
	if _, err := os.Stat(filepath.Join(e.fa, "exp", "schema.sql")); err != nil {
		t.Errorf("EXPORT DATABASE wrote nothing: %v", err)
	}
	// outside --file-access: DuckDB itself refuses (Permission Error)
	for _, q := range []string{
		"SELECT * FROM read_text('/etc/hostname')",
		"SELECT * FROM glob('/etc/*')",
		"COPY (SELECT 1) TO '" + filepath.Join(t.TempDir(), "elsewhere.csv") + "'",
		"SELECT * FROM read_csv('http://127.0.0.1:1/x.csv')",
	} {
		wantRefused(t, a, q, "42501", "server_file_access")
	}
	// the repository, even for admins
	for _, q := range []string{
		"SELECT * FROM read_text('<data>/users')",
		"SELECT * FROM read_text('<users>')",
		"SELECT * FROM read_blob('<data>/catalog.db')",
		"SELECT * FROM read_blob('<block>')",
		"COPY (SELECT 1) TO '<block>'",
		"COPY (SELECT 1) TO '<users>'",
		"COPY (SELECT 1) TO 'file://<data>/live/x.csv'",
		"SELECT * FROM glob('<data>/live/*')",
		"SELECT * FROM glob('<data>/../*')",
		"SELECT * FROM read_text('<fa>/../" + filepath.Base(e.data) + "/users')",
		"SELECT * FROM \"<data>/live/postgres\"",
		"EXPORT DATABASE '<data>/cache/exp'",
	} {
		wantRefused(t, a, e.expand(q), "42501", "server_file_access")
	}
	// settings: tuning yes, protection no
	mustExec(t, a, "SET memory_limit = '512MB'", "SET preserve_insertion_order = false")
	other := mustLogin(t, e.addr, "alice", "postgres")
	if got := duckSetting(t, other, "preserve_insertion_order"); got != "false" {
		t.Errorf("preserve_insertion_order seen from another session: %s", got)
	}
	mustExec(t, a, "RESET memory_limit", "RESET preserve_insertion_order")
	// DuckDB's threads are vsqld's own (--threads), for admins too.
	for _, q := range []string{"SET threads = 3", "RESET threads", "SET GLOBAL external_threads = 1"} {
		wantRefused(t, a, q, "55P02", "cant_change_runtime_param")
	}
	for _, q := range []string{
		"SET enable_external_access = true",
		"SET allowed_directories = ['/']",
		"SET allowed_paths = ['/etc/passwd']",
		"SET lock_configuration = false",
		"SET temp_directory = '/tmp'",
		"SET secret_directory = '/tmp'",
		"SET extension_directory = '/tmp'",
		"SET allow_community_extensions = true",
		"SET autoinstall_known_extensions = true",
		"PRAGMA enable_external_access = true",
		"INSTALL httpfs",
		"LOAD httpfs",
		"IMPORT DATABASE '<fa>/exp'",
		"DROP SCHEMA memory.__vsql_pg CASCADE",
		"DROP VIEW pg_catalog.pg_database",
		"ALTER VIEW information_schema.tables RENAME TO x",
	} {
		wantRefused(t, a, e.expand(q), "42501", "permission_denied")
	}
	// DuckDB's lock: a setting outside the admin list
	wantRefused(t, a, "SET enable_http_metadata_cache = true", "42501", "permission_denied")
	if got := rows(t, a, psqlList); len(got) == 0 || got[0][0] != "postgres" {
		t.Errorf("\\l after the admin probes: %v", got)
	}
	var n int
	if err := a.QueryRow(ctx, "SELECT count(*) FROM duckdb_settings()").Scan(&n); err != nil || n == 0 {
		t.Errorf("admins keep DuckDB's table functions: %d %v", n, err)
	}
}

// With no users configured, loopback sessions are admins: the tests of the
// rest of the suite run so, and server files follow the admin rules.
func TestGuardTrustedLoopbackIsAdmin(t *testing.T) {
	fa := t.TempDir()
	addr := startServer(t, func(c *server.Config) { c.FileAccess = []string{fa} })
	c := connectPgx(t, addr)
	mustExec(t, c, "COPY (SELECT 1 AS a) TO '"+filepath.Join(fa, "one.csv")+"'", "SET memory_limit = '1GB'", "RESET memory_limit")
	wantRefused(t, c, "SELECT * FROM read_text('/etc/hostname')", "42501", "server_file_access")
}

// --file-access must not hand out the repository or the users file.
func TestGuardFileAccessOverlap(t *testing.T) {
	data := t.TempDir()
	for _, dir := range []string{data, filepath.Dir(data), filepath.Join(data, "live")} {
		_ = os.MkdirAll(dir, 0o755)
		_, err := server.Open(context.Background(), server.Config{DataDir: data, FileAccess: []string{dir}})
		if err == nil || !strings.Contains(err.Error(), "file-access") {
			t.Errorf("--file-access %s: got %v, want a refusal", dir, err)
		}
	}
	_, err := server.Open(context.Background(), server.Config{DataDir: data, FileAccess: []string{filepath.Join(data, "nope", "missing")}})
	if err == nil {
		t.Error("a missing --file-access directory was accepted")
	}
}

// duckSetting reads a DuckDB setting (current_setting is PostgreSQL's,
// per session).
func duckSetting(t *testing.T, c *pgx.Conn, name string) string {
	t.Helper()
	return qstr(t, c, "SELECT value FROM duckdb_settings() WHERE name = '"+name+"'")
}

func wantState(t *testing.T, err error, state string) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != state {
		t.Errorf("got %v, want SQLSTATE %s", err, state)
	}
}

// --allow-extensions: admins may LOAD (DuckDB's external access stays on,
// as DuckDB loads nothing without it), write and read sessions are still
// kept from every file by the classification, and the repository from all.
func TestGuardAllowExtensions(t *testing.T) {
	e := newGuardEnv(t, func(c *server.Config) { c.AllowExtensions = true })
	_, err := e.admin.Exec(context.Background(), "LOAD '"+filepath.Join(e.fa, "missing.duckdb_extension")+"'")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code == "42501" {
		t.Errorf("LOAD as admin with --allow-extensions: %v, want DuckDB's own error for the missing file", err)
	}
	wantRefused(t, e.admin, e.expand("SELECT * FROM read_text('<users>')"), "42501", "server_file_access")
	bob := mustLogin(t, e.addr, "bob", "postgres")
	for _, q := range []string{"LOAD httpfs", "SELECT * FROM read_text('/etc/hostname')", "SELECT * FROM '/etc/hostname'"} {
		_, err := bob.Exec(context.Background(), q)
		wantState(t, err, "42501")
	}
}
