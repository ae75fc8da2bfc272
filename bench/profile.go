package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// profile records vsqld's CPU with perf while work runs and returns a
// markdown summary of the top entries (flat: the functions the samples
// landed in). It returns an explanation instead when perf cannot run.
func (b *bench) profile(ctx context.Context, pid int, name string, work func() error) string {
	if !b.cfg.profile {
		return ""
	}
	perf, err := exec.LookPath("perf")
	if err != nil {
		return "\nNo CPU profile: `perf` is not installed.\n"
	}
	out := filepath.Join(b.tmp, name+".perf")
	cmd := exec.Command(perf, "record", "-F", "999", "-p", fmt.Sprint(pid), "-o", out)
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
	rep, err := exec.CommandContext(ctx, perf, "report", "-i", out, "--stdio", "--no-children", "-q",
		"--sort", "dso,symbol", "--percent-limit", "1").Output()
	if err != nil {
		return fmt.Sprintf("\nNo CPU profile: perf failed (%v): %s\n", err, oneLine(stderr.String()))
	}
	var rows [][]string
	sc := bufio.NewScanner(bytes.NewReader(rep))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() && len(rows) < 15 {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasSuffix(f[0], "%") {
			continue
		}
		sym := strings.Join(f[3:], " ")
		if len(sym) > 110 {
			sym = sym[:110] + "…"
		}
		rows = append(rows, []string{f[0], "`" + f[1] + "`", "`" + strings.ReplaceAll(sym, "|", "\\|") + "`"})
	}
	os.Remove(out)
	if len(rows) == 0 {
		return "\nNo CPU profile: perf recorded no samples of vsqld (" + oneLine(stderr.String()) + ").\n"
	}
	return "\nCPU profile of vsqld during one extra run (`perf record -F 999 -p <vsqld pid>`, then `perf report " +
		"--no-children --sort dso,symbol`; entries of 1% or more of the samples, flat, by the function the sample landed in):\n\n" +
		table([]string{"samples", "object", "function"}, rows)
}
