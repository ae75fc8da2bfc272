package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's declarative partitioning on DuckDB, which has none.
//
// A partitioned table (CREATE TABLE p (…) PARTITION BY LIST|RANGE (keys))
// is one DuckDB table, the root, that holds the rows of all its
// partitions. A partition (CREATE TABLE c PARTITION OF p FOR VALUES …,
// ALTER TABLE p ATTACH PARTITION c …) is a view of the root's rows that
// satisfy its partition constraint: its own bound and its ancestors'.
// So a SELECT of the parent or of a partition, a join, an index on the
// parent and a unique key work as DuckDB's own; an UPDATE of the parent
// that changes a key moves the row to its new partition by itself.
// What a partition tree must refuse is added to the statements that write
// (partitiondml.go): a row for which no partition exists (23514), or one
// written through a partition that it does not belong to (23514).
//
// Each table or view of a tree carries its part of the tree as a JSON
// comment (DuckDB's COMMENT ON), so the tree is stored in the database
// file with the tables, and a branch, a snapshot or a merge carries it as
// it carries the views. A session reads the trees once per catalog
// change (catalogGeneration).
//
// Not supported: HASH partitioning (PostgreSQL's hash functions decide
// which rows a partition holds), a partition's own column options or
// constraints (ignored), indexes on a partition (it is a view), COPY
// FROM into a partitioned table (not checked for routing).

// partMark starts the comment of a table or view of a partition tree.
const partMark = `{"vsql_partition"`

// partNode is one table of a partition tree: the root, an inner
// partition (itself partitioned) or a leaf.
type partNode struct {
	Version  int      `json:"vsql_partition"`
	Parent   string   `json:"parent,omitempty"`   // the parent's name (same schema); "" for the root
	Strategy string   `json:"strategy,omitempty"` // list or range, when partitioned
	Keys     []string `json:"keys,omitempty"`     // key expressions over the root's columns (DuckDB SQL)
	Types    []string `json:"types,omitempty"`    // their DuckDB types
	Default  bool     `json:"default,omitempty"`  // the parent's DEFAULT partition
	In       []string `json:"in,omitempty"`       // FOR VALUES IN: literals (SQL), NULL for null
	From     []string `json:"from,omitempty"`     // FOR VALUES FROM: literals, MINVALUE or MAXVALUE
	To       []string `json:"to,omitempty"`       // … TO
	Comment  string   `json:"comment,omitempty"`  // the user's COMMENT ON TABLE

	db, schema, name string
	view             bool
	// duckKeys are Keys as DuckDB runs them (pgcompat's translation),
	// for the predicates added to a statement already translated; set by
	// partitionRewrite, which passes a qualify function
	duckKeys []string
	parent   *partNode
	children []*partNode
}

func (n *partNode) key() string { return partKey(n.db, n.schema, n.name) }

func partKey(db, schema, name string) string {
	return strings.ToLower(db + "." + schema + "." + name)
}

// root is the table that holds the tree's rows.
func (n *partNode) root() *partNode {
	for n.parent != nil {
		n = n.parent
	}
	return n
}

// qualified is the node's name as SQL: database.schema.name, quoted.
func (n *partNode) qualified() string {
	return sqltext.QuoteIdent(n.db) + "." + sqltext.QuoteIdent(n.schema) + "." + sqltext.QuoteIdent(n.name)
}

func (n *partNode) comment() string {
	b, _ := json.Marshal(n)
	return string(b)
}

// walk calls fn for n and its descendants, parents first.
func (n *partNode) walk(fn func(*partNode)) {
	fn(n)
	for _, c := range n.children {
		c.walk(fn)
	}
}

// partTrees are the partition trees of the session's database and of its
// temporary tables.
type partTrees struct {
	generation int64
	nodes      map[string]*partNode
	db         string                  // the session's database (current_database())
	columns    map[string][]rootColumn // a root's columns, by its key, read once
}

