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

// Reader pins are recorded, listed and removed (gc keeps the images of
// pinned snapshots).
func TestPins(t *testing.T) {
	ctx := context.Background()
	c, err := catalog.Open(ctx, filepath.Join(t.TempDir(), "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.CreateDatabase(ctx, "retail")
		if err != nil {
			return err
		}
		id, err := tx.AddPin(ctx, d.ID, 3, "reader-1")
		if err != nil {
			return err
		}
		pins, err := tx.Pins(ctx)
		if err != nil || len(pins) != 1 || pins[0].SnapshotID != 3 || pins[0].Holder != "reader-1" || pins[0].DatabaseID != d.ID {
			t.Errorf("pins %+v, %v", pins, err)
		}
		if err := tx.RemovePin(ctx, id); err != nil {
			return err
		}
		if pins, _ := tx.Pins(ctx); len(pins) != 0 {
			t.Errorf("pin not removed: %+v", pins)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
