package server

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// The DDL of partition trees (see partition.go): CREATE TABLE … PARTITION
// BY, CREATE TABLE … PARTITION OF, ALTER TABLE … ATTACH / DETACH
// PARTITION, and DROP TABLE and TRUNCATE of a tree's tables.

// tokenText reads a statement's tokens.
type tokenText struct {
	sql  string
	toks []sqltext.Token
}

func newTokenText(st sqltext.Statement) tokenText { return tokenText{st.SQL, st.Tokens()} }

func (t tokenText) text(i int) string {
	if i < 0 || i >= len(t.toks) {
		return ""
	}
	return t.sql[t.toks[i].Start:t.toks[i].End]
}

func (t tokenText) word(i int, w string) bool {
	return i >= 0 && i < len(t.toks) && t.toks[i].Kind == sqltext.Word && strings.EqualFold(t.text(i), w)
}

func (t tokenText) kind(i int) sqltext.TokenKind {
	if i < 0 || i >= len(t.toks) {
		return -1
	}
	return t.toks[i].Kind
}

// scan is the first token k from i for which stop(k, depth) is true,
// depth counting the parentheses open after token k (len(toks): none).
func (t tokenText) scan(i int, stop func(k, depth int) bool) int {
	depth := 0
	for k := i; k < len(t.toks); k++ {
		switch t.toks[k].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		}
		if stop(k, depth) {
			return k
		}
	}
	return len(t.toks)
}

// match is the index of the parenthesis closing the one at i (-1: none).
func (t tokenText) match(i int) int {
	k := t.scan(i, func(k, depth int) bool { return depth == 0 && t.toks[k].Kind == sqltext.Close })
	if k == len(t.toks) {
		return -1
	}
	return k
}

// name reads a (qualified) name at i: its parts, unquoted, and the index
// after it.
func (t tokenText) name(i int) ([]string, int) {
	var parts []string
	for {
		switch t.kind(i) {
		case sqltext.Word:
			parts = append(parts, t.text(i))
		case sqltext.Quoted:
			parts = append(parts, sqltext.UnquoteIdent(t.text(i)))
		default:
			return nil, i
		}
		i++
		if t.kind(i) != sqltext.Op || t.text(i) != "." {
			return parts, i
		}
		i++
	}
}

// between is the text of tokens i … j-1.
func (t tokenText) between(i, j int) string {
	if i >= j || i >= len(t.toks) {
		return ""
	}
	return t.sql[t.toks[i].Start:t.toks[j-1].End]
}

// items splits the tokens between the parentheses at open and close at
// their top-level commas: each item's [start, end) token range.
func (t tokenText) items(open, close int) [][2]int {
	var out [][2]int
	start, depth := open+1, 0
	for k := open + 1; k < close; k++ {
		switch t.toks[k].Kind {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		case sqltext.Op:
			if depth == 0 && t.text(k) == "," {
				out = append(out, [2]int{start, k})
				start = k + 1
			}
		}
	}
	if start < close {
		out = append(out, [2]int{start, close})
	}
	return out
}

// createTableHead reads CREATE [GLOBAL|LOCAL] [TEMP|TEMPORARY|UNLOGGED]
// TABLE [IF NOT EXISTS] name: the name, whether the table is temporary,
// and the index after the name (ok false: another statement).
func (t tokenText) createTableHead() (parts []string, temp bool, at int, ok bool) {
	if !t.word(0, "create") {
		return nil, false, 0, false
	}
	i := 1
	if t.word(i, "global") || t.word(i, "local") {
		i++
	}
	if t.word(i, "temp") || t.word(i, "temporary") {
		temp = true
		i++
	} else if t.word(i, "unlogged") {
		i++
	}
	if !t.word(i, "table") {
		return nil, false, 0, false
	}
	i++
	if t.word(i, "if") && t.word(i+1, "not") && t.word(i+2, "exists") {
		i += 3
	}
	parts, at = t.name(i)
	return parts, temp, at, parts != nil
}

