package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL's JSON aggregates, which DuckDB lacks: json_agg(x) and
// jsonb_agg(x) (PostgREST reads every result through json_agg), and
// json_object_agg(k, v), jsonb_object_agg(k, v). DuckDB's json_group_array
// and json_group_object are macros, which take no ORDER BY, DISTINCT or
// FILTER; these become string_agg over each value's JSON text, which
// takes all three and OVER (…):
//
//	json_agg(x ORDER BY y) FILTER (WHERE c)
//	→ __vsql_pgjson('[' || regexp_replace(string_agg(pg_json_agg_text(x), ', ' ORDER BY y) FILTER (WHERE c), '^\\n ', '') || ']', false, 'json_agg')
//
// No rows give NULL, as in PostgreSQL; a NULL value is JSON null; a NULL
// key is 22023 (pg_json_key). The edits only insert around x, k and v,
// so rules inside them still apply. json_agg and json_object_agg make
// json, spaced as PostgreSQL's, each value's text as pg_json_text writes
// it (jsontext.go); jsonb_agg and jsonb_object_agg make JSON, printed as
// jsonb prints (jsonb_object_agg's duplicate keys keep the last one).
func jsonAgg(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || (i > 0 && p.isOp(i-1, ".")) {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 || closing == i+2 {
		return
	}
	object := len(p.text(i)) > 9 && p.text(i)[len(p.text(i))-9:] == "bject_agg" // json(b)_object_agg
	first := i + 2
	distinct := ""
	if p.isWord(first, "distinct") {
		distinct = "DISTINCT "
		first++
	}
	// the arguments end at a depth-0 ORDER BY or the closing parenthesis
	end, comma, depth := closing, -1, 0
	for j := first; j < closing; j++ {
		switch p.kind(j) {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		}
		if depth != 0 {
			continue
		}
		if p.isWord(j, "order") && p.isWord(j+1, "by") {
			end = j
			break
		}
		if p.isOp(j, ",") {
			if comma >= 0 {
				return // more than the function's arguments
			}
			comma = j
		}
	}
	if object != (comma >= 0) || first >= end {
		return
	}
	// where the call ends: after FILTER (…) and OVER (…) or OVER name
	last := closing
	if p.isWord(last+1, "filter") && p.kind(last+2) == sqltext.Open {
		if last = p.matchForward(last + 2); last < 0 {
			return
		}
	}
	if p.isWord(last+1, "over") {
		switch {
		case p.kind(last+2) == sqltext.Open:
			if last = p.matchForward(last + 2); last < 0 {
				return
			}
		case p.kind(last+2) == sqltext.Word || p.kind(last+2) == sqltext.Quoted:
			last += 2
		default:
			return
		}
	}
	// json_agg and json_object_agg make json, spaced as PostgreSQL's
	// ([1, 2], { "a" : 1, "b" : 2 }); the jsonb ones jsonb
	jsonb := strings.HasPrefix(strings.ToLower(p.text(i)), "jsonb")
	open, close, colon, sep := "'['", "']'", "' : '", "', '"
	head, tail := "__vsql_pgjson(", ", false, '"+strings.ToLower(p.text(i))+"')"
	value := schema + ".pg_json_text("
	if jsonb {
		colon, sep, head, tail, value = "':'", "','", "CAST(", " AS JSON)", schema+".pg_jsonb_text("
	}
	if object {
		open, close = "'{ '", "' }'"
		if jsonb {
			open, close = "'{'", "'}'"
		}
		p.replace(p.toks[i].Start, p.toks[first].Start, head+open+" || string_agg("+distinct+schema+".pg_json_key(")
		p.replace(p.toks[comma].Start, p.toks[comma+1].Start, ") || "+colon+" || "+value)
	} else if jsonb {
		p.replace(p.toks[i].Start, p.toks[first].Start, head+open+" || string_agg("+distinct+value)
	} else {
		// json_agg starts each array or composite after the first on a
		// line of its own (", \n "), as PostgreSQL's does
		p.replace(p.toks[i].Start, p.toks[first].Start, head+open+" || regexp_replace(string_agg("+distinct+schema+".pg_json_agg_text(")
		p.insert(p.toks[last].End, ", '^\\n ', '')")
	}
	p.insert(p.toks[end-1].End, "), "+sep)
	p.insert(p.toks[last].End, " || "+close+tail)
}

// distinctAgg: array_agg(DISTINCT col) and string_agg(DISTINCT col, d)
// without an ORDER BY return PostgreSQL's order, ascending with NULLs
// last (it sorts to remove duplicates; DuckDB hashes, so the order was
// arbitrary): ORDER BY col is added. Only for a column reference, whose
// text the ORDER BY can repeat.
func distinctAgg(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || (i > 0 && p.isOp(i-1, ".")) {
		return
	}
	if !p.isWord(i+2, "distinct") {
		enumLabels(p, i)
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	start := i + 3
	j := p.nameEnd(start)
	if j < 0 {
		return
	}
	switch {
	case j == closing && p.isWord(i, "array_agg"):
	case p.isOp(j, ",") && p.isWord(i, "string_agg"):
		for k := j + 1; k < closing; k++ {
			if p.isWord(k, "order") || p.kind(k) == sqltext.Open {
				return // an ORDER BY of its own, or a delimiter that is not a literal
			}
		}
	default:
		return
	}
	p.insert(p.toks[closing].Start, " ORDER BY "+p.src[p.toks[start].Start:p.toks[j-1].End])
}

// enumLabels: array_agg(e.enumlabel) without an ORDER BY (Sequelize reads
// an enum's values so) lists the labels in the enum's order, as
// PostgreSQL's catalog scan does: ORDER BY e.enumsortorder is added.
func enumLabels(p *pass, i int) {
	if !p.isWord(i, "array_agg") {
		return
	}
	closing := p.matchForward(i + 1)
	end := p.nameEnd(i + 2)
	if closing < 0 || end != closing || !p.isWord(end-1, "enumlabel") {
		return
	}
	qualifier := p.src[p.toks[i+2].Start:p.toks[end-1].Start] // "e." or ""
	p.insert(p.toks[closing].Start, " ORDER BY "+qualifier+"enumsortorder")
}

// stringAggNullDelimiter is part of the rule of string_agg (token i):
// string_agg(x, NULL), whose NULL delimiter PostgreSQL reads as none
// (the values joined) where DuckDB answers NULL. A delimiter written NULL,
// or NULL cast to a type (NULL::text, CAST(NULL AS text)), becomes the
// empty string.
func stringAggNullDelimiter(p *pass, i int) {
	closing, items := p.callItems(i)
	if closing < 0 {
		return
	}
	if len(items) != 2 {
		return
	}
	d := items[1]
	last := closing - 1
	for k := d; k < closing; k++ {
		if p.isWord(k, "order") && p.isWord(k+1, "by") {
			last = k - 1
			break
		}
	}
	switch {
	case p.isWord(d, "null") && (last == d || p.isOp(d+1, ":") && p.isOp(d+2, ":") && last == d+3 && p.kind(d+3) == sqltext.Word):
	case p.isWord(d, "cast") && p.kind(d+1) == sqltext.Open && p.isWord(d+2, "null") && p.isWord(d+3, "as") && p.matchForward(d+1) == last:
	default:
		return
	}
	p.replace(p.toks[d].Start, p.toks[last].End, "''")
}
