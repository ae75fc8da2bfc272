package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestQuick runs the command with -quick into a temporary file and checks
// that every section ran and the file is well formed. It builds vsqld and,
// where PostgreSQL 15 is installed, starts one.
func TestQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts vsqld")
	}
	out := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	var log bytes.Buffer
	cfg, err := parseFlags([]string{"-quick", "-out", out, "-tmp", t.TempDir()}, &log)
	if err != nil {
		t.Fatal(err)
	}
	cfg.command = "go run ./bench -quick"
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := run(ctx, cfg); err != nil {
		t.Fatalf("run: %v\nlog:\n%s", err, log.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, want := range []string{
		"# Benchmarks", "Quick run", "## Machine", "## Goals", "## Merges", "### 10 tables", "## Snapshots",
		"## Branches and time travel", "## The wire", "### COPY FROM STDIN", "### SELECT of all rows", "### Point queries", "### Connection and first query", "### A slow reader",
		"## Lakehouse: Iceberg export",
		"Peak memory of vsqld", "load average before",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the file lacks %q", want)
		}
	}
	if strings.Contains(doc, "PostgreSQL could not be started") {
		if os.Getenv("VSQL_REQUIRE_PG") != "" {
			t.Errorf("PostgreSQL did not start (VSQL_REQUIRE_PG is set: CI installs it)")
		}
		t.Log("PostgreSQL did not start; the file says why")
	}
	if strings.Contains(doc, "section failed") {
		t.Errorf("a section failed:\n%s", doc)
	}
	// Every table row has as many cells as its header.
	lines := strings.Split(doc, "\n")
	cells := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "|") {
			cells = 0
			continue
		}
		n := strings.Count(strings.ReplaceAll(l, `\|`, ""), "|")
		if cells == 0 {
			cells = n
		} else if n != cells {
			t.Errorf("line %d has %d cells, its table %d: %s", i+1, n-1, cells-1, l)
		}
	}
	if t.Failed() {
		t.Logf("file:\n%s\nlog:\n%s", doc, log.String())
	}
}

func TestFlags(t *testing.T) {
	var stderr bytes.Buffer
	if _, err := parseFlags([]string{"-only", "nope"}, &stderr); err == nil {
		t.Error("an unknown section was accepted")
	}
	cfg, err := parseFlags([]string{"-only", "merge,wire"}, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.wants("merge") || cfg.wants("snapshot") || cfg.runs != 7 || !cfg.profile {
		t.Errorf("unexpected config %+v", cfg)
	}
}

// TestTailKeepsCrashStart: the excerpt of a crashed vsqld's log shows the
// start of the crash report (the signal and the frame that crashed), not
// only its end, and a short log whole.
func TestTailKeepsCrashStart(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) string {
		p := filepath.Join(dir, "log")
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	short := "line one\nline two\n"
	if got := tail(write(short)); got != short {
		t.Fatalf("a short log: %q", got)
	}
	long := strings.Repeat("served a query\n", 500) +
		"SIGSEGV: segmentation violation\nPC=0x32c4b90 m=7 sigcode=1 addr=0x7f0b900345dc\nsignal arrived during cgo execution\n" +
		strings.Repeat("goroutine 9 [running]:\n\tsome/frame.go:1\n", 2000) + "rip    0x32c4b90\n"
	got := tail(write(long))
	for _, want := range []string{"served a query\nSIGSEGV: segmentation violation", "signal arrived during cgo execution", "…", "rip    0x32c4b90\n"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the excerpt lacks %q:\n%s", want, got)
		}
	}
	if len(got) > 8000 {
		t.Fatalf("the excerpt is %d bytes", len(got))
	}
}
