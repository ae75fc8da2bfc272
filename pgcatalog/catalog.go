package pgcatalog

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// Options are the facts the catalogs report that vsql, not DuckDB, knows.
type Options struct {
	// ServerVersion is reported by version() and server_version.
	ServerVersion string
	// Settings are the PostgreSQL settings' defaults, by lower-case name,
	// for current_setting.
	Settings map[string]string
}

// Owner is the role that owns every object in vsql's catalogs.
const Owner = "vsql"

// SettingsVariable is the DuckDB session variable (SET VARIABLE) holding
// a session's changed settings as a MAP(VARCHAR, VARCHAR), read by
// current_setting.
const SettingsVariable = "__vsql_settings"

// SearchPathVariable is the DuckDB variable that holds a session's
// effective search_path (the schemas of it that exist, by PostgreSQL's
// names) once the session set search_path; current_schema(),
// current_schemas() and pg_table_is_visible read it.
const SearchPathVariable = "__vsql_search_path"

// Exec runs one statement.
type Exec func(ctx context.Context, query string) error

// Setup creates the schemas, views and macros, in order.
func Setup(ctx context.Context, exec Exec, opts Options) error {
	for _, q := range Statements(opts) {
		if err := exec(ctx, q); err != nil {
			first, _, _ := strings.Cut(q, "\n")
			return fmt.Errorf("create PostgreSQL catalogs (%s): %w", first, err)
		}
	}
	return nil
}

// SyncDatabases returns the statement that makes pg_database list the
// databases given by name and id (the oid is 16384 + id).
func SyncDatabases(dbs map[string]int64) string {
	names := make([]string, 0, len(dbs))
	for n := range dbs {
		names = append(names, n)
	}
	sort.Strings(names)
	q := "DELETE FROM " + sqltext.PGCatalogSchema + ".vsql_databases"
	if len(names) == 0 {
		return q
	}
	var rows []string
	for _, n := range names {
		rows = append(rows, fmt.Sprintf("(%d, %s)", 16384+dbs[n], sqltext.QuoteString(n)))
	}
	return q + ";\nINSERT INTO " + sqltext.PGCatalogSchema + ".vsql_databases VALUES " + strings.Join(rows, ", ")
}

// Statements is the SQL that Setup runs.
func Statements(opts Options) []string {
	scalarMap, arrayMap := duckMaps()
	var defaults []string
	names := make([]string, 0, len(opts.Settings))
	for n := range opts.Settings {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		defaults = append(defaults, sqltext.QuoteString(n)+": "+sqltext.QuoteString(opts.Settings[n]))
	}
	// read-only facts clients ask pg_settings for (pgjdbc: max_index_keys)
	for _, kv := range [][2]string{{"max_index_keys", "32"}, {"block_size", "8192"}, {"lc_collate", "C"}, {"lc_ctype", "C"}} {
		if _, ok := opts.Settings[kv[0]]; !ok {
			defaults = append(defaults, sqltext.QuoteString(kv[0])+": "+sqltext.QuoteString(kv[1]))
		}
	}
	settingsMap := "(MAP {" + strings.Join(defaults, ", ") + "}::MAP(VARCHAR, VARCHAR))"
	if len(defaults) == 0 {
		settingsMap = "(MAP {}::MAP(VARCHAR, VARCHAR))"
	}
	r := strings.NewReplacer(
		"{P}", sqltext.PGCatalogSchema,
		"{I}", sqltext.InfoSchema,
		"{TYPES}", typeRows(),
		"{DUCKOID}", scalarMap,
		"{DUCKARRAY}", arrayMap,
		"{DISPLAY}", displayMap(),
		"{UDT}", udtMap(),
		"{SETTINGS}", settingsMap,
		"{SETVAR}", sqltext.QuoteString(SettingsVariable),
		"{PATHVAR}", sqltext.QuoteString(SearchPathVariable),
		"{OWNER}", sqltext.QuoteString(Owner),
		"{USERVAR}", UserVariable,
		"{ROLEVAR}", RoleVariable,
		"{SESSVAR}", SessionVariable,
		"{VERSION}", sqltext.QuoteString("PostgreSQL "+opts.ServerVersion+" on x86_64-pc-linux-gnu, vsql over DuckDB, 64-bit"),
	)
	var out []string
	for _, s := range append(append(append([]string{}, catalogSQL...), rolesSQL...), keywordsSQL()) {
		out = append(out, r.Replace(s))
	}
	return out
}

// cd is the session's database: views filter every DuckDB catalog
// function by it.
const cd = "current_database()"

