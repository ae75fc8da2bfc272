package pgcompat

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's json_populate_record and its kin. The record
// type is the base value's own DuckDB type: typeof(base), which DuckDB
// folds to a constant at bind time, is the structure json_transform_strict
// converts to. __vsql_json_populate builds the JSON object that transform
// reads: every field of the type (the keys of to_json of the base, or of
// an all-NULL struct when the base is NULL), its value taken from the
// argument when it has the key, else from the base; extra keys dropped.
// A field of a scalar type gets its JSON value as text (43.2 → "43.2"),
// so that DuckDB's cast from text refuses what PostgreSQL's input
// function refuses ("43.2" as an integer); json fields keep the value;
// arrays and nested records are converted element by element
// (convertField).

// recordFunctions are the PostgreSQL names the rule recordCall rewrites.
var recordFunctions = map[string]bool{
	"json_populate_record": true, "jsonb_populate_record": true, "json_populate_recordset": true, "jsonb_populate_recordset": true,
	"json_to_record": true, "jsonb_to_record": true, "json_to_recordset": true, "jsonb_to_recordset": true,
}

// recordCall rewrites a call of one of recordFunctions, f(base, j), into
// the expression that gives the record, a DuckDB struct of the base's
// type (a list of them for a recordset):
//
//	json_transform_strict(__vsql_json_populate(typeof(base),
//	    CAST(to_json(COALESCE(base, json_transform('{}', to_json(typeof(base))))) AS VARCHAR),
//	    COALESCE(CAST(j AS VARCHAR), '{}'), 'f'), to_json(typeof(base)))
//
// It is written out in the statement, not a macro: DuckDB binds a macro's
// body when the macro is created, and json_transform's structure must be
// a constant then. The base keeps its place (other rules' edits in it
// stand); its copies are rewritten on their own. In FROM (after FROM,
// JOIN, LATERAL or a comma of a FROM list) the call becomes a LATERAL
// subquery whose columns are the record's fields (unnest of the struct;
// max_depth 2 for a set); the column definition list of json_to_record(j)
// AS x(a int, …) is the struct type, CAST(NULL AS STRUCT(a int, …)) the
// base, and x the subquery's alias. In a select list the call is the
// struct (a composite value), a recordset unnest of the list, one row
// each.
func recordCall(p *pass, i int) {
	name := strings.ToLower(p.text(i))
	if !recordFunctions[name] || p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	args := p.splitArgs(i+1, closing)
	set := strings.HasSuffix(name, "set")
	toRecord := strings.Contains(name, "_to_record")
	from := p.fromItem(i - 1)
	if toRecord && (len(args) != 1 || !from) || !toRecord && len(args) != 2 {
		return // PostgreSQL needs a column definition list for json_to_record: left for DuckDB to refuse
	}
	if !toRecord && p.nullRecord(args[0]) {
		// null::record: the type is the column definition list, as for
		// json_to_record; PostgreSQL refuses it without one
		if !from {
			p.replace(p.toks[i].Start, p.toks[closing].End, "error('[vsql:feature_not_supported] could not determine row type for result of "+name+"')")
			return
		}
		toRecord = true
	}
	var typ, base string
	defsStart, defsEnd, alias := -1, -1, ""
	if toRecord {
		// json_to_record(j) [AS] x(a int, b text, …); json_populate_record(null::record, j) AS (a int, …)
		j := closing + 1
		if p.isWord(j, "as") {
			j++
		}
		switch {
		case (p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted) && p.kind(j+1) == sqltext.Open:
			defsStart, alias = j+1, p.text(j)
		case p.kind(j) == sqltext.Open && j > closing+1:
			defsStart, alias = j, name
		default:
			return
		}
		defsEnd = p.matchForward(defsStart)
		if defsEnd < 0 || defsEnd == defsStart+1 {
			return
		}
		defs := rewrittenCopy("CREATE TABLE t (", p.src[p.toks[defsStart+1].Start:p.toks[defsEnd-1].End], ")")
		typ = "typeof(CAST(NULL AS STRUCT(" + defs + ")))"
	} else {
		b := args[0]
		copied := rewrittenCopy("SELECT ", p.src[p.toks[b[0]].Start:p.toks[b[1]].End], "")
		if p.isWord(b[0], "row") && p.kind(b[0]+1) == sqltext.Open && p.matchForward(b[0]+1) == b[1] && b[1] > b[0]+2 {
			// an anonymous row(…): PostgreSQL names its fields f1, f2, …
			var parts []string
			for k, a := range p.splitArgs(b[0]+1, b[1]) {
				f := fmt.Sprintf("f%d := ", k+1)
				p.insert(p.toks[a[0]].Start, f)
				parts = append(parts, f+rewrittenCopy("SELECT ", p.src[p.toks[a[0]].Start:p.toks[a[1]].End], ""))
			}
			p.replace(p.toks[b[0]].Start, p.toks[b[0]].End, "struct_pack")
			copied = "struct_pack(" + strings.Join(parts, ", ") + ")"
		}
		typ = "typeof(" + copied + ")"
		base = "COALESCE("
	}
	structure := "to_json(" + typ + ")"
	jOpen, jClose := "COALESCE(CAST(", " AS VARCHAR), '{}')"
	if set {
		structure = "to_json([" + typ + "])"
		jOpen, jClose = "CAST(", " AS VARCHAR)"
	}
	open := "json_transform_strict(__vsql_json_populate(" + typ + ", CAST(to_json("
	tail := ", '" + name + "'), " + structure + ")"
	empty := "json_transform('{}', to_json(" + typ + "))"
	switch {
	case from:
		wrap, unwrap := "(SELECT unnest(", ")"
		if set {
			unwrap = ", max_depth := 2)"
		}
		if !p.isWord(i-1, "lateral") {
			wrap = "LATERAL " + wrap
		}
		open, tail = wrap+open, tail+unwrap+")"
	case set && p.inSelectList(i-1):
		open, tail = "unnest("+open, tail+")"
	}
	if p.wholeSelectItem(i, closing) {
		tail += " AS " + name
	}
	if toRecord {
		p.replace(p.toks[i].Start, p.toks[args[len(args)-1][0]].Start, open+empty+") AS VARCHAR), "+jOpen)
		p.replace(p.toks[closing].Start, p.toks[defsEnd].End, jClose+tail+" "+alias)
		return
	}
	p.replace(p.toks[i].Start, p.toks[i+1].End, open+base)
	p.replace(p.toks[args[0][1]+1].Start, p.toks[args[1][0]].Start, ", "+empty+")) AS VARCHAR), "+jOpen)
	p.replace(p.toks[closing].Start, p.toks[closing].End, jClose+tail)
}

