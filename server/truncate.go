package server

import (
	"context"
	"database/sql/driver"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// prepareTruncate answers PostgreSQL's TRUNCATE: of several tables, with
// CASCADE or RESTRICT, ONLY or the identity options, which DuckDB's own
// TRUNCATE does not read (Django's flush sends TRUNCATE a, b, c), and,
// for one table too, refused while another table's foreign key references
// it (PostgreSQL's rule; DuckDB refuses only when referencing rows
// exist). ok is false for a statement it cannot read (DuckDB answers).
func (s *Session) prepareTruncate(ctx context.Context, st sqltext.Statement, scan sqltext.Scan) (pgwire.Statement, bool, error) {
	t, ok := sqltext.ParseTruncate(st)
	if !ok {
		return nil, false, nil
	}
	for _, n := range t.Tables {
		if n.Catalog != "" {
			return nil, false, nil // another branch or version ("db/dev".main.t): DuckDB's own, under its gates
		}
	}
	for k, n := range t.Tables {
		parts := []string{n.Table}
		if n.Schema != "" {
			parts = []string{n.Schema, n.Table}
		}
		if node, err := s.partitionNode(ctx, parts); err != nil {
			return nil, true, err
		} else if node != nil && node.Strategy != "" && t.Only[k] {
			// PostgreSQL: ONLY would leave the partitions' rows
			return nil, true, vsqlerr.New(vsqlerr.WrongObjectType, "cannot truncate only a partitioned table").
				WithHint("Leave out ONLY to empty the table and its partitions, or truncate the partitions themselves.")
		}
	}
	if s.readOnlyTransaction() {
		return nil, true, refuseReadOnly(st)
	}
	if err := s.checkAll(ctx, s.statementNeeds(scan, true)); err != nil {
		return nil, true, err
	}
	if t.Restart {
		// RESTART IDENTITY: the sequences the tables' defaults call
		// start again (sequenceremake.go), in the TRUNCATE's transaction.
		restarts, err := s.identityRestarts(ctx, t)
		if err != nil {
			return nil, true, err
		}
		t.Restart = false
		return &sequenceRemakeStatement{sess: s, tag: "TRUNCATE TABLE", first: &truncateStatement{sess: s, truncate: t}, remakes: restarts}, true, nil
	}
	return &truncateStatement{sess: s, truncate: t}, true, nil
}

// identityRestarts are the restarts of TRUNCATE … RESTART IDENTITY: each
// sequence a default of a column of the named tables calls, at its start.
func (s *Session) identityRestarts(ctx context.Context, t sqltext.Truncate) ([]sequenceRemake, error) {
	var restarts []sequenceRemake
	seen := map[string]bool{}
	for _, n := range t.Tables {
		var parts []string
		for _, p := range []string{n.Catalog, n.Schema, n.Table} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		var names []string
		err := s.queryRows(ctx, "SELECT column_default FROM duckdb_columns()"+tableWhere(parts)+" AND column_default ILIKE '%nextval(%'", func(row []any) {
			def, _ := row[0].(string)
			for _, m := range nextvalDefault.FindAllStringSubmatch(def, -1) {
				names = append(names, m[1])
			}
		})
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			q, found, err := s.readSequence(ctx, name)
			if err != nil {
				return nil, err
			}
			if !found || seen[q.qualified()] {
				continue
			}
			seen[q.qualified()] = true
			restarts = append(restarts, sequenceRemake{q, q.params, sequencePosition{value: q.params.Start}})
		}
	}
	return restarts, nil
}

// truncateStatement empties its tables in one transaction, referencing
// tables before the tables they reference (DuckDB checks each DELETE's
// foreign keys on its own).
type truncateStatement struct {
	noRowsStatement
	sess     *Session
	truncate sqltext.Truncate
}

// fkEdge is a foreign key of table child referencing table parent (keys:
// lower-case schema.table).
type fkEdge struct{ child, parent string }

func tableKey(schema, table string) string {
	if schema == "" {
		schema = "main"
	}
	return strings.ToLower(schema + "." + table)
}

