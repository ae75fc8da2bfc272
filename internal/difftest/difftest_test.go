package difftest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vsql/vsql/internal/pgtest"
)

func TestMain(m *testing.M) {
	ChildMain() // the test binary is also the vsqld child
	pgtest.Main(m)
}

func TestSplitPsql(t *testing.T) {
	src := "select 1; -- c\nselect 'a;b', $$x;y$$, (1;2);\n\\set v 3\nselect :v, ':v', :'w';\ncopy t from stdin;\n1\n\\.\nselect 2 \\gset p_\n"
	st := SplitPsql("f", src)
	if len(st) != 6 {
		t.Fatalf("got %d items: %+v", len(st), st)
	}
	if st[1].SQL != "select 'a;b', $$x;y$$, (1;2);" || st[2].Meta != "set v 3" || !st[4].HasCopy || string(st[4].CopyData) != "1\n" || !st[5].Gset || st[5].Prefix != "p_" {
		t.Fatalf("%+v", st)
	}
	got, missing := Substitute(st[3].SQL, map[string]string{"v": "3"})
	if got != "select 3, ':v', :'w';" || len(missing) != 1 || missing[0] != "w" {
		t.Fatalf("%q %v", got, missing)
	}
}

// TestShort is the CI version of the full run: a few files, asserting no
// hang or crash and agreement above the floors measured on the full run.
func TestShort(t *testing.T) {
	// VSQL_CORPUS names the corpus (.ci/run sets it where it finds one);
	// without it, the checkout's neighbour ../shared/corpus.
	corpus := os.Getenv("VSQL_CORPUS")
	if corpus == "" {
		corpus = "../../../shared/corpus"
		if _, err := os.Stat(filepath.Join(corpus, "pgregress")); err != nil {
			t.Skipf("no corpus beside the checkout (%v); set VSQL_CORPUS", err)
		}
	}
	corpus, _ = filepath.Abs(corpus)
	if _, err := os.Stat(filepath.Join(corpus, "pgregress")); err != nil {
		t.Fatalf("VSQL_CORPUS: corpus missing: %v", err)
	}
	dsn := pgtest.DSN(t)
	v, err := StartVsqld(filepath.Join(t.TempDir(), "data"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Stop()
	pgf := func(n string) File {
		return File{Corpus: CorpusPG, Name: n + ".sql", Path: filepath.Join(corpus, "pgregress", "sql", n+".sql"), Setup: true}
	}
	files := []File{
		{Corpus: CorpusSLT, Name: "select1.test", Path: filepath.Join(corpus, "sqllogictest", "select1.test"), Limit: 1000},
		pgf("boolean"), pgf("case"), pgf("select_implicit"),
	}
	floors := map[string]float64{"select1.test": 99.5, "boolean.sql": 90, "case.sql": 72, "select_implicit.sql": 90}
	res := Run(Config{Corpus: corpus, PG: dsn, Vsqld: v, Files: files, Timeout: 5 * time.Second})
	for _, r := range res {
		p := pct(r.Agree, r.Run)
		t.Logf("%s: %d/%d agree (%.1f%%), skipped %d", r.Name, r.Agree, r.Run, p, r.Skipped)
		if r.Error != "" {
			t.Errorf("%s: %s", r.Name, r.Error)
		}
		if r.Hung > 0 || r.Crashed > 0 {
			t.Errorf("%s: %d hung, %d crashed", r.Name, r.Hung, r.Crashed)
		}
		if p < floors[r.Name] {
			t.Errorf("%s: agreement %.1f%% below the floor %.1f%%", r.Name, p, floors[r.Name])
		}
	}
}
