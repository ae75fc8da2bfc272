package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/internal/pgtest"
)

// The vsqld binary the tests start, with fault points compiled in: built
// once per test process (linking it takes about 12 s) into binDir, which
// TestMain removes.
var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopStarted()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// vsqldBinary returns the test binary of vsqld, building it on first use.
func vsqldBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "vsqld-test-"); binErr != nil {
			return
		}
		bin := filepath.Join(binDir, "vsqld")
		out, err := exec.Command("go", "build", "-tags", "vsqlfaults", "-o", bin, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("build vsqld with fault points: %v\n%s", err, out)
			return
		}
		binPath = bin
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type child struct {
	cmd  *exec.Cmd
	addr string
	logs *bytes.Buffer
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func startChild(t *testing.T, bin, data, fault string, flags ...string) *child {
	t.Helper()
	return startChildAt(t, bin, freeAddr(t), data, fault, flags...)
}

// startChildAt starts vsqld listening on addr, with no Unix-domain
// socket unless flags ask for one (a child killed by a test would leave
// its socket in the default directories).
func startChildAt(t *testing.T, bin, addr, data, fault string, flags ...string) *child {
	t.Helper()
	if !slices.ContainsFunc(flags, func(f string) bool { return strings.HasPrefix(f, "--unix-socket-dir") }) {
		flags = append(flags, "--unix-socket-dir", "none")
	}
	c := &child{addr: addr, logs: &bytes.Buffer{}}
	c.cmd = exec.Command(bin, append([]string{"serve", "--listen", c.addr, "--data", data, "--threads", "2"}, flags...)...)
	c.cmd.Env = append(os.Environ(), "VSQL_FAULT="+fault)
	c.cmd.Stdout, c.cmd.Stderr = c.logs, c.logs
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if nc, err := net.Dial("tcp", c.addr); err == nil {
			nc.Close()
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("vsqld did not start:\n%s", c.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (c *child) connect(t *testing.T, db string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), fmt.Sprintf("postgres://t@%s/%s?sslmode=disable", c.addr, db))
	if err != nil {
		t.Fatal(err)
	}
	return conn
}

// stop ends the child gracefully and checks it exits 0.
func (c *child) stop(t *testing.T) {
	t.Helper()
	_ = c.cmd.Process.Signal(os.Interrupt)
	if err := c.cmd.Wait(); err != nil {
		t.Fatalf("vsqld exit: %v\n%s", err, c.logs)
	}
}

func exec1(t *testing.T, conn *pgx.Conn, q string) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func scalar[T any](t *testing.T, conn *pgx.Conn, q string) T {
	t.Helper()
	var v T
	if err := conn.QueryRow(context.Background(), q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

// crashAndRestart starts vsqld with a fault point, runs op until the
// process dies of SIGKILL there, checks that vsqld verify passes, and
// starts vsqld again; it returns the new child and a connection to postgres.
func crashAndRestart(t *testing.T, bin, data, fault, op string) (*child, *pgx.Conn) {
	t.Helper()
	c := startChild(t, bin, data, fault)
	expectKilled(t, c, c.connect(t, "postgres"), fault, op)
	if out, err := runVerify(t, bin, data); err != nil {
		t.Fatalf("verify after crash at %s: %v\n%s", fault, err, out)
	}
	c = startChild(t, bin, data, "")
	return c, c.connect(t, "postgres")
}

// expectKilled runs op on a child started with a fault point and checks
// that the child died of SIGKILL there.
func expectKilled(t *testing.T, c *child, conn *pgx.Conn, fault, op string) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), op); err == nil {
		t.Fatalf("the operation completed: the fault point %s was not reached", fault)
	}
	werr := c.cmd.Wait()
	var exitErr *exec.ExitError
	if !errors.As(werr, &exitErr) || exitErr.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("vsqld was not killed at %s: %v\n%s", fault, werr, c.logs)
	}
}

func runVerify(t *testing.T, bin, data string) (string, error) {
	out, err := exec.Command(bin, "verify", "--data", data).CombinedOutput()
	return string(out), err
}

