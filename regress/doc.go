// Package regress is vsql's pg_regress-style suite: each test is a SQL
// script (sql/NAME.sql) run through the real psql against a real vsqld, and
// its whole output (statements echoed, results, errors) is compared with
// expected/NAME.out.
//
// `go test ./regress/` builds vsqld, starts it on a free port with a
// temporary repository, and runs every test named in the schedule file in
// order. Each test runs as
//
//	psql -X -a -q -d regress_NAME < sql/NAME.sql > results/NAME.out 2>&1
//
// in a database of its own (created by the runner), so a test depends on no
// other test unless the schedule says so. The port number is replaced by
// PORT in the output. On a mismatch the test fails with a unified diff;
// `go test ./regress/ -update` rewrites expected/ from results/ (read the
// diff before committing it).
//
// Caveats: psql must be installed (.ci/run installs postgresql-client).
// Tests use ORDER BY wherever row order is not defined.
package regress