// partitionBy reads PARTITION BY strategy (key, …) at i: the strategy
// (lower case), the key expressions as written (operator classes and
// collations left out) and the index after the clause.
func (t tokenText) partitionBy(i int) (strategy string, keys []string, end int, err error) {
	if !t.word(i, "partition") || !t.word(i+1, "by") || t.kind(i+2) != sqltext.Word || t.kind(i+3) != sqltext.Open {
		return "", nil, i, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(i))
	}
	strategy = strings.ToLower(t.text(i + 2))
	close := t.match(i + 3)
	if close < 0 {
		return "", nil, i, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at end of input")
	}
	switch strategy {
	case "list", "range":
	case "hash":
		return "", nil, i, vsqlerr.New(vsqlerr.FeatureNotSupported, "HASH partitioning is not supported").
			WithHint("Partition BY LIST or BY RANGE; vsql cannot place rows by PostgreSQL's hash functions.")
	default:
		return "", nil, i, vsqlerr.New(vsqlerr.InvalidArgument, "unrecognized partitioning strategy %q", strategy)
	}
	for _, it := range t.items(i+3, close) {
		a, b := it[0], it[1]
		// COLLATE x and an operator class: left out (DuckDB compares as its
		// own collation and operators do)
		for k := a; k < b; k++ {
			if t.word(k, "collate") {
				b = k
				break
			}
		}
		if b-a >= 2 && t.kind(b-1) == sqltext.Word && (t.kind(b-2) == sqltext.Word || t.kind(b-2) == sqltext.Quoted || t.kind(b-2) == sqltext.Close) {
			b--
		}
		for k := a; k < b; k++ {
			if t.word(k, "select") {
				return "", nil, i, vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot use subquery in partition key expression")
			}
		}
		keys = append(keys, t.between(a, b))
	}
	if strategy == "list" && len(keys) != 1 {
		return "", nil, i, vsqlerr.New(vsqlerr.PartitionOverlap, "cannot use \"list\" partition strategy with more than one column")
	}
	return strategy, keys, close + 1, nil
}

// partitionBound reads a partition's bound at i: DEFAULT, FOR VALUES IN
// (…), FOR VALUES FROM (…) TO (…); values are the expressions as written.
type partitionBound struct {
	isDefault bool
	in        []string
	from, to  []string
}

func (t tokenText) partitionBound(i int) (partitionBound, int, error) {
	var b partitionBound
	if t.word(i, "default") {
		b.isDefault = true
		return b, i + 1, nil
	}
	if !t.word(i, "for") || !t.word(i+1, "values") {
		return b, i, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(i))
	}
	i += 2
	list := func(open int) ([]string, int, error) {
		if t.kind(open) != sqltext.Open {
			return nil, open, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(open))
		}
		close := t.match(open)
		if close < 0 {
			return nil, open, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at end of input")
		}
		var out []string
		for _, it := range t.items(open, close) {
			out = append(out, t.between(it[0], it[1]))
		}
		return out, close + 1, nil
	}
	var err error
	switch {
	case t.word(i, "in"):
		b.in, i, err = list(i + 1)
	case t.word(i, "from"):
		if b.from, i, err = list(i + 1); err == nil {
			if !t.word(i, "to") {
				return b, i, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(i))
			}
			b.to, i, err = list(i + 1)
		}
	case t.word(i, "with"):
		return b, i, vsqlerr.New(vsqlerr.FeatureNotSupported, "HASH partitioning is not supported").
			WithHint("Partition BY LIST or BY RANGE; vsql cannot place rows by PostgreSQL's hash functions.")
	default:
		return b, i, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(i))
	}
	return b, i, err
}

// partitionDDL is one statement of a partition tree's DDL, run by vsql in
// one transaction.
type partitionDDL struct {
	noRowsStatement
	sess *Session
	tag  string
	run  func(ctx context.Context) error
}

func (p *partitionDDL) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := p.sess
	err := s.inTransaction(ctx, func() error {
		defer s.catalogChanged()
		return p.run(ctx)
	})
	if err != nil {
		return nil, s.failed(err)
	}
	return &tagRows{tag: p.tag}, nil
}

