package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var n []string
	for _, e := range ents {
		n = append(n, e.Name())
	}
	return n
}

func TestWriteFileReplacesWithExactMode(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "users")
	if err := WriteFile(path, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v (umask 077 must not reduce it), %v", fi.Mode(), err)
	}
	if err := WriteFile(path, []byte("two\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	fi, _ = os.Stat(path)
	if string(data) != "two\n" || fi.Mode().Perm() != 0o600 {
		t.Fatalf("after replace: %q %v", data, fi.Mode())
	}
	if n := names(t, dir); len(n) != 1 || n[0] != "users" {
		t.Errorf("directory holds %v, want only users", n)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "f"), nil, 0o600); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("write into a missing directory: %v", err)
	}
	if err := SyncDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("SyncDir of a missing directory succeeded")
	}
}

// Until Commit, the destination keeps its old contents; Cleanup leaves no
// trace, and a writer that dies without either leaves only a file IsTemp
// recognizes.
func TestPendingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "block")
	if err := WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(f.Name()) != dir || !IsTemp(filepath.Base(f.Name())) {
		t.Errorf("temporary file %s: not beside the destination or not IsTemp", f.Name())
	}
	if _, err := f.Write([]byte("new contents")); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("before Commit the destination holds %q", data)
	}
	if err := f.Cleanup(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "old" {
		t.Errorf("after Cleanup the destination holds %q", data)
	}
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("after Cleanup: %v", n)
	}

	f, err = Create(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("new"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := f.Cleanup(); err != nil {
		t.Errorf("Cleanup after Commit: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "new" {
		t.Errorf("after Commit the destination holds %q", data)
	}

	// A writer that stops (the process dies) between Write and Commit.
	f, err = Create(path, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	f.File.Close()
	if data, _ := os.ReadFile(path); string(data) != "new" {
		t.Errorf("abandoned write changed the destination: %q", data)
	}
	var temps []string
	for _, n := range names(t, dir) {
		if n != "block" {
			temps = append(temps, n)
		}
	}
	if len(temps) != 1 || !IsTemp(temps[0]) {
		t.Errorf("leftovers %v: want one IsTemp file", temps)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".users8674665223082153551":      true,
		".remotes.json1234567890":        true,
		".0123456789abcdef1234567890":    true,
		".123456789012":                  true, // destination "12", random part 10 digits
		"users":                          false,
		".users":                         false,
		".users123456789":                false, // 9 digits
		"8674665223082153551":            false,
		".tmp-users-123":                 false,
		"":                               false,
		".":                              false,
		"0123456789abcdef0123456789abcd": false,
		"x.duckdb":                       false,
	} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v", name, got)
		}
	}
}

// A process killed at any moment while replacing a file leaves the old or
// the new contents whole under the destination's name, never a mix or a
// prefix.
func TestKilledWriterLeavesWholeFile(t *testing.T) {
	if os.Getenv("ATOMICFILE_CHILD") != "" {
		child(os.Getenv("ATOMICFILE_CHILD"))
		return
	}
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := WriteFile(path, content(0), 0o600); err != nil {
		t.Fatal(err)
	}
	last := 0
	for round := range 6 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledWriterLeavesWholeFile$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_CHILD="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(30+round*17) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !whole(data) {
			t.Fatalf("round %d: the destination holds %d bytes that are not one whole version", round, len(data))
		}
		last, _ = strconv.Atoi(string(data[:20]))
	}
	if last == 0 {
		t.Error("the killed writers never replaced the file: the test proved nothing")
	}
}

const contentLen = 1 << 20

// content is version v: a decimal header and then contentLen bytes of v%251.
func content(v int) []byte {
	b := bytes.Repeat([]byte{byte(v % 251)}, contentLen)
	return append([]byte(fmt.Sprintf("%020d\n", v)), b...)
}

func whole(data []byte) bool {
	if len(data) != 21+contentLen {
		return false
	}
	v, err := strconv.Atoi(string(data[:20]))
	return err == nil && bytes.Equal(data, content(v))
}

func child(path string) {
	for v := 1; ; v++ {
		if err := WriteFile(path, content(v), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
