package server_test

import (
	"context"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/sqltext"
)

// rows runs q and returns every row as strings (NULL as "NULL").
func rows(t *testing.T, conn *pgx.Conn, q string, args ...any) [][]string {
	t.Helper()
	rs, err := conn.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rs.Close()
	var out [][]string
	for rs.Next() {
		vals, err := rs.Values()
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			if v == nil {
				row[i] = "NULL"
			} else {
				row[i] = fmt.Sprint(v)
			}
		}
		out = append(out, row)
	}
	if err := rs.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

func wantRows(t *testing.T, conn *pgx.Conn, q string, want [][]string) {
	t.Helper()
	if got := rows(t, conn, q); !reflect.DeepEqual(got, want) {
		t.Errorf("%s\n got %q\nwant %q", q, got, want)
	}
}

// The catalogs that JDBC, SQLAlchemy and dbt read describe a table as
// PostgreSQL would: schema public, PostgreSQL type names, nullability,
// defaults, the primary key and indexes; only the session's own database.
func TestPostgresCatalogs(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	ctx := context.Background()
	for _, q := range []string{
		"CREATE DATABASE other",
		`CREATE TABLE public.orders (id INTEGER PRIMARY KEY, customer VARCHAR NOT NULL,
			amount DECIMAL(10, 2) DEFAULT 0, placed TIMESTAMPTZ, qty BIGINT)`,
		"CREATE INDEX orders_customer ON orders (customer)",
		`CREATE VIEW "public"."big_orders" AS SELECT id, amount FROM orders WHERE amount > 100`,
		"CREATE TABLE lines (order_id INTEGER REFERENCES orders (id), sku VARCHAR UNIQUE, qty INTEGER CHECK (qty > 0))",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	other, err := pgx.Connect(ctx, dsn(addr, "other"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(ctx)
	if _, err := other.Exec(ctx, "CREATE TABLE elsewhere (x INTEGER)"); err != nil {
		t.Fatal(err)
	}

	wantRows(t, conn, `SELECT table_catalog, table_schema, table_name, table_type FROM information_schema.tables
		WHERE table_schema = 'public' ORDER BY table_name`, [][]string{
		{"postgres", "public", "big_orders", "VIEW"},
		{"postgres", "public", "lines", "BASE TABLE"},
		{"postgres", "public", "orders", "BASE TABLE"},
	})
	wantRows(t, conn, `SELECT column_name, data_type, is_nullable, coalesce(column_default, 'NULL'), ordinal_position,
		coalesce(numeric_precision, -1), coalesce(numeric_scale, -1), udt_name
		FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'orders' ORDER BY ordinal_position`, [][]string{
		{"id", "integer", "NO", "NULL", "1", "32", "0", "int4"},
		{"customer", "character varying", "NO", "NULL", "2", "-1", "-1", "varchar"},
		{"amount", "numeric", "YES", "0", "3", "10", "2", "numeric"},
		{"placed", "timestamp with time zone", "YES", "NULL", "4", "-1", "-1", "timestamptz"},
		{"qty", "bigint", "YES", "NULL", "5", "64", "0", "int8"},
	})
	wantRows(t, conn, `SELECT tc.constraint_name, tc.constraint_type, k.column_name, k.ordinal_position
		FROM information_schema.table_constraints tc JOIN information_schema.key_column_usage k
			ON k.constraint_name = tc.constraint_name AND k.table_name = tc.table_name
		WHERE tc.table_schema = 'public' AND tc.table_name = 'orders'`, [][]string{
		{"orders_pkey", "PRIMARY KEY", "id", "1"},
	})
	wantRows(t, conn, `SELECT c.relname, c.relkind, n.nspname FROM pg_catalog.pg_class c
		JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace ORDER BY c.relname`, [][]string{
		{"big_orders", "v", "public"},
		{"lines", "r", "public"},
		{"lines_sku_key", "i", "public"},
		{"orders", "r", "public"},
		{"orders_customer", "i", "public"},
		{"orders_pkey", "i", "public"},
	})
	wantRows(t, conn, `SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod), a.attnotnull, a.atthasdef
		FROM pg_attribute a WHERE a.attrelid = 'orders'::regclass AND a.attnum > 0 ORDER BY a.attnum`, [][]string{
		{"id", "integer", "true", "false"},
		{"customer", "character varying", "true", "false"},
		{"amount", "numeric(10,2)", "false", "true"},
		{"placed", "timestamp with time zone", "false", "false"},
		{"qty", "bigint", "false", "false"},
	})
	wantRows(t, conn, `SELECT i.indexrelid::regclass, i.indisprimary, i.indisunique, a.attname
		FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[1]
		WHERE i.indrelid = 'public.orders'::regclass ORDER BY 1`, [][]string{
		{"orders_customer", "false", "false", "customer"},
		{"orders_pkey", "true", "true", "id"},
	})
	wantRows(t, conn, `SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = 'orders'::regclass ORDER BY 1`, [][]string{
		{"CREATE INDEX orders_customer ON public.orders USING btree (customer)"},
		{"CREATE UNIQUE INDEX orders_pkey ON public.orders USING btree (id)"},
	})
	wantRows(t, conn, `SELECT conname, contype, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'orders'::regclass`, [][]string{
		{"orders_pkey", "p", "PRIMARY KEY (id)"},
	})
	// foreign keys, as pgjdbc's getImportedKeys and SQLAlchemy read them
	wantRows(t, conn, `SELECT con.conname, pkc.relname, pka.attname, fka.attname, pg_get_constraintdef(con.oid)
		FROM pg_constraint con JOIN pg_class pkc ON pkc.oid = con.confrelid JOIN pg_class pkic ON pkic.oid = con.conindid
		JOIN pg_attribute pka ON pka.attrelid = pkc.oid AND pka.attnum = con.confkey[1]
		JOIN pg_attribute fka ON fka.attrelid = con.conrelid AND fka.attnum = con.conkey[1]
		WHERE con.contype = 'f'`, [][]string{
		{"lines_order_id_fkey", "orders", "id", "order_id", "FOREIGN KEY (order_id) REFERENCES orders(id)"},
	})
	wantRows(t, conn, `SELECT tc.constraint_type, tc.constraint_name FROM information_schema.table_constraints tc
		WHERE tc.table_name = 'lines' ORDER BY 1`, [][]string{
		{"CHECK", "lines_qty_check"}, {"FOREIGN KEY", "lines_order_id_fkey"}, {"UNIQUE", "lines_sku_key"},
	})
	wantRows(t, conn, `SELECT unique_constraint_name FROM information_schema.referential_constraints`, [][]string{{"orders_pkey"}})
	wantRows(t, conn, `SELECT i.relname, a.attname, ix.indkey::varchar FROM pg_class t JOIN pg_index ix ON t.oid = ix.indrelid
		JOIN pg_class i ON i.oid = ix.indexrelid LEFT OUTER JOIN pg_attribute a ON t.oid = a.attrelid AND a.attnum = ANY(ix.indkey)
		WHERE t.relname = 'orders' ORDER BY 1`, [][]string{{"orders_customer", "customer", "2"}, {"orders_pkey", "id", "1"}})
	wantRows(t, conn, `SELECT count(*) FROM "postgres".information_schema.columns WHERE table_name = 'orders'`, [][]string{{"5"}})
	// the session's temporary tables are in pg_temp_1 (dbt reads their columns)
	if _, err := conn.Exec(ctx, "CREATE TEMP TABLE scratch (k INTEGER PRIMARY KEY, v VARCHAR)"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, conn, `SELECT table_schema, column_name, data_type FROM information_schema.columns WHERE table_name = 'scratch' ORDER BY ordinal_position`,
		[][]string{{"pg_temp_1", "k", "integer"}, {"pg_temp_1", "v", "character varying"}})
	wantRows(t, conn, `SELECT count(*) FROM pg_temp.scratch`, [][]string{{"0"}})
	wantRows(t, other, `SELECT count(*) FROM information_schema.tables WHERE table_name = 'scratch'`, [][]string{{"0"}})
	wantRows(t, conn, `SELECT current_schema(), current_schemas(true)`, [][]string{{"public", "[pg_catalog public]"}})
	wantRows(t, conn, `SELECT 'orders'::regclass::text = 'orders', 'orders'::regclass = (SELECT oid FROM pg_class WHERE relname = 'orders')`,
		[][]string{{"true", "true"}}) // 'x'::regclass::text is the name, as in PostgreSQL; inside other expressions an oid
	wantRows(t, conn, `SELECT 'orders'::regclass`, [][]string{{"orders"}})
	if got := rows(t, conn, `SELECT relname FROM pg_class WHERE oid = $1::regclass`, "public.orders"); len(got) != 1 || got[0][0] != "orders" {
		t.Errorf("$1::regclass: %q", got)
	}
	if got := rows(t, conn, `SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2`, "public", "orders"); got[0][0] != "5" {
		t.Errorf("columns by parameters: %q", got)
	}
	wantRows(t, conn, `SELECT count(*) FROM public.orders o JOIN "public"."big_orders" b ON b.id = o.id`, [][]string{{"0"}})
	// pg_get_viewdef of an oid, a regclass and a name (PostgreSQL's text argument)
	wantRows(t, conn, `SELECT pg_get_viewdef('big_orders') = pg_get_viewdef('big_orders'::regclass::oid),
		pg_get_viewdef('public.big_orders', true) LIKE '%amount > 100%', pg_get_viewdef(123456789) IS NULL`, [][]string{{"true", "true", "true"}})
	if _, err := conn.Exec(ctx, "SELECT pg_get_viewdef('no_such_view')"); err == nil || !strings.Contains(err.Error(), "42P01") {
		t.Errorf("pg_get_viewdef of no relation: %v, want 42P01", err)
	}
	wantRows(t, conn, `SELECT count(*) FROM "postgres".public.orders`, [][]string{{"0"}})
	// another database's tables are not this session's
	wantRows(t, conn, `SELECT count(*) FROM pg_class WHERE relname = 'elsewhere'`, [][]string{{"0"}})
	wantRows(t, other, `SELECT relname FROM pg_class`, [][]string{{"elsewhere"}})
	wantRows(t, conn, `SELECT datname FROM pg_database ORDER BY 1`, [][]string{{"other"}, {"postgres"}})
	// settings
	wantRows(t, conn, `SELECT current_setting('search_path'), current_setting('server_version_num')`, [][]string{{`"$user", public`, "150000"}})
	if _, err := conn.Exec(ctx, "SET search_path = public"); err != nil {
		t.Fatal(err)
	}
	wantRows(t, conn, `SELECT pg_catalog.current_setting('search_path')`, [][]string{{"public"}})
	wantRows(t, conn, `SELECT set_config('application_name', 'catalogs', false)`, [][]string{{"catalogs"}})
	wantRows(t, conn, `SELECT current_setting('application_name')`, [][]string{{"catalogs"}})
	if v := rows(t, conn, "SELECT version()")[0][0]; !strings.HasPrefix(v, "PostgreSQL 15") || !strings.Contains(v, "vsql") {
		t.Errorf("version() = %q", v)
	}
}

// Every relation and function the rewrite sends to vsql's catalogs exists.
func TestPostgresCatalogNamesExist(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	for name := range sqltext.PGRelations {
		rows(t, conn, "SELECT * FROM pg_catalog."+name+" LIMIT 0")
	}
	for name := range sqltext.InfoRelations {
		if name != "_pg_expandarray" {
			rows(t, conn, "SELECT * FROM information_schema."+name+" LIMIT 0")
		}
	}
	// The schemas' names are spelled in two pieces: client SQL may not
	// name __vsql objects. (Provided functions live in either.)
	have := map[string]bool{}
	for _, r := range rows(t, conn, "SELECT DISTINCT function_name FROM duckdb_functions() WHERE schema_name IN ('_' || '_vsql_pg', '_' || '_vsql_fn')") {
		have[r[0]] = true
	}
	var missing []string
	for name := range sqltext.PGFunctions {
		if !have[sqltext.MacroOf(name)] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("functions the rewrite names but the catalogs lack: %v", missing)
	}
}
