package regress_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite expected/*.out from the results")

func TestRegress(t *testing.T) {
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatal("psql is required for the regress suite (apt-get install postgresql-client-15); .ci/run installs it")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "vsqld")
	build := exec.Command("go", "build", "-o", bin, "../cmd/vsqld")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build vsqld: %v\n%s", err, out)
	}
	port := freePort(t)
	var logBuf bytes.Buffer
	srv := exec.Command(bin, "serve", "--listen", "127.0.0.1:"+port, "--data", filepath.Join(tmp, "data"), "--threads", "2")
	srv.Stdout, srv.Stderr = &logBuf, &logBuf
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A graceful stop is part of the test: SIGINT must end vsqld with status 0.
		_ = srv.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- srv.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("vsqld did not exit cleanly on SIGINT: %v\n%s", err, logBuf.String())
			}
		case <-time.After(60 * time.Second):
			_ = srv.Process.Kill()
			t.Errorf("vsqld did not stop within 60 s of SIGINT\n%s", logBuf.String())
		}
	})
	waitForPort(t, "127.0.0.1:"+port)

	tests := readSchedule(t, "schedule")
	if err := os.MkdirAll("results", 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PGHOST=127.0.0.1", "PGPORT="+port, "PGUSER=regress", "PGTZ=UTC",
		"PGDATESTYLE=ISO, MDY", "PGAPPNAME=pg_regress", "PGOPTIONS=", "PSQLRC=/dev/null", "PAGER=", "LANG=C", "LC_ALL=C")
	portPattern := regexp.MustCompile(`port ` + port + `\b`)
	for _, name := range tests {
		t.Run(name, func(t *testing.T) {
			db := "regress_" + name
			create := exec.Command(psql, "-X", "-q", "-d", "postgres", "-c", "CREATE DATABASE "+db)
			create.Env = env
			if out, err := create.CombinedOutput(); err != nil {
				t.Fatalf("create database %s: %v\n%s", db, err, out)
			}
			input, err := os.ReadFile(filepath.Join("sql", name+".sql"))
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(psql, "-X", "-a", "-q", "-d", db)
			cmd.Env = env
			cmd.Stdin = bytes.NewReader(input)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			_ = cmd.Run() // psql's exit status is part of nothing; the output is compared
			got := portPattern.ReplaceAll(out.Bytes(), []byte("port PORT"))
			resultPath := filepath.Join("results", name+".out")
			if err := os.WriteFile(resultPath, got, 0o644); err != nil {
				t.Fatal(err)
			}
			expectedPath := filepath.Join("expected", name+".out")
			if *update {
				if err := os.WriteFile(expectedPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(expectedPath)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				diff, _ := exec.Command("diff", "-u", expectedPath, resultPath).CombinedOutput()
				t.Errorf("output differs from %s:\n%s", expectedPath, diff)
			}
		})
	}
}

func readSchedule(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tests []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		rest, ok := strings.CutPrefix(line, "test:")
		if !ok {
			t.Fatalf("schedule: bad line %q", line)
		}
		tests = append(tests, strings.Fields(rest)...)
	}
	return tests
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return port
}

func waitForPort(t *testing.T, addr string) {
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal(fmt.Sprintf("vsqld did not listen on %s", addr))
}
