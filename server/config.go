package server

import (
	"context"
	"log/slog"
	"net"
	"path/filepath"
	"time"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/s3sync"
)

// Config is everything vsqld serve can be told.
type Config struct {
	// Listen is the TCP address to accept PostgreSQL clients on.
	Listen string
	// HTTPListen, if set, is the TCP address of /metrics (Prometheus) and
	// /healthz; "" serves no HTTP.
	HTTPListen string
	// RemotePoll is how often attached S3 heads are checked for a new
	// snapshot (default 2s).
	RemotePoll time.Duration
	// GCInterval is how often retention and the online gc run in the
	// background (default DefaultGCInterval; negative turns it off).
	GCInterval time.Duration
	// LakehouseInterval is how often the Iceberg export retries a failed
	// database and looks for work (default 5s; snapshots and merges start
	// an export at once).
	LakehouseInterval time.Duration
	// GCGrace keeps unreferenced blocks younger than this from the
	// background gc and from vsql_gc without grace => (default
	// branches.DefaultGCGrace; negative is none).
	GCGrace time.Duration
	// S3Endpoint and S3PathStyle configure the S3 client (default: the
	// AWS SDK's environment, AWS_ENDPOINT_URL_S3 included).
	S3Endpoint  string
	S3PathStyle bool
	// Remotes are set at start like vsql_set_remote: database → s3:// URL.
	Remotes map[string]string
	// Lakehouses are set at start like vsql_set_lakehouse: database →
	// warehouse URL.
	Lakehouses map[string]string
	// AllowRemotes are the s3://bucket/prefix/ locations, besides the
	// databases' own remotes, whose heads clients may read (dbname
	// s3://…/heads/db/branch, vsql_attach_remote); every other location
	// is refused before any S3 request (42501 permission_denied).
	AllowRemotes []string
	// OpenBucket opens a bucket's object store (default: aws-sdk-go-v2 with
	// the SDK's default credential chain; tests inject faults here).
	OpenBucket func(ctx context.Context, bucket string) (s3sync.ObjectStore, error)
	// DataDir is the repository: catalog.db, live/ (branch files), staging/.
	DataDir string
	// Threads is how many threads DuckDB may use (0 = one per core): the
	// statement's own and helpers started for long ones (duckstream.Workers).
	Threads int
	// MemoryLimit is DuckDB's memory_limit, e.g. "4GB" ("" = DuckDB's default, 80% of RAM).
	MemoryLimit string
	// BlockMemory is DuckDB's block_allocator_memory: how much of the
	// memory of its 256 KiB blocks DuckDB keeps for reuse instead of
	// returning it to the system, e.g. "1GiB" ("" = DefaultBlockMemory,
	// "0" = none).
	BlockMemory string
	// MaxConnections bounds concurrent client sessions. A slot is taken
	// when the startup packet arrives; cancel requests need none.
	MaxConnections int
	// AuthenticationTimeout bounds a client's startup (SSL negotiation,
	// startup packet, password exchange), as PostgreSQL's
	// authentication_timeout does (default 60s).
	AuthenticationTimeout time.Duration
	// MaxMessageSize bounds one protocol message, in bytes.
	MaxMessageSize int
	// ReadSpin is how long a connection keeps reading its socket without
	// sleeping after it answered, while no other connection is busy, so
	// that a client's next statement is read without waking a thread
	// (pgwire's spin.go). 0 or negative: off (the default: on two cores
	// with the client on the same machine it lowered the p50 of point
	// queries and raised their p99, docs/BENCHMARKS.md).
	ReadSpin time.Duration
	// ShutdownTimeout is how long running statements may take to finish
	// after SIGINT/SIGTERM before they are cancelled.
	ShutdownTimeout time.Duration
	Logger          *slog.Logger

	// TLSCert and TLSKey are PEM files; with both set, clients that send
	// SSLRequest get TLS. Neither set: SSLRequest is answered 'N'.
	TLSCert, TLSKey string
	// UsersFile holds the SCRAM-SHA-256 users ("" = DefaultUsersFile in
	// DataDir). With users in it, every client authenticates.
	UsersFile string
	// TrustAll lets clients in without a password from any address while
	// the users file is empty (otherwise only loopback clients are).
	TrustAll bool
	// RowResults sends every result through the row path (duckdb-go's
	// materialized driver rows, one value at a time) instead of streaming
	// DuckDB's chunks; it is process-wide (see SetStreamResults).
	RowResults bool
	// CreateDatabases says who may CREATE DATABASE: CreateDatabasesAdmin
	// (the default) or CreateDatabasesWrite (write users too; the creator
	// gets an admin grant on the new database).
	CreateDatabases string
	// FileAccess are the directories where admin sessions may read and
	// write server files (COPY … TO/FROM 'file', read_csv, EXPORT
	// DATABASE, …); DuckDB opens nothing else but vsql's own directories.
	// None may overlap the repository, the users file or the TLS key.
	FileAccess []string
	// AllowExtensions lets admins INSTALL and LOAD DuckDB extensions and
	// DuckDB autoload known ones (community extensions included). DuckDB
	// loads no extension while its external access is off, so with it the
	// statement classification alone keeps non-admins from server files.
	AllowExtensions bool
	// UnixSocketDirs are the directories where vsqld also accepts clients
	// on a Unix-domain socket, .s.PGSQL.<port> with Listen's port, as
	// PostgreSQL's unix_socket_directories (unixsocket.go). None by default.
	UnixSocketDirs []string
	// UnixSocketDirsOptional skips a directory that is missing, that
	// vsqld cannot create the socket in or whose socket another live
	// server holds, with a log line, instead of failing the start (vsqld's
	// default list).
	UnixSocketDirsOptional bool
	// IsLoopback classifies client addresses for the no-users policy (nil
	// = auth.IsLoopback); tests replace it to act as a remote client.
	IsLoopback func(net.Addr) bool
}

