package difftest

import (
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// orderColumns reads the ORDER BY of a statement's own query — the last
// one outside parentheses; an ORDER BY inside OVER (…), an aggregate's
// argument list or a subquery does not order the result. ordered is
// false without one. cols are the result columns (indexes into fields,
// PostgreSQL's column names) its items sort by, when every item is a
// column position (ORDER BY 2) or a name that is exactly one result
// column's (ORDER BY salary, e.salary); nil when an item is anything
// else (an expression, a column not in the result).
func orderColumns(sql string, fields []string) (ordered bool, cols []int) {
	st := sqltext.Parse(sql)
	toks := st.Tokens()
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == sqltext.Word && strings.EqualFold(st.SQL[toks[i].Start:toks[i].End], w)
	}
	text := func(i int) string { return st.SQL[toks[i].Start:toks[i].End] }
	depth, at := 0, -1
	for i := range toks {
		switch toks[i].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		case sqltext.Word:
			if depth == 0 && word(i, "order") && word(i+1, "by") {
				at = i + 2
			}
		}
	}
	if at < 0 {
		return false, nil
	}
	// the items, up to LIMIT, OFFSET, FETCH, FOR or the end
	var items [][]int // token indexes of each item
	cur := []int{}
	depth = 0
	for i := at; i < len(toks); i++ {
		k := toks[i].Kind
		if depth == 0 && (k == sqltext.Semi || word(i, "limit") || word(i, "offset") || word(i, "fetch") || word(i, "for")) {
			break
		}
		switch {
		case k == sqltext.Open:
			depth++
		case k == sqltext.Close:
			depth--
		case depth == 0 && k == sqltext.Op && text(i) == ",":
			items, cur = append(items, cur), []int{}
			continue
		}
		cur = append(cur, i)
	}
	items = append(items, cur)
	for _, item := range items {
		// drop ASC, DESC, NULLS FIRST/LAST, USING op, COLLATE name
		n := len(item)
		for n > 0 {
			switch last := item[n-1]; {
			case word(last, "asc"), word(last, "desc"):
				n--
			case n >= 2 && word(item[n-2], "nulls") && (word(last, "first") || word(last, "last")):
				n -= 2
			case n >= 2 && word(item[n-2], "collate"):
				n -= 2
			default:
				goto core
			}
		}
	core:
		for u := 0; u < n; u++ {
			if word(item[u], "using") {
				n = u
				break
			}
		}
		c := -1
		switch {
		case n == 1 && toks[item[0]].Kind == sqltext.Number:
			if p, err := strconv.Atoi(text(item[0])); err == nil && p >= 1 && p <= len(fields) {
				c = p - 1
			}
		case n == 1 || (n == 3 && toks[item[1]].Kind == sqltext.Op && text(item[1]) == "."):
			last := item[n-1]
			if toks[last].Kind != sqltext.Word && toks[last].Kind != sqltext.Quoted {
				break
			}
			name := text(last)
			if toks[last].Kind == sqltext.Quoted {
				name = sqltext.UnquoteIdent(name)
			} else {
				name = strings.ToLower(name)
			}
			for j, f := range fields {
				if f == name {
					if c >= 0 {
						return true, nil // two result columns of that name
					}
					c = j
				}
			}
		}
		if c < 0 {
			return true, nil
		}
		cols = append(cols, c)
	}
	return true, cols
}

// tiesAgree reports whether vsqld's rows are PostgreSQL's in an order the
// ORDER BY allows: the same runs of rows with equal sort keys (cols), in
// the same order, each run the same rows in any order.
func tiesAgree(st Stmt, pg, vs [][]*string, cols []int) bool {
	if len(pg) != len(vs) {
		return false
	}
	key := func(r []*string) string {
		var b strings.Builder
		for _, c := range cols {
			if c >= len(r) {
				return "\x00bad"
			}
			b.WriteString(cell(st, c, r[c]))
			b.WriteByte('\x1f')
		}
		return b.String()
	}
	pt, vt := rowsText(st, pg), rowsText(st, vs)
	for start := 0; start < len(pg); {
		k := key(pg[start])
		end := start + 1
		for end < len(pg) && key(pg[end]) == k {
			end++
		}
		run := map[string]int{}
		for i := start; i < end; i++ {
			if key(vs[i]) != k {
				return false
			}
			run[pt[i]]++
			run[vt[i]]--
		}
		for _, n := range run {
			if n != 0 {
				return false
			}
		}
		start = end
	}
	return true
}
