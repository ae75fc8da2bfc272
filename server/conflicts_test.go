package server_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

func TestMergeStateRules(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	t.Run("counter incremented on both sides stays 1", func(t *testing.T) {
		main := twoSides(t, addr, "counter",
			[]string{"CREATE TABLE c (id INTEGER PRIMARY KEY, n INTEGER)", "INSERT INTO c VALUES (1, 0)"},
			[]string{"UPDATE c SET n = n + 1"}, []string{"UPDATE c SET n = n + 1"})
		var action string
		if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main')").Scan(&action); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := main.QueryRow(ctx, "SELECT n FROM c").Scan(&n); err != nil || n != 1 || action != "merged" {
			t.Errorf("counter = %d (%s), want 1: a state merge cannot add increments", n, action)
		}
	})
	t.Run("two fields of one STRUCT are one cell conflict", func(t *testing.T) {
		main := twoSides(t, addr, "structs",
			[]string{"CREATE TABLE s (id INTEGER PRIMARY KEY, settings STRUCT(theme VARCHAR, language VARCHAR))", "INSERT INTO s VALUES (1, {'theme': 'light', 'language': 'en'})"},
			[]string{"UPDATE s SET settings = {'theme': 'dark', 'language': 'en'}"},
			[]string{"UPDATE s SET settings = {'theme': 'light', 'language': 'de'}"})
		var n int
		var kind string
		var cols []string
		if err := main.QueryRow(ctx, `SELECT conflicts, conflict_details[1].kind, conflict_details[1].columns FROM vsql_merge_branch_preview(NULL, 'main', 'side')`).Scan(&n, &kind, &cols); err != nil {
			t.Fatal(err)
		}
		if n != 1 || kind != "cell" || len(cols) != 1 || cols[0] != "settings" {
			t.Errorf("conflicts %d %s %v, want one cell conflict on settings", n, kind, cols)
		}
	})
	t.Run("identical inserts merge into one row", func(t *testing.T) {
		main := twoSides(t, addr, "inserts",
			[]string{"CREATE TABLE i (id INTEGER PRIMARY KEY, v VARCHAR)", "INSERT INTO i VALUES (1, 'a')"},
			[]string{"INSERT INTO i VALUES (2, 'same')"}, []string{"INSERT INTO i VALUES (2, 'same')"})
		var conflicts int
		if err := main.QueryRow(ctx, "SELECT conflicts FROM vsql_merge_branch_preview(NULL, 'main', 'side')").Scan(&conflicts); err != nil || conflicts != 0 {
			t.Fatalf("conflicts %d %v", conflicts, err)
		}
		if _, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main')"); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := main.QueryRow(ctx, "SELECT count(*) FROM i WHERE id = 2").Scan(&n); err != nil || n != 1 {
			t.Errorf("%d rows with id 2", n)
		}
	})
	t.Run("max_rows then a retry with a larger limit", func(t *testing.T) {
		main := twoSides(t, addr, "limits",
			[]string{"CREATE TABLE l (id INTEGER PRIMARY KEY, v INTEGER)", "INSERT INTO l SELECT range, 0 FROM range(1000)"},
			[]string{"UPDATE l SET v = 1 WHERE id = 1"}, []string{"UPDATE l SET v = 2 WHERE id = 2"})
		_, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main', request_id => 'lim', max_rows => 2000)")
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_limit_exceeded") || !strings.Contains(pgErr.Message, "3000 rows") {
			t.Fatalf("merge over max_rows: %v", err)
		}
		var state, code string
		if err := main.QueryRow(ctx, "SELECT state, last_error_code FROM vsql_merge_requests(NULL, request_id => 'lim')").Scan(&state, &code); err != nil || state != "pending" || code != "merge_limit_exceeded" {
			t.Errorf("request after the limit: %s %s %v", state, code, err)
		}
		var action string
		if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', request_id => 'lim', max_rows => 5000)").Scan(&action); err != nil || action != "merged" {
			t.Fatalf("retry with a larger limit: %s %v", action, err)
		}
	})
}

