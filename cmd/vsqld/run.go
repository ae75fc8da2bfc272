package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/server"
)

// Main runs vsqld; tests call Run directly.
type Main struct {
	Stdout, Stderr io.Writer
	Stdin          io.Reader // passwords for vsqld user add --password-stdin
	Getenv         func(string) string
	// Ready, if set, is called with the listening address once vsqld accepts clients.
	Ready func(addr net.Addr)
}

var errUsage = errors.New("usage")

func exitCode(err error) int {
	if errors.Is(err, errUsage) {
		return 2
	}
	return 1
}

const usage = `vsqld — a PostgreSQL wire-protocol server for versioned DuckDB databases

Usage:
  vsqld [serve] [flags]    start the server (the default subcommand)
  vsqld gc [--data dir] [--grace 1h]
                           remove blocks, images and files no snapshot or branch
                           references (vsqld must not be serving the repository;
                           blocks younger than --grace are kept)
  vsqld verify [--data dir]
                           re-hash every stored block and check every chunk map;
                           exit status 1 and a line per problem if any is found
  vsqld clone s3://bucket/prefix/heads/<db>/<branch> [--as name] [--data dir]
                           copy a remote head into the repository as a new
                           database whose history starts there (vsqld stopped;
                           S3 settings from the AWS SDK's environment)
  vsqld evict [--data dir]  remove snapshot images and the blocks that only snapshots
                           exported to S3 use (vsqld stopped); they are fetched
                           back, verified, when a query or merge needs them
  vsqld user add NAME [--role admin|write|read] [--password-stdin] [--replace]
                           add a user with a role (default write) to the users
                           file; the password is read from the first line of
                           standard input with --password-stdin, else from
                           VSQL_PASSWORD. --replace changes an existing user's
                           password (keeping its role unless --role is given),
                           or with --role and no password only its role.
                           Takes effect on the next connection.
  vsqld user remove NAME   remove a user
  vsqld user list          list the users and their roles, "name role" per line
                           (user subcommands take --data and --users as serve does)
  vsqld help               show this help

Authentication: with users in the users file (--users, default <data>/users),
every client logs in with SCRAM-SHA-256. With none, only loopback clients
(127.0.0.0/8, ::1) are let in, without a password, unless --trust-all.
TLS: with --tls-cert and --tls-key, clients that ask for SSL (psql
sslmode=require, verify-ca, verify-full) get TLS; without them SSL is refused.

Every flag can also be set with an environment variable (shown in
brackets); a flag given on the command line wins over the environment.

Flags of serve:
`

// Run parses args and runs the chosen subcommand until ctx ends.
func (m *Main) Run(ctx context.Context, args []string) error {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return m.serve(ctx, args)
	case "gc":
		return m.gc(ctx, args)
	case "verify":
		return m.verify(ctx, args)
	case "clone":
		return m.clone(ctx, args)
	case "evict":
		return m.evict(ctx, args)
	case "user", "users":
		return m.user(ctx, args)
	case "help":
		fs, _ := m.serveFlags()
		m.printUsage(fs)
		return nil
	default:
		fmt.Fprintf(m.Stderr, "vsqld: unknown subcommand %q (try vsqld --help)\n", cmd)
		return errUsage
	}
}

type serveOptions struct {
	listen, httpListen, data, memoryLimit, blockMemory, logLevel string
	allocator                                                    string
	threads, maxConnections                                      int
	maxMessageSize                                               int
	shutdownTimeout, authTimeout, readSpin                       time.Duration
	allowRemotes                                                 listFlag
	unixSocketDirs                                               listFlag
	tlsCert, tlsKey, users                                       string
	trustAll                                                     bool
	rowResults                                                   bool
	createDatabases                                              string
	s3Endpoint, remotes, lakehouses                              string
	s3PathStyle                                                  bool
	remotePoll                                                   time.Duration
	gcInterval, gcGrace                                          time.Duration
	fileAccess                                                   dirList
	allowExtensions                                              bool
}

// dirList is a repeatable directory flag (--file-access A --file-access B);
// its environment variable lists directories like PATH does.
type dirList []string

