package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// A WITH list as PostgreSQL's parser checks it (parse_cte.c), before
// DuckDB runs anything: DuckDB has none of these checks, and some of the
// queries PostgreSQL refuses run on it until the statement timeout (an
// aggregate or a subquery over the recursive reference).
//
//   - WITH x(a, b) AS (SELECT 1): more column names than the query has
//     columns (42P10), for any WITH list;
//   - in a WITH RECURSIVE list: mutual recursion between items (0A000);
//     a recursive item that is not non-recursive-term UNION [ALL]
//     recursive-term, or whose recursive reference appears in its
//     non-recursive term, in a subquery, on the nullable side of an outer
//     join, in INTERSECT ALL or EXCEPT, or more than once (42P19); an
//     aggregate function in the SELECT that reads the recursive
//     reference (42P19); ORDER BY, OFFSET, LIMIT or FOR UPDATE on the
//     recursive query (0A000);
//   - WITH RECURSIVE before MERGE (42601);
//   - items that name items after them (PostgreSQL orders a WITH
//     RECURSIVE list by its references; DuckDB reads it in order): the
//     list is written again in PostgreSQL's order;
//   - SEARCH and CYCLE clauses, which DuckDB has not, as PostgreSQL's
//     rewriter defines them (rewriteSearchAndCycle): the item gets the
//     extra columns, its non-recursive term computes their first values
//     and its recursive term the next ones (searchCycle).
//
// The checks read the statement's tokens; where its shape is beyond them
// (a WITH clause of the recursive query itself, a name they cannot place)
// they raise nothing and leave the statement to DuckDB.

// withItem is one query of a WITH list.
type withItem struct {
	name       string   // as PostgreSQL folds it
	nameTok    int      // its token
	cols       []string // the column list, folded (nil: none)
	colsClose  int      // the ) of the column list (-1: none)
	open       int      // the ( of the query
	close      int      // its )
	search     *searchClause
	cycle      *cycleClause
	clauseFrom int // the first token of SEARCH or CYCLE (-1: none)
	end        int // the token after the item
}

// searchClause is SEARCH DEPTH|BREADTH FIRST BY cols SET seq.
type searchClause struct {
	breadth bool
	cols    []string
	seq     string
}

// cycleClause is CYCLE cols SET mark [TO v DEFAULT d] USING path.
type cycleClause struct {
	cols       []string
	mark, path string
	to, def    [2]int // token ranges of the values
	hasToDef   bool   // TO v DEFAULT d given
}

// withQueries is the rule of WITH: the checks and rewrites above.
func withQueries(p *pass, i int) {
	storageParameters(p, i)
	viewOptions(p, i)
	if p.err != nil {
		return
	}
	recursive := p.isWord(i+1, "recursive")
	j := i + 1
	if recursive {
		j++
	}
	items, main, ok := p.withList(j)
	if !ok {
		return
	}
	var err error
	var deps [][]bool
	if recursive {
		deps = p.withDeps(items)
		err = p.checkRecursiveList(items, deps)
		if p.isWord(main, "merge") {
			err = vsqlerr.New(vsqlerr.SyntaxError, "WITH RECURSIVE is not supported for MERGE statement")
		}
	}
	for k := range items {
		if err != nil {
			break
		}
		err = p.checkWithItem(items, k, recursive)
	}
	if err != nil {
		p.fail(err)
		return
	}
	for k := range items {
		if items[k].search != nil || items[k].cycle != nil {
			p.searchCycle(items, k)
		}
	}
	if recursive {
		p.reorderWithList(items, deps) // (after searchCycle's edits, which it copies)
	}
}

// fail records the statement's error (the first one wins).
func (p *pass) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// withList reads the items of a WITH list from token j: name [(cols)]
// AS [[NOT] MATERIALIZED] (query) [SEARCH …] [CYCLE …], by commas; main
// is the token after the list.
func (p *pass) withList(j int) (items []withItem, main int, ok bool) {
	for {
		if p.kind(j) != sqltext.Word && p.kind(j) != sqltext.Quoted {
			return nil, 0, false
		}
		it := withItem{name: sqltext.UnquoteIdent(p.text(j)), nameTok: j, colsClose: -1, clauseFrom: -1}
		j++
		if p.kind(j) == sqltext.Open {
			close := p.matchForward(j)
			if close < 0 {
				return nil, 0, false
			}
			for k := j + 1; k < close; k++ {
				if p.kind(k) != sqltext.Word && p.kind(k) != sqltext.Quoted {
					return nil, 0, false
				}
				it.cols = append(it.cols, sqltext.UnquoteIdent(p.text(k)))
				k++
				if k < close && !p.isOp(k, ",") {
					return nil, 0, false
				}
			}
			it.colsClose = close
			j = close + 1
		}
		if !p.isWord(j, "as") {
			return nil, 0, false
		}
		j++
		if p.isWord(j, "not") && p.isWord(j+1, "materialized") {
			j += 2
		} else if p.isWord(j, "materialized") {
			j++
		}
		if p.kind(j) != sqltext.Open {
			return nil, 0, false
		}
		it.open, it.close = j, p.matchForward(j)
		if it.close < 0 {
			return nil, 0, false
		}
		j = it.close + 1
		if p.isWord(j, "search") || p.isWord(j, "cycle") {
			it.clauseFrom = j
		}
		if p.isWord(j, "search") {
			s := &searchClause{}
			switch {
			case p.isWord(j+1, "depth"):
			case p.isWord(j+1, "breadth"):
				s.breadth = true
			default:
				return nil, 0, false
			}
			if !p.isWord(j+2, "first") || !p.isWord(j+3, "by") {
				return nil, 0, false
			}
			if s.cols, j, ok = p.nameList(j + 4); !ok || !p.isWord(j, "set") || !p.isName(j+1) {
				return nil, 0, false
			}
			s.seq = sqltext.UnquoteIdent(p.text(j + 1))
			it.search = s
			j += 2
		}
		if p.isWord(j, "cycle") {
			c := &cycleClause{}
			if c.cols, j, ok = p.nameList(j + 1); !ok || !p.isWord(j, "set") || !p.isName(j+1) {
				return nil, 0, false
			}
			c.mark = sqltext.UnquoteIdent(p.text(j + 1))
			j += 2
			if p.isWord(j, "to") {
				var to, def int
				if to = p.constantEnd(j + 1); to < 0 || !p.isWord(to, "default") {
					return nil, 0, false
				}
				if def = p.constantEnd(to + 1); def < 0 {
					return nil, 0, false
				}
				c.to, c.def, c.hasToDef = [2]int{j + 1, to}, [2]int{to + 1, def}, true
				j = def
			}
			if !p.isWord(j, "using") || !p.isName(j+1) {
				return nil, 0, false
			}
			c.path = sqltext.UnquoteIdent(p.text(j + 1))
			it.cycle = c
			j += 2
		}
		it.end = j
		items = append(items, it)
		if !p.isOp(j, ",") {
			return items, j, true
		}
		j++
	}
}

