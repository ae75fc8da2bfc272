// Command vsqld serves versioned DuckDB databases to PostgreSQL clients.
//
// `vsqld serve` (the default) starts the server; `vsqld --help` explains
// every flag. `vsqld user add|remove|list` manage the users file of
// SCRAM-SHA-256 verifiers and roles (users.go: add --role, --replace to
// change a password or, with --role and no password, only the role); gc
// and verify are in maintenance.go.
// All wiring lives in Main.Run so that tests can start a server in-process;
// main only connects it to os.Args, standard input, the environment and
// SIGINT/SIGTERM, which start a graceful shutdown, and gives the process
// 16 more Go Ps than CPUs unless GOMAXPROCS is set (raiseGOMAXPROCS:
// sessions inside DuckDB hold theirs; tests in-process keep Go's default).
// Before that, for serve --allocator auto (the default) or tcmalloc, main
// executes vsqld again with tcmalloc preloaded as DuckDB's C allocator
// where the library is installed (allocator.go; --allocator system keeps
// the system's malloc); serve logs the allocator in use and refuses
// --allocator tcmalloc without it. --unix-socket-dir (run.go)
// defaults to PostgreSQL clients' own directories, each tried, not
// required; directories the user names are required. The tests start
// their child vsqlds with no socket (a killed child would leave its socket
// in the system's directories) unless a test asks for one
// (unixsocket_test.go).
package main
