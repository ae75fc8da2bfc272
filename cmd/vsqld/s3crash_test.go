package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vsql/vsql/internal/s3test"
	"github.com/vsql/vsql/s3sync"
)

// headCounter is a reverse proxy in front of the real S3 server that
// counts the head writes it accepted (it changes nothing).
type headCounter struct {
	proxy  *httputil.ReverseProxy
	writes atomic.Int64
}

func (h *headCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &statusRecorder{ResponseWriter: w, status: 200}
	h.proxy.ServeHTTP(rec, r)
	if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/heads/") && rec.status == 200 {
		h.writes.Add(1)
	}
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

// TestCrashDuringS3Merge kills vsqld with SIGKILL at each step of an S3
// merge's publication, checks the request's intermediate state after the
// restart, and retries the same request_id: exactly one head write, the
// merged rows locally and on the remote head.
func TestCrashDuringS3Merge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	endpoint := s3test.Start(t)
	target, _ := url.Parse(endpoint)
	counter := &headCounter{proxy: httputil.NewSingleHostReverseProxy(target)}
	proxy := httptest.NewServer(counter)
	defer proxy.Close()
	t.Setenv("AWS_ENDPOINT_URL_S3", proxy.URL)
	ctx := context.Background()
	store, err := s3sync.NewAWSStore(ctx, "crash", s3sync.AWSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateBucket(ctx); err != nil {
		t.Fatal(err)
	}
	bin := vsqldBinary(t)
	points := []struct {
		fault, state string
		headWritten  bool
	}{
		{"s3merge.after_prepared", "prepared", false},
		{"s3merge.after_upload", "uploaded", false},
		{"s3merge.after_head_write", "uploaded", true},
	}
	const merge = "SELECT snapshot_id, merge_action FROM vsql_merge_branch('shop', 'main', 'side', 'main', request_id => 'crash-s3')"
	for i, p := range points {
		t.Run(p.fault, func(t *testing.T) {
			data := t.TempDir()
			prefix := "p" + string(rune('a'+i))
			c := startChild(t, bin, data, "")
			admin := c.connect(t, "postgres")
			exec1(t, admin, "CREATE DATABASE shop")
			admin.Close(ctx)
			conn := c.connect(t, "shop")
			exec1(t, conn, "SELECT * FROM vsql_set_remote('shop', 's3://crash/"+prefix+"/')")
			exec1(t, conn, "CREATE TABLE t (id integer PRIMARY KEY, a bigint, b bigint)")
			exec1(t, conn, "INSERT INTO t SELECT range, 0, 0 FROM range(10000)")
			exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")
			exec1(t, conn, "SELECT * FROM vsql_create_branch('shop', 'side')")
			exec1(t, conn, "UPDATE t SET a = 1 WHERE id < 5000")
			exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")
			side := c.connect(t, "shop/side")
			exec1(t, side, "UPDATE t SET b = 2 WHERE id >= 2500")
			exec1(t, side, "SELECT * FROM vsql_create_snapshot()")
			side.Close(ctx)
			// without a request_id the merge is refused
			if _, err := conn.Exec(ctx, "SELECT * FROM vsql_merge_branch('shop', 'main', 'side', 'main')"); err == nil || !strings.Contains(err.Error(), "merge_request_required") {
				t.Fatalf("merge without request_id: %v", err)
			}
			conn.Close(ctx)
			c.stop(t)
			before := counter.writes.Load()

			c = startChild(t, bin, data, p.fault)
			expectKilled(t, c, c.connect(t, "shop"), p.fault, merge)
			if out, err := runVerify(t, bin, data); err != nil {
				t.Fatalf("verify after crash: %v\n%s", err, out)
			}
			written := counter.writes.Load() - before
			if (written == 1) != p.headWritten || written > 1 {
				t.Fatalf("%d head writes before the crash at %s", written, p.fault)
			}
			c = startChild(t, bin, data, "")
			defer c.stop(t)
			conn = c.connect(t, "shop")
			defer conn.Close(ctx)
			state := scalar[string](t, conn, "SELECT state FROM vsql_merge_requests('shop', request_id => 'crash-s3')")
			if state != p.state {
				t.Errorf("request state after the crash: %s, want %s", state, p.state)
			}
			if p.state == "uploaded" { // the head write may have landed: abort is refused
				op := scalar[string](t, conn, "SELECT operation_id FROM vsql_merge_requests('shop', request_id => 'crash-s3')")
				_, err := conn.Exec(ctx, "SELECT * FROM vsql_abort_merge('shop', '"+op+"')")
				if err == nil || !strings.Contains(err.Error(), "merge_publication_pending") {
					t.Errorf("abort of an unsettled publication: %v", err)
				}
			}
			retry := merge
			var id int64
			var action string
			if err := conn.QueryRow(ctx, retry).Scan(&id, &action); err != nil {
				t.Fatalf("retry: %v\n%s", err, c.logs)
			}
			if action != "merged" {
				t.Errorf("retry: %s", action)
			}
			if got := counter.writes.Load() - before; got != 1 {
				t.Errorf("%d head writes in all, want exactly 1", got)
			}
			if got := scalar[int64](t, conn, "SELECT sum(a) + sum(b) FROM t"); got != 20000 {
				t.Errorf("after retry: sum %d, want 20000", got)
			}
			if merges := scalar[int64](t, conn, "SELECT count(*) FROM vsql_snapshots() WHERE kind = 'merge'"); merges != 1 {
				t.Errorf("%d merge snapshots, want 1", merges)
			}
			// The remote head holds the local result.
			root := scalar[string](t, conn, "SELECT content_root FROM vsql_snapshots() WHERE snapshot_id = "+
				"(SELECT head_snapshot_id FROM vsql_branches() WHERE branch_name = 'main')")
			data2, _, err := store.Get(ctx, prefix+"/heads/shop/main")
			if err != nil || !strings.Contains(string(data2), root) {
				t.Errorf("remote head %s (%v) does not hold the local head %s", data2, err, root)
			}
		})
	}
}

