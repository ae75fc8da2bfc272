package pgcompat

import (
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// frameOffset is the rule of preceding and following (token i): a window
// frame's offset written as a string literal, RANGE BETWEEN '1 day'
// PRECEDING AND '10 days' FOLLOWING. PostgreSQL reads the literal as the
// offset type of the ORDER BY column, an interval for a date, time,
// timestamp or interval; DuckDB leaves it a string and cannot choose
// between its - and + of the column's type (42725). A literal that is not
// a number (nor inf or NaN, which a float column reads) is read as
// PostgreSQL's interval input (intervalLiteral) and cast to INTERVAL; a
// number is written unquoted, which DuckDB casts to the column's type
// ('1' PRECEDING of an integer column); inf and NaN are left to DuckDB.
func frameOffset(p *pass, i int) {
	lit := i - 1
	if !p.plainString(lit) || p.edited(p.toks[lit].Start, p.toks[lit].End) {
		return
	}
	if !p.isWord(lit-1, "between") && !p.isWord(lit-1, "and") && !p.isWord(lit-1, "range") &&
		!p.isWord(lit-1, "rows") && !p.isWord(lit-1, "groups") {
		return
	}
	val := p.stringText(lit)
	if num := strings.TrimSpace(val); isNumberText(num) {
		p.replace(p.toks[lit].Start, p.toks[lit].End, "("+num+")") // '1' of an integer column
		return
	}
	if numericOffset(val) {
		return
	}
	text, expr, ok, err := intervalLiteral(val)
	switch {
	case err != nil:
		expr = "CAST(error(" + sqlString(err.Error()) + ") AS INTERVAL)"
	case expr != "":
	case ok:
		expr = "CAST('" + text + "' AS INTERVAL)"
	default:
		expr = "CAST(" + p.text(lit) + " AS INTERVAL)"
	}
	p.replace(p.toks[lit].Start, p.toks[lit].End, expr)
}

// isNumberText reports whether v is a decimal number: digits with an
// optional sign, point and exponent.
func isNumberText(v string) bool {
	if v == "" || strings.ContainsAny(v, "xXoObB_") {
		return false
	}
	if _, err := strconv.ParseFloat(v, 64); err != nil {
		return false
	}
	lv := strings.ToLower(strings.TrimLeft(v, "+-"))
	return lv != "" && (lv[0] >= '0' && lv[0] <= '9' || lv[0] == '.')
}

// numericOffset reports whether a frame offset's text is a number, or
// infinity or NaN, which a numeric or float ORDER BY column reads.
func numericOffset(v string) bool {
	v = strings.TrimSpace(v)
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return true
	}
	switch strings.ToLower(strings.TrimLeft(v, "+-")) {
	case "inf", "infinity", "nan":
		return true
	}
	return false
}

// groupsFrame is the rule of groups (token i): a window's GROUPS frame
// needs the window to be ordered, as PostgreSQL's parser checks (42P20
// GROUPS mode requires an ORDER BY clause); DuckDB would read the whole
// partition as one peer group. A window that names another one (OVER (w
// GROUPS …)) takes its ORDER BY from it and is left alone.
func groupsFrame(p *pass, i int) {
	switch {
	case p.isWord(i+1, "between"), p.isWord(i+1, "unbounded"), p.isWord(i+1, "current"),
		p.kind(i+1) == sqltext.Number && (p.isWord(i+2, "preceding") || p.isWord(i+2, "following")):
	default:
		return
	}
	open := p.enclosing(i)
	if open < 0 || !(p.isWord(open-1, "over") || p.isWord(open-1, "as")) {
		return
	}
	if first := open + 1; first < i && !p.isWord(first, "partition") && !p.isWord(first, "order") {
		return // OVER (w GROUPS …): w's ORDER BY
	}
	for j := open + 1; j < i; j++ {
		switch {
		case p.kind(j) == sqltext.Open:
			if j = p.matchForward(j); j < 0 {
				return
			}
		case p.isWord(j, "order") && p.isWord(j+1, "by"):
			return
		}
	}
	p.fail(vsqlerr.New(vsqlerr.WindowingError, "GROUPS mode requires an ORDER BY clause"))
}

