package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// prof is a summarized CPU profile.
type prof struct {
	md   string             // markdown: the tables, or why there is no profile
	ok   bool               // a profile was taken
	comp map[string]float64 // component → % of own samples
	incl map[string]float64 // function → % of samples inclusive
	flat []perfEntry
	// threads, busiest first: each thread's share and its top functions.
	threads []threadShare
}

type threadShare struct {
	tid string
	pct float64
	top []perfEntry // sym and pct (of all samples)
}

// pollSyms are the functions of a thread that waits for a DuckDB query by
// polling its executor.
var pollSyms = []string{"pthread_mutex", "Executor::ExecuteTask", "CheckExecutableInternal", "ExecuteTaskInternal",
	"DequeueFromProducer", "ConcurrentQueue", "GetScheduler"}

// polling is the largest share of all samples one thread spent in pollSyms.
func (p *prof) polling() float64 {
	var best float64
	for _, t := range p.threads {
		var sum float64
		for _, e := range t.top {
			for _, s := range pollSyms {
				if strings.Contains(e.sym, s) {
					sum += e.pct
					break
				}
			}
		}
		best = max(best, sum)
	}
	return best
}

// threadCell renders thread i: its share and top functions.
func (p *prof) threadCell(i int) string {
	if i >= len(p.threads) {
		return ""
	}
	t := p.threads[i]
	var parts []string
	for _, e := range t.top {
		if len(parts) == 3 {
			break
		}
		name := e.sym
		if k := strings.LastIndex(name, "::"); k >= 0 && !strings.HasSuffix(name, ">") {
			name = name[k+2:]
		}
		name = strings.TrimSuffix(strings.TrimSuffix(name, "@@GLIBC_2.2.5"), "@GLIBC_2.2.5")
		parts = append(parts, fmt.Sprintf("`%s` %.0f%%", shortSym(name), e.pct))
	}
	return fmt.Sprintf("%.0f%%: %s", t.pct, strings.Join(parts, ", "))
}

// own is the share of own samples in functions whose name contains any of
// subs, as "12%".
func (p *prof) own(subs ...string) string { return fmt.Sprintf("%.0f%%", p.ownPct(subs...)) }

// ownPct is own as a number.
func (p *prof) ownPct(subs ...string) float64 {
	var sum float64
	for _, e := range p.flat {
		for _, s := range subs {
			if strings.Contains(e.sym, s) {
				sum += e.pct
				break
			}
		}
	}
	return sum
}

// share is a component's share of own samples, as "12.3%".
func (p *prof) share(c string) string { return fmt.Sprintf("%.0f%%", p.comp[c]) }

// inclusive is a function's inclusive share, as "12.3%".
func (p *prof) inclusive(fn string) string { return fmt.Sprintf("%.0f%%", p.incl[fn]) }

// profile records vsqld's CPU with perf (with frame-pointer call graphs)
// while work runs, and summarizes it: the share of samples by component,
// the top functions by own samples, and vsql's and the drivers' Go
// functions by inclusive samples. Without perf, md explains why; with
// profiles off it is empty.
func (b *bench) profile(ctx context.Context, pid int, name string, work func() error) *prof {
	p := &prof{comp: map[string]float64{}, incl: map[string]float64{}}
	p.md = b.profileInto(ctx, p, pid, name, work)
	return p
}

