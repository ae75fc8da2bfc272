package sqltext

import (
	"reflect"
	"testing"
)

// Table positions: every place DuckDB reads a table (and so a file, for a
// string or a quoted name with a path), and the look-alikes that are not.
func TestReachTables(t *testing.T) {
	str := func(v string) TableRef { return TableRef{Kind: RefString, Name: v, Parts: 1} }
	name := func(v string, parts int, call bool) TableRef {
		return TableRef{Kind: RefName, Name: v, Parts: parts, Call: call}
	}
	for _, c := range []struct {
		sql  string
		want []TableRef
	}{
		{"SELECT * FROM '/etc/passwd'", []TableRef{str("/etc/passwd")}},
		{"FROM '/x' SELECT 1", []TableRef{str("/x")}},
		{"SELECT * FROM E'/e\\'x'", []TableRef{str("/e'x")}},
		{"SELECT * FROM $$/d$$", []TableRef{str("/d")}},
		{"SELECT * FROM t, '/x'", []TableRef{name("t", 1, false), str("/x")}},
		{"SELECT * FROM t JOIN u ON true, '/x'", []TableRef{name("t", 1, false), name("u", 1, false), str("/x")}},
		{"SELECT * FROM t POSITIONAL JOIN '/x'", []TableRef{name("t", 1, false), str("/x")}},
		{"DESCRIBE '/x'", []TableRef{str("/x")}},
		{"SUMMARIZE '/x'", []TableRef{str("/x")}},
		{"TABLE '/x'", []TableRef{str("/x")}},
		{"PIVOT '/x' ON a USING sum(b)", []TableRef{str("/x"), name("sum", 1, true)}},
		{"DELETE FROM t USING '/x' s", []TableRef{name("t", 1, false), str("/x")}},
		{"SELECT exists(FROM '/x')", []TableRef{str("/x")}},
		{"SELECT * FROM system.main.read_text('/x')", []TableRef{name("read_text", 3, true)}},
		{`SELECT * FROM "READ_TEXT"('/x')`, []TableRef{{Kind: RefQuoted, Name: "READ_TEXT", Parts: 1, Call: true}}},
		{`SELECT * FROM "/x.csv"`, []TableRef{{Kind: RefQuoted, Name: "/x.csv", Parts: 1}}},
		{`SELECT * FROM "db/dev".t`, []TableRef{name("t", 2, false)}},
		{"CALL enable_profiling()", []TableRef{name("enable_profiling", 1, true)}},
		// not tables
		{"SELECT extract(year FROM '2020-01-01'::date), trim(both 'x' FROM 'y')", nil},
		{"SELECT 1 IS DISTINCT FROM '/x', 'a', 'b'", nil},
		{"SELECT 'a', 'b' FROM t WHERE x = 'c', 'd'", []TableRef{name("t", 1, false)}},
		{"SELECT * FROM t ORDER BY 'a', 'b'", []TableRef{name("t", 1, false)}},
		{"SELECT * FROM t AS '/x'", []TableRef{name("t", 1, false)}},
		{"SELECT (SELECT 1 FROM t), 'x' FROM u", []TableRef{name("t", 1, false), name("u", 1, false)}},
	} {
		got := ReachOf(Parse(c.sql)).Tables
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s\n got %+v\nwant %+v", c.sql, got, c.want)
		}
	}
}

func TestReachCallsLiteralsQualifiers(t *testing.T) {
	r := ReachOf(Parse(`SELECT "Glob"('/a'), x.read_blob('b') FROM "Memory".main.t, memory.u WHERE v = E'c\n'`))
	if want := []string{"glob", "read_blob"}; !reflect.DeepEqual(r.Calls, want) {
		t.Errorf("calls %q, want %q", r.Calls, want)
	}
	if want := []string{"Glob", "/a", "b", "Memory", "c\n"}; !reflect.DeepEqual(r.Literals, want) {
		t.Errorf("literals %q, want %q", r.Literals, want)
	}
	if want := []string{"x", "Memory", "memory"}; !reflect.DeepEqual(r.Qualifiers, want) {
		t.Errorf("qualifiers %q, want %q", r.Qualifiers, want)
	}
}

func TestSettingOf(t *testing.T) {
	for sql, want := range map[string]Setting{
		"SET memory_limit = '1GB'":          {Verb: "SET", Name: "memory_limit"},
		"SET GLOBAL threads TO 1":           {Verb: "SET", Scope: "GLOBAL", Name: "threads"},
		"set session TimeZone = 'UTC'":      {Verb: "SET", Scope: "SESSION", Name: "timezone"},
		"SET TIME ZONE 'UTC'":               {Verb: "SET", Name: "timezone"},
		"SET VARIABLE x = 1":                {Verb: "SET", Name: "x", Variable: true},
		`SET "enable_external_access"=true`: {Verb: "SET", Name: "enable_external_access"},
		"RESET ALL":                         {Verb: "RESET", Name: "all"},
		"RESET GLOBAL threads":              {Verb: "RESET", Scope: "GLOBAL", Name: "threads"},
		"PRAGMA threads = 1":                {Verb: "PRAGMA", Name: "threads", Assign: true},
		"PRAGMA table_info('t')":            {Verb: "PRAGMA", Name: "table_info"},
	} {
		got, ok := SettingOf(Parse(sql))
		if !ok || got != want {
			t.Errorf("%s: got %+v %v, want %+v", sql, got, ok, want)
		}
	}
	if _, ok := SettingOf(Parse("SELECT 1")); ok {
		t.Error("SELECT is not a setting")
	}
}

func TestInnerStatementAndDDLHead(t *testing.T) {
	for sql, want := range map[string]string{
		"PREPARE p AS INSTALL httpfs":           "INSTALL",
		"PREPARE p (INT, VARCHAR) AS LOAD x":    "LOAD",
		"EXPLAIN ANALYZE COPY t TO '/x'":        "COPY",
		"EXPLAIN (FORMAT JSON) SELECT 1":        "SELECT",
		"EXPLAIN SELECT * FROM read_text('/x')": "SELECT",
	} {
		in, ok := InnerStatement(Parse(sql))
		if !ok || in.Keyword(0) != want {
			t.Errorf("%s: inner %q %v, want %s", sql, in.SQL, ok, want)
		}
	}
	if got := DDLHead("CREATE VIEW v AS SELECT * FROM memory.__vsql_pg.pg_class"); got != "CREATE VIEW v " {
		t.Errorf("DDLHead = %q", got)
	}
}
