package server_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/server"
)

// wantError checks a statement's (or connection's) error: SQLSTATE, and
// text the message contains.
func wantError(t *testing.T, what string, err error, state string, msgs ...string) {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Errorf("%s: want SQLSTATE %s, got %v", what, state, err)
		return
	}
	if pe.Code != state {
		t.Errorf("%s: got %s %q, want SQLSTATE %s", what, pe.Code, pe.Message, state)
	}
	for _, m := range msgs {
		if !strings.Contains(pe.Message, m) {
			t.Errorf("%s: message %q lacks %q", what, pe.Message, m)
		}
	}
	if pe.Hint == "" {
		t.Errorf("%s: no hint", what)
	}
}

// Seven clients that stall at different steps of startup (silent, in the
// TLS handshake, after it, in the middle of the startup packet, in the
// SASL exchange) are disconnected once --authentication-timeout (2 s) has passed, well
// within 4 s, with a FATAL 08006 where it can be written; meanwhile they
// hold no connection slot, and ordinary clients connect.
func TestAuthenticationTimeout(t *testing.T) {
	users := filepath.Join(t.TempDir(), "users")
	addUser(t, users, "alice", "pw-alice")
	p := newPKI(t)
	addr, _ := runServer(t, server.Config{DataDir: t.TempDir(), UsersFile: users, TLSCert: p.certFile, TLSKey: p.keyFile,
		AuthenticationTimeout: 2 * time.Second, MaxConnections: 3})

	type stalled struct {
		name  string
		nc    net.Conn
		fatal bool // a FATAL authentication_timeout is expected
	}
	var socks []stalled
	dial := func(name string, fatal bool, send []byte, handshake bool) {
		var nc net.Conn
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		if send != nil {
			if _, err := nc.Write(send); err != nil {
				t.Fatal(err)
			}
		}
		if handshake {
			var s [1]byte
			if _, err := io.ReadFull(nc, s[:]); err != nil || s[0] != 'S' {
				t.Fatalf("SSLRequest answered %q %v", s, err)
			}
			tc := tls.Client(nc, &tls.Config{InsecureSkipVerify: true})
			if err := tc.Handshake(); err != nil {
				t.Fatal(err)
			}
			nc = tc
		}
		socks = append(socks, stalled{name, nc, fatal})
	}
	packet := func(code uint32, body []byte) []byte {
		b := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
		b = binary.BigEndian.AppendUint32(b, code)
		return append(b, body...)
	}
	sslRequest := packet(80877103, nil)
	startup := packet(196608, []byte("user\x00alice\x00database\x00postgres\x00\x00"))
	start := time.Now()
	dial("silent 1", true, nil, false)
	dial("silent 2", true, nil, false)
	dial("in the TLS handshake", false, sslRequest, false) // nothing can be written there
	dial("silent after the TLS handshake", true, sslRequest, true)
	dial("half a startup packet", true, startup[:10], false)
	dial("in the SASL exchange 1", true, startup, false)
	dial("in the SASL exchange 2", true, startup, false)

	// An ordinary client still gets in while the seven wait: the stalled
	// ones hold no slot before their startup packet (the two in SASL hold
	// two of the three).
	time.Sleep(200 * time.Millisecond)
	c, err := pgxConnect(authDSN(addr, "alice", "pw-alice", "disable"))
	if err != nil {
		t.Fatalf("ordinary client during the stall: %v", err)
	}
	c.Close(context.Background())

	var wg sync.WaitGroup
	closedAfter := make([]time.Duration, len(socks))
	for i, s := range socks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = s.nc.SetReadDeadline(start.Add(4 * time.Second))
			got, err := io.ReadAll(s.nc)
			closedAfter[i] = time.Since(start)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Errorf("%s: still open after %v", s.name, closedAfter[i])
				return
			}
			if s.fatal && (!bytes.Contains(got, []byte("08006")) || !bytes.Contains(got, []byte("authentication_timeout"))) {
				t.Errorf("%s: got %q, want a FATAL 08006 authentication_timeout", s.name, got)
			}
		}()
	}
	wg.Wait()
	for i, s := range socks {
		if closedAfter[i] < 1900*time.Millisecond {
			t.Errorf("%s: closed after %v, before the timeout", s.name, closedAfter[i])
		}
		t.Logf("%s: closed after %v", s.name, closedAfter[i].Round(time.Millisecond))
	}

	// Every slot is free again: three clients log in at once.
	for i := 0; i < 3; i++ {
		c, err := pgxConnect(authDSN(addr, "alice", "pw-alice", "disable"))
		if err != nil {
			t.Fatalf("ordinary client after the timeout: %v", err)
		}
		defer c.Close(context.Background())
	}
}