func (b *bench) profileInto(ctx context.Context, p *prof, pid int, name string, work func() error) string {
	if !b.cfg.profile {
		return ""
	}
	perf, err := exec.LookPath("perf")
	if err != nil {
		return "\nNo CPU profile: `perf` is not installed.\n"
	}
	out := filepath.Join(b.tmp, name+".perf")
	defer os.Remove(out)
	cmd := exec.Command(perf, "record", "-F", "999", "-g", "-p", strconv.Itoa(pid), "-o", out)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Start(); err != nil {
		return fmt.Sprintf("\nNo CPU profile: perf record failed to start: %v\n", err)
	}
	time.Sleep(300 * time.Millisecond) // let perf attach
	werr := work()
	_ = cmd.Process.Signal(syscall.SIGINT)
	_ = cmd.Wait()
	if werr != nil {
		return fmt.Sprintf("\nNo CPU profile: the profiled run failed: %s\n", oneLine(werr.Error()))
	}
	report := func(args ...string) ([]perfEntry, error) {
		args = append([]string{"report", "-i", out, "--stdio", "-q", "-g", "none"}, args...)
		rep, err := exec.CommandContext(ctx, perf, args...).Output()
		if err != nil {
			return nil, err
		}
		return parsePerf(rep), nil
	}
	flat, err := report("--no-children", "--sort", "dso,symbol", "--percent-limit", "0")
	if err != nil || len(flat) == 0 {
		return fmt.Sprintf("\nNo CPU profile: perf report failed or found no samples (%v): %s\n", err, oneLine(stderr.String()))
	}
	incl, _ := report("--children", "--sort", "symbol", "--percent-limit", "1")
	if rep, err := exec.CommandContext(ctx, perf, "report", "-i", out, "--stdio", "-q", "-g", "none", "--no-children", "--sort", "pid").Output(); err == nil {
		for _, line := range strings.Split(string(rep), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 || !strings.HasSuffix(f[0], "%") {
				continue
			}
			v, _ := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
			p.threads = append(p.threads, threadShare{tid: f[1], pct: v})
		}
		sort.Slice(p.threads, func(i, j int) bool { return p.threads[i].pct > p.threads[j].pct })
		if byThread, err := report("--no-children", "--sort", "pid,symbol", "--percent-limit", "0.2"); err == nil {
			for _, e := range byThread {
				for i := range p.threads {
					if p.threads[i].tid == e.dso {
						p.threads[i].top = append(p.threads[i].top, e)
					}
				}
			}
		}
	}

	var w strings.Builder
	w.WriteString("\nCPU profile of vsqld during one extra run: `perf record -F 999 -g -p <vsqld pid>`, then `perf report` " +
		"(`--no-children --sort dso,symbol` for own samples, `--children --sort symbol` for inclusive ones).\n\n")
	p.ok = true
	p.flat = flat
	for _, e := range incl {
		p.incl[e.sym] = max(p.incl[e.sym], e.pct)
	}
	shares := p.comp
	for _, e := range flat {
		shares[component(e)] += e.pct
	}
	var comps []string
	for c := range shares {
		comps = append(comps, c)
	}
	sort.Slice(comps, func(i, j int) bool { return shares[comps[i]] > shares[comps[j]] })
	var rows [][]string
	for _, c := range comps {
		if shares[c] >= 0.5 {
			rows = append(rows, []string{c, fmt.Sprintf("%.1f%%", shares[c])})
		}
	}
	w.WriteString("Own samples by component:\n\n" + table([]string{"component", "samples"}, rows))
	rows = nil
	for _, e := range flat {
		if len(rows) == 12 {
			break
		}
		rows = append(rows, []string{fmt.Sprintf("%.1f%%", e.pct), component(e), "`" + shortSym(e.sym) + "`"})
	}
	w.WriteString("\nTop functions by own samples:\n\n" + table([]string{"samples", "component", "function"}, rows))
	rows = nil
	seen := map[string]bool{}
	for _, e := range incl {
		if len(rows) == 12 {
			break
		}
		if seen[e.sym] || !(strings.Contains(e.sym, "github.com/vsql/vsql/") || strings.Contains(e.sym, "duckdb-go") ||
			strings.HasPrefix(e.sym, "database/sql.") || e.sym == "runtime.gcBgMarkWorker" || e.sym == "runtime.mallocgc" || e.sym == "runtime.cgocall") {
			continue
		}
		seen[e.sym] = true
		pct := fmt.Sprintf("%.1f%%", e.pct)
		// Functions of one call chain share a figure: one row for them.
		if n := len(rows); n > 0 && rows[n-1][0] == pct {
			if strings.Count(rows[n-1][1], "`") < 6 {
				rows[n-1][1] += ", `" + shortSym(e.sym) + "`"
			}
			continue
		}
		rows = append(rows, []string{pct, "`" + shortSym(e.sym) + "`"})
	}
	if len(rows) > 0 {
		w.WriteString("\nGo functions of vsql, duckdb-go and database/sql (and the garbage collector, malloc and cgo calls) " +
			"by inclusive samples (Go's frame pointers make these reliable; samples inside DuckDB's C++ code often " +
			"lose their Go callers, so those are undercounted):\n\n" + table([]string{"inclusive", "function"}, rows))
	}
	return w.String()
}

