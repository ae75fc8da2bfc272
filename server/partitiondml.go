package server

import (
	"context"
	"slices"
	"strings"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/sqltext"
)

// The writes to a partition tree (partition.go), as DuckDB runs them on
// the tree's root table, with PostgreSQL's checks:
//
//	INSERT INTO p … VALUES (…)   → INSERT INTO root (cols) SELECT * FROM (VALUES (…)) AS rows(cols)
//	                                WHERE CASE WHEN <p accepts the row> THEN TRUE ELSE error(…) END
//	UPDATE c SET k = e WHERE w   → UPDATE root AS c SET k = CASE WHEN <c accepts the new row>
//	                                THEN e ELSE error(…) END WHERE <c's constraint> AND (w)
//	DELETE FROM c WHERE w        → DELETE FROM root AS c WHERE <c's constraint> AND (w)
//
// A row the tree has no partition for, or one written through a
// partition it does not belong to, fails the statement (23514). An
// UPDATE of the parent that changes a key moves the row to the partition
// its new key selects, as PostgreSQL does. The rewrite runs on the
// statement pgcompat translated, so the key expressions it adds are
// translated on their own.

// rootColumn is a column of a tree's root table and its default as SQL
// ("" for none).
type rootColumn struct{ name, deflt, typ string }

// partitionRewrite rewrites an INSERT, UPDATE or DELETE whose target is
// a table of a partition tree; other statements come back unchanged.
func (s *Session) partitionRewrite(ctx context.Context, st sqltext.Statement, sess pgcompat.Session) (sqltext.Statement, error) {
	t := newTokenText(st)
	var at int
	switch {
	case t.word(0, "insert") && t.word(1, "into"):
		at = 2
	case t.word(0, "update"):
		at = 1
	case t.word(0, "delete") && t.word(1, "from"):
		at = 2
	default:
		return st, nil
	}
	trees, err := s.partitions(ctx)
	if err != nil || len(trees.nodes) == 0 {
		return st, err
	}
	if t.word(at, "only") {
		at++
	}
	parts, after := t.name(at)
	if parts == nil {
		return st, nil
	}
	node := trees.lookup(trees.db, parts)
	if node == nil {
		return st, nil
	}
	root := node.root()
	cols, err := s.rootColumnsWithDefaults(ctx, root)
	if err != nil {
		return st, err
	}
	names := columnNames(cols)
	translateKeys(root, sess)
	// the alias the statement's target goes by
	alias, end := "", after
	if t.word(end, "as") && (t.kind(end+1) == sqltext.Word || t.kind(end+1) == sqltext.Quoted) {
		alias, end = t.text(end+1), end+2
	} else if !t.word(0, "insert") && t.kind(end) == sqltext.Word && !t.word(end, "set") && !t.word(end, "using") && !t.word(end, "where") && !t.word(end, "returning") {
		alias, end = t.text(end), end+1
	}
	if alias == "" && node != root {
		alias = sqltext.QuoteIdent(node.name)
	}
	target := root.qualified()
	if alias != "" {
		target += " AS " + alias
	}
	head := t.sql[:t.toks[at].Start] + target
	switch {
	case t.word(0, "insert"):
		return s.partitionInsert(t, node, cols, names, head, end)
	case t.word(0, "update"):
		return partitionUpdate(t, node, root, names, alias, head, end), nil
	}
	return partitionDelete(t, node, root, names, alias, head, end), nil
}

// translateKeys sets the duckKeys of root's tree: the key expressions as
// DuckDB runs them.
func translateKeys(root *partNode, sess pgcompat.Session) {
	root.walk(func(n *partNode) {
		if n.Keys != nil && n.duckKeys == nil {
			n.duckKeys = make([]string, len(n.Keys))
			for i, k := range n.Keys {
				tr := pgcompat.TranslateIn(sqltext.Parse("SELECT "+k), false, sess)
				n.duckKeys[i] = strings.TrimSpace(strings.TrimPrefix(tr.Statement.SQL, "SELECT "))
			}
		}
	})
}

