package main

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	_ "github.com/duckdb/duckdb-go/v2" // the in-process DuckDB of the side-by-side figures
)

type machine struct {
	cpu, mem, kernel                      string
	cpus                                  int
	goVersion, duckdb, duckdbGo, postgres string
	pgx                                   string
}

func describeMachine(ctx context.Context, cfg *config) machine {
	m := machine{cpu: "unknown", mem: "unknown", kernel: "unknown", cpus: runtime.NumCPU()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		n := 0
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			switch strings.TrimSpace(k) {
			case "model name":
				m.cpu = strings.TrimSpace(v)
			case "processor":
				n++
			}
		}
		if n > 0 {
			m.cpus = n
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "MemTotal:") {
				f := strings.Fields(line)
				if kb, err := strconv.ParseFloat(f[1], 64); err == nil {
					m.mem = fmt.Sprintf("%.1f GiB (MemTotal)", kb/1024/1024)
				}
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.kernel = "Linux " + strings.TrimSpace(string(b)) + " " + runtime.GOARCH
	}
	m.goVersion = runtime.Version()
	if out, err := exec.CommandContext(ctx, goTool(), "version").Output(); err == nil {
		m.goVersion = strings.TrimSpace(string(out))
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			switch d.Path {
			case "github.com/duckdb/duckdb-go/v2":
				m.duckdbGo = d.Version
			case "github.com/jackc/pgx/v5":
				m.pgx = d.Version
			}
		}
	}
	m.duckdb = "unknown"
	if db, err := sql.Open("duckdb", ""); err == nil {
		_ = db.QueryRowContext(ctx, "SELECT library_version FROM pragma_version()").Scan(&m.duckdb)
		db.Close()
	}
	m.postgres = "not found in " + cfg.pgBin
	if out, err := exec.CommandContext(ctx, filepath.Join(cfg.pgBin, "postgres"), "--version").Output(); err == nil {
		m.postgres = strings.TrimSpace(string(out))
	}
	return m
}

// goTool is the go command that runs this program, else the one on PATH.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); runtime.GOROOT() != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "go"
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func firstField(s string) string { return strings.Fields(s + " ?")[0] }

// shared reports a 1-minute load average that shows other work: the
// benchmark alone keeps it near 1.
func shared(load string) bool {
	v, err := strconv.ParseFloat(firstField(load), 64)
	return err == nil && v >= 1.5
}

// median of xs (NaN-free); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// spread renders the smallest and largest of xs, e.g. "142–349 ms".
func spread(xs []float64, format string) string {
	if len(xs) == 0 {
		return ""
	}
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	one := fmt.Sprintf(format, lo)
	two := fmt.Sprintf(format, hi)
	if sp := strings.LastIndexByte(one, ' '); sp > 0 && strings.HasSuffix(two, one[sp:]) {
		one = one[:sp] // the unit once: "142–349 ms"
	}
	return one + "–" + two
}

// ratios returns a[i]/b[i].
func ratios(a, b []float64) []float64 {
	out := make([]float64, 0, len(a))
	for i := range a {
		if i < len(b) && b[i] != 0 {
			out = append(out, a[i]/b[i])
		}
	}
	return out
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func fmtMs(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	default:
		return fmt.Sprintf("%.2f ms", v)
	}
}

func fmtBytes(v float64) string {
	switch {
	case v >= 1<<30:
		return fmt.Sprintf("%.2f GiB", v/(1<<30))
	case v >= 1<<20:
		return fmt.Sprintf("%.1f MiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.0f KiB", v/(1<<10))
	default:
		return fmt.Sprintf("%.0f B", v)
	}
}

func fmtRate(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.2f M rows/s", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.0f k rows/s", v/1e3)
	default:
		return fmt.Sprintf("%.0f rows/s", v)
	}
}

func fmtCount(n int) string {
	s := strconv.Itoa(n)
	var out []byte
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// table renders a markdown table.
func table(header []string, rows [][]string) string {
	var w strings.Builder
	w.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		w.WriteString("---|")
	}
	w.WriteString("\n")
	for _, r := range rows {
		w.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return w.String()
}

func codeBlock(lang, s string) string { return "```" + lang + "\n" + strings.TrimSpace(s) + "\n```\n" }

// cpuTimes are the machine's busy CPU time and this process's own
// (with its waited-for children: vsqld, PostgreSQL, perf, go build), in
// clock ticks.
type cpuTimes struct{ busy, own float64 }

func readCPU() (cpuTimes, bool) {
	var t cpuTimes
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return t, false
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return t, false
	}
	// user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
	for i, v := range f[1:9] {
		if i == 3 || i == 4 {
			continue
		}
		x, _ := strconv.ParseFloat(v, 64)
		t.busy += x
	}
	b, err = os.ReadFile("/proc/self/stat")
	if err != nil {
		return t, false
	}
	s := string(b)
	rest := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	// Fields after the command: state is rest[0]; utime, stime, cutime, cstime are fields 14-17 of stat.
	if len(rest) < 15 {
		return t, false
	}
	for _, v := range rest[11:15] {
		x, _ := strconv.ParseFloat(v, 64)
		t.own += x
	}
	return t, true
}

// othersCPU is the average number of CPUs that other processes kept busy
// between a and b, over d (clock ticks are 1/100 s on Linux).
func othersCPU(a, b cpuTimes, d time.Duration) float64 {
	others := (b.busy - a.busy) - (b.own - a.own)
	if d <= 0 || others < 0 {
		return 0
	}
	return others / 100 / d.Seconds()
}