var catalogSQL = []string{
	`CREATE SCHEMA IF NOT EXISTS {P}`,
	`CREATE SCHEMA IF NOT EXISTS {I}`,
	`CREATE TABLE IF NOT EXISTS {P}.vsql_databases (oid BIGINT, datname VARCHAR)`,
	// DuckDB's schema main is public; the session's temporary objects
	// (DuckDB's catalog temp) are in pg_temp_1.
	// nextval('s') defaults read as PostgreSQL prints them (ORMs recognize
	// serial columns by nextval('…'::regclass); a sequence in main, as
	// pg_dump's public.s is stored, is unqualified); boolean defaults as true
	// and false (TypeORM compares them with what it would write)
	// (a nextval default is stored as the call that records its value for
	// the session, sqltext.TrackedNextval: vsql_untracked reads it back)
	`CREATE OR REPLACE MACRO {P}.vsql_untracked(d) AS regexp_replace(d,
		'^__vsql_nextval\(getvariable\(''__vsql_session''\), ''[^'']*'', (nextval\(''[^'']*''\))\)$', '\1')`,
	`CREATE OR REPLACE MACRO {P}.vsql_default(d) AS CASE d WHEN 'CAST(''t'' AS BOOLEAN)' THEN 'true' WHEN 'CAST(''f'' AS BOOLEAN)' THEN 'false'
		ELSE regexp_replace({P}.vsql_untracked(d), '^nextval\(''(?:main\.)?([^'']+)''\)$', 'nextval(''\1''::regclass)') END`,
	// the session's search_path, its schemas that exist (server's
	// searchpath.go sets the variable once search_path is set)
	`CREATE OR REPLACE MACRO {P}.vsql_search_path() AS coalesce(getvariable({PATHVAR}), ['public'])`,
	`CREATE OR REPLACE MACRO {P}.vsql_nspname(db, s) AS CASE WHEN db = 'temp' THEN 'pg_temp_1' WHEN s = 'main' THEN 'public' ELSE s END`,

	// --- types ---
	`CREATE OR REPLACE VIEW {P}.vsql_types AS SELECT * FROM (VALUES {TYPES}) t(oid, typname, display, typlen, typcategory, typelem, typarray)`,
	// user ENUM types (CREATE TYPE … AS ENUM): a column's data_type spells
	// the labels, ENUM('a', 'b'), not the type's name; vsql_enum_sig
	// spells a type's labels the same way to find it
	`CREATE OR REPLACE MACRO {P}.vsql_enum_sig(labels) AS 'ENUM(' || array_to_string(list_transform(labels, x -> '''' || replace(x, '''', '''''') || ''''), ', ') || ')'`,
	`CREATE OR REPLACE VIEW {P}.vsql_enums AS SELECT CAST(type_oid AS BIGINT) AS oid, type_name, CAST(schema_oid AS BIGINT) AS nsp, labels,
		{P}.vsql_enum_sig(labels) AS sig FROM duckdb_types() WHERE database_name = ` + cd + ` AND NOT internal AND logical_type = 'ENUM'`,
	// the enums by signature and by oid, as maps: an uncorrelated subquery
	// runs once and keeps the order of the rows it is used on (a
	// correlated one became a join that reordered information_schema
	// columns, which Sequelize reads without ORDER BY)
	`CREATE OR REPLACE MACRO {P}.vsql_enum_oids() AS (SELECT map_from_entries(list((vsql_e.sig, vsql_e.oid))) FROM {P}.vsql_enums vsql_e)`,
	`CREATE OR REPLACE MACRO {P}.vsql_enum_names() AS (SELECT map_from_entries(list((vsql_e.oid, vsql_e.type_name))) FROM {P}.vsql_enums vsql_e)`,
	`CREATE OR REPLACE MACRO {P}.vsql_type_oid(dt) AS CASE
		WHEN dt LIKE 'ENUM(%' THEN coalesce({P}.vsql_enum_oids()[dt], 25)
		WHEN dt LIKE 'DECIMAL%' THEN 1700
		WHEN regexp_matches(dt, '\[\d*\]$') THEN CASE WHEN regexp_replace(dt, '\[\d*\]$', '') LIKE 'DECIMAL%' THEN 1231
			ELSE coalesce({DUCKARRAY}[regexp_replace(dt, '\[\d*\]$', '')], 1009) END
		ELSE coalesce({DUCKOID}[dt], 25) END`,
	`CREATE OR REPLACE MACRO {P}.vsql_typmod(dt) AS CASE
		WHEN regexp_matches(dt, '^DECIMAL\(\d+,\d+\)$')
		THEN ((CAST(regexp_extract(dt, '^DECIMAL\((\d+),', 1) AS INTEGER) << 16) | CAST(regexp_extract(dt, ',(\d+)\)$', 1) AS INTEGER)) + 4
		ELSE -1 END`,
	// vsql_builtin_type: format_type of the built-in types, with no
	// subquery, so that it can run in a lambda (x::regtype[])
	`CREATE OR REPLACE MACRO {P}.vsql_builtin_type(t, m) AS CASE
		WHEN t IS NULL THEN NULL
		WHEN t = 1700 AND m >= 4 THEN 'numeric(' || ((m - 4) >> 16) || ',' || ((m - 4) & 65535) || ')'
		WHEN t IN (1042, 1043) AND m >= 4 THEN {DISPLAY}[t] || '(' || (m - 4) || ')'
		ELSE coalesce({DISPLAY}[t], '???') END`,
	`CREATE OR REPLACE MACRO {P}.format_type(t, m) AS CASE WHEN {DISPLAY}[t] IS NULL AND t IS NOT NULL
		THEN coalesce({P}.vsql_enum_names()[t], '???')
		ELSE {P}.vsql_builtin_type(t, m) END`,
	`CREATE OR REPLACE VIEW {P}.pg_type AS SELECT CAST(oid AS BIGINT) AS oid, typname, CAST(nsp AS BIGINT) AS typnamespace,
		CAST(10 AS BIGINT) AS typowner, CAST(typlen AS SMALLINT) AS typlen, typlen > 0 AND typlen <= 8 AS typbyval,
		CASE typcategory WHEN 'P' THEN 'p' WHEN 'E' THEN 'e' ELSE 'b' END AS typtype, typcategory, false AS typispreferred, true AS typisdefined,
		',' AS typdelim, CAST(0 AS BIGINT) AS typrelid, CAST(0 AS BIGINT) AS typsubscript, CAST(typelem AS BIGINT) AS typelem,
		CAST(typarray AS BIGINT) AS typarray, CAST(CASE WHEN typelem <> 0 THEN 750 ELSE 0 END AS BIGINT) AS typinput,
		CAST(CASE WHEN typelem <> 0 THEN 751 ELSE 0 END AS BIGINT) AS typoutput,
		CAST(CASE WHEN typelem <> 0 THEN 2400 ELSE 0 END AS BIGINT) AS typreceive,
		CAST(CASE WHEN typelem <> 0 THEN 2401 ELSE 0 END AS BIGINT) AS typsend, CAST(0 AS BIGINT) AS typmodin, CAST(0 AS BIGINT) AS typmodout,
		CAST(0 AS BIGINT) AS typanalyze, CASE WHEN typlen = 8 THEN 'd' WHEN typlen = 2 THEN 's' WHEN typlen = 1 THEN 'c' ELSE 'i' END AS typalign,
		CASE WHEN typlen > 0 THEN 'p' ELSE 'x' END AS typstorage, false AS typnotnull, CAST(0 AS BIGINT) AS typbasetype,
		-1 AS typtypmod, 0 AS typndims, CAST(CASE WHEN typcategory = 'S' THEN 100 ELSE 0 END AS BIGINT) AS typcollation,
		CAST(NULL AS VARCHAR) AS typdefaultbin, CAST(NULL AS VARCHAR) AS typdefault, CAST(NULL AS VARCHAR[]) AS typacl
		FROM (SELECT oid, typname, typlen, typcategory, typelem, typarray, 11 AS nsp FROM {P}.vsql_types
			UNION ALL SELECT oid, type_name, 4, 'E', 0, 0, nsp FROM {P}.vsql_enums)`,

	// --- namespaces, roles, databases ---
	`CREATE OR REPLACE VIEW {P}.pg_namespace AS
		SELECT CAST(oid AS BIGINT) AS oid, {P}.vsql_nspname(database_name, schema_name) AS nspname,
			CAST(10 AS BIGINT) AS nspowner, CAST(NULL AS VARCHAR[]) AS nspacl
		FROM duckdb_schemas() WHERE database_name IN (` + cd + `, 'temp') AND schema_name NOT IN ('pg_catalog', 'information_schema')
		UNION ALL SELECT 11, 'pg_catalog', 10, NULL
		UNION ALL SELECT 13000, 'information_schema', 10, NULL`,
	`CREATE OR REPLACE VIEW {P}.pg_database AS SELECT oid, datname, CAST(10 AS BIGINT) AS datdba, 6 AS encoding, 'c' AS datlocprovider,
		false AS datistemplate, true AS datallowconn, -1 AS datconnlimit, CAST(0 AS BIGINT) AS datfrozenxid, CAST(0 AS BIGINT) AS datminmxid,
		CAST(1663 AS BIGINT) AS dattablespace, 'C' AS datcollate, 'C' AS datctype, CAST(NULL AS VARCHAR) AS daticulocale,
		CAST(NULL AS VARCHAR) AS datcollversion, CAST(NULL AS VARCHAR[]) AS datacl
		FROM {P}.vsql_databases`,
	`CREATE OR REPLACE VIEW {P}.pg_am AS SELECT * FROM (VALUES (CAST(2 AS BIGINT), 'heap', 'heap_tableam_handler', 't'),
		(403, 'btree', 'bthandler', 'i'), (405, 'hash', 'hashhandler', 'i')) t(oid, amname, amhandler, amtype)`,
	// the languages PostgreSQL starts with; vsql's functions are macros (sql)
	`CREATE OR REPLACE VIEW {P}.pg_language AS SELECT * FROM (VALUES
		(CAST(12 AS BIGINT), 'internal', CAST(10 AS BIGINT), false, false, CAST(0 AS BIGINT), CAST(0 AS BIGINT), CAST(2246 AS BIGINT), CAST(NULL AS VARCHAR[])),
		(13, 'c', 10, false, false, 0, 0, 2247, NULL),
		(14, 'sql', 10, false, true, 0, 0, 2248, NULL)) t(oid, lanname, lanowner, lanispl, lanpltrusted, lanplcallfoid, laninline, lanvalidator, lanacl)`,
	`CREATE OR REPLACE VIEW {P}.pg_tablespace AS SELECT * FROM (VALUES (CAST(1663 AS BIGINT), 'pg_default', CAST(10 AS BIGINT), CAST(NULL AS VARCHAR[]), CAST(NULL AS VARCHAR[])),
		(1664, 'pg_global', 10, NULL, NULL)) t(oid, spcname, spcowner, spcacl, spcoptions)`,

	// --- indexes and constraints, in one shape ---
	// vsql_keys: primary keys and UNIQUE constraints, which duckdb_indexes()
	// does not list, each with the index PostgreSQL would have made.
	`CREATE OR REPLACE VIEW {P}.vsql_constraints AS
		SELECT c.table_oid * 1000 + c.constraint_index + 500 AS oid,
			CASE c.constraint_type WHEN 'PRIMARY KEY' THEN c.table_name || '_pkey'
				WHEN 'UNIQUE' THEN c.table_name || '_' || array_to_string(c.constraint_column_names, '_') || '_key'
				WHEN 'FOREIGN KEY' THEN c.table_name || '_' || array_to_string(c.constraint_column_names, '_') || '_fkey'
				ELSE c.constraint_name END AS conname,
			CAST(c.schema_oid AS BIGINT) AS connamespace, c.database_name, c.schema_name, c.table_name,
			CASE c.constraint_type WHEN 'PRIMARY KEY' THEN 'p' WHEN 'UNIQUE' THEN 'u' WHEN 'CHECK' THEN 'c' WHEN 'FOREIGN KEY' THEN 'f' END AS contype,
			CAST(c.table_oid AS BIGINT) AS conrelid,
			CASE WHEN c.constraint_type IN ('PRIMARY KEY', 'UNIQUE') THEN c.table_oid * 1000 + c.constraint_index
				WHEN c.constraint_type = 'FOREIGN KEY' THEN coalesce((SELECT k.table_oid * 1000 + k.constraint_index FROM duckdb_constraints() k
					WHERE k.database_name = c.database_name AND k.schema_name = c.schema_name AND k.table_name = c.referenced_table
					AND k.constraint_type IN ('PRIMARY KEY', 'UNIQUE') AND k.constraint_column_names = c.referenced_column_names LIMIT 1), 0)
				ELSE 0 END AS conindid,
			coalesce((SELECT CAST(t.table_oid AS BIGINT) FROM duckdb_tables() t WHERE t.database_name = c.database_name
				AND t.schema_name = c.schema_name AND t.table_name = c.referenced_table), 0) AS confrelid,
			list_transform(c.constraint_column_indexes, x -> CAST(x + 1 AS SMALLINT)) AS conkey,
			c.constraint_column_names AS colnames,
			c.referenced_table, c.referenced_column_names,
			c.expression,
			CASE c.constraint_type WHEN 'PRIMARY KEY' THEN 'PRIMARY KEY (' || array_to_string(c.constraint_column_names, ', ') || ')'
				WHEN 'UNIQUE' THEN 'UNIQUE (' || array_to_string(c.constraint_column_names, ', ') || ')'
				WHEN 'CHECK' THEN CASE WHEN c.expression LIKE '(%)' THEN 'CHECK ' || c.expression ELSE 'CHECK (' || c.expression || ')' END
				WHEN 'FOREIGN KEY' THEN 'FOREIGN KEY (' || array_to_string(c.constraint_column_names, ', ') || ') REFERENCES '
					|| c.referenced_table || '(' || array_to_string(c.referenced_column_names, ', ') || ')'
				END AS condef
		FROM duckdb_constraints() c
		WHERE c.database_name IN (` + cd + `, 'temp') AND c.constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'CHECK', 'FOREIGN KEY')`,
	`CREATE OR REPLACE VIEW {P}.vsql_indexes AS
		WITH parts AS (
			SELECT i.index_oid, i.table_oid, unnest(CAST(i.expressions AS VARCHAR[])) AS e, generate_subscripts(CAST(i.expressions AS VARCHAR[]), 1) AS pos
			FROM duckdb_indexes() i WHERE i.database_name IN (` + cd + `, 'temp')),
		cols AS (
			SELECT p.index_oid, list(coalesce(c.column_index, 0) ORDER BY p.pos) AS colnums,
				list(regexp_replace(p.e, '^"([a-z_][a-z0-9_]*)"$', '\1') ORDER BY p.pos) AS colnames
			FROM parts p LEFT JOIN duckdb_columns() c ON c.database_name IN (` + cd + `, 'temp') AND c.table_oid = p.table_oid
				AND (p.e = '"' || replace(c.column_name, '"', '""') || '"' OR p.e = c.column_name)
			GROUP BY p.index_oid)
		SELECT CAST(i.index_oid AS BIGINT) AS oid, i.index_name AS relname, CAST(i.schema_oid AS BIGINT) AS relnamespace,
			i.database_name, i.schema_name, i.table_name, CAST(i.table_oid AS BIGINT) AS indrelid, i.is_unique AS indisunique, false AS indisprimary,
			coalesce(cols.colnums, []) AS colnums, coalesce(cols.colnames, []) AS colnames
		FROM duckdb_indexes() i LEFT JOIN cols ON cols.index_oid = i.index_oid
		WHERE i.database_name IN (` + cd + `, 'temp')
		UNION ALL
		SELECT c.conindid, c.conname, c.connamespace, c.database_name, c.schema_name, c.table_name, c.conrelid, true, c.contype = 'p',
			c.conkey, c.colnames
		FROM {P}.vsql_constraints c WHERE c.contype IN ('p', 'u')`,
	`CREATE OR REPLACE VIEW {P}.pg_index AS SELECT oid AS indexrelid, indrelid, CAST(len(colnums) AS SMALLINT) AS indnatts,
		CAST(len(colnums) AS SMALLINT) AS indnkeyatts, indisunique, false AS indnullsnotdistinct, indisprimary, false AS indisexclusion, true AS indimmediate,
		false AS indisclustered, true AS indisvalid, false AS indcheckxmin, true AS indisready, true AS indislive,
		false AS indisreplident, CAST(colnums AS SMALLINT[]) AS indkey, list_transform(colnums, x -> CAST(0 AS BIGINT)) AS indcollation,
		list_transform(colnums, x -> CAST(1978 AS BIGINT)) AS indclass, list_transform(colnums, x -> CAST(0 AS SMALLINT)) AS indoption, CAST(NULL AS VARCHAR) AS indexprs,
		CAST(NULL AS VARCHAR) AS indpred
		FROM {P}.vsql_indexes`,
	`CREATE OR REPLACE VIEW {P}.pg_constraint AS SELECT oid, conname, connamespace, contype, false AS condeferrable,
		false AS condeferred, true AS convalidated, conrelid, CAST(0 AS BIGINT) AS contypid, CAST(conindid AS BIGINT) AS conindid,
		CAST(0 AS BIGINT) AS conparentid, confrelid, CASE contype WHEN 'f' THEN 'a' ELSE ' ' END AS confupdtype,
		CASE contype WHEN 'f' THEN 'a' ELSE ' ' END AS confdeltype, CASE contype WHEN 'f' THEN 's' ELSE ' ' END AS confmatchtype,
		true AS conislocal, 0 AS coninhcount, false AS connoinherit, conkey,
		CASE WHEN contype = 'f' THEN (SELECT list(CAST(c.column_index AS SMALLINT) ORDER BY c.column_index) FROM duckdb_columns() c
			WHERE c.database_name IN (` + cd + `, 'temp') AND c.table_oid = confrelid AND list_contains(referenced_column_names, c.column_name)) END AS confkey,
		CAST(NULL AS BIGINT[]) AS conpfeqop, CAST(NULL AS BIGINT[]) AS conppeqop, CAST(NULL AS BIGINT[]) AS conffeqop,
		CAST(NULL AS BIGINT[]) AS conexclop, expression AS conbin
		FROM {P}.vsql_constraints`,

	// --- relations and columns ---
	`CREATE OR REPLACE VIEW {P}.pg_class AS
		SELECT CAST(oid AS BIGINT) AS oid, relname, CAST(relnamespace AS BIGINT) AS relnamespace, CAST(0 AS BIGINT) AS reltype,
			CAST(0 AS BIGINT) AS reloftype, CAST(10 AS BIGINT) AS relowner, CAST(relam AS BIGINT) AS relam,
			CAST(0 AS BIGINT) AS relfilenode, CAST(0 AS BIGINT) AS reltablespace, 0 AS relpages, CAST(reltuples AS FLOAT) AS reltuples,
			0 AS relallvisible, CAST(0 AS BIGINT) AS reltoastrelid, relhasindex, false AS relisshared, relpersistence, relkind,
			CAST(relnatts AS SMALLINT) AS relnatts, CAST(relchecks AS SMALLINT) AS relchecks, false AS relhasrules,
			relhastriggers, false AS relhassubclass, false AS relrowsecurity, false AS relforcerowsecurity,
			true AS relispopulated, 'd' AS relreplident, false AS relispartition, CAST(0 AS BIGINT) AS relrewrite,
			CAST(0 AS BIGINT) AS relfrozenxid, CAST(0 AS BIGINT) AS relminmxid, CAST(NULL AS VARCHAR[]) AS relacl,
			CAST(NULL AS VARCHAR[]) AS reloptions, CAST(NULL AS VARCHAR) AS relpartbound
		FROM (
			SELECT table_oid AS oid, table_name AS relname, schema_oid AS relnamespace, 2 AS relam, estimated_size AS reltuples,
				index_count > 0 OR has_primary_key AS relhasindex, CASE WHEN temporary THEN 't' ELSE 'p' END AS relpersistence,
				CASE WHEN starts_with(comment, '{"vsql_partition"') THEN 'p' ELSE 'r' END AS relkind, column_count AS relnatts, check_constraint_count AS relchecks,
				EXISTS (SELECT 1 FROM duckdb_constraints() k WHERE k.database_name = t.database_name AND k.constraint_type = 'FOREIGN KEY'
					AND (k.table_oid = t.table_oid OR (k.schema_name = t.schema_name AND k.referenced_table = t.table_name))) AS relhastriggers
			FROM duckdb_tables() t WHERE database_name IN (` + cd + `, 'temp')
			UNION ALL
			SELECT view_oid, view_name, schema_oid, 0, 0, false, CASE WHEN temporary THEN 't' ELSE 'p' END,
				-- a partition (server/partition.go) is a view of its tree's rows
				CASE WHEN NOT starts_with(coalesce(comment, ''), '{"vsql_partition"') THEN 'v' WHEN json_extract_string(comment, '$.strategy') IS NULL THEN 'r' ELSE 'p' END,
				column_count, 0, false
			FROM duckdb_views() WHERE database_name IN (` + cd + `, 'temp') AND NOT internal
			UNION ALL
			SELECT sequence_oid, sequence_name, schema_oid, 0, 0, false, CASE WHEN temporary THEN 't' ELSE 'p' END, 'S', 0, 0, false
			FROM duckdb_sequences() WHERE database_name IN (` + cd + `, 'temp')
			UNION ALL
			SELECT oid, relname, relnamespace, 403, 0, false, 'p', 'i', len(colnums), 0, false
			FROM {P}.vsql_indexes)`,
	`CREATE OR REPLACE VIEW {P}.pg_attribute AS
		SELECT CAST(c.table_oid AS BIGINT) AS attrelid, c.column_name AS attname,
			CAST({P}.vsql_type_oid(c.data_type) AS BIGINT) AS atttypid, -1 AS attstattarget,
			CAST(coalesce((SELECT t.typlen FROM {P}.vsql_types t WHERE t.oid = {P}.vsql_type_oid(c.data_type)), -1) AS SMALLINT) AS attlen,
			CAST(c.column_index AS SMALLINT) AS attnum, CASE WHEN c.data_type LIKE '%]' THEN 1 ELSE 0 END AS attndims,
			-1 AS attcacheoff, {P}.vsql_typmod(c.data_type) AS atttypmod, false AS attbyval, 'p' AS attalign,
			CASE WHEN {P}.vsql_type_oid(c.data_type) = 1700 THEN 'm' WHEN (SELECT t.typlen FROM {P}.vsql_types t WHERE t.oid = {P}.vsql_type_oid(c.data_type)) > 0 THEN 'p' ELSE 'x' END AS attstorage,
			'' AS attcompression, NOT c.is_nullable AS attnotnull, c.column_default IS NOT NULL AS atthasdef,
			false AS atthasmissing, '' AS attidentity, '' AS attgenerated, false AS attisdropped, true AS attislocal,
			0 AS attinhcount, CAST(0 AS BIGINT) AS attcollation, CAST(NULL AS VARCHAR[]) AS attacl, CAST(NULL AS VARCHAR[]) AS attoptions,
			CAST(NULL AS VARCHAR[]) AS attfdwoptions, CAST(NULL AS VARCHAR) AS attmissingval
		FROM duckdb_columns() c WHERE c.database_name IN (` + cd + `, 'temp')
		UNION ALL
		SELECT i.oid, c.column_name, CAST({P}.vsql_type_oid(c.data_type) AS BIGINT), -1,
			CAST(coalesce((SELECT t.typlen FROM {P}.vsql_types t WHERE t.oid = {P}.vsql_type_oid(c.data_type)), -1) AS SMALLINT),
			CAST(i.pos AS SMALLINT), 0, -1, {P}.vsql_typmod(c.data_type), false, 'p', 'p', '', false, false, false, '', '', false, true,
			0, CAST(0 AS BIGINT), NULL, NULL, NULL, NULL
		FROM (SELECT oid, indrelid, unnest(colnums) AS colnum, generate_subscripts(colnums, 1) AS pos FROM {P}.vsql_indexes) i
		JOIN duckdb_columns() c ON c.database_name IN (` + cd + `, 'temp') AND c.table_oid = i.indrelid AND c.column_index = i.colnum`,
	`CREATE OR REPLACE VIEW {P}.pg_attrdef AS SELECT CAST(table_oid * 1000 + column_index + 200 AS BIGINT) AS oid,
		CAST(table_oid AS BIGINT) AS adrelid, CAST(column_index AS SMALLINT) AS adnum, {P}.vsql_default(column_default) AS adbin
		FROM duckdb_columns() WHERE database_name IN (` + cd + `, 'temp') AND column_default IS NOT NULL`,
	// the comment of a partition tree's table or view is the tree's JSON,
	// holding the user's own comment (server/partition.go)
	`CREATE OR REPLACE VIEW {P}.pg_description AS
		SELECT * FROM (SELECT CAST(table_oid AS BIGINT) AS objoid, CAST(1259 AS BIGINT) AS classoid, 0 AS objsubid,
				CASE WHEN starts_with(comment, '{"vsql_partition"') THEN json_extract_string(comment, '$.comment') ELSE comment END AS description
			FROM duckdb_tables() WHERE database_name IN (` + cd + `, 'temp') AND comment IS NOT NULL
		UNION ALL SELECT view_oid, 1259, 0, CASE WHEN starts_with(comment, '{"vsql_partition"') THEN json_extract_string(comment, '$.comment') ELSE comment END
			FROM duckdb_views() WHERE database_name IN (` + cd + `, 'temp') AND NOT internal AND comment IS NOT NULL) WHERE description IS NOT NULL
		UNION ALL SELECT table_oid, 1259, column_index, comment FROM duckdb_columns() WHERE database_name IN (` + cd + `, 'temp') AND comment IS NOT NULL`,
	`CREATE OR REPLACE VIEW {P}.pg_proc AS SELECT CAST(f.function_oid AS BIGINT) AS oid, f.function_name AS proname,
		CAST(s.oid AS BIGINT) AS pronamespace, CAST(10 AS BIGINT) AS proowner, CAST(14 AS BIGINT) AS prolang, 100.0 AS procost,
		0.0 AS prorows, CAST(0 AS BIGINT) AS provariadic, CAST(0 AS BIGINT) AS prosupport,
		'f' AS prokind, false AS prosecdef, false AS proleakproof, false AS proisstrict,
		f.function_type = 'table_macro' AS proretset, 'v' AS provolatile, 'u' AS proparallel,
		CAST(len(f.parameters) AS SMALLINT) AS pronargs, CAST(0 AS SMALLINT) AS pronargdefaults,
		CAST(CASE WHEN f.function_type = 'table_macro' THEN 2249 ELSE 2283 END AS BIGINT) AS prorettype,
		CAST(NULL AS BIGINT[]) AS proargtypes, CAST(NULL AS BIGINT[]) AS proallargtypes, CAST(NULL AS VARCHAR[]) AS proargmodes,
		f.parameters AS proargnames, CAST(NULL AS VARCHAR) AS proargdefaults, CAST(NULL AS BIGINT[]) AS protrftypes,
		f.macro_definition AS prosrc, CAST(NULL AS VARCHAR) AS probin, CAST(NULL AS VARCHAR) AS prosqlbody,
		CAST(NULL AS VARCHAR[]) AS proconfig, CAST(NULL AS VARCHAR[]) AS proacl
		FROM duckdb_functions() f JOIN duckdb_schemas() s ON s.database_name = f.database_name AND s.schema_name = f.schema_name
		WHERE f.database_name = ` + cd + ` AND NOT f.internal`,
	// --- what vsql does not have: the right columns, no rows ---
	`CREATE OR REPLACE VIEW {P}.pg_matviews AS SELECT CAST(NULL AS VARCHAR) AS schemaname, CAST(NULL AS VARCHAR) AS matviewname,
		CAST(NULL AS VARCHAR) AS matviewowner, CAST(NULL AS VARCHAR) AS tablespace, false AS hasindexes, false AS ispopulated,
		CAST(NULL AS VARCHAR) AS definition WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_statio_all_tables AS SELECT c.oid AS relid, n.nspname AS schemaname, c.relname,
		CAST(NULL AS BIGINT) AS heap_blks_read, CAST(NULL AS BIGINT) AS heap_blks_hit
		FROM {P}.pg_class c JOIN {P}.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r'`,
	`CREATE OR REPLACE VIEW {P}.pg_stat_all_tables AS SELECT c.oid AS relid, n.nspname AS schemaname, c.relname,
		CAST(NULL AS BIGINT) AS seq_scan, CAST(NULL AS BIGINT) AS n_live_tup
		FROM {P}.pg_class c JOIN {P}.pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r'`,
	`CREATE OR REPLACE VIEW {P}.pg_range AS SELECT CAST(NULL AS BIGINT) AS rngtypid, CAST(NULL AS BIGINT) AS rngsubtype,
		CAST(NULL AS BIGINT) AS rngmultitypid, CAST(NULL AS BIGINT) AS rngcollation, CAST(NULL AS BIGINT) AS rngsubopc,
		CAST(NULL AS VARCHAR) AS rngcanonical, CAST(NULL AS VARCHAR) AS rngsubdiff WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_sequence AS SELECT CAST(NULL AS BIGINT) AS seqrelid, CAST(NULL AS BIGINT) AS seqtypid,
		CAST(NULL AS BIGINT) AS seqstart, CAST(NULL AS BIGINT) AS seqincrement, CAST(NULL AS BIGINT) AS seqmax,
		CAST(NULL AS BIGINT) AS seqmin, CAST(NULL AS BIGINT) AS seqcache, false AS seqcycle WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_policy AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS VARCHAR) AS polname,
		CAST(NULL AS BIGINT) AS polrelid, CAST(NULL AS VARCHAR) AS polcmd, false AS polpermissive, CAST(NULL AS BIGINT[]) AS polroles,
		CAST(NULL AS VARCHAR) AS polqual, CAST(NULL AS VARCHAR) AS polwithcheck WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_statistic_ext AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS BIGINT) AS stxrelid,
		CAST(NULL AS VARCHAR) AS stxname, CAST(NULL AS BIGINT) AS stxnamespace, CAST(NULL AS BIGINT) AS stxowner,
		CAST(NULL AS INTEGER) AS stxstattarget, CAST(NULL AS SMALLINT[]) AS stxkeys, CAST(NULL AS VARCHAR[]) AS stxkind,
		CAST(NULL AS VARCHAR) AS stxexprs WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_publication AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS VARCHAR) AS pubname,
		CAST(NULL AS BIGINT) AS pubowner, false AS puballtables, false AS pubinsert, false AS pubupdate, false AS pubdelete,
		false AS pubtruncate, false AS pubviaroot WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_publication_rel AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS BIGINT) AS prpubid,
		CAST(NULL AS BIGINT) AS prrelid, CAST(NULL AS VARCHAR) AS prqual, CAST(NULL AS SMALLINT[]) AS prattrs WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_publication_namespace AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS BIGINT) AS pnpubid,
		CAST(NULL AS BIGINT) AS pnnspid WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_trigger AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS BIGINT) AS tgrelid,
		CAST(NULL AS BIGINT) AS tgparentid, CAST(NULL AS VARCHAR) AS tgname, CAST(NULL AS BIGINT) AS tgfoid,
		CAST(NULL AS SMALLINT) AS tgtype, CAST(NULL AS VARCHAR) AS tgenabled, false AS tgisinternal, CAST(NULL AS BIGINT) AS tgconstrrelid,
		CAST(NULL AS BIGINT) AS tgconstrindid, CAST(NULL AS BIGINT) AS tgconstraint, false AS tgdeferrable, false AS tginitdeferred,
		CAST(NULL AS SMALLINT) AS tgnargs, CAST(NULL AS SMALLINT[]) AS tgattr, CAST(NULL AS BLOB) AS tgargs,
		CAST(NULL AS VARCHAR) AS tgqual, CAST(NULL AS VARCHAR) AS tgoldtable, CAST(NULL AS VARCHAR) AS tgnewtable WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_inherits AS SELECT CAST(NULL AS BIGINT) AS inhrelid, CAST(NULL AS BIGINT) AS inhparent,
		CAST(NULL AS INTEGER) AS inhseqno, false AS inhdetachpending WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_depend AS SELECT CAST(NULL AS BIGINT) AS classid, CAST(NULL AS BIGINT) AS objid,
		CAST(NULL AS INTEGER) AS objsubid, CAST(NULL AS BIGINT) AS refclassid, CAST(NULL AS BIGINT) AS refobjid,
		CAST(NULL AS INTEGER) AS refobjsubid, CAST(NULL AS VARCHAR) AS deptype WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_rewrite AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS VARCHAR) AS rulename,
		CAST(NULL AS BIGINT) AS ev_class, CAST(NULL AS VARCHAR) AS ev_type, CAST(NULL AS VARCHAR) AS ev_enabled, false AS is_instead,
		CAST(NULL AS VARCHAR) AS ev_qual, CAST(NULL AS VARCHAR) AS ev_action WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_foreign_table AS SELECT CAST(NULL AS BIGINT) AS ftrelid, CAST(NULL AS BIGINT) AS ftserver,
		CAST(NULL AS VARCHAR[]) AS ftoptions WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_partitioned_table AS SELECT CAST(NULL AS BIGINT) AS partrelid, CAST(NULL AS VARCHAR) AS partstrat,
		CAST(NULL AS SMALLINT) AS partnatts, CAST(NULL AS BIGINT) AS partdefid, CAST(NULL AS SMALLINT[]) AS partattrs,
		CAST(NULL AS BIGINT[]) AS partclass, CAST(NULL AS BIGINT[]) AS partcollation, CAST(NULL AS VARCHAR) AS partexprs WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_extension AS SELECT CAST(13559 AS BIGINT) AS oid, 'plpgsql' AS extname,
		CAST(10 AS BIGINT) AS extowner, CAST(11 AS BIGINT) AS extnamespace, false AS extrelocatable,
		'1.0' AS extversion, CAST(NULL AS BIGINT[]) AS extconfig, CAST(NULL AS VARCHAR[]) AS extcondition`,
	`CREATE OR REPLACE VIEW {P}.pg_collation AS SELECT CAST(100 AS BIGINT) AS oid, 'default' AS collname, CAST(11 AS BIGINT) AS collnamespace,
		CAST(10 AS BIGINT) AS collowner, 'd' AS collprovider, true AS collisdeterministic, -1 AS collencoding,
		CAST(NULL AS VARCHAR) AS collcollate, CAST(NULL AS VARCHAR) AS collctype, CAST(NULL AS VARCHAR) AS colliculocale,
		CAST(NULL AS VARCHAR) AS collversion`,
	`CREATE OR REPLACE VIEW {P}.pg_enum AS SELECT CAST(oid * 1000 + i AS BIGINT) AS oid, oid AS enumtypid,
		CAST(i AS FLOAT) AS enumsortorder, labels[i] AS enumlabel
		FROM (SELECT oid, labels, unnest(range(1, len(labels) + 1)) AS i FROM {P}.vsql_enums)`,
	`CREATE OR REPLACE VIEW {P}.pg_auth_members AS SELECT CAST(NULL AS BIGINT) AS roleid, CAST(NULL AS BIGINT) AS member,
		CAST(NULL AS BIGINT) AS grantor, false AS admin_option WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_cast AS SELECT CAST(NULL AS BIGINT) AS oid, CAST(NULL AS BIGINT) AS castsource,
		CAST(NULL AS BIGINT) AS casttarget, CAST(NULL AS BIGINT) AS castfunc, CAST(NULL AS VARCHAR) AS castcontext,
		CAST(NULL AS VARCHAR) AS castmethod WHERE false`,
	`CREATE OR REPLACE VIEW {P}.pg_shdescription AS SELECT CAST(NULL AS BIGINT) AS objoid, CAST(NULL AS BIGINT) AS classoid,
		CAST(NULL AS VARCHAR) AS description WHERE false`,

	// --- functions ---
	`CREATE OR REPLACE MACRO {P}.vsql_viewdef(s) AS ' ' || regexp_replace(regexp_replace(s, '^CREATE (OR REPLACE )?(TEMP |TEMPORARY )?VIEW .*? AS ', '', 's'), ';\s*$', '')`,
	`CREATE OR REPLACE MACRO {P}.pg_get_userbyid(r) AS CASE WHEN r IS NULL THEN NULL WHEN r = 10 THEN {OWNER} ELSE 'unknown (OID=' || r || ')' END`,
	`CREATE OR REPLACE MACRO {P}.pg_encoding_to_char(e) AS CASE WHEN e = 6 THEN 'UTF8' WHEN e = 0 THEN 'SQL_ASCII' ELSE '' END`,
	`CREATE OR REPLACE MACRO {P}.pg_char_to_encoding(e) AS CASE WHEN upper(e) IN ('UTF8', 'UTF-8', 'UNICODE') THEN 6 WHEN upper(e) = 'SQL_ASCII' THEN 0 ELSE -1 END`,
	`CREATE OR REPLACE MACRO {P}.pg_table_is_visible(r) AS coalesce((SELECT vsql_n.nspname IN ('pg_catalog', 'pg_temp_1') OR list_contains({P}.vsql_search_path(), vsql_n.nspname)
		FROM {P}.pg_class vsql_c JOIN {P}.pg_namespace vsql_n ON vsql_n.oid = vsql_c.relnamespace WHERE vsql_c.oid = r), false)`,
	`CREATE OR REPLACE MACRO {P}.pg_type_is_visible(t) AS true`,
	`CREATE OR REPLACE MACRO {P}.pg_function_is_visible(f) AS true`,
	`CREATE OR REPLACE MACRO {P}.pg_get_expr(e, r) AS e, (e, r, pretty) AS e`,
	`CREATE OR REPLACE MACRO {P}.vsql_indexdef(i) AS (SELECT 'CREATE ' || CASE WHEN vsql_x.indisunique THEN 'UNIQUE ' ELSE '' END || 'INDEX '
			|| vsql_x.relname || ' ON ' || {P}.vsql_nspname(vsql_x.database_name, vsql_x.schema_name) || '.' || vsql_x.table_name
			|| ' USING btree (' || array_to_string(vsql_x.colnames, ', ') || ')' FROM {P}.vsql_indexes vsql_x WHERE vsql_x.oid = i)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_indexdef(i) AS {P}.vsql_indexdef(i),
		(i, col, pretty) AS CASE WHEN col > 0 THEN (SELECT vsql_x.colnames[col] FROM {P}.vsql_indexes vsql_x WHERE vsql_x.oid = i)
			ELSE {P}.vsql_indexdef(i) END`,
	`CREATE OR REPLACE MACRO {P}.pg_get_constraintdef(c) AS (SELECT vsql_x.condef FROM {P}.vsql_constraints vsql_x WHERE vsql_x.oid = c),
		(c, pretty) AS (SELECT vsql_x.condef FROM {P}.vsql_constraints vsql_x WHERE vsql_x.oid = c)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_function_result(f) AS (SELECT CASE WHEN vsql_p.proretset THEN 'SETOF ' ELSE '' END
		|| {P}.format_type(vsql_p.prorettype, NULL) FROM {P}.pg_proc vsql_p WHERE vsql_p.oid = f)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_function_arguments(f) AS (SELECT array_to_string(proargnames, ', ') FROM {P}.pg_proc vsql_p WHERE vsql_p.oid = f)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_function_identity_arguments(f) AS {P}.pg_get_function_arguments(f)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_statisticsobjdef_columns(o) AS CAST(NULL AS VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_partkeydef(o) AS CAST(NULL AS VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_triggerdef(o) AS CAST(NULL AS VARCHAR), (o, pretty) AS CAST(NULL AS VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.pg_get_ruledef(o) AS CAST(NULL AS VARCHAR), (o, pretty) AS CAST(NULL AS VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.obj_description(o) AS (SELECT vsql_d.description FROM {P}.pg_description vsql_d WHERE vsql_d.objoid = o AND vsql_d.objsubid = 0 LIMIT 1),
		(o, cat) AS (SELECT vsql_d.description FROM {P}.pg_description vsql_d WHERE vsql_d.objoid = o AND vsql_d.objsubid = 0 LIMIT 1)`,
	`CREATE OR REPLACE MACRO {P}.col_description(o, n) AS (SELECT vsql_d.description FROM {P}.pg_description vsql_d WHERE vsql_d.objoid = o AND vsql_d.objsubid = n LIMIT 1)`,
	`CREATE OR REPLACE MACRO {P}.shobj_description(o, cat) AS CAST(NULL AS VARCHAR)`,
	`CREATE OR REPLACE MACRO {P}.current_schema() AS {P}.vsql_search_path()[1]`,
	`CREATE OR REPLACE MACRO {P}.current_schemas(implicit) AS CASE WHEN implicit AND NOT list_contains({P}.vsql_search_path(), 'pg_catalog')
		THEN list_prepend('pg_catalog', {P}.vsql_search_path()) ELSE {P}.vsql_search_path() END`,
	// the sequence a column's default draws from (serial columns, and
	// pg_dump's nextval('public.s'::regclass) defaults), named as
	// PostgreSQL names it: schema-qualified, public for main
	// (an unquoted table name matches the table whatever its case: DuckDB
	// keeps the case CREATE TABLE serialTest1 wrote)
	`CREATE OR REPLACE MACRO {P}.pg_get_serial_sequence(t, c) AS (SELECT 'public.' || regexp_extract({P}.vsql_untracked(vsql_sc.column_default),
		'^nextval\(''(?:[^''.]*\.)?([^''.]+)''\)$', 1)
		FROM duckdb_columns() vsql_sc WHERE vsql_sc.database_name = current_database() AND vsql_sc.schema_name = 'main'
		AND CASE WHEN t LIKE '%"' THEN vsql_sc.table_name = replace(regexp_extract(t, '"((?:[^"]|"")*)"$', 1), '""', '"')
			ELSE lower(vsql_sc.table_name) = lower(regexp_extract(t, '([^.]*)$', 1)) END
		AND vsql_sc.column_name = c AND {P}.vsql_untracked(vsql_sc.column_default) LIKE 'nextval(%')`,
	`CREATE OR REPLACE MACRO {P}.version() AS {VERSION}`,
	`CREATE OR REPLACE MACRO {P}.current_setting(n) AS coalesce(CAST(getvariable({SETVAR}) AS MAP(VARCHAR, VARCHAR))[lower(n)], {SETTINGS}[lower(n)]),
		(n, missing_ok) AS coalesce(CAST(getvariable({SETVAR}) AS MAP(VARCHAR, VARCHAR))[lower(n)], {SETTINGS}[lower(n)])`,
	`CREATE OR REPLACE VIEW {P}.pg_settings AS SELECT name, {P}.current_setting(name) AS setting, CAST(NULL AS VARCHAR) AS unit,
		'vsql' AS category, '' AS short_desc, CAST(NULL AS VARCHAR) AS extra_desc, 'user' AS context, 'string' AS vartype,
		'default' AS source, CAST(NULL AS VARCHAR) AS min_val, CAST(NULL AS VARCHAR) AS max_val, CAST(NULL AS VARCHAR[]) AS enumvals,
		{SETTINGS}[name] AS boot_val, {SETTINGS}[name] AS reset_val, CAST(NULL AS VARCHAR) AS sourcefile,
		CAST(NULL AS INTEGER) AS sourceline, false AS pending_restart
		FROM (SELECT unnest(map_keys({SETTINGS})) AS name)`,
	`CREATE OR REPLACE MACRO {P}.pg_is_in_recovery() AS false`,
	`CREATE OR REPLACE MACRO {P}.vsql_any_eq(x, l) AS list_contains(l, x)`,
	`CREATE OR REPLACE MACRO {P}.pg_table_size(r) AS CAST(NULL AS BIGINT)`,
	`CREATE OR REPLACE MACRO {P}.pg_relation_size(r) AS CAST(NULL AS BIGINT), (r, fork) AS CAST(NULL AS BIGINT)`,
	`CREATE OR REPLACE MACRO {P}.pg_total_relation_size(r) AS CAST(NULL AS BIGINT)`,
	`CREATE OR REPLACE MACRO {P}.pg_indexes_size(r) AS CAST(NULL AS BIGINT)`,
	`CREATE OR REPLACE MACRO {P}.pg_database_size(d) AS CAST(NULL AS BIGINT)`,
	`CREATE OR REPLACE MACRO {P}.pg_tablespace_location(t) AS ''`,
	`CREATE OR REPLACE MACRO {P}.pg_size_pretty(b) AS CASE WHEN b IS NULL THEN NULL
		WHEN abs(b) < 10240 THEN b || ' bytes'
		WHEN abs(b) < 10240 * 1024 THEN CAST(round(b / 1024.0) AS BIGINT) || ' kB'
		WHEN abs(b) < 10240 * 1024 * 1024 THEN CAST(round(b / 1048576.0) AS BIGINT) || ' MB'
		WHEN abs(b) < 10240 * 1024 * 1024 * 1024 THEN CAST(round(b / 1073741824.0) AS BIGINT) || ' GB'
		ELSE CAST(round(b / 1099511627776.0) AS BIGINT) || ' TB' END`,
	// (vsql's arrays start at 1; a dimension other than the first is the
	// Go function's, arrayLength in package pgcompat)
	`CREATE OR REPLACE MACRO {P}.array_upper(a, d) AS CASE WHEN d = 1 THEN CASE WHEN len(a) > 0 THEN CAST(len(a) AS INTEGER) END ELSE __vsql_array_length(a, d) END`,
	`CREATE OR REPLACE MACRO {P}.array_lower(a, d) AS CAST(CASE WHEN d = 1 THEN CASE WHEN len(a) > 0 THEN 1 END WHEN __vsql_array_length(a, d) IS NOT NULL THEN 1 END AS INTEGER)`,
	`CREATE OR REPLACE MACRO {P}.pg_relation_is_publishable(r) AS false`,
	`CREATE OR REPLACE MACRO {P}.vsql_pg_array_text(l) AS '{' || array_to_string(list_transform(l, x -> CASE WHEN x IS NULL THEN 'NULL'
		WHEN regexp_full_match(x, '[A-Za-z0-9_]+') AND lower(x) <> 'null' THEN x
		ELSE '"' || replace(replace(x, '\', '\\'), '"', '\"') || '"' END), ',') || '}'`,
	`CREATE OR REPLACE MACRO {P}.quote_ident(s) AS CASE WHEN regexp_full_match(s, '[a-z_][a-z0-9_$]*') THEN s ELSE '"' || replace(s, '"', '""') || '"' END`,
	// reg* casts: a name (possibly public.-qualified or quoted) to its oid,
	// and an oid to its name.
	`CREATE OR REPLACE MACRO {P}.vsql_unqualify(s) AS regexp_replace(regexp_replace(CAST(s AS VARCHAR), '^("?)(public|pg_catalog)("?)\.', ''), '^"(.*)"$', '\1')`,
	`CREATE OR REPLACE MACRO {P}.vsql_system_oids() AS MAP {'pg_class': 1259, 'pg_attribute': 1249, 'pg_proc': 1255, 'pg_type': 1247,
		'pg_namespace': 2615, 'pg_constraint': 2606, 'pg_index': 2610, 'pg_attrdef': 2604, 'pg_depend': 2608, 'pg_description': 2609,
		'pg_rewrite': 2618, 'pg_trigger': 2620, 'pg_database': 1262, 'pg_am': 2601, 'pg_inherits': 2611, 'pg_roles': 1260}`,
	`CREATE OR REPLACE MACRO {P}.vsql_system_oid(s) AS CAST({P}.vsql_system_oids()[CAST(s AS VARCHAR)] AS BIGINT)`,
	// a relation's name: schema-qualified, or the first of the temporary
	// schema and the session's search_path that has it
	`CREATE OR REPLACE MACRO {P}.vsql_relname(s) AS regexp_replace(regexp_replace(CAST(s AS VARCHAR), '^("[^"]*"|[^".]*)\.', ''), '^"(.*)"$', '\1')`,
	`CREATE OR REPLACE MACRO {P}.regclass_oid(s) AS coalesce(
		(SELECT vsql_c.oid FROM {P}.pg_class vsql_c JOIN {P}.pg_namespace vsql_n ON vsql_n.oid = vsql_c.relnamespace,
				(SELECT nullif(regexp_extract(CAST(s AS VARCHAR), '^"?([^".]+)"?\.', 1), '') AS vsql_q)
			WHERE vsql_c.relname = {P}.vsql_relname(s) AND CASE WHEN vsql_q IS NOT NULL THEN vsql_n.nspname = vsql_q
				ELSE vsql_n.nspname = 'pg_temp_1' OR list_contains({P}.vsql_search_path(), vsql_n.nspname) END
			ORDER BY CASE WHEN vsql_n.nspname = 'pg_temp_1' THEN 0 ELSE list_position({P}.vsql_search_path(), vsql_n.nspname) END LIMIT 1),
		{P}.vsql_system_oid({P}.vsql_unqualify(s)),
		TRY_CAST(s AS BIGINT))`,
	`CREATE OR REPLACE MACRO {P}.to_regclass(s) AS {P}.regclass_oid(s)`,
	// pg_get_viewdef of an oid or of a name ('v', 'public.v', as
	// PostgreSQL's text argument: a name of no relation is 42P01)
	`CREATE OR REPLACE MACRO {P}.vsql_viewdef_of(v) AS CASE WHEN typeof(v) = 'VARCHAR' AND {P}.regclass_oid(v) IS NULL
			THEN error('[vsql:undefined_table] relation "' || CAST(v AS VARCHAR) || '" does not exist')
		ELSE (SELECT {P}.vsql_viewdef(sql) FROM duckdb_views() WHERE database_name IN (` + cd + `, 'temp') AND view_oid = {P}.regclass_oid(v)) END`,
	`CREATE OR REPLACE MACRO {P}.pg_get_viewdef(v) AS {P}.vsql_viewdef_of(v), (v, pretty) AS {P}.vsql_viewdef_of(v)`,
	`CREATE OR REPLACE MACRO {P}.pg_partition_ancestors(r) AS {P}.regclass_oid(r)`,
	// also a table: FROM pg_partition_ancestors(x) WITH ORDINALITY AS a(relid, depth)
	// (DuckDB's table macros take no ordinality column; this one has it)
	`CREATE OR REPLACE MACRO {P}.pg_partition_ancestors(r) AS TABLE SELECT {P}.regclass_oid(r) AS relid, 1 AS depth`,
	`CREATE OR REPLACE MACRO {P}.regclass_name(o) AS coalesce((SELECT vsql_c.relname FROM {P}.pg_class vsql_c WHERE vsql_c.oid = o),
		(SELECT k FROM (SELECT unnest(map_keys({P}.vsql_system_oids())) AS k, unnest(map_values({P}.vsql_system_oids())) AS v) WHERE v = o),
		CAST(o AS VARCHAR))`,
	`CREATE OR REPLACE MACRO {P}.regtype_oid(s) AS coalesce((SELECT vsql_t.oid FROM {P}.pg_type vsql_t WHERE vsql_t.typname = {P}.vsql_unqualify(s)
		OR {P}.format_type(vsql_t.oid, NULL) = {P}.vsql_unqualify(s) ORDER BY vsql_t.oid LIMIT 1),
		CASE lower({P}.vsql_unqualify(s)) WHEN 'int' THEN 23 WHEN 'decimal' THEN 1700 WHEN 'float' THEN 701 END, TRY_CAST(s AS BIGINT))`,
	`CREATE OR REPLACE MACRO {P}.to_regtype(s) AS {P}.regtype_oid(s)`,
	`CREATE OR REPLACE MACRO {P}.regtype_name(o) AS {P}.vsql_builtin_type(o, NULL)`,
	`CREATE OR REPLACE MACRO {P}.regproc_oid(s) AS coalesce((SELECT vsql_p.oid FROM {P}.pg_proc vsql_p WHERE vsql_p.proname = {P}.vsql_unqualify(s) LIMIT 1),
		CAST(MAP {'array_in': 750, 'array_out': 751, 'array_recv': 2400, 'array_send': 2401}[{P}.vsql_unqualify(s)] AS BIGINT), TRY_CAST(s AS BIGINT))`,
	`CREATE OR REPLACE MACRO {P}.regproc_name(o) AS coalesce((SELECT vsql_p.proname FROM {P}.pg_proc vsql_p WHERE vsql_p.oid = o),
		MAP {750: 'array_in', 751: 'array_out', 2400: 'array_recv', 2401: 'array_send', 0: '-'}[o], CAST(o AS VARCHAR))`,
	`CREATE OR REPLACE MACRO {P}.regnamespace_oid(s) AS (SELECT vsql_n.oid FROM {P}.pg_namespace vsql_n WHERE vsql_n.nspname = regexp_replace(CAST(s AS VARCHAR), '^"(.*)"$', '\1'))`,
	`CREATE OR REPLACE MACRO {P}.regnamespace_name(o) AS coalesce((SELECT vsql_n.nspname FROM {P}.pg_namespace vsql_n WHERE vsql_n.oid = o), CAST(o AS VARCHAR))`,

	`CREATE OR REPLACE VIEW {P}.pg_tables AS SELECT {P}.vsql_nspname(database_name, schema_name) AS schemaname,
		table_name AS tablename, {OWNER} AS tableowner, CAST(NULL AS VARCHAR) AS tablespace, index_count > 0 OR has_primary_key AS hasindexes,
		false AS hasrules, false AS hastriggers, false AS rowsecurity
		FROM duckdb_tables() WHERE database_name IN (` + cd + `, 'temp')`,
	`CREATE OR REPLACE VIEW {P}.pg_views AS SELECT {P}.vsql_nspname(database_name, schema_name) AS schemaname,
		view_name AS viewname, {OWNER} AS viewowner, {P}.vsql_viewdef(sql) AS definition
		FROM duckdb_views() WHERE database_name IN (` + cd + `, 'temp') AND NOT internal`,
	// A sequence's type is the one its bounds were made from (AS smallint,
	// integer; DuckDB's sequences are bigint).
	`CREATE OR REPLACE MACRO {P}.vsql_sequence_type(inc, lo, hi) AS CASE
		WHEN inc > 0 AND hi = 32767 OR inc < 0 AND lo = -32768 THEN 'smallint'
		WHEN inc > 0 AND hi = 2147483647 OR inc < 0 AND lo = -2147483648 THEN 'integer' ELSE 'bigint' END`,
	`CREATE OR REPLACE VIEW {P}.pg_sequences AS SELECT {P}.vsql_nspname(database_name, schema_name) AS schemaname,
		sequence_name AS sequencename, {OWNER} AS sequenceowner, {P}.vsql_sequence_type(increment_by, min_value, max_value) AS data_type,
		start_value, min_value, max_value, increment_by, cycle, CAST(1 AS BIGINT) AS cache_size, last_value
		FROM duckdb_sequences() WHERE database_name IN (` + cd + `, 'temp')`,
	`CREATE OR REPLACE VIEW {P}.pg_indexes AS SELECT {P}.vsql_nspname(database_name, schema_name) AS schemaname,
		table_name AS tablename, relname AS indexname, CAST(NULL AS VARCHAR) AS tablespace, {P}.pg_get_indexdef(oid) AS indexdef
		FROM {P}.vsql_indexes`,

	// --- information_schema ---
	`CREATE OR REPLACE VIEW {I}.schemata AS
		SELECT ` + cd + ` AS catalog_name, nspname AS schema_name, {OWNER} AS schema_owner, CAST(NULL AS VARCHAR) AS default_character_set_catalog,
			CAST(NULL AS VARCHAR) AS default_character_set_schema, CAST(NULL AS VARCHAR) AS default_character_set_name, CAST(NULL AS VARCHAR) AS sql_path
		FROM {P}.pg_namespace`,
	`CREATE OR REPLACE VIEW {I}.sequences AS
		SELECT ` + cd + ` AS sequence_catalog, schemaname AS sequence_schema, sequencename AS sequence_name, data_type,
			CASE data_type WHEN 'smallint' THEN 16 WHEN 'integer' THEN 32 ELSE 64 END AS numeric_precision,
			2 AS numeric_precision_radix, 0 AS numeric_scale, CAST(start_value AS VARCHAR) AS start_value,
			CAST(min_value AS VARCHAR) AS minimum_value, CAST(max_value AS VARCHAR) AS maximum_value,
			CAST(increment_by AS VARCHAR) AS increment, CASE WHEN cycle THEN 'YES' ELSE 'NO' END AS cycle_option
		FROM {P}.pg_sequences`,
	`CREATE OR REPLACE VIEW {I}.tables AS
		SELECT ` + cd + ` AS table_catalog, {P}.vsql_nspname(database_name, schema_name) AS table_schema, table_name,
			CASE WHEN temporary THEN 'LOCAL TEMPORARY' ELSE 'BASE TABLE' END AS table_type,
			CAST(NULL AS VARCHAR) AS self_referencing_column_name, CAST(NULL AS VARCHAR) AS reference_generation,
			CAST(NULL AS VARCHAR) AS user_defined_type_catalog, CAST(NULL AS VARCHAR) AS user_defined_type_schema,
			CAST(NULL AS VARCHAR) AS user_defined_type_name, 'YES' AS is_insertable_into, 'NO' AS is_typed, CAST(NULL AS VARCHAR) AS commit_action
		FROM duckdb_tables() WHERE database_name IN (` + cd + `, 'temp')
		UNION ALL
		SELECT ` + cd + `, {P}.vsql_nspname(database_name, schema_name), view_name, 'VIEW', NULL, NULL, NULL, NULL, NULL, 'NO', 'NO', NULL
		FROM duckdb_views() WHERE database_name IN (` + cd + `, 'temp') AND NOT internal`,
	`CREATE OR REPLACE VIEW {I}.columns AS
		SELECT ` + cd + ` AS table_catalog, {P}.vsql_nspname(c.database_name, c.schema_name) AS table_schema,
			c.table_name, c.column_name, c.column_index AS ordinal_position, {P}.vsql_default(c.column_default) AS column_default,
			CASE WHEN c.is_nullable THEN 'YES' ELSE 'NO' END AS is_nullable,
			CASE WHEN c.data_type LIKE '%]' THEN 'ARRAY'
				WHEN c.toid = 25 AND c.data_type <> 'VARCHAR' AND c.data_type NOT LIKE 'JSON%' OR c.data_type LIKE 'ENUM(%' THEN 'USER-DEFINED'
				ELSE {P}.format_type(c.toid, NULL) END AS data_type,
			CAST(NULL AS INTEGER) AS character_maximum_length,
			CASE WHEN c.toid IN (25, 1043) THEN 1073741824 END AS character_octet_length,
			CASE WHEN c.toid = 1700 THEN c.numeric_precision WHEN c.toid IN (21, 23, 20, 700, 701) THEN c.numeric_precision END AS numeric_precision,
			CASE WHEN c.toid = 1700 AND c.numeric_precision IS NOT NULL THEN 10 WHEN c.toid IN (21, 23, 20, 700, 701) THEN 2 END AS numeric_precision_radix,
			CASE WHEN c.toid = 1700 THEN c.numeric_scale WHEN c.toid IN (21, 23, 20) THEN 0 END AS numeric_scale,
			CASE WHEN c.toid IN (1082) THEN 0 WHEN c.toid IN (1083, 1114, 1184, 1266, 1186) THEN 6 END AS datetime_precision,
			CAST(NULL AS VARCHAR) AS interval_type, CAST(NULL AS INTEGER) AS interval_precision,
			CAST(NULL AS VARCHAR) AS character_set_catalog, CAST(NULL AS VARCHAR) AS character_set_schema, CAST(NULL AS VARCHAR) AS character_set_name,
			CAST(NULL AS VARCHAR) AS collation_catalog, CAST(NULL AS VARCHAR) AS collation_schema, CAST(NULL AS VARCHAR) AS collation_name,
			CAST(NULL AS VARCHAR) AS domain_catalog, CAST(NULL AS VARCHAR) AS domain_schema, CAST(NULL AS VARCHAR) AS domain_name,
			` + cd + ` AS udt_catalog, CASE WHEN c.data_type LIKE 'ENUM(%' THEN 'public' ELSE 'pg_catalog' END AS udt_schema,
			coalesce({UDT}[c.toid], {P}.vsql_enum_names()[c.toid], 'text') AS udt_name,
			CAST(NULL AS VARCHAR) AS scope_catalog, CAST(NULL AS VARCHAR) AS scope_schema, CAST(NULL AS VARCHAR) AS scope_name,
			CAST(NULL AS INTEGER) AS maximum_cardinality, CAST(c.column_index AS VARCHAR) AS dtd_identifier, 'NO' AS is_self_referencing,
			'NO' AS is_identity, CAST(NULL AS VARCHAR) AS identity_generation, CAST(NULL AS VARCHAR) AS identity_start,
			CAST(NULL AS VARCHAR) AS identity_increment, CAST(NULL AS VARCHAR) AS identity_maximum, CAST(NULL AS VARCHAR) AS identity_minimum,
			CAST(NULL AS VARCHAR) AS identity_cycle, 'NEVER' AS is_generated, CAST(NULL AS VARCHAR) AS generation_expression, 'YES' AS is_updatable
		FROM (SELECT *, {P}.vsql_type_oid(data_type) AS toid FROM duckdb_columns() WHERE database_name IN (` + cd + `, 'temp')) c`,
	`CREATE OR REPLACE VIEW {I}.table_constraints AS
		SELECT ` + cd + ` AS constraint_catalog, {P}.vsql_nspname(database_name, schema_name) AS constraint_schema,
			conname AS constraint_name, ` + cd + ` AS table_catalog, {P}.vsql_nspname(database_name, schema_name) AS table_schema,
			table_name, CASE contype WHEN 'p' THEN 'PRIMARY KEY' WHEN 'u' THEN 'UNIQUE' WHEN 'c' THEN 'CHECK' WHEN 'f' THEN 'FOREIGN KEY' END AS constraint_type,
			'NO' AS is_deferrable, 'NO' AS initially_deferred, 'YES' AS enforced, CASE WHEN contype IN ('p', 'u') THEN 'YES' END AS nulls_distinct
		FROM {P}.vsql_constraints`,
	`CREATE OR REPLACE VIEW {I}.key_column_usage AS
		SELECT ` + cd + ` AS constraint_catalog, {P}.vsql_nspname(database_name, schema_name) AS constraint_schema,
			conname AS constraint_name, ` + cd + ` AS table_catalog, {P}.vsql_nspname(database_name, schema_name) AS table_schema,
			table_name, unnest(colnames) AS column_name, generate_subscripts(colnames, 1) AS ordinal_position,
			CASE WHEN contype = 'f' THEN generate_subscripts(colnames, 1) END AS position_in_unique_constraint
		FROM {P}.vsql_constraints WHERE contype IN ('p', 'u', 'f')`,
	`CREATE OR REPLACE VIEW {I}.constraint_column_usage AS
		SELECT ` + cd + ` AS table_catalog, {P}.vsql_nspname(database_name, schema_name) AS table_schema,
			table_name, unnest(colnames) AS column_name, ` + cd + ` AS constraint_catalog,
			{P}.vsql_nspname(database_name, schema_name) AS constraint_schema, conname AS constraint_name
		FROM {P}.vsql_constraints WHERE contype IN ('p', 'u', 'c')`,
	`CREATE OR REPLACE VIEW {I}.views AS
		SELECT ` + cd + ` AS table_catalog, {P}.vsql_nspname(database_name, schema_name) AS table_schema,
			view_name AS table_name, {P}.vsql_viewdef(sql) AS view_definition, 'NONE' AS check_option, 'NO' AS is_updatable,
			'NO' AS is_insertable_into, 'NO' AS is_trigger_updatable, 'NO' AS is_trigger_deletable, 'NO' AS is_trigger_insertable_into
		FROM duckdb_views() WHERE database_name IN (` + cd + `, 'temp') AND NOT internal`,
	`CREATE OR REPLACE VIEW {I}.referential_constraints AS
		SELECT ` + cd + ` AS constraint_catalog, {P}.vsql_nspname(f.database_name, f.schema_name) AS constraint_schema,
			f.conname AS constraint_name, ` + cd + ` AS unique_constraint_catalog,
			{P}.vsql_nspname(f.database_name, f.schema_name) AS unique_constraint_schema,
			(SELECT k.conname FROM {P}.vsql_constraints k WHERE k.conrelid = f.confrelid AND k.contype IN ('p', 'u')
				AND k.colnames = f.referenced_column_names LIMIT 1) AS unique_constraint_name,
			'NONE' AS match_option, 'NO ACTION' AS update_rule, 'NO ACTION' AS delete_rule
		FROM {P}.vsql_constraints f WHERE f.contype = 'f'`,
	`CREATE OR REPLACE MACRO {I}._pg_expandarray(a) AS unnest(list_transform(a, (v, i) -> {'x': v, 'n': i}))`,
}
