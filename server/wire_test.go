package server_test

import (
	"context"
	"database/sql"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	_ "github.com/lib/pq"
)

func TestPgxNamedStatementReused(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "CREATE TABLE items(id int PRIMARY KEY, name text, price numeric(10,2))"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Prepare(ctx, "ins", "INSERT INTO items VALUES ($1, $2, $3)"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 200; i++ {
		tag, err := conn.Exec(ctx, "ins", i, "item", "1.25")
		if err != nil {
			t.Fatalf("exec %d: %v", i, err)
		}
		if tag.String() != "INSERT 0 1" {
			t.Fatalf("tag %q", tag)
		}
	}
	// The same query text through pgx's statement cache (stmtcache_*).
	var sum pgtype.Numeric
	var n int64
	for i := 0; i < 50; i++ {
		if err := conn.QueryRow(ctx, "SELECT count(*), sum(price) FROM items WHERE id >= $1", i).Scan(&n, &sum); err != nil {
			t.Fatal(err)
		}
		if n != int64(200-i) {
			t.Fatalf("count = %d, want %d", n, 200-i)
		}
	}
	f, _ := sum.Float64Value()
	if f.Float64 != 1.25*151 {
		t.Errorf("sum = %v, want %v", f.Float64, 1.25*151)
	}
}

func TestPgxBinaryResults(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	ctx := context.Background()
	rows, err := conn.Query(ctx, "SELECT 42::int4 AS i, 12345.678::numeric(12,3) AS n, TIMESTAMPTZ '2024-03-04 05:06:07.123456+00' AS ts, 'héllo'::text AS s, true AS b, 1.5::double AS f")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		t.Fatal(rows.Err())
	}
	for i, fd := range rows.FieldDescriptions()[:3] {
		if fd.Format != pgtype.BinaryFormatCode {
			t.Errorf("column %d (%s) sent in format %d, want binary", i, fd.Name, fd.Format)
		}
	}
	wantOIDs := []uint32{pgtype.Int4OID, pgtype.NumericOID, pgtype.TimestamptzOID, pgtype.TextOID, pgtype.BoolOID, pgtype.Float8OID}
	for i, fd := range rows.FieldDescriptions() {
		if fd.DataTypeOID != wantOIDs[i] {
			t.Errorf("column %s OID %d, want %d", fd.Name, fd.DataTypeOID, wantOIDs[i])
		}
	}
	var i32 int32
	var num pgtype.Numeric
	var ts time.Time
	var s string
	var b bool
	var f float64
	if err := rows.Scan(&i32, &num, &ts, &s, &b, &f); err != nil {
		t.Fatal(err)
	}
	if i32 != 42 || s != "héllo" || !b || f != 1.5 {
		t.Errorf("got %d %q %v %v", i32, s, b, f)
	}
	if num.Int.Cmp(big.NewInt(12345678)) != 0 || num.Exp != -3 {
		t.Errorf("numeric = %v e%d", num.Int, num.Exp)
	}
	want := time.Date(2024, 3, 4, 5, 6, 7, 123456000, time.UTC)
	if !ts.Equal(want) {
		t.Errorf("timestamptz = %v, want %v", ts, want)
	}
}

func TestPgxBatchWithFailureStaysInSync(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	ctx := context.Background()
	if _, err := conn.Exec(ctx, "CREATE TABLE k(a int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	// One pipeline, one Sync: as in PostgreSQL, the statements after the
	// failing one are skipped, and the connection is still usable.
	batch := &pgx.Batch{}
	batch.Queue("INSERT INTO k VALUES (1)")
	batch.Queue("INSERT INTO k VALUES (1)") // duplicate key
	batch.Queue("INSERT INTO k VALUES (2)")
	batch.Queue("SELECT count(*) FROM k")
	br := conn.SendBatch(ctx, batch)
	if _, err := br.Exec(); err != nil {
		t.Fatalf("first: %v", err)
	}
	_, err := br.Exec()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || pgErr.Code != "23505" {
		t.Fatalf("second: %v, want 23505", err)
	}
	if _, err := br.Exec(); err == nil {
		t.Fatal("third statement ran after a failure in the same pipeline")
	}
	br.Close()

	// A pipeline with a Sync after each statement: the ones after the
	// failure run normally.
	p := conn.PgConn().StartPipeline(ctx)
	for _, q := range []string{"INSERT INTO k VALUES (10)", "INSERT INTO k VALUES (10)", "INSERT INTO k VALUES (11)", "INSERT INTO k VALUES (12)"} {
		p.SendQueryParams(q, nil, nil, nil, nil)
		p.SendPipelineSync()
	}
	if err := p.Flush(); err != nil {
		t.Fatal(err)
	}
	var errs []string
	for i := 0; i < 4; i++ {
		res, err := p.GetResults()
		if err == nil {
			rr, ok := res.(*pgconn.ResultReader)
			if !ok {
				t.Fatalf("result %d: %T", i, res)
			}
			_, err = rr.Close()
		}
		if err != nil {
			errs = append(errs, err.Error())
		} else {
			errs = append(errs, "ok")
		}
		if res, err = p.GetResults(); err != nil {
			t.Fatal(err)
		} else if _, ok := res.(*pgconn.PipelineSync); !ok {
			t.Fatalf("expected sync, got %T", res)
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if errs[0] != "ok" || errs[1] == "ok" || errs[2] != "ok" || errs[3] != "ok" {
		t.Fatalf("pipeline results %q", errs)
	}
	var n int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM k").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 4 { // 1, 10, 11, 12
		t.Errorf("count = %d, want 4", n)
	}
}

const longQuery = "SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range + b.range = -1"

func TestPgxCancelLongQuery(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	var n int64
	err := conn.QueryRow(ctx, longQuery).Scan(&n)
	elapsed := time.Since(start)
	if err == nil {
		t.Fatal("long query was not cancelled")
	}
	if elapsed > 1300*time.Millisecond { // 300 ms timeout + at most 1 s to stop
		t.Errorf("cancel took %v", elapsed)
	}
	var one int
	if err := conn.QueryRow(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("session unusable after cancel: %v", err)
	}
}

func TestLibpqCancelAndReuse(t *testing.T) {
	addr := startServer(t, nil)
	db, err := sql.Open("postgres", dsn(addr, "postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = db.ExecContext(ctx, longQuery)
	if err == nil {
		t.Fatal("long query was not cancelled")
	}
	if time.Since(start) > 1300*time.Millisecond {
		t.Errorf("cancel took %v", time.Since(start))
	}
	// lib/pq prepares and reuses statements with its own names.
	stmt, err := db.Prepare("SELECT $1::int * 2, $2::text || '!'")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		var v int
		var s string
		if err := stmt.QueryRow(i, "x").Scan(&v, &s); err != nil {
			t.Fatal(err)
		}
		if v != 2*i || s != "x!" {
			t.Fatalf("got %d %q", v, s)
		}
	}
	stmt.Close()
	// Transactions through database/sql.
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("CREATE TABLE lp(a int)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("SELECT * FROM lp"); err == nil || !strings.Contains(err.Error(), "lp") {
		t.Errorf("table survived rollback: %v", err)
	}
}
