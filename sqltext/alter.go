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

// DropList splits PostgreSQL's DROP {TABLE | VIEW | SEQUENCE | INDEX |
// TYPE | SCHEMA | MACRO} [IF EXISTS] name, name, … [CASCADE | RESTRICT] —
// several objects in one statement, which DuckDB refuses ("Can only drop
// one object at a time") — into one DROP statement per object, in order,
// each with the statement's IF EXISTS and CASCADE or RESTRICT (a name
// written twice is dropped once). tag is the
// command tag (DROP TABLE). ok is false for a statement naming one object,
// or one it does not read.
func DropList(st Statement) (stmts []string, tag string, ok bool) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	op := func(i int, c string) bool {
		return i < len(toks) && toks[i].Kind == Op && sql[toks[i].Start:toks[i].End] == c
	}
	if !word(0, "drop") || len(toks) < 3 {
		return nil, "", false
	}
	kind := strings.ToUpper(sql[toks[1].Start:toks[1].End])
	switch kind {
	case "TABLE", "VIEW", "SEQUENCE", "INDEX", "TYPE", "SCHEMA", "MACRO":
	default:
		return nil, "", false
	}
	i := 2
	if word(i, "if") && word(i+1, "exists") {
		i += 2
	}
	prefix := sql[toks[0].Start:toks[i-1].End]
	end := len(toks)
	if toks[end-1].Kind == Semi {
		end--
	}
	suffix := ""
	if word(end-1, "cascade") || word(end-1, "restrict") {
		suffix = " " + sql[toks[end-1].Start:toks[end-1].End]
		end--
	}
	// names: name, schema.name or catalog.schema.name, separated by commas
	var names []string
	for i < end {
		start := i
		for {
			if i >= end || (toks[i].Kind != Word && toks[i].Kind != Quoted) {
				return nil, "", false
			}
			i++
			if !op(i, ".") {
				break
			}
			i++
		}
		names = append(names, sql[toks[start].Start:toks[i-1].End])
		if i < end {
			if !op(i, ",") {
				return nil, "", false
			}
			i++
			if i == end {
				return nil, "", false // a trailing comma
			}
		}
	}
	if len(names) < 2 {
		return nil, "", false
	}
	seen := map[string]bool{}
	for _, n := range names {
		key := n // a name written twice is dropped once, as PostgreSQL does
		if !strings.Contains(n, `"`) {
			key = strings.ToLower(n)
		}
		if !seen[key] {
			seen[key] = true
			stmts = append(stmts, prefix+" "+n+suffix)
		}
	}
	return stmts, "DROP " + kind, true
}
