package server_test

import (
	"context"
	"os"
	"os/exec"
	"testing"
)

// A session's TimeZone is UTC whatever the host's: the engine sets it once
// for every connection. The test reruns itself with the host's zone set
// to America/New_York (DuckDB takes its default from TZ when it starts).
func TestSessionTimeZoneIsUTC(t *testing.T) {
	if os.Getenv("VSQL_TZ_CHILD") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSessionTimeZoneIsUTC$", "-test.count=1")
		cmd.Env = append(os.Environ(), "TZ=America/New_York", "VSQL_TZ_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("under TZ=America/New_York: %v\n%s", err, out)
		}
		return
	}
	addr := startServer(t, nil)
	ctx := context.Background()
	for i := 0; i < 2; i++ { // the first session and a later one
		c := connectPgx(t, addr)
		var zone, ts string
		if err := c.QueryRow(ctx, "SELECT value FROM duckdb_settings() WHERE name = 'TimeZone'").Scan(&zone); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRow(ctx, "SELECT ('2020-06-01 12:00:00'::timestamptz)::varchar").Scan(&ts); err != nil {
			t.Fatal(err)
		}
		if zone != "UTC" || ts != "2020-06-01 12:00:00+00" {
			t.Errorf("session %d: DuckDB TimeZone %q, timestamptz %q; want UTC and 2020-06-01 12:00:00+00", i, zone, ts)
		}
		c.Close(ctx)
	}
}
