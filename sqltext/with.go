package sqltext

import "strings"

// CTE is one WITH query: Head is its name as written, with a column list
// if any (name (a, b)); Body is the query inside its parentheses.
// Modifying is true for INSERT, UPDATE, DELETE or MERGE, Returning when
// such a body has a RETURNING clause.
type CTE struct {
	Head, Body           string
	Materialized         string // "", "MATERIALIZED" or "NOT MATERIALIZED"
	Modifying, Returning bool
}

// ModifyingWith reads WITH [RECURSIVE] name [(…)] AS [[NOT] MATERIALIZED]
// (body), … main — ok only when at least one body is a data-modifying
// statement (PostgreSQL's WITH i AS (INSERT … RETURNING …) SELECT …,
// which DuckDB refuses: "A CTE needs a SELECT"). main is the statement
// after the WITH list. The queries of a WITH RECURSIVE list come in
// PostgreSQL's order, each after those it reads (referenceOrder).
func ModifyingWith(st Statement) (recursive bool, ctes []CTE, main string, ok bool) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	if !word(0, "with") {
		return false, nil, "", false
	}
	i := 1
	if word(i, "recursive") {
		recursive = true
		i++
	}
	closing := func(open int) int { // the ) matching toks[open]
		depth := 0
		for j := open; j < len(toks); j++ {
			switch toks[j].Kind {
			case Open:
				depth++
			case Close:
				depth--
				if depth == 0 {
					return j
				}
			}
		}
		return -1
	}
	modifying := false
	var names []string  // each query's name, folded
	var bodies [][2]int // its body's tokens
	for {
		// name [(columns)] AS [[NOT] MATERIALIZED] (body)
		if i >= len(toks) || (toks[i].Kind != Word && toks[i].Kind != Quoted) {
			return false, nil, "", false
		}
		headStart := toks[i].Start
		names = append(names, UnquoteIdent(sql[toks[i].Start:toks[i].End]))
		i++
		if i < len(toks) && toks[i].Kind == Open {
			if i = closing(i); i < 0 {
				return false, nil, "", false
			}
			i++
		}
		if !word(i, "as") {
			return false, nil, "", false
		}
		c := CTE{Head: sql[headStart:toks[i-1].End]}
		i++
		switch {
		case word(i, "materialized"):
			c.Materialized = "MATERIALIZED"
			i++
		case word(i, "not") && word(i+1, "materialized"):
			c.Materialized = "NOT MATERIALIZED"
			i += 2
		}
		if i >= len(toks) || toks[i].Kind != Open {
			return false, nil, "", false
		}
		end := closing(i)
		if end < 0 || end == i+1 {
			return false, nil, "", false
		}
		c.Body = sql[toks[i+1].Start:toks[end-1].End]
		bodies = append(bodies, [2]int{i + 1, end})
		if word(i+1, "insert") || word(i+1, "update") || word(i+1, "delete") || word(i+1, "merge") {
			c.Modifying, modifying = true, true
			depth := 0
			for j := i + 1; j < end; j++ {
				switch toks[j].Kind {
				case Open:
					depth++
				case Close:
					depth--
				}
				if depth == 0 && word(j, "returning") {
					c.Returning = true
				}
			}
		}
		ctes = append(ctes, c)
		i = end + 1
		if i < len(toks) && toks[i].Kind == Op && sql[toks[i].Start:toks[i].End] == "," {
			i++
			continue
		}
		break
	}
	if !modifying || i >= len(toks) {
		return false, nil, "", false
	}
	if recursive {
		ctes = referenceOrder(toks, sql, ctes, names, bodies)
	}
	return recursive, ctes, strings.TrimRight(sql[toks[i].Start:], "; \t\r\n"), true
}

