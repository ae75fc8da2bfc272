package server

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// PostgreSQL's clients connect to a Unix-domain socket when they are given
// no host: psql, libpq's drivers and pgx look for .s.PGSQL.<port> in a
// directory their build names (/var/run/postgresql on Debian, /tmp
// upstream), and a host that starts with a slash names that directory.
// Beside its TCP listener vsqld creates the socket in each of
// Config.UnixSocketDirs, so that `psql -p 5433` reaches it as it reaches
// PostgreSQL. A local client also pays less per statement there than over
// loopback TCP, which runs the whole TCP stack on both sides
// (docs/BENCHMARKS.md, "Point queries").
//
// A client on the socket is a local client, as one on the loopback
// interface is (auth.IsLoopback): the no-users policy trusts it. The
// socket is created with PostgreSQL's default permissions (0777): any
// local user may connect, and authentication decides who gets in, as for
// 127.0.0.1.

// unixSocketName is the socket's file name for port, as PostgreSQL's.
func unixSocketName(port int) string { return ".s.PGSQL." + strconv.Itoa(port) }

// errSocketInUse: another live server answers on the socket's path.
var errSocketInUse = errors.New("in use by another server")

// maxUnixSocketPath is the longest socket path Linux accepts (sun_path
// holds 108 bytes with the terminating NUL).
const maxUnixSocketPath = 107

// listenUnix creates the socket of port in each of Config.UnixSocketDirs.
// A directory that fails is an error, or with UnixSocketDirsOptional a
// log line and no socket there.
func (s *Server) listenUnix(port int) ([]net.Listener, error) {
	var lns []net.Listener
	for _, dir := range s.cfg.UnixSocketDirs {
		ln, err := listenUnixSocket(dir, port)
		if err != nil {
			if s.cfg.UnixSocketDirsOptional {
				// A client given no host may reach the other server there.
				log := s.log.Info
				if errors.Is(err, errSocketInUse) {
					log = s.log.Warn
				}
				log("no Unix-domain socket in this directory", "dir", dir, "reason", err)
				continue
			}
			closeListeners(lns)
			return nil, fmt.Errorf("unix-domain socket in %s: %w", dir, err)
		}
		s.log.Info("vsqld listening", "socket", ln.Addr().String())
		lns = append(lns, ln)
	}
	return lns, nil
}

func closeListeners(lns []net.Listener) {
	for _, ln := range lns {
		ln.Close() // also removes the socket file
	}
}

// listenUnixSocket listens on dir/.s.PGSQL.<port>. A socket file left by
// a server that ended without removing it (its socket refuses
// connections) is replaced; one that a live server answers on, or a file
// that is no socket, is left alone and refused.
func listenUnixSocket(dir string, port int) (net.Listener, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	path := filepath.Join(dir, unixSocketName(port))
	if len(path) > maxUnixSocketPath {
		return nil, fmt.Errorf("socket path %s is longer than the system's limit of %d bytes", path, maxUnixSocketPath)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, fmt.Errorf("%s exists and is not a socket", path)
		}
		c, err := net.DialTimeout("unix", path, time.Second)
		switch {
		case err == nil:
			c.Close()
			return nil, fmt.Errorf("%s: %w", path, errSocketInUse)
		case !errors.Is(err, syscall.ECONNREFUSED):
			return nil, fmt.Errorf("cannot tell whether %s is in use: %w", path, err)
		}
		if err := os.Remove(path); err != nil {
			return nil, fmt.Errorf("remove the stale socket %s: %w", path, err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	// PostgreSQL's default unix_socket_permissions: connecting needs write
	// permission on the socket.
	if err := os.Chmod(path, 0o777); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}
