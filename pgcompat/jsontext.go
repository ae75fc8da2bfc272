package pgcompat

import (
	"database/sql/driver"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's json, apart from jsonb: a text type of the engine
// (duckstream.RegisterTextType) named JSONType whose value is the input
// text as written — whitespace, key order and duplicate keys kept — once
// the cast from text has checked that it is JSON. jsonb stays DuckDB's
// JSON, printed in jsonb's form by pgwire; json is printed as it is
// stored and reported as json (OID 114). The rewrite writes the type json
// as JSONType where the word is visibly a type (jsonType).
//
// DuckDB's JSON functions take a json value as text (its type is VARCHAR
// under another name), so everything that reads JSON reads json too; what
// PostgreSQL answers from json's text is written here: ->, ->>, #> and
// #>> (overloads added to DuckDB's -> and ->>, and the Go functions the
// path macros call) give the element's text as written.

// JSONType is the engine's name of PostgreSQL's json.
const JSONType = "pg_json"

// registerJSONType registers json and its casts: from text (checked, kept
// as written) and from jsonb (jsonb's text, as PostgreSQL's cast prints
// it).
func registerJSONType(c driver.Conn) error {
	if err := duckstream.RegisterTextType(c, JSONType); err != nil {
		return err
	}
	if err := duckstream.RegisterTextTypeCast(c, "", JSONType, -1, func(text []byte) ([]byte, error) {
		if err := checkJSONText(text); err != nil {
			return nil, vsqlerr.ForEngine(err)
		}
		return text, nil
	}); err != nil {
		return err
	}
	if err := duckstream.RegisterTextTypeCast(c, "JSON", JSONType, -1, func(text []byte) ([]byte, error) {
		return AppendJSONBText(nil, text), nil
	}); err != nil {
		return err
	}
	// json converts implicitly to jsonb, whose functions (DuckDB's JSON
	// functions, the macros of the rewrite) read it: the text is JSON
	// already.
	return duckstream.RegisterTextTypeCast(c, JSONType, "JSON", 1, func(text []byte) ([]byte, error) { return text, nil })
}

// checkJSONText reports whether text is JSON as PostgreSQL's json input
// reads it (RFC 8259, and a \u escape of a high surrogate followed by one
// of a low surrogate), with PostgreSQL's error (22P02) if not.
func checkJSONText(text []byte) error {
	if !json.Valid(text) {
		detail := "The input string ended unexpectedly."
		var v any
		if err := json.Unmarshal(text, &v); err != nil {
			if se, ok := err.(*json.SyntaxError); ok && int(se.Offset) < len(text) {
				detail = "Token is invalid near byte " + strconv.FormatInt(se.Offset, 10) + "."
			}
		}
		return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json").WithHint("%s", detail)
	}
	// surrogates: json.Valid takes any \uXXXX
	for i := 0; i+1 < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		for i++; i < len(text) && text[i] != '"'; i++ {
			if text[i] != '\\' {
				continue
			}
			i++
			if text[i] != 'u' {
				continue
			}
			r := hex4(text[i+1 : i+5])
			i += 4
			switch {
			case utf16.IsSurrogate(rune(r)) && r < 0xdc00:
				if i+6 < len(text) && text[i+1] == '\\' && text[i+2] == 'u' {
					if lo := hex4(text[i+3 : i+7]); lo >= 0xdc00 && lo <= 0xdfff {
						i += 6
						continue
					}
				}
				return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json").
					WithHint("Unicode high surrogate must not follow a high surrogate.")
			case r >= 0xdc00 && r <= 0xdfff:
				return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json").
					WithHint("Unicode low surrogate must follow a high surrogate.")
			}
		}
	}
	return nil
}

// hex4 is the value of four hexadecimal digits (json.Valid has checked
// them).
func hex4(b []byte) int {
	n, _ := strconv.ParseUint(string(b), 16, 32)
	return int(n)
}

