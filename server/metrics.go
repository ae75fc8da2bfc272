package server

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/merge"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/vsqlerr"
)

// metrics are the server's Prometheus metrics (served at /metrics when
// Config.HTTPListen is set), in a registry of the server's own, so that
// servers in one process (tests) do not share them.
type metrics struct {
	registry    *prometheus.Registry
	connections prometheus.Counter
	statements  *prometheus.CounterVec
	errors      *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	sent        prometheus.Counter
	merges      *prometheus.CounterVec
	mergeTables *prometheus.CounterVec
	mergePhase  *prometheus.HistogramVec
	snapshots   prometheus.Counter
	snapNew     prometheus.Counter
	snapTotal   prometheus.Counter
	gcRuns      *prometheus.CounterVec
	gcRemoved   prometheus.Counter
	store       *storeSize
	s3Requests  *prometheus.CounterVec
	s3Errors    *prometheus.CounterVec
	s3Bytes     *prometheus.CounterVec
	lakeExports *prometheus.CounterVec
	lakeSeconds prometheus.Histogram
}

// statementCommands are the commands statements are counted by; any other
// first keyword counts as OTHER, so the label's values stay few.
var statementCommands = map[string]bool{"SELECT": true, "INSERT": true, "UPDATE": true, "DELETE": true, "MERGE": true,
	"COPY": true, "WITH": true, "VALUES": true, "CREATE": true, "DROP": true, "ALTER": true, "BEGIN": true, "START": true,
	"COMMIT": true, "END": true, "ROLLBACK": true, "SAVEPOINT": true, "RELEASE": true, "SET": true, "SHOW": true,
	"RESET": true, "DECLARE": true, "FETCH": true, "MOVE": true, "CLOSE": true, "PREPARE": true, "EXECUTE": true,
	"DEALLOCATE": true, "EXPLAIN": true, "TRUNCATE": true, "CHECKPOINT": true, "DISCARD": true}

func newMetrics(s *Server) *metrics {
	m := &metrics{registry: prometheus.NewRegistry()}
	f := promauto{m.registry}
	m.connections = f.counter("vsql_connections_total", "Client sessions opened.")
	f.gaugeFunc("vsql_connections", "Client sessions open now.", func() float64 {
		s.sessMu.Lock()
		defer s.sessMu.Unlock()
		return float64(len(s.sessions))
	})
	m.statements = f.counterVec("vsql_statements_total", "Statements run, by command (first keyword; OTHER for the rest).", "command")
	m.errors = f.counterVec("vsql_statement_errors_total", "Statements that failed, by SQLSTATE class (the first two characters).", "class")
	m.latency = f.histogramVec("vsql_statement_duration_seconds", "Time from a statement's start to its last row sent, by command.",
		prometheus.ExponentialBuckets(0.0001, 4, 10), "command")
	m.sent = f.counter("vsql_sent_bytes_total", "Bytes written to clients.")
	m.mergeTables = f.counterVec("vsql_merge_tables_total", "Tables compared by successful merges, by how their rows were paired: identical (not compared), positional, keyed, keyed_after_misalignment.", "method")
	m.merges = f.counterVec("vsql_merges_total", "Merge calls, by outcome: the action (merged, fast_forward, already_up_to_date, …) or the error code.", "outcome")
	m.mergePhase = f.histogramVec("vsql_merge_phase_seconds", "Time merges spent in each phase.",
		prometheus.ExponentialBuckets(0.001, 4, 10), "phase")
	m.snapshots = f.counter("vsql_snapshots_total", "Snapshots created by vsql_create_snapshot.")
	m.snapNew = f.counter("vsql_snapshot_new_bytes_total", "Bytes snapshots added to the block store (compressed, as on disk).")
	m.snapTotal = f.counter("vsql_snapshot_file_bytes_total", "Sizes of the files snapshots recorded.")
	m.gcRuns = f.counterVec("vsql_gc_runs_total", "Online gc passes, by who ran them (background, vsql_gc) and result (ok, error).", "by", "result")
	m.gcRemoved = f.counter("vsql_gc_removed_bytes_total", "Bytes of blocks the online gc removed from the local block store.")
	m.store = &storeSize{store: s.versions.Store()}
	f.gaugeFunc("vsql_block_store_bytes", "Bytes of the block store on disk (measured again after snapshots, merges and gc, else at most once a minute).", func() float64 {
		return float64(m.store.bytes())
	})
	m.s3Requests = f.counterVec("vsql_s3_requests_total", "Requests to S3 remotes, by operation (get, get_range, put, put_if, list, delete).", "op")
	m.s3Errors = f.counterVec("vsql_s3_errors_total", "Failed S3 requests, by operation (a missing object or a failed condition, which vsql expects at times, included).", "op")
	m.s3Bytes = f.counterVec("vsql_s3_bytes_total", "Bytes moved to and from S3 remotes, by direction (sent, received).", "direction")
	f.gaugeFunc("vsql_s3_head_lag_seconds", "How long ago the least recently synced S3 head this server follows (dbname s3://…) was known current; it grows while S3 is unreachable (0: no head followed).",
		func() float64 { return s.headLag().Seconds() })
	m.lakeExports = f.counterVec("vsql_lakehouse_exports_total", "Snapshot exports to Iceberg lakehouses, by result (ok, error: retried).", "result")
	m.lakeSeconds = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "vsql_lakehouse_export_seconds",
		Help: "Time one snapshot's Iceberg export took (every table of it).", Buckets: prometheus.ExponentialBuckets(0.001, 4, 10)})
	m.registry.MustRegister(m.lakeSeconds)
	f.gaugeFunc("vsql_lakehouse_lag_snapshots", "Snapshots of databases with a lakehouse not exported yet (their tags and branches included).", func() float64 {
		if s.lake == nil {
			return 0
		}
		n, _ := s.lake.Lag(context.Background())
		return float64(n)
	})
	m.registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// promauto registers metrics into one registry.
