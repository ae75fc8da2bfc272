package sqltext

import (
	"reflect"
	"testing"
)

func TestParseTruncate(t *testing.T) {
	for _, c := range []struct {
		sql  string
		want Truncate
		ok   bool
	}{
		{"TRUNCATE t", Truncate{Tables: []TableName{{Table: "t"}}, Only: []bool{false}}, true},
		{"truncate table public.A, \"b c\" restart identity cascade", Truncate{Tables: []TableName{{Schema: "main", Table: "A"}, {Table: "b c"}}, Cascade: true, Restart: true, Options: true, Only: []bool{false, false}}, true},
		{"TRUNCATE ONLY x.y.z * CONTINUE IDENTITY RESTRICT", Truncate{Tables: []TableName{{Catalog: "x", Schema: "y", Table: "z"}}, Options: true, Only: []bool{true}}, true},
		{"TRUNCATE t CASCADE", Truncate{Tables: []TableName{{Table: "t"}}, Cascade: true, Options: true, Only: []bool{false}}, true},
		{"TRUNCATE t WHERE", Truncate{}, false},
		{"TRUNCATE", Truncate{}, false},
		{"SELECT 1", Truncate{}, false},
	} {
		got, ok := ParseTruncate(Parse(c.sql))
		if ok != c.ok || (ok && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("ParseTruncate(%q) = %+v, %v; want %+v, %v", c.sql, got, ok, c.want, c.ok)
		}
	}
}