// jsonType is the rule of json (token i): the type is JSONType where the
// word is visibly a type (after ::, before a string literal, as CAST's
// target and as a column's type), as nameType decides for name.
func jsonType(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) == sqltext.Open || p.isOp(i+1, ".") {
		return
	}
	if p.isOp(i-1, ":") && p.isOp(i-2, ":") || p.kind(i+1) == sqltext.String && !p.isWord(i-1, "as") ||
		p.castTarget(i) || p.columnType(i) {
		p.replace(p.toks[i].Start, p.toks[i].End, JSONType)
	}
}

// jsonSpan returns the text of the JSON value starting at s[i] (after
// any whitespace) and the index after it; s is valid JSON.
func jsonSpan(s string, i int) (int, int) {
	i = skipJSONSpace(s, i)
	start := i
	if i >= len(s) {
		return start, i
	}
	switch s[i] {
	case '"':
		return start, stringEnd(s, i)
	case '{', '[':
		depth := 0
		for ; i < len(s); i++ {
			switch s[i] {
			case '"':
				i = stringEnd(s, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return start, i + 1
				}
			}
		}
		return start, i
	}
	for i < len(s) && !strings.ContainsRune(" \t\r\n,]}:", rune(s[i])) {
		i++
	}
	return start, i
}

// stringEnd is the index after the JSON string starting at s[i].
func stringEnd(s string, i int) int {
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// jsonField returns the text of the member key of the object s (the last
// of duplicate keys, PostgreSQL's operative one), ok false when s is no
// object or has no such key.
func jsonField(s, key string) (string, bool) {
	i := skipJSONSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return "", false
	}
	i++
	var found string
	ok := false
	for {
		i = skipJSONSpace(s, i)
		if i >= len(s) || s[i] == '}' {
			return found, ok
		}
		ks, ke := jsonSpan(s, i)
		var k string
		if json.Unmarshal([]byte(s[ks:ke]), &k) != nil {
			return "", false
		}
		i = skipJSONSpace(s, ke)
		if i >= len(s) || s[i] != ':' {
			return "", false
		}
		vs, ve := jsonSpan(s, i+1)
		if k == key {
			found, ok = s[vs:ve], true
		}
		i = skipJSONSpace(s, ve)
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
}

// jsonElements returns the text of each element of the array s, ok false
// when s is no array.
func jsonElements(s string) ([]string, bool) {
	i := skipJSONSpace(s, 0)
	if i >= len(s) || s[i] != '[' {
		return nil, false
	}
	i++
	var out []string
	for {
		i = skipJSONSpace(s, i)
		if i >= len(s) || s[i] == ']' {
			return out, true
		}
		vs, ve := jsonSpan(s, i)
		out = append(out, s[vs:ve])
		i = skipJSONSpace(s, ve)
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
}

// jsonIndex returns the text of element n of the array s (negative: from
// the end), ok false when there is none.
func jsonIndex(s string, n int64) (string, bool) {
	els, ok := jsonElements(s)
	if !ok {
		return "", false
	}
	if n < 0 {
		n += int64(len(els))
	}
	if n < 0 || n >= int64(len(els)) {
		return "", false
	}
	return els[n], true
}

// jsonAsText is the text ->> gives of a json value's text: a string
// unquoted, null as NULL, anything else as written.
func jsonAsText(v string) any {
	switch {
	case v == "null":
		return nil
	case strings.HasPrefix(v, `"`):
		var s string
		if json.Unmarshal([]byte(v), &s) != nil {
			return v
		}
		return s
	}
	return v
}

// jsonPathText follows the path (keys of objects, indexes of arrays) from
// the json text s, ok false when it leads nowhere.
func jsonPathText(s string, path []string) (string, bool) {
	cur := strings.TrimSpace(s)
	for _, e := range path {
		i := skipJSONSpace(cur, 0)
		if i >= len(cur) {
			return "", false
		}
		var ok bool
		switch cur[i] {
		case '{':
			cur, ok = jsonField(cur, e)
		case '[':
			n, err := strconv.ParseInt(e, 10, 64)
			if err != nil {
				return "", false
			}
			cur, ok = jsonIndex(cur, n)
		}
		if !ok {
			return "", false
		}
	}
	return cur, true
}

// jsonKeyPath is the path a key of -> or ->> names in DuckDB's
// json_extract: '$' the whole value, '/a/b' a JSON pointer (pgcompat's
// jsonKey writes a key that begins with $ or / as one), anything else the
// key itself.
func jsonKeyPath(key string) []string {
	switch {
	case key == "$":
		return nil
	case strings.HasPrefix(key, "/"):
		parts := strings.Split(key[1:], "/")
		for i, e := range parts {
			parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(e)
		}
		return parts
	}
	return []string{key}
}

// jsonFunctions are the overloads of json's operators on its text: ->
// and ->> of a key or an index (added to DuckDB's json_extract,
// json_extract_string and ->>), and __vsql_path and __vsql_path_text,
// behind #> and #>> (pg_path and pg_path_text), of json, jsonb and text:
// the element's text as the value holds it (pgwire prints jsonb's in
// jsonb's form).
func jsonFunctions() map[string][]engineFunc {
	str := func(v driver.Value) string { s, _ := v.(string); return s }
	field := func(a []driver.Value) (string, bool) { return jsonPathText(str(a[0]), jsonKeyPath(str(a[1]))) }
	index := func(a []driver.Value) (string, bool) {
		var n int64
		switch x := a[1].(type) {
		case int64:
			n = x
		case int32:
			n = int64(x)
		}
		return jsonIndex(str(a[0]), n)
	}
	path := func(a []driver.Value) (string, bool) {
		var p []string
		if x, ok := a[2].([]any); ok {
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return "", false // a NULL element
				}
				p = append(p, s)
			}
		}
		return jsonPathText(str(a[1]), p)
	}
	asJSON := func(f func([]driver.Value) (string, bool)) func([]driver.Value) (any, error) {
		return func(a []driver.Value) (any, error) {
			if v, ok := f(a); ok {
				return v, nil
			}
			return nil, nil
		}
	}
	asText := func(f func([]driver.Value) (string, bool)) func([]driver.Value) (any, error) {
		return func(a []driver.Value) (any, error) {
			if v, ok := f(a); ok {
				return jsonAsText(v), nil
			}
			return nil, nil
		}
	}
	const txt, i32, i64, list = "VARCHAR", "INTEGER", "BIGINT", "VARCHAR[]"
	text := []engineFunc{{in: []string{JSONType, txt}, out: txt, run: asText(field)},
		{in: []string{JSONType, i32}, out: txt, run: asText(index)},
		{in: []string{JSONType, i64}, out: txt, run: asText(index)}}
	// the paths' first argument only chooses the overload (the value's
	// type); the second is its text (duckdb-go hands a JSON argument out
	// decoded, its numbers as float64), the third the path
	var paths, pathTexts []engineFunc
	for _, t := range []struct{ in, out string }{{JSONType, JSONType}, {"JSON", "JSON"}, {txt, "JSON"}} {
		run := asJSON(path)
		if t.out == "JSON" {
			run = func(a []driver.Value) (any, error) {
				if v, ok := path(a); ok {
					return json.RawMessage(v), nil // duckdb-go marshals a JSON result
				}
				return nil, nil
			}
		}
		paths = append(paths, engineFunc{in: []string{t.in, txt, list}, out: t.out, run: run})
		pathTexts = append(pathTexts, engineFunc{in: []string{t.in, txt, list}, out: txt, run: asText(path)})
	}
	return map[string][]engineFunc{
		"json_extract": {{in: []string{JSONType, txt}, out: JSONType, run: asJSON(field)},
			{in: []string{JSONType, i32}, out: JSONType, run: asJSON(index)},
			{in: []string{JSONType, i64}, out: JSONType, run: asJSON(index)}},
		"json_extract_string": text,
		"->>":                 text,
		"__vsql_path":         paths,
		"__vsql_path_text":    pathTexts,
	}
}
