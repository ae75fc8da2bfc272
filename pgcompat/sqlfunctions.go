package pgcompat

import (
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL's functions in LANGUAGE sql whose body is one query
// returning one value, as DuckDB macros: CREATE [OR REPLACE] FUNCTION
// f(a int, text) RETURNS int AS $$ SELECT a + length($2) $$ LANGUAGE sql
// [STRICT] becomes CREATE [OR REPLACE] MACRO f(a, "$2") AS
// CAST((SELECT …) AS int): the body is translated like a statement (its
// PostgreSQL semantics), $n names the nth parameter, the result is the
// first row's value as PostgreSQL's is, cast to the declared type, and a
// STRICT function gives NULL when an argument is NULL. RETURN expr (the
// SQL-standard body) becomes the expression, and so does a LANGUAGE
// plpgsql body that only returns one (BEGIN RETURN expr; END). DROP FUNCTION f(int)
// becomes DROP MACRO f. Functions DuckDB cannot express are left to it
// (it refuses them): other languages, SETOF and TABLE results, void,
// OUT parameters, defaults, bodies of several statements or that modify
// data.

// sqlFunction: token i is FUNCTION.
func sqlFunction(p *pass, i int) {
	switch {
	case i == 1 && p.isWord(0, "create"), i == 3 && p.isWord(0, "create") && p.isWord(1, "or") && p.isWord(2, "replace"):
		createSQLFunction(p, i)
	case i == 1 && p.isWord(0, "drop"):
		dropSQLFunction(p, i)
	}
}

func createSQLFunction(p *pass, i int) {
	end := len(p.toks)
	if p.kind(end-1) == sqltext.Semi {
		end--
	}
	nameEnd := p.nameEnd(i + 1)
	if nameEnd < 0 || p.kind(nameEnd) != sqltext.Open {
		return
	}
	name := p.src[p.toks[i+1].Start:p.toks[nameEnd-1].End]
	close := p.matchForward(nameEnd)
	if close < 0 {
		return
	}
	params, ok := p.functionParams(nameEnd+1, close)
	if !ok {
		return
	}
	var (
		retType, body string
		isReturn      bool
		strict, isSQL bool
		isPLpgSQL     bool
	)
	for k := close + 1; k < end; {
		switch w := strings.ToLower(p.text(k)); {
		case w == "returns":
			if p.isWord(k+1, "setof") || p.isWord(k+1, "table") || p.isWord(k+1, "void") || p.isWord(k+1, "trigger") || p.isWord(k+1, "record") {
				return
			}
			if p.isWord(k+1, "null") { // RETURNS NULL ON NULL INPUT
				strict = true
				k += 5
				continue
			}
			tEnd := p.typeEnd(k + 1)
			if tEnd < 0 {
				return
			}
			for p.isOp(tEnd+1, "[") && p.isOp(tEnd+2, "]") {
				tEnd += 2
			}
			retType = p.src[p.toks[k+1].Start:p.toks[tEnd].End]
			k = tEnd + 1
		case w == "language":
			isSQL = p.isWord(k+1, "sql")
			isPLpgSQL = p.isWord(k+1, "plpgsql")
			k += 2
		case w == "as":
			if p.kind(k+1) != sqltext.String || p.isOp(k+2, ",") {
				return // AS 'obj', 'symbol': C
			}
			body = stringValue(p.text(k + 1))
			k += 2
		case w == "return":
			if k+1 >= end {
				return // (RETURN without an expression: PostgreSQL's syntax error)
			}
			body, isReturn = p.src[p.toks[k+1].Start:p.toks[end-1].End], true
			k = end
		case w == "strict":
			strict = true
			k++
		case w == "called": // CALLED ON NULL INPUT
			k += 4
		case w == "immutable", w == "stable", w == "volatile", w == "leakproof":
			k++
		case w == "not" && p.isWord(k+1, "leakproof"):
			k += 2
		case w == "parallel", w == "cost", w == "rows":
			k += 2
		case w == "security", w == "external" && p.isWord(k+1, "security"):
			k += 2
			if w == "external" {
				k++
			}
		default:
			return // SET, TRANSFORM, WINDOW, SUPPORT, BEGIN ATOMIC, …
		}
	}
	if isPLpgSQL && !isReturn {
		// BEGIN RETURN expr; END: the expression, as in LANGUAGE sql
		expr, ok := plpgsqlReturn(body)
		if !ok {
			return
		}
		body, isReturn, isSQL = expr, true, true
	}
	if !isSQL || body == "" || retType == "" {
		return
	}
	expr, ok := p.functionBody(body, isReturn, params)
	if !ok {
		return
	}
	if strict && len(params) > 0 {
		conds := make([]string, len(params))
		for k, prm := range params {
			conds[k] = prm + " IS NULL"
		}
		expr = "CASE WHEN " + strings.Join(conds, " OR ") + " THEN NULL ELSE " + expr + " END"
	}
	if !polymorphic[strings.ToLower(retType)] {
		expr = "CAST(" + expr + " AS " + retType + ")"
	}
	head := "CREATE MACRO "
	if i == 3 {
		head = "CREATE OR REPLACE MACRO "
	}
	p.edits = p.edits[:0]
	p.replace(p.toks[0].Start, p.toks[end-1].End, head+name+"("+strings.Join(params, ", ")+") AS "+expr)
	p.whole = true
}

// plpgsqlReturn reads a PL/pgSQL body that only returns an expression,
// BEGIN RETURN expr; END (any case, a final semicolon or not): the
// expression's text.
func plpgsqlReturn(body string) (string, bool) {
	toks := sqltext.Tokens(body)
	word := func(k int, w string) bool {
		return k >= 0 && k < len(toks) && toks[k].Kind == sqltext.Word && strings.EqualFold(body[toks[k].Start:toks[k].End], w)
	}
	n := len(toks)
	if n > 0 && toks[n-1].Kind == sqltext.Semi {
		n--
	}
	// BEGIN RETURN … ; END
	if n < 5 || !word(0, "begin") || !word(1, "return") || !word(n-1, "end") || toks[n-2].Kind != sqltext.Semi {
		return "", false
	}
	for k := 2; k < n-2; k++ {
		if toks[k].Kind == sqltext.Semi {
			return "", false // more than one statement
		}
	}
	return body[toks[2].Start:toks[n-3].End], true
}

// polymorphic are the result types a macro's expression keeps as they are.
var polymorphic = map[string]bool{"anyelement": true, "anyarray": true, "anynonarray": true, "anycompatible": true,
	"anycompatiblearray": true, "anyenum": true}

// functionParams reads the parameters of tokens start…end-1: [IN] [name]
// type, by commas; a parameter without a name is called "$n" (quoted).
func (p *pass) functionParams(start, end int) ([]string, bool) {
	var params []string
	for k := start; k < end; {
		n := len(params) + 1
		if p.isWord(k, "in") {
			k++
		}
		if p.isWord(k, "out") || p.isWord(k, "inout") || p.isWord(k, "variadic") {
			return nil, false
		}
		item := k
		depth := 0
		for ; k < end && (depth > 0 || !p.isOp(k, ",")); k++ {
			switch {
			case p.kind(k) == sqltext.Open:
				depth++
			case p.kind(k) == sqltext.Close:
				depth--
			case p.isWord(k, "default") || p.isOp(k, "="):
				return nil, false
			}
		}
		name := `"$` + strconv.Itoa(n) + `"`
		// name type: a word before a type; a lone type has no name
		if tEnd := p.typeEnd(item + 1); (p.kind(item) == sqltext.Word || p.kind(item) == sqltext.Quoted) && tEnd >= 0 && tEnd < k {
			name = p.text(item)
		}
		params = append(params, name)
		k++ // the comma
	}
	return params, true
}

// functionBody is the macro expression of a function body: the query's
// first row's value, or RETURN's expression; $n becomes the nth
// parameter's name.
func (p *pass) functionBody(body string, isReturn bool, params []string) (string, bool) {
	body = strings.TrimSpace(body)
	body = strings.TrimSpace(strings.TrimSuffix(body, ";"))
	stmts := sqltext.Split(body)
	if len(stmts) != 1 {
		return "", false
	}
	st := stmts[0]
	if !isReturn {
		switch st.Keyword(0) {
		case "SELECT", "VALUES", "WITH":
		default:
			return "", false
		}
	}
	// $n → the parameter
	var edits []sqltext.Edit
	for _, t := range st.Tokens() {
		if t.Kind == sqltext.Word {
			switch strings.ToLower(st.SQL[t.Start:t.End]) {
			case "insert", "update", "delete", "merge":
				return "", false // a data-modifying WITH
			}
		}
		if t.Kind != sqltext.Param {
			continue
		}
		n, err := strconv.Atoi(st.SQL[t.Start+1 : t.End])
		if err != nil || n < 1 || n > len(params) {
			return "", false
		}
		edits = append(edits, sqltext.Edit{Start: t.Start, End: t.End, Text: params[n-1]})
	}
	if len(edits) > 0 {
		st = st.Edit(edits)
	}
	out := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(translateBody(st, p.sess).SQL), ";"))
	if isReturn {
		return "(" + out + ")", true
	}
	return "(SELECT * FROM (" + out + ") LIMIT 1)", true
}