// With every slot taken (--max-connections 2) and one session running a
// long query, a CancelRequest still gets through and stops it within 2 s;
// an ordinary connection is still refused with 53300.
func TestCancelWithEverySlotTaken(t *testing.T) {
	addr, _ := runServer(t, server.Config{DataDir: t.TempDir(), MaxConnections: 2})
	ctx := context.Background()
	busy := connectPgx(t, addr)
	connectPgx(t, addr)

	errCh := make(chan error, 1)
	go func() {
		var n int64
		errCh <- busy.QueryRow(ctx, longQuery).Scan(&n)
	}()
	time.Sleep(500 * time.Millisecond) // the query is running
	select {
	case err := <-errCh:
		t.Fatalf("the long query ended early: %v", err)
	default:
	}
	sent := time.Now()
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := busy.PgConn().CancelRequest(cctx); err != nil {
		t.Fatalf("cancel request: %v", err)
	}
	select {
	case err := <-errCh:
		elapsed := time.Since(sent)
		t.Logf("query stopped %v after the CancelRequest", elapsed.Round(time.Millisecond))
		wantError(t, "cancelled query", err, "57014")
		if elapsed > 2*time.Second {
			t.Errorf("cancel took %v", elapsed)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the query was not cancelled within 2 s")
	}
	_, err := pgxConnect(dsn(addr, "postgres"))
	wantError(t, "a third connection", err, "53300", "too_many_connections")
	// The cancelled session is still usable.
	var one int
	if err := busy.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("session after cancel: %v", err)
	}
}

// CREATE DATABASE refuses DuckDB's catalog names and names that differ
// from an existing database only in case, leaves no row behind, and the
// server restarts cleanly afterwards; branch and snapshot names likewise.
func TestCreateDatabaseNames(t *testing.T) {
	data := t.TempDir()
	addr, stop := runServer(t, server.Config{DataDir: data})
	ctx := context.Background()
	admin := connectPgx(t, addr)
	for _, name := range []string{"memory", "system", "temp", "main", "information_schema", "pg_catalog", "public", `"MEMORY"`, `"Temp"`, "__vsql_x"} {
		_, err := admin.Exec(ctx, "CREATE DATABASE "+name)
		wantError(t, "CREATE DATABASE "+name, err, "42939", "reserved_name")
	}
	mustExec(t, admin, `CREATE DATABASE "Abc"`)
	_, err := admin.Exec(ctx, "CREATE DATABASE abc")
	wantError(t, "CREATE DATABASE abc after \"Abc\"", err, "42P04", "database_exists", `"Abc"`)
	_, err = admin.Exec(ctx, `CREATE DATABASE "Abc"`)
	wantError(t, `CREATE DATABASE "Abc" again`, err, "42P04", "already exists")

	abc := connectDB(t, addr, "Abc")
	mustExec(t, abc, "CREATE TABLE t (id INTEGER PRIMARY KEY)", "INSERT INTO t VALUES (1)",
		"SELECT * FROM vsql_create_snapshot(name => 'Base')",
		"SELECT * FROM vsql_create_branch('Abc', 'dev2')")
	_, err = abc.Exec(ctx, "SELECT * FROM vsql_create_branch('Abc', 'Dev2')")
	wantError(t, "branch Dev2 after dev2", err, "42P04", "branch_exists", `"dev2"`)
	_, err = abc.Exec(ctx, "SELECT * FROM vsql_create_snapshot(name => 'base')")
	wantError(t, "snapshot base after Base", err, "42710", "snapshot_exists", `"Base"`)
	abc.Close(ctx)
	admin.Close(ctx)
	stop()

	// The refused names left no catalog rows, and the server starts again.
	addr, _ = runServer(t, server.Config{DataDir: data})
	_, err = pgxConnect(dsn(addr, "memory"))
	wantError(t, "connect to memory", err, "3D000")
	again := connectDB(t, addr, "Abc/dev2")
	var n int
	if err := again.QueryRow(ctx, "SELECT count(*) FROM t").Scan(&n); err != nil || n != 1 {
		t.Fatalf("Abc/dev2 after restart: %d %v", n, err)
	}
}

