package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestAllocator starts the vsqld binary with each --allocator and reads
// which C allocator its process has mapped: tcmalloc by default and with
// --allocator auto where the library is installed (.ci/run installs it)
// and with --allocator tcmalloc, glibc's malloc with --allocator system.
// The process keeps its ID through the re-execution. Without the library,
// the default and auto run on the system's and --allocator tcmalloc fails
// to start; VSQL_REQUIRE_TCMALLOC (set by .ci/run) makes a missing library
// a failure instead.
func TestAllocator(t *testing.T) {
	bin := vsqldBinary(t)
	lib := findTCMalloc()
	if lib == "" && os.Getenv("VSQL_REQUIRE_TCMALLOC") != "" {
		t.Fatalf("VSQL_REQUIRE_TCMALLOC is set and %s is not in %v (scripts/test-deps.sh installs libtcmalloc-minimal4)", tcmallocLibrary, libraryDirs)
	}
	// A library of the user's own in LD_PRELOAD (zlib: vsqld does not
	// link it): auto leaves it alone, tcmalloc preloads itself beside it.
	userLib := "/usr/lib/x86_64-linux-gnu/libz.so.1"
	if _, err := os.Stat(userLib); err != nil {
		userLib = ""
	}
	for _, tc := range []struct {
		name    string
		flags   []string
		want    string
		preload string
	}{
		{"default", nil, map[bool]string{true: allocatorTCMalloc, false: allocatorSystem}[lib != ""], ""},
		{"auto", []string{"--allocator", "auto"}, map[bool]string{true: allocatorTCMalloc, false: allocatorSystem}[lib != ""], ""},
		{"system", []string{"--allocator", "system"}, allocatorSystem, ""},
		{"tcmalloc", []string{"--allocator=tcmalloc"}, allocatorTCMalloc, ""},
		{"auto beside a user's preload", []string{"--allocator", "auto"}, allocatorSystem, userLib},
		{"tcmalloc beside a user's preload", []string{"--allocator", "tcmalloc"}, allocatorTCMalloc, userLib},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.Contains(tc.name, "preload") {
				if tc.preload == "" {
					t.Skip("no library to preload as the user's own")
				}
				t.Setenv("LD_PRELOAD", tc.preload)
			}
			if tc.want == allocatorTCMalloc && lib == "" {
				// Without the library, asking for it must fail at start.
				out, err := runBinary(bin, append([]string{"serve", "--data", t.TempDir()}, tc.flags...)...)
				if err == nil || !strings.Contains(out, "--allocator tcmalloc: "+tcmallocLibrary+" is not loaded") {
					t.Fatalf("--allocator tcmalloc without the library: err %v, output:\n%s", err, out)
				}
				return
			}
			c := startChild(t, bin, t.TempDir(), "", tc.flags...)
			defer c.stop(t)
			conn := c.connect(t, "postgres")
			defer conn.Close(context.Background())
			if n := scalar[int64](t, conn, "SELECT count(*) FROM range(100000) r(i) WHERE i % 7 = 0"); n != 14286 {
				t.Fatalf("count = %d", n)
			}
			maps, err := os.ReadFile("/proc/" + strconv.Itoa(c.cmd.Process.Pid) + "/maps")
			if err != nil {
				t.Fatal(err)
			}
			if mapped := bytes.Contains(maps, []byte("libtcmalloc")); mapped != (tc.want == allocatorTCMalloc) {
				t.Fatalf("libtcmalloc mapped = %v, want allocator %s", mapped, tc.want)
			}
			if tc.preload != "" && !bytes.Contains(maps, []byte("/libz.so")) {
				t.Fatalf("the user's preload %s is not mapped", tc.preload)
			}
			if !strings.Contains(c.logs.String(), "allocator="+tc.want) {
				t.Fatalf("log does not name allocator %s:\n%s", tc.want, c.logs)
			}
			// tcmalloc keeps the memory it frees (the environment the
			// process was executed with).
			environ, err := os.ReadFile("/proc/" + strconv.Itoa(c.cmd.Process.Pid) + "/environ")
			if err != nil {
				t.Fatal(err)
			}
			if kept := bytes.Contains(environ, []byte("\x00"+releaseRateEnv+"=0\x00")); kept != (tc.want == allocatorTCMalloc) {
				t.Fatalf("%s=0 in the environment = %v, want allocator %s", releaseRateEnv, kept, tc.want)
			}
		})
	}
}

