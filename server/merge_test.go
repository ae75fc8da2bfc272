package server_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"

	"github.com/vsql/vsql/server"
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

// Merging a branch whose writes are not in a snapshot says so in a NOTICE
// naming the branch (the merge reads its head only).
func TestMergeNoticesUnsnapshottedTheirs(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	admin := connectPgx(t, addr)
	if _, err := admin.Exec(ctx, "CREATE DATABASE ntc"); err != nil {
		t.Fatal(err)
	}
	owner, err := pgx.Connect(ctx, dsn(addr, "ntc"))
	if err != nil {
		t.Fatal(err)
	}
	defer owner.Close(ctx)
	for _, q := range []string{"CREATE TABLE p (id INTEGER PRIMARY KEY, v INTEGER)", "INSERT INTO p VALUES (1, 1)",
		"SELECT * FROM vsql_create_snapshot()", "SELECT * FROM vsql_create_branch(NULL, 'side')"} {
		if _, err := owner.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	side, err := pgx.Connect(ctx, dsn(addr, "ntc/side"))
	if err != nil {
		t.Fatal(err)
	}
	defer side.Close(ctx)
	if _, err := side.Exec(ctx, "UPDATE p SET v = 2"); err != nil { // not snapshotted
		t.Fatal(err)
	}
	cfg, _ := pgx.ParseConfig(dsn(addr, "ntc"))
	var notices []string
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n.Message) }
	c, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var action string
	if err := c.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main')").Scan(&action); err != nil || action != "already_up_to_date" {
		t.Fatalf("merge: %s %v", action, err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], `branch "side"`) || !strings.Contains(notices[0], "not in a snapshot") {
		t.Errorf("notices %q, want one naming branch side", notices)
	}
	// A snapshotted branch merges without one.
	notices = nil
	if _, err := side.Exec(ctx, "SELECT * FROM vsql_create_snapshot()"); err != nil {
		t.Fatal(err)
	}
	if err := c.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main')").Scan(&action); err != nil || action != "fast_forward" || len(notices) != 0 {
		t.Errorf("merge after the snapshot: %s %v, notices %q", action, err, notices)
	}
}

// A merge refused before it starts (target dirty, a guard that failed)
// does not bind its request_id: the retry with the same id after fixing
// the cause runs, and the refusal's hint says so.
func TestRefusedMergeLeavesRequestIDFree(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "rfs", []string{"CREATE TABLE p (id INTEGER PRIMARY KEY, v INTEGER, w INTEGER)", "INSERT INTO p VALUES (1, 1, 1)"},
		[]string{"UPDATE p SET v = 2"}, []string{"UPDATE p SET w = 3"})
	var pgErr *pgconn.PgError
	// The target is dirty.
	if _, err := main.Exec(ctx, "INSERT INTO p VALUES (2, 0, 0)"); err != nil {
		t.Fatal(err)
	}
	merge := "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', request_id => 'r1')"
	_, err := main.Exec(ctx, merge)
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_target_dirty") || !strings.Contains(pgErr.Hint, `request_id "r1" is not bound`) {
		t.Fatalf("dirty target: %v (hint %q)", err, pgErr.Hint)
	}
	var n int
	if err := main.QueryRow(ctx, "SELECT count(*) FROM vsql_merge_requests(NULL, request_id => 'r1')").Scan(&n); err != nil || n != 0 {
		t.Errorf("the refused request is recorded: %d %v", n, err)
	}
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_create_snapshot()"); err != nil {
		t.Fatal(err)
	}
	var action string
	if err := main.QueryRow(ctx, merge).Scan(&action); err != nil || action != "merged" {
		t.Fatalf("retry with the same id after the snapshot: %s %v", action, err)
	}
	// A guard that failed: the retry with the right expected id and the same request_id.
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_create_branch(NULL, 'side2')"); err != nil {
		t.Fatal(err)
	}
	side2, err := pgx.Connect(ctx, dsn(addr, "rfs/side2"))
	if err != nil {
		t.Fatal(err)
	}
	defer side2.Close(ctx)
	for _, q := range []string{"UPDATE p SET w = 4", "SELECT * FROM vsql_create_snapshot()"} {
		if _, err := side2.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	head := headOf(t, main, "side2")
	guarded := "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side2', 'main', request_id => 'r2', expected_theirs_snapshot_id => %d)"
	_, err = main.Exec(ctx, fmt.Sprintf(guarded, head-1))
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_inputs_changed") {
		t.Fatalf("failed guard: %v", err)
	}
	if err := main.QueryRow(ctx, fmt.Sprintf(guarded, head)).Scan(&action); err != nil || action != "fast_forward" {
		t.Fatalf("retry with the reviewed id and the same request_id: %s %v", action, err)
	}
	// A request that ran keeps its id: other arguments under it are refused.
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side2', 'main', request_id => 'r2')"); !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "request_id_reused") {
		t.Errorf("other arguments under a used id: %v", err)
	}
}