// An async merge returns before it finishes; its request later shows
// complete with the result a synchronous merge of the same inputs gives,
// and vsql_merge_status() shows it while it runs.
func TestAsyncMerge(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "big",
		[]string{"CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER, s VARCHAR)", "INSERT INTO t SELECT range, range, 'row ' || range FROM range(1000000)"},
		[]string{"UPDATE t SET v = -v"}, []string{"UPDATE t SET s = 'x'"})
	start := time.Now()
	var state, op, reqID string
	if err := main.QueryRow(ctx, "SELECT state, operation_id, request_id FROM vsql_merge_branch(NULL, 'main', 'side', 'async_result', async => true, request_id => 'bg')").Scan(&state, &op, &reqID); err != nil {
		t.Fatal(err)
	}
	returned := time.Since(start)
	if state != "running" || op == "" || reqID != "bg" {
		t.Fatalf("async call returned state %q op %q request %q", state, op, reqID)
	}
	sawStatus := false
	deadline := time.Now().Add(60 * time.Second)
	for {
		var n int
		if err := main.QueryRow(ctx, "SELECT count(*) FROM vsql_merge_status() WHERE operation_id = $1", op).Scan(&n); err != nil {
			t.Fatal(err)
		}
		sawStatus = sawStatus || n == 1
		if err := main.QueryRow(ctx, "SELECT state FROM vsql_merge_requests(NULL, request_id => 'bg')").Scan(&state); err != nil {
			t.Fatal(err)
		}
		if state != "running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the async merge did not finish")
		}
		time.Sleep(20 * time.Millisecond)
	}
	finished := time.Since(start)
	if state != "complete" || !sawStatus {
		t.Fatalf("async merge ended %q (status seen: %v)", state, sawStatus)
	}
	if returned >= finished {
		t.Errorf("the call took %v, the merge %v: it did not return first", returned, finished)
	}
	// A long synchronous merge reports progress as NOTICE messages.
	cfg, _ := pgx.ParseConfig(dsn(addr, "big"))
	var notices []string
	var noticeMu sync.Mutex
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		noticeMu.Lock()
		notices = append(notices, n.Message)
		noticeMu.Unlock()
	}
	syncConn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer syncConn.Close(ctx)
	var syncAction string
	syncStart := time.Now()
	if err := syncConn.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'sync_result')").Scan(&syncAction); err != nil {
		t.Fatal(err)
	}
	noticeMu.Lock()
	if took := time.Since(syncStart); took > 2*time.Second && (len(notices) == 0 || !strings.Contains(notices[0], "merge")) {
		t.Errorf("a %v merge sent no progress notices: %q", took, notices)
	}
	t.Logf("progress notices: %q", notices)
	noticeMu.Unlock()
	var diff int
	if err := main.QueryRow(ctx, `SELECT count(*) FROM ((SELECT * FROM "big/async_result".t EXCEPT SELECT * FROM "big/sync_result".t)
		UNION ALL (SELECT * FROM "big/sync_result".t EXCEPT SELECT * FROM "big/async_result".t))`).Scan(&diff); err != nil || diff != 0 {
		t.Errorf("async and sync results differ in %d rows (%v)", diff, err)
	}
	var action string
	if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_requests(NULL, request_id => 'bg')").Scan(&action); err != nil || action != syncAction {
		t.Errorf("async action %q, sync %q", action, syncAction)
	}
}

// Decisions are frozen into the request the first time they are read: a
// retry after the decisions table was dropped applies the same decisions.
func TestFrozenDecisionsSurviveDroppedTable(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "frz",
		[]string{"CREATE TABLE p (id INTEGER PRIMARY KEY, price INTEGER)", "INSERT INTO p VALUES (1, 10), (2, 20)"},
		[]string{"UPDATE p SET price = 11 WHERE id = 1", "DELETE FROM p WHERE id = 2"},
		[]string{"UPDATE p SET price = 12 WHERE id = 1", "UPDATE p SET price = 22 WHERE id = 2"})
	for _, q := range []string{
		"CREATE DATABASE scratch",
		"CREATE TABLE scratch.main.d (id INTEGER, price INTEGER, _merge_action VARCHAR, _merge_columns MAP(VARCHAR, VARCHAR))",
		"INSERT INTO scratch.main.d VALUES (1, 15, 'cells', map {'price': 'custom'}), (2, NULL, 'theirs', NULL)",
	} {
		if _, err := main.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	merge := "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', request_id => 'frozen', resolution_tables => map {'p': 'scratch.main.d'}, max_staging_bytes => %d)"
	// The first attempt reads (and freezes) the decisions, then fails on a limit.
	_, err := main.Exec(ctx, fmt.Sprintf(merge, 1))
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "max_staging_bytes") {
		t.Fatalf("first attempt: %v", err)
	}
	if _, err := main.Exec(ctx, "DROP TABLE scratch.main.d"); err != nil {
		t.Fatal(err)
	}
	var action string
	if err := main.QueryRow(ctx, fmt.Sprintf(merge, 1<<30)).Scan(&action); err != nil || action != "merged" {
		t.Fatalf("retry after the decisions table was dropped: %s %v", action, err)
	}
	rows, err := main.Query(ctx, "SELECT id, price FROM p ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var id, price int
		_ = rows.Scan(&id, &price)
		got = append(got, fmt.Sprintf("%d=%d", id, price))
	}
	rows.Close()
	if strings.Join(got, ",") != "1=15,2=22" {
		t.Errorf("merged rows %v, want the frozen decisions 1=15 (custom) and 2=22 (theirs)", got)
	}
	var n int
	if err := main.QueryRow(ctx, "SELECT count(*) FROM vsql_merge_resolutions(NULL, 'frozen') WHERE source = 'table'").Scan(&n); err != nil || n != 2 {
		t.Errorf("audit has %d decisions (%v)", n, err)
	}
}

