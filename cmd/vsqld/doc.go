// Command vsqld serves versioned DuckDB databases to PostgreSQL clients.
//
// `vsqld serve` (the default) starts the server; `vsqld --help` explains
// every flag. All wiring lives in Main.Run so that tests can start a server
// in-process; main only connects it to os.Args, the environment and
// SIGINT/SIGTERM, which start a graceful shutdown.
package main
