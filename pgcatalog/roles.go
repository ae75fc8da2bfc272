package pgcatalog

import (
	"fmt"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// UserVariable and RoleVariable are the DuckDB session variables that hold
// the session's login and its role; the server sets them when the session
// starts (clients cannot: names with __vsql are refused).
const (
	UserVariable = "__vsql_user"
	RoleVariable = "__vsql_role"
	// SessionVariable holds the session's activity token ("<pid>:<random
	// hex>"), by which the engine functions of pg_stat_activity,
	// pg_cancel_backend and pg_terminate_backend know their caller.
	SessionVariable = sqltext.SessionVariable
)

// The engine functions the server registers for the activity catalog:
// ActivityFunction(token) is pg_stat_activity's rows as the caller may
// see them; SignalFunction(pid, token, terminate) cancels (and
// terminates) a session.
const (
	ActivityFunction = "__vsql_activity"
	// CursorsFunction(token) is pg_cursors' rows: the caller's own open
	// SQL cursors.
	CursorsFunction = "__vsql_cursors"
	// PreparedFunction(token) is pg_prepared_statements' rows: the
	// caller's statements of SQL PREPARE.
	PreparedFunction = "__vsql_prepared_statements"
	// ClockFunction() is the wall clock's time (clock_timestamp()).
	ClockFunction  = "__vsql_clock_timestamp"
	SignalFunction = "__vsql_signal_backend"
)

// Role is one user of the users file as pg_roles shows it.
type Role struct {
	Name string
	Role string // admin, write or read
}

// AccessGrant is one grant as the privilege functions read it; Level is
// 1 read, 2 write, 3 merge, 4 admin.
type AccessGrant struct {
	User, Database, Pattern string
	Level                   int
}

// Protected is a protected branch.
type Protected struct{ Database, Branch string }

// SyncAccess returns the statement that makes pg_roles and the
// has_*_privilege functions answer from these users, grants and protected
// branches.
func SyncAccess(roles []Role, grants []AccessGrant, protected []Protected) string {
	p := sqltext.PGCatalogSchema
	q := []string{"DELETE FROM " + p + ".vsql_roles", "DELETE FROM " + p + ".vsql_grants", "DELETE FROM " + p + ".vsql_protected"}
	values := func(table string, rows []string) {
		if len(rows) > 0 {
			q = append(q, "INSERT INTO "+p+"."+table+" VALUES "+strings.Join(rows, ", "))
		}
	}
	var rows []string
	for i, r := range roles {
		rows = append(rows, fmt.Sprintf("(%s, %s, %d)", sqltext.QuoteString(r.Name), sqltext.QuoteString(r.Role), 16384+i))
	}
	values("vsql_roles", rows)
	rows = nil
	for _, g := range grants {
		rows = append(rows, fmt.Sprintf("(%s, %s, %s, %d)", sqltext.QuoteString(g.User), sqltext.QuoteString(g.Database), sqltext.QuoteString(g.Pattern), g.Level))
	}
	values("vsql_grants", rows)
	rows = nil
	for _, b := range protected {
		rows = append(rows, fmt.Sprintf("(%s, %s)", sqltext.QuoteString(b.Database), sqltext.QuoteString(b.Branch)))
	}
	values("vsql_protected", rows)
	return strings.Join(q, ";\n")
}

// rolesSQL defines pg_roles, pg_user, current_user and the privilege
// functions over the tables SyncAccess fills. A session's database name is
// db, db/branch or db@snapshot (current_database()); snapshots are
// read-only, and writes to protected branches are refused to everyone.
var rolesSQL = []string{
	`CREATE TABLE IF NOT EXISTS {P}.vsql_roles (rolname VARCHAR, role VARCHAR, oid BIGINT)`,
	`CREATE TABLE IF NOT EXISTS {P}.vsql_grants (usename VARCHAR, datname VARCHAR, pattern VARCHAR, level INTEGER)`,
	`CREATE TABLE IF NOT EXISTS {P}.vsql_protected (datname VARCHAR, branch VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.vsql_current_user() AS CAST(getvariable('{USERVAR}') AS VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.vsql_session_user() AS CAST(getvariable('{USERVAR}') AS VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.vsql_current_role() AS CAST(getvariable('{USERVAR}') AS VARCHAR)`,
	// Sessions: what each runs, and signals to them (server/activity.go).
	`CREATE OR REPLACE VIEW {P}.pg_stat_activity AS SELECT * FROM ` + ActivityFunction + `(coalesce(CAST(getvariable('{SESSVAR}') AS VARCHAR), ''))`,
	`CREATE OR REPLACE VIEW {P}.pg_cursors AS SELECT * FROM ` + CursorsFunction + `(coalesce(CAST(getvariable('{SESSVAR}') AS VARCHAR), ''))`,
	`CREATE OR REPLACE VIEW {P}.pg_prepared_statements AS SELECT * FROM ` + PreparedFunction + `(coalesce(CAST(getvariable('{SESSVAR}') AS VARCHAR), ''))`,
	`CREATE OR REPLACE MACRO {P}.pg_backend_pid() AS CAST(split_part(CAST(getvariable('{SESSVAR}') AS VARCHAR), ':', 1) AS INTEGER)`,
	// clock_timestamp(): the time now; statement_timestamp(): when the
	// session's current query message arrived (pg_stat_activity's
	// query_start), or the transaction's start when that is later (the
	// first statement outside a block, as in PostgreSQL)
	`CREATE OR REPLACE MACRO {P}.clock_timestamp() AS ` + ClockFunction + `()`,
	`CREATE OR REPLACE MACRO {P}.statement_timestamp() AS greatest(coalesce((SELECT query_start FROM {P}.pg_stat_activity WHERE pid = {P}.pg_backend_pid()), now()), now())`,
	`CREATE OR REPLACE MACRO {P}.pg_cancel_backend(p) AS ` + SignalFunction + `(CAST(p AS BIGINT), coalesce(CAST(getvariable('{SESSVAR}') AS VARCHAR), ''), false)`,
	`CREATE OR REPLACE MACRO {P}.pg_terminate_backend(p) AS ` + SignalFunction + `(CAST(p AS BIGINT), coalesce(CAST(getvariable('{SESSVAR}') AS VARCHAR), ''), true),
		(p, timeout) AS ` + SignalFunction + `(CAST(p AS BIGINT), coalesce(CAST(getvariable('{SESSVAR}') AS VARCHAR), ''), true)`,
	// Without users every trusted session is an admin, under whatever name it gave.
	`CREATE OR REPLACE VIEW {P}.vsql_logins AS
		SELECT rolname, role, oid FROM {P}.vsql_roles
		UNION ALL SELECT {P}.vsql_current_user(), CAST(getvariable('{ROLEVAR}') AS VARCHAR), CAST(16383 AS BIGINT)
			WHERE NOT EXISTS (SELECT 1 FROM {P}.vsql_roles WHERE rolname = {P}.vsql_current_user())`,
	`CREATE OR REPLACE MACRO {P}.vsql_role_of(u) AS (SELECT max(role) FROM {P}.vsql_logins WHERE rolname = u)`,
	`CREATE OR REPLACE MACRO {P}.vsql_db_part(d) AS regexp_extract(d, '^[^/@]*')`,
	`CREATE OR REPLACE MACRO {P}.vsql_branch_part(d) AS CASE WHEN contains(d, '@') THEN NULL WHEN contains(d, '/') THEN split_part(d, '/', 2) ELSE 'main' END`,
	`CREATE OR REPLACE MACRO {P}.vsql_level(u, d) AS CASE {P}.vsql_role_of(u)
		WHEN 'admin' THEN 4
		WHEN 'read' THEN least(1, coalesce((SELECT max(level) FROM {P}.vsql_grants g WHERE g.usename = u AND g.datname = {P}.vsql_db_part(d)
			AND ({P}.vsql_branch_part(d) IS NULL OR {P}.vsql_branch_part(d) GLOB g.pattern)), 0))
		WHEN 'write' THEN coalesce((SELECT max(level) FROM {P}.vsql_grants g WHERE g.usename = u AND g.datname = {P}.vsql_db_part(d)
			AND ({P}.vsql_branch_part(d) IS NULL OR {P}.vsql_branch_part(d) GLOB g.pattern)), 0)
		ELSE 0 END`,
	// What writing to the session's own version needs: level 2, a branch, not protected.
	`CREATE OR REPLACE MACRO {P}.vsql_may_write(u, d) AS {P}.vsql_level(u, d) >= 2 AND {P}.vsql_branch_part(d) IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM {P}.vsql_protected p WHERE p.datname = {P}.vsql_db_part(d) AND p.branch = {P}.vsql_branch_part(d))`,
	`CREATE OR REPLACE MACRO {P}.vsql_table_privilege(u, p) AS CASE
		WHEN regexp_matches(upper(p), 'INSERT|UPDATE|DELETE|TRUNCATE|REFERENCES|TRIGGER') THEN {P}.vsql_may_write(u, ` + cd + `)
		ELSE {P}.vsql_level(u, ` + cd + `) >= 1 END`,
	`CREATE OR REPLACE MACRO {P}.has_table_privilege(a, b) AS {P}.vsql_table_privilege({P}.vsql_current_user(), b),
		(a, b, c) AS {P}.vsql_table_privilege(a, c)`,
	`CREATE OR REPLACE MACRO {P}.has_schema_privilege(a, b) AS CASE WHEN contains(upper(b), 'CREATE') THEN {P}.vsql_may_write({P}.vsql_current_user(), ` + cd + `)
			ELSE {P}.vsql_level({P}.vsql_current_user(), ` + cd + `) >= 1 END,
		(a, b, c) AS CASE WHEN contains(upper(c), 'CREATE') THEN {P}.vsql_may_write(a, ` + cd + `) ELSE {P}.vsql_level(a, ` + cd + `) >= 1 END`,
	`CREATE OR REPLACE MACRO {P}.has_database_privilege(a, b) AS {P}.vsql_level({P}.vsql_current_user(), a) >= CASE WHEN contains(upper(b), 'CREATE') THEN 2 ELSE 1 END,
		(a, b, c) AS {P}.vsql_level(a, b) >= CASE WHEN contains(upper(c), 'CREATE') THEN 2 ELSE 1 END`,
	`CREATE OR REPLACE MACRO {P}.pg_has_role(a, b) AS {P}.vsql_role_of({P}.vsql_current_user()) = 'admin' OR a = {P}.vsql_current_user(),
		(a, b, c) AS {P}.vsql_role_of(a) = 'admin' OR a = b`,
	`CREATE OR REPLACE VIEW {P}.pg_roles AS SELECT rolname, role = 'admin' AS rolsuper, true AS rolinherit, role = 'admin' AS rolcreaterole,
		role = 'admin' AS rolcreatedb, true AS rolcanlogin, false AS rolreplication, -1 AS rolconnlimit, '********' AS rolpassword,
		CAST(NULL AS TIMESTAMPTZ) AS rolvaliduntil, role = 'admin' AS rolbypassrls, CAST(NULL AS VARCHAR[]) AS rolconfig, oid
		FROM (SELECT {OWNER} AS rolname, 'admin' AS role, CAST(10 AS BIGINT) AS oid UNION ALL SELECT rolname, role, oid FROM {P}.vsql_logins)`,
	`CREATE OR REPLACE VIEW {P}.pg_user AS SELECT rolname AS usename, oid AS usesysid, rolcreatedb AS usecreatedb,
		rolsuper AS usesuper, false AS userepl, rolbypassrls AS usebypassrls, '********' AS passwd, CAST(NULL AS TIMESTAMPTZ) AS valuntil,
		CAST(NULL AS VARCHAR[]) AS useconfig FROM {P}.pg_roles`,
}
