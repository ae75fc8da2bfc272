package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestWindowFrameOffsets: a RANGE frame's offset written as a string
// literal is an interval for date/time ORDER BY columns, a GROUPS frame
// needs an ORDER BY, count() is refused, and a FETCH … WITH TIES count
// written NULL is refused before anything runs, as on PostgreSQL 15
// (pgcompat/windowframe.go, pgcompat/fetchties.go).
func TestWindowFrameOffsets(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		"CREATE TABLE wf_dt (id int, f_time time, f_timetz timetz, f_interval interval, f_timestamptz timestamptz, f_timestamp timestamp, f_date date)",
		`INSERT INTO wf_dt VALUES
			(1, '11:00', '11:00 BST', '1 year', '2000-10-19 10:23:54+01', '2000-10-19 10:23:54', '2000-10-19'),
			(2, '12:00', '12:00 BST', '2 years', '2001-10-19 10:23:54+01', '2001-10-19 10:23:54', '2001-10-19'),
			(3, '13:00', '13:00 BST', '3 years', '2001-10-19 10:23:54+01', '2001-10-19 10:23:54', '2001-10-19'),
			(4, '14:00', '14:00 BST', '4 years', '2002-10-19 10:23:54+01', '2002-10-19 10:23:54', '2002-10-19'),
			(5, '15:00', '15:00 BST', '5 years', '2003-10-19 10:23:54+01', '2003-10-19 10:23:54', '2003-10-19'),
			(6, '15:00', '15:00 BST', '5 years', '2004-10-19 10:23:54+01', '2004-10-19 10:23:54', '2004-10-19'),
			(7, '17:00', '17:00 BST', '7 years', '2005-10-19 10:23:54+01', '2005-10-19 10:23:54', '2005-10-19'),
			(8, '18:00', '18:00 BST', '8 years', '2006-10-19 10:23:54+01', '2006-10-19 10:23:54', '2006-10-19')`,
		"SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM wf_dt WINDOW w AS (ORDER BY f_time RANGE BETWEEN '70 min' PRECEDING AND '2 hours' FOLLOWING) ORDER BY id",
		"SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM wf_dt WINDOW w AS (ORDER BY f_time DESC RANGE BETWEEN '70 min' PRECEDING AND '2 hours' FOLLOWING) ORDER BY id",
		"SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM wf_dt WINDOW w AS (ORDER BY f_timetz RANGE BETWEEN '70 min' PRECEDING AND '2 hours' FOLLOWING) ORDER BY id",
		"SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM wf_dt WINDOW w AS (ORDER BY f_interval DESC RANGE BETWEEN '1 year' PRECEDING AND '1 year' FOLLOWING) ORDER BY id",
		"SELECT id, first_value(id) OVER w, last_value(id) OVER w FROM wf_dt WINDOW w AS (ORDER BY f_timestamptz RANGE BETWEEN '1 year' PRECEDING AND '1 year' FOLLOWING) ORDER BY id",
		"SELECT id, count(*) OVER w, sum(id) OVER w FROM wf_dt WINDOW w AS (ORDER BY f_timestamp DESC RANGE BETWEEN '1 year' PRECEDING AND '1 year' FOLLOWING) ORDER BY id",
		"SELECT id, count(*) OVER (ORDER BY f_date RANGE BETWEEN '1 year 6 mons' PRECEDING AND CURRENT ROW) FROM wf_dt ORDER BY id",
		"SELECT id, count(*) OVER (ORDER BY f_date RANGE '@ 2 years' PRECEDING) FROM wf_dt ORDER BY id",
		"SELECT id, sum(id) OVER (ORDER BY f_timestamp RANGE BETWEEN CURRENT ROW AND 'P1Y1D' FOLLOWING) FROM wf_dt ORDER BY id",
		"SELECT id, sum(id) OVER (ORDER BY id RANGE BETWEEN '1' PRECEDING AND '2' FOLLOWING) FROM wf_dt ORDER BY id",
		"SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM wf_dt ORDER BY id",
		"SELECT id, sum(id) OVER (ORDER BY id::numeric RANGE BETWEEN ' 1.5' PRECEDING AND '1e0' FOLLOWING) FROM wf_dt ORDER BY id",
		"SELECT id, sum(id) OVER (ORDER BY id ROWS BETWEEN '1' PRECEDING AND CURRENT ROW) FROM wf_dt ORDER BY id",
		"SELECT min(i) OVER (ORDER BY i RANGE BETWEEN '1 day' PRECEDING AND '10 days' FOLLOWING) FROM generate_series('2020-01-01'::timestamptz, '2020-01-31'::timestamptz, '1 day') i ORDER BY i",
		// lag and lead with a default of a wider type: the common type
		"SELECT id, (lead(id * 2, 1, -1.4) OVER (ORDER BY id))::float8, (lag(id, 2, 0.7) OVER (ORDER BY id))::float8, lag(id, 1, 0) OVER (ORDER BY id) FROM wf_dt ORDER BY id",
		"SELECT id, lead(id::float8 / 4, 1, 1.5e0) OVER (ORDER BY id), pg_typeof(lag(id::float8, 1, 0.5) OVER (ORDER BY id)) FROM wf_dt ORDER BY id",
		"SELECT sum(l) FROM (SELECT lag(id, 1, 0.25) OVER (ORDER BY id) AS l FROM wf_dt) s",
		// nth_value(x, n) with n <= 0 is 22016 when it runs
		"SELECT id, nth_value(id, 0) OVER (ORDER BY id) FROM wf_dt",
		"SELECT id, nth_value(id, -1) OVER (ORDER BY id) FROM wf_dt",
		"SELECT id, nth_value(id, 0) OVER (ORDER BY id) FROM wf_dt WHERE false",
		"SELECT id, nth_value(id, NULL::int) OVER (ORDER BY id), nth_value(id, 3) OVER (ORDER BY id), nth_value(id, 10 / 4) OVER (ORDER BY id) FROM wf_dt ORDER BY id",
		"SELECT x, nth_value(x, n) OVER (ORDER BY x) FROM (VALUES (1, 2), (2, 1), (3, 3)) t(x, n) ORDER BY x",
		"SELECT x, nth_value(x, n) OVER (ORDER BY x) FROM (VALUES (1, 2), (2, 0)) t(x, n) ORDER BY x",
		// GROUPS needs an ORDER BY: 42P20
		"SELECT id, sum(id) OVER (PARTITION BY f_date GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM wf_dt",
		"SELECT id, sum(id) OVER (GROUPS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM wf_dt",
		"SELECT id, sum(id) OVER (PARTITION BY f_date ORDER BY id GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM wf_dt ORDER BY id",
		"SELECT id, sum(id) OVER (w GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM wf_dt WINDOW w AS (ORDER BY f_date) ORDER BY id",
		// window functions where PostgreSQL allows none: 42P20 (42803
		// inside an aggregate)
		"SELECT 1 FROM wf_dt WHERE rank() OVER () > 1",
		"SELECT 1 FROM wf_dt GROUP BY rank() OVER ()",
		"SELECT 1 FROM wf_dt HAVING rank() OVER () > 1",
		"UPDATE wf_dt SET id = rank() OVER ()",
		"DELETE FROM wf_dt RETURNING rank() OVER ()",
		"INSERT INTO wf_dt (id) VALUES (rank() OVER ())",
		"SELECT sum(rank() OVER ()) FROM wf_dt",
		// count() is 42809
		"SELECT count() FROM wf_dt",
		"SELECT count() OVER () FROM wf_dt",
		"SELECT count(*), count(id), count( * ) FROM wf_dt",
		// FETCH FIRST NULL ROWS WITH TIES is refused when the view is made
		"CREATE VIEW wf_v AS SELECT id FROM wf_dt ORDER BY f_date FETCH FIRST NULL ROWS WITH TIES",
		"CREATE VIEW wf_v AS SELECT id FROM wf_dt ORDER BY f_date FETCH FIRST (NULL + 1) ROWS WITH TIES",
		"SELECT * FROM wf_v ORDER BY id",
	})
}
