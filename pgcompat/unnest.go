package pgcompat

import (
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// multiUnnest: unnest(a, b, …) in FROM, PostgreSQL's zip of several
// arrays (shorter ones padded with NULL), optionally WITH ORDINALITY,
// becomes a LATERAL subquery of one-argument unnests in a select list,
// which DuckDB zips the same way:
//
//	FROM pg_index i, unnest(i.indkey, i.indoption) WITH ORDINALITY k(key, option, n)
//	FROM pg_index i, LATERAL (SELECT unnest(i.indkey) AS key, unnest(i.indoption) AS option,
//	    unnest(generate_series(1, greatest(len(i.indkey), len(i.indoption)))) AS n) k
//
// Only in a FROM item (after FROM, JOIN, LATERAL or a comma of a FROM
// list) with at least two arguments; anything else is left to DuckDB.
// Without an alias the item and its columns are named "unnest", as
// PostgreSQL names them (DuckDB's SELECT * shows the second as unnest_1).
func multiUnnest(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || !p.fromItem(i-1) {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	args := p.splitArgs(i+1, closing)
	if len(args) < 2 {
		return
	}
	j := closing + 1
	ordinality := false
	if p.isWord(j, "with") && p.isWord(j+1, "ordinality") {
		ordinality, j = true, j+2
	}
	hasAs := p.isWord(j, "as")
	if hasAs {
		j++
	}
	// Without an alias PostgreSQL names the FROM item and each of its
	// columns "unnest" (and the ordinality column "ordinality").
	alias, last := "unnest", j-1
	named := (p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted) && !notNames[strings.ToLower(p.text(j))]
	if !named && hasAs {
		return // AS without a name: a syntax error either way
	}
	if named {
		alias, last = p.text(j), j
	}
	var names []string
	if named && p.kind(j+1) == sqltext.Open {
		end := p.matchForward(j + 1)
		if end < 0 {
			return
		}
		for _, c := range p.splitArgs(j+1, end) {
			names = append(names, p.src[p.toks[c[0]].Start:p.toks[c[1]].End])
		}
		last = end
	}
	want := len(args)
	if ordinality {
		want++
	}
	if len(names) != 0 && len(names) != want {
		return // PostgreSQL refuses it; so will DuckDB
	}
	var b strings.Builder
	if !p.isWord(i-1, "lateral") {
		b.WriteString("LATERAL ")
	}
	b.WriteString("(SELECT ")
	texts := make([]string, len(args))
	for k, a := range args {
		texts[k] = p.src[p.toks[a[0]].Start:p.toks[a[1]].End]
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString("unnest(" + texts[k] + ")")
		if len(names) > 0 {
			b.WriteString(" AS " + names[k])
		} else if !named {
			b.WriteString(" AS unnest")
		}
	}
	if ordinality {
		lens := make([]string, len(texts))
		for k, t := range texts {
			lens[k] = "len(" + t + ")"
		}
		b.WriteString(", unnest(generate_series(1, greatest(" + strings.Join(lens, ", ") + ")))")
		if len(names) > 0 {
			b.WriteString(" AS " + names[len(names)-1])
		} else {
			b.WriteString(" AS ordinality")
		}
	}
	b.WriteString(") " + alias)
	p.replace(p.toks[i].Start, p.toks[last].End, b.String())
}

// fromItem reports whether token i ends what may come before a FROM
// item: FROM, JOIN, LATERAL, or a comma of a FROM list (a comma whose
// enclosing clause, at the same depth, began with FROM).
func (p *pass) fromItem(i int) bool {
	switch {
	case p.isWord(i, "from"), p.isWord(i, "join"), p.isWord(i, "lateral"):
		return true
	case !p.isOp(i, ","):
		return false
	}
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch p.kind(j) {
		case sqltext.Close:
			depth++
		case sqltext.Open:
			if depth == 0 {
				return false
			}
			depth--
		case sqltext.Semi:
			return false
		case sqltext.Word:
			if depth == 0 {
				switch strings.ToLower(p.text(j)) {
				case "from":
					return true
				case "select", "where", "group", "order", "having", "values", "set", "on", "returning":
					return false
				}
			}
		}
	}
	return false
}

// callArgs reads the call of the unqualified function named at token i:
// its closing parenthesis and its arguments (nil when it is none).
func (p *pass) callArgs(i int) (closing int, args [][2]int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return -1, nil
	}
	if closing = p.matchForward(i + 1); closing < 0 {
		return -1, nil
	}
	return closing, p.splitArgs(i+1, closing)
}

