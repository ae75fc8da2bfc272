package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL reads an untyped string literal compared with an array as
// the array's type: i = '{}', t <> '{a,b}', '{1,2}' < i. DuckDB casts the
// VARCHAR to the list type with its own list syntax ('[1, 2]') and refuses
// PostgreSQL's. The literal of col op '{…}' ('{…}' op col), with op one of
// = <> != < <= > >=, is read by PostgreSQL's array input and cast to the
// column's type when the column is one of an array type: the rewrite
// knows it from Session.ArrayColumns (the server's catalog, asked only for
// a statement with such a comparison). The same answer makes '{}' array
// containment in i @> '{}' and i <@ '{}' (contains), where '{}' would
// otherwise be JSON's empty object.

// arrayCompared is the rule of a string literal (token i).
func arrayCompared(p *pass, i int) {
	if p.sess.ArrayColumns == nil && p.sess.TableColumns == nil || !p.plainString(i) || p.toks[i].End-p.toks[i].Start < 4 || p.src[p.toks[i].Start+1] != '{' ||
		p.isOp(i+1, ":") && p.adjacent(i) {
		return
	}
	typ := ""
	visible := false // the other operand is visibly an array (arrayconcat.go)
	// col op '{…}'
	if first, op := p.comparisonBefore(i); op && p.literalEnds(i) {
		if typ = p.columnBefore(first-1, p.arrayColumn); typ == "" {
			if start := p.operandStart(first - 1); start >= 0 {
				kind, _ := p.concatOperand(start, first-1)
				visible = kind == concatArray
			}
		}
	} else if last, op := p.comparisonAfter(i); op && p.literalStarts(i) {
		if typ = p.columnAfter(last+1, p.arrayColumn); typ == "" {
			if end := p.operandEnd(last + 1); end >= 0 {
				kind, _ := p.concatOperand(last+1, end)
				visible = kind == concatArray
			}
		}
	}
	if typ == "" && visible && !p.edited(p.toks[i].Start, p.toks[i].End) {
		// array_remove(a, 'x') = '{}': DuckDB's list text, which DuckDB
		// casts to the other side's list type
		p.arrayLiteralOperand(i)
		return
	}
	if typ == "" || p.edited(p.toks[i].Start, p.toks[i].End) {
		return
	}
	to := assignedType(typ)
	if _, _, ok := arrayLiteralList(p.stringText(i)); !ok || to.kind != litArray {
		return
	}
	p.insert(p.toks[i].Start, "CAST(")
	p.readLiteral(i, to, -1, -1)
	p.insert(p.toks[i].End, " AS "+typ+")")
}

// comparisonOps are the comparison operators arrayCompared reads.
var comparisonOps = map[string]bool{"=": true, "<>": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// comparisonBefore reports whether the tokens before token i are a
// comparison operator, and its first token.
func (p *pass) comparisonBefore(i int) (first int, ok bool) {
	first = i - 1
	if p.kind(first) != sqltext.Op {
		return 0, false
	}
	if p.kind(first-1) == sqltext.Op && p.adjacent(first-1) {
		first--
	}
	if p.kind(first-1) == sqltext.Op && p.adjacent(first-1) {
		return 0, false // part of a longer operator
	}
	return first, comparisonOps[p.src[p.toks[first].Start:p.toks[i-1].End]]
}

// comparisonAfter is comparisonBefore for the operator after token i,
// and its last token.
func (p *pass) comparisonAfter(i int) (last int, ok bool) {
	last = i + 1
	if p.kind(last) != sqltext.Op {
		return 0, false
	}
	if p.kind(last+1) == sqltext.Op && p.adjacent(last) {
		last++
	}
	if p.kind(last+1) == sqltext.Op && p.adjacent(last) {
		return 0, false
	}
	return last, comparisonOps[p.src[p.toks[i+1].Start:p.toks[last].End]]
}

// arrayColumn returns the array type of the column named by token i, ""
// when it is none: the column of that name of a table the statement
// reads (FROM, JOIN, UPDATE; Session.TableColumns), else of every table
// (Session.ArrayColumns), when all columns of that name have one array
// type.
func (p *pass) arrayColumn(i int) string {
	name, ok := p.identifier(i)
	if !ok {
		return ""
	}
	name = strings.ToLower(name)
	if p.fromColumns == nil {
		p.fromColumns = map[string]string{}
		for k := 0; k < len(p.toks) && p.sess.TableColumns != nil; k++ {
			if !(p.isWord(k, "from") || p.isWord(k, "join") || k == 0 && p.isWord(k, "update")) {
				continue
			}
			end := p.nameEnd(k + 1)
			if end < 0 || p.kind(end) == sqltext.Open {
				continue
			}
			for _, c := range p.tableColumns(p.nameParts(k+1, end)) {
				c.Name = strings.ToLower(c.Name)
				if t, seen := p.fromColumns[c.Name]; seen && t != c.Type {
					c.Type = "" // two tables' columns of different types
				}
				p.fromColumns[c.Name] = c.Type
			}
		}
	}
	if typ, ok := p.fromColumns[name]; ok {
		if strings.HasSuffix(typ, "[]") {
			return typ
		}
		return ""
	}
	if p.sess.ArrayColumns == nil {
		return ""
	}
	if p.arrays == nil {
		p.arrays = p.sess.ArrayColumns()
		if p.arrays == nil {
			p.arrays = map[string]string{}
		}
	}
	return p.arrays[name]
}

// isEmptyArrayLiteral reports whether token i is the literal '{}' (or
// '{ }'), which is JSON too.
func (p *pass) isEmptyArrayLiteral(i int) bool {
	if !p.plainString(i) || p.isOp(i+1, ":") {
		return false
	}
	body, ok := strings.CutPrefix(strings.TrimSpace(p.stringText(i)), "{")
	body, ok2 := strings.CutSuffix(body, "}")
	return ok && ok2 && strings.TrimSpace(body) == ""
}