func (d *dirList) String() string { return strings.Join(*d, string(os.PathListSeparator)) }
func (d *dirList) Set(v string) error {
	if v == "" {
		return errors.New("empty directory")
	}
	*d = append(*d, v)
	return nil
}

// envDefault reads VSQL_<NAME> for a flag's default.
func (m *Main) env(name string) string {
	if m.Getenv == nil {
		return ""
	}
	return m.Getenv("VSQL_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_")))
}

func (m *Main) serveFlags() (*flag.FlagSet, *serveOptions) {
	o := &serveOptions{}
	fs := flag.NewFlagSet("vsqld serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	str := func(p *string, name, def, help string) {
		if v := m.env(name); v != "" {
			def = v
		}
		fs.StringVar(p, name, def, help)
	}
	num := func(p *int, name string, def int, help string) {
		if v, err := strconv.Atoi(m.env(name)); err == nil {
			def = v
		}
		fs.IntVar(p, name, def, help)
	}
	str(&o.listen, "listen", server.DefaultListen, "TCP address `host:port` to accept PostgreSQL clients on [VSQL_LISTEN]")
	str(&o.httpListen, "http-listen", "", "TCP address `host:port` of /metrics (Prometheus text format) and /healthz; empty serves no HTTP [VSQL_HTTP_LISTEN]")
	str(&o.data, "data", server.DefaultDataDir, "repository `directory`: metadata, database files, caches; created if missing [VSQL_DATA]")
	num(&o.threads, "threads", 0, "`threads` DuckDB may use (0 = one per core): a statement's own, and helpers once one runs longer than 1 ms [VSQL_THREADS]")
	str(&o.memoryLimit, "memory-limit", "", "DuckDB memory limit, e.g. 4GB (empty = DuckDB's default, 80% of RAM) [VSQL_MEMORY_LIMIT]")
	str(&o.blockMemory, "block-memory", server.DefaultBlockMemory, "memory DuckDB keeps for reuse by its blocks instead of returning it to the system and faulting it in again, e.g. 1GiB (0 = none) [VSQL_BLOCK_MEMORY]")
	str(&o.allocator, "allocator", allocatorAuto, "C `allocator` of DuckDB's plans and vectors: auto (tcmalloc when "+tcmallocLibrary+" is installed, else the system's), system (the C library's malloc) or tcmalloc (refuse to start without it); see the README [VSQL_ALLOCATOR]")
	num(&o.maxConnections, "max-connections", server.DefaultMaxConnections, "most concurrent client `connections`; more are refused with SQLSTATE 53300 [VSQL_MAX_CONNECTIONS]")
	num(&o.maxMessageSize, "max-message-size", server.DefaultMaxMessageSize, "largest protocol message in `bytes`; larger ones end the connection with SQLSTATE 54000 [VSQL_MAX_MESSAGE_SIZE]")
	dur := server.DefaultShutdownTimeout
	if v, err := time.ParseDuration(m.env("shutdown-timeout")); err == nil {
		dur = v
	}
	fs.DurationVar(&o.shutdownTimeout, "shutdown-timeout", dur, "on SIGINT/SIGTERM, how long running statements may finish before they are cancelled [VSQL_SHUTDOWN_TIMEOUT]")
	authDur := server.DefaultAuthenticationTimeout
	if v, err := time.ParseDuration(m.env("authentication-timeout")); err == nil {
		authDur = v
	}
	fs.DurationVar(&o.authTimeout, "authentication-timeout", authDur, "how long a client may take to connect and log in (SSL negotiation, startup packet, password exchange) before it is disconnected [VSQL_AUTHENTICATION_TIMEOUT]")
	spin := 100 * time.Microsecond
	if v, err := time.ParseDuration(m.env("read-spin")); err == nil {
		spin = v
	}
	fs.DurationVar(&o.readSpin, "read-spin", spin, "after answering a client, keep reading its connection without sleeping for up to this `duration` while no other connection is busy or sent a message in the last millisecond: a client's next statement is read without waking a thread (a lower latency for request/response loops, at most this much CPU per statement; see the README); 0 never spins [VSQL_READ_SPIN]")
	str(&o.logLevel, "log-level", "info", "log `level`: debug, info, warn or error (logs are structured, on stderr) [VSQL_LOG_LEVEL]")
	str(&o.tlsCert, "tls-cert", "", "PEM certificate (chain) `file` for TLS; with --tls-key, clients asking for SSL get TLS [VSQL_TLS_CERT]")
	str(&o.tlsKey, "tls-key", "", "PEM private key `file` of --tls-cert [VSQL_TLS_KEY]")
	str(&o.users, "users", "", "users `file` for SCRAM-SHA-256 passwords, managed with vsqld user (default <data>/users) [VSQL_USERS]")
	trust, _ := strconv.ParseBool(m.env("trust-all"))
	fs.BoolVar(&o.trustAll, "trust-all", trust, "while the users file is empty, let clients in without a password from any address, not only loopback [VSQL_TRUST_ALL]")
	rowRes, _ := strconv.ParseBool(m.env("row-results"))
	fs.BoolVar(&o.rowResults, "row-results", rowRes, "send every result through the row-by-row path instead of streaming DuckDB's chunks (a switch for comparing the two; see internal/duckstream) [VSQL_ROW_RESULTS]")
	str(&o.createDatabases, "create-databases", server.CreateDatabasesAdmin, "who may CREATE DATABASE: admin, or write (write users too; the creator becomes the new database's admin) [VSQL_CREATE_DATABASES]")
	str(&o.s3Endpoint, "s3-endpoint", "", "S3 endpoint `URL` for remotes (default: AWS_ENDPOINT_URL_S3 or the AWS SDK's default) [VSQL_S3_ENDPOINT]")
	pathStyle, _ := strconv.ParseBool(m.env("s3-path-style"))
	fs.BoolVar(&o.s3PathStyle, "s3-path-style", pathStyle, "path-style S3 addressing (always on with an explicit endpoint) [VSQL_S3_PATH_STYLE]")
	str(&o.remotes, "remote", "", "S3 remotes as `db=s3://bucket/prefix/[,db2=…]`, set at start like vsql_set_remote [VSQL_REMOTE]")
	str(&o.lakehouses, "lakehouse", "", "Iceberg lakehouses as `db=/abs/dir|s3://bucket/prefix[,db2=…]`, set at start like vsql_set_lakehouse [VSQL_LAKEHOUSE]")
	// The default list (or one from the environment) is replaced by the
	// flag's first value; its directories are tried, not required.
	if v := m.env("unix-socket-dir"); v != "" {
		o.unixSocketDirs.set(v)
	} else {
		o.unixSocketDirs.set(defaultUnixSocketDirs)
	}
	o.unixSocketDirs.fromEnv = true
	fs.Var(&o.unixSocketDirs, "unix-socket-dir", "`directories` (comma-separated, or the flag repeated) where vsqld also accepts clients on the Unix-domain socket .s.PGSQL.<port>, as PostgreSQL does, for clients given no host (psql -p 5433); '' or none creates no socket; a directory given here or in the environment must take the socket, one of the default list is skipped if it cannot [VSQL_UNIX_SOCKET_DIR]")
	o.allowRemotes.set(m.env("allow-remote"))
	o.allowRemotes.fromEnv = true
	fs.Var(&o.allowRemotes, "allow-remote", "S3 `location` s3://bucket/prefix/ whose heads clients may read (dbname s3://…/heads/db/branch, vsql_attach_remote), besides the databases' own remotes; repeat the flag or separate with commas [VSQL_ALLOW_REMOTE]")
	poll := 2 * time.Second
	if v, err := time.ParseDuration(m.env("remote-poll")); err == nil {
		poll = v
	}
	for _, d := range filepath.SplitList(m.env("file-access")) {
		if d != "" {
			o.fileAccess = append(o.fileAccess, d)
		}
	}
	fs.Var(&o.fileAccess, "file-access", "`directory` where admin sessions may read and write server files (COPY … TO/FROM 'file', read_csv, EXPORT DATABASE); repeatable; DuckDB opens no other files but vsql's own, and write/read sessions none [VSQL_FILE_ACCESS, directories separated by '"+string(os.PathListSeparator)+"']")
	allowExt, _ := strconv.ParseBool(m.env("allow-extensions"))
	fs.BoolVar(&o.allowExtensions, "allow-extensions", allowExt, "let admins INSTALL and LOAD DuckDB extensions (community ones too) and DuckDB autoload known ones; leaves DuckDB's external access on, so only vsql's statement checks keep write/read sessions from server files [VSQL_ALLOW_EXTENSIONS]")
	fs.DurationVar(&o.remotePoll, "remote-poll", poll, "how often attached remote heads are checked for new snapshots [VSQL_REMOTE_POLL]")
	gcEvery, gcGrace := server.DefaultGCInterval, branches.DefaultGCGrace
	if v, err := time.ParseDuration(m.env("gc-interval")); err == nil {
		gcEvery = v
	}
	if v, err := time.ParseDuration(m.env("gc-grace")); err == nil {
		gcGrace = v
	}
	fs.DurationVar(&o.gcInterval, "gc-interval", gcEvery, "how often the background gc applies retention and removes unreferenced blocks, chunk maps, images and files while serving; 0 turns it off [VSQL_GC_INTERVAL]")
	fs.DurationVar(&o.gcGrace, "gc-grace", gcGrace, "unreferenced blocks younger than this are kept by the background gc and by vsql_gc() without grace => [VSQL_GC_GRACE]")
	return fs, o
}