// nullRecord reports whether the argument a is null::record.
func (p *pass) nullRecord(a [2]int) bool {
	return a[1] == a[0]+3 && p.isWord(a[0], "null") && p.isOp(a[0]+1, ":") && p.isOp(a[0]+2, ":") && p.isWord(a[1], "record")
}

// rewrittenCopy is text as Rewrite would write it between prefix and
// suffix (a copy of source text a rule repeats elsewhere).
func rewrittenCopy(prefix, text, suffix string) string {
	out, _ := rewriteCopy(prefix + text + suffix)
	if strings.HasPrefix(out, prefix) && strings.HasSuffix(out, suffix) {
		return out[len(prefix) : len(out)-len(suffix)]
	}
	return text
}

// itemStart reports whether token i is what comes before an item of a
// select list: SELECT, DISTINCT, ALL, or a comma of the list itself (not
// one inside brackets).
func (p *pass) itemStart(i int) bool {
	if p.isWord(i, "select") || p.isWord(i, "distinct") || p.isWord(i, "all") {
		return true
	}
	if !p.isOp(i, ",") {
		return false
	}
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch {
		case p.kind(j) == sqltext.Close, p.isOp(j, "]"):
			depth++
		case p.kind(j) == sqltext.Open, p.isOp(j, "["):
			if depth == 0 {
				return false
			}
			depth--
		case p.kind(j) == sqltext.Semi:
			return false
		case depth == 0 && p.kind(j) == sqltext.Word:
			switch strings.ToLower(p.text(j)) {
			case "select":
				return true
			case "from", "where", "group", "order", "having", "values", "set", "on", "returning", "by":
				return false
			}
		}
	}
	return false
}

// rewriteCopy is Rewrite (a variable: Rewrite's rules include recordCall).
var rewriteCopy func(string) (string, bool)

func init() { rewriteCopy = Rewrite }

