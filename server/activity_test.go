package server_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/server"
)

// activityLongQuery runs for minutes unless cancelled.
const activityLongQuery = "SELECT count(*) FROM range(50000000000)"

// startLong runs activityLongQuery on c in the background; the channel gets its
// error once it ends.
func startLong(c *pgx.Conn) chan error {
	done := make(chan error, 1)
	go func() {
		_, err := c.Exec(context.Background(), activityLongQuery)
		done <- err
	}()
	return done
}

// waitActive waits until the session with pid shows state 'active' and
// query in pg_stat_activity as seen by observer.
func waitActive(t *testing.T, observer *pgx.Conn, pid uint32) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var state, query string
		err := observer.QueryRow(context.Background(), "SELECT state, query FROM pg_stat_activity WHERE pid = $1", int32(pid)).Scan(&state, &query)
		if err == nil && state == "active" && query == activityLongQuery {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("session %d never showed as active with its query", pid)
}

func wantCanceled(t *testing.T, done chan error) {
	t.Helper()
	select {
	case err := <-done:
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" {
			t.Fatalf("the long query ended with %v, want 57014 (canceled)", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the long query was not cancelled")
	}
}

// TestActivityAndSignals: an admin sees another login's running query in
// pg_stat_activity and cancels it with pg_cancel_backend; a non-admin sees
// other logins' sessions without their queries and cannot cancel them,
// but can cancel its own login's; pg_terminate_backend ends a session's
// connection; an unknown pid is false with a WARNING.
func TestActivityAndSignals(t *testing.T) {
	addr := privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "bob": auth.RoleWrite, "carol": auth.RoleWrite}, nil)
	ctx := context.Background()
	admin := mustLogin(t, addr, "alice", "postgres")
	mustExec(t, admin, "CREATE DATABASE shop")
	shop := mustLogin(t, addr, "alice", "shop")
	mustExec(t, shop, "SELECT * FROM vsql_grant('shop', 'bob', 'read')", "SELECT * FROM vsql_grant('shop', 'carol', 'read')")
	bob := mustLogin(t, addr, "bob", "shop")
	bob2 := mustLogin(t, addr, "bob", "shop")
	carol := mustLogin(t, addr, "carol", "shop")
	bobPID := bob.PgConn().PID()

	// The admin sees bob's running query, with its identity and state.
	done := startLong(bob)
	waitActive(t, admin, bobPID)
	var user, datname, app, state string
	var backendStart, queryStart time.Time
	if err := admin.QueryRow(ctx, "SELECT usename, datname, application_name, state, backend_start, query_start FROM pg_stat_activity WHERE pid = $1",
		int32(bobPID)).Scan(&user, &datname, &app, &state, &backendStart, &queryStart); err != nil {
		t.Fatal(err)
	}
	if user != "bob" || datname != "shop" || state != "active" || queryStart.Before(backendStart) {
		t.Fatalf("bob's row: %s %s %s %s %v %v", user, datname, app, state, backendStart, queryStart)
	}
	// The observer's own row is active with its own query.
	if got := qstr(t, admin, "SELECT query FROM pg_stat_activity WHERE pid = pg_backend_pid()"); !strings.Contains(got, "pg_backend_pid()") {
		t.Fatalf("own row's query: %q", got)
	}

	// carol sees bob's session, not what it runs, and may not cancel it.
	var query string
	var carolState *string
	if err := carol.QueryRow(ctx, "SELECT query, state FROM pg_stat_activity WHERE pid = $1", int32(bobPID)).Scan(&query, &carolState); err != nil {
		t.Fatal(err)
	}
	if query != "<insufficient privilege>" || carolState != nil {
		t.Fatalf("carol sees bob's query %q, state %v", query, carolState)
	}
	_, err := carol.Exec(ctx, "SELECT pg_cancel_backend($1)", int32(bobPID))
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42501" {
		t.Fatalf("carol cancelling bob: %v, want 42501", err)
	}
	// ... and not an admin's session either.
	if _, err := carol.Exec(ctx, "SELECT pg_terminate_backend($1)", int32(admin.PgConn().PID())); !errors.As(err, &pe) || pe.Code != "42501" {
		t.Fatalf("carol terminating alice: %v, want 42501", err)
	}

	// The admin cancels bob's query: true, and bob's statement ends 57014.
	var ok bool
	if err := admin.QueryRow(ctx, "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query = $1", activityLongQuery).Scan(&ok); err != nil || !ok {
		t.Fatalf("admin cancel: %v %v", ok, err)
	}
	wantCanceled(t, done)
	if got := qstr(t, bob, "SELECT 'still usable'"); got != "still usable" {
		t.Fatal(got)
	}

	// bob may cancel his own login's other session.
	done = startLong(bob2)
	waitActive(t, bob, bob2.PgConn().PID())
	if err := bob.QueryRow(ctx, "SELECT pg_cancel_backend($1)", int32(bob2.PgConn().PID())).Scan(&ok); err != nil || !ok {
		t.Fatalf("bob cancelling his own session: %v %v", ok, err)
	}
	wantCanceled(t, done)

	// An unknown pid: false, with a WARNING.
	var warnings []string
	cfg := admin.Config().Copy()
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { warnings = append(warnings, n.Severity+": "+n.Message) }
	noticed, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer noticed.Close(ctx)
	if err := noticed.QueryRow(ctx, "SELECT pg_cancel_backend(999999)").Scan(&ok); err != nil || ok {
		t.Fatalf("unknown pid: %v %v", ok, err)
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "WARNING: PID 999999") {
		t.Fatalf("warnings: %v", warnings)
	}

	// pg_terminate_backend ends carol's connection.
	if err := admin.QueryRow(ctx, "SELECT pg_terminate_backend($1)", int32(carol.PgConn().PID())).Scan(&ok); err != nil || !ok {
		t.Fatalf("terminate: %v %v", ok, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := carol.Exec(ctx, "SELECT 1")
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("carol's connection still works after pg_terminate_backend")
		}
		time.Sleep(20 * time.Millisecond)
	}
	deadline = time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := admin.QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE usename = 'carol'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("carol's session still listed after pg_terminate_backend")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestActivityShowsMergePhase: while a merge runs, its session's row in