// preparePartitionDDL recognizes the DDL of partition trees; ok is false
// for any other statement.
func (s *Session) preparePartitionDDL(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	t := newTokenText(st)
	switch {
	case t.word(0, "create"):
		return s.prepareCreatePartition(ctx, t)
	case t.word(0, "alter") && t.word(1, "table"):
		return s.prepareAttachPartition(ctx, t)
	case t.word(0, "drop") && t.word(1, "table"):
		return s.prepareDropPartitioned(ctx, t)
	case t.word(0, "comment") && t.word(1, "on") && t.word(2, "table"):
		return s.prepareCommentPartitioned(ctx, t)
	}
	return nil, false, nil
}

func (s *Session) prepareCreatePartition(ctx context.Context, t tokenText) (pgwire.Statement, bool, error) {
	parts, temp, at, ok := t.createTableHead()
	if !ok {
		return nil, false, nil
	}
	if t.word(at, "partition") && t.word(at+1, "of") {
		parentParts, i := t.name(at + 2)
		if parentParts == nil {
			return nil, false, nil
		}
		if t.kind(i) == sqltext.Open {
			i = t.match(i) + 1 // the partition's column options: not kept
			if i == 0 {
				return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at end of input")
			}
		}
		bound, i, err := t.partitionBound(i)
		if err != nil {
			return nil, true, err
		}
		var strategy string
		var keys []string
		if t.word(i, "partition") {
			if strategy, keys, i, err = t.partitionBy(i); err != nil {
				return nil, true, err
			}
		}
		if i < len(t.toks) && t.kind(i) != sqltext.Semi {
			return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(i))
		}
		name := parts[len(parts)-1]
		return &partitionDDL{sess: s, tag: "CREATE TABLE", run: func(ctx context.Context) error {
			return s.addPartition(ctx, parentParts, name, "", bound, strategy, keys, temp)
		}}, true, nil
	}
	if t.kind(at) != sqltext.Open {
		return nil, false, nil
	}
	close := t.match(at)
	if close < 0 {
		return nil, false, nil
	}
	k := close + 1
	for ; k < len(t.toks); k++ {
		if t.word(k, "partition") && t.word(k+1, "by") {
			break
		}
	}
	if k == len(t.toks) {
		return nil, false, nil
	}
	strategy, keys, end, err := t.partitionBy(k)
	if err != nil {
		return nil, true, err
	}
	create := t.between(0, k)
	if end < len(t.toks) {
		create += " " + t.sql[t.toks[end].Start:]
	}
	return &partitionDDL{sess: s, tag: "CREATE TABLE", run: func(ctx context.Context) error {
		if err := s.runText(ctx, create); err != nil {
			return err
		}
		node := &partNode{Version: 1, Strategy: strategy, Keys: keys}
		return s.keyTypesAndComment(ctx, node, parts, "TABLE")
	}}, true, nil
}

// keyTypesAndComment reads the types of node's keys over the table parts
// name, and writes node's comment on it (kind TABLE or VIEW).
func (s *Session) keyTypesAndComment(ctx context.Context, node *partNode, parts []string, kind string) error {
	if len(node.Keys) > 0 {
		quoted := make([]string, len(parts))
		for i, p := range parts {
			quoted[i] = sqltext.QuoteIdent(p)
		}
		types, err := s.queryThrough(ctx, "DESCRIBE SELECT "+strings.Join(node.Keys, ", ")+" FROM "+strings.Join(quoted, "."), 1)
		if err != nil {
			return err
		}
		node.Types = types
	}
	return s.commentOn(ctx, kind, parts, node)
}

func (s *Session) commentOn(ctx context.Context, kind string, parts []string, node *partNode) error {
	quoted := make([]string, len(parts))
	for i, p := range parts {
		quoted[i] = sqltext.QuoteIdent(p)
	}
	// (DuckDB's own COMMENT: through Prepare, COMMENT ON a tree's table
	// is prepareCommentPartitioned, which calls this)
	return s.exec(ctx, "COMMENT ON "+kind+" "+strings.Join(quoted, ".")+" IS "+sqltext.QuoteString(node.comment()))
}

