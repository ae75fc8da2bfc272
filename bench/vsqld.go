package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// buildVsqld builds cmd/vsqld of this module into dir.
func buildVsqld(ctx context.Context, dir string) (string, error) {
	out := filepath.Join(dir, "vsqld")
	cmd := exec.CommandContext(ctx, goTool(), "build", "-o", out, "github.com/vsql/vsql/cmd/vsqld")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build vsqld: %v\n%s", err, msg)
	}
	return out, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// server is a vsqld process started by the benchmark.
type server struct {
	cmd   *exec.Cmd
	flags []string
	port  int
	data  string
	// socketDir holds its Unix-domain socket, .s.PGSQL.<port>.
	socketDir string
	log       string
	done      chan error
	// exited is set when the process ended, before stop asked it to:
	// what a failed section reports (exitedServers).
	exited  atomic.Bool
	stopped atomic.Bool
	ready   atomic.Bool // it accepted a connection (startVsqld returned it)
	exitErr error
}

func (b *bench) startVsqld(ctx context.Context, flags ...string) (*server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	data, err := os.MkdirTemp(b.tmp, "data-")
	if err != nil {
		return nil, err
	}
	// Its Unix-domain socket in the data directory's parent, the
	// benchmark's own temporary directory (never the system's default
	// ones).
	s := &server{port: port, flags: flags, data: data, log: data + ".log", socketDir: b.tmp, done: make(chan error, 1)}
	b.servers = append(b.servers, s)
	logf, err := os.Create(s.log)
	if err != nil {
		return nil, err
	}
	s.cmd = exec.Command(b.bin, append([]string{"serve", "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--data", data,
		"--unix-socket-dir", s.socketDir, "--log-level", "warn"}, flags...)...)
	s.cmd.Stdout, s.cmd.Stderr = logf, logf
	if err := s.cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	go func() {
		err := s.cmd.Wait()
		if !s.stopped.Load() {
			s.exitErr = err
			s.exited.Store(true)
		}
		logf.Close()
		s.done <- err
	}()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		c, err := s.connect(ctx, "postgres")
		if err == nil {
			c.Close(ctx)
			s.ready.Store(true)
			if b.allocator == "" && len(flags) == 0 {
				b.allocator = allocatorOf(s.pid())
			}
			return s, nil
		}
		select {
		case werr := <-s.done:
			return nil, fmt.Errorf("vsqld exited at start: %v: %s", werr, tail(s.log))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			s.stop()
			return nil, fmt.Errorf("vsqld did not accept connections: %v", err)
		}
	}
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// allocatorOf names the C allocator mapped into process pid: tcmalloc
// and its library, or glibc's malloc.
func allocatorOf(pid int) string {
	maps, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(maps), "\n") {
		if i := strings.Index(line, "/"); i >= 0 && strings.Contains(line[i:], "libtcmalloc") {
			return "tcmalloc (" + line[i:] + ")"
		}
	}
	return "the C library's malloc"
}

func (s *server) dsn(db string) string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=bench dbname='%s' sslmode=disable", s.port, db)
}

// startConnected starts a vsqld and connects to its postgres database;
// done closes the connection and stops the server.
func (b *bench) startConnected(ctx context.Context, flags ...string) (*server, *pgx.Conn, func(), error) {
	s, err := b.startVsqld(ctx, flags...)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := s.connect(ctx, "postgres")
	if err != nil {
		s.stop()
		return nil, nil, nil, err
	}
	return s, c, func() { c.Close(ctx); s.stop() }, nil
}

func (s *server) connect(ctx context.Context, db string) (*pgx.Conn, error) {
	return pgx.Connect(ctx, s.dsn(db))
}

// connectUnix connects over the server's Unix-domain socket.
func (s *server) connectUnix(ctx context.Context, db string) (*pgx.Conn, error) {
	return pgx.Connect(ctx, fmt.Sprintf("host=%s port=%d user=bench dbname='%s'", s.socketDir, s.port, db))
}

// peak is VmHWM of the process, in bytes.
func peak(pid int) (int64, error) { return procStatus(pid, "VmHWM:") }

// procCPU is the CPU time (user and system) the process has used, in ms,
// at the 10 ms resolution of /proc's clock ticks.
func procCPU(pid int) (float64, error) {
	// utime and stime are fields 14 and 15 of stat.
	ticks, err := procStat(pid, 14, 15)
	return ticks * 10, err
}

// procFaults is the process's minor page faults so far.
func procFaults(pid int) (float64, error) { return procStat(pid, 10) }

// procStat sums the numeric fields of /proc/<pid>/stat at the given
// positions (1-based, as proc(5) numbers them).
func procStat(pid int, fields ...int) (float64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	// After the command (field 2, in parentheses) comes the state, field 3.
	rest := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	var sum float64
	for _, f := range fields {
		if f-3 >= len(rest) {
			return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(rest)+2)
		}
		x, err := strconv.ParseFloat(rest[f-3], 64)
		if err != nil {
			return 0, err
		}
		sum += x
	}
	return sum, nil
}

// rss is VmRSS of the process, in bytes.
func rss(pid int) (int64, error) { return procStatus(pid, "VmRSS:") }

// procStatus reads a size in kB from /proc/<pid>/status, in bytes.
func procStatus(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, field) {
			f := strings.Fields(line)
			kb, err := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024, err
		}
	}
	return 0, errors.New("no " + field + " in /proc status")
}

// stop ends vsqld with SIGTERM (a graceful shutdown), then SIGKILL.
func (s *server) stop() error {
	s.stopped.Store(true)
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.done:
		return err
	case <-time.After(time.Minute):
		_ = s.cmd.Process.Kill()
		return fmt.Errorf("vsqld did not stop within a minute: %v", <-s.done)
	}
}

// exitedServers describes the vsqlds that ended on their own since the
// last call, with the end of their logs: why a section's clients lost
// their connections.
func (b *bench) exitedServers() string {
	var w strings.Builder
	for _, s := range b.servers {
		if s.ready.Load() && s.exited.Load() {
			fmt.Fprintf(&w, "vsqld %s (pid %d) ended on its own: %v; its log ends:\n%s\n", strings.Join(s.flags, " "), s.pid(), s.exitErr, tail(s.log))
		}
	}
	b.servers = nil
	return w.String()
}

// tail is the end of a log file, for error messages. When the log holds a
// Go crash report, the report's start (the signal, the faulting address,
// the frame that crashed) comes first, with the lines logged before it:
// the end alone shows only the last goroutine's frames and the registers.
func tail(path string) string {
	b, _ := os.ReadFile(path)
	const end = 2000
	for _, marker := range []string{"\nSIGSEGV", "\nSIGBUS", "\nSIGABRT", "\nfatal error:", "\npanic:"} {
		i := strings.Index(string(b), marker)
		if i < 0 {
			continue
		}
		from, to := max(0, i-1000), min(len(b), i+4000)
		if to+end >= len(b) {
			return string(b[from:])
		}
		return string(b[from:to]) + "\n…\n" + string(b[len(b)-end:])
	}
	if len(b) > end {
		b = b[len(b)-end:]
	}
	return string(b)
}

// exec runs statements in order on c.
func execAll(ctx context.Context, c *pgx.Conn, stmts ...string) error {
	for _, q := range stmts {
		if _, err := c.Exec(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", abbrev(q), err)
		}
	}
	return nil
}

func abbrev(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if len(q) > 120 {
		return q[:120] + "…"
	}
	return q
}

// timed runs f and returns its duration.
func timed(f func() error) (time.Duration, error) {
	t0 := time.Now()
	err := f()
	return time.Since(t0), err
}
