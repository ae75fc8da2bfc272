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