// isName reports an identifier at token i.
func (p *pass) isName(i int) bool {
	return p.kind(i) == sqltext.Word || p.kind(i) == sqltext.Quoted
}

// nameList reads name, name, … from token j, folded.
func (p *pass) nameList(j int) (names []string, end int, ok bool) {
	for p.isName(j) {
		names = append(names, sqltext.UnquoteIdent(p.text(j)))
		j++
		if !p.isOp(j, ",") {
			return names, j, true
		}
		j++
	}
	return nil, j, false
}

// constantEnd is the token after the constant of a CYCLE clause's TO or
// DEFAULT at token j (a number, a string, true, false, null, a typed
// literal such as point '(1,1)'), -1 for anything else.
func (p *pass) constantEnd(j int) int {
	switch {
	case p.kind(j) == sqltext.Number, p.kind(j) == sqltext.String:
		return j + 1
	case p.kind(j) == sqltext.Word && p.kind(j+1) == sqltext.String:
		return j + 2
	case p.isWord(j, "true"), p.isWord(j, "false"), p.isWord(j, "null"):
		return j + 1
	}
	return -1
}

// invalidRecursion is PostgreSQL's 42P19 error.
func invalidRecursion(format string, args ...any) error {
	return vsqlerr.New(vsqlerr.InvalidRecursion, format, args...)
}

// quoted is a name in double quotes as PostgreSQL's messages write it.
func quoted(name string) string { return `"` + name + `"` }

// withDeps are the references between the items of a WITH RECURSIVE
// list: deps[k][m] when item k reads item m (its own name included).
func (p *pass) withDeps(items []withItem) [][]bool {
	deps := make([][]bool, len(items))
	for k := range items {
		deps[k] = make([]bool, len(items))
		for m := range items {
			w := recWalker{p: p, target: items[m].name, collect: true}
			w.query(items[k].open+1, items[k].close, recOK)
			deps[k][m] = w.refs > 0
		}
	}
	return deps
}

// checkRecursiveList is PostgreSQL's makeDependencyGraph and
// checkWellFormedRecursion over a WITH RECURSIVE list.
func (p *pass) checkRecursiveList(items []withItem, deps [][]bool) error {
	// an order where each item follows the items it reads (its own
	// reference aside): none when two items read each other
	if _, ok := withOrder(deps); !ok {
		return vsqlerr.New(vsqlerr.FeatureNotSupported, "mutual recursion between WITH items is not implemented")
	}
	for k := range items {
		if !deps[k][k] {
			continue
		}
		if err := p.checkWellFormed(&items[k]); err != nil {
			return err
		}
	}
	return nil
}

// withOrder is PostgreSQL's topological order of a WITH RECURSIVE list
// (sqltext.DependencyOrder).
func withOrder(deps [][]bool) ([]int, bool) { return sqltext.DependencyOrder(deps) }

// checkWellFormed checks one recursive item as checkWellFormedRecursion
// does.
func (p *pass) checkWellFormed(it *withItem) error {
	a, b := p.stripParens(it.open+1, it.close)
	if p.isWord(a, "with") {
		return nil // (its own WITH clause: beyond these checks)
	}
	tree, tail, ok := p.setTree(a, b)
	if !ok {
		return nil
	}
	if tree.leaf || tree.op != "union" {
		return invalidRecursion("recursive query %s does not have the form non-recursive-term UNION [ALL] recursive-term", quoted(it.name))
	}
	w := recWalker{p: p, target: it.name}
	w.node(tree.l, recNonRecursive)
	if w.err != nil {
		return w.err
	}
	w.refs = 0
	w.node(tree.r, recOK)
	if w.err != nil {
		return w.err
	}
	// ORDER BY, OFFSET, LIMIT and FOR UPDATE, in PostgreSQL's order of
	// its checks
	var clause [4]bool
	for k := tail; k < b; k++ {
		if p.kind(k) == sqltext.Open {
			if k = p.matchForward(k); k < 0 {
				return nil
			}
			continue
		}
		switch {
		case !isClauseWord(p, k):
		case p.isWord(k, "order"):
			clause[0] = true
		case p.isWord(k, "offset"):
			clause[1] = true
		case p.isWord(k, "limit"), p.isWord(k, "fetch"):
			clause[2] = true
		case p.isWord(k, "for"):
			clause[3] = true
		}
	}
	for c, what := range []string{"ORDER BY", "OFFSET", "LIMIT", "FOR UPDATE/SHARE"} {
		if clause[c] {
			return vsqlerr.New(vsqlerr.FeatureNotSupported, "%s in a recursive query is not implemented", what)
		}
	}
	if w.aggregate {
		return invalidRecursion("aggregate functions are not allowed in a recursive query's recursive term")
	}
	return nil
}