// queryThrough runs a query vsql wrote as if a client had sent it
// (PostgreSQL's SQL, through Prepare) and returns column col of each row
// as text (NULL as "NULL").
func (s *Session) queryThrough(ctx context.Context, q string, col int) ([]string, error) {
	stmt, err := s.Prepare(ctx, sqltext.Parse(q), nil)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	rows, err := stmt.Execute(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	vals := make([]any, len(stmt.Columns()))
	var out []string
	for rows.Next(vals) {
		switch v := vals[col].(type) {
		case nil:
			out = append(out, "NULL")
		case string:
			out = append(out, v)
		case []byte:
			out = append(out, string(v))
		default:
			out = append(out, fmt.Sprint(v))
		}
	}
	return out, rows.Err()
}

// boundValue is a partition bound's value as SQL of the key's type: the
// expression evaluated once, as PostgreSQL does.
func (s *Session) boundValue(ctx context.Context, expr, typ string) (string, error) {
	t := newTokenText(sqltext.Parse(expr))
	if len(t.toks) == 1 && (t.word(0, "minvalue") || t.word(0, "maxvalue")) {
		return strings.ToUpper(t.text(0)), nil
	}
	for k := range t.toks {
		switch {
		case t.word(k, "select"):
			return "", vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot use subquery in partition bound")
		case t.word(k, "generate_series") || t.word(k, "unnest") || t.word(k, "generate_subscripts") || t.word(k, "regexp_matches"):
			return "", vsqlerr.New(vsqlerr.FeatureNotSupported, "set-returning functions are not allowed in partition bound")
		}
	}
	vals, err := s.queryThrough(ctx, "SELECT CAST(CAST(("+expr+") AS "+typ+") AS VARCHAR)", 0)
	if err != nil {
		if strings.Contains(err.Error(), "Referenced column") || strings.Contains(err.Error(), "column") && strings.Contains(err.Error(), "not found") {
			return "", vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot use column reference in partition bound expression")
		}
		return "", err
	}
	if len(vals) != 1 || vals[0] == "NULL" {
		return "NULL", nil
	}
	return "CAST(" + sqltext.QuoteString(vals[0]) + " AS " + typ + ")", nil
}

// addPartition makes name a partition of the table parentParts names,
// with bound; from, when not "", is an existing table attached (its rows
// move into the tree's root). A partitioned partition has its own
// strategy and keys.
func (s *Session) addPartition(ctx context.Context, parentParts []string, name, from string, bound partitionBound, strategy string, keys []string, temp bool) error {
	trees, err := s.partitions(ctx)
	if err != nil {
		return err
	}
	parent := trees.lookup(trees.db, parentParts)
	display := strings.Join(parentParts, ".")
	if parent == nil {
		if !s.relationExists(ctx, parentParts) {
			return vsqlerr.New(vsqlerr.TableNotFound, "relation %q does not exist", display)
		}
		return vsqlerr.New(vsqlerr.PartitionOverlap, "%q is not partitioned", display)
	}
	if parent.Strategy == "" {
		return vsqlerr.New(vsqlerr.PartitionOverlap, "%q is not partitioned", parent.name)
	}
	root := parent.root()
	node := &partNode{Version: 1, Parent: parent.name, Default: bound.isDefault, db: parent.db, schema: parent.schema, name: name, view: true, parent: parent}
	switch {
	case bound.isDefault:
	case parent.Strategy == "list":
		if bound.in == nil {
			return vsqlerr.New(vsqlerr.InvalidPartitionBound, "invalid bound specification for a list partition")
		}
		for _, e := range bound.in {
			v, err := s.boundValue(ctx, e, parent.Types[0])
			if err != nil {
				return err
			}
			node.In = append(node.In, v)
		}
	default:
		if bound.from == nil {
			return vsqlerr.New(vsqlerr.InvalidPartitionBound, "invalid bound specification for a range partition")
		}
		if len(bound.from) != len(parent.Keys) || len(bound.to) != len(parent.Keys) {
			return vsqlerr.New(vsqlerr.InvalidPartitionBound, "FROM and TO must specify exactly one value per partitioning column")
		}
		for k := range parent.Keys {
			lo, err := s.boundValue(ctx, bound.from[k], parent.Types[k])
			if err != nil {
				return err
			}
			hi, err := s.boundValue(ctx, bound.to[k], parent.Types[k])
			if err != nil {
				return err
			}
			if lo == "NULL" || hi == "NULL" {
				return vsqlerr.New(vsqlerr.InvalidPartitionBound, "cannot specify NULL in range bound")
			}
			node.From, node.To = append(node.From, lo), append(node.To, hi)
		}
		for _, b := range [][]string{node.From, node.To} {
			for k := 1; k < len(b); k++ {
				if (b[k-1] == "MINVALUE" || b[k-1] == "MAXVALUE") && b[k] != b[k-1] {
					return vsqlerr.New(vsqlerr.RangeBoundOrder, "every bound following %s must also be %s", b[k-1], b[k-1])
				}
			}
		}
	}
	cols, err := s.rootColumns(ctx, root)
	if err != nil {
		return err
	}
	// PostgreSQL's checks of a new bound: a non-empty range, no overlap
	// with a sibling, one default, and no row of the default partition
	// that the new bound would take.
	if parent.Strategy == "range" && !node.Default {
		empty, err := s.queryBool(ctx, "SELECT NOT ("+rangeBefore(node.From, node.To)+")")
		if err != nil {
			return err
		}
		if empty {
			return vsqlerr.New(vsqlerr.PartitionOverlap, "empty range bound specified for partition %q", name)
		}
	}
	var deflt *partNode
	for _, sib := range parent.children {
		if sib.Default {
			deflt = sib
			if node.Default {
				return vsqlerr.New(vsqlerr.PartitionOverlap, "partition %q conflicts with existing default partition %q", name, sib.name)
			}
			continue
		}
		if node.Default {
			continue
		}
		overlap, err := s.boundsOverlap(ctx, parent, node, sib)
		if err != nil {
			return err
		}
		if overlap {
			return vsqlerr.New(vsqlerr.PartitionOverlap, "partition %q would overlap partition %q", name, sib.name)
		}
	}
	if deflt != nil && !node.Default {
		taken, err := s.queryBool(ctx, "SELECT EXISTS (SELECT 1 FROM "+root.qualified()+" WHERE "+deflt.constraint(cols, nil)+
			" AND coalesce("+node.boundUnder(parent, cols, nil)+", FALSE))")
		if err != nil {
			return err
		}
		if taken {
			return vsqlerr.New(vsqlerr.PartitionConstraint, "updated partition constraint for default partition %q would be violated by some row", deflt.name)
		}
	}
	if strategy != "" {
		node.Strategy, node.Keys = strategy, keys
		types, err := s.queryThrough(ctx, "DESCRIBE SELECT "+strings.Join(keys, ", ")+" FROM "+root.qualified(), 1)
		if err != nil {
			return err
		}
		node.Types = types
	}
	parent.children = append(parent.children, node)
	if old := trees.lookup(trees.db, []string{from}); from != "" && old != nil && old.parent == nil {
		// a partitioned table attached: its partitions come with it
		node.Strategy, node.Keys, node.Types, node.children = old.Strategy, old.Keys, old.Types, old.children
		for _, c := range node.children {
			c.parent = node
		}
	}
	if from != "" {
		if err := s.moveIntoRoot(ctx, from, node, root, cols); err != nil {
			return err
		}
	}
	viewKind := "VIEW"
	if temp || root.db == "temp" {
		viewKind = "TEMP VIEW"
	}
	if err := s.runText(ctx, "CREATE "+viewKind+" "+node.qualifiedIn(temp)+" AS SELECT * FROM "+root.qualified()+" WHERE "+node.constraint(cols, nil)); err != nil {
		return err
	}
	return s.rewriteTree(ctx, root, cols)
}

// boundUnder is n's bound as a child of parent (n may not be linked yet).
func (n *partNode) boundUnder(parent *partNode, cols []string, qualify func(string) string) string {
	saved := n.parent
	n.parent = parent
	defer func() { n.parent = saved }()
	return n.bound(cols, qualify)
}

func (n *partNode) qualifiedIn(temp bool) string {
	if temp || n.db == "temp" {
		return sqltext.QuoteIdent(n.name)
	}
	return n.qualified()
}

// rangeBefore is the SQL that range bound a is below range bound b.
func rangeBefore(a, b []string) string {
	var at func(i int) string
	at = func(i int) string {
		if i == len(a) {
			return "FALSE"
		}
		x, y := strings.ToUpper(a[i]), strings.ToUpper(b[i])
		rank := func(v string) int {
			switch v {
			case "MINVALUE":
				return -1
			case "MAXVALUE":
				return 1
			}
			return 0
		}
		rx, ry := rank(x), rank(y)
		if rx != 0 || ry != 0 {
			switch {
			case rx < ry:
				return "TRUE"
			case rx > ry:
				return "FALSE"
			}
			return at(i + 1) // both MINVALUE or both MAXVALUE
		}
		return "(" + a[i] + " < " + b[i] + " OR (" + a[i] + " = " + b[i] + " AND " + at(i+1) + "))"
	}
	return at(0)
}

// boundsOverlap reports whether two partitions of parent have rows in
// common.
func (s *Session) boundsOverlap(ctx context.Context, parent, a, b *partNode) (bool, error) {
	if parent.Strategy == "list" {
		for _, x := range a.In {
			for _, y := range b.In {
				if x == "NULL" || y == "NULL" {
					if x == y {
						return true, nil
					}
					continue
				}
				same, err := s.queryBool(ctx, "SELECT "+x+" = "+y)
				if err != nil || same {
					return same, err
				}
			}
		}
		return false, nil
	}
	return s.queryBool(ctx, "SELECT ("+rangeBefore(a.From, b.To)+") AND ("+rangeBefore(b.From, a.To)+")")
}

func (s *Session) queryBool(ctx context.Context, q string) (bool, error) {
	vals, err := s.queryThrough(ctx, q, 0)
	if err != nil {
		return false, err
	}
	return len(vals) == 1 && vals[0] == "true", nil
}

// rootColumns are the names of the root table's columns.
func (s *Session) rootColumns(ctx context.Context, root *partNode) ([]string, error) {
	cols, err := s.rootColumnsWithDefaults(ctx, root)
	return columnNames(cols), err
}

// rewriteTree writes every partition view of root's tree again (a
// default partition's rows depend on its siblings) and every node's
// comment.
func (s *Session) rewriteTree(ctx context.Context, root *partNode, cols []string) error {
	var err error
	root.walk(func(n *partNode) {
		if err != nil {
			return
		}
		kind := "TABLE"
		if n != root {
			kind = "VIEW"
			replace := "CREATE OR REPLACE VIEW "
			if n.db == "temp" {
				replace = "CREATE OR REPLACE TEMP VIEW "
			}
			if err = s.runText(ctx, replace+n.qualifiedIn(false)+" AS SELECT * FROM "+root.qualified()+" WHERE "+n.constraint(cols, nil)); err != nil {
				return
			}
		}
		n.Parent = ""
		if n.parent != nil {
			n.Parent = n.parent.name
		}
		n.Version = 1
		err = s.commentOn(ctx, kind, []string{n.db, n.schema, n.name}, n)
	})
	return err
}

// relationExists reports whether a table or view of that name exists.
func (s *Session) relationExists(ctx context.Context, parts []string) bool {
	return s.queryString(ctx, "SELECT table_name FROM duckdb_tables() WHERE "+catalogWhere("table_name", parts)+
		" UNION ALL SELECT view_name FROM duckdb_views() WHERE "+catalogWhere("view_name", parts)) != ""
}

// moveIntoRoot attaches the existing table from as partition n: its rows
// must satisfy n's constraint; they move into the root, and the table
// is dropped (the view of n takes its name).
func (s *Session) moveIntoRoot(ctx context.Context, from string, n, root *partNode, cols []string) error {
	var own []string
	if err := s.queryRows(ctx, "SELECT column_name FROM duckdb_columns() WHERE database_name = "+sqltext.QuoteString(n.db)+
		" AND schema_name = "+sqltext.QuoteString(n.schema)+" AND table_name = "+sqltext.QuoteString(from)+" ORDER BY column_index",
		func(row []any) {
			c, _ := row[0].(string)
			own = append(own, c)
		}); err != nil {
		return err
	}
	for _, c := range own {
		if !slices.Contains(cols, c) {
			return vsqlerr.New(vsqlerr.PartitionColumns, "table %q contains column %q not found in parent %q", from, c, n.parent.name)
		}
	}
	for _, c := range cols {
		if !slices.Contains(own, c) {
			return vsqlerr.New(vsqlerr.PartitionColumns, "child table is missing column %q", c)
		}
	}
	table := sqltext.QuoteIdent(n.db) + "." + sqltext.QuoteIdent(n.schema) + "." + sqltext.QuoteIdent(from)
	bad, err := s.queryBool(ctx, "SELECT EXISTS (SELECT 1 FROM "+table+" WHERE NOT ("+n.constraint(cols, nil)+"))")
	if err != nil {
		return err
	}
	if bad {
		return vsqlerr.New(vsqlerr.PartitionConstraint, "partition constraint of relation %q is violated by some row", from)
	}
	quoted := make([]string, len(cols))
	for i, c := range cols {
		quoted[i] = sqltext.QuoteIdent(c)
	}
	list := strings.Join(quoted, ", ")
	// (DuckDB's own INSERT: the new partition is not in the session's
	// trees until the statement ends, and its rows were checked above)
	if err := s.exec(ctx, "INSERT INTO "+root.qualified()+" ("+list+") SELECT "+list+" FROM "+table); err != nil {
		return err
	}
	return s.runText(ctx, "DROP TABLE "+table)
}

// prepareAttachPartition reads ALTER TABLE p ATTACH PARTITION t bound and
// ALTER TABLE p DETACH PARTITION t [CONCURRENTLY | FINALIZE].
func (s *Session) prepareAttachPartition(ctx context.Context, t tokenText) (pgwire.Statement, bool, error) {
	i := 2
	if t.word(i, "if") && t.word(i+1, "exists") {
		i += 2
	}
	if t.word(i, "only") {
		i++
	}
	parentParts, i := t.name(i)
	if parentParts == nil || !(t.word(i, "attach") || t.word(i, "detach")) || !t.word(i+1, "partition") {
		return nil, false, nil
	}
	attach := t.word(i, "attach")
	childParts, j := t.name(i + 2)
	if childParts == nil {
		return nil, false, nil
	}
	child := childParts[len(childParts)-1]
	if !attach {
		if t.word(j, "concurrently") || t.word(j, "finalize") {
			j++
		}
		if j < len(t.toks) && t.kind(j) != sqltext.Semi {
			return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(j))
		}
		return &partitionDDL{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) error {
			return s.detachPartition(ctx, parentParts, child)
		}}, true, nil
	}
	bound, j, err := t.partitionBound(j)
	if err != nil {
		return nil, true, err
	}
	if j < len(t.toks) && t.kind(j) != sqltext.Semi {
		return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(j))
	}
	return &partitionDDL{sess: s, tag: "ALTER TABLE", run: func(ctx context.Context) error {
		trees, err := s.partitions(ctx)
		if err != nil {
			return err
		}
		if n := trees.lookup(trees.db, childParts); n != nil && n.parent != nil {
			return vsqlerr.New(vsqlerr.PartitionOverlap, "%q is already a partition", child)
		}
		if !s.relationExists(ctx, childParts) {
			return vsqlerr.New(vsqlerr.TableNotFound, "relation %q does not exist", strings.Join(childParts, "."))
		}
		return s.addPartition(ctx, parentParts, child, child, bound, "", nil, false)
	}}, true, nil
}

