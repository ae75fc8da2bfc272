package duckstream

import (
	"context"
	"database/sql/driver"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/duckdb/duckdb-go/v2"
)

// BenchmarkPointQuery runs the bench's point query (a prepared
// `WHERE i = $1` on a 1M-row keyed table) through database/sql as the
// bench's in-process reference does, and through Query streaming and
// materialized, to show what the wire path's way of running a statement
// costs by itself.
func BenchmarkPointQuery(b *testing.B) {
	db, conn, dc := openConn(b)
	ctx := context.Background()
	if _, err := conn.ExecContext(ctx, `CREATE TABLE w (i INTEGER PRIMARY KEY, b BIGINT, t VARCHAR, d DOUBLE)`); err != nil {
		b.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, `INSERT INTO w SELECT i, i*7, 'name-' || i, i/3 FROM range(1000000) r(i)`); err != nil {
		b.Fatal(err)
	}
	const q = `SELECT i, b, t, d FROM w WHERE i = $1`
	b.Run("database-sql", func(b *testing.B) {
		st, err := db.PrepareContext(ctx, q)
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		var i int32
		var bb int64
		var t string
		var d float64
		for b.Loop() {
			if err := st.QueryRowContext(ctx, rand.Int32N(1000000)).Scan(&i, &bb, &t, &d); err != nil {
				b.Fatal(err)
			}
		}
	})
	st := prepare(b, dc, q)
	// constant-key: the same query with its key written in the text. A
	// prepared statement with a parameter in a filter is planned again at
	// every execution (DuckDB binds the value into the plan so that the
	// filter can use the index); with a constant the plan made once runs.
	// The difference is what DuckDB's re-planning costs a point query.
	constant := prepare(b, dc, `SELECT i, b, t, d FROM w WHERE i = 500000`)
	for _, mode := range []struct {
		name      string
		streaming bool
		stmt      *duckdb.Stmt
	}{{"streaming", true, st}, {"materialized", false, st}, {"constant-key", true, constant}} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				var args []driver.NamedValue
				if mode.stmt == st {
					args = []driver.NamedValue{{Ordinal: 1, Value: rand.Int32N(1000000)}}
				}
				drain(b, ctx, dc, mode.stmt, args, mode.streaming)
			}
		})
	}
	// literal-prepared-each-time: the key written in the text of a
	// statement prepared for each execution, as a server that inlined
	// parameters would run it. It costs what the parameter costs (the
	// parse is cheap beside the planning), so inlining gains nothing.
	b.Run("literal-prepared-each-time", func(b *testing.B) {
		for b.Loop() {
			prepared, err := dc.PrepareContext(ctx, fmt.Sprintf(`SELECT i, b, t, d FROM w WHERE i = %d`, rand.Int32N(1000000)))
			if err != nil {
				b.Fatal(err)
			}
			one := prepared.(*duckdb.Stmt)
			drain(b, ctx, dc, one, nil, true)
			one.Close()
		}
	})
}

// drain runs stmt through Query and reads its result to the end.
func drain(b *testing.B, ctx context.Context, dc *duckdb.Conn, stmt *duckdb.Stmt, args []driver.NamedValue, streaming bool) {
	res, err := Query(ctx, dc, stmt, args, streaming)
	if err != nil {
		b.Fatal(err)
	}
	for res.Next() > 0 {
	}
	if res.Err() != nil {
		b.Fatal(res.Err())
	}
	res.Close()
}
