package pgwire

import "testing"

func TestAppendRow(t *testing.T) {
	inner := []Field{{Name: "x", Column: Column{OID: 25}}, {Name: "y", Column: Column{OID: 20}}}
	fields := []Field{
		{Name: "a", Column: Column{OID: 25}},
		{Name: "b", Column: Column{OID: 23}},
		{Name: "c", Column: Column{OID: 25}},
		{Name: "r", Column: Column{OID: 25, Fields: inner}},
		{Name: "l", Column: Column{OID: 1007, Elem: 23, Dims: 1}},
	}
	m := map[string]any{"a": `x "y"\z`, "b": int32(3), "c": "", "r": map[string]any{"x": "p q", "y": nil}, "l": []any{int32(1), nil}}
	got := string(appendRow(nil, fields, m))
	want := `("x ""y""\\z",3,"","(""p q"",)","{1,NULL}")`
	if got != want {
		t.Errorf("appendRow = %s, want %s", got, want)
	}
	col := Column{OID: 25, Fields: fields[:2]}
	for _, format := range []int16{0, 1} {
		b, err := appendCell(nil, &col, format, map[string]any{"a": "k", "b": nil}, textSettings{digits: 1})
		if err != nil || string(b) != "(k,)" {
			t.Errorf("appendCell format %d = %q, %v", format, b, err)
		}
	}
}