type promauto struct{ r *prometheus.Registry }

func (p promauto) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
	p.r.MustRegister(c)
	return c
}

func (p promauto) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	p.r.MustRegister(c)
	return c
}

func (p promauto) histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets}, labels)
	p.r.MustRegister(h)
	return h
}

func (p promauto) gaugeFunc(name, help string, fn func() float64) {
	p.r.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, fn))
}

// Statement implements pgwire.Observer.
func (m *metrics) Statement(command, sqlstate string, d time.Duration) {
	if !statementCommands[command] {
		command = "OTHER"
	}
	m.statements.WithLabelValues(command).Inc()
	m.latency.WithLabelValues(command).Observe(d.Seconds())
	if len(sqlstate) >= 2 {
		m.errors.WithLabelValues(sqlstate[:2]).Inc()
	}
}

// Sent implements pgwire.Observer.
func (m *metrics) Sent(n int) { m.sent.Add(float64(n)) }

func (m *metrics) merged(res merge.Result, err error) {
	outcome := res.Action
	if err != nil {
		outcome = string(vsqlerr.From(err).Code)
	}
	if outcome == "" {
		outcome = "unknown"
	}
	m.merges.WithLabelValues(outcome).Inc()
	m.store.stale()
	if err != nil {
		return
	}
	for phase, ms := range map[string]float64{"selection": res.SelectionMS, "target_check": res.TargetCheckMS,
		"comparison": res.ComparisonMS, "application": res.ApplicationMS, "publication": res.PublicationMS} {
		m.mergePhase.WithLabelValues(phase).Observe(ms / 1000)
	}
	for method, n := range res.Methods {
		m.mergeTables.WithLabelValues(string(method)).Add(float64(n))
	}
}

func (m *metrics) snapshotted(res branches.SnapshotResult) {
	m.snapshots.Inc()
	m.store.stale()
	m.snapNew.Add(float64(res.NewBytes))
	m.snapTotal.Add(float64(res.TotalBytes))
}

func (m *metrics) gcRan(by string, rep branches.GCReport, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.gcRuns.WithLabelValues(by, result).Inc()
	m.store.stale()
	m.gcRemoved.Add(float64(rep.BytesRemoved))
}

// storeSize measures the block store's size on disk (a walk of every
// block file) when asked, at most once a minute unless something may have
// changed it since.
type storeSize struct {
	store *branches.BlockStore
	mu    sync.Mutex
	at    time.Time
	size  int64
}

// stale makes the next bytes measure again.
func (s *storeSize) stale() {
	s.mu.Lock()
	s.at = time.Time{}
	s.mu.Unlock()
}

func (s *storeSize) bytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.at) < time.Minute {
		return s.size
	}
	var total int64
	_ = s.store.Walk(func(b branches.StoredBlock) error {
		total += b.Info.Size()
		return nil
	})
	s.size, s.at = total, time.Now()
	return total
}

