package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// bench is the state shared by the sections of one run.
type bench struct {
	cfg   *config
	bin   string // the vsqld binary
	tmp   string
	goals []goal
	pg    *postgres // started by the wire section
	// servers are the vsqlds started since the last section ended.
	servers []*server
	// allocator is the C allocator the first vsqld with default flags
	// ran with, from its /proc/<pid>/maps (cmd/vsqld's --allocator).
	allocator string
}

// goal is one stated target and whether this run met it.
type goal struct {
	what, target, measured string
	met                    bool
}

func (b *bench) goal(what, target, measured string, met bool) {
	b.goals = append(b.goals, goal{what, target, measured, met})
}

func run(ctx context.Context, cfg *config) error {
	start := time.Now()
	load0 := loadavg()
	cpu0, cpuOK := readCPU()
	tmp, err := os.MkdirTemp(cfg.workDir, "vsql-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	b := &bench{cfg: cfg, tmp: tmp}
	if cfg.vsqld != "" {
		b.bin = cfg.vsqld
	} else {
		cfg.logf("building vsqld")
		if b.bin, err = buildVsqld(ctx, tmp); err != nil {
			return err
		}
	}
	env := describeMachine(ctx, cfg)

	type section struct {
		name string
		fn   func(context.Context) (string, error)
	}
	all := []section{
		{"merge", b.mergeSection},
		{"snapshot", b.snapshotSection},
		{"branch", b.branchSection},
		{"wire", b.wireSection},
		{"ops", b.opsSection},
		{"lakehouse", b.lakehouseSection},
	}
	var bodies []string
	var errs []error
	for _, s := range all {
		if !cfg.wants(s.name) {
			continue
		}
		cfg.logf("section %s", s.name)
		t0 := time.Now()
		body, err := s.fn(ctx)
		if exited := b.exitedServers(); exited != "" {
			cfg.logf("section %s: %s", s.name, exited)
			if err == nil {
				err = fmt.Errorf("a vsqld ended on its own (see the log)")
			}
		}
		if err != nil {
			cfg.logf("section %s failed: %v", s.name, err)
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
			body += fmt.Sprintf("\n**This section failed:** `%s`\n", oneLine(err.Error()))
		}
		body += fmt.Sprintf("\n(Section run time: %s.)\n", time.Since(t0).Round(time.Second))
		bodies = append(bodies, body)
		if ctx.Err() != nil {
			break
		}
	}
	if b.pg != nil {
		b.pg.stop()
	}
	load1 := loadavg()
	others := -1.0
	if cpu1, ok := readCPU(); ok && cpuOK {
		others = othersCPU(cpu0, cpu1, time.Since(start))
	}
	doc := b.render(env, load0, load1, others, start, time.Since(start), bodies)
	if dir := filepath.Dir(cfg.out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(cfg.out, []byte(doc), 0o644); err != nil {
		return err
	}
	cfg.logf("wrote %s in %s", cfg.out, time.Since(start).Round(time.Second))
	return errors.Join(errs...)
}

func (b *bench) render(env machine, load0, load1 string, others float64, start time.Time, took time.Duration, bodies []string) string {
	cfg := b.cfg
	var w strings.Builder
	w.WriteString("# Benchmarks\n\n")
	if cfg.quick {
		w.WriteString("> **Quick run (`-quick`): small sizes and " + plural(cfg.runs, "run") + " per figure. This checks that the\n" +
			"> benchmark command works; its figures are not measurements of vsql.**\n\n")
	}
	fmt.Fprintf(&w, "Written by `%s` (the `bench/` command, see `bench/doc.go`; `make bench` runs the full\n", cfg.command)
	fmt.Fprintf(&w, "set) on %s UTC; the run took %s. Do not edit by hand: rerun the command.\n\n",
		start.UTC().Format("2006-01-02 15:04"), took.Round(time.Second))
	w.WriteString("Every figure is the median of " + plural(cfg.runs, "measured run") + " after one warm-up run; " +
		"figures compared with each other were measured side by side, their runs alternating in the same process, " +
		"and each ratio is the median of the per-run ratios. Each section starts its own vsqld, built from this " +
		"checkout with `go build` into a temporary directory, with a fresh repository (`--data`) and default flags, " +
		"on a free loopback port; clients are pgx v5 in the benchmark process, on the same machine. A section's " +
		"own command reruns just that section: `go run ./bench -only <section> -out /tmp/b.md`.\n\n")

	w.WriteString("## Machine\n\n")
	fmt.Fprintf(&w, "| | |\n|---|---|\n| CPU | %s, %d logical CPUs |\n| memory | %s |\n| kernel | %s |\n", env.cpu, env.cpus, env.mem, env.kernel)
	fmt.Fprintf(&w, "| Go | %s |\n| DuckDB | %s (duckdb-go %s) |\n| PostgreSQL | %s |\n| pgx | %s |\n", env.goVersion, env.duckdb, env.duckdbGo, env.postgres, env.pgx)
	if b.allocator != "" {
		fmt.Fprintf(&w, "| vsqld's C allocator | %s (the default `--allocator auto`: tcmalloc where installed; cmd/vsqld/allocator.go) |\n", b.allocator)
	}
	fmt.Fprintf(&w, "| load average before | %s |\n| load average after | %s |\n", load0, load1)
	if others >= 0 {
		fmt.Fprintf(&w, "| CPU used by other processes during the run | %.2f of %d CPUs on average (busy time in /proc/stat less the benchmark's own processes) |\n", others, env.cpus)
	}
	w.WriteString("\n")
	if shared(load0) || others >= 0.25 {
		fmt.Fprintf(&w, "**The machine was shared during this run**: other processes kept %.2f of its %d CPUs busy on "+
			"average while it ran, and the 1-minute load average was %s before it started. Absolute figures are noisy; "+
			"the side-by-side ratios are the figures to trust.\n\n", max(others, 0), env.cpus, firstField(load0))
	}

	w.WriteString("## Goals\n\n| goal | target | measured | |\n|---|---|---|---|\n")
	for _, g := range b.goals {
		verdict := "**missed**"
		if g.met {
			verdict = "met"
		}
		fmt.Fprintf(&w, "| %s | %s | %s | %s |\n", g.what, g.target, g.measured, verdict)
	}
	if len(b.goals) == 0 {
		w.WriteString("| (no section with a goal ran) | | | |\n")
	}
	w.WriteString("\n")
	for _, body := range bodies {
		w.WriteString(body)
		w.WriteString("\n")
	}
	return w.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = strings.ReplaceAll(s, "`", "'")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}

// commandLine says which command produced a section's figures.
func (b *bench) commandLine(section string) string {
	return fmt.Sprintf("Figures produced by `%s`; this section alone: `go run ./bench -only %s -out /tmp/b.md`.\n\n", b.cfg.command, section)
}
