package difftest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// PGFiles are the PostgreSQL regression scripts the full run uses: scripts
// that need nothing but test_setup.sql (no C test library, no tablespaces,
// no other script's objects, no cluster-wide state), in
// parallel_schedule's order.
var PGFiles = []string{
	"boolean", "char", "name", "varchar", "text", "int2", "int4", "int8", "oid",
	"float4", "float8", "bit", "numeric", "uuid", "enum", "money", "strings",
	"numerology", "date", "time", "timetz", "timestamp", "timestamptz", "interval",
	"horology", "regex", "expressions", "case", "select", "select_into",
	"select_distinct", "select_distinct_on", "select_implicit", "select_having",
	"subselect", "union", "join", "aggregates", "groupingsets", "random",
	"arrays", "delete", "insert", "insert_conflict", "update", "returning",
	"transactions", "limit", "with", "window", "json", "jsonb", "json_encoding",
	"copydml", "truncate", "sequence", "drop_if_exists", "functional_deps",
	"rowtypes", "tsrf", "prepare", "portals", "create_table", "create_view",
	"misc_functions", "errors",
}

// SLTFiles are the sqllogictest files of the full run, relative to the
// corpus's sqllogictest directory.
func SLTFiles(corpus string, withIndex, withEvidence bool) []string {
	dir := filepath.Join(corpus, "sqllogictest")
	var out []string
	for _, n := range []string{"select1", "select2", "select3", "select4", "select5"} {
		out = append(out, n+".test")
	}
	globs := []string{"random/*/*.test"}
	if withEvidence {
		globs = append(globs, "evidence/*.test")
	}
	if withIndex {
		globs = append(globs, "index/*/*/*.test")
	}
	for _, g := range globs {
		m, _ := filepath.Glob(filepath.Join(dir, g))
		sort.Strings(m)
		for _, p := range m {
			out = append(out, strings.TrimPrefix(p, dir+string(os.PathSeparator)))
		}
	}
	return out
}

// DefaultFiles is the full run's corpus selection: test_setup.sql and
// PGFiles, then the sqllogictest files.
func DefaultFiles(corpus string, withIndex, withEvidence bool) []File {
	files := []File{{Corpus: CorpusPG, Name: "test_setup.sql", Path: filepath.Join(corpus, "pgregress", "sql", "test_setup.sql")}}
	for _, n := range PGFiles {
		files = append(files, File{Corpus: CorpusPG, Name: n + ".sql", Path: filepath.Join(corpus, "pgregress", "sql", n+".sql"), Setup: true})
	}
	for _, n := range SLTFiles(corpus, withIndex, withEvidence) {
		files = append(files, File{Corpus: CorpusSLT, Name: n, Path: filepath.Join(corpus, "sqllogictest", n)})
	}
	return files
}