// defaultUnixSocketDirs are where PostgreSQL's clients look for the
// server's socket when given no host: Debian's libpq and pgx first in
// /var/run/postgresql, upstream builds in /tmp.
const defaultUnixSocketDirs = "/var/run/postgresql,/tmp"

// unixSocketDirList returns the directories of --unix-socket-dir and whether
// they are the default list (each tried, not required). An empty value or
// none means no socket; a directory must be an absolute path.
func (o *serveOptions) unixSocketDirList(m *Main) (dirs []string, optional bool, err error) {
	items := o.unixSocketDirs.items
	if len(items) == 1 && items[0] == "none" {
		return nil, false, nil
	}
	for _, d := range items {
		if !filepath.IsAbs(d) {
			return nil, false, fmt.Errorf("invalid --unix-socket-dir %q: use an absolute directory path, or none", d)
		}
	}
	return items, o.unixSocketDirs.fromEnv && m.env("unix-socket-dir") == "", nil
}

// listFlag is a repeatable, comma-separated flag. Values from the
// environment are replaced by the first one given on the command line.
type listFlag struct {
	items   []string
	fromEnv bool
}

func (l *listFlag) String() string { return strings.Join(l.items, ",") }

func (l *listFlag) Set(v string) error {
	if l.fromEnv {
		l.items, l.fromEnv = nil, false
	}
	l.set(v)
	return nil
}