// The values of Config.CreateDatabases.
const (
	CreateDatabasesAdmin = "admin"
	CreateDatabasesWrite = "write"
)

// Defaults for Config fields left zero.
const (
	DefaultListen         = "127.0.0.1:5433"
	DefaultDataDir        = "./vsql-data"
	DefaultMaxConnections = 100
	DefaultMaxMessageSize = 64 << 20
	// DefaultBlockMemory: memory DuckDB keeps for its blocks rather than
	// fault in afresh for every statement (ARCHITECTURE.md, "Memory kept
	// for DuckDB's blocks").
	DefaultBlockMemory     = "512MiB"
	DefaultShutdownTimeout = 30 * time.Second
	// DefaultAuthenticationTimeout is PostgreSQL's default.
	DefaultAuthenticationTimeout = time.Minute
	// DefaultUsersFile is the users file's name inside the repository.
	DefaultUsersFile = "users"
)

// UsersPath is the users file a server with this repository and users
// flag reads: usersFile if set, else DefaultUsersFile in dataDir.
func UsersPath(dataDir, usersFile string) string {
	if usersFile != "" {
		return usersFile
	}
	if dataDir == "" {
		dataDir = DefaultDataDir
	}
	return filepath.Join(dataDir, DefaultUsersFile)
}

// DefaultGCInterval is how often the background gc runs by default.
const DefaultGCInterval = time.Hour

func (c *Config) setDefaults() {
	if c.Listen == "" {
		c.Listen = DefaultListen
	}
	if c.RemotePoll <= 0 {
		c.RemotePoll = 2 * time.Second
	}
	if c.GCInterval == 0 {
		c.GCInterval = DefaultGCInterval
	}
	switch {
	case c.GCGrace == 0:
		c.GCGrace = branches.DefaultGCGrace
	case c.GCGrace < 0:
		c.GCGrace = 0
	}
	if c.DataDir == "" {
		c.DataDir = DefaultDataDir
	}
	if c.MaxConnections <= 0 {
		c.MaxConnections = DefaultMaxConnections
	}
	if c.MaxMessageSize <= 0 {
		c.MaxMessageSize = DefaultMaxMessageSize
	}
	if c.ReadSpin < 0 {
		c.ReadSpin = 0
	}
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = DefaultShutdownTimeout
	}
	if c.AuthenticationTimeout <= 0 {
		c.AuthenticationTimeout = DefaultAuthenticationTimeout
	}
	if c.CreateDatabases == "" {
		c.CreateDatabases = CreateDatabasesAdmin
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.UsersFile = UsersPath(c.DataDir, c.UsersFile)
	if c.IsLoopback == nil {
		c.IsLoopback = auth.IsLoopback
	}
}