// partitionTableoid reads the system column tableoid of a SELECT from one
// table of a partition tree (SELECT tableoid::regclass, * FROM p): the
// oid of the leaf partition each row is in, as PostgreSQL gives it.
func (s *Session) partitionTableoid(ctx context.Context, st sqltext.Statement, sess pgcompat.Session) (sqltext.Statement, error) {
	if !containsFold(st.SQL, "tableoid") {
		return st, nil // (every SELECT passes here: no token scan)
	}
	t := newTokenText(st)
	trees, err := s.partitions(ctx)
	if err != nil || len(trees.nodes) == 0 {
		return st, err
	}
	from := t.topLevel(0, func(k int) bool { return t.word(k, "from") })
	parts, after := t.name(from + 1)
	if parts == nil {
		return st, nil
	}
	node := trees.lookup(trees.db, parts)
	if node == nil {
		return st, nil
	}
	alias := sqltext.QuoteIdent(parts[len(parts)-1])
	if t.word(after, "as") {
		alias = t.text(after + 1)
	} else if t.kind(after) == sqltext.Word && !slices.ContainsFunc([]string{"where", "group", "order", "limit", "offset", "having", "window", "join",
		"inner", "left", "right", "full", "cross", "natural", "union", "except", "intersect", "fetch", "for", "on", "using"}, func(w string) bool { return t.word(after, w) }) {
		alias = t.text(after)
	}
	root := node.root()
	cols, err := s.rootColumnsWithDefaults(ctx, root)
	if err != nil {
		return st, err
	}
	translateKeys(root, sess)
	names := columnNames(cols)
	var leaves []*partNode
	node.walk(func(n *partNode) {
		if n.Strategy == "" {
			leaves = append(leaves, n)
		}
	})
	expr := "(CASE"
	for _, leaf := range leaves {
		oid := s.queryString(ctx, "SELECT CAST(view_oid AS VARCHAR) FROM duckdb_views() WHERE database_name = "+sqltext.QuoteString(leaf.db)+
			" AND schema_name = "+sqltext.QuoteString(leaf.schema)+" AND view_name = "+sqltext.QuoteString(leaf.name))
		if oid == "" {
			return st, nil
		}
		expr += " WHEN " + leaf.constraint(names, func(c string) string { return alias + "." + sqltext.QuoteIdent(c) }) + " THEN CAST(" + oid + " AS BIGINT)"
	}
	expr += " END)"
	var b strings.Builder
	last := 0
	for k := range t.toks {
		if !t.word(k, "tableoid") || t.kind(k+1) == sqltext.Open {
			continue
		}
		start := t.toks[k].Start
		if k >= 2 && t.kind(k-1) == sqltext.Op && t.text(k-1) == "." {
			start = t.toks[k-2].Start // alias.tableoid
		}
		b.WriteString(st.SQL[last:start])
		b.WriteString(expr)
		last = t.toks[k].End
	}
	b.WriteString(st.SQL[last:])
	return sqltext.Parse(b.String()), nil
}

// topLevel is the first token from i at parenthesis depth 0 for which
// stop is true, or the statement's end (a semicolon or len(toks)).
func (t tokenText) topLevel(i int, stop func(k int) bool) int {
	return t.scan(i, func(k, depth int) bool {
		return depth == 0 && t.toks[k].Kind != sqltext.Close && (t.toks[k].Kind == sqltext.Semi || stop(k))
	})
}

// rest is the statement's text from token i on ("" at the end).
func (t tokenText) rest(i int) string {
	if i >= len(t.toks) {
		return ""
	}
	return t.sql[t.toks[i].Start:]
}