// The sums of the table before and after the edit the crashing operation
// works on.
const (
	baseSum   = 49995000 // sum(v) over 0..9999
	editedSum = baseSum + 10000
)

// TestCrashDuringSnapshotAndRestore kills vsqld with SIGKILL at each step of
// snapshot creation and restore, restarts it, and checks that verify passes,
// that the snapshot exists whole or not at all, and that the branch's data
// is intact.
func TestCrashDuringSnapshotAndRestore(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	bin := vsqldBinary(t)
	points := []struct {
		fault     string
		restore   bool
		published bool // the crash comes after the catalog commit
	}{
		{"snapshot.after_checkpoint", false, false},
		{"snapshot.after_block", false, false},
		{"snapshot.before_publish", false, false},
		{"snapshot.after_publish", false, true},
		{"restore.after_materialize", true, false},
	}
	for _, p := range points {
		t.Run(p.fault, func(t *testing.T) {
			data := t.TempDir()
			// Set up: a table, snapshot 1, then an edit that is not yet in a snapshot.
			c := startChild(t, bin, data, "")
			conn := c.connect(t, "postgres")
			exec1(t, conn, "CREATE TABLE t (id integer PRIMARY KEY, v bigint)")
			exec1(t, conn, "INSERT INTO t SELECT range, range FROM range(10000)")
			exec1(t, conn, "SELECT * FROM vsql_create_snapshot(name => 'base')")
			exec1(t, conn, "UPDATE t SET v = v + 1")
			conn.Close(context.Background())
			c.stop(t)

			// Crash in the middle of the operation.
			op := "SELECT * FROM vsql_create_snapshot(name => 'second')"
			if p.restore {
				op = "SELECT * FROM vsql_restore('postgres', 'main', snapshot => 'base', force => true)"
			}
			c, conn = crashAndRestart(t, bin, data, p.fault, op)
			defer c.stop(t)
			defer conn.Close(context.Background())
			snaps := scalar[int64](t, conn, "SELECT count(*) FROM vsql_snapshots()")
			sum := scalar[int64](t, conn, "SELECT sum(v) FROM t")
			switch {
			case p.restore:
				// Not published: main keeps its unsnapshotted edit, no new snapshot.
				if snaps != 1 || sum != editedSum {
					t.Errorf("after crash in restore: %d snapshots, sum %d (want 1, %d)", snaps, sum, editedSum)
				}
			case p.published:
				if snaps != 2 {
					t.Fatalf("published snapshot lost: %d snapshots", snaps)
				}
				snap := c.connect(t, "postgres@second")
				defer snap.Close(context.Background())
				if got := scalar[int64](t, snap, "SELECT sum(v) FROM t"); got != editedSum {
					t.Errorf("snapshot 'second' holds sum %d, want %d", got, editedSum)
				}
				if sum != editedSum {
					t.Errorf("branch sum %d, want %d", sum, editedSum)
				}
			default:
				if snaps != 1 {
					t.Errorf("a snapshot interrupted before publication exists: %d snapshots", snaps)
				}
				if sum != editedSum {
					t.Errorf("branch data changed by the crash: sum %d, want %d", sum, editedSum)
				}
			}
			// The first snapshot is whole either way.
			base := c.connect(t, "postgres@base")
			defer base.Close(context.Background())
			if got := scalar[int64](t, base, "SELECT sum(v) FROM t"); got != baseSum {
				t.Errorf("snapshot 'base' holds sum %d, want %d", got, baseSum)
			}
			// And the operation works after the crash (a published snapshot
			// keeps its name, so the retry takes another).
			exec1(t, conn, strings.Replace(op, "'second'", "'retry'", 1))
		})
	}
}