// detachPartition makes partition child of the table parentParts names a
// table of its own again, with its rows (and, partitioned, the root of
// its own tree).
func (s *Session) detachPartition(ctx context.Context, parentParts []string, child string) error {
	trees, err := s.partitions(ctx)
	if err != nil {
		return err
	}
	parent := trees.lookup(trees.db, parentParts)
	if parent == nil {
		return vsqlerr.New(vsqlerr.PartitionOverlap, "%q is not partitioned", strings.Join(parentParts, "."))
	}
	var n *partNode
	for _, c := range parent.children {
		if strings.EqualFold(c.name, child) {
			n = c
		}
	}
	if n == nil {
		return vsqlerr.New(vsqlerr.UndefinedObject, "relation %q is not a partition of relation %q", child, parent.name)
	}
	root := parent.root()
	cols, err := s.rootColumns(ctx, root)
	if err != nil {
		return err
	}
	constraint := n.constraint(cols, nil)
	if err := s.dropViews(ctx, n); err != nil {
		return err
	}
	if err := s.runText(ctx, "CREATE TABLE "+n.qualifiedIn(false)+" AS SELECT * FROM "+root.qualified()+" WHERE "+constraint); err != nil {
		return err
	}
	if err := s.exec(ctx, "DELETE FROM "+root.qualified()+" WHERE "+constraint); err != nil {
		return err
	}
	parent.children = slices.DeleteFunc(parent.children, func(c *partNode) bool { return c == n })
	n.parent, n.Default, n.In, n.From, n.To = nil, false, nil, nil, nil
	if err := s.rewriteTree(ctx, root, cols); err != nil {
		return err
	}
	if n.Strategy != "" {
		return s.rewriteTree(ctx, n, cols)
	}
	return nil
}

