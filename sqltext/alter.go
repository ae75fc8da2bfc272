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

// SchemaElements splits CREATE SCHEMA [IF NOT EXISTS] s [AUTHORIZATION r]
// CREATE TABLE a (…) CREATE SEQUENCE b … (PostgreSQL's schema elements,
// which DuckDB refuses) into the CREATE SCHEMA and one statement per
// element, each element's name qualified by the schema (an index's
// table). ok is false for a CREATE SCHEMA without elements, and for
// elements other than tables, sequences and indexes, or ones that name
// other objects (REFERENCES, a view's query): PostgreSQL resolves those
// in the new schema first, which a qualified name alone cannot say.
func SchemaElements(st Statement) (stmts []string, ok bool) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	if !word(0, "create") || !word(1, "schema") {
		return nil, false
	}
	end := len(toks)
	if end > 0 && toks[end-1].Kind == Semi {
		end--
	}
	i := 2
	if word(i, "if") && word(i+1, "not") && word(i+2, "exists") {
		i += 3
	}
	if i >= end || (toks[i].Kind != Word && toks[i].Kind != Quoted) || word(i, "authorization") {
		return nil, false // CREATE SCHEMA AUTHORIZATION r: named by the role
	}
	schema := sql[toks[i].Start:toks[i].End]
	i++
	if word(i, "authorization") {
		i += 2
	}
	header := sql[toks[0].Start:toks[i-1].End]
	// the elements: each starts at a CREATE outside parentheses
	var starts []int
	depth := 0
	for k := i; k < end; k++ {
		switch {
		case toks[k].Kind == Open:
			depth++
		case toks[k].Kind == Close:
			depth--
		case depth == 0 && word(k, "create"):
			starts = append(starts, k)
		case depth == 0 && len(starts) == 0:
			return nil, false // something else before the first element
		case word(k, "references"), word(k, "like"), word(k, "select"), word(k, "inherits"):
			return nil, false // names another object
		}
	}
	if len(starts) == 0 {
		return nil, false
	}
	stmts = []string{header}
	for n, s := range starts {
		last := end
		if n+1 < len(starts) {
			last = starts[n+1]
		}
		// CREATE [UNIQUE] INDEX [name] ON t …, CREATE [TEMP…] TABLE|SEQUENCE [IF NOT EXISTS] name …
		k := s + 1
		if word(k, "unique") {
			k++
		}
		var at int // the token of the name to qualify
		switch {
		case word(k, "index"):
			for at = k + 1; at < last && !word(at, "on"); at++ {
			}
			at++
			if word(at, "only") {
				at++
			}
		case word(k, "table"), word(k, "sequence"):
			if word(k, "table") {
				for d, j := 0, k; j < last; j++ {
					if toks[j].Kind == Open {
						d++
					} else if toks[j].Kind == Close {
						d--
					} else if d == 0 && word(j, "as") {
						return nil, false // CREATE TABLE … AS a query
					}
				}
			}
			at = k + 1
			if word(at, "if") && word(at+1, "not") && word(at+2, "exists") {
				at += 3
			}
		default:
			return nil, false
		}
		if at >= last || (toks[at].Kind != Word && toks[at].Kind != Quoted) || (at+1 < last && toks[at+1].Kind == Op && sql[toks[at+1].Start:toks[at+1].End] == ".") {
			return nil, false // no name, or one already qualified
		}
		stmts = append(stmts, sql[toks[s].Start:toks[at].Start]+schema+"."+sql[toks[at].Start:toks[last-1].End])
	}
	return stmts, true
}
