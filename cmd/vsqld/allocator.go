package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// The C allocator vsqld serve runs DuckDB with (--allocator).
//
// DuckDB's C++ code allocates and frees its plans, expressions and
// vectors through malloc: about 15% of vsqld's CPU under 16 clients of
// point queries went to glibc's malloc, free and their arena locks. With
// tcmalloc (Debian's libtcmalloc-minimal4) the same server needed
// 406–416 µs of CPU per query against 462–522 µs, and answered 3–14% more
// queries per second in each of six runs side by side (ARCHITECTURE.md,
// "The C allocator"). DuckDB's table data does not go through malloc: its
// buffers come from the jemalloc it links, under --memory-limit as before.
//
// It is the default where the library is installed (--allocator auto;
// system is glibc's malloc; tcmalloc refuses to start without it). Until
// session 30 it was opt-in: in one of six bench runs on tcmalloc a vsqld
// dropped its 16 clients' connections. That was a crash in
// internal/duckstream's helpers (a task state freed while
// duckdb_finish_execution still read it), which CI also hit once on
// glibc; tcmalloc hits it more often. With the fix, 16-client runs on
// tcmalloc of the kind that crashed the old code within a minute or two
// ran clean.
//
// A Go program cannot swap malloc once it runs, so main calls
// preloadAllocator first: for serve with auto or tcmalloc, unless an
// LD_PRELOAD of the user's own is set under auto, it finds
// libtcmalloc_minimal.so.4 in the usual library directories and executes
// vsqld again, the same process ID and arguments, with the library in
// LD_PRELOAD and TCMALLOC_RELEASE_RATE=0 (unless set). The new image
// takes LD_PRELOAD back out of its environment, so nothing vsqld starts
// inherits it. serve then reads which allocator is mapped
// (activeAllocator), logs it, and refuses to start when --allocator
// tcmalloc was asked for and is not there.
const (
	allocatorAuto     = "auto"
	allocatorTCMalloc = "tcmalloc"
	allocatorSystem   = "system"

	tcmallocLibrary = "libtcmalloc_minimal.so.4"
	// preloadedEnv marks the image executed with the library preloaded;
	// its value is LD_PRELOAD as it was before ("" when unset).
	preloadedEnv = "VSQL_ALLOCATOR_PRELOADED"
	// releaseRateEnv is how fast tcmalloc returns freed memory to the
	// system; vsqld sets 0 (keep it for reuse) unless it is set already.
	// With tcmalloc's default (1.0) a merge faulted in 1,300–3,200 pages
	// again per call and its comparison varied 46–65 ms over 7 runs; with
	// 0, 41–49 ms and peak RSS no higher (ARCHITECTURE.md).
	releaseRateEnv = "TCMALLOC_RELEASE_RATE"
)

// libraryDirs are where a distribution's package puts the library.
var libraryDirs = []string{
	"/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib",
	"/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
}

// findTCMalloc returns the path of the tcmalloc library, or "".
func findTCMalloc() string {
	for _, d := range libraryDirs {
		p := filepath.Join(d, tcmallocLibrary)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// allocatorMode is the --allocator value in args (a serve command line,
// program name first) or else in VSQL_ALLOCATOR, or "auto". An invalid
// value is returned as is: serve's flag parsing reports it.
func allocatorMode(args []string, getenv func(string) string) string {
	mode := getenv("VSQL_ALLOCATOR")
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "allocator" {
			continue
		}
		if !hasValue && i+1 < len(args) {
			value = args[i+1]
		}
		mode = value
	}
	if mode == "" {
		return allocatorAuto
	}
	return mode
}

// isServe reports whether args (program name first) run vsqld serve.
func isServe(args []string) bool {
	return len(args) < 2 || strings.HasPrefix(args[1], "-") || args[1] == "serve"
}

// preloadAllocator executes vsqld again with tcmalloc preloaded when serve
// should run with it (see above); it returns when it does not, or when the
// execution failed (serve then runs on the system allocator and says so).
// In the image it executed, it restores LD_PRELOAD.
func preloadAllocator(args []string) {
	if before, ok := os.LookupEnv(preloadedEnv); ok {
		os.Unsetenv(preloadedEnv)
		if before == "" {
			os.Unsetenv("LD_PRELOAD")
		} else {
			os.Setenv("LD_PRELOAD", before)
		}
		return
	}
	if !isServe(args) {
		return
	}
	mode := allocatorMode(args, os.Getenv)
	if mode != allocatorAuto && mode != allocatorTCMalloc {
		return
	}
	before := os.Getenv("LD_PRELOAD")
	if before != "" && mode == allocatorAuto {
		return // the user's own preload stays as it is
	}
	lib := findTCMalloc()
	if lib == "" {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	preload := lib
	if before != "" {
		preload += ":" + before
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "LD_PRELOAD=") { // replaced below: the first of two would win
			env = append(env, kv)
		}
	}
	env = append(env, "LD_PRELOAD="+preload, preloadedEnv+"="+before)
	if _, set := os.LookupEnv(releaseRateEnv); !set {
		env = append(env, releaseRateEnv+"=0")
	}
	_ = syscall.Exec(exe, args, env) // returns only on failure
}

// activeAllocator names the C allocator this process runs with, from the
// libraries mapped into it: "tcmalloc" and its path, or "system".
func activeAllocator() (name, path string) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return allocatorSystem, ""
	}
	for _, line := range strings.Split(string(maps), "\n") {
		if i := strings.Index(line, "/"); i >= 0 && strings.Contains(filepath.Base(line[i:]), "libtcmalloc") {
			return allocatorTCMalloc, line[i:]
		}
	}
	return allocatorSystem, ""
}

// checkAllocator validates --allocator against the allocator in use.
func checkAllocator(mode string) error {
	switch mode {
	case allocatorAuto, allocatorSystem:
		return nil
	case allocatorTCMalloc:
		if name, _ := activeAllocator(); name != allocatorTCMalloc {
			return fmt.Errorf("--allocator tcmalloc: %s is not loaded (not found in %s; on Debian or Ubuntu: apt-get install libtcmalloc-minimal4)",
				tcmallocLibrary, strings.Join(libraryDirs, ", "))
		}
		return nil
	default:
		return fmt.Errorf("invalid --allocator %q: use auto, tcmalloc or system", mode)
	}
}
