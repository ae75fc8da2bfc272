package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestYearsBeforeOne: years, ISO years and decades before year 1 as
// PostgreSQL counts them (no year 0), make_date of a negative year, and
// date_part of infinite dates and timestamps, as on PostgreSQL 15
// (pgcompat/extract.go). DuckDB's astronomical years were one off.
func TestYearsBeforeOne(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE bc (x date)",
		"INSERT INTO bc VALUES ('0001-01-01 BC'), ('0002-12-31 BC'), ('0012-12-31 BC'), ('0100-06-01 BC'), ('0101-06-01 BC'), ('1001-06-01 BC'), ('0001-01-01'), ('0001-01-03 BC'), ('2020-08-11'), (NULL)",
		"SELECT x, extract(year FROM x), extract(isoyear FROM x), extract(decade FROM x), extract(century FROM x), extract(millennium FROM x) FROM bc ORDER BY x",
		"SELECT x, date_part('year', x), date_part('isoyear', x), date_part('decade', x), date_part('y', x::timestamp), EXTRACT(DECADE FROM x::timestamptz), extract(year FROM x::timestamptz), date_part('isoyear', x::timestamptz) FROM bc ORDER BY x",
		"SELECT EXTRACT(YEAR FROM DATE '2020-08-11 BC'), EXTRACT(DECADE FROM DATE '0002-12-31 BC'), extract(decade FROM interval '-25 years'), date_part('year', interval '-3 years')",
		"SELECT date_part('year', 'infinity'::timestamp), date_part('epoch', '-infinity'::timestamptz), date_part('month', 'infinity'::timestamp), date_part('julian', '-infinity'::date), date_part('millennium', 'infinity'::date)",
		"SELECT make_date(-44, 3, 15), make_date(2020, 2, 29), make_date(-1, 12, 31)",
		"SELECT make_date(0, 7, 15)", // 22008
	})
}