// TestCloneFromS3: vsqld clone copies a remote head into another
// repository as a new database with its own history.
func TestCloneFromS3(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	s3test.Start(t)
	ctx := context.Background()
	store, err := s3sync.NewAWSStore(ctx, "clones", s3sync.AWSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateBucket(ctx); err != nil {
		t.Fatal(err)
	}
	bin := vsqldBinary(t)
	src := startChild(t, bin, t.TempDir(), "")
	admin := src.connect(t, "postgres")
	exec1(t, admin, "CREATE DATABASE inv")
	admin.Close(ctx)
	conn := src.connect(t, "inv")
	exec1(t, conn, "SELECT * FROM vsql_set_remote('inv', 's3://clones/x/')")
	exec1(t, conn, "CREATE TABLE items (id integer PRIMARY KEY, qty integer)")
	exec1(t, conn, "INSERT INTO items SELECT range, range % 7 FROM range(3000)")
	exec1(t, conn, "SELECT * FROM vsql_create_snapshot()")
	conn.Close(ctx)
	src.stop(t)

	data := t.TempDir()
	out, err := exec.Command(bin, "clone", "s3://clones/x/heads/inv/main", "--as", "inv_copy", "--data", data).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "database inv_copy, snapshot 1") {
		t.Fatalf("clone: %v\n%s", err, out)
	}
	dst := startChild(t, bin, data, "")
	defer dst.stop(t)
	c := dst.connect(t, "inv_copy")
	defer c.Close(ctx)
	if got := scalar[int64](t, c, "SELECT sum(qty) FROM items"); got != 8994 {
		t.Errorf("cloned rows: sum %d, want 8994", got)
	}
	// its own history: writable, snapshots count from the clone, no remote
	exec1(t, c, "INSERT INTO items VALUES (5000, 1)")
	if id := scalar[int64](t, c, "SELECT snapshot_id FROM vsql_create_snapshot()"); id != 2 {
		t.Errorf("first snapshot after the clone: %d, want 2", id)
	}
	if out, err := exec.Command(bin, "clone", "s3://clones/x/heads/inv/main", "--as", "inv_copy", "--data", t.TempDir()).CombinedOutput(); err != nil {
		t.Errorf("clone into another empty repository: %v\n%s", err, out)
	}
}

