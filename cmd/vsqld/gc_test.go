package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gc removes the temporary files an interrupted atomic write leaves
// (internal/atomicfile's names, and the ".tmp-" names of earlier versions)
// and nothing else.
func TestGCRemovesLeftoverTempFiles(t *testing.T) {
	data := t.TempDir()
	if _, err := runMain(map[string]string{"VSQL_PASSWORD": "pw"}, "", "user", "add", "alice", "--data", data); err != nil {
		t.Fatal(err)
	}
	block := strings.Repeat("ab", 32)
	files := map[string]bool{ // path → kept by gc
		"users":                     true,
		"remotes.json":              true,
		".users8674665223082153551": false,
		".remotes.json123456789012": false,
		".tmp-users-42":             false,
		"blocks/ab/ab/." + block + "5577006791947779410": false,
		"blocks/ab/ab/.tmp-99":                           false,
	}
	for rel := range files {
		p := filepath.Join(data, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if rel != "users" {
			if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	out, err := runMain(nil, "", "gc", "--data", data)
	if err != nil {
		t.Fatalf("gc: %v\n%s", err, out)
	}
	if !strings.Contains(out, "5 temporary files") {
		t.Errorf("gc output: %s", out)
	}
	for rel, kept := range files {
		_, err := os.Stat(filepath.Join(data, rel))
		if exists := err == nil; exists != kept {
			t.Errorf("%s: exists %v after gc, want %v", rel, exists, kept)
		}
	}
	if out, err := runMain(nil, "", "user", "list", "--data", data); err != nil || out != "alice write\n" {
		t.Errorf("users after gc: %v %q", err, out)
	}
}
