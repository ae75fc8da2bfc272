package pgcompat

import (
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// A sequence is named by a string in nextval('s'), currval('s') and
// setval('s', n): pg_dump and PostgreSQL's own column defaults write
// nextval('public.t_id_seq'::regclass). The regclass cast (which the name
// rewrite turns into a call of regclass_oid, an OID DuckDB's nextval does
// not take) is dropped, and a schema named public in the string is main,
// as public.x is everywhere else (DuckDB reads the string as a qualified,
// possibly quoted name at run time).

// sequenceArg rewrites the first argument of the sequence function at
// token i.
func sequenceArg(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") && !p.isWord(i-2, "pg_catalog") {
		return
	}
	first := i + 2
	lit, end := first, first
	if !p.plainString(first) {
		// memory.__vsql_pg.regclass_oid('…') (from '…'::regclass)
		open := first
		for open < len(p.toks) && p.kind(open) != sqltext.Open && open-first < 6 {
			open++
		}
		if p.kind(open) != sqltext.Open || p.src[p.toks[first].Start:p.toks[open-1].End] != sqltext.PGCatalogSchema+".regclass_oid" ||
			!p.plainString(open+1) || p.kind(open+2) != sqltext.Close {
			return
		}
		lit, end = open+1, open+2
	}
	if p.isOp(end+1, ":") && p.isOp(end+2, ":") && p.isWord(end+3, "regclass") {
		end += 3 // (a statement the name rewrite did not see)
	}
	if p.kind(end+1) != sqltext.Close && !p.isOp(end+1, ",") {
		return
	}
	name := PublicToMain(strings.ReplaceAll(p.text(lit)[1:len(p.text(lit))-1], "''", "'"))
	p.replace(p.toks[first].Start, p.toks[end].End, sqltext.QuoteString(name))
}

// PublicToMain rewrites a schema named public in a qualified name written
// as PostgreSQL reads it ("public"."s", public.s, db.public.s) to main.
func PublicToMain(name string) string {
	parts := SplitQualified(name)
	if len(parts) < 2 {
		return name
	}
	schema := len(parts) - 2
	if sqltext.UnquoteIdent(parts[schema]) == "public" {
		parts[schema] = "main"
	}
	return strings.Join(parts, ".")
}

// SplitQualified splits a.b."c.d" at the dots outside double quotes.
func SplitQualified(name string) []string { return splitUnquoted(name, '.') }

// splitUnquoted splits s at each sep outside double quotes.
func splitUnquoted(s string, sep byte) []string {
	var parts []string
	start, quoted := 0, false
	for k := 0; k < len(s); k++ {
		switch s[k] {
		case '"':
			quoted = !quoted
		case sep:
			if !quoted {
				parts = append(parts, s[start:k])
				start = k + 1
			}
		}
	}
	return append(parts, s[start:])
}

// sequenceTypeBounds are the bounds CREATE SEQUENCE … AS type gives an
// ascending sequence without MAXVALUE, and a descending one without
// MINVALUE ("" for bigint: DuckDB's own).
var sequenceTypeBounds = map[string][2]string{"smallint": {"-32768", "32767"}, "int2": {"-32768", "32767"},
	"integer": {"-2147483648", "2147483647"}, "int": {"-2147483648", "2147483647"}, "int4": {"-2147483648", "2147483647"},
	"bigint": {}, "int8": {}}

// notSequenceTypes are PostgreSQL types that are no sequence's type
// (PostgreSQL's 22023; an unknown name is DuckDB's error).
var notSequenceTypes = map[string]bool{"text": true, "varchar": true, "char": true, "character": true, "numeric": true,
	"decimal": true, "real": true, "float": true, "float4": true, "float8": true, "double": true, "boolean": true, "bool": true,
	"date": true, "timestamp": true, "timestamptz": true, "time": true, "interval": true, "json": true, "jsonb": true,
	"uuid": true, "bytea": true, "money": true, "oid": true}

// canonicalIntType is an integer type's name as PostgreSQL prints it.
var canonicalIntType = map[string]string{"smallint": "smallint", "int2": "smallint", "integer": "integer", "int": "integer",
	"int4": "integer", "bigint": "bigint", "int8": "bigint"}

// signedNumber reads an integer literal at token i, with its minus sign.
func (p *pass) signedNumber(i int) (int64, bool) {
	if i <= 0 {
		return 0, false
	}
	text := p.text(i)
	if p.isOp(i, "-") && p.kind(i+1) == sqltext.Number {
		text = "-" + p.text(i+1)
	} else if p.kind(i) != sqltext.Number {
		return 0, false
	}
	v, err := strconv.ParseInt(text, 10, 64)
	return v, err == nil
}