// Heavy vsql_* calls run on the session's goroutine, not inside DuckDB's
// table-function callback: once per distinct call of a statement, in the
// simple and the extended protocol; inside a transaction block they run
// in line, as before.
func TestHeavyCallsRunOffDuckDBThread(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "offt",
		[]string{"CREATE TABLE t (id INTEGER PRIMARY KEY, code INTEGER UNIQUE, v INTEGER)", "INSERT INTO t VALUES (1, 1, 1), (2, 2, 2)"},
		[]string{"UPDATE t SET v = 10 WHERE id = 1"}, []string{"UPDATE t SET v = 20 WHERE id = 2"})
	calls := func() int64 { return server.OffThreadCalls() }

	before := calls()
	var n, changes int64
	if err := main.QueryRow(ctx, `SELECT count(*), sum(a.ours_updates + b.theirs_updates)
		FROM vsql_merge_branch_preview(NULL, 'main', 'side') a, vsql_merge_branch_preview(NULL, 'main', 'side') b
		WHERE a.table_name = 't' AND b.table_name = 't'`).Scan(&n, &changes); err != nil {
		t.Fatal(err)
	}
	if n != 1 || changes != 2 {
		t.Fatalf("preview self-join: %d rows, %d changes; want 1 row, 2 changes", n, changes)
	}
	if got := calls() - before; got != 1 {
		t.Errorf("a self-join of one preview ran %d calls off DuckDB's thread, want 1", got)
	}

	before = calls()
	tx, err := main.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM vsql_merge_branch_preview(NULL, 'main', 'side')").Scan(&n); err != nil || n == 0 {
		t.Fatalf("preview in a transaction block: %d %v", n, err)
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if got := calls() - before; got != 0 {
		t.Errorf("inside a transaction block %d calls ran off DuckDB's thread, want 0 (in line)", got)
	}

	before = calls()
	var action string
	if _, err := main.Exec(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main')", pgx.QueryExecModeSimpleProtocol); err != nil {
		t.Fatal(err)
	}
	if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main')").Scan(&action); err != nil || action != "already_up_to_date" {
		t.Fatalf("second merge: %q %v", action, err)
	}
	if got := calls() - before; got != 2 {
		t.Errorf("two merges ran %d calls off DuckDB's thread, want 2", got)
	}
	var v1, v2 int
	if err := main.QueryRow(ctx, "SELECT (SELECT v FROM t WHERE id = 1), (SELECT v FROM t WHERE id = 2)").Scan(&v1, &v2); err != nil || v1 != 10 || v2 != 20 {
		t.Errorf("after the merge: v = %d, %d (%v); want 10, 20", v1, v2, err)
	}
	// A failing call reports its own error, once.
	before = calls()
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'nosuch', 'main')"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("merge of a missing branch: %v", err)
	}
	if got := calls() - before; got != 1 {
		t.Errorf("a failing merge ran %d calls, want 1", got)
	}
}