// checkWithItem checks item k's columns and its SEARCH and CYCLE clauses
// as PostgreSQL's analyzeCTE does.
func (p *pass) checkWithItem(items []withItem, k int, recursive bool) error {
	it := &items[k]
	if it.cols != nil {
		if n, ok := p.queryColumns(it.open+1, it.close); ok && n < len(it.cols) {
			return vsqlerr.New(vsqlerr.InvalidColumnReference, "WITH query %s has %d columns available but %d columns specified",
				quoted(it.name), n, len(it.cols))
		}
	}
	if it.search == nil && it.cycle == nil {
		return nil
	}
	w := recWalker{p: p, target: it.name, collect: true}
	w.query(it.open+1, it.close, recOK)
	if !recursive || w.refs == 0 {
		return vsqlerr.New(vsqlerr.SyntaxError, "WITH query is not recursive")
	}
	cols := it.cols
	if cols == nil {
		cols, _ = p.itemColumns(it)
	}
	has := func(name string) bool {
		for _, c := range cols {
			if c == name {
				return true
			}
		}
		return false
	}
	if s := it.search; s != nil {
		seen := map[string]bool{}
		for _, c := range s.cols {
			if cols != nil && !has(c) {
				return vsqlerr.New(vsqlerr.SyntaxError, "search column %s not in WITH query column list", quoted(c))
			}
			if seen[c] {
				return vsqlerr.New(vsqlerr.DuplicateColumn, "search column %s specified more than once", quoted(c))
			}
			seen[c] = true
		}
		if has(s.seq) {
			return vsqlerr.New(vsqlerr.SyntaxError, "search sequence column name %s already used in WITH query column list", quoted(s.seq))
		}
	}
	if c := it.cycle; c != nil {
		seen := map[string]bool{}
		for _, col := range c.cols {
			if cols != nil && !has(col) {
				return vsqlerr.New(vsqlerr.SyntaxError, "cycle column %s not in WITH query column list", quoted(col))
			}
			if seen[col] {
				return vsqlerr.New(vsqlerr.DuplicateColumn, "cycle column %s specified more than once", quoted(col))
			}
			seen[col] = true
		}
		if has(c.mark) {
			return vsqlerr.New(vsqlerr.SyntaxError, "cycle mark column name %s already used in WITH query column list", quoted(c.mark))
		}
		if has(c.path) {
			return vsqlerr.New(vsqlerr.SyntaxError, "cycle path column name %s already used in WITH query column list", quoted(c.path))
		}
		if c.mark == c.path {
			return vsqlerr.New(vsqlerr.SyntaxError, "cycle mark column name and cycle path column name are the same")
		}
		if c.hasToDef {
			to, def := p.constantType(c.to), p.constantType(c.def)
			if to != "" && def != "" && to != def {
				return vsqlerr.New(vsqlerr.CycleMarkType, "CYCLE types %s and %s cannot be matched", to, def)
			}
		}
	}
	if s, c := it.search, it.cycle; s != nil && c != nil {
		if s.seq == c.mark {
			return vsqlerr.New(vsqlerr.SyntaxError, "search sequence column name and cycle mark column name are the same")
		}
		if s.seq == c.path {
			return vsqlerr.New(vsqlerr.SyntaxError, "search sequence column name and cycle path column name are the same")
		}
	}
	return p.searchCycleShape(it)
}

// constantType is the type of a CYCLE value PostgreSQL would not match
// with another ("" for a string or NULL, which take the other's type, and
// for anything else).
func (p *pass) constantType(r [2]int) string {
	if r[1]-r[0] != 1 {
		return ""
	}
	switch {
	case p.isWord(r[0], "true"), p.isWord(r[0], "false"):
		return "boolean"
	case p.kind(r[0]) == sqltext.Number:
		if strings.ContainsAny(p.text(r[0]), ".eE") {
			return "numeric"
		}
		return "integer"
	}
	return ""
}

// stripParens removes parentheses around the whole of tokens a…b-1.
func (p *pass) stripParens(a, b int) (int, int) {
	for a < b && p.kind(a) == sqltext.Open && p.matchForward(a) == b-1 {
		a, b = a+1, b-1
	}
	return a, b
}

// setNode is a query expression: a leaf (a SELECT, VALUES, TABLE or a
// parenthesized query) or a set operation of two.
type setNode struct {
	leaf bool
	a, b int // a leaf's tokens
	op   string
	all  bool
	l, r *setNode
}

