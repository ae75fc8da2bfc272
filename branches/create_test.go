package branches

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/vsqlerr"
)

// fakeEngine records statements and fails ATTACH of the aliases in fail;
// a successful ATTACH creates the file, as DuckDB does.
type fakeEngine struct {
	mu   sync.Mutex
	fail map[string]bool
	ran  []string
}

func (e *fakeEngine) Exec(_ context.Context, q string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ran = append(e.ran, q)
	for alias := range e.fail {
		if strings.HasPrefix(q, "ATTACH ") && strings.HasSuffix(q, ` AS "`+alias+`"`) {
			return errors.New("Binder Error: cannot attach " + alias)
		}
	}
	if rest, ok := strings.CutPrefix(q, "ATTACH '"); ok {
		if path, _, ok := strings.Cut(rest, "' AS "); ok {
			if f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Close()
			}
		}
	}
	return nil
}

func (e *fakeEngine) Query(context.Context, string, func([]any) error) error { return nil }

func newTestManager(t *testing.T, dir string, eng *fakeEngine) (*Manager, *catalog.Catalog) {
	t.Helper()
	cat, err := catalog.Open(context.Background(), filepath.Join(dir, "catalog.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cat.Close() })
	m, err := NewManager(context.Background(), dir, cat, eng, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return m, cat
}

func databases(t *testing.T, cat *catalog.Catalog) []string {
	t.Helper()
	var names []string
	if err := cat.Tx(context.Background(), func(tx *catalog.Tx) error {
		dbs, err := tx.Databases(context.Background())
		for _, d := range dbs {
			names = append(names, d.Name)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return names
}

// CREATE DATABASE is all or nothing: an ATTACH that fails leaves no row
// and no directory; reserved and case-duplicate names are refused before
// anything is written.
func TestCreateDatabaseAtomic(t *testing.T) {
	dir := t.TempDir()
	eng := &fakeEngine{fail: map[string]bool{"broken": true}}
	m, cat := newTestManager(t, dir, eng)
	ctx := context.Background()

	err := m.CreateDatabase(ctx, "broken")
	if !vsqlerr.IsCode(err, vsqlerr.DatabaseUnavailable) {
		t.Fatalf("create with a failing attach: %v", err)
	}
	if got := databases(t, cat); len(got) != 0 {
		t.Errorf("a failed create left rows: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "live", "broken")); !os.IsNotExist(err) {
		t.Errorf("a failed create left its directory: %v", err)
	}
	// Once the attach works, the name is free.
	delete(eng.fail, "broken")
	if err := m.CreateDatabase(ctx, "broken"); err != nil {
		t.Fatalf("create after the failure: %v", err)
	}

	n := len(eng.ran)
	for _, name := range []string{"memory", "SYSTEM", "Temp", "main", "information_schema", "pg_catalog", "public", "__vsql_db"} {
		if err := m.CreateDatabase(ctx, name); !vsqlerr.IsCode(err, vsqlerr.ReservedName) {
			t.Errorf("create %s: %v", name, err)
		}
	}
	if len(eng.ran) != n {
		t.Errorf("a reserved name ran %q", eng.ran[n:])
	}
	if err := m.CreateDatabase(ctx, "Abc"); err != nil {
		t.Fatal(err)
	}
	n = len(eng.ran)
	err = m.CreateDatabase(ctx, "abc")
	if !vsqlerr.IsCode(err, vsqlerr.DatabaseExists) || !strings.Contains(err.Error(), `"Abc"`) {
		t.Errorf("create abc after Abc: %v", err)
	}
	if len(eng.ran) != n {
		t.Errorf("a refused create ran %q", eng.ran[n:])
	}
	if got := databases(t, cat); strings.Join(got, ",") != "Abc,broken" {
		t.Errorf("databases: %v", got)
	}
}

// A database whose main branch cannot be attached does not stop the
// manager: the others are attached, and acquiring the broken one reports
// database_unavailable (and retries the attach).
func TestManagerStartsWithUnattachableDatabase(t *testing.T) {
	dir := t.TempDir()
	eng := &fakeEngine{}
	m, cat := newTestManager(t, dir, eng)
	ctx := context.Background()
	for _, db := range []string{"good", "bad"} {
		if err := m.CreateDatabase(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	eng.fail = map[string]bool{"bad": true}
	m2, err := NewManager(ctx, dir, cat, eng, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatalf("manager with an unattachable database: %v", err)
	}
	if _, release, err := m2.Acquire(ctx, "good", "", ""); err != nil {
		t.Errorf("good: %v", err)
	} else {
		release()
	}
	if _, _, err := m2.Acquire(ctx, "bad", "", ""); !vsqlerr.IsCode(err, vsqlerr.DatabaseUnavailable) {
		t.Errorf("bad: %v", err)
	}
	delete(eng.fail, "bad")
	if _, release, err := m2.Acquire(ctx, "bad", "main", ""); err != nil {
		t.Errorf("bad once it attaches: %v", err)
	} else {
		release()
	}
}