// liveFilesOf lists the files in a database's live directory.
func liveFilesOf(t *testing.T, dataDir, db string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dataDir, "live", db))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// A merge into ours' own branch writes the result into the branch's live
// file (no copy: the file keeps its name, and only what changed is
// written); a failed one leaves the branch clean at its old head; with
// in_place => false the result is built in a copy that replaces the file.
func TestMergeIntoOursWritesInPlace(t *testing.T) {
	var dataDir string
	addr := startServer(t, func(c *server.Config) { dataDir = c.DataDir })
	ctx := context.Background()
	main := twoSides(t, addr, "inplace",
		[]string{"CREATE TABLE t (id INTEGER PRIMARY KEY, code VARCHAR UNIQUE, v INTEGER)",
			"INSERT INTO t SELECT range, 'c' || range, 0 FROM range(20000)"},
		[]string{"UPDATE t SET v = 1 WHERE id < 100"},
		[]string{"UPDATE t SET v = 2 WHERE id >= 19900", "INSERT INTO t VALUES (20000, 'new', 3)"})
	before := liveFilesOf(t, dataDir, "inplace")
	var action string
	var snap int64
	if err := main.QueryRow(ctx, "SELECT merge_action, snapshot_id FROM vsql_merge_branch(NULL, 'main', 'side', 'main')").Scan(&action, &snap); err != nil {
		t.Fatal(err)
	}
	if action != "merged" || headOf(t, main, "main") != snap {
		t.Fatalf("merge: %s %d, head %d", action, snap, headOf(t, main, "main"))
	}
	var sum, n int64
	if err := main.QueryRow(ctx, "SELECT sum(v), count(*) FROM t").Scan(&sum, &n); err != nil || sum != 100+200+3 || n != 20001 {
		t.Fatalf("merged rows: sum %d, count %d, %v", sum, n, err)
	}
	if after := liveFilesOf(t, dataDir, "inplace"); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("live files %v became %v: the merge replaced main's file instead of writing into it", before, after)
	}
	target := func() string {
		t.Helper()
		var state string
		if err := main.QueryRow(ctx, "SELECT target_state FROM vsql_merge_branch_preflight(NULL, 'main', 'side', 'main')").Scan(&state); err != nil {
			t.Fatal(err)
		}
		return state
	}
	if s := target(); s != "clean" {
		t.Errorf("after an in-place merge main is %s, want clean (its file is its new head)", s)
	}

	// A merge that fails in place (a UNIQUE code on both sides) changes nothing.
	side, err := pgx.Connect(ctx, dsn(addr, "inplace/side"))
	if err != nil {
		t.Fatal(err)
	}
	defer side.Close(ctx)
	for _, q := range []string{"UPDATE t SET code = 'dup' WHERE id = 5", "SELECT * FROM vsql_create_snapshot()"} {
		if _, err := side.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"UPDATE t SET code = 'dup' WHERE id = 6", "SELECT * FROM vsql_create_snapshot()"} {
		if _, err := main.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	head := headOf(t, main, "main")
	_, err = main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main')")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_validation_failed") {
		t.Fatalf("conflicting unique codes: %v", err)
	}
	if headOf(t, main, "main") != head || target() != "clean" {
		t.Errorf("a failed in-place merge moved main (%d → %d) or left it %s", head, headOf(t, main, "main"), target())
	}
	var code string
	if err := main.QueryRow(ctx, "SELECT code FROM t WHERE id = 5").Scan(&code); err != nil || code != "c5" {
		t.Errorf("main's row 5 after the failed merge: %q %v (want c5)", code, err)
	}
	for _, f := range liveFilesOf(t, dataDir, "inplace") {
		if strings.HasSuffix(f, ".applying") {
			t.Errorf("marker %s left behind", f)
		}
	}

	// in_place => false: the result is a copy, which replaces main's file.
	for _, q := range []string{"UPDATE t SET code = 'c6' WHERE id = 6", "UPDATE t SET v = 9 WHERE id = 7", "SELECT * FROM vsql_create_snapshot()"} {
		if _, err := main.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	before = liveFilesOf(t, dataDir, "inplace")
	if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', in_place => false)").Scan(&action); err != nil || action != "merged" {
		t.Fatalf("copy merge: %s %v", action, err)
	}
	if after := liveFilesOf(t, dataDir, "inplace"); fmt.Sprint(after) == fmt.Sprint(before) {
		t.Errorf("in_place => false kept main's file %v", after)
	}
	if err := main.QueryRow(ctx, "SELECT code FROM t WHERE id = 5").Scan(&code); err != nil || code != "dup" {
		t.Errorf("copy merge: row 5 %q %v", code, err)
	}
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main', in_place => 'maybe')"); err == nil || !strings.Contains(err.Error(), "in_place") {
		t.Errorf("in_place => 'maybe': %v", err)
	}
}
