package server_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/vsql/vsql/server"
)

func TestTmpPointMin(t *testing.T) {
	addr := startServer(t, nil)
	ctx := context.Background()
	c := connectPgx(t, addr)
	if _, err := c.Exec(ctx, `CREATE TABLE w (i INTEGER PRIMARY KEY, b BIGINT, t VARCHAR, d DOUBLE);
		INSERT INTO w SELECT i, i * 7, 'text-' || i::VARCHAR, i / 3.0 FROM range(0, 1000000) r(i)`); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("duckdb", filepath.Join(t.TempDir(), "w.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE w (i INTEGER PRIMARY KEY, b BIGINT, t VARCHAR, d DOUBLE);
		INSERT INTO w SELECT i, i * 7, 'text-' || i::VARCHAR, i / 3.0 FROM range(0, 1000000) r(i); CHECKPOINT`); err != nil {
		t.Fatal(err)
	}
	stmt, _ := db.Prepare("SELECT i, b, t, d FROM w WHERE i = $1")
	var i, bb int64
	var s string
	var d float64
	k := 0
	variants := []struct {
		name string
		f    func()
	}{
		{"vsqld-stream", func() {
			server.SetStreamResults(true)
			server.SetMaterializeChunks(false)
			if err := c.QueryRow(ctx, "SELECT i, b, t, d FROM w WHERE i = $1", k).Scan(&i, &bb, &s, &d); err != nil {
				t.Fatal(err)
			}
		}},
		{"vsqld-chunks-materialized", func() {
			server.SetStreamResults(true)
			server.SetMaterializeChunks(true)
			if err := c.QueryRow(ctx, "SELECT i, b, t, d FROM w WHERE i = $1", k).Scan(&i, &bb, &s, &d); err != nil {
				t.Fatal(err)
			}
		}},
		{"vsqld-rows", func() {
			server.SetStreamResults(false)
			server.SetMaterializeChunks(false)
			if err := c.QueryRow(ctx, "SELECT i, b, t, d FROM w WHERE i = $1", k).Scan(&i, &bb, &s, &d); err != nil {
				t.Fatal(err)
			}
		}},
		{"vsqld-SELECT1", func() {
			server.SetStreamResults(true)
			if err := c.QueryRow(ctx, "SELECT 1::BIGINT").Scan(&i); err != nil {
				t.Fatal(err)
			}
		}},
		{"in-process", func() {
			if err := stmt.QueryRow(k).Scan(&i, &bb, &s, &d); err != nil {
				t.Fatal(err)
			}
		}},
	}
	samples := map[string][]time.Duration{}
	for round := 0; round < 40; round++ {
		for _, v := range variants {
			start := time.Now()
			for range 40 {
				k = (k + 7919) % 1000000
				v.f()
			}
			samples[v.name] = append(samples[v.name], time.Since(start)/40)
		}
	}
	server.SetStreamResults(true)
	server.SetMaterializeChunks(false)
	for _, v := range variants {
		s := samples[v.name]
		sort.Slice(s, func(a, b int) bool { return s[a] < s[b] })
		t.Logf("%-26s min %v  p25 %v  median %v", v.name, s[0], s[len(s)/4], s[len(s)/2])
	}
}
