package sqltext_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/vsql/vsql/sqltext"
)

func TestSplit(t *testing.T) {
	cases := []struct {
		src  string
		want []string
	}{
		{"select 1; select 2", []string{"select 1", " select 2"}},
		{"select ';'; select 2;", []string{"select ';'", " select 2"}},
		{`select "a;b" from t`, []string{`select "a;b" from t`}},
		{"select $$a;b$$, $x$;$x$", []string{"select $$a;b$$, $x$;$x$"}},
		{"select E'\\';'", []string{"select E'\\';'"}},
		{"-- c;\nselect 1 /* ; /* nested; */ */", []string{"-- c;\nselect 1 /* ; /* nested; */ */"}},
		{";;  ; -- only\n", nil},
		{"", nil},
		{"select 'it''s;'", []string{"select 'it''s;'"}},
	}
	for _, c := range cases {
		var got []string
		for _, st := range sqltext.Split(c.src) {
			got = append(got, st.SQL)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Split(%q) = %q, want %q", c.src, got, c.want)
		}
	}
}

func TestTags(t *testing.T) {
	cases := []struct {
		src         string
		rows        int64
		tag         string
		returnsRows bool
	}{
		{"SELECT 1", 1, "SELECT 1", true},
		{"(select 1)", 1, "SELECT 1", true},
		{"/* dbt */ with x as (select 1) select * from x", 1, "SELECT 1", true},
		{"insert into t values (1)", 3, "INSERT 0 3", false},
		{"insert into t values (1) returning a", 1, "INSERT 0 1", true},
		{"update t set a = 1", 2, "UPDATE 2", false},
		{"delete from t", 0, "DELETE 0", false},
		{"create table t (a int)", 0, "CREATE TABLE", false},
		{"create or replace temp table t (a int)", 0, "CREATE TABLE", false},
		{"create table if not exists s.t as select 1", 1, "SELECT 1", false},
		{`create table "t" as select 1`, 1, "SELECT 1", false},
		{"create table t (a, b) as select 1, 2", 1, "SELECT 1", false},
		{"create table s.t (a) as select generate_series(1,3) with data", 3, "SELECT 3", false},
		{"create table t (a) as select generate_series(1,3) WITH NO DATA;", 0, "CREATE TABLE AS", false},
		{"create table t (a) as execute p with no data", 0, "SELECT 0", false},
		{"create table t (a numeric(10,2)) as select 1", 0, "CREATE TABLE", false},
		{"create table t (a int generated always as (1))", 0, "CREATE TABLE", false},
		{"create unique index i on t(a)", 0, "CREATE INDEX", false},
		{"drop table if exists t", 0, "DROP TABLE", false},
		{"create view v as select 1", 0, "CREATE VIEW", false},
		{"begin", 0, "BEGIN", false},
		{"start transaction", 0, "BEGIN", false},
		{"end", 0, "COMMIT", false},
		{"abort", 0, "ROLLBACK", false},
		{"truncate t", 0, "TRUNCATE TABLE", false},
		{"set x = 1", 0, "SET", false},
	}
	for _, c := range cases {
		st := sqltext.Parse(c.src)
		if got := st.Tag(c.rows); got != c.tag {
			t.Errorf("Tag(%q) = %q, want %q", c.src, got, c.tag)
		}
		if got := st.ReturnsRows(); got != c.returnsRows {
			t.Errorf("ReturnsRows(%q) = %v, want %v", c.src, got, c.returnsRows)
		}
	}
}

func TestKinds(t *testing.T) {
	for src, want := range map[string]sqltext.Kind{
		"CREATE DATABASE x":         sqltext.KindCreateDatabase,
		"drop database if exists x": sqltext.KindDropDatabase,
		"rollback to savepoint a":   sqltext.KindSavepoint,
		"savepoint a":               sqltext.KindSavepoint,
		"rollback":                  sqltext.KindRollback,
	} {
		if got := sqltext.Parse(src).Kind(); got != want {
			t.Errorf("Kind(%q) = %v, want %v", src, got, want)
		}
	}
}

