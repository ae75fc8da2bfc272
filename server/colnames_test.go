package server

import "testing"

func TestPostgresColumnName(t *testing.T) {
	for duck, want := range map[string]string{
		"count_star()":         "count",
		"CAST('1' AS INTEGER)": "int4",
		`CAST('2020-01-01 00:00:00+00' AS "TIMESTAMP WITH TIME ZONE")`:              "timestamptz",
		"CAST(main.list_value('1', NULL) AS INTEGER[])":                             "int4",
		"CAST(1.5 AS DECIMAL(5,2))":                                                 "numeric",
		"CAST('x' AS MYTYPE)":                                                       "?column?",
		"main.timezone('UTC', now())":                                               "timezone",
		"memory.__vsql_pg.vsql_any_eq(33, CAST(main.list_value('1') AS INTEGER[]))": "?column?",
		`"unbounded"(4)`:                                                            "unbounded",
		"count(x)":                                                                  "count",
		"sum(amount)":                                                               "sum",
		"current_database()":                                                        "current_database",
		"CAST(id AS VARCHAR)":                                                       "id",
		"CAST(price AS DECIMAL(10,2))":                                              "price",
		"CAST('2020-01-01' AS DATE)":                                                "date", // as PostgreSQL names date '2020-01-01'
		"1":                                                                         "?column?",
		"'x'":                                                                       "?column?",
		"(a + b)":                                                                   "?column?",
		"order_id":                                                                  "order_id",
		"amount total":                                                              "amount total",
		"memory.__vsql_fn.pg_exists(d, 'a')":                                        "?column?",
		"(p).a":                                                                     "a",
		`(CAST(main."row"(1, 2) AS "t")).B`:                                         "b",
		`(struct_pack(f1 := 1)).f1`:                                                 "f1",
		`(p)."x y"`:                                                                 "x y",
		"((p).a + 1)":                                                               "?column?",
		"memory.__vsql_pg.vsql_current_user()":                                      "current_user",
		"memory.__vsql_pg.vsql_current_role()":                                      "current_role",
		"memory.__vsql_pg.vsql_session_user()":                                      "session_user",
		`"row"(a, b)`:                                                               "row",
		`main."row"(1, 'x')`:                                                        "row",
		"main.list_value(1, 2)":                                                     "array",
		"[1, 2]":                                                                    "array",
		"(ARRAY[1, 2])":                                                             "array",
		"~(b)":                                                                      "?column?",
		`CAST('B0101' AS "pg_bit")`:                                                 "?column?", // B'0101'
		`CAST('0101' AS "pg_bit")`:                                                  "bit",      // bit '0101'
		`CAST('01' AS "varbit")`:                                                    "varbit",
		"memory.__vsql_fn.pg_bit_cast('0101', 4)":                                   "bit",
		"memory.__vsql_fn.pg_varbit_cast(v, 2)":                                     "v",
		// a cast: its operand's name, else its type's
		`CAST("name" AS VARCHAR)`:                 "name",
		"CAST(cn.price AS INTEGER)":               "price",
		"CAST(CAST(price AS INTEGER) AS VARCHAR)": "price",
		"CAST((price * 2) AS INTEGER)":            "int4",
		"CAST((a + b) AS DECIMAL(10,2))":          "numeric",
		"CAST(sum(x) AS BIGINT)":                  "sum",
		`CAST(t."Mixed Case" AS DOUBLE[])`:        "Mixed Case",
		"CAST((x || 'a, b AS c') AS VARCHAR)":     "varchar",
		// a cast of a cast named after its type: the outer type's name
		"CAST(CAST('1' AS VARCHAR) AS INTEGER)":              "int4",
		"CAST(CAST(1 AS INTEGER) AS BIGINT)":                 "int8",
		"CAST(CAST(1234567890 AS INTEGER) AS money)":         "money",
		"CAST('1.5' AS money)":                               "money",
		"CAST(CAST(CAST(1 AS INTEGER) AS money) AS VARCHAR)": "varchar",
	} {
		if got := postgresColumnName(duck); got != want {
			t.Errorf("postgresColumnName(%q) = %q, want %q", duck, got, want)
		}
	}
}

func TestStartupOptions(t *testing.T) {
	got := startupOptions(`-c search_path=analytics -c statement_timeout=5s --application-name=my\ app -cTimeZone=UTC`)
	want := map[string]string{"search_path": "analytics", "statement_timeout": "5s", "application_name": "my app", "timezone": "UTC"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q (all: %v)", k, got[k], v, got)
		}
	}
}
