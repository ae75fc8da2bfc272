package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/difftest"
	"github.com/vsql/vsql/internal/pgtest"
)

func main() {
	difftest.ChildMain() // a vsqld when started as one by the runner
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "vsql-compat:", err)
		os.Exit(1)
	}
}

func run() error {
	def := os.Getenv("VSQL_CORPUS")
	if def == "" {
		def = "../shared/corpus"
	}
	out := flag.String("out", "", "write the report (Markdown) to this file; default standard output")
	corpus := flag.String("corpus", def, "corpus directory (holds pgregress/ and sqllogictest/); env VSQL_CORPUS")
	timeout := flag.Duration("timeout", 5*time.Second, "timeout of each statement")
	index := flag.Bool("index", true, "include sqllogictest's index/ files")
	evidence := flag.Bool("evidence", true, "include sqllogictest's evidence/ files")
	only := flag.String("only", "", "comma-separated substrings: run only files whose name contains one")
	limit := flag.Int("limit", 0, "run at most this many statements per file (0 = all)")
	divergences := flag.String("divergences", "", "also write every divergence to this file, one JSON object per line")
	flag.Parse()
	abs, err := filepath.Abs(*corpus)
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(abs, "pgregress", "sql", "test_setup.sql")); err != nil {
		return fmt.Errorf("corpus not found: %v (set -corpus or VSQL_CORPUS)", err)
	}
	files := difftest.DefaultFiles(abs, *index, *evidence)
	if *only != "" {
		var sel []difftest.File
		for _, f := range files {
			for _, s := range strings.Split(*only, ",") {
				if s != "" && strings.Contains(f.Name, s) {
					sel = append(sel, f)
					break
				}
			}
		}
		files = sel
	}
	for i := range files {
		files[i].Limit = *limit
	}
	start := time.Now()
	ctx := context.Background()
	pg, err := pgtest.Start(ctx, pgtest.Options{Settings: []string{"fsync=off", "TimeZone=UTC", "max_connections=50"}})
	if err != nil {
		return fmt.Errorf("PostgreSQL 15: %w", err)
	}
	defer pg.Stop()
	version := "15"
	if c, err := pgconn.Connect(ctx, pg.DSN()); err == nil {
		if r, err := c.Exec(ctx, "SELECT version()").ReadAll(); err == nil && len(r) > 0 && len(r[0].Rows) > 0 {
			version = string(r[0].Rows[0][0])
		}
		c.Close(ctx)
	}
	work, err := os.MkdirTemp("", "vsql-compat-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	v, err := difftest.StartVsqld(filepath.Join(work, "data"))
	if err != nil {
		return err
	}
	defer func() { v.Stop() }()
	results := difftest.Run(difftest.Config{Corpus: abs, PG: pg.DSN(), Vsqld: v, Files: files, Timeout: *timeout, Progress: os.Stderr})
	cmdline := "go run ./cmd/vsql-compat"
	if len(os.Args) > 1 {
		cmdline += " " + strings.Join(os.Args[1:], " ")
	}
	meta := difftest.Meta{Date: time.Now(), PGVersion: version, Commit: commit(), Command: cmdline, Timeout: *timeout, Elapsed: time.Since(start)}
	w := os.Stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	difftest.WriteReport(w, meta, results)
	if *divergences != "" {
		if err := writeDivergences(*divergences, results); err != nil {
			return err
		}
	}
	for _, c := range []string{difftest.CorpusPG, difftest.CorpusSLT, ""} {
		t := difftest.Sum(results, c)
		name := c
		if name == "" {
			name = "all"
		}
		fmt.Fprintf(os.Stderr, "%-12s files %3d compared %6d agree %6d (%.2f%%) skipped %d hung %d crashed %d\n", name, t.Files, t.Run, t.Agree, t.Pct(), t.Skipped, t.Hung, t.Crashed)
	}
	return nil
}

// writeDivergences writes every divergence of results to path as JSON lines,
// for working through a group statement by statement.
func writeDivergences(path string, results []difftest.FileResult) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range results {
		for _, d := range r.Divergences {
			if err := enc.Encode(d); err != nil {
				f.Close()
				return err
			}
		}
	}
	return f.Close()
}

// commit is the checkout's commit, with "+changes" when the tree differs.
func commit() string {
	b, err := exec.Command("git", "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	c := strings.TrimSpace(string(b))
	if s, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(s))) > 0 {
		c += " (with uncommitted changes)"
	}
	return c
}