// splitArgs returns the first and last token of each comma-separated
// argument between the brackets at open and closing (none for ()).
func (p *pass) splitArgs(open, closing int) [][2]int {
	var out [][2]int
	start, depth := open+1, 0
	for j := open + 1; j < closing; j++ {
		switch {
		case p.kind(j) == sqltext.Open, p.isOp(j, "["):
			depth++
		case p.kind(j) == sqltext.Close, p.isOp(j, "]"):
			depth--
		case depth == 0 && p.isOp(j, ","):
			if j > start {
				out = append(out, [2]int{start, j - 1})
			}
			start = j + 1
		}
	}
	if closing > start {
		out = append(out, [2]int{start, closing - 1})
	}
	return out
}

// setReturning: generate_series(…) in a select list returns rows in
// PostgreSQL (one per value) and one list in DuckDB; it becomes
// unnest(generate_series(…)), which DuckDB expands into rows the same
// way, and a select item that is only the call keeps PostgreSQL's column
// name. In FROM it is DuckDB's table function already.
func setReturning(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") || p.fromItem(i-1) || !p.inSelectList(i-1) {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	// generate_series(int, int) is integer in PostgreSQL, BIGINT in DuckDB:
	// literal bounds within int4 keep PostgreSQL's type.
	int4 := true
	for _, a := range p.splitArgs(i+1, closing) {
		first := a[0]
		if p.isOp(first, "-") && a[1] > first {
			first++
		}
		if first != a[1] || p.kind(first) != sqltext.Number || strings.ContainsAny(p.text(first), ".eE") || len(p.text(first)) > 9 {
			int4 = false
		}
	}
	tail := ")"
	if int4 {
		p.open(p.toks[i].Start, "CAST(unnest(")
		tail = ") AS INTEGER)"
	} else {
		p.open(p.toks[i].Start, "unnest(")
	}
	itemStart := p.isWord(i-1, "select") || p.isOp(i-1, ",") || p.isWord(i-1, "distinct") || p.isWord(i-1, "all")
	next := closing + 1
	if itemStart && (next >= len(p.toks) || p.isOp(next, ",") || p.isWord(next, "from") || p.kind(next) == sqltext.Semi ||
		p.kind(next) == sqltext.Close) {
		tail += " AS " + strings.ToLower(p.text(i))
	}
	p.insert(p.toks[closing].End, tail)
}

// inSelectList reports whether the token after i is in a select list:
// going back, out of any enclosing brackets, the first clause keyword is
// SELECT.
func (p *pass) inSelectList(i int) bool {
	depth := 0
	for j := i; j >= 0; j-- {
		switch p.kind(j) {
		case sqltext.Close:
			depth++
		case sqltext.Open:
			if depth > 0 {
				depth--
			}
		case sqltext.Semi:
			return false
		case sqltext.Word:
			if depth > 0 {
				continue
			}
			switch strings.ToLower(p.text(j)) {
			case "select":
				return true
			case "on":
				if p.isWord(j-1, "distinct") {
					continue // SELECT DISTINCT ON (…) list
				}
				return false
			case "from", "where", "group", "having", "order", "values", "set", "returning", "join", "limit",
				"offset", "using", "window", "qualify", "into", "table", "call":
				return false
			}
		}
	}
	return false
}