func (l *listFlag) set(v string) {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			l.items = append(l.items, part)
		}
	}
}

// parseRemotes reads --remote: db=s3://bucket/prefix/ pairs, comma-separated.
func parseRemotes(v string) (map[string]string, error) {
	return parsePairs("remote", "db=s3://bucket/prefix/", v, func(url string) bool { return strings.HasPrefix(url, "s3://") })
}

// parseLakehouses reads --lakehouse: db=URL pairs, comma-separated (the
// URLs are checked as vsql_set_lakehouse checks them, at start).
func parseLakehouses(v string) (map[string]string, error) {
	return parsePairs("lakehouse", "db=/abs/dir or db=s3://bucket/prefix", v, func(url string) bool { return url != "" })
}

// parsePairs reads a flag of comma-separated db=URL pairs.
func parsePairs(flagName, form, v string, valid func(url string) bool) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(v, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		db, url, ok := strings.Cut(part, "=")
		if !ok || db == "" || !valid(url) {
			return nil, fmt.Errorf("invalid --%s %q: use %s", flagName, part, form)
		}
		out[db] = url
	}
	return out, nil
}

func (m *Main) printUsage(fs *flag.FlagSet) {
	fmt.Fprint(m.Stdout, usage)
	fs.SetOutput(m.Stdout)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	fmt.Fprint(m.Stdout, `
Connect with any PostgreSQL client, e.g.
  psql -h 127.0.0.1 -p 5433 -d postgres
  echo "$PW" | vsqld user add alice --password-stdin
  PGPASSWORD="$PW" psql "host=db.example port=5433 user=alice dbname=postgres sslmode=verify-full sslrootcert=ca.pem"
`)
}

