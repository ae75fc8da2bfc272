package sqltext

import "strings"

// Scan facts about a statement that the server needs before preparing it.
type Scan struct {
	// CallsVsql is true when the statement calls a vsql_* function.
	CallsVsql bool
	// Reserved is true when the statement mentions __vsql anywhere (the
	// internal functions behind vsql_* are not for direct use).
	Reserved bool
	// Catalogs lists quoted catalog names that route to other branches or
	// snapshots: "retail/dev".t, "retail@4".t.
	Catalogs []string
	// Qualifiers lists the first name of every dotted name (x in x.y and
	// x.y.z), unquoted, words in lower case: the server checks which of
	// them name a database (retail.orders reaches database retail's main
	// branch).
	Qualifiers []string
}

// ScanStatement collects what Scan describes, from the statement's tokens.
func ScanStatement(st Statement) Scan {
	var sc Scan
	src := st.SQL
	var prev token
	havePrev := false
	chainStart := false // prev begins a dotted name (no "." before it)
	for _, t := range st.Tokens() {
		tok := token{t.Kind.internal(), t.Start, t.End}
		text := src[tok.start:tok.end]
		if strings.Contains(strings.ToLower(text), "__vsql") {
			sc.Reserved = true
		}
		if tok.kind == tokWord && strings.HasPrefix(strings.ToLower(text), "vsql_") {
			sc.CallsVsql = true
		}
		if havePrev && prev.kind == tokQuoted && text == "." && prev.end == tok.start {
			name := UnquoteIdent(src[prev.start:prev.end])
			if strings.ContainsAny(name, "/@") {
				sc.Catalogs = append(sc.Catalogs, name)
			}
		}
		if chainStart && text == "." {
			q := src[prev.start:prev.end]
			if prev.kind == tokQuoted {
				q = UnquoteIdent(q)
			} else {
				q = strings.ToLower(q)
			}
			sc.Qualifiers = append(sc.Qualifiers, q)
		}
		chainStart = (tok.kind == tokWord || tok.kind == tokQuoted) && !(havePrev && src[prev.start:prev.end] == ".")
		prev, havePrev = tok, true
	}
	return sc
}

// QuoteNamedArguments quotes every bare word used as a named argument
// ("from => 'main'" becomes "\"from\" => 'main'"), so that argument names
// that are SQL keywords (from, to, table) work in vsql_* calls.
func QuoteNamedArguments(st Statement) Statement {
	src, toks := st.SQL, st.Tokens()
	var edits []Edit
	for i := 0; i+2 < len(toks); i++ {
		w, eq, gt := toks[i], toks[i+1], toks[i+2]
		if w.Kind != Word || src[eq.Start:eq.End] != "=" || src[gt.Start:gt.End] != ">" || eq.End != gt.Start {
			continue
		}
		edits = append(edits, Edit{w.Start, w.End, QuoteIdent(strings.ToLower(src[w.Start:w.End]))})
	}
	return st.Edit(edits)
}