// setTree reads tokens a…b-1 (no leading WITH) as set operations with
// PostgreSQL's precedence (INTERSECT first, then UNION and EXCEPT from the
// left); tail is where the clauses after the last operand (ORDER BY,
// LIMIT, …) begin when there is a set operation (b otherwise).
func (p *pass) setTree(a, b int) (n *setNode, tail int, ok bool) {
	type opAt struct {
		op  string
		all bool
		at  int // the operator's token
		end int // the token after it (and ALL or DISTINCT)
	}
	var ops []opAt
	for k := a; k < b; k++ {
		switch {
		case p.kind(k) == sqltext.Open:
			if k = p.matchForward(k); k < 0 {
				return nil, 0, false
			}
		case p.isWord(k, "union"), p.isWord(k, "intersect"), p.isWord(k, "except"):
			o := opAt{op: strings.ToLower(p.text(k)), at: k, end: k + 1}
			if p.isWord(k+1, "all") {
				o.all, o.end = true, k+2
			} else if p.isWord(k+1, "distinct") {
				o.end = k + 2
			}
			ops = append(ops, o)
		}
	}
	if len(ops) == 0 {
		return &setNode{leaf: true, a: a, b: b}, b, true
	}
	// the last operand ends where a clause of the whole begins
	tail = b
	last := ops[len(ops)-1].end
	for k := last; k < b; k++ {
		if p.kind(k) == sqltext.Open {
			k = p.matchForward(k)
			continue
		}
		if (p.isWord(k, "order") || p.isWord(k, "limit") || p.isWord(k, "offset") || p.isWord(k, "fetch") || p.isWord(k, "for")) &&
			isClauseWord(p, k) {
			tail = k
			break
		}
	}
	leaves := make([]*setNode, 0, len(ops)+1)
	start := a
	for _, o := range ops {
		leaves = append(leaves, &setNode{leaf: true, a: start, b: o.at})
		start = o.end
	}
	leaves = append(leaves, &setNode{leaf: true, a: start, b: tail})
	for _, l := range leaves {
		if l.a >= l.b {
			return nil, 0, false
		}
	}
	// INTERSECT first
	var terms []*setNode
	var termOps []opAt
	cur := leaves[0]
	for k, o := range ops {
		if o.op == "intersect" {
			cur = &setNode{op: o.op, all: o.all, l: cur, r: leaves[k+1]}
			continue
		}
		terms = append(terms, cur)
		termOps = append(termOps, o)
		cur = leaves[k+1]
	}
	terms = append(terms, cur)
	n = terms[0]
	for k, o := range termOps {
		n = &setNode{op: o.op, all: o.all, l: n, r: terms[k+1]}
	}
	return n, tail, true
}

// recContext is where a recursive reference is (PostgreSQL's
// RecursionContext).
type recContext int

const (
	recOK recContext = iota
	recNonRecursive
	recSublink
	recOuterJoin
	recIntersect
	recExcept
)

var recContextText = [...]string{
	recNonRecursive: "its non-recursive term",
	recSublink:      "a subquery",
	recOuterJoin:    "an outer join",
	recIntersect:    "INTERSECT",
	recExcept:       "EXCEPT",
}

// recWalker looks for references to one WITH query (target) in a query,
// as PostgreSQL's checkWellFormedRecursionWalker: a table of a FROM
// clause named as the query, unqualified, where no nearer WITH query of
// that name hides it. collect only counts them.
type recWalker struct {
	p         *pass
	target    string
	collect   bool
	refs      int
	shadow    int // nested WITH queries of the same name around
	err       error
	aggregate bool // a SELECT reading the reference computes an aggregate
}

func (w *recWalker) reference(ctx recContext) {
	if w.shadow > 0 || w.err != nil {
		return
	}
	w.refs++
	if w.collect {
		return
	}
	if ctx != recOK {
		w.err = invalidRecursion("recursive reference to query %s must not appear within %s", quoted(w.target), recContextText[ctx])
	} else if w.refs > 1 {
		w.err = invalidRecursion("recursive reference to query %s must not appear more than once", quoted(w.target))
	}
}

// query walks a query expression, tokens a…b-1.
func (w *recWalker) query(a, b int, ctx recContext) {
	p := w.p
	a, b = p.stripParens(a, b)
	if p.isWord(a, "with") {
		recursive := p.isWord(a+1, "recursive")
		j := a + 1
		if recursive {
			j++
		}
		items, main, ok := p.withList(j)
		if !ok {
			w.expr(a, b, ctx)
			return
		}
		hidden := 0
		if recursive {
			for _, it := range items {
				if it.name == w.target {
					hidden = 1
				}
			}
			w.shadow += hidden
		}
		for _, it := range items {
			w.query(it.open+1, it.close, ctx)
			if !recursive && it.name == w.target && hidden == 0 {
				hidden = 1
				w.shadow++
			}
		}
		w.queryBody(main, b, ctx)
		w.shadow -= hidden
		return
	}
	w.queryBody(a, b, ctx)
}

func (w *recWalker) queryBody(a, b int, ctx recContext) {
	n, tail, ok := w.p.setTree(a, b)
	if !ok {
		w.expr(a, b, ctx)
		return
	}
	w.node(n, ctx)
	w.expr(tail, b, ctx)
}

// node walks a set operation as checkWellFormedSelectStmt does.
func (w *recWalker) node(n *setNode, ctx recContext) {
	if n.leaf {
		w.leaf(n.a, n.b, ctx)
		return
	}
	if ctx != recOK || n.op == "union" {
		w.node(n.l, ctx)
		w.node(n.r, ctx)
		return
	}
	left := recOK
	if n.all {
		left = recIntersect
		if n.op == "except" {
			left = recExcept
		}
	}
	w.node(n.l, left)
	right := left
	if n.op == "except" {
		right = recExcept
	}
	w.node(n.r, right)
}

// leaf walks a SELECT, VALUES, TABLE or parenthesized query.
func (w *recWalker) leaf(a, b int, ctx recContext) {
	p := w.p
	switch {
	case p.kind(a) == sqltext.Open:
		close := p.matchForward(a)
		if close < 0 || close >= b {
			return
		}
		w.query(a+1, close, ctx)
		w.expr(close+1, b, ctx)
	case p.isWord(a, "table"):
		if a+2 == b && p.isName(a+1) && sqltext.UnquoteIdent(p.text(a+1)) == w.target {
			w.reference(ctx)
		}
	case p.isWord(a, "select"):
		from, fromEnd := -1, b
		for k := a + 1; k < b; k++ {
			if p.kind(k) == sqltext.Open {
				if k = p.matchForward(k); k < 0 {
					return
				}
				continue
			}
			if from < 0 && p.isFromWord(k) {
				from = k
				continue
			}
			if from >= 0 && fromEnd == b && isClauseWord(p, k) {
				fromEnd = k
			}
		}
		if from < 0 {
			w.expr(a+1, b, ctx)
			return
		}
		w.expr(a+1, from, ctx)
		direct := w.from(from+1, fromEnd, ctx)
		w.expr(fromEnd, b, ctx)
		if direct > 0 && !w.collect && (p.hasAggregate(a+1, from) || p.hasAggregate(fromEnd, b)) {
			w.aggregate = true
		}
	default:
		w.expr(a, b, ctx)
	}
}

