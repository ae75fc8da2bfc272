package server_test

import (
	"context"
	"testing"
	"time"
)

func TestTmpSelect1(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	c := connectPgx(t, addr)
	var i int64
	start := time.Now()
	for range 20000 {
		if err := c.QueryRow(ctx, "SELECT 1::BIGINT").Scan(&i); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%v per query", time.Since(start)/20000)
}