// partitions reads the session's partition trees (cached per catalog
// generation).
func (s *Session) partitions(ctx context.Context) (*partTrees, error) {
	gen := catalogGeneration.Load()
	if s.partTrees != nil && s.partTrees.generation == gen {
		return s.partTrees, nil
	}
	trees := &partTrees{generation: gen, nodes: map[string]*partNode{}, columns: map[string][]rootColumn{},
		db: s.queryString(ctx, "SELECT current_database()")}
	var bad error
	err := s.queryRows(ctx, `SELECT database_name, schema_name, table_name, comment, false FROM duckdb_tables()
			WHERE starts_with(comment, `+sqltext.QuoteString(partMark)+`) AND database_name IN (current_database(), 'temp')
		UNION ALL SELECT database_name, schema_name, view_name, comment, true FROM duckdb_views()
			WHERE starts_with(comment, `+sqltext.QuoteString(partMark)+`) AND database_name IN (current_database(), 'temp')`,
		func(row []any) {
			n := &partNode{}
			text, _ := row[3].(string)
			if err := json.Unmarshal([]byte(text), n); err != nil {
				bad = err
				return
			}
			n.db, _ = row[0].(string)
			n.schema, _ = row[1].(string)
			n.name, _ = row[2].(string)
			n.view, _ = row[4].(bool)
			trees.nodes[n.key()] = n
		})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, err
	}
	for _, n := range trees.nodes {
		if n.Parent == "" {
			continue
		}
		if p := trees.nodes[partKey(n.db, n.schema, n.Parent)]; p != nil {
			n.parent = p
			p.children = append(p.children, n)
		}
	}
	for _, n := range trees.nodes {
		slices.SortFunc(n.children, func(a, b *partNode) int { return strings.Compare(a.name, b.name) })
	}
	s.partTrees = trees
	return trees, nil
}

// partitionNode is the table of a partition tree that name parts
// (unquoted) name, nil when it is none.
func (s *Session) partitionNode(ctx context.Context, parts []string) (*partNode, error) {
	trees, err := s.partitions(ctx)
	if err != nil || len(trees.nodes) == 0 {
		return nil, err
	}
	return trees.lookup(trees.db, parts), nil
}

// lookup finds the node a statement's name parts (unquoted) name, as
// DuckDB resolves the name: a temporary table first, public as main.
func (t *partTrees) lookup(currentDB string, parts []string) *partNode {
	if len(t.nodes) == 0 {
		return nil
	}
	n := len(parts)
	switch n {
	case 1:
		if node := t.nodes[partKey("temp", "main", parts[0])]; node != nil {
			return node
		}
		return t.nodes[partKey(currentDB, "main", parts[0])]
	case 2:
		schema := parts[0]
		if strings.EqualFold(schema, "public") {
			schema = "main"
		}
		if node := t.nodes[partKey(currentDB, schema, parts[1])]; node != nil {
			return node
		}
		return t.nodes[partKey("temp", schema, parts[1])]
	case 3:
		schema := parts[1]
		if strings.EqualFold(schema, "public") {
			schema = "main"
		}
		return t.nodes[partKey(parts[0], schema, parts[2])]
	}
	return nil
}

// The predicates of a tree, as SQL over the root's columns. cols are the
// root's column names; qualify rewrites a column reference (nil: as
// written).

// keyExprs are n's key expressions with columns written by qualify.
func keyExprs(n *partNode, cols []string, qualify func(string) string) []string {
	keys := n.Keys
	if n.duckKeys != nil && qualify != nil {
		keys = n.duckKeys
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = substituteColumns(k, cols, qualify)
	}
	return out
}

// bound is the predicate of n's own bound in its parent (TRUE for the
// root). A default partition's is that no sibling's bound holds.
func (n *partNode) bound(cols []string, qualify func(string) string) string {
	p := n.parent
	if p == nil {
		return "TRUE"
	}
	if n.Default {
		var others []string
		for _, c := range p.children {
			if !c.Default {
				others = append(others, "coalesce("+c.bound(cols, qualify)+", FALSE)")
			}
		}
		if len(others) == 0 {
			return "TRUE"
		}
		return "(NOT (" + strings.Join(others, " OR ") + "))"
	}
	keys := keyExprs(p, cols, qualify)
	if p.Strategy == "list" {
		var terms, values []string
		for _, v := range n.In {
			if v == "NULL" {
				terms = append(terms, "("+keys[0]+") IS NULL")
			} else {
				values = append(values, v)
			}
		}
		if len(values) > 0 {
			terms = append(terms, "("+keys[0]+") IN ("+strings.Join(values, ", ")+")")
		}
		if len(terms) == 0 {
			return "FALSE"
		}
		return "(" + strings.Join(terms, " OR ") + ")"
	}
	terms := make([]string, 0, len(keys)+2)
	for _, k := range keys {
		terms = append(terms, "("+k+") IS NOT NULL")
	}
	terms = append(terms, rangeCompare(keys, n.From, false), rangeCompare(keys, n.To, true))
	return "(" + strings.Join(terms, " AND ") + ")"
}