// wholeSelectItem reports whether the call from token i to closing is a
// select-list item on its own (PostgreSQL names its column after the
// function).
func (p *pass) wholeSelectItem(i, closing int) bool {
	if !p.itemStart(i - 1) {
		return false
	}
	next := closing + 1
	return next >= len(p.toks) || p.isOp(next, ",") || p.isWord(next, "from") || p.kind(next) == sqltext.Semi ||
		p.kind(next) == sqltext.Close
}

// jsonPopulate is __vsql_json_populate(type, base, j, fn): the JSON text
// json_transform_strict converts to the record type (a JSON array of
// them for a recordset).
func jsonPopulate(a []driver.Value) (any, error) {
	typ, base, js, fn := argText(a[0]), argText(a[1]), argText(a[2]), argText(a[3])
	fields := structFields(typ)
	var tmpl map[string]json.RawMessage
	if err := json.Unmarshal([]byte(base), &tmpl); err != nil || fields == nil {
		return nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "could not determine row type for result of %s", fn)
	}
	jsonb := strings.HasPrefix(fn, "jsonb")
	js = strings.TrimSpace(js)
	if !strings.HasSuffix(fn, "set") {
		return populateOne(fields, tmpl, json.RawMessage(js), jsonb, "populate_composite")
	}
	if !strings.HasPrefix(js, "[") {
		return nil, invalidArgument("cannot call %s on %s", fn, jsonKind(json.RawMessage(js)))
	}
	var elems []json.RawMessage
	if err := json.Unmarshal([]byte(js), &elems); err != nil {
		return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json: %v", err)
	}
	var b strings.Builder
	b.WriteByte('[')
	for k, e := range elems {
		if !bytes.HasPrefix(bytes.TrimSpace(e), []byte("{")) {
			return nil, invalidArgument("argument of %s must be an array of objects", fn)
		}
		s, err := populateOne(fields, tmpl, e, jsonb, fn)
		if err != nil {
			return nil, err
		}
		if k > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s)
	}
	b.WriteByte(']')
	return b.String(), nil
}

// jsonKind names a JSON value's kind as PostgreSQL's messages do.
func jsonKind(v json.RawMessage) string {
	switch s := bytes.TrimSpace(v); {
	case bytes.HasPrefix(s, []byte("{")):
		return "an object"
	case bytes.HasPrefix(s, []byte("[")):
		return "an array"
	}
	return "a scalar"
}

// populateOne merges one JSON object into the base's fields (tmpl: the
// base as JSON; nil for a nested record, whose missing fields are NULL).
func populateOne(fields []structField, tmpl map[string]json.RawMessage, v json.RawMessage, jsonb bool, fn string) (string, error) {
	if !bytes.HasPrefix(bytes.TrimSpace(v), []byte("{")) {
		return "", invalidArgument("cannot call %s on %s", fn, jsonKind(v))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(v, &obj); err != nil {
		return "", vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json: %v", err)
	}
	out := make(map[string]json.RawMessage, len(fields))
	for _, f := range fields {
		val, ok := obj[f.name]
		if !ok {
			if val, ok = tmpl[f.name]; !ok {
				val = json.RawMessage("null")
			}
			out[f.name] = val
			continue
		}
		val, err := convertField(f.typ, val, jsonb)
		if err != nil {
			return "", err
		}
		out[f.name] = val
	}
	b, err := json.Marshal(out)
	return string(b), err
}

// convertField prepares a JSON value for a field of DuckDB type typ: a
// scalar type gets the value's text (checked as PostgreSQL's input
// would), an array type a JSON array whose elements are converted in
// turn, a struct type a JSON object populated as a nested record; json
// and other types keep the value.
func convertField(typ string, val json.RawMessage, jsonb bool) (json.RawMessage, error) {
	val = bytes.TrimSpace(val)
	if len(val) == 0 || string(val) == "null" {
		return json.RawMessage("null"), nil
	}
	switch kindOf(typ) {
	case fieldList:
		if val[0] == '"' {
			return val, nil // text of an array, left to DuckDB's cast
		}
		if val[0] != '[' {
			return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "expected JSON array").
				WithHint("A field of an array type takes a JSON array.")
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(val, &elems); err != nil {
			return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json: %v", err)
		}
		elem := typ[:strings.LastIndexByte(typ, '[')]
		for k, e := range elems {
			c, err := convertField(elem, e, jsonb)
			if err != nil {
				return nil, err
			}
			elems[k] = c
		}
		return json.Marshal(elems)
	case fieldOther:
		if fields := structFields(typ); fields != nil {
			if val[0] == '"' {
				return val, nil // a record literal, left to DuckDB's cast
			}
			s, err := populateOne(fields, nil, val, jsonb, "populate_composite")
			return json.RawMessage(s), err
		}
		return val, nil
	case fieldJSON:
		return val, nil
	case fieldPGJSON:
		return json.Marshal(string(val)) // json: the member's text as written
	}
	var text string
	switch {
	case val[0] == '"':
		_ = json.Unmarshal(val, &text)
	case jsonb:
		text = jsonbText(val)
	default:
		text = string(val)
	}
	if err := checkScalar(typ, text); err != nil {
		return nil, err
	}
	return json.Marshal(text)
}

// jsonbText is a JSON value printed as jsonb prints it: keys shorter
// first, ", " and ": " between items.
func jsonbText(v json.RawMessage) string {
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return string(v)
	}
	return string(AppendJSONB(nil, x))
}