// countCall is the rule of count (token i): count() without an argument,
// which DuckDB reads as count(*) and PostgreSQL refuses (42809).
func countCall(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.kind(i+2) != sqltext.Close || p.isOp(i-1, ".") ||
		p.isWord(i-1, "function") || p.isWord(i-1, "aggregate") {
		return
	}
	p.fail(vsqlerr.New(vsqlerr.WrongObjectType, "count(*) must be used to call a parameterless aggregate function"))
}

// lagLeadDefault is the rule of lag and lead (token i): lag(x, n, d)
// with a default d written as a number with a point or an exponent
// (lead(ten * 2, 1, -1.4)). PostgreSQL's value and default share one type,
// the common type of both (numeric of an integer x and 1.4); DuckDB casts
// the default to x's type, so -1.4 became -1. The value becomes CASE WHEN
// false THEN d ELSE x END, whose type is DuckDB's common type of the two
// (DECIMAL of an integer x, DOUBLE of a double precision one).
func lagLeadDefault(p *pass, i int) {
	closing, items := p.callItems(i)
	if closing < 0 {
		return
	}
	if len(items) != 3 || items[1]-2 < items[0] {
		return
	}
	k := items[2]
	if p.isOp(k, "-") || p.isOp(k, "+") {
		k++
	}
	if k != closing-1 || p.kind(k) != sqltext.Number || !strings.ContainsAny(p.text(k), ".eE") {
		return
	}
	d := p.src[p.toks[items[2]].Start:p.toks[k].End]
	p.open(p.toks[items[0]].Start, "CASE WHEN false THEN "+d+" ELSE ")
	p.insert(p.toks[items[1]-2].End, " END")
}

// nthValueArgument is the rule of nth_value (token i): nth_value(x, n)
// with an n of 0 or less is 22016 in PostgreSQL, for each row the window
// function runs on, where DuckDB answers NULL. An n other than a positive
// integer literal becomes pg_nth_arg(n), a macro of CASE WHEN n <= 0
// THEN error(…) ELSE n END (a NULL n stays NULL, as in PostgreSQL).
func nthValueArgument(p *pass, i int) {
	closing, items := p.callItems(i)
	if closing < 0 {
		return
	}
	if len(items) != 2 || items[1] > closing-1 {
		return
	}
	if k := items[1]; k == closing-1 && p.kind(k) == sqltext.Number {
		if n, err := strconv.ParseInt(p.text(k), 10, 64); err == nil && n > 0 {
			return // nth_value(x, 2)
		}
	}
	p.open(p.toks[items[1]].Start, schema+".pg_nth_arg(")
	p.insert(p.toks[closing-1].End, ")")
}

// percentileCont is the rule of percentile_cont (token i):
// percentile_cont(f) WITHIN GROUP (ORDER BY x). PostgreSQL's takes x as
// double precision (and answers double precision: 53.4485001564026 of a
// real, 1.5 of a numeric); DuckDB's answers x's own type (a real's 53.4485,
// a DECIMAL's 1.50). The sort key becomes CAST((x) AS DOUBLE). (An
// interval, which PostgreSQL also interpolates, is refused by the cast, as
// DuckDB refused it before; PostgreSQL refuses dates and timestamps.)
func percentileCont(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 || !p.isWord(closing+1, "within") || !p.isWord(closing+2, "group") || p.kind(closing+3) != sqltext.Open ||
		!p.isWord(closing+4, "order") || !p.isWord(closing+5, "by") {
		return
	}
	end := p.matchForward(closing + 3)
	start := closing + 6
	if end < 0 || start >= end {
		return
	}
	last := start - 1
	for j := start; j < end; j++ {
		if p.kind(j) == sqltext.Open {
			if j = p.matchForward(j); j < 0 {
				return
			}
			last = j
			continue
		}
		if p.isOp(j, ",") || p.isWord(j, "asc") || p.isWord(j, "desc") || p.isWord(j, "nulls") || p.isWord(j, "using") {
			break
		}
		last = j
	}
	if last < start {
		return
	}
	p.open(p.toks[start].Start, "CAST((")
	p.insert(p.toks[last].End, ") AS DOUBLE)")
}
