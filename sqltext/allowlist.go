package sqltext

import (
	"fmt"
	"strings"
)

// Allowlists for the SQL that merges re-create in staging: defaults and
// CHECK expressions of new tables, and view definitions. A merge must give
// the same result on every attempt, wherever and by whoever it runs, so
// only deterministic, local SQL is accepted.

// safeFunctions are deterministic scalar functions (and the type names
// that take parameters, which look like calls: DECIMAL(10, 2)).
var safeFunctions = map[string]bool{
	"cast": true, "try_cast": true, "coalesce": true, "nullif": true, "lower": true, "upper": true,
	"length": true, "strlen": true, "abs": true, "round": true, "floor": true, "ceil": true, "trim": true,
	"ltrim": true, "rtrim": true, "least": true, "greatest": true, "concat": true, "substring": true,
	"substr": true, "starts_with": true, "ends_with": true, "contains": true, "regexp_matches": true,
	"decimal": true, "numeric": true, "varchar": true, "char": true, "character": true,
}

// aggregates are the aggregate functions views may use.
// (DuckDB renders count(*) as count_star()).
var aggregates = map[string]bool{"count": true, "count_star": true, "sum": true, "min": true, "max": true, "avg": true}

// parenKeywords are keywords that may stand before "(" without being calls.
var parenKeywords = map[string]bool{
	"in": true, "and": true, "or": true, "not": true, "on": true, "using": true, "where": true, "having": true,
	"when": true, "then": true, "else": true, "select": true, "by": true, "as": true, "is": true, "like": true,
	"ilike": true, "between": true, "case": true, "distinct": true, "filter": true, "end": true, "from": true,
	"join": true, "check": true, "key": true, "unique": true,
}

// volatileWords are keyword functions whose value depends on when or by
// whom a statement runs.
var volatileWords = map[string]bool{
	"current_timestamp": true, "current_date": true, "current_time": true, "localtime": true,
	"localtimestamp": true, "current_user": true, "session_user": true, "user": true, "current_role": true,
	"current_schema": true, "current_catalog": true, "current_database": true,
}

// viewRefused are constructs outside the view allowlist.
var viewRefused = map[string]string{
	"with": "common table expressions", "recursive": "common table expressions", "union": "set operations",
	"intersect": "set operations", "except": "set operations", "over": "window functions",
	"window": "window functions", "qualify": "window functions", "lateral": "lateral joins",
	"pivot": "PIVOT", "unpivot": "UNPIVOT", "exists": "subqueries", "values": "VALUES lists",
}

type sqlToken struct {
	kind       tokenKind
	start, end int    // byte offsets into the source
	text       string // as written
	word       string // lower-cased word, or the unquoted identifier
}

// tokens lexes src into sqlTokens (a lexing pass: for text that is not a
// Statement's).
func tokens(src string) []sqlToken { return wordTokens(src, Tokens(src)) }

// wordTokens are toks, tokens of src, with their text and words.
func wordTokens(src string, toks []Token) []sqlToken {
	out := make([]sqlToken, 0, len(toks))
	for _, tok := range toks {
		t := sqlToken{kind: tok.Kind.internal(), start: tok.Start, end: tok.End, text: src[tok.Start:tok.End]}
		switch t.kind {
		case tokWord:
			t.word = strings.ToLower(t.text)
		case tokQuoted:
			t.word = UnquoteIdent(t.text)
		}
		out = append(out, t)
	}
	return out
}

// callProblem checks one call-like token: a word followed by "(".
func callProblem(toks []sqlToken, i int, allowed map[string]bool) string {
	t := toks[i]
	if t.kind != tokWord || i+1 >= len(toks) || toks[i+1].kind != tokOpen {
		return ""
	}
	if allowed[t.word] || safeFunctions[t.word] || parenKeywords[t.word] {
		return ""
	}
	return fmt.Sprintf("function %s() is not in the allowlist", t.word)
}

// UnsafeExpression says why a DEFAULT or CHECK expression (as DuckDB
// renders it) is outside the merge allowlist, or "" when it is inside:
// literals, column names, operators, CASE, casts and deterministic scalar
// functions; no subqueries, sequences or volatile functions.
func UnsafeExpression(expr string) string {
	toks := tokens(expr)
	for i, t := range toks {
		if t.kind != tokWord {
			continue
		}
		if volatileWords[t.word] {
			return fmt.Sprintf("%s depends on when or by whom it runs", t.word)
		}
		if t.word == "select" {
			return "subqueries are not allowed"
		}
		if p := callProblem(toks, i, nil); p != "" {
			return p
		}
	}
	return ""
}

// UnsupportedView says why a view definition (CREATE VIEW … AS SELECT …)
// is outside the merge allowlist, or "" when it is inside: one SELECT with
// local tables (a plain name or main.name) and joins, filters, projections,
// GROUP BY and the aggregates count, sum, min, max and avg.
func UnsupportedView(sql string) string {
	toks := tokens(sql)
	start, selects := -1, 0
	for i, t := range toks {
		if t.kind != tokWord {
			continue
		}
		if why, ok := viewRefused[t.word]; ok {
			return why + " are not allowed"
		}
		if t.word == "select" {
			if selects++; start < 0 {
				start = i
			}
		}
	}
	if start < 0 {
		return "the view has no SELECT"
	}
	if selects > 1 {
		return "subqueries are not allowed"
	}
	toks = toks[start:]
	expectTable := false
	inFrom := false
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tokOpen:
			if expectTable {
				return "subqueries and parenthesized joins are not allowed"
			}
			depth++
			continue
		case tokClose:
			depth--
			continue
		case tokSemi:
			continue
		}
		if t.kind == tokWord {
			if volatileWords[t.word] {
				return fmt.Sprintf("%s depends on when or by whom it runs", t.word)
			}
		}
		// A chain of names: a.b or a.b.c.
		if t.kind == tokWord || t.kind == tokQuoted {
			parts := []sqlToken{t}
			j := i
			for j+2 < len(toks) && toks[j+1].text == "." && (toks[j+2].kind == tokWord || toks[j+2].kind == tokQuoted || toks[j+2].text == "*") {
				parts = append(parts, toks[j+2])
				j += 2
			}
			if len(parts) > 2 {
				return fmt.Sprintf("three-part name %s (views may only use local tables)", chainText(parts))
			}
			if expectTable {
				if len(parts) == 2 && !(parts[0].word == "main") {
					return fmt.Sprintf("%s is not a local table (views may only use tables of their own database)", chainText(parts))
				}
				if j+1 < len(toks) && toks[j+1].kind == tokOpen {
					return fmt.Sprintf("table function %s() is not allowed", chainText(parts))
				}
				expectTable = false
				i = j
				continue
			}
			if len(parts) == 1 {
				if p := callProblem(toks, i, aggregates); p != "" {
					return p
				}
			}
			if t.kind == tokWord && depth == 0 {
				switch t.word {
				case "from":
					inFrom, expectTable = true, true
				case "join":
					expectTable = true
				case "where", "group", "having", "order", "limit", "offset":
					inFrom = false
				}
			}
			i = j
			continue
		}
		if t.text == "," && inFrom && depth == 0 {
			expectTable = true
		}
	}
	return ""
}

func chainText(parts []sqlToken) string {
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = p.text
	}
	return strings.Join(s, ".")
}
