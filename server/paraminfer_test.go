package server_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestArithmeticParameterTypes: a parameter that is an operand of
// arithmetic (UPDATE t SET n = n + $1, knex's increment) is described
// with the other operand's type, as PostgreSQL describes it, so that pgx
// encodes a Go int for it; before, vsqld described it as text and pgx
// refused ("unable to encode 5 into text format for text").
func TestArithmeticParameterTypes(t *testing.T) {
	ctx := context.Background()
	queries := []string{
		"UPDATE pi_t SET i = i + $1, b = $2 * b, d = d * $3 WHERE k = $4",
		"SELECT $1 + 1, d * $2, i % $3 FROM pi_t WHERE k = $4",
	}
	answers := map[string][]string{}
	oids := map[string][][]uint32{}
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		for _, q := range []string{"CREATE TABLE pi_t (k text, i int, b bigint, d double precision, n numeric(10, 2))", "INSERT INTO pi_t VALUES ('a', 1, 10, 1.5, 9.75)"} {
			if _, err := c.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %s: %v", name, q, err)
			}
		}
		for _, q := range queries {
			sd, err := c.Prepare(ctx, "", q)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, q, err)
			}
			oids[name] = append(oids[name], sd.ParamOIDs)
		}
		if _, err := c.Exec(ctx, queries[0], 5, 3, 2.0, "a"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var x, z int
		var y float64
		if err := c.QueryRow(ctx, queries[1], 41, 2, 4, "a").Scan(&x, &y, &z); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var i int32
		var b int64
		var d float64
		var n string
		if err := c.QueryRow(ctx, "SELECT i, b, d, n::text FROM pi_t").Scan(&i, &b, &d, &n); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		answers[name] = []string{fmt.Sprint(i, b, d, n)}
		if x != 42 || y != 6 || z != 2 {
			t.Errorf("%s: SELECT answered %d, %v, %d", name, x, y, z)
		}
	}
	if !reflect.DeepEqual(answers["PostgreSQL"], answers["vsqld"]) {
		t.Errorf("rows: PostgreSQL %v, vsqld %v", answers["PostgreSQL"], answers["vsqld"])
	}
	if !reflect.DeepEqual(oids["PostgreSQL"], oids["vsqld"]) {
		t.Errorf("parameter types: PostgreSQL %v, vsqld %v", oids["PostgreSQL"], oids["vsqld"])
	}
}

// TestDeclaredParameterTypes: a parameter whose type the client declares
// (psycopg 3 declares numeric for a Decimal) and that DuckDB leaves
// without one (bal * $1) is cast to the declared type; bound as text it
// made DuckDB refuse the operator ("Could not choose a best candidate
// function *(DECIMAL(12,2), STRING_LITERAL)"). The value is PostgreSQL's;
// its scale is DECIMAL(38, 10)'s (docs/sql.md).
func TestDeclaredParameterTypes(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		if _, err := c.Exec(ctx, "CREATE TABLE dp_t (bal numeric(12, 2), n int)"); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Exec(ctx, "INSERT INTO dp_t VALUES (10.50, 3)"); err != nil {
			t.Fatal(err)
		}
		pc := c.PgConn()
		if _, err := pc.Prepare(ctx, "dp", "SELECT bal * $1, n + $2 FROM dp_t", []uint32{1700, 23}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res := pc.ExecPrepared(ctx, "dp", [][]byte{[]byte("2.5"), []byte("4")}, nil, nil).Read()
		if res.Err != nil {
			t.Fatalf("%s: %v", name, res.Err)
		}
		var got float64
		if _, err := fmt.Sscan(string(res.Rows[0][0]), &got); err != nil || got != 26.25 || string(res.Rows[0][1]) != "7" {
			t.Errorf("%s: %q, %q; want 26.25 and 7", name, res.Rows[0][0], res.Rows[0][1])
		}
	}
}
