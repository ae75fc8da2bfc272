package difftest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/vsql/vsql/server"
)

// childEnv names the environment variable that turns the runner's own
// executable into a vsqld: its value is the repository directory.
const childEnv = "VSQL_DIFFTEST_VSQLD_DATA"

// ChildMain runs a vsqld and exits when the process was started by
// StartVsqld (the environment says so); otherwise it returns at once. Call
// it first thing in main (and in TestMain), so a crash of vsqld is a crash
// of a child process the runner can see and restart, not of the runner.
func ChildMain() {
	data := os.Getenv(childEnv)
	if data == "" {
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := server.Open(ctx, server.Config{
		Listen: "127.0.0.1:0", DataDir: data, Threads: 2, MemoryLimit: "4GB",
		ShutdownTimeout: 5 * time.Second, Logger: logger,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "vsqld:", err)
		os.Exit(1)
	}
	err = srv.Serve(ctx, func(a net.Addr) { fmt.Printf("LISTEN %s\n", a) })
	if err != nil {
		fmt.Fprintln(os.Stderr, "vsqld:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Vsqld is a vsqld running as a child process on a repository of its own.
type Vsqld struct {
	Data string // repository
	Addr string
	log  string
	cmd  *exec.Cmd
	done chan error
	// Exit is the child's exit status once it died ("" while it runs).
	Exit string
}

// StartVsqld starts a vsqld child process on the repository data (made if
// absent), logging to data/../vsqld.log, and waits until it listens.
func StartVsqld(data string) (*Vsqld, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		return nil, err
	}
	v := &Vsqld{Data: data, log: filepath.Join(filepath.Dir(data), "vsqld.log"), done: make(chan error, 1)}
	logf, err := os.OpenFile(v.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	v.cmd = exec.Command(exe)
	v.cmd.Env = append(os.Environ(), childEnv+"="+data)
	v.cmd.Stderr = logf
	out, err := v.cmd.StdoutPipe()
	if err != nil {
		logf.Close()
		return nil, err
	}
	if err := v.cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "LISTEN "); ok {
				addr <- a
			}
		}
		io.Copy(io.Discard, out)
	}()
	go func() {
		err := v.cmd.Wait()
		logf.Close()
		v.done <- err
	}()
	select {
	case v.Addr = <-addr:
		return v, nil
	case err := <-v.done:
		v.done <- err
		return nil, fmt.Errorf("vsqld exited at start: %v (log %s)", err, v.log)
	case <-time.After(2 * time.Minute):
		v.cmd.Process.Kill()
		return nil, errors.New("vsqld did not start within 2 minutes")
	}
}

// Alive says whether the child still runs; once it died, Exit says how.
func (v *Vsqld) Alive() bool {
	if v.Exit != "" {
		return false
	}
	select {
	case err := <-v.done:
		v.Exit = fmt.Sprint(err)
		if err == nil {
			v.Exit = "exit status 0"
		}
		return false
	default:
		return true
	}
}

// LogTail is the end of the child's log (what it printed when it died).
func (v *Vsqld) LogTail(n int) string {
	b, _ := os.ReadFile(v.log)
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}

// Stop ends the child (SIGTERM, then SIGKILL after 10 s).
func (v *Vsqld) Stop() {
	if !v.Alive() {
		return
	}
	_ = v.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-v.done:
	case <-time.After(10 * time.Second):
		_ = v.cmd.Process.Kill()
		<-v.done
	}
	v.Exit = "stopped"
}

// DSN is a connection string for database db.
func (v *Vsqld) DSN(db string) string {
	host, port, _ := net.SplitHostPort(v.Addr)
	return fmt.Sprintf("host=%s port=%s user=tester dbname=%s sslmode=disable", host, port, db)
}