// A table that no side changed (byte-identical storage in the three inputs,
// which merges skip without comparing) is reported unchanged, and the
// merge of the other table is unaffected. The skipping itself is measured,
// not asserted: see BenchmarkMerge.
func TestUnchangedTableIsSkipped(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "skip",
		[]string{"CREATE TABLE big (id INTEGER PRIMARY KEY, v VARCHAR)", "INSERT INTO big SELECT range, 'v' || range FROM range(200000)",
			"CREATE TABLE small (id INTEGER PRIMARY KEY, n INTEGER)", "INSERT INTO small VALUES (1, 1), (2, 2)"},
		[]string{"UPDATE small SET n = 10 WHERE id = 1"}, []string{"UPDATE small SET n = 20 WHERE id = 2"})
	rows, err := main.Query(ctx, "SELECT table_name, table_action, ours_updates + theirs_updates FROM vsql_merge_branch_preview(NULL, 'main', 'side') ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for rows.Next() {
		var name, action string
		var updates int64
		_ = rows.Scan(&name, &action, &updates)
		got[name] = fmt.Sprintf("%s/%d", action, updates)
	}
	rows.Close()
	if got["big"] != "unchanged/0" || got["small"] != "merge/2" {
		t.Errorf("preview %v", got)
	}
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main')"); err != nil {
		t.Fatal(err)
	}
	var sum, n int64
	if err := main.QueryRow(ctx, "SELECT sum(n), (SELECT count(*) FROM big) FROM small").Scan(&sum, &n); err != nil || sum != 30 || n != 200000 {
		t.Errorf("merged: sum %d, big rows %d (%v)", sum, n, err)
	}
}

// Merges give their input images back: after previews and merges, no
// snapshot image of the database stays attached unless a query named it.
func TestMergesDetachTheirInputs(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "detach",
		[]string{"CREATE TABLE d (id INTEGER PRIMARY KEY, v INTEGER)", "INSERT INTO d VALUES (1, 1), (2, 2)"},
		[]string{"UPDATE d SET v = 10 WHERE id = 1"}, []string{"UPDATE d SET v = 20 WHERE id = 2"})
	images := func() int {
		var n int
		if err := main.QueryRow(ctx, "SELECT count(*) FROM duckdb_databases() WHERE database_name LIKE 'detach@%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, q := range []string{
		"SELECT * FROM vsql_merge_branch_preview(NULL, 'main', 'side', validate => true)",
		"SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'merged')",
	} {
		if _, err := main.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
		if n := images(); n != 0 {
			t.Errorf("after %q, %d snapshot images stay attached", q, n)
		}
	}
	// An image a query reached by name stays.
	if _, err := main.Exec(ctx, `SELECT * FROM "detach@1".d`); err != nil {
		t.Fatal(err)
	}
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch_preview(NULL, 'main', 'side')"); err != nil {
		t.Fatal(err)
	}
	if n := images(); n != 1 {
		t.Errorf("%d images attached, want the one named in a query", n)
	}
}

