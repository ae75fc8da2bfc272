package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// The SQL side of full-text search: the macros of PostgreSQL's text
// search functions, and the rules for its types and operators. tsvector,
// tsquery and regconfig values are VARCHAR holding PostgreSQL's text.

// tsDefault is the configuration of the calls that name none.
const tsDefault = `'` + defaultTSConfig + `'`

var tsearchSetup = []string{
	// to_tsvector of text, or of json(b) (its strings)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_to_tsvector(c, x) AS CASE WHEN typeof(x) IN ('JSON', 'pg_json')
		THEN __vsql_json_to_tsvector(CAST(c AS VARCHAR), CAST(x AS VARCHAR), '"string"')
		ELSE __vsql_to_tsvector(CAST(c AS VARCHAR), CAST(x AS VARCHAR)) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.to_tsvector(x) AS ` + schema + `.pg_to_tsvector(` + tsDefault + `, x),
		(c, x) AS ` + schema + `.pg_to_tsvector(c, x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_to_tsvector(x, f) AS __vsql_json_to_tsvector(` + tsDefault + `, CAST(x AS VARCHAR), CAST(f AS VARCHAR)),
		(c, x, f) AS __vsql_json_to_tsvector(CAST(c AS VARCHAR), CAST(x AS VARCHAR), CAST(f AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.json_to_tsvector(x, f) AS __vsql_json_to_tsvector(` + tsDefault + `, CAST(x AS VARCHAR), CAST(f AS VARCHAR)),
		(c, x, f) AS __vsql_json_to_tsvector(CAST(c AS VARCHAR), CAST(x AS VARCHAR), CAST(f AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsvector_in(x) AS __vsql_tsvector_in(CAST(x AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsquery_in(x) AS __vsql_tsquery_in(CAST(x AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regconfig(x) AS __vsql_ts_config_ok(CAST(x AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.tsquery(x) AS ` + schema + `.pg_tsquery_in(x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.tsvector(x) AS ` + schema + `.pg_tsvector_in(x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.get_current_ts_config() AS 'english'`,
	`CREATE OR REPLACE MACRO ` + schema + `.setweight(v, w) AS __vsql_setweight(CAST(v AS VARCHAR), CAST(w AS VARCHAR)),
		(v, w, l) AS __vsql_setweight(CAST(v AS VARCHAR), CAST(w AS VARCHAR), l)`,
	`CREATE OR REPLACE MACRO ` + schema + `.tsvector_to_array(v) AS __vsql_tsvector_to_array(CAST(v AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.array_to_tsvector(a) AS __vsql_array_to_tsvector(a)`,
	`CREATE OR REPLACE MACRO ` + schema + `.ts_delete(v, x) AS __vsql_ts_delete(CAST(v AS VARCHAR), x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.ts_filter(v, w) AS __vsql_ts_filter(CAST(v AS VARCHAR), w)`,
	`CREATE OR REPLACE MACRO ` + schema + `.tsquery_phrase(a, b) AS __vsql_tsquery_phrase(CAST(a AS VARCHAR), CAST(b AS VARCHAR), 1),
		(a, b, d) AS __vsql_tsquery_phrase(CAST(a AS VARCHAR), CAST(b AS VARCHAR), CAST(d AS INTEGER))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsquery_phrase(a, b) AS __vsql_tsquery_phrase(CAST(a AS VARCHAR), CAST(b AS VARCHAR), 1)`,
	`CREATE OR REPLACE MACRO ` + schema + `.strip(v) AS __vsql_strip(CAST(v AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsvector_length(v) AS __vsql_tsvector_length(CAST(v AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsvector_concat(a, b) AS __vsql_tsvector_concat(CAST(a AS VARCHAR), CAST(b AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsquery_and(a, b) AS __vsql_tsquery_and(CAST(a AS VARCHAR), CAST(b AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsquery_or(a, b) AS __vsql_tsquery_or(CAST(a AS VARCHAR), CAST(b AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_tsquery_not(a) AS __vsql_tsquery_not(CAST(a AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.numnode(q) AS __vsql_numnode(CAST(q AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.querytree(q) AS __vsql_querytree(CAST(q AS VARCHAR))`,
	// a @@ b: jsonpath's when a is jsonb, else text search (tsMatchValues)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_match_op(a, b) AS CASE WHEN typeof(a) IN ('JSON', 'pg_json')
		THEN __vsql_jsonpath_match(CAST(a AS VARCHAR), CAST(b AS VARCHAR), true)
		ELSE __vsql_ts_match(CAST(a AS VARCHAR), CAST(b AS VARCHAR), ` + tsDefault + `) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.ts_match_vq(v, q) AS __vsql_ts_match_vq(CAST(v AS VARCHAR), CAST(q AS VARCHAR))`,
	// ts_rank([weights,] v, q [, normalization]): three arguments are
	// (v, q, normalization) when the third is a number
	`CREATE OR REPLACE MACRO ` + schema + `.ts_rank(v, q) AS __vsql_ts_rank(NULL, CAST(v AS VARCHAR), CAST(q AS VARCHAR), 0),
		(a, b, c) AS CASE WHEN typeof(c) IN ('INTEGER', 'BIGINT', 'SMALLINT', 'TINYINT', 'HUGEINT')
			THEN __vsql_ts_rank(NULL, CAST(a AS VARCHAR), CAST(b AS VARCHAR), TRY_CAST(c AS INTEGER))
			ELSE __vsql_ts_rank(a, CAST(b AS VARCHAR), CAST(c AS VARCHAR), 0) END,
		(w, v, q, n) AS __vsql_ts_rank(w, CAST(v AS VARCHAR), CAST(q AS VARCHAR), CAST(n AS INTEGER))`,
	`CREATE OR REPLACE MACRO ` + schema + `.ts_rank_cd(v, q) AS __vsql_ts_rank_cd(NULL, CAST(v AS VARCHAR), CAST(q AS VARCHAR), 0),
		(a, b, c) AS CASE WHEN typeof(c) IN ('INTEGER', 'BIGINT', 'SMALLINT', 'TINYINT', 'HUGEINT')
			THEN __vsql_ts_rank_cd(NULL, CAST(a AS VARCHAR), CAST(b AS VARCHAR), TRY_CAST(c AS INTEGER))
			ELSE __vsql_ts_rank_cd(a, CAST(b AS VARCHAR), CAST(c AS VARCHAR), 0) END,
		(w, v, q, n) AS __vsql_ts_rank_cd(w, CAST(v AS VARCHAR), CAST(q AS VARCHAR), CAST(n AS INTEGER))`,
	// ts_headline([config,] document, query [, options]): a json(b)
	// document gives its JSON text (jsonb's form)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_headline(c, d, q, o) AS CASE WHEN typeof(d) IN ('JSON', 'pg_json')
		THEN __vsql_ts_headline_json(CAST(c AS VARCHAR), CAST(d AS VARCHAR), CAST(q AS VARCHAR), CAST(o AS VARCHAR))
		ELSE __vsql_ts_headline(CAST(c AS VARCHAR), CAST(d AS VARCHAR), CAST(q AS VARCHAR), CAST(o AS VARCHAR)) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.ts_headline(d, q) AS ` + schema + `.pg_headline(` + tsDefault + `, d, q, ''),
		(a, b, c) AS CASE WHEN typeof(a) IN ('JSON', 'pg_json') THEN ` + schema + `.pg_headline(` + tsDefault + `, a, b, c)
			WHEN typeof(b) IN ('JSON', 'pg_json') THEN ` + schema + `.pg_headline(a, b, c, '')
			ELSE __vsql_ts_headline3(CAST(a AS VARCHAR), CAST(b AS VARCHAR), CAST(c AS VARCHAR), ` + tsDefault + `) END,
		(c, d, q, o) AS ` + schema + `.pg_headline(c, d, q, o)`,
}

// tsqueryMacros: to_tsquery and its kin, with and without a
// configuration.
func tsqueryMacros() []string {
	var out []string
	for name, fn := range map[string]string{"to_tsquery": "__vsql_to_tsquery", "plainto_tsquery": "__vsql_plainto",
		"phraseto_tsquery": "__vsql_phraseto", "websearch_to_tsquery": "__vsql_websearch"} {
		out = append(out, `CREATE OR REPLACE MACRO `+schema+`.`+name+`(x) AS `+fn+`(`+tsDefault+`, CAST(x AS VARCHAR)),
		(c, x) AS `+fn+`(CAST(c AS VARCHAR), CAST(x AS VARCHAR))`)
	}
	return out
}

func init() {
	setup = append(setup, tsearchSetup...)
	setup = append(setup, tsqueryMacros()...)
	sqltext.ProvideFunctions("to_tsvector", "jsonb_to_tsvector", "json_to_tsvector", "tsquery", "tsvector", "get_current_ts_config",
		"setweight", "strip", "tsvector_to_array", "array_to_tsvector", "ts_delete", "ts_filter", "tsquery_phrase", "numnode", "querytree", "ts_match_vq", "ts_rank", "ts_rank_cd", "ts_headline",
		"to_tsquery", "plainto_tsquery", "phraseto_tsquery", "websearch_to_tsquery")
	for _, m := range []map[string][]scalar{tsvectorFunctions(), tsqueryFunctions(), rankFunctions(), headlineFunctions()} {
		for name, f := range m {
			goFunctions[name] = f
		}
	}
}

// tsvectorCalls and tsqueryCalls are the functions whose value is a
// tsvector or a tsquery.
var (
	tsvectorCalls = map[string]bool{"to_tsvector": true, "setweight": true, "strip": true, "json_to_tsvector": true,
		"jsonb_to_tsvector": true, "tsvector": true, "pg_tsvector_in": true, "pg_tsvector_concat": true,
		"array_to_tsvector": true, "ts_delete": true, "ts_filter": true}
	tsqueryCalls = map[string]bool{"to_tsquery": true, "plainto_tsquery": true, "phraseto_tsquery": true,
		"websearch_to_tsquery": true, "tsquery": true, "pg_tsquery_in": true, "pg_tsquery_and": true,
		"pg_tsquery_or": true, "pg_tsquery_not": true, "tsquery_phrase": true, "pg_tsquery_phrase": true}
)

// tsValueEnd reports whether the operand ending at token i is visibly of
// the type (tsvector or tsquery): a call of a function returning one, a
// cast to the type, or such an operand in parentheses.
func (p *pass) tsValueEnd(i int, typ string, calls map[string]bool) bool {
	if p.isWord(i, typ) && p.isOp(i-1, ":") {
		return true
	}
	if p.kind(i) != sqltext.Close {
		return false
	}
	open := p.matchBackward(i)
	if open > 0 && p.kind(open-1) == sqltext.Word && !parenKeywords[strings.ToLower(p.text(open-1))] {
		return calls[strings.ToLower(p.text(open-1))]
	}
	return open >= 0 && i-1 > open && p.tsValueEnd(i-1, typ, calls)
}

// parenKeywords are the words a parenthesized operand may follow (not
// function names).
var parenKeywords = map[string]bool{"select": true, "where": true, "and": true, "or": true, "not": true, "when": true,
	"then": true, "else": true, "on": true, "having": true, "by": true, "returning": true, "set": true}

// tsOperator: a || b where a or b is visibly a tsvector becomes
// pg_tsvector_concat(a, b) (b's positions after a's); a && b and a || b
// of visible tsqueries pg_tsquery_and and pg_tsquery_or (token i is the
// first character of the operator, op). In a chain a || b || c the call
// of a || b is the left operand of the next one.
func tsOperator(p *pass, i int, op string) bool {
	if !p.isOp(i+1, op) || !p.adjacent(i) || p.isOp(i-1, op) {
		return false
	}
	last := p.tsOperandEnd(i + 2)
	if last < 0 {
		return false
	}
	fn := ""
	typ, calls := "tsquery", tsqueryCalls
	switch {
	case p.tsValueEnd(i-1, typ, calls) || p.tsValueEnd(last, typ, calls):
		fn = map[string]string{"&": ".pg_tsquery_and(", "|": ".pg_tsquery_or("}[op]
	case op == "|" && (p.tsValueEnd(i-1, "tsvector", tsvectorCalls) || p.tsValueEnd(last, "tsvector", tsvectorCalls)):
		fn, typ, calls = ".pg_tsvector_concat(", "tsvector", tsvectorCalls
	default:
		return false
	}
	first := p.operandStart(i - 1)
	for first >= 2 && p.isOp(first-1, op) && p.isOp(first-2, op) && p.adjacent(first-2) && p.tsValueEnd(first-3, typ, calls) {
		first = p.operandStart(first - 3)
	}
	if first < 0 {
		return false
	}
	p.open(p.toks[first].Start, schema+fn)
	p.replace(p.toks[i].Start, p.toks[i+1].End, ",")
	p.insert(p.toks[last].End, ")")
	return true
}

// lessRule: q1 <-> q2 of tsqueries, else a <@ b and enum < 'label'.
func lessRule(p *pass, i int) {
	if rowRule(p, i) {
		return // (a, b) < (c, d) (rowcompare.go)
	}
	if !tsqueryPhrase(p, i) {
		enumCompareLess(p, i)
	}
}

// ampersandRule: q1 && q2 of tsqueries, else array overlap.
func ampersandRule(p *pass, i int) {
	if !tsOperator(p, i, "&") {
		arrayOperand(p, i)
	}
}

// tsqueryPhrase: q1 <-> q2 of a visible tsquery is
// pg_tsquery_phrase(q1, q2) (token i is the <).
func tsqueryPhrase(p *pass, i int) bool {
	if !p.isOp(i+1, "-") || !p.isOp(i+2, ">") || !p.adjacent(i) || !p.adjacent(i+1) {
		return false
	}
	last := p.tsOperandEnd(i + 3)
	if last < 0 || !p.tsValueEnd(i-1, "tsquery", tsqueryCalls) && !p.tsValueEnd(last, "tsquery", tsqueryCalls) {
		return false
	}
	first := p.operandStart(i - 1)
	if first < 0 {
		return false
	}
	p.open(p.toks[first].Start, schema+".pg_tsquery_phrase(")
	p.replace(p.toks[i].Start, p.toks[i+2].End, ",")
	p.insert(p.toks[last].End, ")")
	return true
}

// tsOperandEnd is operandEnd, also of an operand under !! (a negated
// tsquery).
func (p *pass) tsOperandEnd(i int) int {
	if p.isOp(i, "!") && p.isOp(i+1, "!") && p.adjacent(i) {
		return p.tsOperandEnd(i + 2)
	}
	return p.operandEnd(i)
}

// tsqueryNot: !!q of a visible tsquery is pg_tsquery_not(q) (token i is
// the first !).
func tsqueryNot(p *pass, i int) {
	if !p.isOp(i+1, "!") || !p.adjacent(i) || p.isOp(i-1, "!") {
		return
	}
	last := p.tsOperandEnd(i + 2)
	if last < 0 || !p.tsValueEnd(last, "tsquery", tsqueryCalls) {
		return
	}
	p.replace(p.toks[i].Start, p.toks[i+1].End, schema+".pg_tsquery_not(")
	p.insert(p.toks[last].End, ")")
}

// tsInputCalls are the calls that read a value of the type.
var tsInputCalls = map[string]string{"tsvector": ".pg_tsvector_in(", "tsquery": ".pg_tsquery_in(", "regconfig": ".pg_regconfig("}

// tsTypeName: tsvector, tsquery and regconfig are VARCHAR where the word
// is visibly a type; a cast (x::tsvector, CAST(x AS tsvector), tsvector
// 'x') also reads the value as PostgreSQL's input does (pg_tsvector_in,
// pg_tsquery_in: normalized; pg_regconfig: a configuration that exists).
func tsTypeName(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) == sqltext.Open || p.isOp(i+1, ".") {
		return // t.tsvector, tsquery(…): a function
	}
	fn := tsInputCalls[strings.ToLower(p.text(i))]
	switch {
	case p.isOp(i-1, ":") && p.isOp(i-2, ":"):
		start := p.operandStart(i - 3)
		if start < 0 {
			return
		}
		p.replace(p.toks[i].Start, p.toks[i].End, "VARCHAR")
		p.open(p.toks[start].Start, schema+fn)
		p.insert(p.toks[i].End, ")")
	case p.kind(i+1) == sqltext.String && !p.isWord(i-1, "as"):
		p.replace(p.toks[i].Start, p.toks[i+1].Start, schema+fn)
		p.insert(p.toks[i+1].End, "::VARCHAR)")
	case p.castTarget(i):
		open := p.matchBackward(i + 1)
		p.replace(p.toks[i].Start, p.toks[i].End, "VARCHAR")
		p.open(p.toks[open-1].Start, schema+fn)
		p.insert(p.toks[i+1].End, ")")
	case p.columnType(i):
		p.replace(p.toks[i].Start, p.toks[i].End, "VARCHAR")
	}
}

// tsLength: length(v) of a visible tsvector is its number of lexemes
// (DuckDB's length would count characters).
func tsLength(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 || !p.tsValueEnd(closing-1, "tsvector", tsvectorCalls) || p.operandStart(closing-1) != i+2 {
		return
	}
	p.replace(p.toks[i].Start, p.toks[i].End, schema+".pg_tsvector_length")
}
