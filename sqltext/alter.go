package sqltext

import "strings"

// AlterActions splits PostgreSQL's ALTER TABLE [IF EXISTS] [ONLY] name
// action, action, … — several actions in one statement, which DuckDB
// refuses ("Only one ALTER command per statement") — into one ALTER TABLE
// statement per action, in order. ok is false for a statement with one
// action, or one it does not read.
func AlterActions(st Statement) (stmts []string, ok bool) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	op := func(i int, c string) bool {
		return i < len(toks) && toks[i].Kind == Op && sql[toks[i].Start:toks[i].End] == c
	}
	if !word(0, "alter") || !word(1, "table") {
		return nil, false
	}
	i := 2
	if word(i, "if") && word(i+1, "exists") {
		i += 2
	}
	if word(i, "only") {
		i++
	}
	// the table's name: name, schema.name or catalog.schema.name
	for {
		if i >= len(toks) || (toks[i].Kind != Word && toks[i].Kind != Quoted) {
			return nil, false
		}
		i++
		if !op(i, ".") {
			break
		}
		i++
	}
	if op(i, "*") {
		i++
	}
	if i >= len(toks) {
		return nil, false
	}
	prefix := sql[toks[0].Start:toks[i-1].End]
	// actions: separated by commas outside parentheses
	start, depth := i, 0
	end := len(toks)
	if end > start && toks[end-1].Kind == Semi {
		end--
	}
	for j := i; j <= end; j++ {
		if j < end {
			switch toks[j].Kind {
			case Open:
				depth++
				continue
			case Close:
				depth--
				continue
			}
			if depth != 0 || !op(j, ",") {
				continue
			}
		}
		if j == start {
			return nil, false // an empty action
		}
		stmts = append(stmts, prefix+" "+sql[toks[start].Start:toks[j-1].End])
		start = j + 1
	}
	if len(stmts) < 2 {
		return nil, false
	}
	return stmts, true
}
