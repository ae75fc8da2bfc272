package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// postgres is a PostgreSQL server the benchmark started in a temporary
// directory, for the side-by-side figures.
type postgres struct {
	cmd  *exec.Cmd
	port int
	dir  string
	done chan error
	how  string // how it was started, for the report
}

// startPostgres runs initdb and postgres from cfg.pgBin. PostgreSQL refuses
// to run as root, so as root both run as user nobody (setpriv, else
// runuser); the directory is handed to that user.
func (b *bench) startPostgres(ctx context.Context) (*postgres, error) {
	initdb, server := filepath.Join(b.cfg.pgBin, "initdb"), filepath.Join(b.cfg.pgBin, "postgres")
	for _, p := range []string{initdb, server} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("PostgreSQL is not installed here (%v); install postgresql-15 or pass -pg-bin", err)
		}
	}
	// In the system's temporary directory, whose parents the server's user
	// can traverse (b.tmp may sit under a private directory).
	dir, err := os.MkdirTemp("", "vsql-bench-pg-")
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(dir)
		}
	}()
	var prefix []string
	how := "as the current user"
	if os.Geteuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			return nil, fmt.Errorf("running as root, and PostgreSQL refuses root: no user nobody to run it as (%v)", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		if p, err := exec.LookPath("setpriv"); err == nil {
			prefix = []string{p, "--reuid=" + u.Uid, "--regid=" + u.Gid, "--clear-groups", "--"}
			how = "as user nobody (the benchmark runs as root; through setpriv)"
		} else if p, err := exec.LookPath("runuser"); err == nil {
			prefix = []string{p, "-u", "nobody", "--"}
			how = "as user nobody (the benchmark runs as root; through runuser)"
		} else {
			return nil, fmt.Errorf("running as root, and PostgreSQL refuses root: neither setpriv nor runuser is installed to run it as nobody")
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
		return nil, fmt.Errorf("initdb: %v: %s", err, tail2(out))
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	logPath := filepath.Join(b.tmp, "postgres.log")
	logf, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	p := &postgres{port: port, dir: dir, done: make(chan error, 1), how: how}
	p.cmd = command(server, "-D", data, "-p", strconv.Itoa(port), "-k", dir, "-c", "listen_addresses=127.0.0.1")
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if err := p.cmd.Start(); err != nil {
		logf.Close()
		return nil, err
	}
	go func() { p.done <- p.cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(time.Minute)
	for {
		c, err := p.connect(ctx)
		if err == nil {
			c.Close(ctx)
			ok = true
			return p, nil
		}
		select {
		case werr := <-p.done:
			return nil, fmt.Errorf("postgres exited at start: %v: %s", werr, tail(logPath))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			p.stop()
			return nil, fmt.Errorf("postgres did not accept connections: %v", err)
		}
	}
}

func (p *postgres) dsn() string {
	return fmt.Sprintf("host=127.0.0.1 port=%d user=postgres dbname=postgres sslmode=disable", p.port)
}

func (p *postgres) connect(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, p.dsn()) }

// stop shuts PostgreSQL down (SIGINT: fast shutdown).
func (p *postgres) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(time.Minute):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	os.RemoveAll(p.dir)
}

func tail2(b []byte) string {
	if len(b) > 1500 {
		b = b[len(b)-1500:]
	}
	return string(b)
}
