package difftest

import (
	"bufio"
	"os"
	"strings"
)

// ReadSLTFile parses a sqllogictest file into records. Expected results
// (after ----) are dropped: the runner compares with PostgreSQL's own
// answers, not SQLite's. Records under "skipif postgresql" or "onlyif
// <other>" get a SkipReason; "halt" (for PostgreSQL) ends the file.
func ReadSLTFile(path, name string) ([]Stmt, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var out []Stmt
	lineNo := 0
	var lines []string
	first := 0
	flush := func() bool {
		defer func() { lines = lines[:0] }()
		var skip string
		for len(lines) > 0 {
			f := strings.Fields(lines[0])
			if len(f) >= 2 && (f[0] == "skipif" || f[0] == "onlyif") {
				db := strings.ToLower(f[1])
				if f[0] == "skipif" && db == "postgresql" {
					skip = "skipif postgresql"
				}
				if f[0] == "onlyif" && db != "postgresql" {
					skip = "onlyif " + db
				}
				lines = lines[1:]
				first++
				continue
			}
			break
		}
		if len(lines) == 0 {
			return true
		}
		f := strings.Fields(lines[0])
		if len(f) == 0 {
			return true
		}
		switch f[0] {
		case "halt":
			return skip != ""
		case "hash-threshold":
			return true
		case "statement":
			st := Stmt{File: name, Line: first + 1, SQL: strings.Join(lines[1:], "\n"), SkipReason: skip}
			st.ExpectError = len(f) > 1 && f[1] == "error"
			out = append(out, st)
		case "query":
			var sql []string
			for _, l := range lines[1:] {
				if l == "----" {
					break
				}
				sql = append(sql, l)
			}
			st := Stmt{File: name, Line: first + 1, SQL: strings.Join(sql, "\n"), Query: true, Sort: "nosort", SkipReason: skip}
			if len(f) > 1 {
				st.Types = f[1]
			}
			if len(f) > 2 {
				st.Sort = f[2]
			}
			out = append(out, st)
		}
		return true
	}
	for sc.Scan() {
		lineNo++
		l := sc.Text()
		if strings.TrimSpace(l) == "" {
			if len(lines) > 0 && !flush() {
				return out, nil
			}
			continue
		}
		if len(lines) == 0 {
			if strings.HasPrefix(l, "#") {
				continue
			}
			first = lineNo - 1
		}
		lines = append(lines, l)
	}
	if len(lines) > 0 {
		flush()
	}
	return out, sc.Err()
}