// isClauseWord reports a word that ends a FROM clause (not a column
// label: t.offset, x AS limit).
func isClauseWord(p *pass, k int) bool {
	if p.kind(k) != sqltext.Word || p.isOp(k-1, ".") || p.isWord(k-1, "as") {
		return false
	}
	switch strings.ToLower(p.text(k)) {
	case "where", "group", "having", "window", "order", "limit", "offset", "fetch", "for", "into", "returning":
		return true
	}
	return false
}

// expr walks an expression: a parenthesized query in it is a subquery.
func (w *recWalker) expr(a, b int, ctx recContext) {
	p := w.p
	for k := a; k < b; k++ {
		if p.kind(k) != sqltext.Open {
			continue
		}
		close := p.matchForward(k)
		if close < 0 || close > b {
			return
		}
		if p.startsQuery(k+1, close) {
			w.query(k+1, close, recSublink)
		} else {
			w.expr(k+1, close, ctx)
		}
		k = close
	}
}

// startsQuery reports whether tokens a…b-1 are a query (after any
// parentheses around the whole).
func (p *pass) startsQuery(a, b int) bool {
	for a < b && p.kind(a) == sqltext.Open {
		a++
	}
	return p.isWord(a, "select") || p.isWord(a, "with") || p.isWord(a, "values") || p.isWord(a, "table")
}

// joinWord reports a word that begins a join at token k.
func (p *pass) joinKind(k int) (kind string, next int, ok bool) {
	switch {
	case p.isWord(k, "join"):
		return "inner", k + 1, true
	case p.isWord(k, "inner") && p.isWord(k+1, "join"), p.isWord(k, "cross") && p.isWord(k+1, "join"):
		return "inner", k + 2, true
	case p.isWord(k, "natural"):
		kind, next, ok = p.joinKind(k + 1)
		return kind, next, ok
	case p.isWord(k, "left"), p.isWord(k, "right"), p.isWord(k, "full"):
		j := k + 1
		if p.isWord(j, "outer") {
			j++
		}
		if p.isWord(j, "join") {
			return strings.ToLower(p.text(k)), j + 1, true
		}
	}
	return "", 0, false
}

// from walks a FROM clause, tokens a…b-1; direct counts the references
// among its tables (not in its subqueries).
func (w *recWalker) from(a, b int, ctx recContext) (direct int) {
	p := w.p
	start := a
	for k := a; k <= b; k++ {
		if k < b && p.kind(k) == sqltext.Open {
			if k = p.matchForward(k); k < 0 || k >= b {
				return direct
			}
			continue
		}
		if k == b || p.isOp(k, ",") {
			if start < k {
				direct += w.joinTree(start, k, ctx)
			}
			start = k + 1
		}
	}
	return direct
}

// joinTree walks one item of a FROM list: tables joined from the left.
func (w *recWalker) joinTree(a, b int, ctx recContext) (direct int) {
	p := w.p
	type part struct {
		a, b       int    // the table
		qa, qb     int    // its ON condition (or USING list)
		kind       string // the join before it
		ctx, qctx  recContext
		firstTable bool
	}
	var parts []part
	k := a
	kind := ""
	for k < b {
		end := p.tableEnd(k, b)
		if end <= k {
			return direct
		}
		pt := part{a: k, b: end, kind: kind}
		k = end
		if p.isWord(k, "on") || p.isWord(k, "using") {
			q := k + 1
			for k = q; k < b; k++ {
				if p.kind(k) == sqltext.Open {
					if k = p.matchForward(k); k < 0 {
						return direct
					}
					continue
				}
				if _, _, ok := p.joinKind(k); ok {
					break
				}
			}
			pt.qa, pt.qb = q, k
		}
		parts = append(parts, pt)
		if k >= b {
			break
		}
		jk, next, ok := p.joinKind(k)
		if !ok {
			return direct // not a FROM item these checks read
		}
		kind, k = jk, next
	}
	// contexts from the outermost join in (PostgreSQL walks a JoinExpr's
	// sides with the outer join's nullable side marked)
	cur := ctx
	for m := len(parts) - 1; m >= 1; m-- {
		left, right := cur, cur
		if cur == recOK {
			switch parts[m].kind {
			case "left":
				right = recOuterJoin
			case "right":
				left = recOuterJoin
			case "full":
				left, right = recOuterJoin, recOuterJoin
			}
		}
		parts[m].ctx, parts[m].qctx = right, cur
		cur = left
	}
	if len(parts) > 0 {
		parts[0].ctx = cur
	}
	for _, pt := range parts {
		direct += w.table(pt.a, pt.b, pt.ctx)
		if pt.qb > pt.qa {
			w.expr(pt.qa, pt.qb, pt.qctx)
		}
	}
	return direct
}

// tableEnd is the token after the table (with its alias) at token k.
func (p *pass) tableEnd(k, b int) int {
	if p.isWord(k, "lateral") || p.isWord(k, "only") {
		k++
	}
	switch {
	case p.kind(k) == sqltext.Open:
		if k = p.matchForward(k); k < 0 {
			return -1
		}
		k++
	case p.isName(k):
		k++
		for p.isOp(k, ".") && p.isName(k+1) {
			k += 2
		}
		if p.kind(k) == sqltext.Open { // a function
			if k = p.matchForward(k); k < 0 {
				return -1
			}
			k++
			if p.isWord(k, "with") && p.isWord(k+1, "ordinality") {
				k += 2
			}
		}
	default:
		return -1
	}
	if p.isWord(k, "as") {
		k++
	}
	if k < b && p.isName(k) && !p.isAliasStop(k) {
		k++
		if p.kind(k) == sqltext.Open {
			if k = p.matchForward(k); k < 0 {
				return -1
			}
			k++
		}
	}
	if p.isWord(k, "tablesample") {
		for k < b && !p.isWord(k, "on") && !p.isOp(k, ",") {
			if _, _, ok := p.joinKind(k); ok {
				break
			}
			k++
		}
	}
	return k
}