// rangeCompare is keys >= bound (below false) or keys < bound (below
// true), compared as PostgreSQL compares a row with a range bound: column
// by column, MINVALUE below and MAXVALUE above every value.
func rangeCompare(keys, bound []string, below bool) string {
	var at func(i int) string
	at = func(i int) string {
		if i == len(keys) {
			if below {
				return "FALSE" // equal to the upper bound: outside
			}
			return "TRUE"
		}
		switch strings.ToUpper(bound[i]) {
		case "MINVALUE":
			if below {
				return "FALSE"
			}
			return "TRUE"
		case "MAXVALUE":
			if below {
				return "TRUE"
			}
			return "FALSE"
		}
		op := ">"
		if below {
			op = "<"
		}
		next := at(i + 1)
		strict := "(" + keys[i] + ") " + op + " " + bound[i]
		if next == "FALSE" {
			return strict
		}
		return "(" + strict + " OR ((" + keys[i] + ") = " + bound[i] + " AND " + next + "))"
	}
	return at(0)
}

// constraint is n's partition constraint: its bound and its ancestors'.
func (n *partNode) constraint(cols []string, qualify func(string) string) string {
	var terms []string
	for m := n; m.parent != nil; m = m.parent {
		terms = append(terms, "coalesce("+m.bound(cols, qualify)+", FALSE)")
	}
	if len(terms) == 0 {
		return "TRUE"
	}
	slices.Reverse(terms)
	return strings.Join(terms, " AND ")
}

// routes is the predicate that a row has a leaf to go to below n.
func (n *partNode) routes(cols []string, qualify func(string) string) string {
	if n.Strategy == "" {
		return "TRUE"
	}
	var terms []string
	for _, c := range n.children {
		r := c.routes(cols, qualify)
		t := "coalesce(" + c.bound(cols, qualify) + ", FALSE)"
		if r != "TRUE" {
			t = "(" + t + " AND " + r + ")"
		}
		terms = append(terms, t)
	}
	if len(terms) == 0 {
		return "FALSE"
	}
	return "(" + strings.Join(terms, " OR ") + ")"
}

// accepts is what a row written through n must satisfy: n's constraint,
// and a leaf below n to go to.
func (n *partNode) accepts(cols []string, qualify func(string) string) string {
	c, r := n.constraint(cols, qualify), n.routes(cols, qualify)
	switch {
	case c == "TRUE":
		return r
	case r == "TRUE":
		return c
	}
	return c + " AND " + r
}

// refusal is the error a row that n does not accept raises, as SQL: the
// argument of DuckDB's error(), which vsqlerr reads back as a vsql error.
func (n *partNode) refusal() string {
	e := vsqlerr.New(vsqlerr.NoPartitionForRow, "no partition of relation %q found for row", n.name)
	if n.parent != nil && n.Strategy == "" {
		e = vsqlerr.New(vsqlerr.PartitionConstraint, "new row for relation %q violates partition constraint", n.name)
	}
	return "error(" + sqltext.QuoteString(e.Error()) + ")"
}

// substituteColumns rewrites the column references of expression expr:
// each word that names one of cols (not a function's name, not after a
// dot) becomes qualify(column).
func substituteColumns(expr string, cols []string, qualify func(string) string) string {
	if qualify == nil {
		return expr
	}
	toks := sqltext.Tokens(expr)
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if t.Kind != sqltext.Word && t.Kind != sqltext.Quoted {
			continue
		}
		name := expr[t.Start:t.End]
		if t.Kind == sqltext.Quoted {
			name = sqltext.UnquoteIdent(name)
		}
		if i+1 < len(toks) && toks[i+1].Kind == sqltext.Open {
			continue
		}
		if i > 0 && toks[i-1].Kind == sqltext.Op && expr[toks[i-1].Start:toks[i-1].End] == "." {
			continue
		}
		k := slices.IndexFunc(cols, func(c string) bool {
			if t.Kind == sqltext.Quoted {
				return c == name
			}
			return strings.EqualFold(c, name)
		})
		if k < 0 {
			continue
		}
		b.WriteString(expr[last:t.Start])
		b.WriteString(qualify(cols[k]))
		last = t.End
	}
	b.WriteString(expr[last:])
	return b.String()
}

// columnNames are the names of the columns, in order.
func columnNames(cols []rootColumn) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}