// seriesStep: generate_series(a, b, '12 hours'), an interval step written
// as a plain string (PostgreSQL types it from the bounds; DuckDB finds no
// generate_series(TIMESTAMP, TIMESTAMP, VARCHAR)), gets CAST(… AS
// INTERVAL). A step that reads as a number is left as it is.
func seriesStep(p *pass, i int) {
	_, args := p.callArgs(i)
	if len(args) != 3 || args[2][0] != args[2][1] || !p.plainString(args[2][0]) {
		return
	}
	lit := args[2][0]
	raw := p.text(lit)
	if _, err := strconv.ParseFloat(strings.TrimSpace(raw[1:len(raw)-1]), 64); err == nil {
		return
	}
	p.insert(p.toks[lit].Start, "CAST(")
	p.insert(p.toks[lit].End, " AS INTERVAL)")
}

// srfAggregates are the aggregate functions whose argument PostgreSQL
// refuses to be a set-returning call.
var srfAggregates = map[string]bool{"min": true, "max": true, "sum": true, "avg": true, "count": true, "array_agg": true,
	"string_agg": true, "bool_and": true, "bool_or": true, "every": true, "json_agg": true, "jsonb_agg": true,
	"stddev": true, "variance": true}

// srfPlacement refuses a set-returning call (token i, generate_series or
// unnest) where PostgreSQL's parser does (0A000): inside CASE or
// COALESCE, an aggregate's or a window function's argument, UPDATE's SET,
// RETURNING, LIMIT and OFFSET, a VALUES list other than an INSERT's one
// row, and the arguments of a function in FROM. Elsewhere DuckDB answered
// something else (CASE WHEN … THEN generate_series(1, 3) gave rows).
func srfPlacement(p *pass, i int) bool {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return false
	}
	hint := "You might be able to move the set-returning function into a LATERAL FROM item."
	refuse := func(format string, args ...any) bool {
		p.fail(vsqlerr.New(vsqlerr.FeatureNotSupported, format, args...).WithHint("%s", hint))
		return true
	}
	// the enclosing parentheses, innermost first, and CASE at each depth
	depth, caseDepth := 0, 0
	for j := i - 1; j >= 0; j-- {
		switch {
		case p.kind(j) == sqltext.Close:
			depth++
		case p.kind(j) == sqltext.Open:
			if depth > 0 {
				depth--
				continue
			}
			name := strings.ToLower(p.text(j - 1))
			switch {
			case p.kind(j-1) != sqltext.Word:
			case name == "coalesce":
				return refuse("set-returning functions are not allowed in COALESCE")
			case srfAggregates[name]:
				if closing := p.matchForward(j); closing > 0 && p.isWord(closing+1, "over") {
					return refuse("window function calls cannot contain set-returning function calls")
				}
				return refuse("aggregate function calls cannot contain set-returning function calls")
			case name == "values":
				if !p.isWord(0, "insert") || p.isOp(p.matchForward(j)+1, ",") {
					return refuse("set-returning functions are not allowed in VALUES")
				}
			case (p.isWord(j-2, "from") || p.isWord(j-2, "join") || p.isOp(j-2, ",") && p.fromItem(j-2)) && !p.isWord(j-1, "lateral"):
				return refuse("set-returning functions must appear at top level of FROM")
			}
		case p.kind(j) == sqltext.Word && depth == 0:
			switch strings.ToLower(p.text(j)) {
			case "end":
				caseDepth--
			case "case":
				if caseDepth++; caseDepth > 0 {
					return refuse("set-returning functions are not allowed in CASE")
				}
			case "returning":
				return refuse("set-returning functions are not allowed in RETURNING")
			case "limit":
				return refuse("set-returning functions are not allowed in LIMIT")
			case "offset":
				return refuse("set-returning functions are not allowed in OFFSET")
			case "set":
				if p.isWord(0, "update") {
					return refuse("set-returning functions are not allowed in UPDATE")
				}
			case "select", "from", "where", "group", "having", "order", "window":
				return false
			}
		}
	}
	return false
}

// generateSeries is the rule of generate_series.
func generateSeries(p *pass, i int) {
	if srfPlacement(p, i) {
		return
	}
	seriesStep(p, i)
	setReturning(p, i)
}

// unnestRule is the rule of unnest.
func unnestRule(p *pass, i int) {
	if srfPlacement(p, i) {
		return
	}
	multiUnnest(p, i)
}
