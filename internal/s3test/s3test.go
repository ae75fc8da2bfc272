// Package s3test starts the real S3-compatible server versitygw for tests
// (see ../shared/S3.md in the project notes and .ci/run, which installs it).
package s3test

import (
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Start runs versitygw (installing it with go install when missing) on a
// free port with a fresh data directory, points the AWS SDK at it through
// the environment, and returns its endpoint. It stops when the test ends.
func Start(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("versitygw")
	if err != nil {
		gopath, _ := exec.Command("go", "env", "GOPATH").Output()
		bin = filepath.Join(strings.TrimSpace(string(gopath)), "bin", "versitygw")
		if _, err := os.Stat(bin); err != nil {
			out, err := exec.Command("go", "install", "-ldflags=-s -w", "github.com/versity/versitygw/cmd/versitygw@v1.8.0").CombinedOutput()
			if err != nil {
				t.Fatalf("install versitygw: %v\n%s", err, out)
			}
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(bin, "--port", addr, "--quiet", "posix", t.TempDir())
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY=testkey", "ROOT_SECRET_KEY=testsecret")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	endpoint := "http://" + addr
	for i := 0; ; i++ {
		resp, err := http.Get(endpoint)
		if err == nil {
			resp.Body.Close()
			break
		}
		if i == 100 {
			t.Fatalf("versitygw did not start: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Setenv("AWS_ENDPOINT_URL_S3", endpoint)
	t.Setenv("AWS_ACCESS_KEY_ID", "testkey")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "testsecret")
	t.Setenv("AWS_REGION", "us-east-1")
	return endpoint
}
