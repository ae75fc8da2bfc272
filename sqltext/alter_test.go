package sqltext

import (
	"reflect"
	"testing"
)

func TestAlterActions(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"ALTER TABLE t ADD a int, ADD COLUMN b text DEFAULT 'x,y'", []string{"ALTER TABLE t ADD a int", "ALTER TABLE t ADD COLUMN b text DEFAULT 'x,y'"}},
		{`alter table if exists only s."T" add d numeric(10, 2), alter column c type int, drop e;`,
			[]string{`alter table if exists only s."T" add d numeric(10, 2)`, `alter table if exists only s."T" alter column c type int`, `alter table if exists only s."T" drop e`}},
		{"ALTER TABLE t ADD a int DEFAULT f(1, 2)", nil},
		{"ALTER TABLE t RENAME TO u", nil},
		{"ALTER TABLE t ADD a int,", nil},
		{"ALTER VIEW v RENAME TO w", nil},
		{"ALTER TABLE", nil},
	} {
		got, ok := AlterActions(Parse(c.in))
		if ok != (c.want != nil) || !reflect.DeepEqual(got, c.want) {
			t.Errorf("AlterActions(%q) = %q %v, want %q", c.in, got, ok, c.want)
		}
	}
}

func TestDropList(t *testing.T) {
	for _, c := range []struct {
		in, tag string
		want    []string
	}{
		{"DROP TABLE a, b", "DROP TABLE", []string{"DROP TABLE a", "DROP TABLE b"}},
		{`drop table if exists s."T", main.u, c.s.v cascade;`, "DROP TABLE", []string{`drop table if exists s."T" cascade`, "drop table if exists main.u cascade", "drop table if exists c.s.v cascade"}},
		{"DROP VIEW v1, v2 RESTRICT", "DROP VIEW", []string{"DROP VIEW v1 RESTRICT", "DROP VIEW v2 RESTRICT"}},
		{"DROP SEQUENCE IF EXISTS s1,s2", "DROP SEQUENCE", []string{"DROP SEQUENCE IF EXISTS s1", "DROP SEQUENCE IF EXISTS s2"}},
		{"DROP VIEW v, V, \"V\"", "DROP VIEW", []string{"DROP VIEW v", "DROP VIEW \"V\""}},
		{"DROP TABLE a", "", nil},
		{"DROP TABLE a,", "", nil},
		{"DROP TABLE a b, c", "", nil},
		{"DROP FUNCTION f(int), g(int)", "", nil},
		{"DROP DATABASE a", "", nil},
	} {
		got, tag, ok := DropList(Parse(c.in))
		if ok != (c.want != nil) || !reflect.DeepEqual(got, c.want) || tag != c.tag {
			t.Errorf("DropList(%q) = %q %q %v, want %q %q", c.in, got, tag, ok, c.want, c.tag)
		}
	}
}

func TestSchemaElements(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string // nil: not split
	}{
		{"CREATE SCHEMA s CREATE TABLE a (x int, y text) CREATE TABLE b (id int primary key);",
			[]string{"CREATE SCHEMA s", "CREATE TABLE s.a (x int, y text)", "CREATE TABLE s.b (id int primary key)"}},
		{`create schema if not exists "S" authorization me create sequence q start 5 create unique index on t (x) create table if not exists t (x int)`,
			[]string{`create schema if not exists "S" authorization me`, `create sequence "S".q start 5`, `create unique index on "S".t (x)`, `create table if not exists "S".t (x int)`}},
		{"CREATE SCHEMA s", nil},
		{"CREATE SCHEMA AUTHORIZATION me CREATE TABLE a (x int)", nil},
		{"CREATE SCHEMA s CREATE TABLE a (x int REFERENCES b)", nil},
		{"CREATE SCHEMA s CREATE VIEW v AS SELECT 1", nil},
		{"CREATE SCHEMA s CREATE TABLE a AS SELECT 1", nil},
		{"CREATE SCHEMA s CREATE TABLE other.a (x int)", nil},
	} {
		got, ok := SchemaElements(Parse(c.in))
		if ok != (c.want != nil) || !reflect.DeepEqual(got, c.want) {
			t.Errorf("SchemaElements(%q) = %q, %v; want %q", c.in, got, ok, c.want)
		}
	}
}