// meteredMerges counts the merge calls of sqlfuncs by outcome and phase.
// A merge that recorded a snapshot also starts the lakehouse export
// (merged).
type meteredMerges struct {
	*merge.Merger
	m      *metrics
	merged func()
}

func (mm meteredMerges) MergeBranch(ctx context.Context, db, ours, theirs, destination string, opt merge.Options) (merge.Result, error) {
	res, err := mm.Merger.MergeBranch(ctx, db, ours, theirs, destination, opt)
	mm.m.merged(res, err)
	mm.merged()
	return res, err
}

func (mm meteredMerges) MergeSnapshots(ctx context.Context, db, base, ours, theirs, destination string, opt merge.Options) (merge.Result, error) {
	res, err := mm.Merger.MergeSnapshots(ctx, db, base, ours, theirs, destination, opt)
	mm.m.merged(res, err)
	mm.merged()
	return res, err
}

// serveHTTP serves /metrics, /healthz and the web console (console.go) on
// Config.HTTPListen until ctx ends, over TLS when the wire has a
// certificate. /healthz answers 200 "ok" while the server accepts clients.
func (s *Server) serveHTTP(ctx context.Context) (stop func(), err error) {
	ln, err := net.Listen("tcp", s.cfg.HTTPListen)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte("ok\n"))
	})
	s.consoleHandler(mux)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, TLSConfig: s.tls}
	s.log.Info("vsqld http listening", "addr", ln.Addr().String(), "paths", "/metrics /healthz / (console)", "tls", s.tls != nil)
	done := make(chan struct{})
	go func() {
		defer close(done)
		serve := hs.Serve
		if s.tls != nil { // the wire's certificate (--tls-cert, --tls-key)
			serve = func(ln net.Listener) error { return hs.ServeTLS(ln, "", "") }
		}
		if err := serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("http server", "err", err)
		}
	}()
	return func() {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = hs.Shutdown(sctx)
		<-done
	}, nil
}

// meteredStore counts an S3 remote's requests, errors and bytes.
type meteredStore struct {
	inner s3sync.ObjectStore
	m     *metrics
}

// meterStore wraps an object store, keeping its Collector side (remote
// gc) when it has one.
func (m *metrics) meterStore(inner s3sync.ObjectStore) s3sync.ObjectStore {
	ms := meteredStore{inner: inner, m: m}
	if c, ok := inner.(s3sync.Collector); ok {
		return meteredCollector{ms, c}
	}
	return ms
}

func (s meteredStore) count(op string, err error, sent, received int) {
	s.m.s3Requests.WithLabelValues(op).Inc()
	if err != nil {
		s.m.s3Errors.WithLabelValues(op).Inc()
	}
	if sent > 0 {
		s.m.s3Bytes.WithLabelValues("sent").Add(float64(sent))
	}
	if received > 0 {
		s.m.s3Bytes.WithLabelValues("received").Add(float64(received))
	}
}

func (s meteredStore) Get(ctx context.Context, key string) ([]byte, string, error) {
	data, etag, err := s.inner.Get(ctx, key)
	s.count("get", err, 0, len(data))
	return data, etag, err
}

func (s meteredStore) GetRange(ctx context.Context, key string, offset, length int64) ([]byte, error) {
	data, err := s.inner.GetRange(ctx, key, offset, length)
	s.count("get_range", err, 0, len(data))
	return data, err
}

func (s meteredStore) Put(ctx context.Context, key string, data []byte) (string, error) {
	etag, err := s.inner.Put(ctx, key, data)
	s.count("put", err, len(data), 0)
	return etag, err
}

func (s meteredStore) PutIf(ctx context.Context, key string, data []byte, ifMatch string) (string, error) {
	etag, err := s.inner.PutIf(ctx, key, data, ifMatch)
	s.count("put_if", err, len(data), 0)
	return etag, err
}

type meteredCollector struct {
	meteredStore
	c s3sync.Collector
}

func (s meteredCollector) List(ctx context.Context, prefix string) ([]s3sync.ObjectInfo, error) {
	out, err := s.c.List(ctx, prefix)
	s.count("list", err, 0, 0)
	return out, err
}

func (s meteredCollector) Delete(ctx context.Context, key string) error {
	err := s.c.Delete(ctx, key)
	s.count("delete", err, 0, 0)
	return err
}

// lakeExported counts one snapshot's Iceberg export (lakehouse.Config.Observe).
func (m *metrics) lakeExported(took time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.lakeExports.WithLabelValues(result).Inc()
	m.lakeSeconds.Observe(took.Seconds())
}
