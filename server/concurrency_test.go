package server_test

import (
	"context"
	"testing"
)

// A snapshot taken while another session holds uncommitted writes on the
// branch publishes only committed data; the writes land after COMMIT.
func TestSnapshotBesideOpenTransaction(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	a := connectPgx(t, addr)
	b := connectPgx(t, addr)
	for _, q := range []string{"CREATE TABLE acc (id int PRIMARY KEY, v int)", "INSERT INTO acc VALUES (1, 1)"} {
		if _, err := a.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := a.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "INSERT INTO acc VALUES (2, 2)"); err != nil {
		t.Fatal(err)
	}
	var id int64
	err = b.QueryRow(ctx, "SELECT snapshot_id FROM vsql_create_snapshot(name => 'during')").Scan(&id)
	if err != nil {
		t.Fatalf("snapshot beside an open write transaction: %v", err)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatalf("commit after the snapshot: %v", err)
	}
	var n int
	if err := a.QueryRow(ctx, "SELECT count(*) FROM acc").Scan(&n); err != nil || n != 2 {
		t.Fatalf("after commit: %d rows, %v", n, err)
	}
	if err := b.QueryRow(ctx, `SELECT count(*) FROM "postgres@during".acc`).Scan(&n); err != nil || n != 1 {
		t.Errorf("snapshot holds %d rows (want only the committed one): %v", n, err)
	}
	if err := b.QueryRow(ctx, "SELECT snapshot_id FROM vsql_create_snapshot(name => 'after')").Scan(&id); err != nil {
		t.Fatalf("snapshot after commit: %v", err)
	}
	if err := b.QueryRow(ctx, `SELECT count(*) FROM "postgres@after".acc`).Scan(&n); err != nil || n != 2 {
		t.Errorf("snapshot after commit holds %d rows: %v", n, err)
	}
}
