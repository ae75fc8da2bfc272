package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL orders an enum by its labels' order, also against a string
// literal: with CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy'),
// col < 'happy' reads the literal as a mood. DuckDB binds a comparison of
// an ENUM with a VARCHAR as text (CAST(col AS VARCHAR) < 'happy'), which
// compares the labels alphabetically: a silent wrong answer. The literal
// of col <, <=, >, >= 'label' ('label' op col, col [NOT] BETWEEN 'a' AND
// 'b') is cast to the column's enum type when the column is one: the
// rewrite knows it from Session.EnumColumns (the server's catalog), asked
// only for a statement that compares a name with a string literal so.
// Equality needs no cast (text and label order agree on it).

// enumCompareLess is the rule of < (after the containment rule of <@).
func enumCompareLess(p *pass, i int) {
	containsRight(p, i)
	enumCompare(p, i)
}

// enumCompare casts the string literal compared by the ordering operator
// at token i (< or >, with an adjacent = for <= and >=) with a column of
// enum type.
func enumCompare(p *pass, i int) {
	if p.sess.EnumColumns == nil {
		return
	}
	op2 := i
	switch {
	case p.adjacent(i-1) && (p.isOp(i-1, "<") || p.isOp(i-1, ">") || p.isOp(i-1, "-") || p.isOp(i-1, "@") ||
		p.isOp(i-1, "#") || p.isOp(i-1, "=") || p.isOp(i-1, "!") || p.isOp(i-1, "|") || p.isOp(i-1, "&")):
		return // <>, ->, ->>, @>, #>, >>, =>, part of a longer operator
	case p.adjacent(i) && p.isOp(i+1, "="):
		op2 = i + 1
		if p.adjacent(op2) && p.kind(op2+1) == sqltext.Op {
			return
		}
	case p.adjacent(i) && p.kind(i+1) == sqltext.Op:
		return // <@, <>, <<, >>, <->
	}
	// column op 'literal'
	if p.kind(op2+1) == sqltext.String && p.literalEnds(op2+1) {
		if typ := p.columnBefore(i-1, p.enumColumn); typ != "" {
			p.insert(p.toks[op2+1].End, "::"+typ)
		}
		return
	}
	// 'literal' op column
	if p.kind(i-1) == sqltext.String && p.literalStarts(i-1) {
		if typ := p.columnAfter(op2+1, p.enumColumn); typ != "" {
			p.insert(p.toks[i-1].End, "::"+typ)
		}
	}
}

// enumBetween casts the bounds of column [NOT] BETWEEN 'a' AND 'b' when
// the column is of an enum type (token i is BETWEEN).
func enumBetween(p *pass, i int) {
	if p.sess.EnumColumns == nil {
		return
	}
	lo, hi := i+1, i+3
	if p.isWord(lo, "symmetric") {
		lo, hi = lo+1, hi+1
	}
	if p.kind(lo) != sqltext.String || !p.isWord(lo+1, "and") || p.kind(hi) != sqltext.String || !p.literalEnds(hi) {
		return
	}
	before := i - 1
	if p.isWord(before, "not") {
		before--
	}
	if typ := p.columnBefore(before, p.enumColumn); typ != "" {
		p.insert(p.toks[lo].End, "::"+typ)
		p.insert(p.toks[hi].End, "::"+typ)
	}
}

// literalEnds reports whether the string literal at token i is a whole
// operand on its left side's terms: nothing binding tighter follows it.
func (p *pass) literalEnds(i int) bool {
	switch p.kind(i + 1) {
	case -1, sqltext.Close, sqltext.Semi:
		return true
	case sqltext.Word:
		w := strings.ToLower(p.text(i + 1))
		return notNames[w] || w == "union" || w == "except" || w == "intersect" || w == "window" || w == "fetch"
	case sqltext.Op:
		return p.isOp(i+1, ",")
	}
	return false
}

// literalStarts reports whether the string literal at token i is a whole
// operand on its right side's terms: no type name or operator precedes it.
func (p *pass) literalStarts(i int) bool {
	switch p.kind(i - 1) {
	case -1, sqltext.Open:
		return true
	case sqltext.Word:
		return notNames[strings.ToLower(p.text(i-1))]
	case sqltext.Op:
		return p.isOp(i-1, ",")
	}
	return false
}

// columnBefore returns the type column gives the column reference (name,
// table.name, "Name") that ends at token i (enumColumn, arrayColumn), ""
// when it is none.
func (p *pass) columnBefore(i int, column func(int) string) string {
	first := i
	for p.isOp(first-1, ".") && (p.kind(first-2) == sqltext.Word || p.kind(first-2) == sqltext.Quoted) {
		first -= 2
	}
	if !p.literalStarts(first) && !(p.kind(first-1) == sqltext.Word && notNames[strings.ToLower(p.text(first-1))]) {
		return ""
	}
	return column(i)
}

// columnAfter is columnBefore for the reference that starts at token i.
func (p *pass) columnAfter(i int, column func(int) string) string {
	last := i
	for p.isOp(last+1, ".") && (p.kind(last+2) == sqltext.Word || p.kind(last+2) == sqltext.Quoted) {
		last += 2
	}
	if !p.literalEnds(last) {
		return ""
	}
	return column(last)
}

// enumColumn returns the enum type of the column named by token i, a word
// or a quoted name, "" when no column of that name is of one enum type.
func (p *pass) enumColumn(i int) string {
	name, ok := p.identifier(i)
	if !ok {
		return ""
	}
	if p.enums == nil {
		p.enums = p.sess.EnumColumns()
		if p.enums == nil {
			p.enums = map[string]string{}
		}
	}
	return p.enums[strings.ToLower(name)]
}

// enumRange: enum_range(a, b), the labels of an enum from a to b (NULL:
// from the first, to the last), is DuckDB's enum_range_boundary. A bare
// NULL takes the other argument's type when that one is written as a
// cast (NULL::rainbow, 'green'::rainbow), as PostgreSQL resolves it.
func enumRange(p *pass, i int) {
	closing, args := p.callArgs(i)
	if closing < 0 || len(args) != 2 {
		return
	}
	castType := func(a [2]int) string {
		e := a[1]
		if e-2 > a[0] && p.isOp(e-1, ":") && p.isOp(e-2, ":") && (p.kind(e) == sqltext.Word || p.kind(e) == sqltext.Quoted) {
			return p.text(e)
		}
		return ""
	}
	p.replace(p.toks[i].Start, p.toks[i].End, "enum_range_boundary")
	for k, a := range args {
		if a[0] == a[1] && p.isWord(a[0], "null") {
			if t := castType(args[1-k]); t != "" {
				p.insert(p.toks[a[0]].End, "::"+t)
			}
		}
	}
}
