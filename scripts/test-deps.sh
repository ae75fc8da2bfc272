#!/usr/bin/env bash
# Installs what the test suite needs and is not part of go.mod; `make test`
# runs it first, so one command sets up and tests on a fresh machine. Each
# step does nothing when its tools are already there.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/local/go/bin"

# Real PostgreSQL clients (../shared/CLIENTS.md): psql for the regress
# suite; pgjdbc, psqlODBC with unixODBC and Debian's Python drivers and
# ORMs (for /usr/bin/python3) for the client suite. The PostgreSQL 15
# server itself for the tests that compare vsqld's answers with it
# (internal/pgtest; /usr/lib/postgresql/15/bin). Chromium, headless, for
# the web console's browser test (server/console_test.go). tcmalloc, which
# vsqld serve --allocator auto|tcmalloc preloads (cmd/vsqld/allocator.go).
APT_PACKAGES="libtcmalloc-minimal4 chromium postgresql-15 postgresql-client-15 libpostgresql-jdbc-java odbc-postgresql unixodbc python3-psycopg2 python3-psycopg python3-sqlalchemy python3-django python3-pyodbc python3-asyncpg default-jdk-headless"
missing=""
for p in $APT_PACKAGES; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  # a JDK already on the machine (javac on PATH) is enough
  if command -v javac >/dev/null 2>&1; then missing="${missing/ default-jdk-headless/}"; fi
fi
if [ -n "${missing// /}" ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q $missing
fi

# Node.js clients: node-postgres, postgres.js, knex, Sequelize, TypeORM.
if [ ! -d clients/node/node_modules ] || [ clients/node/package-lock.json -nt clients/node/node_modules ]; then
  (cd clients/node && npm ci --no-audit --no-fund --loglevel=error)
fi

# versitygw: the real S3-compatible server the S3 tests start
# (../shared/S3.md); a separate binary, not part of go.mod.
VGW_BIN="$(go env GOPATH)/bin/versitygw"
[ -x "$VGW_BIN" ] || go install -ldflags="-s -w" github.com/versity/versitygw/cmd/versitygw@v1.8.0
