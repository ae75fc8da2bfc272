package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/s3test"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/server"
)

func startVersity(t *testing.T) string { return s3test.Start(t) }

func createBucket(t *testing.T, bucket string) *s3sync.AWSStore {
	t.Helper()
	st, err := s3sync.NewAWSStore(context.Background(), bucket, s3sync.AWSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateBucket(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

func connectDB(t *testing.T, addr, dbname string) *pgx.Conn {
	t.Helper()
	host, port, _ := net.SplitHostPort(addr)
	c, err := pgx.Connect(context.Background(), fmt.Sprintf("host=%s port=%s user=tester dbname='%s' sslmode=disable", host, port, dbname))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

// mustExec runs statements, failing the test on the first error.
func mustExec(t *testing.T, c *pgx.Conn, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := c.Exec(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestS3Replica: two servers with separate repositories and one bucket.
// A writes and snapshots; B reads A's head; A merges a branch into main;
// B sees the new head within its poll interval.
func TestS3Replica(t *testing.T) {
	startVersity(t)
	createBucket(t, "replica")
	ctx := context.Background()
	a := startServer(t, nil)
	bMetrics := freeAddr(t)
	b := startServer(t, func(c *server.Config) {
		c.RemotePoll = 200 * time.Millisecond
		c.AllowRemotes = []string{"s3://replica/lake/"}
		c.HTTPListen = bMetrics
	})

	admin := connectPgx(t, a)
	mustExec(t, admin, "CREATE DATABASE sales")
	sales := connectDB(t, a, "sales")
	mustExec(t, sales,
		"SELECT * FROM vsql_set_remote('sales', 's3://replica/lake/')",
		"CREATE TABLE orders (id INTEGER PRIMARY KEY, amount DECIMAL(10, 2))",
		"INSERT INTO orders SELECT range, range * 1.5 FROM range(1, 1001)",
		"SELECT * FROM vsql_create_snapshot()")

	head := "s3://replica/lake/heads/sales/main"
	replica := connectDB(t, b, head)
	var n int64
	var sum string
	if err := replica.QueryRow(ctx, "SELECT count(*), sum(amount)::VARCHAR FROM orders").Scan(&n, &sum); err != nil || n != 1000 || sum != "750750.00" {
		t.Fatalf("replica reads %d rows, sum %s (%v)", n, sum, err)
	}
	if _, err := replica.Exec(ctx, "INSERT INTO orders VALUES (5000, 1)"); err == nil {
		t.Error("a remote head is writable")
	}
	// the same head attached by name in another session of B
	other := connectPgx(t, b)
	var alias string
	if err := other.QueryRow(ctx, "SELECT alias FROM vsql_attach_remote($1, as => 'sales_latest')", head).Scan(&alias); err != nil || alias != "sales_latest" {
		t.Fatalf("vsql_attach_remote: %s %v", alias, err)
	}
	if err := other.QueryRow(ctx, "SELECT count(*) FROM sales_latest.orders").Scan(&n); err != nil || n != 1000 {
		t.Fatalf("sales_latest: %d %v", n, err)
	}

	// A merges a branch into main: the merge publishes through the remote.
	mustExec(t, sales, "SELECT * FROM vsql_create_branch('sales', 'fix')")
	fix := connectDB(t, a, "sales/fix")
	mustExec(t, fix, "UPDATE orders SET amount = 0 WHERE id <= 10", "INSERT INTO orders VALUES (2000, 7)", "SELECT * FROM vsql_create_snapshot()")
	mustExec(t, sales, "INSERT INTO orders VALUES (3000, 9)", "SELECT * FROM vsql_create_snapshot()")
	_, err := sales.Exec(ctx, "SELECT * FROM vsql_merge_branch('sales', 'main', 'fix', 'main')")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "merge_request_required") {
		t.Fatalf("a merge into an S3 database without request_id: %v", err)
	}
	var action string
	if err := sales.QueryRow(ctx, "SELECT merge_action FROM vsql_merge_branch('sales', 'main', 'fix', 'main', request_id => 'fix-1')").Scan(&action); err != nil || action != "merged" {
		t.Fatalf("merge: %s %v", action, err)
	}
	// Both followers of the head (the s3:// session and the attached name)
	// see the merge within a few poll intervals.
	waitRows := func(c *pgx.Conn, q string, want int64) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			err := c.QueryRow(ctx, q).Scan(&n)
			if err == nil && n == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d rows (%v) 10 s after the merge, want %d", q, n, err, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitRows(replica, "SELECT count(*) FROM orders", 1002)
	waitRows(other, "SELECT count(*) FROM sales_latest.orders", 1002)
	if err := replica.QueryRow(ctx, "SELECT count(*) FROM orders WHERE amount = 0").Scan(&n); err != nil || n != 10 {
		t.Errorf("replica sees %d zeroed orders (%v)", n, err)
	}
	// The replica's metrics: it read from S3 and its heads are current
	// (polled every 200 ms).
	m := scrape(t, "http://"+bMetrics)
	if m[`vsql_s3_requests_total{op="get"}`] == 0 || m[`vsql_s3_bytes_total{direction="received"}`] == 0 {
		t.Errorf("replica's S3 reads not counted: %v gets, %v bytes", m[`vsql_s3_requests_total{op="get"}`], m[`vsql_s3_bytes_total{direction="received"}`])
	}
	if lag := m["vsql_s3_head_lag_seconds"]; lag <= 0 || lag > 5 {
		t.Errorf("vsql_s3_head_lag_seconds = %v with heads polled every 200 ms", lag)
	}
}

// TestS3HeadRace: two writers with separate repositories export the same
// database name to one prefix; exactly one wins the head, the other gets
// head_conflict and records nothing.
func TestS3HeadRace(t *testing.T) {
	startVersity(t)
	createBucket(t, "race")
	ctx := context.Background()
	var conns []*pgx.Conn
	for i := 0; i < 2; i++ {
		addr := startServer(t, nil)
		mustExec(t, connectPgx(t, addr), "CREATE DATABASE ledger")
		c := connectDB(t, addr, "ledger")
		mustExec(t, c, "SELECT * FROM vsql_set_remote('ledger', 's3://race/shared/')",
			"CREATE TABLE entries (id INTEGER PRIMARY KEY, writer INTEGER)", fmt.Sprintf("INSERT INTO entries VALUES (1, %d)", i))
		conns = append(conns, c)
	}
	errs := make(chan error, 2)
	for _, c := range conns {
		go func(c *pgx.Conn) {
			_, err := c.Exec(ctx, "SELECT * FROM vsql_create_snapshot()")
			errs <- err
		}(c)
	}
	var won, lost int
	for i := 0; i < 2; i++ {
		err := <-errs
		var pgErr *pgconn.PgError
		switch {
		case err == nil:
			won++
		case errors.As(err, &pgErr) && strings.Contains(pgErr.Message, "head_conflict"):
			lost++
		default:
			t.Fatalf("snapshot: %v", err)
		}
	}
	if won != 1 || lost != 1 {
		t.Fatalf("%d won, %d lost; want exactly one of each", won, lost)
	}
	for _, c := range conns {
		var snaps int
		if err := c.QueryRow(ctx, "SELECT count(*) FROM vsql_snapshots()").Scan(&snaps); err != nil {
			t.Fatal(err)
		}
		if snaps > 1 {
			t.Errorf("a writer has %d snapshots", snaps)
		}
	}
	var total int
	for _, c := range conns {
		var snaps int
		_ = c.QueryRow(ctx, "SELECT count(*) FROM vsql_snapshots()").Scan(&snaps)
		total += snaps
	}
	if total != 1 {
		t.Errorf("%d snapshots recorded across both writers, want 1 (the loser records nothing)", total)
	}
}

// TestS3CorruptBlock: a block damaged in the bucket is detected when a
// reader fetches it, reported with its key, and never used.
func TestS3CorruptBlock(t *testing.T) {
	startVersity(t)
	st := createBucket(t, "damaged")
	ctx := context.Background()
	a := startServer(t, nil)
	mustExec(t, connectPgx(t, a), "CREATE DATABASE inv")
	c := connectDB(t, a, "inv")
	mustExec(t, c, "SELECT * FROM vsql_set_remote('inv', 's3://damaged/p/')",
		"CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR)", "INSERT INTO items SELECT range, 'item ' || range FROM range(5000)",
		"SELECT * FROM vsql_create_snapshot()")
	// Damage the largest pack: rewrite it with one byte flipped.
	data, _, err := st.Get(ctx, "p/heads/inv/main")
	if err != nil {
		t.Fatal(err)
	}
	var head s3sync.Head
	if err := jsonUnmarshal(data, &head); err != nil {
		t.Fatal(err)
	}
	ddata, _, err := st.Get(ctx, "p/"+head.Descriptor)
	if err != nil {
		t.Fatal(err)
	}
	var desc s3sync.Descriptor
	if err := jsonUnmarshal(ddata, &desc); err != nil {
		t.Fatal(err)
	}
	pack := desc.Chunks[len(desc.Chunks)-1].Pack
	body, _, err := st.Get(ctx, "p/"+pack)
	if err != nil {
		t.Fatal(err)
	}
	body[len(body)/2] ^= 0xff
	if _, err := st.Put(ctx, "p/"+pack, body); err != nil {
		t.Fatal(err)
	}
	b := startServer(t, func(c *server.Config) { c.AllowRemotes = []string{"s3://damaged/"} })
	reader := connectPgx(t, b)
	_, err = reader.Exec(ctx, "SELECT * FROM vsql_attach_remote('s3://damaged/p/heads/inv/main', as => 'inv_copy')")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "storage_corrupt") || !strings.Contains(pgErr.Message, pack) {
		t.Fatalf("attach of a damaged head: %v", err)
	}
	if _, err := reader.Exec(ctx, "SELECT count(*) FROM inv_copy.items"); err == nil {
		t.Error("the damaged head was attached anyway")
	}
}

func jsonUnmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
