package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/internal/promtext"
)

// scrapeMetrics reads /metrics of base ("name{labels}" → value).
func scrapeMetrics(ctx context.Context, base string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("/metrics: %s", resp.Status)
	}
	return promtext.Parse(resp.Body)
}

// getPage fetches one console page and returns its time and status.
func getPage(ctx context.Context, url string) (time.Duration, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, 0, err
	}
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, 0, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return time.Since(start), resp.StatusCode, err
}

// opsSection measures what an operator sees: the Prometheus counters
// across a workload (a merge and a snapshot of a 1M-row table, statements)
// and the time of each console page on that database.
func (b *bench) opsSection(ctx context.Context) (string, error) {
	cfg := b.cfg
	rows := cfg.snapRows
	var w strings.Builder
	w.WriteString("## Operations: metrics and the web console\n\n" + b.commandLine("ops"))
	port, err := freePort()
	if err != nil {
		return w.String(), err
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	s, err := b.startVsqld(ctx, "--http-listen", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return w.String(), err
	}
	defer s.stop()
	fmt.Fprintf(&w, "A vsqld of its own with `--http-listen` (no users: the console trusts loopback, as the wire does). Database "+
		"`ops` holds one `orders` table of %s rows (as in Merges) with branch `side`, 100 rows changed on each side and "+
		"snapshotted. The workload between the two scrapes of `/metrics`: `vsql_merge_branch(NULL, 'main', 'side', 'main')`, "+
		"100 more rows updated on main, `vsql_create_snapshot()`, and 100 point queries from a new session.\n\n", fmtCount(rows))
	admin, err := s.connect(ctx, "postgres")
	if err != nil {
		return w.String(), err
	}
	defer admin.Close(ctx)
	if err := execAll(ctx, admin, "CREATE DATABASE ops"); err != nil {
		return w.String(), err
	}
	if err := prepareMerge(ctx, s, "ops", []string{"orders"}, rows, 100); err != nil {
		return w.String(), err
	}
	c, err := s.connect(ctx, "ops")
	if err != nil {
		return w.String(), err
	}
	defer c.Close(ctx)
	before, err := scrapeMetrics(ctx, base)
	if err != nil {
		return w.String(), err
	}
	if err := execAll(ctx, c, "SELECT * FROM vsql_merge_branch(NULL, 'main', 'side', 'main', "+mergeLimits+")",
		fmt.Sprintf("UPDATE orders SET status = 'shipped' WHERE order_id %% %d = 2", rows/100), "SELECT * FROM vsql_create_snapshot()"); err != nil {
		return w.String(), err
	}
	reader, err := s.connect(ctx, "ops") // a new session
	if err != nil {
		return w.String(), err
	}
	defer reader.Close(ctx)
	for k := 0; k < 100; k++ {
		var st string
		if err := reader.QueryRow(ctx, "SELECT status FROM orders WHERE order_id = $1", k*(rows/100)).Scan(&st); err != nil {
			return w.String(), err
		}
	}
	after, err := scrapeMetrics(ctx, base)
	if err != nil {
		return w.String(), err
	}
	watched := []string{`vsql_connections_total`, `vsql_statements_total{command="SELECT"}`, `vsql_statements_total{command="UPDATE"}`,
		`vsql_statement_duration_seconds_count{command="SELECT"}`, `vsql_sent_bytes_total`, `vsql_merges_total{outcome="merged"}`,
		`vsql_merge_phase_seconds_count{phase="comparison"}`, `vsql_merge_phase_seconds_sum{phase="comparison"}`,
		`vsql_snapshots_total`, `vsql_snapshot_new_bytes_total`, `vsql_snapshot_file_bytes_total`, `vsql_block_store_bytes`}
	var mout [][]string
	moved := 0
	for _, m := range watched {
		d := after[m] - before[m]
		if d > 0 {
			moved++
		}
		mout = append(mout, []string{"`" + m + "`", strconv.FormatFloat(before[m], 'g', 6, 64), strconv.FormatFloat(after[m], 'g', 6, 64),
			strconv.FormatFloat(d, 'g', 6, 64)})
	}
	w.WriteString(table([]string{"metric", "before", "after", "change"}, mout))
	b.goal("metrics move across a merge, a snapshot and statements (counters scraped before and after)", fmt.Sprintf("%d of %d", len(watched), len(watched)),
		fmt.Sprintf("%d of %d", moved, len(watched)), moved == len(watched))

	var snap int64
	if err := c.QueryRow(ctx, "SELECT min(snapshot_id) FROM vsql_snapshots() WHERE kind = 'merge'").Scan(&snap); err != nil {
		return w.String(), err
	}
	pages := []struct{ name, path string }{
		{"databases", "/"},
		{"database: history graph, branches, snapshots", "/db/ops"},
		{"diff of the merge's parent (ours) and main: 200 changed rows, first page", fmt.Sprintf("/db/ops/diff?from=%d&to=main", snap-1)},
		{"rows of the 1M-row table at the merge snapshot, first page", fmt.Sprintf("/db/ops/rows?version=%d&table=orders", snap)},
		{"rows, page 1,000 (offset 49,950)", fmt.Sprintf("/db/ops/rows?version=%d&table=orders&page=1000", snap)},
		{"merge requests", "/db/ops/requests"},
		{"activity", "/activity"},
		{"merge preview of side into main, with conflicts (a comparison of the 1M-row table)", "/db/ops/conflicts?ours=main&theirs=side"},
	}
	times := make([][]float64, len(pages))
	for run := 0; run <= cfg.runs; run++ {
		for i, p := range pages {
			d, code, err := getPage(ctx, base+p.path)
			if err != nil {
				return w.String(), err
			}
			if code != http.StatusOK {
				return w.String(), fmt.Errorf("console %s: HTTP %d", p.path, code)
			}
			if run > 0 {
				times[i] = append(times[i], ms(d))
			}
		}
	}
	fmt.Fprintf(&w, "\nEach console page fetched by Go's HTTP client, %d times after one warm-up, in turn; the median and the range:\n\n", cfg.runs)
	var pout [][]string
	worst, worstPage := 0.0, ""
	for i, p := range pages {
		sorted := append([]float64(nil), times[i]...)
		sort.Float64s(sorted)
		med := median(times[i])
		pout = append(pout, []string{p.name, "`" + p.path + "`", fmtMs(med), fmtMs(sorted[0]) + "–" + fmtMs(sorted[len(sorted)-1])})
		if !strings.HasPrefix(p.path, "/db/ops/conflicts") && med > worst {
			worst, worstPage = med, p.path
		}
	}
	w.WriteString(table([]string{"page", "path", "median", "range"}, pout))
	w.WriteString("\nThe merge preview page runs the merge's comparison (what `vsql_merge_branch_preview` does), so it costs " +
		"what the comparison of the table costs (Merges above); the goal is for the pages that only read the catalog and " +
		"the changed rows.\n")
	b.goal("console pages on a 1M-row database (all but the merge preview), slowest median", "≤ 100 ms",
		fmt.Sprintf("%s (%s)", fmtMs(worst), worstPage), worst <= 100)
	return w.String(), nil
}
