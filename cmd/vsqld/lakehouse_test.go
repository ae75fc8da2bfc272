package main

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/internal/icebergread"
)

// TestCrashDuringLakehouseExport kills vsqld after the Iceberg commit of
// one table of a snapshot and before vsql records the export. After a
// restart the export finishes exactly once: the committed table's Iceberg
// snapshot is adopted, not written again, and every table has one Iceberg
// snapshot per vsql snapshot that changed it.
func TestCrashDuringLakehouseExport(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	bin := vsqldBinary(t)
	data, lake := t.TempDir(), filepath.Join(t.TempDir(), "lake")
	const fault = "lakehouse.after_table_commit"
	c := startChild(t, bin, data, fault)
	conn := c.connect(t, "postgres")
	exec1(t, conn, "CREATE TABLE a (id integer PRIMARY KEY, v bigint)")
	exec1(t, conn, "CREATE TABLE b (id integer PRIMARY KEY, w text)")
	exec1(t, conn, "INSERT INTO a SELECT range, range FROM range(1000)")
	exec1(t, conn, "INSERT INTO b SELECT range, 'w' || range FROM range(10)")
	exec1(t, conn, "SELECT * FROM vsql_set_lakehouse(NULL, '"+lake+"')")
	// The export runs in the background: the snapshot itself answers (or
	// the connection breaks if the export dies first).
	_, _ = conn.Exec(context.Background(), "SELECT * FROM vsql_create_snapshot()")
	died := make(chan error, 1)
	go func() { died <- c.cmd.Wait() }()
	select {
	case werr := <-died:
		var exitErr *exec.ExitError
		if !errors.As(werr, &exitErr) || exitErr.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("vsqld was not killed at %s: %v\n%s", fault, werr, c.logs)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("the export never reached %s\n%s", fault, c.logs)
	}
	if out, err := runVerify(t, bin, data); err != nil {
		t.Fatalf("verify after the crash: %v\n%s", err, out)
	}

	// The restart names the same lakehouse with --lakehouse: what was
	// exported there is kept.
	c = startChild(t, bin, data, "", "--lakehouse", "postgres="+lake)
	defer c.stop(t)
	conn = c.connect(t, "postgres")
	defer conn.Close(context.Background())
	if got := scalar[string](t, conn, "SELECT lakehouse FROM vsql_lakehouse_status() LIMIT 1"); got != lake {
		t.Errorf("lakehouse after --lakehouse: %q", got)
	}
	exec1(t, conn, "UPDATE a SET v = -v WHERE id < 5")
	exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")
	waitLakehouse(t, conn)
	if n := scalar[int64](t, conn, "SELECT count(*) FROM duckdb_databases() WHERE database_name LIKE 'postgres@%'"); n != 0 {
		t.Errorf("%d snapshot images still attached after the export", n)
	}

	r, err := icebergread.Open(filepath.Join(lake, "vsql_catalog.sqlite"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	want := map[string][]int{"a": {1, 1}, "b": {1, 0}} // Iceberg snapshots per vsql snapshot 1, 2
	for name, per := range want {
		tbl, err := r.Table(context.Background(), "postgres", name)
		if err != nil {
			t.Fatal(err)
		}
		for i, n := range per {
			if got := icebergread.SnapshotsOf(tbl, int64(i+1)); got != n {
				t.Errorf("table %s: %d Iceberg snapshots for vsql snapshot %d, want %d", name, got, i+1, n)
			}
		}
		rows, err := icebergread.Rows(context.Background(), tbl, 0, "main")
		if err != nil {
			t.Fatal(err)
		}
		if exp := scalar[int64](t, conn, "SELECT count(*) FROM "+name); int64(len(rows)) != exp {
			t.Errorf("table %s: %d rows on Iceberg's main, %d in vsql", name, len(rows), exp)
		}
	}
}

// waitLakehouse waits until the export has no lag and no error.
func waitLakehouse(t *testing.T, conn *pgx.Conn) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var lag int64
		var lastErr string
		if err := conn.QueryRow(context.Background(), "SELECT max(lag), coalesce(max(last_error), '') FROM vsql_lakehouse_status()").Scan(&lag, &lastErr); err != nil {
			t.Fatal(err)
		}
		if lag == 0 && lastErr == "" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the export did not finish: lag %d, error %q", lag, lastErr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