type perfEntry struct {
	pct      float64
	dso, sym string // dso is the thread ("tid:comm") in a --sort pid,symbol report
	kernel   bool
}

// parsePerf reads perf report --stdio -q lines: "  12.34%  [self%]  [dso]  [.] symbol  -  -".
func parsePerf(rep []byte) []perfEntry {
	var out []perfEntry
	sc := bufio.NewScanner(bytes.NewReader(rep))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) < 3 || !strings.HasSuffix(f[0], "%") {
			continue
		}
		pct, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
		if err != nil {
			continue
		}
		mark := strings.Index(line, "[.] ")
		if mark < 0 {
			mark = strings.Index(line, "[k] ")
		}
		if mark < 0 {
			continue
		}
		head := strings.Fields(line[:mark])
		var dso string
		if len(head) > 1 && !strings.HasSuffix(head[len(head)-1], "%") {
			dso = head[len(head)-1]
		}
		kernel := line[mark+1] == 'k'
		if kernel && dso == "" {
			dso = "[kernel]"
		}
		sym := strings.TrimSpace(line[mark+4:])
		for strings.HasSuffix(sym, " -") {
			sym = strings.TrimSpace(strings.TrimSuffix(sym, " -"))
		}
		out = append(out, perfEntry{pct, dso, sym, kernel})
	}
	return out
}

// allocatorComponent is tcmalloc's share, when vsqld runs on it (its
// --allocator); glibc's malloc counts under libc.
const allocatorComponent = "tcmalloc (C allocator)"

// component classifies a sample by where its function lives.
func component(e perfEntry) string {
	s := e.sym
	switch {
	case e.kernel || strings.Contains(e.dso, "kernel"):
		return "Linux kernel"
	case strings.Contains(e.dso, "libtcmalloc"):
		return allocatorComponent
	case strings.Contains(e.dso, "libc") || strings.Contains(e.dso, "libstdc++") || strings.Contains(e.dso, "libm"):
		return "libc/libstdc++ (malloc, mutexes)"
	case strings.HasPrefix(s, "duckdb") || strings.Contains(s, "duckdb::"):
		return "DuckDB (C++)"
	case strings.HasPrefix(s, "runtime.") || strings.HasPrefix(s, "internal/runtime") || strings.HasPrefix(s, "gcWriteBarrier"):
		return "Go runtime (GC, malloc, scheduler)"
	case strings.HasPrefix(s, "github.com/vsql/vsql/"):
		return "vsql (Go)"
	case strings.HasPrefix(s, "github.com/duckdb/duckdb-go"):
		return "duckdb-go (Go)"
	case strings.HasPrefix(s, "github.com/jackc/"):
		return "pgx/pgproto3 (Go)"
	case strings.Contains(s, "/") || strings.Contains(s, "."):
		if !strings.Contains(s, "::") && !strings.Contains(s, "(") {
			return "other Go (stdlib, libraries)"
		}
	}
	if e.dso == "vsqld" {
		return "other C/C++ in vsqld"
	}
	return "other (" + e.dso + ")"
}

func shortSym(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	if len(s) > 100 {
		s = s[:100] + "…"
	}
	return s
}
