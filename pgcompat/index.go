package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// createIndex is the rule of CREATE [UNIQUE] INDEX (token i is index):
// USING btree or hash is dropped (DuckDB's ART index is both); operator classes after a column (Django's "email" varchar_pattern_ops)
// are dropped — DuckDB has none, and its ART indexes serve prefix LIKE
// without them — and an index without a name (CREATE INDEX ON t (a, b))
// gets PostgreSQL's default one, t_a_b_idx (an expression is named after
// its function, t_lower_idx, else expr), which DuckDB requires.
func createIndex(p *pass, i int) {
	if !p.isWord(0, "create") || !(i == 1 || i == 2 && p.isWord(1, "unique")) {
		return
	}
	// USING btree or hash (Rails' schema dumps, pg_dump): DuckDB's ART
	// index serves both; other methods (gin, gist, …) stay DuckDB's error.
	for j := i + 1; j+2 < len(p.toks) && p.kind(j) != sqltext.Open; j++ {
		// (a unique hash index is PostgreSQL's error too: left to DuckDB's)
		hash := p.isWord(j+1, "hash") && i == 1
		if p.isWord(j, "using") && (p.isWord(j+1, "btree") || hash) && p.kind(j+2) == sqltext.Open {
			p.replace(p.toks[j].Start, p.toks[j+1].End, "")
			break
		}
	}
	indexElements(p, i)
	for j := i + 1; j < len(p.toks); j++ {
		if p.kind(j) == sqltext.Word && strings.HasSuffix(strings.ToLower(p.text(j)), "_ops") &&
			(p.kind(j-1) == sqltext.Quoted || p.kind(j-1) == sqltext.Word || p.kind(j-1) == sqltext.Close) {
			p.replace(p.toks[j-1].End, p.toks[j].End, "")
		}
	}
	if !p.isWord(i+1, "on") {
		return
	}
	j := i + 2
	if p.isWord(j, "only") {
		j++
	}
	table := ""
	for ; p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted; j += 2 {
		table = sqltext.UnquoteIdent(p.text(j)) // the last part of schema.table
		if !p.isOp(j+1, ".") {
			j++
			break
		}
	}
	if table == "" {
		return
	}
	if p.isWord(j, "using") {
		j += 2
	}
	if p.kind(j) != sqltext.Open {
		return
	}
	end := p.matchForward(j)
	if end < 0 {
		return
	}
	var parts []string
	start := j + 1
	for k := j + 1; k <= end; k++ {
		if k < end && !p.isOp(k, ",") {
			if p.kind(k) == sqltext.Open {
				k = p.matchForward(k)
				if k < 0 {
					return
				}
			}
			continue
		}
		// one element: a column (with ASC, DESC, NULLS …, an opclass), or an
		// expression
		e := start
		if p.kind(e) == sqltext.Open { // (expression)
			e++
		}
		switch {
		case e == start && (p.kind(e) == sqltext.Word || p.kind(e) == sqltext.Quoted) && (e+1 == k || p.kind(e+1) == sqltext.Word):
			parts = append(parts, sqltext.UnquoteIdent(p.text(e)))
		case p.kind(e) == sqltext.Word && p.kind(e+1) == sqltext.Open: // f(…): named after the function
			parts = append(parts, strings.ToLower(p.text(e)))
		default:
			parts = append(parts, "expr")
		}
		start = k + 1
	}
	name := table + "_" + strings.Join(parts, "_") + "_idx"
	if len(name) > 63 { // PostgreSQL's limit on names
		name = name[:63]
	}
	p.insert(p.toks[i].End, " "+sqltext.QuoteIdent(name))
}

// indexElements reads what follows CREATE [UNIQUE] INDEX [name] ON t
// [USING m] (elements) (token i is index) that DuckDB lacks:
//   - COLLATE "C" (or "POSIX") after an element is dropped: DuckDB
//     compares strings bytewise by default, which is that collation;
//   - the predicate of a partial index that is not UNIQUE (CREATE INDEX
//     … WHERE deleted_at IS NULL: Django's Index(condition=…), Rails'
//     add_index … where:) is dropped: the index covers every row, which
//     answers every query as the partial one would. A UNIQUE partial
//     index, whose predicate decides which rows must differ, stays
//     DuckDB's error.
func indexElements(p *pass, i int) {
	j := i + 1
	for j < len(p.toks) && !p.isWord(j, "on") {
		if p.kind(j) == sqltext.Open || p.kind(j) == sqltext.Semi {
			return
		}
		j++
	}
	for j < len(p.toks) && p.kind(j) != sqltext.Open {
		if p.kind(j) == sqltext.Semi {
			return
		}
		j++
	}
	end := p.matchForward(j)
	if end < 0 {
		return
	}
	for k := j + 1; k+1 < end; k++ {
		if p.isWord(k, "collate") && (p.kind(k+1) == sqltext.Quoted || p.kind(k+1) == sqltext.Word) {
			switch strings.ToUpper(sqltext.UnquoteIdent(p.text(k + 1))) {
			case "C", "POSIX":
				p.replace(p.toks[k-1].End, p.toks[k+1].End, "")
			}
		}
	}
	if p.isWord(end+1, "where") && !p.isWord(i-1, "unique") {
		stop := len(p.toks) - 1
		if p.kind(stop) == sqltext.Semi {
			stop--
		}
		p.replace(p.toks[end].End, p.toks[stop].End, "")
	}
}