// checkOwnedBy checks CREATE SEQUENCE's OWNED BY t.c | NONE (tokens
// from…to) as PostgreSQL does: NONE or a column of a table of the
// sequence's schema (the table's columns are asked of the session, when
// it can tell them).
func (p *pass) checkOwnedBy(from, to int) {
	if from == to {
		if !p.isWord(from, "none") {
			p.err = vsqlerr.New(vsqlerr.SyntaxError, "invalid OWNED BY option").WithHint("Specify OWNED BY table.column or OWNED BY NONE.")
		}
		return
	}
	if strings.HasPrefix(p.src[p.toks[from].Start:p.toks[to].End], sqltext.PGCatalogSchema+".") || p.isWord(from, "pg_catalog") {
		p.err = vsqlerr.New(vsqlerr.SequenceOwnerSchema, "sequence must be in same schema as table it is linked to")
		return
	}
	if p.sess.TableColumns == nil {
		return
	}
	var parts []string
	for k := from; k < to; k += 2 {
		parts = append(parts, identText(p.text(k)))
	}
	cols := p.tableColumns(parts)
	if cols == nil && len(parts) == 1 && sqltext.PGRelations[parts[0]] {
		p.err = vsqlerr.New(vsqlerr.SequenceOwnerSchema, "sequence must be in same schema as table it is linked to")
		return
	}
	if cols == nil {
		p.err = vsqlerr.New(vsqlerr.TableNotFound, "relation %q does not exist", strings.Join(parts, "."))
		return
	}
	column := identText(p.text(to))
	for _, c := range cols {
		if strings.EqualFold(c.Name, column) {
			return
		}
	}
	p.err = vsqlerr.New(vsqlerr.UndefinedColumn, "column %q of relation %q does not exist", column, parts[len(parts)-1])
}

// identText is an identifier as PostgreSQL reads it: quoted, unquoted;
// else lower-cased.
func identText(s string) string {
	if strings.HasPrefix(s, `"`) {
		return sqltext.UnquoteIdent(s)
	}
	return strings.ToLower(s)
}

// createSequence reads PostgreSQL's options of CREATE SEQUENCE that DuckDB
// refuses, as pg_dump writes them: AS smallint|integer|bigint (the
// type's bound becomes MAXVALUE, or MINVALUE for a descending sequence,
// unless the statement gives one; DuckDB's sequences are bigint), CACHE n
// (how many values a backend reserves: no effect on the values) and
// OWNED BY t.c | NONE (not recorded: DROP TABLE leaves the sequence).
// Token i is SEQUENCE.
func createSequence(p *pass, i int) {
	if !p.isWord(0, "create") || i > 3 {
		return
	}
	var asType string
	var asStart, asEnd int
	descending, hasMax, hasMin := false, false, false
	maxAt, minAt := -1, -1 // MAXVALUE n, MINVALUE n
	noMax, noMin := -1, -1 // NO MAXVALUE, NO MINVALUE
	for j := i + 1; j < len(p.toks); j++ {
		switch {
		case p.isWord(j, "as") && p.kind(j+1) == sqltext.Word:
			asType, asStart, asEnd = strings.ToLower(p.text(j+1)), j, j+1
		case p.isWord(j, "cache") && p.kind(j+1) == sqltext.Number:
			if n, err := strconv.ParseInt(p.text(j+1), 10, 64); err == nil && n <= 0 {
				p.err = vsqlerr.New(vsqlerr.SequenceParameter, "CACHE (%d) must be greater than zero", n)
			}
			p.replace(p.toks[j].Start, p.toks[j+1].End, "")
		case p.isWord(j, "owned") && p.isWord(j+1, "by"):
			k := j + 2
			for k+2 < len(p.toks) && p.isOp(k+1, ".") {
				k += 2
			}
			if k < len(p.toks) {
				p.checkOwnedBy(j+2, k)
			}
			p.replace(p.toks[j].Start, p.toks[k].End, "")
		case p.isWord(j, "increment"):
			k := j + 1
			if p.isWord(k, "by") {
				k++
			}
			descending = p.isOp(k, "-")
		case p.isWord(j, "maxvalue") && p.isWord(j-1, "no"):
			noMax = j - 1
		case p.isWord(j, "minvalue") && p.isWord(j-1, "no"):
			noMin = j - 1
		case p.isWord(j, "maxvalue"):
			hasMax, maxAt = true, j
		case p.isWord(j, "minvalue"):
			hasMin, minAt = true, j
		}
	}
	if asType == "" {
		return
	}
	bounds, ok := sequenceTypeBounds[asType]
	if !ok {
		if notSequenceTypes[asType] {
			p.err = vsqlerr.New(vsqlerr.SequenceParameter, "sequence type must be smallint, integer, or bigint")
		}
		return // another name: DuckDB's error
	}
	if r := sequenceTypeRange[asType]; bounds[0] != "" {
		for _, b := range []struct {
			at   int
			name string
		}{{maxAt, "MAXVALUE"}, {minAt, "MINVALUE"}} {
			if v, ok := p.signedNumber(b.at + 1); ok && (v < r[0] || v > r[1]) {
				p.err = vsqlerr.New(vsqlerr.SequenceParameter, "%s (%d) is out of range for sequence data type %s", b.name, v, canonicalIntType[asType])
				return
			}
		}
	}
	p.replace(p.toks[asStart].Start, p.toks[asEnd].End, "")
	// The bound goes last: DuckDB resets the bounds of a descending
	// sequence to its defaults when INCREMENT BY follows them.
	opt, no := "", -1
	switch {
	case bounds[0] == "":
	case !descending && !hasMax:
		opt, no = "MAXVALUE "+bounds[1], noMax
	case descending && !hasMin:
		opt, no = "MINVALUE "+bounds[0], noMin
	}
	if opt == "" {
		return
	}
	if no >= 0 {
		p.replace(p.toks[no].Start, p.toks[no+1].End, "") // (its default is the type's bound)
	}
	last := len(p.toks) - 1
	if p.kind(last) == sqltext.Semi {
		last--
	}
	p.insert(p.toks[last].End, " "+opt)
}

