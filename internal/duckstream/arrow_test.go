//go:build duckdb_arrow

package duckstream

import (
	"context"
	"testing"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// BenchmarkReadArrow reads benchQuery through duckdb-go's Arrow interface
// (go test -tags duckdb_arrow -bench ReadArrow).
func BenchmarkReadArrow(b *testing.B) {
	_, _, dc := openConn(b)
	ar, err := duckdb.NewArrowFromConn(dc)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rr, err := ar.QueryContext(context.Background(), benchQuery)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		for rr.Next() {
			n += int(rr.RecordBatch().NumRows())
		}
		rr.Release()
		if n != 1000000 {
			b.Fatal(n)
		}
	}
}
