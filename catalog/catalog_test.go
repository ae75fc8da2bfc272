package catalog_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/vsql/vsql/catalog"
)

func TestDatabasesPersist(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "catalog.db")
	c, err := catalog.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	err = c.Tx(ctx, func(tx *catalog.Tx) error {
		if _, err := tx.CreateDatabase(ctx, "retail"); err != nil {
			return err
		}
		_, err := tx.CreateDatabase(ctx, "retail")
		if !errors.Is(err, catalog.ErrExists) {
			t.Errorf("second create: %v, want ErrExists", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// A failing transaction leaves nothing behind.
	boom := errors.New("boom")
	err = c.Tx(ctx, func(tx *catalog.Tx) error {
		if _, err := tx.CreateDatabase(ctx, "ghost"); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Tx: %v", err)
	}
	c.Close()

	c, err = catalog.Open(ctx, path) // reopening re-runs no migration
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.Tx(ctx, func(tx *catalog.Tx) error {
		dbs, err := tx.Databases(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(dbs) != 1 || dbs[0].Name != "retail" {
			t.Errorf("databases = %+v, want only retail", dbs)
		}
		if _, err := tx.Database(ctx, "ghost"); !errors.Is(err, catalog.ErrNotFound) {
			t.Errorf("ghost: %v, want ErrNotFound", err)
		}
		if err := tx.DropDatabase(ctx, "retail"); err != nil {
			t.Error(err)
		}
		return nil
	})
}
