package server_test

import (
	"context"
	"fmt"
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

// Writers keep committing while snapshots are taken: no writer fails, every
// snapshot holds a committed state (row counts never go back), and a last
// snapshot after the writers stop holds every row.
func TestSnapshotsUnderConcurrentWrites(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	admin := connectPgx(t, addr)
	if _, err := admin.Exec(ctx, "CREATE TABLE w (id INTEGER PRIMARY KEY, writer INTEGER)"); err != nil {
		t.Fatal(err)
	}
	const writers, perWriter = 3, 150
	errs := make(chan error, writers+1)
	done := make(chan struct{})
	for wr := 0; wr < writers; wr++ {
		go func(wr int) {
			c := connectPgx(t, addr)
			for i := 0; i < perWriter; i++ {
				if _, err := c.Exec(ctx, "INSERT INTO w VALUES ($1, $2)", wr*perWriter+i, wr); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}(wr)
	}
	var ids []int64
	go func() {
		defer close(done)
		s := connectPgx(t, addr)
		for i := 0; i < 8; i++ {
			var id int64
			if err := s.QueryRow(ctx, "SELECT snapshot_id FROM vsql_create_snapshot()").Scan(&id); err != nil {
				errs <- err
				return
			}
			ids = append(ids, id)
		}
	}()
	for i := 0; i < writers; i++ {
		if err := <-errs; err != nil {
			t.Fatalf("writer: %v", err)
		}
	}
	<-done
	select {
	case err := <-errs:
		t.Fatalf("snapshotter: %v", err)
	default:
	}
	prev := int64(-1)
	for _, id := range ids {
		var n int64
		if err := admin.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM "postgres@%d".w`, id)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n < prev {
			t.Errorf("snapshot %d has %d rows, fewer than the one before (%d)", id, n, prev)
		}
		prev = n
	}
	var last, live int64
	if err := admin.QueryRow(ctx, "SELECT snapshot_id FROM vsql_create_snapshot()").Scan(&last); err != nil {
		t.Fatal(err)
	}
	_ = admin.QueryRow(ctx, fmt.Sprintf(`SELECT count(*) FROM "postgres@%d".w`, last)).Scan(&live)
	if live != writers*perWriter {
		t.Errorf("the last snapshot holds %d rows, want %d", live, writers*perWriter)
	}
}
