package pgcompat

import (
	"fmt"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// intervalAddOrder: x + interval '1 month - 1 second' (the end of a
// month: date_trunc('month', now()) + interval '1 month - 1 second').
// PostgreSQL adds an interval's months, then its days, then its time;
// DuckDB adds the time of an interval to a timestamptz first (ICU), so
// 1999-12-01 + '1 month -1 second' was 1999-12-30 23:59:59, not
// 1999-12-31 23:59:59. A literal with both a calendar part (months or
// days) and a time part, added or subtracted as the right operand,
// becomes two intervals added in PostgreSQL's order: x + INTERVAL 'M
// months D days' + INTERVAL 'T microseconds' (each operand of + or - is
// added in turn, from the left). Intervals that are not literals keep
// DuckDB's order (docs/sql.md). It reports whether it rewrote the
// literal, tokens first…last, whose text is val.
func (p *pass) intervalAddOrder(first, last int, val string) bool {
	if !(p.isOp(first-1, "+") || p.isOp(first-1, "-")) || !binaryOperand(p, first-2) {
		return false
	}
	switch next := last + 1; {
	case p.isOp(next, "*"), p.isOp(next, "/"), p.isOp(next, "%"), p.isOp(next, "^"), p.isOp(next, ":"), p.isOp(next, "["),
		p.isOp(next, "."), p.isWord(next, "at"), p.isWord(next, "collate"):
		return false // binds tighter than + and -: the literal is not the operand
	}
	iv, ok := decodeQualifiedInterval(val, 0)
	if !ok || iv.bad || iv.micros == 0 || iv.months == 0 && iv.days == 0 ||
		iv.micros > 1<<53 || iv.micros < -(1<<53) || iv.months > 1<<31 || iv.months < -(1<<31) || iv.days > 1<<31 || iv.days < -(1<<31) {
		return false
	}
	p.replace(p.toks[first].Start, p.toks[last].End,
		fmt.Sprintf("INTERVAL '%d months %d days' %s INTERVAL '%d microseconds'", iv.months, iv.days, p.text(first-1), iv.micros))
	return true
}

// binaryOperand reports whether token k ends an operand, so that an
// operator after it is binary (x - interval …), not a sign (- interval …).
func binaryOperand(p *pass, k int) bool {
	switch p.kind(k) {
	case sqltext.Number, sqltext.String, sqltext.Quoted, sqltext.Param, sqltext.Close:
		return true
	case sqltext.Word:
		switch strings.ToLower(p.text(k)) {
		case "select", "where", "and", "or", "not", "then", "else", "when", "case", "on", "by", "having", "return", "returning", "set", "values", "in", "is", "like", "between", "as":
			return false
		}
		return true
	}
	return false
}
