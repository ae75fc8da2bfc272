// Package pgtest starts a real PostgreSQL 15 for tests that compare vsqld's
// answers with PostgreSQL's own.
//
// Start runs one with given settings (the bench uses it with PostgreSQL's
// defaults, for fair figures). For tests, the server is started once per
// test binary, on first use (DSN, with fsync off and TimeZone UTC), from the
// Debian package's binaries (/usr/lib/postgresql/15/bin, or the directory
// in VSQL_PG_BIN): initdb into a temporary directory, then postgres on a
// free loopback port with trust authentication. PostgreSQL refuses to run
// as root, so as root both run as user nobody through setpriv or runuser.
// Socket gives the directory of its Unix-domain socket instead, for
// clients that connect there. A package that uses it calls Main from its
// TestMain (or StopStarted, from a TestMain of its own), which stops the
// server when the tests are done (PostgreSQL also stops by itself within a
// minute once its data directory is removed).
//
// When the binaries are absent a test is skipped, unless VSQL_REQUIRE_PG is
// set (CI sets it), in which case it fails: CI cannot pass by skipping.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

var (
	once     sync.Once
	started  *Server
	startErr error
)

// Server is a running PostgreSQL that Start made.
type Server struct {
	cmd  *exec.Cmd
	dir  string
	port int
	done chan error
	// How says how it runs (as the current user, or as nobody through
	// setpriv or runuser), for reports.
	How string
}

// Options say how Start runs PostgreSQL.
type Options struct {
	// BinDir holds initdb and postgres ("" = VSQL_PG_BIN, else
	// /usr/lib/postgresql/15/bin).
	BinDir string
	// Settings are postgres -c name=value settings on top of PostgreSQL's
	// defaults.
	Settings []string
	// LogPath receives the server's log ("" = inside its directory).
	LogPath string
}

// ErrNotInstalled is returned (wrapped) by Start when the binaries are
// absent.
var ErrNotInstalled = errors.New("PostgreSQL is not installed")

// Main runs the package's tests and stops PostgreSQL afterwards if a test
// started it. Call it from TestMain: func TestMain(m *testing.M) { pgtest.Main(m) }.
func Main(m *testing.M) {
	code := m.Run()
	StopStarted()
	os.Exit(code)
}

// StopStarted stops the PostgreSQL a test started, if any: for a TestMain
// that does more than Main.
func StopStarted() {
	if started != nil {
		started.Stop()
	}
}

// DSN starts PostgreSQL 15 (once per test binary) and returns a connection
// string for its database postgres as the superuser postgres. It skips the
// test when PostgreSQL is not installed and VSQL_REQUIRE_PG is unset.
func DSN(t testing.TB) string {
	t.Helper()
	once.Do(func() {
		// Tests want speed, not durability, and answers in UTC.
		started, startErr = Start(context.Background(), Options{Settings: []string{"fsync=off", "TimeZone=UTC"}})
	})
	if startErr != nil {
		if errors.Is(startErr, ErrNotInstalled) && os.Getenv("VSQL_REQUIRE_PG") == "" {
			t.Skipf("PostgreSQL 15 is not installed (%v); set VSQL_REQUIRE_PG=1 to make this a failure", startErr)
		}
		t.Fatalf("PostgreSQL 15: %v", startErr)
	}
	return started.DSN()
}

// Socket starts PostgreSQL 15 as DSN does and returns the directory of its
// Unix-domain socket and its port (psql -h dir -p port).
func Socket(t testing.TB) (dir string, port int) {
	t.Helper()
	DSN(t)
	return started.dir, started.port
}

// DSN is a connection string for the database postgres as the superuser
// postgres.
func (s *Server) DSN() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", s.port)
}

// Connect opens a pgx connection to the test PostgreSQL, closed when the
// test ends.
func Connect(t testing.TB) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func binDir(dir string) string {
	if dir != "" {
		return dir
	}
	if d := os.Getenv("VSQL_PG_BIN"); d != "" {
		return d
	}
	return "/usr/lib/postgresql/15/bin"
}

// Start runs initdb into a new temporary directory and postgres on a free
// loopback port, and waits until it accepts connections. Stop ends it.
func Start(ctx context.Context, opts Options) (*Server, error) {
	bin := binDir(opts.BinDir)
	initdb, postgres := filepath.Join(bin, "initdb"), filepath.Join(bin, "postgres")
	for _, p := range []string{initdb, postgres} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("%w (%v); install postgresql-15 or set VSQL_PG_BIN", ErrNotInstalled, err)
		}
	}
	dir, err := os.MkdirTemp("", "vsql-pgtest-")
	if err != nil {
		return nil, err
	}
	var prefix []string
	how := "as the current user"
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and there is no user nobody to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if p, err := exec.LookPath("setpriv"); err == nil {
			prefix = []string{p, "--reuid=" + u.Uid, "--regid=" + u.Gid, "--clear-groups", "--"}
			how = "as user nobody (run as root; through setpriv)"
		} else if p, err := exec.LookPath("runuser"); err == nil {
			prefix = []string{p, "-u", "nobody", "--"}
			how = "as user nobody (run as root; through runuser)"
		} else {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("running as root and neither setpriv nor runuser is installed")
		}
	}
	command := func(args ...string) *exec.Cmd {
		all := append(append([]string{}, prefix...), args...)
		cmd := exec.Command(all[0], all[1:]...)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "HOME=" + dir}
		return cmd
	}
	data := filepath.Join(dir, "data")
	if out, err := command(initdb, "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync").CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	s := &Server{dir: dir, port: port, done: make(chan error, 1), How: how}
	args := []string{postgres, "-D", data, "-p", strconv.Itoa(port), "-k", dir, "-c", "listen_addresses=127.0.0.1"}
	for _, setting := range opts.Settings {
		args = append(args, "-c", setting)
	}
	s.cmd = command(args...)
	logPath := opts.LogPath
	if logPath == "" {
		logPath = filepath.Join(dir, "postgres.log")
	}
	logf, err := os.Create(logPath)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	go func() { s.done <- s.cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(time.Minute)
	for {
		cctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		c, err := pgx.Connect(cctx, s.DSN())
		cancel()
		if err == nil {
			c.Close(context.Background())
			return s, nil
		}
		select {
		case werr := <-s.done:
			log, _ := os.ReadFile(logPath)
			os.RemoveAll(dir)
			return nil, fmt.Errorf("postgres exited at start: %v: %s", werr, log)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.Stop()
			return nil, fmt.Errorf("postgres did not accept connections: %v", err)
		}
	}
}

// Stop shuts PostgreSQL down (SIGINT: fast shutdown) and removes its files.
func (s *Server) Stop() {
	_ = s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
	os.RemoveAll(s.dir)
}
