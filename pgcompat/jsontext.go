package pgcompat

import (
	"database/sql/driver"
	"encoding/json"
	"strconv"
	"strings"

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

// The types of json(b)_each(_text)'s records in a select list.
const (
	jsonPairs  = "STRUCT(key VARCHAR, value " + JSONType + ")[]"
	jsonbPairs = "STRUCT(key VARCHAR, value JSON)[]"
	textPairs  = "STRUCT(key VARCHAR, value VARCHAR)[]"
)

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
// reads it (RFC 8259; a \u escape of a lone surrogate is taken, as
// PostgreSQL's json takes it), with PostgreSQL's error (22P02) if not.
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
	return nil
}

// jsonType is the rule of json (token i): the type is JSONType where the
// word is visibly a type (after ::, before a string literal, as CAST's
// target and as the type of a table's column), as nameType decides for
// name. The fields of composite types and of the column lists of
// json_to_record and its kin stay DuckDB's JSON, which the record
// functions (records.go) fill with the member's JSON.
func jsonType(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) == sqltext.Open || p.isOp(i+1, ".") {
		return
	}
	if p.isOp(i-1, ":") && p.isOp(i-2, ":") || p.kind(i+1) == sqltext.String && !p.isWord(i-1, "as") ||
		p.castTarget(i) || p.columnType(i) && p.tableStatement() {
		p.replace(p.toks[i].Start, p.toks[i].End, JSONType)
	}
}

// tableStatement reports whether the statement is CREATE … TABLE or
// ALTER TABLE (TABLE before any parenthesis).
func (p *pass) tableStatement() bool {
	if !p.isWord(0, "create") && !p.isWord(0, "alter") {
		return false
	}
	for j := 1; j < len(p.toks) && j < 6; j++ {
		if p.isWord(j, "table") {
			return true
		}
		if p.kind(j) != sqltext.Word {
			return false
		}
	}
	return false
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

// eachMember calls f with the key (as written, quotes included) and the
// value's text of each member of the object s, in order.
func eachMember(s string, f func(key, value string)) {
	i := skipJSONSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return
	}
	i++
	for {
		i = skipJSONSpace(s, i)
		if i >= len(s) || s[i] != '"' {
			return
		}
		ke := stringEnd(s, i)
		key := s[i:ke]
		i = skipJSONSpace(s, ke)
		if i >= len(s) || s[i] != ':' {
			return
		}
		vs, ve := jsonSpan(s, i+1)
		f(key, s[vs:ve])
		i = skipJSONSpace(s, ve)
		if i < len(s) && s[i] == ',' {
			i++
		}
	}
}