// TestVerifyNamesCorruptBlock flips one byte of one stored block.
func TestVerifyNamesCorruptBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	bin := vsqldBinary(t)
	data := t.TempDir()
	c := startChild(t, bin, data, "")
	conn := c.connect(t, "postgres")
	exec1(t, conn, "CREATE TABLE t AS SELECT range AS id FROM range(1000)")
	exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")
	conn.Close(context.Background())
	c.stop(t)
	if out, err := runVerify(t, bin, data); err != nil {
		t.Fatalf("verify of a healthy repository: %v\n%s", err, out)
	}
	var victim string
	_ = filepath.WalkDir(filepath.Join(data, "blocks"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && victim == "" {
			victim = path
		}
		return nil
	})
	if victim == "" {
		t.Fatal("no block stored")
	}
	b, err := os.ReadFile(victim)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(victim, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runVerify(t, bin, data)
	if err == nil {
		t.Fatalf("verify passed with a corrupt block:\n%s", out)
	}
	if !strings.Contains(out, filepath.Base(victim)) || !strings.Contains(out, "corrupt") {
		t.Errorf("verify did not name the corrupt block %s:\n%s", filepath.Base(victim), out)
	}
}

// TestGCRemovesOnlyUnreferenced: gc refuses to run beside vsqld; offline it
// removes a dropped database's blocks and files and keeps everything a
// snapshot references.
func TestGCRemovesOnlyUnreferenced(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	bin := vsqldBinary(t)
	data := t.TempDir()
	c := startChild(t, bin, data, "")
	conn := c.connect(t, "postgres")
	exec1(t, conn, "CREATE TABLE keep AS SELECT range AS id FROM range(100000)")
	exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")
	exec1(t, conn, "CREATE DATABASE gone")
	gone := c.connect(t, "gone")
	exec1(t, gone, "CREATE TABLE g AS SELECT range * 7 AS id, 'x' || range AS s FROM range(200000)")
	exec1(t, gone, "SELECT * FROM vsql_create_snapshot()")
	gone.Close(context.Background())
	exec1(t, conn, "DROP DATABASE gone")
	out, err := exec.Command(bin, "gc", "--data", data, "--grace", "0s").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "repository_in_use") {
		t.Errorf("gc ran beside a serving vsqld: %v\n%s", err, out)
	}
	conn.Close(context.Background())
	c.stop(t)

	blocksBefore := countFiles(filepath.Join(data, "blocks"))
	out, err = exec.Command(bin, "gc", "--data", data, "--grace", "0s").CombinedOutput()
	if err != nil {
		t.Fatalf("gc: %v\n%s", err, out)
	}
	t.Logf("%s", out)
	blocksAfter := countFiles(filepath.Join(data, "blocks"))
	if blocksAfter >= blocksBefore {
		t.Errorf("gc removed no block of the dropped database (%d → %d)", blocksBefore, blocksAfter)
	}
	if out, err := runVerify(t, bin, data); err != nil {
		t.Fatalf("verify after gc: %v\n%s", err, out)
	}
	c = startChild(t, bin, data, "")
	defer c.stop(t)
	snap := c.connect(t, "postgres@1")
	defer snap.Close(context.Background())
	if n := scalar[int64](t, snap, "SELECT count(*) FROM keep"); n != 100000 {
		t.Errorf("snapshot after gc has %d rows", n)
	}
}