// TestEvictAndRefetch: vsqld evict removes local images and the blocks
// only exported snapshots use; time travel and a merge that need them
// bring them back from S3, verified.
func TestEvictAndRefetch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	s3test.Start(t)
	ctx := context.Background()
	store, err := s3sync.NewAWSStore(ctx, "evicted", s3sync.AWSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateBucket(ctx); err != nil {
		t.Fatal(err)
	}
	bin := vsqldBinary(t)
	data := t.TempDir()
	c := startChild(t, bin, data, "")
	admin := c.connect(t, "postgres")
	exec1(t, admin, "CREATE DATABASE kv")
	admin.Close(ctx)
	conn := c.connect(t, "kv")
	exec1(t, conn, "SELECT * FROM vsql_set_remote('kv', 's3://evicted/r/')")
	exec1(t, conn, "CREATE TABLE kv (k integer PRIMARY KEY, v bigint)")
	exec1(t, conn, "INSERT INTO kv SELECT range, range FROM range(200000)")
	exec1(t, conn, "SELECT * FROM vsql_create_snapshot()") // 1
	exec1(t, conn, "SELECT * FROM vsql_create_branch('kv', 'dev')")
	exec1(t, conn, "UPDATE kv SET v = 0 WHERE k < 100")
	exec1(t, conn, "SELECT * FROM vsql_create_snapshot()") // 2
	dev := c.connect(t, "kv/dev")
	exec1(t, dev, "UPDATE kv SET v = -1 WHERE k >= 199900")
	exec1(t, dev, "SELECT * FROM vsql_create_snapshot()") // 3
	dev.Close(ctx)
	conn.Close(ctx)
	c.stop(t)

	out, err := exec.Command(bin, "evict", "--data", data).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "evict:") || strings.Contains(string(out), "evict: 0 blocks") {
		t.Fatalf("evict: %v\n%s", err, out)
	}
	if out, err := runVerify(t, bin, data); err != nil || strings.Contains(out, " 0 blocks only in S3") {
		t.Fatalf("verify after evict: %v\n%s", err, out)
	}
	c = startChild(t, bin, data, "")
	defer c.stop(t)
	old := c.connect(t, "kv@1")
	defer old.Close(ctx)
	if got := scalar[int64](t, old, "SELECT sum(v) FROM kv"); got != 199999*200000/2 {
		t.Errorf("time travel to an evicted snapshot: sum %d", got)
	}
	conn = c.connect(t, "kv")
	defer conn.Close(ctx)
	if action := scalar[string](t, conn, "SELECT merge_action FROM vsql_merge_branch('kv', 'main', 'dev', 'main', request_id => 'after-evict')"); action != "merged" {
		t.Errorf("merge after evict: %s", action)
	}
	if got := scalar[int64](t, conn, "SELECT count(*) FROM kv WHERE v <= 0"); got != 200 {
		t.Errorf("merged rows with v <= 0: %d, want 200", got)
	}
	if out, err := runVerify(t, bin, data); err != nil {
		t.Fatalf("verify at the end: %v\n%s", err, out)
	}
}

// TestS3ReplicaProcesses: two vsqld processes with separate repositories
// and one bucket. A writes and snapshots; B reads A's head and sees the
// rows; A merges a branch into main; B sees the new head within its poll
// interval.
func TestS3ReplicaProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("builds vsqld and runs child processes")
	}
	s3test.Start(t)
	ctx := context.Background()
	store, err := s3sync.NewAWSStore(ctx, "replicas", s3sync.AWSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := store.CreateBucket(ctx); err != nil {
		t.Fatal(err)
	}
	bin := vsqldBinary(t)
	a := startChild(t, bin, t.TempDir(), "")
	defer a.stop(t)
	admin := a.connect(t, "postgres")
	exec1(t, admin, "CREATE DATABASE sales")
	admin.Close(ctx)
	sales := a.connect(t, "sales")
	defer sales.Close(ctx)
	exec1(t, sales, "SELECT * FROM vsql_set_remote('sales', 's3://replicas/lake/')")
	exec1(t, sales, "CREATE TABLE orders (id integer PRIMARY KEY, amount bigint)")
	exec1(t, sales, "INSERT INTO orders SELECT range, range FROM range(1, 1001)")
	exec1(t, sales, "SELECT * FROM vsql_create_snapshot()")

	const poll = 300 * time.Millisecond
	b := startChild(t, bin, t.TempDir(), "", "--remote-poll", poll.String(), "--allow-remote", "s3://replicas/lake/")
	defer b.stop(t)
	replica := b.connect(t, "s3://replicas/lake/heads/sales/main")
	defer replica.Close(ctx)
	if got := scalar[int64](t, replica, "SELECT sum(amount) FROM orders"); got != 500500 {
		t.Fatalf("B reads sum %d, want 500500", got)
	}

	exec1(t, sales, "SELECT * FROM vsql_create_branch('sales', 'fix')")
	fix := a.connect(t, "sales/fix")
	exec1(t, fix, "UPDATE orders SET amount = 0 WHERE id <= 10")
	exec1(t, fix, "SELECT * FROM vsql_create_snapshot()")
	fix.Close(ctx)
	exec1(t, sales, "INSERT INTO orders VALUES (5000, 5000)")
	exec1(t, sales, "SELECT * FROM vsql_create_snapshot()")
	exec1(t, sales, "SELECT * FROM vsql_merge_branch('sales', 'main', 'fix', 'main', request_id => 'fix-into-main')")
	merged := time.Now()
	want := int64(500500 - 55 + 5000)
	for {
		var got int64
		err := replica.QueryRow(ctx, "SELECT sum(amount) FROM orders").Scan(&got)
		if err == nil && got == want {
			break
		}
		if time.Since(merged) > 5*poll+2*time.Second {
			t.Fatalf("B still reads sum %d (%v) %v after the merge, want %d", got, err, time.Since(merged), want)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("B saw the merge %v after it returned (poll interval %v)", time.Since(merged).Round(time.Millisecond), poll)
}
