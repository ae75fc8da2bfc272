// Package clients is the client suite: real PostgreSQL clients — psql is
// in regress — run against a fresh vsqld and check real answers: the
// tables and columns they create are listed back with their types, and
// rows round-trip with parameters and transactions. Every client works in
// its own database and uses a db/branch dbname.
//
// Each client is a small program (python/, node/, java/, or Go code in
// clients_test.go) that prints what it sees; TestClients compares that with
// expected/<client>.out (go test ./clients/ -update rewrites them: read the
// diff). .ci/run installs the clients as ../shared/CLIENTS.md shows: Debian
// packages (pgjdbc, psqlODBC with unixODBC, psycopg2, psycopg 3, asyncpg,
// SQLAlchemy, Django, pyodbc) and npm packages (clients/node/package.json).
// Python clients run under /usr/bin/python3, where Debian's packages live.
package clients
