package main

import (
	"context"
	"path/filepath"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/internal/pgtest"
)

// postgres is a PostgreSQL server the benchmark started in a temporary
// directory, for the side-by-side figures: internal/pgtest's, with
// PostgreSQL's default settings (fsync on), so that its figures are those
// of an ordinary installation.
type postgres struct {
	*pgtest.Server
	how string // how it was started, for the report
}

// startPostgres runs initdb and postgres from cfg.pgBin (as user nobody
// when the benchmark runs as root: PostgreSQL refuses root), logging to
// the benchmark's temporary directory.
func (b *bench) startPostgres(ctx context.Context) (*postgres, error) {
	s, err := pgtest.Start(ctx, pgtest.Options{BinDir: b.cfg.pgBin, LogPath: filepath.Join(b.tmp, "postgres.log")})
	if err != nil {
		return nil, err
	}
	return &postgres{Server: s, how: s.How}, nil
}

func (p *postgres) connect(ctx context.Context) (*pgx.Conn, error) { return pgx.Connect(ctx, p.DSN()) }

// stop shuts PostgreSQL down (SIGINT: fast shutdown) and removes its files.
func (p *postgres) stop() { p.Stop() }