// jsonKeyIs reports whether the JSON string key (quotes included) is
// name.
func jsonKeyIs(key, name string) bool {
	if !strings.Contains(key, `\`) {
		return len(key) == len(name)+2 && key[1:len(key)-1] == name
	}
	var k string
	return json.Unmarshal([]byte(key), &k) == nil && k == name
}

// jsonMembers returns the keys and the values' text of the object s, in
// order and duplicates included, ok false when s is no object.
func jsonMembers(s string) (keys, values []string, ok bool) {
	i := skipJSONSpace(s, 0)
	if i >= len(s) || s[i] != '{' {
		return nil, nil, false
	}
	i++
	for {
		i = skipJSONSpace(s, i)
		if i >= len(s) || s[i] == '}' {
			return keys, values, true
		}
		ks, ke := jsonSpan(s, i)
		var k string
		if json.Unmarshal([]byte(s[ks:ke]), &k) != nil {
			return nil, nil, false
		}
		i = skipJSONSpace(s, ke)
		if i >= len(s) || s[i] != ':' {
			return nil, nil, false
		}
		vs, ve := jsonSpan(s, i+1)
		keys, values = append(keys, k), append(values, s[vs:ve])
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
// unquoted, null as NULL, anything else as written. A string holding
// \u0000 has no text (PostgreSQL's 22P05; see jsonText).
func jsonAsText(v string) any {
	switch {
	case v == "null":
		return nil
	case strings.HasPrefix(v, `"`):
		if !strings.Contains(v, `\`) {
			return v[1 : len(v)-1]
		}
		if hasNulEscape(v) {
			return errNulEscape
		}
		var s string
		if json.Unmarshal([]byte(v), &s) != nil {
			return v
		}
		return s
	}
	return v
}

// jsonPathText follows the path (keys of objects, indexes of arrays) from
// the json text s, ok false when it leads nowhere. Of duplicate keys,
// every member is followed and the last that reaches the end of the path
// answers, as PostgreSQL's walk of json's text does.
func jsonPathText(s string, path []string) (string, bool) {
	cur := strings.TrimSpace(s)
	if len(path) == 0 {
		return cur, true
	}
	i := skipJSONSpace(cur, 0)
	if i >= len(cur) {
		return "", false
	}
	switch cur[i] {
	case '{':
		var found string
		ok := false
		eachMember(cur, func(key, value string) {
			if jsonKeyIs(key, path[0]) {
				if v, reached := jsonPathText(value, path[1:]); reached {
					found, ok = v, true
				}
			}
		})
		return found, ok
	case '[':
		n, err := strconv.ParseInt(path[0], 10, 64)
		if err != nil {
			return "", false
		}
		v, ok := jsonIndex(cur, n)
		if !ok {
			return "", false
		}
		return jsonPathText(v, path[1:])
	}
	return "", false
}

// errNulEscape is PostgreSQL's error for the text of a JSON string that
// holds \u0000, which text cannot.
var errNulEscape = vsqlerr.New(vsqlerr.UntranslatableCharacter, "unsupported Unicode escape sequence").
	WithHint("\\u0000 cannot be converted to text.")

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
	// jsonText is jsonAsText's value, or its error
	jsonText := func(v string) (any, error) {
		t := jsonAsText(v)
		if err, ok := t.(error); ok {
			return nil, err
		}
		return t, nil
	}
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
		if x, ok := a[1].([]any); ok {
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return "", false // a NULL element
				}
				p = append(p, s)
			}
		}
		return jsonPathText(str(a[0]), p)
	}
	asJSON := func(f func([]driver.Value) (string, bool)) func([]driver.Value) (any, error) {
		return func(a []driver.Value) (any, error) {
			if err := checkSurrogates(str(a[0])); err != nil {
				return nil, err
			}
			if v, ok := f(a); ok {
				return v, nil
			}
			return nil, nil
		}
	}
	asText := func(f func([]driver.Value) (string, bool)) func([]driver.Value) (any, error) {
		return func(a []driver.Value) (any, error) {
			if err := checkSurrogates(str(a[0])); err != nil {
				return nil, err
			}
			if v, ok := f(a); ok {
				return jsonText(v)
			}
			return nil, nil
		}
	}
	const txt, i32, i64, list = "VARCHAR", "INTEGER", "BIGINT", "VARCHAR[]"
	text := []engineFunc{{in: []string{JSONType, txt}, out: txt, run: asText(field)},
		{in: []string{JSONType, i32}, out: txt, run: asText(index)},
		{in: []string{JSONType, i64}, out: txt, run: asText(index)}}
	// #> and #>> of json (its text as written) and of jsonb or text (a
	// JSON argument converts to VARCHAR: duckdb-go would decode it)
	var paths, pathTexts []engineFunc
	for _, t := range []struct{ in, out string }{{JSONType, JSONType}, {txt, "JSON"}} {
		run, textRun := asJSON(path), asText(path)
		if t.out == "JSON" {
			run = func(a []driver.Value) (any, error) {
				if v, ok := path(a); ok {
					return json.RawMessage(v), nil // duckdb-go marshals a JSON result
				}
				return nil, nil
			}
			// jsonb's #>>: an object or array in jsonb's form
			textRun = func(a []driver.Value) (any, error) {
				v, ok := path(a)
				if !ok {
					return nil, nil
				}
				if v != "" && (v[0] == '{' || v[0] == '[') {
					return string(AppendJSONBText(nil, []byte(v))), nil
				}
				return jsonText(v)
			}
		}
		paths = append(paths, engineFunc{in: []string{t.in, list}, out: t.out, run: run})
		pathTexts = append(pathTexts, engineFunc{in: []string{t.in, list}, out: txt, run: textRun})
	}
	elements := func(f func(string) any) func(a []driver.Value) (any, error) {
		return func(a []driver.Value) (any, error) {
			s := str(a[0])
			if err := checkSurrogates(s); err != nil {
				return nil, err
			}
			els, ok := jsonElements(s)
			if !ok {
				what := "a scalar"
				if i := skipJSONSpace(s, 0); i < len(s) && s[i] == '{' {
					what = "an object"
				}
				return nil, invalidArgument("cannot extract elements from %s", what)
			}
			out := make([]any, len(els))
			for k, e := range els {
				if out[k] = f(e); out[k] != nil {
					if err, ok := out[k].(error); ok {
						return nil, err
					}
				}
			}
			return out, nil
		}
	}
	members := func(f func(k, v string) any) func(a []driver.Value) (any, error) {
		return func(a []driver.Value) (any, error) {
			s := str(a[0])
			if err := checkSurrogates(s); err != nil {
				return nil, err
			}
			keys, values, ok := jsonMembers(s)
			if !ok {
				what := "a scalar"
				if i := skipJSONSpace(s, 0); i < len(s) && s[i] == '[' {
					what = "an array"
				}
				name := str(a[1])
				switch {
				case strings.HasSuffix(name, "_object_keys"):
					return nil, invalidArgument("cannot call %s on %s", name, what)
				case strings.HasPrefix(name, "jsonb"):
					return nil, invalidArgument("cannot call %s on a non-object", name)
				}
				if what == "an array" {
					return nil, invalidArgument("cannot deconstruct an array as an object")
				}
				return nil, invalidArgument("cannot deconstruct a scalar")
			}
			out := make([]any, len(keys))
			for k := range keys {
				if out[k] = f(keys[k], values[k]); out[k] != nil {
					if err, ok := out[k].(error); ok {
						return nil, err
					}
				}
			}
			return out, nil
		}
	}
	raw := func(v string) any { return v }
	// pairs: json(b)_each(_text) in a select list, one record a member
	pairs := func(value func(string) any) func(a []driver.Value) (any, error) {
		f := members(func(k, v string) any {
			x := value(v)
			if err, ok := x.(error); ok {
				return err
			}
			return map[string]any{"key": k, "value": x}
		})
		return f
	}
	return map[string][]engineFunc{
		// json_array_elements(_text), json_each(_text), json_object_keys
		// (jsonsrf.go): the elements and members as written
		"__vsql_json_elements":      {{in: []string{txt}, out: JSONType + "[]", run: elements(raw)}},
		"__vsql_json_elements_text": {{in: []string{txt}, out: list, run: elements(jsonAsText)}},
		"__vsql_json_keys":          {{in: []string{txt, txt}, out: list, run: members(func(k, _ string) any { return k })}},
		"__vsql_json_values":        {{in: []string{txt, txt}, out: JSONType + "[]", run: members(func(_, v string) any { return v })}},
		"__vsql_json_pairs":         {{in: []string{txt, txt}, out: jsonPairs, run: pairs(raw)}},
		"__vsql_jsonb_pairs":        {{in: []string{txt, txt}, out: jsonbPairs, run: pairs(func(v string) any { return json.RawMessage(v) })}},
		"__vsql_json_pairs_text":    {{in: []string{txt, txt}, out: textPairs, run: pairs(jsonAsText)}},
		"__vsql_json_values_text":   {{in: []string{txt, txt}, out: list, run: members(func(_, v string) any { return jsonAsText(v) })}},
		// (the third argument, the PostgreSQL function's name, is for the
		// result column's: server/colnames.go)
		"__vsql_pgjson": {{in: []string{txt, "BOOLEAN", txt}, out: JSONType, run: func(a []driver.Value) (any, error) {
			pretty, _ := a[1].(bool)
			return builtJSON(str(a[0]), pretty), nil
		}}},
		"__vsql_json_strip_nulls": {{in: []string{txt}, out: txt, run: func(a []driver.Value) (any, error) {
			return string(stripNullsText(nil, str(a[0]))), nil
		}}},
		"__vsql_jsonb_text": {{in: []string{txt}, out: txt, run: func(a []driver.Value) (any, error) {
			return string(AppendJSONBText(nil, []byte(str(a[0])))), nil
		}}},
		"json_extract": {{in: []string{JSONType, txt}, out: JSONType, run: asJSON(field)},
			{in: []string{JSONType, i32}, out: JSONType, run: asJSON(index)},
			{in: []string{JSONType, i64}, out: JSONType, run: asJSON(index)}},
		"json_extract_string": text,
		"->>":                 text,
		"__vsql_path":         paths,
		"__vsql_path_text":    pathTexts,
	}
}

func init() {
	setup = append(setup,
		// a value's JSON text, as json_build_object and its kin put it
		// in a json: json as written, jsonb in jsonb's form, SQL NULL as
		// null, a timestamp in ISO 8601 (2014-05-28T12:22:35.6), anything
		// else to_json's
		`CREATE OR REPLACE MACRO `+schema+`.pg_json_text(v) AS CASE WHEN v IS NULL THEN 'null'
			WHEN typeof(v) = '`+JSONType+`' THEN CAST(v AS VARCHAR)
			WHEN typeof(v) = 'JSON' THEN __vsql_jsonb_text(CAST(v AS VARCHAR))
			WHEN typeof(v) = 'TIMESTAMP' THEN '"' || replace(CAST(v AS VARCHAR), ' ', 'T') || '"'
			ELSE CAST(to_json(v) AS VARCHAR) END`,
		// an element of json_agg: an array or a composite on a line of
		// its own (the first one's line break is taken out)
		`CREATE OR REPLACE MACRO `+schema+`.pg_json_agg_text(v) AS CASE WHEN v IS NOT NULL AND (typeof(v) LIKE '%]' OR typeof(v) LIKE 'STRUCT%')
			THEN chr(10) || ' ' || `+schema+`.pg_json_text(v) ELSE `+schema+`.pg_json_text(v) END`,
		// the same in a jsonb (printed in jsonb's form)
		`CREATE OR REPLACE MACRO `+schema+`.pg_jsonb_text(v) AS CASE WHEN v IS NULL THEN 'null'
			WHEN typeof(v) IN ('`+JSONType+`', 'JSON') THEN CAST(v AS VARCHAR)
			ELSE CAST(to_json(v) AS VARCHAR) END`,
		// a key of json(b)_build_object: a scalar's text
		`CREATE OR REPLACE MACRO `+schema+`.pg_json_build_key(k) AS CASE WHEN k IS NULL THEN error('[vsql:null_value_not_allowed] argument cannot be null')
			WHEN typeof(k) LIKE '%]' OR typeof(k) IN ('JSON', '`+JSONType+`') OR typeof(k) LIKE 'STRUCT%' OR typeof(k) LIKE 'MAP%'
			THEN error('[vsql:invalid_argument] key value must be scalar, not array, composite, or json')
			ELSE `+schema+`.pg_json_key(k) END`,
		// jsonb_build_object and jsonb_build_array: the text as jsonb
		`CREATE OR REPLACE MACRO `+schema+`.pg_jsonb_built(t, name) AS CAST(t AS JSON)`,
		// to_json(x), row_to_json(x [, pretty]), array_to_json(x [, pretty]):
		// NULL stays NULL
		`CREATE OR REPLACE MACRO `+schema+`.pg_json_nullable_text(v) AS CASE WHEN v IS NULL THEN NULL ELSE `+schema+`.pg_json_text(v) END`,
	)
}

// jsonBuild is the rule of json_build_object and json_build_array (json,
// PostgreSQL's spacing: {"a" : 1, "b" : [1,2]}), of json_object and
// json_array (jsonb_build_object and jsonb_build_array, as sqltext names
// them: jsonb), and of to_json, row_to_json and array_to_json (json):
// each builds the text of the value from its arguments' JSON text
// (pg_json_text), so that a json argument keeps its text:
//
//	json_build_object(k, v, …) → __vsql_pgjson('{' || pg_json_build_key(k) || ' : ' || pg_json_text(v) || … || '}', false, 'json_build_object')
//
// A call with VARIADIC is variadicCall's.
func jsonBuild(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	name := strings.ToLower(p.text(i))
	var commas []int
	depth := 0
	for j := i + 2; j < closing; j++ {
		switch {
		case p.kind(j) == sqltext.Open, p.isOp(j, "["):
			depth++
		case p.kind(j) == sqltext.Close, p.isOp(j, "]"):
			depth--
		case depth == 0 && p.isOp(j, ","):
			commas = append(commas, j)
		case depth == 0 && p.isWord(j, "variadic"):
			return
		}
	}
	empty := closing == i+2
	switch name {
	case "to_json", "row_to_json", "array_to_json":
		if empty || len(commas) > 1 || name == "to_json" && len(commas) > 0 {
			return
		}
		p.replace(p.toks[i].Start, p.toks[i+1].End, "__vsql_pgjson("+schema+".pg_json_nullable_text(")
		if len(commas) == 0 {
			p.replace(p.toks[closing].Start, p.toks[closing].End, "), false, '"+name+"')")
		} else {
			p.replace(p.toks[commas[0]].Start, p.toks[commas[0]].End, "), ")
			p.replace(p.toks[closing].Start, p.toks[closing].End, ", '"+name+"')")
		}
		// an anonymous row(…): PostgreSQL names its fields f1, f2, …
		r := i + 2
		if p.isWord(r, "row") && p.kind(r+1) == sqltext.Open && p.matchForward(r+1) > r+2 {
			if end := p.matchForward(r + 1); len(commas) == 0 && end == closing-1 || len(commas) > 0 && end == commas[0]-1 {
				p.replace(p.toks[r].Start, p.toks[r].End, "struct_pack")
				for k, a := range p.splitArgs(r+1, end) {
					p.insert(p.toks[a[0]].Start, "f"+strconv.Itoa(k+1)+" := ")
				}
			}
		}
		return
	}
	object := strings.HasSuffix(name, "_object")
	jsonb := name == "json_object" || name == "json_array"
	open, closeText, colon, comma := "'{'", "'}'", "' : '", "', '"
	if !object {
		open, closeText = "'['", "']'"
	}
	if jsonb {
		colon = "':'"
	}
	head, tail := "__vsql_pgjson(", ", false, '"+name+"')"
	if jsonb {
		// (the name, PostgreSQL's, is for the result column's)
		head, tail = schema+".pg_jsonb_built(", ", '"+strings.Replace(name, "json_", "jsonb_build_", 1)+"')"
	}
	if empty {
		p.replace(p.toks[i].Start, p.toks[closing].End, head+open[:2]+closeText[1:]+tail)
		return
	}
	if object && len(commas)%2 == 0 {
		p.replace(p.toks[i].Start, p.toks[i+1].End,
			"concat_ws('', error('[vsql:invalid_argument] argument list must have even number of elements'), ")
		return
	}
	value := schema + ".pg_json_text("
	if jsonb {
		value = schema + ".pg_jsonb_text("
	}
	key := schema + ".pg_json_build_key("
	first := value
	if object {
		first = key
	}
	p.replace(p.toks[i].Start, p.toks[i+1].End, head+open+" || "+first)
	for k, c := range commas {
		next := value
		sep := comma
		if object {
			if k%2 == 0 {
				sep = colon
			} else {
				next = key
			}
		}
		p.replace(p.toks[c].Start, p.toks[c].End, ") || "+sep+" || "+next)
	}
	p.replace(p.toks[closing].Start, p.toks[closing].End, ") || "+closeText+tail)
}

// builtJSON is the json text of a value DuckDB's to_json wrote: a float's
// NaN, Infinity and -Infinity (which to_json writes bare) as strings, as
// PostgreSQL's to_json writes them; pretty puts each member or element of
// the top level on a line of its own, as row_to_json(x, true) and
// array_to_json(x, true) do.
func builtJSON(s string, pretty bool) string {
	var b strings.Builder
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			end := stringEnd(s, i)
			b.WriteString(s[i:end])
			i = end - 1
			continue
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		case c == ',' && depth == 1 && pretty:
			b.WriteString(",\n ")
			continue
		case c == 'N' || c == 'I' || c == '-' && i+1 < len(s) && s[i+1] == 'I':
			if w := nonFinite(s[i:]); w != "" {
				b.WriteString(`"` + w + `"`)
				i += len(w) - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// nonFinite is the float word s begins with (NaN, Infinity, -Infinity),
// "" if none.
func nonFinite(s string) string {
	for _, w := range []string{"NaN", "Infinity", "-Infinity"} {
		if strings.HasPrefix(s, w) {
			return w
		}
	}
	return ""
}

// stripNullsText is json_strip_nulls of the json text s: the members
// whose value is null left out, at every depth, the rest compact (no
// space between tokens), keys and scalars as written, as PostgreSQL
// writes it.
func stripNullsText(b []byte, s string) []byte {
	i := skipJSONSpace(s, 0)
	if i >= len(s) {
		return b
	}
	switch s[i] {
	case '{':
		keys, values, _ := jsonMembers(s)
		b = append(b, '{')
		n := 0
		for k := range keys {
			if values[k] == "null" {
				continue
			}
			if n > 0 {
				b = append(b, ',')
			}
			n++
			b = append(appendJSONString(b, keys[k]), ':')
			b = stripNullsText(b, values[k])
		}
		return append(b, '}')
	case '[':
		els, _ := jsonElements(s)
		b = append(b, '[')
		for k, e := range els {
			if k > 0 {
				b = append(b, ',')
			}
			b = stripNullsText(b, e)
		}
		return append(b, ']')
	}
	return append(b, strings.TrimSpace(s)...)
}

// hasNulEscape reports whether the JSON string s holds the escape
// \u0000 (not an escaped backslash followed by u0000).
func hasNulEscape(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] == 'u' && strings.HasPrefix(s[i+2:], "0000") {
			return true
		}
		i++
	}
	return false
}

// checkSurrogates is PostgreSQL's check of the \u escapes of a json text
// its operators and functions make (json's input takes any): a high
// surrogate followed by a low one, no other surrogate (22P02).
func checkSurrogates(s string) error {
	if !strings.Contains(s, `\u`) {
		return nil
	}
	bad := func(detail string) error {
		return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json").WithHint("%s", detail)
	}
	hex := func(i int) int {
		if i+4 > len(s) {
			return -1
		}
		n, err := strconv.ParseUint(s[i:i+4], 16, 32)
		if err != nil {
			return -1
		}
		return int(n)
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		if s[i+1] != 'u' {
			i++
			continue
		}
		r := hex(i + 2)
		switch {
		case r >= 0xd800 && r <= 0xdbff:
			if i+7 < len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
				if lo := hex(i + 8); lo >= 0xdc00 && lo <= 0xdfff {
					i += 11
					continue
				}
				if lo := hex(i + 8); lo >= 0xd800 && lo <= 0xdbff {
					return bad("Unicode high surrogate must not follow a high surrogate.")
				}
			}
			return bad("Unicode low surrogate must follow a high surrogate.")
		case r >= 0xdc00 && r <= 0xdfff:
			return bad("Unicode low surrogate must follow a high surrogate.")
		}
		i += 5
	}
	return nil
}
