package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	_ "github.com/mattn/go-sqlite3" // registers the sqlite3 driver
)

// ErrNotFound is returned when a named object does not exist.
var ErrNotFound = errors.New("not found")

// ErrExists is returned when creating an object whose name is taken.
var ErrExists = errors.New("already exists")

// NameTaken is the error of creating a database, branch or snapshot whose
// name is taken. Existing is the recorded name: it equals the requested one
// or differs from it only in case, since DuckDB's catalog names (and so
// vsql's aliases) are case-insensitive. errors.Is(err, ErrExists) holds.
type NameTaken struct {
	Kind     string // "database", "branch" or "snapshot"
	Existing string
}

func (e *NameTaken) Error() string { return fmt.Sprintf("%s %q: %v", e.Kind, e.Existing, ErrExists) }

// Is makes a NameTaken match ErrExists.
func (e *NameTaken) Is(target error) bool { return target == ErrExists }

// Catalog is an open metadata store.
type Catalog struct {
	db *sql.DB
}

// Open opens (creating if needed) the catalog at path and applies pending
// migrations.
func Open(ctx context.Context, path string) (*Catalog, error) {
	dsn := "file:" + path + "?_journal_mode=WAL&_synchronous=FULL&_busy_timeout=10000&_foreign_keys=on&_txlock=immediate"
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open catalog %s: %w", path, err)
	}
	// One writer at a time; SQLite serialises writers anyway and this keeps
	// "database is locked" out of the picture.
	db.SetMaxOpenConns(1)
	c := &Catalog{db: db}
	if err := c.migrate(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("migrate catalog %s: %w", path, err)
	}
	return c, nil
}

// Close closes the store.
func (c *Catalog) Close() error { return c.db.Close() }

// Tx runs fn in one transaction, committed when fn returns nil.
//
// A transaction is never interrupted half-way: it runs on a context that
// ignores ctx's cancellation (the ctx given to Tx's methods is not used for
// the statements). SQLite rolls an interrupted transaction back on its own
// and would run the statements after it in autocommit mode, so a cancelled
// publication could otherwise commit half of itself. Callers check ctx
// before they start a transaction.
func (c *Catalog) Tx(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ctx = context.WithoutCancel(ctx)
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin catalog transaction: %w", err)
	}
	if err := fn(&Tx{tx: tx, ctx: ctx}); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit catalog transaction: %w", err)
	}
	return nil
}

// Tx is an open catalog transaction.
type Tx struct {
	tx  *sql.Tx
	ctx context.Context // not cancellable: see Catalog.Tx
}

// Database is one versioned database.
type Database struct {
	ID        int64
	Name      string
	CreatedAt time.Time
}

// Databases lists all databases by name.
func (t *Tx) Databases(ctx context.Context) ([]Database, error) {
	rows, err := t.tx.QueryContext(t.ctx, `SELECT id, name, created_at FROM databases ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("list databases: %w", err)
	}
	defer rows.Close()
	var out []Database
	for rows.Next() {
		var d Database
		var created string
		if err := rows.Scan(&d.ID, &d.Name, &created); err != nil {
			return nil, fmt.Errorf("list databases: %w", err)
		}
		d.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
		out = append(out, d)
	}
	return out, rows.Err()
}

// Database looks up one database by name (ErrNotFound if absent).
func (t *Tx) Database(ctx context.Context, name string) (Database, error) {
	var d Database
	var created string
	err := t.tx.QueryRowContext(t.ctx, `SELECT id, name, created_at FROM databases WHERE name = ?`, name).Scan(&d.ID, &d.Name, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return d, fmt.Errorf("database %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return d, fmt.Errorf("look up database %q: %w", name, err)
	}
	d.CreatedAt, _ = time.Parse(time.RFC3339Nano, created)
	return d, nil
}

// CreateDatabase records a new database (a *NameTaken, which is ErrExists,
// if the name is taken in any case).
func (t *Tx) CreateDatabase(ctx context.Context, name string) (Database, error) {
	var existing string
	err := t.tx.QueryRowContext(t.ctx, `SELECT name FROM databases WHERE lower(name) = lower(?)`, name).Scan(&existing)
	if err == nil {
		return Database{}, &NameTaken{Kind: "database", Existing: existing}
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return Database{}, fmt.Errorf("create database %q: %w", name, err)
	}
	now := time.Now().UTC()
	res, err := t.tx.ExecContext(t.ctx, `INSERT INTO databases(name, created_at) VALUES (?, ?) ON CONFLICT(name) DO NOTHING`, name, now.Format(time.RFC3339Nano))
	if err != nil {
		return Database{}, fmt.Errorf("create database %q: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Database{}, fmt.Errorf("database %q: %w", name, ErrExists)
	}
	id, _ := res.LastInsertId()
	if _, err := t.tx.ExecContext(t.ctx, `INSERT INTO branches (database_id, name, live_file, materialized, created_at) VALUES (?, 'main', ?, 0, ?)`,
		id, MainLiveFile(name), now.Format(time.RFC3339Nano)); err != nil {
		return Database{}, fmt.Errorf("create database %q: main branch: %w", name, err)
	}
	return Database{ID: id, Name: name, CreatedAt: now}, nil
}

// MainLiveFile is where a new database's main branch lives, relative to the
// repository.
func MainLiveFile(db string) string { return "live/" + db + "/main.duckdb" }

// DropDatabase removes a database's record (ErrNotFound if absent).
func (t *Tx) DropDatabase(ctx context.Context, name string) error {
	// Dependent rows first: branches and parents reference snapshots.
	for _, q := range []string{
		`DELETE FROM branches WHERE database_id = (SELECT id FROM databases WHERE name = ?)`,
		`DELETE FROM snapshot_parents WHERE database_id = (SELECT id FROM databases WHERE name = ?)`,
		`DELETE FROM snapshots WHERE database_id = (SELECT id FROM databases WHERE name = ?)`,
		`DELETE FROM reader_pins WHERE database_id = (SELECT id FROM databases WHERE name = ?)`,
		`DELETE FROM grants WHERE database_id = (SELECT id FROM databases WHERE name = ?)`,
		`DELETE FROM protected_branches WHERE database_id = (SELECT id FROM databases WHERE name = ?)`,
	} {
		if _, err := t.tx.ExecContext(t.ctx, q, name); err != nil {
			return fmt.Errorf("drop database %q: %w", name, err)
		}
	}
	res, err := t.tx.ExecContext(t.ctx, `DELETE FROM databases WHERE name = ?`, name)
	if err != nil {
		return fmt.Errorf("drop database %q: %w", name, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("database %q: %w", name, ErrNotFound)
	}
	return nil
}