func (st *truncateStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := st.sess
	if s.target.Snapshot == "" {
		leave, err := s.srv.versions.Gate(s.alias).Shared(ctx)
		if err != nil {
			return nil, s.failed(canceled(ctx, err))
		}
		defer leave()
	}
	edges, err := s.foreignKeys(ctx)
	if err != nil {
		return nil, s.failed(err)
	}
	// A partition's rows are its root's: a key referencing an ancestor
	// references the partition too.
	for _, n := range st.truncate.Tables {
		parts := []string{n.Table}
		if n.Schema != "" {
			parts = []string{n.Schema, n.Table}
		}
		node, err := s.partitionNode(ctx, parts)
		if err != nil {
			return nil, s.failed(err)
		}
		if node == nil {
			continue
		}
		key := tableKey(n.Schema, n.Table)
		for a := node.parent; a != nil; a = a.parent {
			for _, e := range edges {
				if ak := tableKey(a.schema, a.name); e.parent == ak && e.child != ak {
					edges = append(edges, fkEdge{child: e.child, parent: key})
				}
			}
		}
	}
	// The tables, in the order written, and with CASCADE every table that
	// references one of them.
	names := map[string]string{} // key → the name to delete from
	var order []string
	add := func(key, name string) {
		if _, ok := names[key]; !ok {
			names[key] = name
			order = append(order, key)
		}
	}
	for _, n := range st.truncate.Tables {
		var parts []string
		for _, p := range []string{n.Catalog, n.Schema, n.Table} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		add(tableKey(n.Schema, n.Table), sqltext.QualifiedName(parts))
	}
	for grew := true; grew; {
		grew = false
		for _, e := range edges {
			if _, in := names[e.parent]; !in || e.child == e.parent {
				continue
			}
			if _, in := names[e.child]; in {
				continue
			}
			if !st.truncate.Cascade {
				child, parent := e.child[strings.IndexByte(e.child, '.')+1:], e.parent[strings.IndexByte(e.parent, '.')+1:]
				err := vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot truncate a table referenced in a foreign key constraint").
					WithHint("Truncate table \"%s\" at the same time, or use TRUNCATE … CASCADE.", child)
				err.Detail = "Table \"" + child + "\" references \"" + parent + "\"."
				return nil, s.failed(err)
			}
			schema, table, _ := strings.Cut(e.child, ".")
			add(e.child, sqltext.QualifiedName([]string{schema, table}))
			grew = true
		}
	}
	// Referencing tables first: each time, a table no other remaining
	// table references (in a cycle, the rest in order).
	var deletes []string
	for len(order) > 0 {
		pick := 0
		for i, key := range order {
			referenced := false
			for _, e := range edges {
				if e.parent == key && e.child != key && slices.Contains(order, e.child) {
					referenced = true
					break
				}
			}
			if !referenced {
				pick = i
				break
			}
		}
		deletes = append(deletes, "DELETE FROM "+names[order[pick]])
		order = append(order[:pick], order[pick+1:]...)
	}
	// One transaction, unless a foreign key links two of the tables:
	// DuckDB checks a DELETE of referenced rows against the referencing
	// rows as they were when its transaction began, so the referencing
	// table's emptying must be committed first. Then each table is
	// emptied in a transaction of its own, referencing tables first.
	linked := false
	for _, e := range edges {
		if e.child != e.parent && names[e.child] != "" && names[e.parent] != "" {
			linked = true
		}
	}
	wrap := s.txStatus() == txIdle && !linked
	if wrap {
		if err := s.exec(ctx, "BEGIN TRANSACTION"); err != nil {
			return nil, s.failed(err)
		}
	}
	for _, q := range deletes {
		// a partition's rows are in its tree's root (partitiondml.go)
		routed, err := s.partitionRewrite(ctx, sqltext.Parse(q), pgcompat.Session{})
		if err == nil {
			err = s.exec(ctx, routed.SQL)
		}
		if err != nil {
			if wrap {
				_ = s.exec(context.Background(), "ROLLBACK")
			}
			return nil, s.failed(s.readOnly(canceled(ctx, err)))
		}
	}
	if wrap {
		if err := s.exec(ctx, "COMMIT"); err != nil {
			_ = s.exec(context.Background(), "ROLLBACK")
			return nil, s.failed(err)
		}
	}
	return &tagRows{tag: "TRUNCATE TABLE"}, nil
}

// foreignKeys lists the foreign keys of the session's database.
func (s *Session) foreignKeys(ctx context.Context) ([]fkEdge, error) {
	rows, err := s.conn.QueryContext(ctx, "SELECT schema_name, table_name, referenced_table FROM duckdb_constraints() "+
		"WHERE constraint_type = 'FOREIGN KEY' AND database_name = current_database()", []driver.NamedValue{})
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var edges []fkEdge
	vals := make([]driver.Value, 3)
	for {
		if err := rows.Next(vals); err != nil {
			if errors.Is(err, io.EOF) {
				return edges, nil
			}
			return nil, err
		}
		schema, _ := vals[0].(string)
		table, _ := vals[1].(string)
		parent, _ := vals[2].(string)
		edges = append(edges, fkEdge{child: tableKey(schema, table), parent: tableKey(schema, parent)})
	}
}