func (m *Main) serve(ctx context.Context, args []string) error {
	fs, o := m.serveFlags()
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			m.printUsage(fs)
			return nil
		}
		fmt.Fprintf(m.Stderr, "vsqld: %v (try vsqld --help)\n", err)
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(m.Stderr, "vsqld: unexpected argument %q (try vsqld --help)\n", fs.Arg(0))
		return errUsage
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		fmt.Fprintf(m.Stderr, "vsqld: invalid --log-level %q: use debug, info, warn or error\n", o.logLevel)
		return errUsage
	}
	if err := checkAllocator(o.allocator); err != nil {
		fmt.Fprintf(m.Stderr, "vsqld: %v\n", err)
		return errUsage
	}
	if o.createDatabases != server.CreateDatabasesAdmin && o.createDatabases != server.CreateDatabasesWrite {
		fmt.Fprintf(m.Stderr, "vsqld: invalid --create-databases %q: use admin or write\n", o.createDatabases)
		return errUsage
	}
	remotes, err := parseRemotes(o.remotes)
	if err != nil {
		fmt.Fprintf(m.Stderr, "vsqld: %v\n", err)
		return errUsage
	}
	lakehouses, err := parseLakehouses(o.lakehouses)
	if err != nil {
		fmt.Fprintf(m.Stderr, "vsqld: %v\n", err)
		return errUsage
	}
	unixDirs, unixOptional, err := o.unixSocketDirList(m)
	if err != nil {
		fmt.Fprintf(m.Stderr, "vsqld: %v\n", err)
		return errUsage
	}
	for _, a := range o.allowRemotes.items {
		if !strings.HasPrefix(a, "s3://") {
			fmt.Fprintf(m.Stderr, "vsqld: invalid --allow-remote %q: use s3://bucket/prefix/\n", a)
			return errUsage
		}
	}
	logger := slog.New(slog.NewTextHandler(m.Stderr, &slog.HandlerOptions{Level: level}))
	if name, path := activeAllocator(); path != "" {
		logger.Info("C allocator", "allocator", name, "library", path)
	} else {
		logger.Info("C allocator", "allocator", name)
	}
	srv, err := server.Open(ctx, server.Config{
		Listen: o.listen, HTTPListen: o.httpListen, DataDir: o.data, Threads: o.threads, MemoryLimit: o.memoryLimit, BlockMemory: o.blockMemory,
		MaxConnections: o.maxConnections, MaxMessageSize: o.maxMessageSize, ReadSpin: o.readSpin,
		ShutdownTimeout: o.shutdownTimeout, AuthenticationTimeout: o.authTimeout, Logger: logger,
		TLSCert: o.tlsCert, TLSKey: o.tlsKey, UsersFile: o.users, TrustAll: o.trustAll, RowResults: o.rowResults,
		CreateDatabases: o.createDatabases, AllowRemotes: o.allowRemotes.items,
		S3Endpoint: o.s3Endpoint, S3PathStyle: o.s3PathStyle, Remotes: remotes, RemotePoll: o.remotePoll, Lakehouses: lakehouses,
		GCInterval: orOff(o.gcInterval), GCGrace: orOff(o.gcGrace),
		FileAccess: o.fileAccess, AllowExtensions: o.allowExtensions,
		UnixSocketDirs: unixDirs, UnixSocketDirsOptional: unixOptional,
	})
	if err != nil {
		return err
	}
	return srv.Serve(ctx, m.Ready)
}

// orOff maps a flag's 0 ("off", "none") to the negative value Config
// reads that way (its zero means the default).
func orOff(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}