// pg_stat_activity shows the merge's phase as the wait event (type vsql).
func TestActivityShowsMergePhase(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	main := twoSides(t, addr, "phased",
		[]string{"CREATE TABLE t (id BIGINT PRIMARY KEY, code VARCHAR, v INTEGER)",
			"INSERT INTO t SELECT range, 'c' || range, 0 FROM range(1000000)"},
		[]string{"UPDATE t SET v = 1 WHERE id % 10000 = 0"},
		[]string{"UPDATE t SET v = 2 WHERE id % 10000 = 1"})
	observer := connectPgx(t, addr)
	pid := int32(main.PgConn().PID())
	done := make(chan error, 1)
	go func() {
		_, err := main.Exec(ctx, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main')")
		done <- err
	}()
	var phases []string
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if len(phases) == 0 {
				t.Fatal("no merge phase seen in pg_stat_activity while the merge ran")
			}
			for _, p := range phases {
				if !strings.HasPrefix(p, "merge ") {
					t.Errorf("phase %q", p)
				}
			}
			snapshotShows(t, main, observer)
			return
		default:
		}
		var typ, event *string
		if err := observer.QueryRow(ctx, "SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE pid = $1", pid).Scan(&typ, &event); err != nil {
			t.Fatal(err)
		}
		if typ != nil && *typ == "vsql" && event != nil {
			phases = append(phases, *event)
		}
	}
}

// TestActivityShowsBackgroundGC: a background gc pass is a row of
// pg_stat_activity (backend_type "vsql background") with its phase, while
// it runs; a non-admin sees the row without what it does.
func TestActivityShowsBackgroundGC(t *testing.T) {
	addr := privServer(t, map[string]auth.Role{"alice": auth.RoleAdmin, "bob": auth.RoleWrite},
		func(c *server.Config) { c.GCInterval = 20 * time.Millisecond })
	ctx := context.Background()
	admin := mustLogin(t, addr, "alice", "postgres")
	mustExec(t, admin, "CREATE DATABASE shop")
	shop := mustLogin(t, addr, "alice", "shop")
	mustExec(t, shop, "CREATE TABLE t (id int PRIMARY KEY)", "SELECT * FROM vsql_create_snapshot()",
		"SELECT * FROM vsql_grant('shop', 'bob', 'read')")
	bob := mustLogin(t, addr, "bob", "shop")
	seen := func(c *pgx.Conn, q string) (string, bool) {
		deadline := time.Now().Add(15 * time.Second)
		for time.Now().Before(deadline) {
			var got string
			err := c.QueryRow(ctx, q).Scan(&got)
			if err == nil {
				return got, true
			}
			if !errors.Is(err, pgx.ErrNoRows) {
				t.Fatal(err)
			}
		}
		return "", false
	}
	got, ok := seen(admin, "SELECT query || ' | ' || wait_event FROM pg_stat_activity WHERE backend_type = 'vsql background'")
	phase := regexp.MustCompile(`^background gc: retention, then the online gc \| (listing databases|retention of (postgres|shop)|gc of the block store and S3 remotes)$`)
	if !ok || !phase.MatchString(got) {
		t.Fatalf("admin: background gc row %q (seen %v)", got, ok)
	}
	got, ok = seen(bob, "SELECT query || ' | ' || coalesce(wait_event, '') FROM pg_stat_activity WHERE backend_type = 'vsql background'")
	if !ok || got != "<insufficient privilege> | " {
		t.Fatalf("bob: background gc row %q (seen %v)", got, ok)
	}
}

// snapshotShows: while a snapshot runs (a scattered change of the 1M-row
// table, which CHECKPOINT takes a while to write), its session's wait
// event names the call.
func snapshotShows(t *testing.T, main, observer *pgx.Conn) {
	t.Helper()
	ctx := context.Background()
	pid := int32(main.PgConn().PID())
	for round := 0; round < 5; round++ {
		mustExec(t, main, fmt.Sprintf("UPDATE t SET v = v + 1 WHERE id %% 1000 = %d", round))
		done := make(chan error, 1)
		go func() {
			_, err := main.Exec(ctx, "SELECT * FROM vsql_create_snapshot()")
			done <- err
		}()
		for {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
			default:
				var event *string
				if err := observer.QueryRow(ctx, "SELECT wait_event FROM pg_stat_activity WHERE pid = $1", pid).Scan(&event); err != nil {
					t.Fatal(err)
				}
				if event != nil && *event == "vsql_create_snapshot (phased)" {
					<-done
					return
				}
				continue
			}
			break
		}
	}
	t.Fatal("vsql_create_snapshot never showed as the session's wait event in five snapshots")
}