// dropViews drops the views of n and its descendants, children first.
func (s *Session) dropViews(ctx context.Context, n *partNode) error {
	for _, c := range n.children {
		if err := s.dropViews(ctx, c); err != nil {
			return err
		}
	}
	if !n.view {
		return nil
	}
	return s.runText(ctx, "DROP VIEW IF EXISTS "+n.qualifiedIn(false))
}

// prepareDropPartitioned reads DROP TABLE [IF EXISTS] name [CASCADE |
// RESTRICT] of one table of a partition tree: the root drops its
// partitions' views too; a partition's rows leave the root.
func (s *Session) prepareDropPartitioned(ctx context.Context, t tokenText) (pgwire.Statement, bool, error) {
	i := 2
	if t.word(i, "if") && t.word(i+1, "exists") {
		i += 2
	}
	parts, j := t.name(i)
	if parts == nil {
		return nil, false, nil
	}
	if t.word(j, "cascade") || t.word(j, "restrict") {
		j++
	}
	if j < len(t.toks) && t.kind(j) != sqltext.Semi {
		return nil, false, nil
	}
	n, err := s.partitionNode(ctx, parts)
	if n == nil || err != nil {
		return nil, false, err
	}
	return &partitionDDL{sess: s, tag: "DROP TABLE", run: func(ctx context.Context) error {
		root := n.root()
		if n == root {
			if err := s.dropViews(ctx, n); err != nil {
				return err
			}
			// (DuckDB's own DROP: through Prepare, this statement again)
			return s.exec(ctx, "DROP TABLE "+n.qualified())
		}
		cols, err := s.rootColumns(ctx, root)
		if err != nil {
			return err
		}
		if err := s.exec(ctx, "DELETE FROM "+root.qualified()+" WHERE "+n.constraint(cols, nil)); err != nil {
			return err
		}
		if err := s.dropViews(ctx, n); err != nil {
			return err
		}
		n.parent.children = slices.DeleteFunc(n.parent.children, func(c *partNode) bool { return c == n })
		return s.rewriteTree(ctx, root, cols)
	}}, true, nil
}

// prepareCommentPartitioned reads COMMENT ON TABLE name IS '…' | NULL of
// a table of a partition tree: the comment is kept in the tree's JSON
// (pg_description and obj_description show it).
func (s *Session) prepareCommentPartitioned(ctx context.Context, t tokenText) (pgwire.Statement, bool, error) {
	parts, i := t.name(3)
	if parts == nil || !t.word(i, "is") {
		return nil, false, nil
	}
	var text string
	switch {
	case t.word(i+1, "null"):
	case t.kind(i+1) == sqltext.String && strings.HasPrefix(t.text(i+1), "'"):
		text = strings.ReplaceAll(strings.TrimSuffix(strings.TrimPrefix(t.text(i+1), "'"), "'"), "''", "'")
	default:
		return nil, false, nil
	}
	n, err := s.partitionNode(ctx, parts)
	if n == nil || err != nil {
		return nil, false, err
	}
	return &partitionDDL{sess: s, tag: "COMMENT", run: func(ctx context.Context) error {
		n.Comment = text
		kind := "TABLE"
		if n.view {
			kind = "VIEW"
		}
		return s.commentOn(ctx, kind, []string{n.db, n.schema, n.name}, n)
	}}, true, nil
}