func (s *Session) partitionInsert(t tokenText, node *partNode, cols []rootColumn, names []string, head string, i int) (sqltext.Statement, error) {
	target, listed := names, t.kind(i) == sqltext.Open
	if listed {
		close := t.match(i)
		if close < 0 {
			return sqltext.Parse(t.sql), nil
		}
		target = nil
		for _, it := range t.items(i, close) {
			parts, _ := t.name(it[0])
			if len(parts) != 1 {
				return sqltext.Parse(t.sql), nil // c[1], c.f: DuckDB answers
			}
			target = append(target, parts[0])
		}
		i = close + 1
	}
	overriding := ""
	if t.word(i, "overriding") {
		overriding = t.between(i, i+3) + " "
		i += 3
	}
	srcEnd := t.topLevel(i, func(k int) bool {
		return (t.word(k, "on") && t.word(k+1, "conflict")) || t.word(k, "returning")
	})
	typeOf := func(c string) string {
		for _, rc := range cols {
			if strings.EqualFold(rc.name, c) {
				return rc.typ
			}
		}
		return ""
	}
	defaultOf := func(c string) string {
		for _, rc := range cols {
			if strings.EqualFold(rc.name, c) && rc.deflt != "" {
				return rc.deflt
			}
		}
		return "NULL"
	}
	var source string
	switch {
	case t.word(i, "default") && t.word(i+1, "values"):
		target = names
		defaults := make([]string, len(names))
		for k, c := range names {
			defaults[k] = defaultOf(c)
		}
		source = "SELECT " + strings.Join(defaults, ", ")
	case t.word(i, "values"):
		if !listed && t.kind(i+1) == sqltext.Open {
			// without a column list, a row of fewer values fills the
			// first columns (the others take their defaults)
			if close := t.match(i + 1); close > 0 {
				if n := len(t.items(i+1, close)); n > 0 && n < len(target) {
					target = target[:n]
				}
			}
		}
		// a DEFAULT item of a row is the column's default; a parameter is
		// cast to its column's type (so that it is typed as the column,
		// as in INSERT … VALUES, not as the subquery's text)
		var b strings.Builder
		last := t.toks[i].Start
		for open := i + 1; t.kind(open) == sqltext.Open; {
			close := t.match(open)
			if close < 0 || close >= srcEnd {
				return sqltext.Parse(t.sql), nil
			}
			for k, it := range t.items(open, close) {
				if it[1]-it[0] != 1 || k >= len(target) {
					continue
				}
				switch {
				case t.word(it[0], "default"):
					b.WriteString(t.sql[last:t.toks[it[0]].Start])
					b.WriteString(defaultOf(target[k]))
					last = t.toks[it[0]].End
				case t.kind(it[0]) == sqltext.Param && typeOf(target[k]) != "":
					b.WriteString(t.sql[last:t.toks[it[0]].Start])
					b.WriteString("CAST(" + t.text(it[0]) + " AS " + typeOf(target[k]) + ")")
					last = t.toks[it[0]].End
				}
			}
			if t.kind(close+1) != sqltext.Op || t.text(close+1) != "," {
				break
			}
			open = close + 2
		}
		b.WriteString(t.sql[last:t.toks[srcEnd-1].End])
		source = b.String()
	default:
		source = t.between(i, srcEnd)
	}
	if source == "" {
		return sqltext.Parse(t.sql), nil
	}
	quoted := make([]string, len(target))
	for k, c := range target {
		quoted[k] = sqltext.QuoteIdent(c)
	}
	list := strings.Join(quoted, ", ")
	qualify := func(c string) string {
		if slices.ContainsFunc(target, func(x string) bool { return strings.EqualFold(x, c) }) {
			return "__vsql_rows." + sqltext.QuoteIdent(c)
		}
		return "(" + defaultOf(c) + ")"
	}
	check := "CASE WHEN coalesce(" + node.accepts(names, qualify) + ", FALSE) THEN TRUE ELSE " + node.refusal() + " END"
	out := head + " (" + list + ") " + overriding + "SELECT * FROM (" + source + ") AS __vsql_rows(" + list + ") WHERE " + check
	if r := t.rest(srcEnd); r != "" {
		out += " " + r
	}
	return sqltext.Parse(out), nil
}