// referenceOrder puts the queries of a WITH RECURSIVE list in PostgreSQL's
// order when one names a query after it (WITH RECURSIVE t AS (INSERT …
// SELECT … FROM t2 …), t2 AS (…)): each after the queries it reads (a
// name after FROM, JOIN, USING or a comma). The list stays as written
// without such a reference, or when two queries read each other.
func referenceOrder(toks []Token, sql string, ctes []CTE, names []string, bodies [][2]int) []CTE {
	n := len(ctes)
	deps := make([][]bool, n)
	forward := false
	for k := range ctes {
		deps[k] = make([]bool, n)
		for j := bodies[k][0]; j < bodies[k][1]; j++ {
			t := toks[j]
			if t.Kind != Word && t.Kind != Quoted || j == 0 {
				continue
			}
			prev := toks[j-1]
			p := strings.ToLower(sql[prev.Start:prev.End])
			if p != "from" && p != "join" && p != "using" && p != "," {
				continue
			}
			if j+1 < len(toks) && (toks[j+1].Kind == Open || toks[j+1].Kind == Op && sql[toks[j+1].Start:toks[j+1].End] == ".") {
				continue
			}
			name := UnquoteIdent(sql[t.Start:t.End])
			for m := range names {
				if m != k && names[m] == name {
					deps[k][m] = true
					forward = forward || m > k
				}
			}
		}
	}
	if !forward {
		return ctes
	}
	order, ok := DependencyOrder(deps)
	if !ok {
		return ctes
	}
	out := make([]CTE, n)
	for k, from := range order {
		out[k] = ctes[from]
	}
	return out
}

// DependencyOrder is PostgreSQL's order of a WITH RECURSIVE list: again and
// again the first item all of whose references (deps[k][m]: item k reads
// item m; an item's reference to itself does not count) are placed. ok is
// false when items read each other.
func DependencyOrder(deps [][]bool) (order []int, ok bool) {
	n := len(deps)
	placed := make([]bool, n)
	for len(order) < n {
		found := -1
		for k := 0; k < n && found < 0; k++ {
			if placed[k] {
				continue
			}
			ready := true
			for m := 0; m < n && ready; m++ {
				ready = m == k || !deps[k][m] || placed[m]
			}
			if ready {
				found = k
			}
		}
		if found < 0 {
			return nil, false
		}
		placed[found] = true
		order = append(order, found)
	}
	return order, true
}

// ReturningShape returns a query with the columns and types of a
// data-modifying statement's RETURNING list: SELECT <list> FROM <target>
// [AS alias] (INSERT INTO t [AS a] …, UPDATE [ONLY] t [[AS] a] SET …,
// DELETE FROM [ONLY] t [[AS] a] …). ok is false without RETURNING, or
// for a target it cannot read.
func ReturningShape(body string) (query string, ok bool) {
	st := Parse(body)
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	i := 0
	switch {
	case word(0, "insert") && word(1, "into"), word(0, "delete") && word(1, "from"):
		i = 2
	case word(0, "update"):
		i = 1
	default:
		return "", false
	}
	if word(i, "only") {
		i++
	}
	start := i
	for {
		if i >= len(toks) || (toks[i].Kind != Word && toks[i].Kind != Quoted) {
			return "", false
		}
		i++
		if i < len(toks) && toks[i].Kind == Op && sql[toks[i].Start:toks[i].End] == "." {
			i++
			continue
		}
		break
	}
	target := sql[toks[start].Start:toks[i-1].End]
	// an alias: AS a, or (UPDATE, DELETE) a bare name before SET / USING / WHERE
	switch {
	case word(i, "as") && i+1 < len(toks) && (toks[i+1].Kind == Word || toks[i+1].Kind == Quoted):
		target += " AS " + sql[toks[i+1].Start:toks[i+1].End]
	case !word(0, "insert") && i < len(toks) && (toks[i].Kind == Word || toks[i].Kind == Quoted) &&
		!word(i, "set") && !word(i, "using") && !word(i, "where") && !word(i, "returning"):
		target += " AS " + sql[toks[i].Start:toks[i].End]
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].Kind {
		case Open:
			depth++
		case Close:
			depth--
		}
		if depth == 0 && word(j, "returning") && j+1 < len(toks) {
			return "SELECT " + strings.TrimRight(sql[toks[j+1].Start:], "; \t\r\n") + " FROM " + target, true
		}
	}
	return "", false
}