type fieldKind int

const (
	fieldScalar fieldKind = iota
	fieldJSON
	fieldList
	fieldOther  // a struct, map or union: the JSON value as it is
	fieldPGJSON // json (JSONType): the JSON value's text, as a string
)

type structField struct{ name, typ string }

// kindOf classifies a DuckDB type as typeof prints it.
func kindOf(t string) fieldKind {
	switch {
	case strings.HasSuffix(t, "]"):
		return fieldList
	case t == "JSON":
		return fieldJSON
	case t == JSONType:
		return fieldPGJSON
	case strings.HasPrefix(t, "STRUCT(") || strings.HasPrefix(t, "MAP(") || strings.HasPrefix(t, "UNION("):
		return fieldOther
	}
	return fieldScalar
}

// checkScalar refuses text that PostgreSQL's input function of the
// field's type refuses with its own error, where DuckDB's cast would
// raise a different one (or round 43.2 to 43): integers, floats and
// numerics, and dates and timestamps given a JSON array or object.
func checkScalar(typ, text string) error {
	t := strings.TrimSpace(text)
	switch typ {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT":
		if _, err := strconv.ParseInt(t, 10, 64); err != nil && !bigInteger(t) {
			name := map[string]string{"TINYINT": "smallint", "SMALLINT": "smallint", "INTEGER": "integer", "BIGINT": "bigint", "HUGEINT": "numeric"}[typ]
			return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type %s: %q", name, text)
		}
	case "FLOAT", "DOUBLE":
		if _, err := strconv.ParseFloat(t, 64); err != nil && !strings.Contains(err.Error(), "range") {
			name := map[string]string{"FLOAT": "real", "DOUBLE": "double precision"}[typ]
			return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type %s: %q", name, text)
		}
	case "DATE", "TIMESTAMP", "TIMESTAMP WITH TIME ZONE", "TIME":
		if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") || t == "true" || t == "false" {
			name := map[string]string{"DATE": "date", "TIMESTAMP": "timestamp", "TIMESTAMP WITH TIME ZONE": "timestamp with time zone", "TIME": "time"}[typ]
			return vsqlerr.New(vsqlerr.InvalidDatetimeFormat, "invalid input syntax for type %s: %q", name, text).
				WithHint("The field's JSON value must be text PostgreSQL reads as a %s.", name)
		}
	default:
		if strings.HasPrefix(typ, "DECIMAL(") {
			if _, ok := new(big.Float).SetString(t); !ok && !strings.EqualFold(t, "nan") {
				return vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type numeric: %q", text)
			}
		}
	}
	return nil
}