// runBinary runs bin to its end, for a start that must fail: one that
// serves instead is killed after a minute.
func runBinary(bin string, args ...string) (string, error) {
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

func TestAllocatorFlag(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	none := env(nil)
	for _, tc := range []struct {
		args   []string
		getenv func(string) string
		want   string
	}{
		{[]string{"vsqld"}, none, allocatorAuto},
		{[]string{"vsqld", "serve", "--allocator", "auto"}, none, allocatorAuto},
		{[]string{"vsqld", "serve", "--allocator", "system"}, none, allocatorSystem},
		{[]string{"vsqld", "serve", "-allocator=tcmalloc"}, none, allocatorTCMalloc},
		{[]string{"vsqld", "serve"}, env(map[string]string{"VSQL_ALLOCATOR": "system"}), allocatorSystem},
		{[]string{"vsqld", "serve", "--allocator", "tcmalloc"}, env(map[string]string{"VSQL_ALLOCATOR": "system"}), allocatorTCMalloc},
		{[]string{"vsqld", "serve", "--", "--allocator", "tcmalloc"}, none, allocatorAuto},
	} {
		if got := allocatorMode(tc.args, tc.getenv); got != tc.want {
			t.Errorf("allocatorMode(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
	for args, want := range map[string]bool{"vsqld": true, "vsqld serve": true, "vsqld --listen x": true, "vsqld gc": false, "vsqld user add": false} {
		if got := isServe(strings.Fields(args)); got != want {
			t.Errorf("isServe(%q) = %v", args, got)
		}
	}

	// Bad values are refused before anything starts.
	var stderr bytes.Buffer
	m := &Main{Stdout: &stderr, Stderr: &stderr, Getenv: none}
	if err := m.Run(context.Background(), []string{"serve", "--allocator", "bogus", "--data", t.TempDir()}); err != errUsage ||
		!strings.Contains(stderr.String(), `invalid --allocator "bogus": use auto, tcmalloc or system`) {
		t.Fatalf("--allocator bogus: %v, %s", err, stderr.String())
	}
	// A process without the library refuses --allocator tcmalloc. (One
	// run with it preloaded, as LD_PRELOAD=… go test does, would serve.)
	if name, _ := activeAllocator(); name == allocatorTCMalloc {
		return
	}
	stderr.Reset()
	if err := m.Run(context.Background(), []string{"serve", "--allocator", "tcmalloc", "--data", t.TempDir()}); err != errUsage ||
		!strings.Contains(stderr.String(), "is not loaded") {
		t.Fatalf("--allocator tcmalloc in a process without it: %v, %s", err, stderr.String())
	}
}

// TestAllocatorRestoresPreload: the image executed with the library
// preloaded takes LD_PRELOAD back to what it was, so nothing vsqld starts
// inherits it.
func TestAllocatorRestoresPreload(t *testing.T) {
	t.Setenv("LD_PRELOAD", "/x/libtcmalloc_minimal.so.4")
	t.Setenv(preloadedEnv, "")
	preloadAllocator([]string{"vsqld", "serve"})
	if v, ok := os.LookupEnv("LD_PRELOAD"); ok {
		t.Fatalf("LD_PRELOAD = %q, want unset", v)
	}
	if _, ok := os.LookupEnv(preloadedEnv); ok {
		t.Fatalf("%s still set", preloadedEnv)
	}
	t.Setenv("LD_PRELOAD", "/x/libtcmalloc_minimal.so.4:/y/libmine.so")
	t.Setenv(preloadedEnv, "/y/libmine.so")
	preloadAllocator([]string{"vsqld", "serve"})
	if v := os.Getenv("LD_PRELOAD"); v != "/y/libmine.so" {
		t.Fatalf("LD_PRELOAD = %q, want the user's own", v)
	}
}