func TestValidName(t *testing.T) {
	for _, ok := range []string{"postgres", "retail", "a_b-1", "_x"} {
		if err := sqltext.ValidName("database", ok); err != nil {
			t.Errorf("ValidName(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a/b", "a@b", "../x", "1abc", "a b", "x\"y", string(make([]byte, 64))} {
		if err := sqltext.ValidName("database", bad); err == nil {
			t.Errorf("ValidName(%q) accepted", bad)
		}
	}
	if got := sqltext.QuoteIdent(`a"b`); got != `"a""b"` {
		t.Errorf("QuoteIdent = %s", got)
	}
}

func TestDatabaseTarget(t *testing.T) {
	cases := []struct {
		src, name, rest string
		ifExists, ok    bool
	}{
		{"CREATE DATABASE Retail", "retail", "", false, true},
		{`create database "Mixed"`, "Mixed", "", false, true},
		{"drop database if exists x with (force)", "x", "with (force)", true, true},
		{"drop database", "", "", false, false},
	}
	for _, c := range cases {
		name, ifExists, rest, ok := sqltext.Parse(c.src).DatabaseTarget()
		if name != c.name || ifExists != c.ifExists || rest != c.rest || ok != c.ok {
			t.Errorf("DatabaseTarget(%q) = %q %v %q %v", c.src, name, ifExists, rest, ok)
		}
	}
}

func TestScanStatement(t *testing.T) {
	sc := sqltext.ScanStatement(sqltext.Parse(`SELECT * FROM "retail/dev".orders o JOIN "retail@4".main.orders p USING (id), vsql_snapshots('x') WHERE s = '"a/b".x'`))
	if !sc.CallsVsql || sc.Reserved || len(sc.Catalogs) != 2 || sc.Catalogs[0] != "retail/dev" || sc.Catalogs[1] != "retail@4" {
		t.Errorf("scan = %+v", sc)
	}
	if !sqltext.ScanStatement(sqltext.Parse(`SELECT * FROM __vsql_snapshots('{}')`)).Reserved || !sqltext.ScanStatement(sqltext.Parse(`SELECT query('select * from __VSQL_x(null)')`)).Reserved {
		t.Error("reserved names not detected")
	}
	if got := sqltext.QuoteNamedArguments(sqltext.Parse(`SELECT * FROM vsql_create_branch('r', 'dev', FROM => 'main', snapshot=>3) WHERE a >= 1`)).SQL; got != `SELECT * FROM vsql_create_branch('r', 'dev', "from" => 'main', "snapshot"=>3) WHERE a >= 1` {
		t.Errorf("QuoteNamedArguments = %s", got)
	}
}

func TestScanQualifiers(t *testing.T) {
	sc := sqltext.ScanStatement(sqltext.Parse(`SELECT a.x, "Retail".main.t.c FROM retail.orders a JOIN "db/dev".t ON 1.5 = b.c WHERE s.t.u = 'x.y'`))
	got := fmt.Sprint(sc.Qualifiers)
	if got != "[a Retail retail db/dev b s]" {
		t.Errorf("qualifiers %q", got)
	}
	if len(sc.Catalogs) != 1 || sc.Catalogs[0] != "db/dev" {
		t.Errorf("catalogs %v", sc.Catalogs)
	}
}

func TestParseTableName(t *testing.T) {
	for in, want := range map[string]sqltext.TableName{
		"orders":                         {Table: "orders"},
		"public.orders":                  {Schema: "main", Table: "orders"},
		"PUBLIC.orders":                  {Schema: "main", Table: "orders"},
		"main.orders":                    {Schema: "main", Table: "orders"},
		`"public".orders`:                {Schema: "main", Table: "orders"},
		`"Public".orders`:                {Schema: "Public", Table: "orders"},
		"scratch.public.price_decisions": {Catalog: "scratch", Schema: "main", Table: "price_decisions"},
		"scratch.main.price_decisions":   {Catalog: "scratch", Schema: "main", Table: "price_decisions"},
		`"retail/dev".public."a.b"`:      {Catalog: "retail/dev", Schema: "main", Table: "a.b"},
		`"q""uote".s.t`:                  {Catalog: `q"uote`, Schema: "s", Table: "t"},
		"scratch.other.t":                {Catalog: "scratch", Schema: "other", Table: "t"},
	} {
		got, ok := sqltext.ParseTableName(in)
		if !ok || got != want {
			t.Errorf("ParseTableName(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "a..b", "a.b.c.d", `"open.t`, ".t", "t."} {
		if n, ok := sqltext.ParseTableName(bad); ok {
			t.Errorf("ParseTableName(%q) = %+v, want not ok", bad, n)
		}
	}
	if s := (sqltext.TableName{Catalog: "retail/dev", Schema: "main", Table: `a"b`}).String(); s != `"retail/dev"."main"."a""b"` {
		t.Errorf("String() = %s", s)
	}
}
