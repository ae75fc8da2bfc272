package server_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestZones checks time zones as PostgreSQL 15 reads them, on a real
// PostgreSQL 15 and on vsqld: the forms of SET TIME ZONE (numbers of hours
// east, POSIX offsets west, INTERVAL, fractional offsets) with SHOW, output
// and to_char's OF/TZH/TZM/TZ, and dynamic abbreviations (MSK, VET) in AT
// TIME ZONE, timezone(), make_timestamptz and date_trunc.
func TestZones(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	ts := "SELECT timestamptz '2020-07-01 12:00:00+00' AS summer, timestamptz '2020-01-15 23:30:00+00' AS winter, to_char(now(), 'OF') AS of, to_char(now(), 'TZH:TZM') AS tzh, to_char(timestamptz '2020-07-01 12:00:00+00', 'YYYY-MM-DD HH24:MI:SS TZ tz') AS tz"
	steps := []string{}
	for _, set := range []string{
		"SET timezone = '00:00'", "SET timezone = '+02:00'", "SET timezone = '-13:00'",
		"SET timezone = '-00:30'", "SET timezone = '00:30'", "SET timezone = '-04:30'",
		"SET timezone = '04:30'", "SET timezone = '-04:15'", "SET timezone = '04:15'",
		"SET TIME ZONE 10.5", "SET TIME ZONE -8", "SET TIME ZONE '-1.5'", "SET TIME ZONE 0",
		"SET TIME ZONE 5", "SET TIME ZONE 1.001", "SET TIME ZONE 15", "SET TIME ZONE -15.75",
		"SET TIME ZONE INTERVAL '+05:30' HOUR TO MINUTE", "SET TIME ZONE INTERVAL '-08:00' HOUR TO MINUTE",
		"SET timezone = 'UTC+3'", "SET timezone = 'america/new_york'", "SET timezone = 'Asia/Kolkata'",
		"SET timezone = 'Etc/GMT-5'", "SET TIME ZONE LOCAL", "SET TIME ZONE DEFAULT",
	} {
		steps = append(steps, set, "SHOW timezone", ts)
	}
	steps = append(steps,
		// refused as PostgreSQL refuses them
		"SET TIME ZONE 168", "SET timezone = '+168:00'", "SET timezone = 'foo'", "SET TIME ZONE 'MSK'",
		"SHOW timezone",
		// horology.sql: SQL-style fixed offset
		"SET TIME ZONE 'America/New_York'", "SET TIME ZONE '-1.5'", "SHOW TIME ZONE",
		"SELECT '2012-12-12 12:00'::timestamptz",
		"SELECT '2012-12-12 12:00 America/New_York'::timestamptz",
		"SELECT to_char('2012-12-12 12:00'::timestamptz, 'YYYY-MM-DD HH:MI:SS TZ')",
		"SELECT to_char('2012-12-12 12:00'::timestamptz, 'YYYY-MM-DD SSSS')",
		"RESET TIME ZONE", "SHOW TIME ZONE",
		// json.sql: SET LOCAL in a transaction
		"BEGIN", "SET LOCAL TIME ZONE 10.5",
		"SELECT timestamptz '2014-05-28 12:22:35.614298-04', to_char(timestamptz '2014-05-28 12:22:35.614298-04', 'HH24:MI OF')",
		"SET LOCAL TIME ZONE -8",
		"SELECT timestamptz '2014-05-28 12:22:35.614298-04', to_char(timestamptz '2014-05-28 12:22:35.614298-04', 'HH24:MI OF')",
		"COMMIT", "SHOW timezone",
	)
	// dynamic abbreviations: MSK was UTC+3 until 2011-03-27, UTC+4 until
	// 2014-10-26, UTC+3 since (timestamptz.sql)
	steps = append(steps, "SET TimeZone to 'UTC'")
	for _, x := range []string{"2011-03-27 00:00:00", "2011-03-27 01:59:59", "2011-03-27 02:00:00", "2011-03-27 02:00:01", "2011-03-27 03:00:00", "2011-03-27 04:00:00",
		"2014-10-26 00:00:00", "2014-10-26 00:59:59", "2014-10-26 01:00:00", "2014-10-26 01:00:01", "2014-10-26 02:00:00", "2020-07-01 12:00:00", "1990-01-01 12:00:00"} {
		steps = append(steps,
			"SELECT '"+x+"'::timestamp AT TIME ZONE 'MSK', '"+x+"'::timestamp AT TIME ZONE 'Europe/Moscow', timezone('msk', '"+x+"'::timestamp)",
			"SELECT '"+x+" UTC'::timestamptz AT TIME ZONE 'MSK', timezone('MSK', '"+x+" UTC'::timestamptz), '"+x+" UTC'::timestamptz AT TIME ZONE 'VET'")
	}
	steps = append(steps,
		"SELECT make_timestamptz(2014, 10, 26, 0, 0, 0, 'MSK')",
		"SELECT make_timestamptz(2014, 10, 26, 1, 0, 0, 'MSK')",
		"SELECT make_timestamptz(2010, 12, 31, 23, 0, 0, 'msk'), make_timestamptz(2013, 6, 1, 0, 0, 0, 'MSK')",
		"SELECT date_trunc('day', timestamp with time zone '2001-02-16 20:38:40+00', 'VET') AS vet_trunc",
		"SELECT date_trunc('day', timestamp with time zone '2001-02-16 20:38:40+00', 'GMT') AS gmt_trunc",
		"SELECT date_trunc('day', timestamp with time zone '2001-02-16 20:38:40+00', 'Australia/Sydney') AS sydney_trunc",
		// fixed offsets ICU cannot name; NULL and infinity
		"SELECT timestamptz '2020-07-01 12:00:00+00' AT TIME ZONE 'UTC+4:30', timestamp '2020-07-01 12:00:00' AT TIME ZONE 'NST', timestamp '2020-07-01 12:00:00' AT TIME ZONE 'ACWST'",
		"SELECT NULL::timestamp AT TIME ZONE 'MSK', timestamp 'infinity' AT TIME ZONE 'MSK', timestamptz '-infinity' AT TIME ZONE 'MSK'",
		"CREATE TABLE zt (id int, t timestamp, tz timestamptz)",
		"INSERT INTO zt VALUES (1, '2012-01-01 10:00', '2012-01-01 10:00+00'), (2, '2016-07-01 10:00', '2016-07-01 10:00+00'), (3, NULL, NULL)",
		"SELECT id, t AT TIME ZONE 'MSK', tz AT TIME ZONE 'MSK', (tz AT TIME ZONE 'MSK') - (tz AT TIME ZONE 'UTC') AS shift FROM zt ORDER BY id",
		// a POSIX rule of its own: DuckDB cannot follow it
		"SELECT timestamptz '2020-07-01 12:00:00+00' AT TIME ZONE 'foo/bar'",
	)
	compareSteps(t, pg, vs, steps)

	// PostgreSQL accepts a POSIX zone with a daylight-saving rule of its
	// own (horology.sql); DuckDB cannot follow one, so vsqld refuses it
	// with 22023 and a hint, and keeps the session's zone.
	for _, set := range []string{"SET TIME ZONE 'CST7CDT,M4.1.0,M10.5.0'", "SET timezone = 'XYZ5ABC4'"} {
		_, err := execText(vs, set)
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "22023" || !strings.Contains(pe.Hint, "tz database") {
			t.Errorf("%s: %v; want 22023 with a hint", set, err)
		}
		if _, err := execText(pg, set); err != nil {
			t.Errorf("%s on PostgreSQL: %v", set, err)
		}
		if _, err := execText(pg, "RESET TIME ZONE"); err != nil {
			t.Fatal(err)
		}
	}
	compareSteps(t, pg, vs, []string{"SHOW timezone"})

	// An offset DuckDB has no zone for is followed by vsql's own code but
	// not by DuckDB's: SET says so with a WARNING (PostgreSQL sends none).
	addr := startServer(t, nil)
	for set, warns := range map[string]bool{"SET TIME ZONE '-04:30'": true, "SET TIME ZONE 10.5": true, "SET TIME ZONE -8": false, "SET TIME ZONE 'Asia/Kolkata'": false} {
		cfg, err := pgconn.ParseConfig(dsn(addr, "postgres"))
		if err != nil {
			t.Fatal(err)
		}
		var notices []*pgconn.Notice
		cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) { notices = append(notices, n) }
		c, err := pgconn.ConnectConfig(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := execText(c, set); err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		if got := len(notices) == 1 && notices[0].Code == "01000" && notices[0].Severity == "WARNING"; got != warns || !warns && len(notices) > 0 {
			t.Errorf("%s: notices %v, want a warning: %v", set, notices, warns)
		}
		c.Close(context.Background())
	}
}
