package pgcompat

import "testing"

// PostgreSQL 15's answers for json text, as psql prints them.
func TestJSONTextHelpers(t *testing.T) {
	paths := []struct {
		doc  string
		path []string
		want string
		ok   bool
	}{
		{`{ "b" : [1,2,  3], "a":{"x" :1}, "a": "dup"}`, []string{"a"}, `"dup"`, true},
		{`{ "b" : [1,2,  3], "a":{"x" :1}, "a": "dup"}`, []string{"a", "x"}, `1`, true},
		{`{ "b" : [1,2,  3]}`, []string{"b", "-1"}, `3`, true},
		{`{ "b" : [1,2,  3]}`, []string{"b", "x"}, ``, false},
		{` [1, {"k" :  "v"}] `, nil, `[1, {"k" :  "v"}]`, true},
		{`[1, {"k" :  "v"}]`, []string{"1"}, `{"k" :  "v"}`, true},
		{`"s"`, []string{"a"}, ``, false},
	}
	for _, c := range paths {
		if got, ok := jsonPathText(c.doc, c.path); got != c.want || ok != c.ok {
			t.Errorf("jsonPathText(%s, %v) = %q, %v; want %q, %v", c.doc, c.path, got, ok, c.want, c.ok)
		}
	}
	for doc, want := range map[string]string{
		`{"a": {"b": null, "c": null}, "d": {} }`:              `{"a":{},"d":{}}`,
		`[1,{"a":1,"b":null,"c":2},3]`:                         `[1,{"a":1,"c":2},3]`,
		`{"a":1,"b":null,"c":[2,null,3],"d":{"e":4,"f":null}}`: `{"a":1,"c":[2,null,3],"d":{"e":4}}`,
	} {
		if got := string(stripNullsText(nil, doc)); got != want {
			t.Errorf("stripNullsText(%s) = %s, want %s", doc, got, want)
		}
	}
	if got := builtJSON(`{"f":NaN,"g":-Infinity,"s":"NaN"}`, false); got != `{"f":"NaN","g":"-Infinity","s":"NaN"}` {
		t.Errorf("builtJSON = %s", got)
	}
	if got := builtJSON(`{"x":1,"y":[1,2]}`, true); got != "{\"x\":1,\n \"y\":[1,2]}" {
		t.Errorf("builtJSON pretty = %q", got)
	}
	for text, valid := range map[string]bool{`[1,2,]`: false, ` true `: true, `{"a" 1}`: false, `"\ud83d"`: true, ``: false} {
		if err := checkJSONText([]byte(text)); (err == nil) != valid {
			t.Errorf("checkJSONText(%q) = %v", text, err)
		}
	}
	for text, valid := range map[string]bool{`"\ud83d\ude04"`: true, `"\ud83d\ud83d"`: false, `"\ude04\ud83d"`: false,
		`"\ud83dX"`: false, `"\\ud83d"`: true, `"\u00e9"`: true} {
		if err := checkSurrogates(text); (err == nil) != valid {
			t.Errorf("checkSurrogates(%s) = %v", text, err)
		}
	}
	if !hasNulEscape(`"a\u0000"`) || hasNulEscape(`"a\\u0000"`) {
		t.Error("hasNulEscape")
	}
}