// nextval, currval and lastval answer as PostgreSQL's do, for the calling
// session (sqltext.TrackedNextval): nextval records the value it returns
// for the caller, currval and lastval read what the caller recorded.

// nextvalCall: nextval(a) → sqltext.TrackedNextval(a). Token i is nextval.
func nextvalCall(p *pass, i int) {
	if _, ok := p.sequenceCall(i); ok {
		sequenceArg(p, i)
		p.trackedCall(i, sqltext.TrackedNextval)
	}
}

// currvalCall: currval(a) → sqltext.TrackedCurrval(a).
func currvalCall(p *pass, i int) {
	if _, ok := p.sequenceCall(i); ok {
		sequenceArg(p, i)
		p.trackedCall(i, sqltext.TrackedCurrval)
	}
}

// lastvalCall: lastval() → sqltext.TrackedLastval().
func lastvalCall(p *pass, i int) {
	start, ok := p.sequenceCall(i)
	if !ok || p.kind(i+2) != sqltext.Close {
		return
	}
	p.replace(p.toks[start].Start, p.toks[i+2].End, sqltext.TrackedLastval())
}

// sequenceCall reports whether token i is a call of the built-in function
// it names (written alone or as pg_catalog.f, not inside the tracking
// function that already wraps it) and the token the call starts at.
func (p *pass) sequenceCall(i int) (start int, ok bool) {
	if p.kind(i+1) != sqltext.Open {
		return 0, false
	}
	start = i
	if p.isOp(i-1, ".") {
		if !p.isWord(i-2, "pg_catalog") || p.isOp(i-3, ".") {
			return 0, false
		}
		start = i - 2
	}
	// the call the tracking function already holds (a statement
	// rewritten once before): nextval(a) as its last argument, currval(a)
	// inside its CASE
	depth := 0
	for j := start - 1; j >= 0 && j >= start-40; j-- {
		switch p.kind(j) {
		case sqltext.Close:
			depth++
		case sqltext.Open:
			if depth == 0 {
				w := strings.ToLower(p.text(j - 1))
				return start, w != sqltext.NextvalFunction && w != sqltext.CurrvalFunction
			}
			depth--
		}
	}
	return start, true
}

// trackedCall replaces the call f(a) at token i by wrap(a), once the
// rules for the tokens of a have run (a as they rewrote it).
func (p *pass) trackedCall(i int, wrap func(string) string) {
	start, ok := p.sequenceCall(i)
	if !ok {
		return
	}
	close := p.matchForward(i + 1)
	if close < 0 || close == i+2 {
		return
	}
	depth := 0
	for j := i + 2; j < close; j++ {
		switch {
		case p.kind(j) == sqltext.Open:
			depth++
		case p.kind(j) == sqltext.Close:
			depth--
		case depth == 0 && p.isOp(j, ","):
			return // not the one-argument function
		}
	}
	p.deferred = append(p.deferred, func() {
		arg, ok := p.editedSource(p.toks[i+2].Start, p.toks[close-1].End)
		if !ok {
			return
		}
		p.replace(p.toks[start].Start, p.toks[close].End, wrap(arg))
	})
}