// isAliasStop reports a word after a table that is not its alias.
func (p *pass) isAliasStop(k int) bool {
	if p.kind(k) != sqltext.Word {
		return false
	}
	switch strings.ToLower(p.text(k)) {
	case "on", "using", "join", "inner", "left", "right", "full", "cross", "natural", "where", "group", "having",
		"window", "order", "limit", "offset", "fetch", "for", "union", "intersect", "except", "tablesample", "returning", "set":
		return true
	}
	return false
}

// table walks one table of a join (tokens a…b-1, with its alias).
func (w *recWalker) table(a, b int, ctx recContext) (direct int) {
	p := w.p
	if p.isWord(a, "lateral") || p.isWord(a, "only") {
		a++
	}
	if p.kind(a) == sqltext.Open {
		close := p.matchForward(a)
		if p.startsQuery(a+1, close) {
			w.query(a+1, close, ctx)
			return 0
		}
		return w.from(a+1, close, ctx) // (a JOIN b)
	}
	if p.kind(a+1) == sqltext.Open { // a function in FROM
		w.expr(a+1, b, ctx)
		return 0
	}
	if p.isName(a) && !p.isOp(a+1, ".") && sqltext.UnquoteIdent(p.text(a)) == w.target {
		before := w.refs
		w.reference(ctx)
		if w.refs > before {
			return 1
		}
	}
	return 0
}

// hasAggregate reports an aggregate call among tokens a…b-1, outside
// subqueries (an aggregate function's name before a parenthesis, not
// followed by OVER).
func (p *pass) hasAggregate(a, b int) bool {
	for k := a; k < b; k++ {
		if p.kind(k) != sqltext.Open {
			continue
		}
		close := p.matchForward(k)
		if close < 0 {
			return false
		}
		if p.startsQuery(k+1, close) {
			k = close
			continue
		}
		if p.kind(k-1) == sqltext.Word && aggregateNames[strings.ToLower(p.text(k-1))] && !p.isOp(k-2, ".") {
			after := close + 1
			if p.isWord(after, "filter") && p.kind(after+1) == sqltext.Open {
				after = p.matchForward(after+1) + 1
			}
			if !p.isWord(after, "over") {
				return true
			}
		}
	}
	return false
}

// queryColumns is the number of columns of the query a…b-1, when its
// first SELECT's list has no * (or it is VALUES).
func (p *pass) queryColumns(a, b int) (int, bool) {
	a, b = p.stripParens(a, b)
	if p.isWord(a, "with") {
		return 0, false
	}
	n, _, ok := p.setTree(a, b)
	if !ok {
		return 0, false
	}
	for !n.leaf {
		n = n.l
	}
	a, b = p.stripParens(n.a, n.b)
	if p.isWord(a, "values") && p.kind(a+1) == sqltext.Open {
		close := p.matchForward(a + 1)
		if close < 0 {
			return 0, false
		}
		return len(p.listItems(a+2, close)), true
	}
	if !p.isWord(a, "select") {
		return 0, false
	}
	items := p.selectItems(a, b)
	for _, it := range items {
		for k := it[0]; k < it[1]; k++ {
			if p.kind(k) == sqltext.Open {
				k = p.matchForward(k)
				continue
			}
			// a * that expands to columns (t.*, * EXCLUDE (…)), DuckDB's COLUMNS(…)
			if p.isOp(k, "*") && (k == it[0] || p.isOp(k-1, ".")) || p.isWord(k, "columns") && p.kind(k+1) == sqltext.Open {
				return 0, false
			}
		}
	}
	return len(items), items != nil || p.isWord(a+1, "from")
}

// selectItems is the select list of the SELECT at token a: each item's
// tokens (nil when it cannot tell).
func (p *pass) selectItems(a, b int) [][2]int {
	k := a + 1
	if p.isWord(k, "all") {
		k++
	} else if p.isWord(k, "distinct") {
		k++
		if p.isWord(k, "on") && p.kind(k+1) == sqltext.Open {
			if k = p.matchForward(k+1) + 1; k == 0 {
				return nil
			}
		}
	}
	end := b
	for j := k; j < b; j++ {
		if p.kind(j) == sqltext.Open {
			if j = p.matchForward(j); j < 0 {
				return nil
			}
			continue
		}
		if p.isFromWord(j) || isClauseWord(p, j) {
			end = j
			break
		}
	}
	return p.listItems(k, end)
}

// listItems splits tokens a…b-1 at the commas outside parentheses.
func (p *pass) listItems(a, b int) [][2]int {
	var items [][2]int
	start := a
	for k := a; k <= b; k++ {
		if k < b && p.kind(k) == sqltext.Open {
			if k = p.matchForward(k); k < 0 || k >= b {
				return nil
			}
			continue
		}
		if k < b && (p.isOp(k, "[")) {
			depth := 0
			for ; k < b; k++ {
				if p.isOp(k, "[") {
					depth++
				} else if p.isOp(k, "]") {
					if depth--; depth == 0 {
						break
					}
				}
			}
			continue
		}
		if k == b || p.isOp(k, ",") {
			if start < k {
				items = append(items, [2]int{start, k})
			}
			start = k + 1
		}
	}
	return items
}