func countFiles(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

// TestCrashDuringMerge kills vsqld at each step of a merge into main. After
// a restart every branch is at its old head or at the complete result,
// verify passes, and retrying the same request_id completes the merge
// exactly once.
func TestCrashDuringMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	bin := vsqldBinary(t)
	// The merge writes into main's live file (in place) unless copy is set;
	// a crash anywhere in place must leave main at a recorded snapshot.
	points := []struct {
		fault     string
		published bool
		copy      bool
	}{
		{"merge.after_comparison", false, false},
		{"merge.inplace_after_mark", false, false},
		{"merge.inplace_after_commit", false, false},
		{"merge.after_application", false, false},
		{"publish.after_blocks", false, false},
		{"publish.after_commit", true, false},
		{"inplace.recover_before_remove", false, false}, // after inplace_after_commit, the first restart dies recovering
		{"merge.after_application", false, true},
		{"publish.before_commit", false, true},
		{"publish.after_commit", true, true},
	}
	for _, p := range points {
		name := p.fault
		merge := "SELECT snapshot_id, merge_action FROM vsql_merge_branch('postgres', 'main', 'side', 'main', request_id => 'crash-merge')"
		if p.copy {
			name += "/copy"
			merge = "SELECT snapshot_id, merge_action FROM vsql_merge_branch('postgres', 'main', 'side', 'main', request_id => 'crash-merge', in_place => false)"
		}
		t.Run(name, func(t *testing.T) {
			data := t.TempDir()
			c := startChild(t, bin, data, "")
			conn := c.connect(t, "postgres")
			exec1(t, conn, "CREATE TABLE t (id integer PRIMARY KEY, a bigint, b bigint)")
			exec1(t, conn, "INSERT INTO t SELECT range, 0, 0 FROM range(10000)")
			exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")                 // 1
			exec1(t, conn, "SELECT * FROM vsql_create_branch('postgres', 'side')") // from 1
			exec1(t, conn, "UPDATE t SET a = 1 WHERE id < 5000")
			exec1(t, conn, "SELECT * FROM vsql_create_snapshot()") // 2: main
			side := c.connect(t, "postgres/side")
			exec1(t, side, "UPDATE t SET b = 2 WHERE id >= 2500")
			exec1(t, side, "SELECT * FROM vsql_create_snapshot()") // 3: side
			side.Close(context.Background())
			conn.Close(context.Background())
			c.stop(t)

			if p.fault == "inplace.recover_before_remove" {
				c = startChild(t, bin, data, "merge.inplace_after_commit")
				expectKilled(t, c, c.connect(t, "postgres"), "merge.inplace_after_commit", merge)
				// The restart dies between rebuilding the branch and
				// removing the old file; the next one must finish the job.
				restart := exec.Command(bin, "serve", "--listen", freeAddr(t), "--data", data, "--threads", "2")
				restart.Env = append(os.Environ(), "VSQL_FAULT="+p.fault)
				err := restart.Run()
				var exitErr *exec.ExitError
				if !errors.As(err, &exitErr) || exitErr.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					t.Fatalf("the restart was not killed while recovering: %v", err)
				}
				c = startChild(t, bin, data, "")
				conn = c.connect(t, "postgres")
			} else {
				c, conn = crashAndRestart(t, bin, data, p.fault, merge)
			}
			defer c.stop(t)
			defer conn.Close(context.Background())
			head := scalar[int64](t, conn, "SELECT head_snapshot_id FROM vsql_branches() WHERE branch_name = 'main'")
			sumA := scalar[int64](t, conn, "SELECT sum(a) FROM t")
			sumB := scalar[int64](t, conn, "SELECT sum(b) FROM t")
			switch {
			case p.published:
				if head != 4 || sumA != 5000 || sumB != 15000 {
					t.Errorf("published merge: head %d, sums %d/%d (want 4, 5000/15000)", head, sumA, sumB)
				}
			default:
				if head != 2 || sumA != 5000 || sumB != 0 {
					t.Errorf("unpublished merge: head %d, sums %d/%d (want 2, 5000/0)", head, sumA, sumB)
				}
			}
			// The retry finishes the request exactly once.
			var id int64
			var action string
			if err := conn.QueryRow(context.Background(), merge).Scan(&id, &action); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if id != 4 || action != "merged" {
				t.Errorf("retry: snapshot %d %s, want 4 merged", id, action)
			}
			if err := conn.QueryRow(context.Background(), merge).Scan(&id, &action); err != nil || id != 4 {
				t.Errorf("second retry: %d %v", id, err)
			}
			merges := scalar[int64](t, conn, "SELECT count(*) FROM vsql_snapshots() WHERE kind = 'merge'")
			if merges != 1 {
				t.Errorf("%d merge snapshots, want exactly 1", merges)
			}
			if got := scalar[int64](t, conn, "SELECT sum(a) + sum(b) FROM t"); got != 20000 {
				t.Errorf("after retry: sum %d, want 20000", got)
			}
			if out, err := runVerify(t, bin, data); err != nil {
				t.Fatalf("verify after retry: %v\n%s", err, out)
			}
		})
	}
}
