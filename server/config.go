package server

import (
	"log/slog"
	"time"
)

// Config is everything vsqld serve can be told.
type Config struct {
	// Listen is the TCP address to accept PostgreSQL clients on.
	Listen string
	// DataDir is the repository: catalog.db, live/ (branch files), staging/.
	DataDir string
	// Threads is DuckDB's worker thread count (0 = DuckDB's default, one per core).
	Threads int
	// MemoryLimit is DuckDB's memory_limit, e.g. "4GB" ("" = DuckDB's default, 80% of RAM).
	MemoryLimit string
	// MaxConnections bounds concurrent client sessions.
	MaxConnections int
	// MaxMessageSize bounds one protocol message, in bytes.
	MaxMessageSize int
	// ShutdownTimeout is how long running statements may take to finish
	// after SIGINT/SIGTERM before they are cancelled.
	ShutdownTimeout time.Duration
	Logger          *slog.Logger
}

// Defaults for Config fields left zero.
const (
	DefaultListen          = "127.0.0.1:5433"
	DefaultDataDir         = "./vsql-data"
	DefaultMaxConnections  = 100
	DefaultMaxMessageSize  = 64 << 20
	DefaultShutdownTimeout = 30 * time.Second
)

func (c *Config) setDefaults() {
	if c.Listen == "" {
		c.Listen = DefaultListen
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
	if c.ShutdownTimeout <= 0 {
		c.ShutdownTimeout = DefaultShutdownTimeout
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}
