package duckstream

import (
	"context"
	"database/sql/driver"
	"math/rand/v2"
	"testing"
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
	for _, mode := range []struct {
		name      string
		streaming bool
	}{{"streaming", true}, {"materialized", false}} {
		b.Run(mode.name, func(b *testing.B) {
			for b.Loop() {
				res, err := Query(ctx, dc, st, []driver.NamedValue{{Ordinal: 1, Value: rand.Int32N(1000000)}}, mode.streaming)
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
		})
	}
}
