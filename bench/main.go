package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// config is what one run of the command measures and where it writes.
type config struct {
	out      string
	quick    bool
	runs     int
	only     map[string]bool
	profile  bool
	vsqld    string // prebuilt binary; empty = go build
	pgBin    string
	command  string // the command line, as recorded in the file
	log      io.Writer
	workDir  string // temporary files; empty = os.TempDir
	deadline time.Duration

	mergeSizes    []mergeSize
	tableRows     int // rows of each table of the 10-table merge
	snapRows      int
	wireRows      int
	pointDuration time.Duration
}

type mergeSize struct{ rows, changed int }

var sections = []string{"merge", "snapshot", "branch", "wire", "ops", "lakehouse"}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		os.Exit(2)
	}
	cfg.command = "go run ./bench"
	if len(os.Args) > 1 {
		cfg.command += " " + strings.Join(os.Args[1:], " ")
	}
	if err := run(ctx, cfg); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := &config{log: stderr}
	fs.StringVar(&cfg.out, "out", "docs/BENCHMARKS.md", "markdown `file` to write")
	fs.BoolVar(&cfg.quick, "quick", false, "small sizes and one run: a smoke test of the command, not a measurement")
	fs.IntVar(&cfg.runs, "runs", 0, "measured runs per figure (default 7, 1 with -quick)")
	only := fs.String("only", "", "comma-separated `sections` to run: "+strings.Join(sections, ", ")+" (default all)")
	prof := fs.String("profile", "auto", "CPU profiles of vsqld with perf where a goal is missed: auto (not with -quick), on, off")
	fs.StringVar(&cfg.vsqld, "vsqld", "", "use this vsqld `binary` instead of building one from the checkout")
	fs.StringVar(&cfg.pgBin, "pg-bin", "/usr/lib/postgresql/15/bin", "`directory` of PostgreSQL's initdb and postgres")
	fs.StringVar(&cfg.workDir, "tmp", "", "`directory` for temporary files (default the system's)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected argument %q\n", fs.Arg(0))
		return nil, fmt.Errorf("usage")
	}
	cfg.only = map[string]bool{}
	if *only != "" {
		for _, s := range strings.Split(*only, ",") {
			s = strings.TrimSpace(s)
			known := false
			for _, k := range sections {
				known = known || k == s
			}
			if !known {
				fmt.Fprintf(stderr, "bench: unknown section %q (sections: %s)\n", s, strings.Join(sections, ", "))
				return nil, fmt.Errorf("usage")
			}
			cfg.only[s] = true
		}
	}
	switch *prof {
	case "auto":
		cfg.profile = !cfg.quick
	case "on":
		cfg.profile = true
	case "off":
		cfg.profile = false
	default:
		fmt.Fprintf(stderr, "bench: -profile must be auto, on or off\n")
		return nil, fmt.Errorf("usage")
	}
	if cfg.quick {
		if cfg.runs == 0 {
			cfg.runs = 1
		}
		cfg.mergeSizes = []mergeSize{{20_000, 20}}
		cfg.tableRows = 5_000
		cfg.snapRows = 20_000
		cfg.wireRows = 20_000
		cfg.pointDuration = 300 * time.Millisecond
	} else {
		if cfg.runs == 0 {
			cfg.runs = 7
		}
		cfg.mergeSizes = []mergeSize{{1_000_000, 100}, {3_000_000, 300}}
		cfg.tableRows = 1_000_000
		cfg.snapRows = 1_000_000
		cfg.wireRows = 1_000_000
		cfg.pointDuration = 3 * time.Second
	}
	return cfg, nil
}

func (c *config) wants(section string) bool { return len(c.only) == 0 || c.only[section] }

func (c *config) logf(format string, args ...any) {
	fmt.Fprintf(c.log, "%s "+format+"\n", append([]any{time.Now().UTC().Format("15:04:05")}, args...)...)
}
