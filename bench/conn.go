package main

import (
	"context"
	"fmt"
	"net"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgproto3"
)

// connectSection measures a new connection and its first query: what an
// application without a pool, or a pool that grows, pays.
func (b *bench) connectSection(ctx context.Context, pg *postgres) (string, error) {
	cfg := b.cfg
	var w strings.Builder
	const perRun = 50
	fmt.Fprintf(&w, "\n### Connection and first query\n\nEach run: %d times, a new pgx connection (`pgx.Connect`: TCP, "+
		"startup, authentication — trust on both), its first query `%s` (a Parse and a Bind/Execute on the new "+
		"connection) and Close; timed from the client, vsqld and PostgreSQL alternating (and vsqld once more over its "+
		"Unix-domain socket instead of TCP). The figure is the p50 of each run's "+
		"%d connections, the median over runs. A vsqld of its own, table `w` of 1,000 rows. vsqld keeps two DuckDB "+
		"connections made ahead, their tokens set and the previous session's branch made current, made again at a session's end "+
		"(server/spare.go), so a new session on the same branch runs nothing in DuckDB before it is ready, even when "+
		"it connects right after the last one closed.\n\n", perRun, pointQuery, perRun)
	s, vc, done, err := b.startConnected(ctx)
	if err != nil {
		return w.String(), err
	}
	defer done()
	setup := []string{"DROP TABLE IF EXISTS w", fmt.Sprintf(pgWireDDL, "w"), "INSERT INTO w SELECT i, i * 7, 'text ' || i, i / 3.0 FROM generate_series(0, 999) g(i)"}
	if err := execAll(ctx, vc, setup...); err != nil {
		return w.String(), err
	}
	systems := []struct {
		name    string
		connect func() (*pgx.Conn, error)
		p50     []float64
	}{{name: "vsqld", connect: func() (*pgx.Conn, error) { return s.connect(ctx, "postgres") }},
		{name: "vsqld over its Unix-domain socket", connect: func() (*pgx.Conn, error) { return s.connectUnix(ctx, "postgres") }}}
	if pg != nil {
		pc, err := pg.connect(ctx)
		if err != nil {
			return w.String(), err
		}
		if err := execAll(ctx, pc, setup...); err != nil {
			pc.Close(ctx)
			return w.String(), err
		}
		pc.Close(ctx)
		systems = append(systems, struct {
			name    string
			connect func() (*pgx.Conn, error)
			p50     []float64
		}{name: "PostgreSQL 15", connect: func() (*pgx.Conn, error) { return pg.connect(ctx) }})
	}
	for run := 0; run <= cfg.runs; run++ {
		for i := range systems {
			sy := &systems[i]
			var lat []float64
			for k := 0; k < perRun; k++ {
				t0 := time.Now()
				c, err := sy.connect()
				if err != nil {
					return w.String(), fmt.Errorf("%s: connect: %w", sy.name, err)
				}
				var a, bb int64
				var t string
				var f float64
				if err := c.QueryRow(ctx, pointQuery, k).Scan(&a, &bb, &t, &f); err != nil {
					c.Close(ctx)
					return w.String(), fmt.Errorf("%s: first query: %w", sy.name, err)
				}
				c.Close(ctx)
				lat = append(lat, ms(time.Since(t0)))
			}
			sort.Float64s(lat)
			if run > 0 {
				sy.p50 = append(sy.p50, lat[len(lat)/2])
			}
		}
	}
	var out [][]string
	for _, sy := range systems {
		row := []string{sy.name, fmtMs(median(sy.p50)), spread(sy.p50, "%.2f ms")}
		if sy.name != systems[0].name {
			row = append(row, fmt.Sprintf("%.2f×", median(ratios(systems[0].p50, sy.p50))))
		} else {
			row = append(row, "1")
		}
		out = append(out, row)
	}
	w.WriteString(table([]string{"server", "connect + first query, p50", "runs", "vsqld ÷ this"}, out))
	v := median(systems[0].p50)
	b.goal("connect + first query, p50 (vsqld)", "≤ 2 ms", fmtMs(v), v <= 2)
	return w.String(), nil
}

