package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// twoSides prepares database db with table t (id PK, code UNIQUE, v) at
// snapshot 1, a branch side, and runs the edits on each side, snapshotting
// both. It returns a connection to main.
func twoSides(t *testing.T, addr, db string, setup []string, mainEdits, sideEdits []string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	admin := connectPgx(t, addr)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+db); err != nil {
		t.Fatal(err)
	}
	main, err := pgx.Connect(ctx, dsn(addr, db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { main.Close(ctx) })
	run := func(c *pgx.Conn, qs []string) {
		t.Helper()
		for _, q := range qs {
			if _, err := c.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	}
	run(main, setup)
	run(main, []string{"SELECT * FROM vsql_create_snapshot()", "SELECT * FROM vsql_create_branch(NULL, 'side')"})
	side, err := pgx.Connect(ctx, dsn(addr, db+"/side"))
	if err != nil {
		t.Fatal(err)
	}
	defer side.Close(ctx)
	run(main, mainEdits)
	run(side, sideEdits)
	run(main, []string{"SELECT * FROM vsql_create_snapshot()"})
	run(side, []string{"SELECT * FROM vsql_create_snapshot()"})
	return main
}

func headOf(t *testing.T, c *pgx.Conn, branch string) int64 {
	t.Helper()
	var h int64
	if err := c.QueryRow(context.Background(), "SELECT head_snapshot_id FROM vsql_branches() WHERE branch_name = $1", branch).Scan(&h); err != nil {
		t.Fatal(err)
	}
	return h
}

// A merge whose result breaks a UNIQUE constraint on a non-key column fails
// clearly and publishes nothing.
func TestMergeBreakingUniqueFailsAndPublishesNothing(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "uq",
		[]string{"CREATE TABLE t (id INTEGER PRIMARY KEY, code VARCHAR UNIQUE, v INTEGER)", "INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2)"},
		[]string{"UPDATE t SET code = 'x' WHERE id = 1"},
		[]string{"UPDATE t SET code = 'x' WHERE id = 2"})
	head, snaps := headOf(t, main, "main"), 0
	_ = main.QueryRow(ctx, "SELECT count(*) FROM vsql_snapshots()").Scan(&snaps)

	var state string
	if err := main.QueryRow(ctx, "SELECT validation_state FROM vsql_merge_branch_preview(NULL, 'main', 'side', validate => true)").Scan(&state); err != nil {
		t.Fatal(err)
	}
	if state != "invalid" {
		t.Errorf("preview validation_state %q, want invalid", state)
	}
	var ready bool
	var issues []string
	if err := main.QueryRow(ctx, "SELECT ready, issues FROM vsql_merge_branch_preflight(NULL, 'main', 'side', 'main')").Scan(&ready, &issues); err != nil {
		t.Fatal(err)
	}
	if ready || len(issues) != 1 || !strings.HasPrefix(issues[0], "merge_validation_failed") {
		t.Errorf("preflight ready=%v issues=%q", ready, issues)
	}
	for _, dest := range []string{"main", "newbranch"} {
		_, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', $1)", dest)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_validation_failed") || pgErr.Code != "23000" {
			t.Fatalf("merge into %s: %v", dest, err)
		}
		if !strings.Contains(pgErr.Message, "t") || pgErr.Hint == "" {
			t.Errorf("error does not name the table or has no hint: %s / %s", pgErr.Message, pgErr.Hint)
		}
	}
	var after, branches int
	_ = main.QueryRow(ctx, "SELECT count(*) FROM vsql_snapshots()").Scan(&after)
	_ = main.QueryRow(ctx, "SELECT count(*) FROM vsql_branches()").Scan(&branches)
	if after != snaps || headOf(t, main, "main") != head || branches != 2 {
		t.Errorf("a failed merge published something: %d→%d snapshots, head %d→%d, %d branches", snaps, after, head, headOf(t, main, "main"), branches)
	}
	var code string
	if err := main.QueryRow(ctx, "SELECT code FROM t WHERE id = 2").Scan(&code); err != nil || code != "b" {
		t.Errorf("main's data changed: %q %v", code, err)
	}
}

// Cancelling a merge (CancelRequest) leaves every branch as it was.
func TestMergeCancelledPublishesNothing(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "cx",
		[]string{"CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, s VARCHAR)", "INSERT INTO t SELECT range, range, 'row ' || range FROM range(1000000)"},
		[]string{"UPDATE t SET v = -v"},
		[]string{"UPDATE t SET s = 'x'"})
	head := headOf(t, main, "main")
	cfg, _ := pgx.ParseConfig(dsn(addr, "cx"))
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 10 * time.Second}
	}
	merger, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer merger.Close(ctx)
	mctx, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = merger.Exec(mctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main')")
	if err == nil {
		t.Fatalf("the merge finished in %v, before the cancel: make it bigger", time.Since(start))
	}
	t.Logf("merge error after %v: %v", time.Since(start), err)
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "57014" {
		t.Errorf("cancelled merge: %v (want 57014)", err)
	}
	// The session is still usable, and nothing moved.
	if _, err := merger.Exec(ctx, "SELECT 1"); err != nil {
		t.Fatalf("session after cancel: %v", err)
	}
	if h := headOf(t, main, "main"); h != head {
		t.Errorf("a cancelled merge moved main from %d to %d", head, h)
	}
	var n int
	_ = main.QueryRow(ctx, "SELECT count(*) FROM vsql_snapshots()").Scan(&n)
	if n != 3 {
		rows, _ := main.Query(ctx, "SELECT snapshot_id, kind, branch_name, provenance FROM vsql_snapshots()")
		for rows.Next() {
			v, _ := rows.Values()
			t.Log(v...)
		}
		rows.Close()
		t.Errorf("a cancelled merge created snapshots: %d", n)
	}
}
