package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/vsql/vsql/internal/promtext"
	"github.com/vsql/vsql/server"
)

// scrape reads /metrics and returns each sample ("name{labels}" → value).
func scrape(t *testing.T, base string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("/metrics: %s %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	out, err := promtext.Parse(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMetrics: /healthz answers, and /metrics' counters move across
// statements, an error, a snapshot and a merge as they happen.
func TestMetrics(t *testing.T) {
	httpAddr := freeAddr(t)
	addr := startServer(t, func(c *server.Config) { c.HTTPListen = httpAddr })
	base := "http://" + httpAddr

	resp, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok\n" {
		t.Fatalf("/healthz: %s %q", resp.Status, body)
	}

	before := scrape(t, base)
	main := twoSides(t, addr, "metered",
		[]string{"CREATE TABLE t (id INTEGER PRIMARY KEY, code VARCHAR UNIQUE, v INTEGER)", "INSERT INTO t VALUES (1, 'a', 1), (2, 'b', 2)"},
		[]string{"UPDATE t SET v = 10 WHERE id = 1"},
		[]string{"UPDATE t SET v = 20 WHERE id = 2"})
	ctx := context.Background()
	mid := scrape(t, base)
	if _, err := main.Exec(ctx, "SELECT 1/0"); err == nil {
		t.Fatal("1/0 did not fail")
	}
	var action string
	if err := main.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch(NULL, 'main', 'side', 'main')").Scan(&action); err != nil {
		t.Fatal(err)
	}
	after := scrape(t, base)

	grew := func(from, to map[string]float64, sample string, by float64) {
		t.Helper()
		if d := to[sample] - from[sample]; d < by {
			t.Errorf("%s grew by %v, want at least %v (before %v, after %v)", sample, d, by, from[sample], to[sample])
		}
	}
	// twoSides: two sessions, setup statements, three snapshots.
	grew(before, mid, "vsql_connections_total", 3)
	grew(before, mid, `vsql_statements_total{command="CREATE"}`, 2)
	grew(before, mid, `vsql_statements_total{command="UPDATE"}`, 2)
	grew(before, mid, "vsql_snapshots_total", 3)
	grew(before, mid, "vsql_snapshot_file_bytes_total", 3*12<<10)
	grew(before, mid, "vsql_snapshot_new_bytes_total", 1)
	// the error, the merge and its phases
	grew(mid, after, `vsql_statement_errors_total{class="22"}`, 1)
	grew(mid, after, `vsql_merges_total{outcome="`+action+`"}`, 1)
	grew(mid, after, `vsql_merge_phase_seconds_count{phase="comparison"}`, 1)
	// both sides updated rows in place: paired by position
	grew(mid, after, `vsql_merge_tables_total{method="positional"}`, 1)
	grew(mid, after, `vsql_statements_total{command="SELECT"}`, 2)
	grew(mid, after, "vsql_sent_bytes_total", 100)
	grew(mid, after, `vsql_statement_duration_seconds_count{command="SELECT"}`, 2)
	if after["vsql_connections"] < 2 {
		t.Errorf("vsql_connections = %v with at least two sessions open", after["vsql_connections"])
	}
	if after["vsql_block_store_bytes"] <= 0 {
		t.Errorf("vsql_block_store_bytes = %v after snapshots", after["vsql_block_store_bytes"])
	}

	// a gc pass is counted
	if _, err := main.Exec(ctx, "SELECT * FROM vsql_gc()"); err != nil {
		t.Fatal(err)
	}
	grew(after, scrape(t, base), `vsql_gc_runs_total{by="vsql_gc",result="ok"}`, 1)
}