// Names in resolution_tables read public as statements do (SPEC's own
// 'scratch.public.price_decisions'), schema.table and table are in the
// calling session's catalog, and the audit's key has conflict_details'
// typed form.
func TestResolutionTableNamesAndTypedKeys(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "pub",
		[]string{"CREATE TABLE p (id INTEGER PRIMARY KEY, price INTEGER)", "INSERT INTO p VALUES (1, 10), (2, 20)"},
		[]string{"UPDATE p SET price = 11 WHERE id = 1", "UPDATE p SET price = 21 WHERE id = 2"},
		[]string{"UPDATE p SET price = 12 WHERE id = 1", "UPDATE p SET price = 22 WHERE id = 2"})
	for _, q := range []string{
		"CREATE DATABASE scratch",
		"CREATE TABLE scratch.public.d (id INTEGER, price INTEGER, _merge_action VARCHAR, _merge_columns MAP(VARCHAR, VARCHAR))",
		"INSERT INTO scratch.public.d VALUES (1, 15, 'cells', map {'price': 'custom'}), (2, NULL, 'theirs', NULL)",
	} {
		if _, err := main.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	preview := "SELECT conflicts, resolved_conflicts FROM vsql_merge_branch_preview('pub', 'main', 'side', resolution_tables => map {%s})"
	scratch, err := pgx.Connect(ctx, dsn(addr, "scratch"))
	if err != nil {
		t.Fatal(err)
	}
	defer scratch.Close(ctx)
	for _, c := range []struct {
		conn *pgx.Conn
		arg  string
	}{
		{main, "'p': 'scratch.public.d'"},
		{main, "'public.p': 'scratch.main.d'"},
		{main, `'p': '"scratch".PUBLIC."d"'`},
		{scratch, "'p': 'public.d'"}, // the session's own catalog
		{scratch, "'main.p': 'd'"},
	} {
		var conflicts, resolved int64
		if err := c.conn.QueryRow(ctx, fmt.Sprintf(preview, c.arg)).Scan(&conflicts, &resolved); err != nil || conflicts != 0 || resolved != 2 {
			t.Errorf("%s: conflicts %d, resolved %d, %v", c.arg, conflicts, resolved, err)
		}
	}
	var detailsKeyType string
	if err := main.QueryRow(ctx, "SELECT typeof(c.key) FROM (SELECT unnest(conflict_details) AS c FROM vsql_merge_branch_preview(NULL, 'main', 'side')) LIMIT 1").Scan(&detailsKeyType); err != nil {
		t.Fatal(err)
	}
	var action string
	if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', request_id => 'pub', resolution_tables => map {'p': 'scratch.public.d'})").Scan(&action); err != nil || action != "merged" {
		t.Fatalf("merge: %s %v", action, err)
	}
	rows, err := main.Query(ctx, "SELECT key[1].integer_value, key[1].type, key_json, action FROM vsql_merge_resolutions(NULL, 'pub') ORDER BY key_json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var id int64
		var typ, js, act string
		if err := rows.Scan(&id, &typ, &js, &act); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%d %s %s %s", id, typ, js, act))
	}
	rows.Close()
	if want := "1 INTEGER [1] cells|2 INTEGER [2] theirs"; strings.Join(got, "|") != want {
		t.Errorf("resolutions %q, want %q", strings.Join(got, "|"), want)
	}
	// The same typed form as the preview's conflict_details.key.
	var auditType string
	if err := main.QueryRow(ctx, "SELECT typeof(key) FROM vsql_merge_resolutions(NULL, 'pub') LIMIT 1").Scan(&auditType); err != nil || auditType != detailsKeyType {
		t.Errorf("resolutions key is %s (%v), conflict_details key %s", auditType, err, detailsKeyType)
	}
}

// A blob key survives the request's audit: the engine's cast of text to
// bytea is PostgreSQL's, and the audit's DuckDB text of the key (\xHH
// escapes) is read back as the same bytes.
func TestResolutionBlobKeys(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "bk",
		[]string{"CREATE TABLE b (k BLOB PRIMARY KEY, v INTEGER)", `INSERT INTO b VALUES ('\xde4131', 1), ('\x5c22', 2)`},
		[]string{`UPDATE b SET v = 10`},
		[]string{`UPDATE b SET v = 20`})
	var action string
	if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main', request_id => 'bk1', conflict_strategy => 'theirs')").Scan(&action); err != nil || action != "merged" {
		t.Fatalf("merge: %s %v", action, err)
	}
	rows, err := main.Query(ctx, "SELECT key[1].blob_value, key[1].type FROM vsql_merge_resolutions(NULL, 'bk1') ORDER BY key_json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var k []byte
		var typ string
		if err := rows.Scan(&k, &typ); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%x %s", k, typ))
	}
	rows.Close()
	if want := "5c22 BLOB|de4131 BLOB"; strings.Join(got, "|") != want {
		t.Errorf("resolutions %q, want %q", strings.Join(got, "|"), want)
	}
	var v int64
	if err := main.QueryRow(ctx, `SELECT v FROM b WHERE k = '\xde4131'`).Scan(&v); err != nil || v != 20 {
		t.Errorf("merged row: %d %v", v, err)
	}
}