// A server whose repository holds a damaged database file and a catalog
// row DuckDB cannot attach (a "memory" recorded before names were
// checked) starts, logs both, and serves the other databases; sessions to
// the broken ones get 57P03 database_unavailable.
func TestStartWithUnattachableDatabases(t *testing.T) {
	data := t.TempDir()
	addr, stop := runServer(t, server.Config{DataDir: data})
	admin := connectPgx(t, addr)
	mustExec(t, admin, "CREATE DATABASE good", "CREATE DATABASE bad", "CREATE DATABASE gone")
	for _, db := range []string{"good", "bad", "gone"} {
		mustExec(t, connectDB(t, addr, db), "CREATE TABLE t AS SELECT range AS id FROM range(10)")
	}
	stop()

	live := filepath.Join(data, "live", "bad", "main.duckdb")
	if err := os.WriteFile(live, bytes.Repeat([]byte("not a database "), 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(live + ".wal")
	// A live file that is missing is not recreated empty.
	if err := os.RemoveAll(filepath.Join(data, "live", "gone")); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Open(context.Background(), filepath.Join(data, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := cat.Tx(context.Background(), func(tx *catalog.Tx) error {
		_, err := tx.CreateDatabase(context.Background(), "memory")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	cat.Close()

	var logs syncBuffer
	addr, _ = runServer(t, server.Config{DataDir: data, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	var n int
	if err := connectDB(t, addr, "good").QueryRow(context.Background(), "SELECT count(*) FROM t").Scan(&n); err != nil || n != 10 {
		t.Fatalf("good after restart: %d %v", n, err)
	}
	for _, db := range []string{"bad", "memory", "gone"} {
		_, err := pgxConnect(dsn(addr, db))
		wantError(t, "connect to "+db, err, "57P03", "database_unavailable", db)
		if strings.Contains(err.Error(), data) {
			t.Errorf("connect to %s: the error shows the server's data directory: %v", db, err)
		}
		if !strings.Contains(logs.String(), "db="+db) {
			t.Errorf("the log does not name %s:\n%s", db, logs.String())
		}
	}
	// The damaged database can be dropped, and the name used again.
	mustExec(t, connectPgx(t, addr), "DROP DATABASE bad", "CREATE DATABASE bad")
	if err := connectDB(t, addr, "bad").QueryRow(context.Background(), "SELECT 42").Scan(&n); err != nil || n != 42 {
		t.Fatalf("bad recreated: %d %v", n, err)
	}
}

func kvDSN(addr, db string) string {
	host, port, _ := net.SplitHostPort(addr)
	return "host=" + host + " port=" + port + " user=tester sslmode=disable dbname='" + db + "'"
}

// countingStore is an ObjectStore with no objects that counts the buckets
// it was opened for.
type countingStore struct{}

func (countingStore) Get(context.Context, string) ([]byte, string, error) {
	return nil, "", s3sync.ErrNotFound
}
func (countingStore) GetRange(context.Context, string, int64, int64) ([]byte, error) {
	return nil, s3sync.ErrNotFound
}
func (countingStore) Put(context.Context, string, []byte) (string, error) {
	return "", errors.New("read-only")
}
func (countingStore) PutIf(context.Context, string, []byte, string) (string, error) {
	return "", errors.New("read-only")
}

// A dbname s3://… (or vsql_attach_remote) naming a location that is
// neither a database's remote nor under --allow-remote is refused with
// 42501 before any S3 request; allowed ones reach S3.
func TestRemoteHeadsOnlyWhereAllowed(t *testing.T) {
	var mu sync.Mutex
	opened := map[string]int{}
	addr, _ := runServer(t, server.Config{DataDir: t.TempDir(), AllowRemotes: []string{"s3://ok/team/"},
		OpenBucket: func(ctx context.Context, bucket string) (s3sync.ObjectStore, error) {
			mu.Lock()
			opened[bucket]++
			mu.Unlock()
			return countingStore{}, nil
		}})
	ctx := context.Background()
	for _, head := range []string{
		"s3://evil/x/heads/db/main",
		"s3://ok/teamx/heads/db/main",
		"s3://ok/heads/db/main",
		"s3://ok/team/../other/heads/db/main",
		"s3://ok/team/%2e%2e/other/heads/db/main",
	} {
		_, err := pgxConnect(kvDSN(addr, head))
		wantError(t, "dbname "+head, err, "42501", "permission_denied")
	}
	c := connectPgx(t, addr)
	_, err := c.Exec(ctx, "SELECT * FROM vsql_attach_remote('s3://evil/y/heads/db/main', as => 'x')")
	wantError(t, "vsql_attach_remote of an unlisted location", err, "42501", "permission_denied")
	mu.Lock()
	if len(opened) != 0 {
		t.Errorf("S3 was contacted for refused locations: %v", opened)
	}
	mu.Unlock()

	// Allowed by --allow-remote, and by a database's remote: both reach S3
	// (where these test buckets hold no head).
	_, err = pgxConnect(kvDSN(addr, "s3://ok/team/sub/heads/db/main"))
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42501" {
		t.Errorf("an --allow-remote location was refused: %v", err)
	}
	mustExec(t, c, "SELECT * FROM vsql_set_remote('postgres', 's3://mine/p/')")
	_, err = c.Exec(ctx, "SELECT * FROM vsql_attach_remote('s3://mine/p/heads/postgres/main', as => 'mine')")
	if errors.As(err, &pe) && pe.Code == "42501" {
		t.Errorf("a database's own remote was refused: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if opened["ok"] == 0 || opened["mine"] == 0 || opened["evil"] != 0 {
		t.Errorf("buckets opened: %v", opened)
	}
}