func partitionUpdate(t tokenText, node, root *partNode, names []string, alias, head string, i int) sqltext.Statement {
	if !t.word(i, "set") {
		return sqltext.Parse(t.sql)
	}
	setEnd := t.topLevel(i+1, func(k int) bool {
		return t.word(k, "from") || t.word(k, "where") || t.word(k, "returning")
	})
	ref := alias
	if ref == "" {
		ref = root.qualified()
	}
	// the assignments: column → its expression's tokens
	type assignment struct {
		column     string
		start, end int // the expression
	}
	var sets []assignment
	start, depth := i+1, 0
	for k := i + 1; k <= setEnd; k++ {
		if k < setEnd {
			switch t.toks[k].Kind {
			case sqltext.Open:
				depth++
			case sqltext.Close:
				depth--
			}
			if depth != 0 || t.kind(k) != sqltext.Op || t.text(k) != "," {
				continue
			}
		}
		parts, after := t.name(start)
		if len(parts) == 1 && t.kind(after) == sqltext.Op && t.text(after) == "=" && after+1 < k {
			sets = append(sets, assignment{parts[0], after + 1, k})
		}
		start = k + 1
	}
	// the key columns of the whole tree
	var keyCols []string
	root.walk(func(n *partNode) {
		for _, k := range n.duckKeys {
			substituteColumns(k, names, func(c string) string {
				if !slices.Contains(keyCols, c) {
					keyCols = append(keyCols, c)
				}
				return c
			})
		}
	})
	var b strings.Builder
	b.WriteString(head)
	b.WriteString(" ")
	last := t.toks[i].Start
	wrapped := false
	for _, a := range sets {
		if wrapped || !slices.ContainsFunc(keyCols, func(c string) bool { return strings.EqualFold(c, a.column) }) {
			continue
		}
		qualify := func(c string) string {
			for _, o := range sets {
				if strings.EqualFold(o.column, c) {
					return "(" + t.between(o.start, o.end) + ")"
				}
			}
			return ref + "." + sqltext.QuoteIdent(c)
		}
		b.WriteString(t.sql[last:t.toks[a.start].Start])
		b.WriteString("CASE WHEN coalesce(" + node.accepts(names, qualify) + ", FALSE) THEN (" + t.between(a.start, a.end) + ") ELSE " + node.refusal() + " END")
		last = t.toks[a.end-1].End
		wrapped = true
	}
	if node == root {
		b.WriteString(t.sql[last:])
		return sqltext.Parse(b.String())
	}
	whereAt := t.topLevel(setEnd, func(k int) bool { return t.word(k, "where") || t.word(k, "returning") })
	b.WriteString(withConstraint(t, node, names, ref, last, whereAt))
	return sqltext.Parse(b.String())
}

// withConstraint is the text from byte offset from to the end, with
// node's constraint (columns qualified by ref) added to the WHERE clause
// at token where (WHERE, RETURNING or the end).
func withConstraint(t tokenText, node *partNode, names []string, ref string, from, where int) string {
	constraint := node.constraint(names, func(c string) string { return ref + "." + sqltext.QuoteIdent(c) })
	if where >= len(t.toks) || t.kind(where) == sqltext.Semi {
		return t.sql[from:] + " WHERE " + constraint
	}
	if t.word(where, "returning") {
		return t.sql[from:t.toks[where].Start] + "WHERE " + constraint + " " + t.rest(where)
	}
	condEnd := t.topLevel(where+1, func(k int) bool { return t.word(k, "returning") })
	out := t.sql[from:t.toks[where].End] + " " + constraint + " AND (" + t.between(where+1, condEnd) + ")"
	if r := t.rest(condEnd); r != "" {
		out += " " + r
	}
	return out
}

func partitionDelete(t tokenText, node, root *partNode, names []string, alias, head string, i int) sqltext.Statement {
	if node == root {
		return sqltext.Parse(t.sql)
	}
	whereAt := t.topLevel(i, func(k int) bool { return t.word(k, "where") || t.word(k, "returning") })
	from := len(t.sql)
	if i < len(t.toks) {
		from = t.toks[i].Start
	}
	return sqltext.Parse(head + " " + withConstraint(t, node, names, alias, from, whereAt))
}

// rootColumnsWithDefaults are the root table's columns and defaults
// (read once per catalog generation).
func (s *Session) rootColumnsWithDefaults(ctx context.Context, root *partNode) ([]rootColumn, error) {
	if trees := s.partTrees; trees != nil && trees.columns[root.key()] != nil {
		return trees.columns[root.key()], nil
	}
	var cols []rootColumn
	err := s.queryRows(ctx, "SELECT column_name, coalesce(column_default, ''), data_type FROM duckdb_columns() WHERE database_name = "+sqltext.QuoteString(root.db)+
		" AND schema_name = "+sqltext.QuoteString(root.schema)+" AND table_name = "+sqltext.QuoteString(root.name)+" ORDER BY column_index",
		func(row []any) {
			c, _ := row[0].(string)
			d, _ := row[1].(string)
			typ, _ := row[2].(string)
			cols = append(cols, rootColumn{c, d, typ})
		})
	if err == nil && s.partTrees != nil && len(cols) > 0 {
		s.partTrees.columns[root.key()] = cols
	}
	return cols, err
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case.
func containsFold(s, w string) bool {
	for i := 0; i+len(w) <= len(s); i++ {
		if s[i]|0x20 == w[0] && strings.EqualFold(s[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
