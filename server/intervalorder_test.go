package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestIntervalAddOrder: a timestamp plus or minus an interval literal
// with months or days and a time part adds the months and days first, as
// PostgreSQL does (DuckDB's timestamptz added the time first: the end of
// a month, date_trunc('month', t) + interval '1 month - 1 second', was a
// day early), also across a daylight-saving change.
func TestIntervalAddOrder(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"SELECT timestamptz '1999-12-01' + interval '1 month - 1 second'",
		"SELECT date_trunc('month', timestamptz '2024-02-10 10:00+00') + interval '1 month - 1 second' AS eom",
		"SELECT timestamptz '1999-12-01' + '1 month - 1 second'::interval",
		"SELECT timestamptz '1999-12-01' - interval '-1 month 1 second'",
		"SELECT timestamptz '2000-03-01' + interval '-1 month -1 second' + interval '2 hours'",
		"SELECT timestamp '2024-01-31 10:00' - interval '1 month 1 hour'",
		"SELECT date '2024-01-31' + interval '1 month 1 hour'",
		"SELECT interval '1 day' + interval '1 month 2 hours'",
		"SELECT time '10:00' + interval '1 day 1 hour'",
		"SELECT - interval '1 month 1 hour'",
		"SET TIME ZONE 'America/New_York'",
		"SELECT timestamptz '2024-03-09 12:00-05' + interval '1 day 1 hour'",
		"SELECT timestamptz '2024-02-10 12:00-05' + interval '1 month 1 hour'",
		"SELECT timestamptz '2024-11-02 12:00-04' - interval '-1 day -30 minutes'",
		"RESET TIME ZONE",
	})
}