// slowReaderSection reads a large result at a crawl, then disconnects:
// vsqld's memory must stay bounded (the result streams, a chunk at a time,
// as fast as the client reads) and the query must stop at once.
func (b *bench) slowReaderSection(ctx context.Context) (string, error) {
	cfg := b.cfg
	rows, crawl := 2_000_000, 10*time.Second
	if cfg.quick {
		rows, crawl = 200_000, 2*time.Second
	}
	q := fmt.Sprintf("SELECT i, repeat('x', 1000) AS pad FROM range(0, %d) r(i)", rows)
	var w strings.Builder
	fmt.Fprintf(&w, "\n### A slow reader\n\nA vsqld of its own started with `--max-connections 1`. A client sends `%s` "+
		"(%s of rows) in a simple query and reads the socket at a crawl, 16 KiB every 20 ms (about 0.8 MB/s), for %s, "+
		"while the benchmark samples vsqld's resident memory (VmRSS) every 50 ms; then it closes the socket, and the "+
		"benchmark connects again until vsqld accepts (its one connection slot is free only once the query has stopped "+
		"and the session is closed). One run.\n\n", q, fmtBytes(float64(rows)*1008), crawl)
	s, err := b.startVsqld(ctx, "--max-connections", "1")
	if err != nil {
		return w.String(), err
	}
	defer s.stop()
	time.Sleep(200 * time.Millisecond) // the start-up probe's session closes
	before, err := rss(s.pid())
	if err != nil {
		return w.String(), err
	}
	nc, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", s.port))
	if err != nil {
		return w.String(), err
	}
	fe := pgproto3.NewFrontend(nc, nc)
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersionNumber, Parameters: map[string]string{"user": "bench", "database": "postgres"}})
	if err := fe.Flush(); err != nil {
		nc.Close()
		return w.String(), err
	}
	for {
		m, err := fe.Receive()
		if err != nil {
			nc.Close()
			return w.String(), fmt.Errorf("slow reader startup: %w", err)
		}
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			nc.Close()
			return w.String(), fmt.Errorf("slow reader startup: %s", e.Message)
		}
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			break
		}
	}
	fe.Send(&pgproto3.Query{String: q})
	if err := fe.Flush(); err != nil {
		nc.Close()
		return w.String(), err
	}
	var maxRSS int64
	var read int64
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if v, err := rss(s.pid()); err == nil && v > maxRSS {
				maxRSS = v
			}
			select {
			case <-stopSampling:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	buf := make([]byte, 16<<10)
	end := time.Now().Add(crawl)
	for time.Now().Before(end) {
		n, err := nc.Read(buf)
		read += int64(n)
		if err != nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	nc.Close()
	closed := time.Now()
	var freed time.Duration
	for {
		c, err := s.connect(ctx, "postgres")
		if err == nil {
			freed = time.Since(closed)
			c.Close(ctx)
			break
		}
		if time.Since(closed) > 30*time.Second {
			close(stopSampling)
			<-sampled
			return w.String(), fmt.Errorf("the slot is still taken 30 s after the slow reader left: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(stopSampling)
	<-sampled
	growth := maxRSS - before
	w.WriteString(table([]string{"read by the client", "vsqld VmRSS before", "peak during the crawl", "growth", "slot free after the disconnect"},
		[][]string{{fmtBytes(float64(read)), fmtBytes(float64(before)), fmtBytes(float64(maxRSS)), fmtBytes(float64(growth)), fmtMs(ms(freed))}}))
	b.goal("slow reader of a 2M-row × 1 KB result: vsqld RSS growth", "≤ 64 MiB", fmtBytes(float64(growth)), growth <= 64<<20)
	b.goal("slow reader disconnects: query stopped and slot free", "≤ 1 s", fmtMs(ms(freed)), freed <= time.Second)
	return w.String(), nil
}