// bigInteger reports whether s is an integer too wide for int64 (left for
// DuckDB's range check).
func bigInteger(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// structFields reads the top-level fields of a DuckDB struct type as
// typeof prints it: STRUCT(a VARCHAR, "b c" INTEGER[], d STRUCT(…)); nil
// when typ is no struct.
func structFields(typ string) []structField {
	if !strings.HasPrefix(typ, "STRUCT(") || !strings.HasSuffix(typ, ")") {
		return nil
	}
	s := typ[len("STRUCT(") : len(typ)-1]
	var out []structField
	for len(s) > 0 {
		s = strings.TrimLeft(s, " ")
		var name string
		if strings.HasPrefix(s, `"`) {
			k := 1 // the closing quote ("" inside is a quote)
			for k < len(s) && (s[k] != '"' || k+1 < len(s) && s[k+1] == '"') {
				if s[k] == '"' {
					k++
				}
				k++
			}
			end := min(k+1, len(s))
			name, s = sqltext.UnquoteIdent(s[:end]), s[end:]
		} else {
			sp := strings.IndexByte(s, ' ')
			if sp < 0 {
				return nil
			}
			name, s = s[:sp], s[sp:]
		}
		s = strings.TrimLeft(s, " ")
		// the type, to the next comma outside brackets and quotes
		depth, end, quoted := 0, len(s), false
	scan:
		for k := 0; k < len(s); k++ {
			switch c := s[k]; {
			case c == '"':
				quoted = !quoted
			case quoted:
			case c == '(' || c == '[':
				depth++
			case c == ')' || c == ']':
				depth--
			case c == ',' && depth == 0:
				end = k
				break scan
			}
		}
		out = append(out, structField{name: name, typ: strings.TrimSpace(s[:end])})
		if end < len(s) {
			end++
		}
		s = s[end:]
	}
	return out
}

// anonymousRow: row(a, b, …) with no cast after it, as a whole item of
// a SELECT's select list (SELECT row(1, 2) [AS r]) or before a field
// ((row(1, 2)).f1), is struct_pack(f1 := a, f2 := b, …): PostgreSQL
// names an anonymous record's fields f1, f2, …, and DuckDB's unnamed
// struct cannot be read by the driver. Elsewhere (row(…)::t, VALUES, a
// comparison) the unnamed struct stays: DuckDB casts it to a named one
// by position, and a struct named f1, … by name only.
func anonymousRow(p *pass, i int) {
	if !p.isWord(0, "select") || p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 || closing == i+2 || p.isOp(closing+1, ":") || p.isOp(closing+1, "[") {
		return
	}
	field := p.kind(i-1) == sqltext.Open && p.kind(closing+1) == sqltext.Close && p.isOp(closing+2, ".")
	named := p.isWord(closing+1, "as") && p.itemStart(i-1)
	if !field && !named && !p.wholeSelectItem(i, closing) {
		return
	}
	for k, a := range p.splitArgs(i+1, closing) {
		if p.isOp(a[1], "*") && p.isOp(a[1]-1, ".") {
			continue // t.*: its columns, by their names (rowStar)
		}
		p.insert(p.toks[a[0]].Start, fmt.Sprintf("f%d := ", k+1))
	}
	p.replace(p.toks[i].Start, p.toks[i].End, "struct_pack")
	if !field && !named {
		p.insert(p.toks[closing].End, ` AS "row"`)
	}
}

// recordStar: (x).* as a select-list item, the fields of a composite as
// columns, is DuckDB's unnest(x).
func recordStar(p *pass, i int) {
	if !p.isOp(i-1, ".") || p.kind(i-2) != sqltext.Close || !p.adjacent(i-1) {
		return
	}
	open := p.matchBackward(i - 2)
	if open < 1 || !p.itemStart(open-1) {
		return
	}
	next := i + 1
	if !(next >= len(p.toks) || p.isOp(next, ",") || p.isWord(next, "from") || p.kind(next) == sqltext.Semi || p.kind(next) == sqltext.Close) {
		return
	}
	p.replace(p.toks[open].Start, p.toks[open].End, "unnest(")
	p.replace(p.toks[i-2].Start, p.toks[i].End, ")")
}

// rowStar: t.* as an argument of row(…) (row(v.a, s.*)), which
// PostgreSQL expands into t's columns, is DuckDB's *COLUMNS(t.*): DuckDB
// allows a star only as a whole expression.
func rowStar(p *pass, i int) {
	if !p.isOp(i-1, ".") || p.kind(i-2) != sqltext.Word && p.kind(i-2) != sqltext.Quoted || !p.adjacent(i-1) || !p.adjacent(i-2) {
		return
	}
	first := i - 2
	for first >= 2 && p.isOp(first-1, ".") && (p.kind(first-2) == sqltext.Word || p.kind(first-2) == sqltext.Quoted) {
		first -= 2 // s.t.*
	}
	if !(p.isOp(first-1, ",") || p.kind(first-1) == sqltext.Open) || !(p.isOp(i+1, ",") || p.kind(i+1) == sqltext.Close) {
		return
	}
	open := p.enclosing(i)
	if open < 1 || !p.isWord(open-1, "row") || p.isOp(open-2, ".") {
		return
	}
	p.open(p.toks[first].Start, "*COLUMNS(")
	p.insert(p.toks[i].End, ")")
}