// translateBody is the translation of a function's body, as of a
// statement (set in init: the rules that call it are part of it).
var translateBody func(sqltext.Statement, Session) sqltext.Statement

func init() {
	translateBody = func(st sqltext.Statement, sess Session) sqltext.Statement {
		st, _ = sqltext.RewritePostgresIn(st)
		st, _ = rewrite(st, sess)
		return st
	}
}

// dropSQLFunction: DROP FUNCTION [IF EXISTS] f[(types)] [CASCADE |
// RESTRICT] of one function, as DROP MACRO.
func dropSQLFunction(p *pass, i int) {
	k := i + 1
	ifExists := p.isWord(k, "if") && p.isWord(k+1, "exists")
	if ifExists {
		k += 2
	}
	nameEnd := p.nameEnd(k)
	if nameEnd < 0 {
		return
	}
	name := p.src[p.toks[k].Start:p.toks[nameEnd-1].End]
	j := nameEnd
	if p.kind(j) == sqltext.Open {
		if j = p.matchForward(j); j < 0 {
			return
		}
		j++
	}
	if p.isWord(j, "cascade") || p.isWord(j, "restrict") {
		j++
	}
	if j < len(p.toks) && p.kind(j) != sqltext.Semi {
		return // several functions
	}
	head := "DROP MACRO "
	if ifExists {
		head += "IF EXISTS "
	}
	p.edits = p.edits[:0]
	p.replace(p.toks[0].Start, p.toks[j-1].End, head+name)
	p.whole = true
}

// stringValue is the text of a string literal: '…' (stringBody), or
// $tag$…$tag$; "" for what it cannot read.
func stringValue(lit string) string {
	if s, ok := stringBody(lit); ok {
		return s
	}
	if strings.HasPrefix(lit, "$") {
		if k := strings.IndexByte(lit[1:], '$'); k >= 0 {
			tag := lit[:k+2]
			return strings.TrimSuffix(strings.TrimPrefix(lit, tag), tag)
		}
	}
	return ""
}