// referencingFirst orders the statements DROP TABLE [IF EXISTS] name …
// of one DROP TABLE of several tables so that a table another one of
// them references by a foreign key is dropped after it (PostgreSQL drops
// them together).
func (s *Session) referencingFirst(ctx context.Context, drops []string) ([]string, error) {
	edges, err := s.foreignKeys(ctx)
	if err != nil || len(edges) == 0 {
		return drops, err
	}
	keys := make([]string, len(drops))
	for k, q := range drops {
		keys[k] = dropTableKey(q)
	}
	order := make([]int, len(drops))
	for k := range order {
		order[k] = k
	}
	var out []string
	for len(order) > 0 {
		pick := 0
		for i, k := range order {
			referenced := false
			for _, e := range edges {
				if e.parent == keys[k] && e.child != e.parent && slices.ContainsFunc(order, func(o int) bool { return o != k && keys[o] == e.child }) {
					referenced = true
					break
				}
			}
			if !referenced {
				pick = i
				break
			}
		}
		out = append(out, drops[order[pick]])
		order = append(order[:pick], order[pick+1:]...)
	}
	return out, nil
}

// dropTableKey is the tableKey of the table DROP TABLE [IF EXISTS] name
// [CASCADE | RESTRICT] names.
func dropTableKey(q string) string {
	parts := dropTableParts(q)
	switch n := len(parts); {
	case n == 1:
		return tableKey("", parts[0])
	case n >= 2:
		return tableKey(parts[n-2], parts[n-1])
	}
	return ""
}

// dropTableParts are the name parts of the table DROP TABLE [IF EXISTS]
// name [CASCADE | RESTRICT] names, as PostgreSQL reads them (schema
// public is main).
func dropTableParts(q string) []string {
	st := sqltext.Parse(q)
	toks := st.Tokens()
	i := 2
	if st.Keyword(2) == "IF" && st.Keyword(3) == "EXISTS" {
		i = 4
	}
	var parts []string
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == sqltext.Quoted:
			parts = append(parts, sqltext.UnquoteIdent(q[t.Start:t.End]))
		case t.Kind == sqltext.Word && !strings.EqualFold(q[t.Start:t.End], "cascade") && !strings.EqualFold(q[t.Start:t.End], "restrict"):
			parts = append(parts, strings.ToLower(q[t.Start:t.End]))
		}
	}
	if n := len(parts); n >= 2 && parts[n-2] == "public" {
		parts[n-2] = "main"
	}
	return parts
}

// prepareDropOwned answers DROP TABLE [IF EXISTS] t [CASCADE | RESTRICT]
// of a table whose serial or identity columns draw from sequences named
// <table>_<column>_seq, as RewriteSerial names them: PostgreSQL drops the
// sequences such a column owns with the table, so the table goes, then
// they do, in one transaction. ok is false for another table (DuckDB
// drops it).
func (s *Session) prepareDropOwned(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	parts := dropTableParts(st.SQL)
	if len(parts) == 0 || len(parts) > 3 {
		return nil, false, nil
	}
	var drops []string
	err := s.queryRows(ctx, "SELECT database_name, schema_name, table_name, column_name, column_default FROM duckdb_columns()"+tableWhere(parts)+
		" AND column_default LIKE '%nextval(%' ORDER BY database_name = 'temp' DESC, column_index", func(row []any) {
		db, _ := row[0].(string)
		sch, _ := row[1].(string)
		tbl, _ := row[2].(string)
		col, _ := row[3].(string)
		def, _ := row[4].(string)
		if len(drops) > 0 && !strings.HasPrefix(drops[0], "DROP SEQUENCE IF EXISTS "+sqltext.QuoteIdent(db)+"."+sqltext.QuoteIdent(sch)+".") {
			return // (a temporary table shadows the other)
		}
		owned := strings.ToLower(tbl + "_" + col + "_seq")
		for _, m := range nextvalDefault.FindAllStringSubmatch(def, -1) {
			names := pgcompat.SplitQualified(m[1])
			if strings.ToLower(sqltext.UnquoteIdent(names[len(names)-1])) == owned {
				drops = append(drops, "DROP SEQUENCE IF EXISTS "+sqltext.QuoteIdent(db)+"."+sqltext.QuoteIdent(sch)+"."+sqltext.QuoteIdent(sqltext.UnquoteIdent(names[len(names)-1])))
				break
			}
		}
	})
	if err != nil || len(drops) == 0 {
		return nil, false, err
	}
	return &ownedDropStatement{sess: s, actions: append([]string{st.SQL}, drops...)}, true, nil
}

// ownedDropStatement is a DROP TABLE and the DROP SEQUENCE of the
// sequences its serial columns own.
type ownedDropStatement struct {
	noRowsStatement
	sess    *Session
	actions []string
}

func (d *ownedDropStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := d.sess
	s.droppingOwned = true
	defer func() { s.droppingOwned = false }()
	err := s.inTransaction(ctx, func() error {
		for _, q := range d.actions {
			if err := s.runText(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &tagRows{tag: "DROP TABLE"}, nil
}