// itemColumns are the column names of a WITH query without a column list:
// its first SELECT's, when each item is a column or has an alias.
func (p *pass) itemColumns(it *withItem) ([]string, bool) {
	a, b := p.stripParens(it.open+1, it.close)
	if p.isWord(a, "with") {
		return nil, false
	}
	n, _, ok := p.setTree(a, b)
	if !ok {
		return nil, false
	}
	for !n.leaf {
		n = n.l
	}
	a, b = p.stripParens(n.a, n.b)
	if !p.isWord(a, "select") {
		return nil, false
	}
	items := p.selectItems(a, b)
	if items == nil {
		return nil, false
	}
	names := make([]string, 0, len(items))
	for _, r := range items {
		last := r[1] - 1
		if !p.isName(last) || (p.kind(last) == sqltext.Word && p.kind(last-1) == sqltext.Word && !p.isWord(last-1, "as")) {
			return nil, false
		}
		if last > r[0] && !p.isWord(last-1, "as") && !p.isOp(last-1, ".") {
			return nil, false
		}
		names = append(names, sqltext.UnquoteIdent(p.text(last)))
	}
	return names, true
}

// reorderWithList writes a WITH RECURSIVE list again in PostgreSQL's
// order when an item reads one after it (DuckDB reads the list in order).
func (p *pass) reorderWithList(items []withItem, deps [][]bool) {
	forward := false
	for k := range items {
		for m := k + 1; m < len(items); m++ {
			forward = forward || deps[k][m]
		}
	}
	if !forward {
		return
	}
	order, ok := withOrder(deps)
	if !ok {
		return
	}
	first, last := items[0].nameTok, items[len(items)-1].end-1
	p.deferred = append(p.deferred, func() {
		texts := make([]string, len(items))
		for k, it := range items {
			s, ok := p.editedSource(p.toks[it.nameTok].Start, p.toks[it.end-1].End)
			if !ok {
				return
			}
			texts[k] = s
		}
		var b strings.Builder
		for k, m := range order {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(texts[m])
		}
		p.replace(p.toks[first].Start, p.toks[last].End, b.String())
	})
}

// referenceAlias finds the recursive reference among the tables of the
// SELECT at tokens a…b-1 (not in its subqueries): the name its columns are
// qualified by (its alias, or its own name), and the FROM keyword.
func (p *pass) referenceAlias(a, b int, name string) (alias string, from int, ok bool) {
	if !p.isWord(a, "select") {
		return "", 0, false
	}
	from = -1
	for k := a + 1; k < b; k++ {
		if p.kind(k) == sqltext.Open {
			if k = p.matchForward(k); k < 0 {
				return "", 0, false
			}
			continue
		}
		if from < 0 {
			if p.isFromWord(k) {
				from = k
			}
			continue
		}
		if isClauseWord(p, k) {
			break
		}
		if !p.isName(k) || sqltext.UnquoteIdent(p.text(k)) != name || p.isOp(k+1, ".") || p.kind(k+1) == sqltext.Open {
			continue
		}
		if !(k == from+1 || p.isOp(k-1, ",") || p.isWord(k-1, "join") || p.isWord(k-1, "lateral") || p.isWord(k-1, "only")) {
			continue
		}
		j := k + 1
		if p.isWord(j, "as") {
			j++
		}
		if p.isName(j) && !p.isAliasStop(j) {
			return sqltext.UnquoteIdent(p.text(j)), from, true
		}
		return name, from, true
	}
	return "", 0, false
}

// searchCycleParts are the tokens of a recursive query with SEARCH or
// CYCLE: its non-recursive term (la…lb-1) and its recursive SELECT
// (ra…rb-1), whose FROM keyword is from and recursive reference alias.
type searchCycleParts struct {
	la, lb, ra, rb, from int
	alias                string
}

// searchCycleShape checks that a query with SEARCH or CYCLE is a SELECT
// UNION [ALL] a SELECT that reads the recursive reference in its own FROM
// clause, as PostgreSQL requires.
func (p *pass) searchCycleShape(it *withItem) error {
	_, err := p.searchCycleParts(it)
	return err
}

func (p *pass) searchCycleParts(it *withItem) (searchCycleParts, error) {
	var sp searchCycleParts
	a, b := p.stripParens(it.open+1, it.close)
	if p.isWord(a, "with") {
		return sp, vsqlerr.New(vsqlerr.FeatureNotSupported, "a SEARCH or CYCLE clause of a recursive query with a WITH clause of its own is not supported")
	}
	tree, tail, ok := p.setTree(a, b)
	if !ok || tree.leaf || tail != b {
		return sp, vsqlerr.New(vsqlerr.FeatureNotSupported, "this SEARCH or CYCLE clause is not supported")
	}
	if tree.op != "union" || !tree.l.leaf || !p.simpleLeaf(tree.l) {
		return sp, vsqlerr.New(vsqlerr.FeatureNotSupported, "with a SEARCH or CYCLE clause, the left side of the UNION must be a SELECT")
	}
	if !tree.r.leaf || !p.simpleLeaf(tree.r) {
		return sp, vsqlerr.New(vsqlerr.SyntaxError, "with a SEARCH or CYCLE clause, the right side of the UNION must be a SELECT")
	}
	sp.la, sp.lb = tree.l.a, tree.l.b
	sp.ra, sp.rb = p.stripParens(tree.r.a, tree.r.b)
	if sp.alias, sp.from, ok = p.referenceAlias(sp.ra, sp.rb, it.name); !ok {
		return sp, vsqlerr.New(vsqlerr.FeatureNotSupported, "with a SEARCH or CYCLE clause, the recursive reference to WITH query %s must be at the top level of its right-hand SELECT", quoted(it.name))
	}
	if it.cols == nil {
		if _, ok := p.itemColumns(it); !ok {
			return sp, vsqlerr.New(vsqlerr.FeatureNotSupported, "a SEARCH or CYCLE clause needs the column names of WITH query %s", quoted(it.name)).
				WithHint("Give the WITH query a column list: WITH RECURSIVE %s(a, b) AS (…).", it.name)
		}
	}
	return sp, nil
}

