package lakehouse

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/iceberg-go"
	icecat "github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	iceio "github.com/apache/iceberg-go/io"
	_ "github.com/apache/iceberg-go/io/gocloud/s3" // s3:// warehouses
	"github.com/apache/iceberg-go/table"
	_ "github.com/mattn/go-sqlite3"

	"github.com/vsql/vsql/vsqlerr"
)

// CatalogName is the Iceberg catalog name vsql writes in its SQL catalog
// (the catalog_name column of iceberg_tables).
const CatalogName = "vsql"

// exportRef is the Iceberg branch a table's next snapshot is committed on:
// it is first pointed at the Iceberg snapshot that holds the table as of
// the vsql snapshot's parent, so every Iceberg snapshot's parent is the
// one its vsql parent made. It is removed when the export ends.
const exportRef = "vsql-export"

// S3 holds the S3 settings a warehouse on S3 uses (the remotes' settings).
type S3 struct {
	Endpoint  string // empty: AWS
	Region    string
	AccessKey string
	SecretKey string
}

// target is a parsed lakehouse URL.
type target struct {
	url       string // as the user wrote it, normalized
	warehouse string // the Iceberg warehouse property: file:///… or s3://…
	catalog   string // the SQLite file of the SQL catalog
	s3        bool
}

// parseURL checks a lakehouse URL: an absolute local directory (a path or
// file:///path) or s3://bucket/prefix. The SQL catalog of a local
// warehouse is the file vsql_catalog.sqlite inside it, so the directory is
// self-contained; that of an S3 warehouse is kept in the repository
// (lakehouse/<hash>.sqlite), and engines read its tables by metadata
// location (docs/lakehouse.md).
func parseURL(dataDir, raw string) (target, error) {
	bad := func(format string, args ...any) (target, error) {
		e := vsqlerr.New(vsqlerr.InvalidArgument, "lakehouse URL %q: "+format, append([]any{raw}, args...)...)
		e.Hint = "Use an absolute directory (/srv/lake or file:///srv/lake) or s3://bucket/prefix."
		return target{}, e
	}
	switch {
	case strings.HasPrefix(raw, "s3://"):
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" || u.RawQuery != "" || u.User != nil {
			return bad("not an s3://bucket/prefix URL")
		}
		norm := "s3://" + u.Host + "/" + strings.Trim(u.Path, "/")
		norm = strings.TrimSuffix(norm, "/")
		sum := sha256.Sum256([]byte(norm))
		return target{url: norm, warehouse: norm, s3: true,
			catalog: filepath.Join(dataDir, "lakehouse", hex.EncodeToString(sum[:8])+".sqlite")}, nil
	case strings.HasPrefix(raw, "file://"):
		u, err := url.Parse(raw)
		if err != nil || (u.Host != "" && u.Host != "localhost") {
			return bad("not a file:///absolute/path URL")
		}
		return parseURL(dataDir, u.Path)
	case strings.Contains(raw, "://"):
		return bad("only local directories and s3:// are supported")
	case !filepath.IsAbs(raw):
		return bad("a local directory must be an absolute path")
	}
	dir := filepath.Clean(raw)
	abs, _ := filepath.Abs(dataDir)
	if dir == abs || strings.HasPrefix(dir, abs+string(filepath.Separator)) {
		return bad("the warehouse cannot be inside vsqld's data directory")
	}
	return target{url: dir, warehouse: "file://" + dir, catalog: filepath.Join(dir, "vsql_catalog.sqlite")}, nil
}

// warehouse is an open Iceberg SQL catalog.
type warehouse struct {
	t   target
	db  *sql.DB
	cat *sqlcat.Catalog
}

func openWarehouse(t target, s3 S3) (*warehouse, error) {
	if !t.s3 {
		if err := os.MkdirAll(strings.TrimPrefix(t.warehouse, "file://"), 0o755); err != nil {
			return nil, fmt.Errorf("create the warehouse directory: %w", err)
		}
	}
	if err := os.MkdirAll(filepath.Dir(t.catalog), 0o755); err != nil {
		return nil, fmt.Errorf("create the catalog directory: %w", err)
	}
	db, err := sql.Open("sqlite3", "file:"+t.catalog+"?_busy_timeout=10000&_journal_mode=WAL&_synchronous=FULL")
	if err != nil {
		return nil, err
	}
	props := iceberg.Properties{"warehouse": t.warehouse}
	if t.s3 {
		if s3.Endpoint != "" {
			props[iceio.S3EndpointURL] = s3.Endpoint
		}
		region := s3.Region
		if region == "" {
			region = "us-east-1"
		}
		props[iceio.S3Region] = region
		if s3.AccessKey != "" {
			props[iceio.S3AccessKeyID] = s3.AccessKey
			props[iceio.S3SecretAccessKey] = s3.SecretKey
		}
	}
	cat, err := sqlcat.NewCatalog(CatalogName, db, sqlcat.SQLite, props)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open the Iceberg SQL catalog %s: %w", t.catalog, err)
	}
	return &warehouse{t: t, db: db, cat: cat}, nil
}

func (w *warehouse) close() { w.db.Close() }

// ensureNamespace creates the database's namespace if it is missing.
func (w *warehouse) ensureNamespace(ctx context.Context, ns string) error {
	ok, err := w.cat.CheckNamespaceExists(ctx, icecat.ToIdentifier(ns))
	if err != nil {
		return err
	}
	if ok {
		return nil
	}
	return w.cat.CreateNamespace(ctx, icecat.ToIdentifier(ns), iceberg.Properties{"comment": "vsql database " + ns})
}

// loadTable opens ns.name, or returns nil when it does not exist.
func (w *warehouse) loadTable(ctx context.Context, ns, name string) (*table.Table, error) {
	ident := icecat.ToIdentifier(ns, name)
	ok, err := w.cat.CheckTableExists(ctx, ident)
	if err != nil || !ok {
		return nil, err
	}
	return w.cat.LoadTable(ctx, ident)
}

// setRefs moves (or, with id 0, removes) named references of a table in
// one catalog commit.
func (w *warehouse) setRefs(ctx context.Context, tbl *table.Table, refs map[string]int64, kinds map[string]table.RefType) (*table.Table, error) {
	if len(refs) == 0 {
		return tbl, nil
	}
	var updates []table.Update
	for name, id := range refs {
		if id == 0 {
			updates = append(updates, table.NewRemoveSnapshotRefUpdate(name))
			continue
		}
		updates = append(updates, table.NewSetSnapshotRefUpdate(name, id, kinds[name], 0, 0, 0))
	}
	reqs := []table.Requirement{table.AssertTableUUID(tbl.Metadata().TableUUID())}
	if _, _, err := w.cat.CommitTable(ctx, tbl.Identifier(), reqs, updates); err != nil {
		return nil, err
	}
	return w.cat.LoadTable(ctx, tbl.Identifier())
}