// simpleLeaf reports a leaf that is no set operation within parentheses.
func (p *pass) simpleLeaf(n *setNode) bool {
	a, b := p.stripParens(n.a, n.b)
	if p.isWord(a, "with") {
		return true
	}
	t, _, ok := p.setTree(a, b)
	return ok && t.leaf
}

// searchCycle rewrites item k's SEARCH and CYCLE clauses into the query
// PostgreSQL's rewriter makes of them. For WITH RECURSIVE t(c1, c2) AS
// (Q1 UNION ALL SELECT … FROM t …) SEARCH DEPTH FIRST BY c1 SET seq CYCLE
// c2 SET mark TO v DEFAULT d USING path:
//
//	t(c1, c2, seq, mark, path) AS (
//	  SELECT c1, c2, [row(c1)], d, [row(c2)] FROM (Q1) AS __vsql_nonrecursive(c1, c2)
//	  UNION ALL
//	  SELECT c1, c2, list_append(seq, row(c1)),
//	         CASE WHEN list_contains(path, row(c2)) THEN v ELSE d END, list_append(path, row(c2))
//	  FROM (SELECT …, t.seq, t.mark, t.path FROM t …) AS __vsql_recursive(c1, c2, seq, mark, path)
//	  WHERE mark <> v)
//
// BREADTH FIRST's sequence is row(depth, c1), depth a bigint from 0; a
// row of the recursive reference marked as a cycle is not followed. A
// * of the recursive SELECT's list that reads the reference leaves the
// added columns out (* EXCLUDE), as PostgreSQL's expands to the columns
// it had.
func (p *pass) searchCycle(items []withItem, k int) {
	it := items[k]
	sp, err := p.searchCycleParts(&it)
	if err != nil {
		p.fail(err)
		return
	}
	cols := it.cols
	if cols == nil {
		cols, _ = p.itemColumns(&it)
	}
	q := func(names []string) string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = sqltext.QuoteIdent(n)
		}
		return strings.Join(out, ", ")
	}
	colList := q(cols)
	var extras []string
	if it.search != nil {
		extras = append(extras, it.search.seq)
	}
	if it.cycle != nil {
		extras = append(extras, it.cycle.mark, it.cycle.path)
	}
	p.deferred = append(p.deferred, func() {
		to, def := "true", "false"
		if c := it.cycle; c != nil && c.hasToDef {
			var ok1, ok2 bool
			to, ok1 = p.editedSource(p.toks[c.to[0]].Start, p.toks[c.to[1]-1].End)
			def, ok2 = p.editedSource(p.toks[c.def[0]].Start, p.toks[c.def[1]-1].End)
			if !ok1 || !ok2 {
				p.fail(vsqlerr.New(vsqlerr.FeatureNotSupported, "this CYCLE clause's values are not supported"))
				return
			}
		}
		var first, next []string
		if s := it.search; s != nil {
			by, seq := "row("+q(s.cols)+")", sqltext.QuoteIdent(s.seq)
			if s.breadth {
				first = append(first, "row(CAST(0 AS BIGINT), "+q(s.cols)+")")
				next = append(next, "row(struct_extract_at("+seq+", 1) + 1, "+q(s.cols)+")")
			} else {
				first = append(first, "["+by+"]")
				next = append(next, "list_append("+seq+", "+by+")")
			}
		}
		where := ""
		if c := it.cycle; c != nil {
			row, path, mark := "row("+q(c.cols)+")", sqltext.QuoteIdent(c.path), sqltext.QuoteIdent(c.mark)
			first = append(first, def, "["+row+"]")
			next = append(next, "CASE WHEN list_contains("+path+", "+row+") THEN "+to+" ELSE "+def+" END",
				"list_append("+path+", "+row+")")
			where = " WHERE " + mark + " <> " + to
		}
		// the column list
		if it.colsClose >= 0 {
			p.insert(p.toks[it.colsClose].Start, ", "+q(extras))
		} else {
			p.insert(p.toks[it.nameTok].End, "("+colList+", "+q(extras)+")")
		}
		// the non-recursive term
		p.insert(p.toks[sp.la].Start, "SELECT "+colList+", "+strings.Join(first, ", ")+" FROM (")
		p.insert(p.toks[sp.lb-1].End, ") AS __vsql_nonrecursive("+colList+")")
		// the recursive term: the reference's added columns, then the next values
		alias := sqltext.QuoteIdent(sp.alias) + "."
		added := make([]string, len(extras))
		for i, e := range extras {
			added[i] = alias + sqltext.QuoteIdent(e)
		}
		for _, r := range p.selectItems(sp.ra, sp.rb) {
			star := r[1] - 1
			if p.isOp(star, "*") && (star == r[0] || star == r[0]+2 && sqltext.UnquoteIdent(p.text(r[0])) == sp.alias) {
				p.insert(p.toks[star].End, " EXCLUDE ("+q(extras)+")")
			}
		}
		p.insert(p.toks[sp.ra].Start, "SELECT "+colList+", "+strings.Join(next, ", ")+" FROM (")
		p.insert(p.toks[sp.from-1].End, ", "+strings.Join(added, ", "))
		p.insert(p.toks[sp.rb-1].End, ") AS __vsql_recursive("+colList+", "+q(extras)+")"+where)
		// the clauses themselves
		p.replace(p.toks[it.clauseFrom].Start, p.toks[it.end-1].End, "")
	})
}

// isFromWord reports the FROM of a SELECT at token k (not a column label:
// t.from, x AS from).
func (p *pass) isFromWord(k int) bool {
	return p.isWord(k, "from") && !p.isOp(k-1, ".") && !p.isWord(k-1, "as")
}
