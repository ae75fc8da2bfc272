package server

import (
	"context"
	"strconv"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
)

// A multi-row INSERT … VALUES into a table with a foreign key to itself
// (a tree: INSERT INTO tree VALUES (1, NULL), (2, 1)): PostgreSQL checks
// the key when the statement ends, so a row may reference a row of the
// same statement; DuckDB checks each row against the rows inserted
// before the statement and refuses. vsql runs such an INSERT one row at
// a time, in order, in one transaction (parents must come before their
// children, as they would have to in separate statements). An INSERT with
// ON CONFLICT or RETURNING is left to DuckDB.

// selfReferences caches, per catalog generation, which tables (lower-case
// database.schema.table) have a foreign key to themselves.
type selfReferences struct {
	generation int64
	tables     map[string]bool
}

// prepareSelfReferencingInsert recognizes INSERT INTO t [(cols)] VALUES
// (…), (…) … into such a table; ok is false for any other statement.
func (s *Session) prepareSelfReferencingInsert(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool) {
	t := newTokenText(st)
	if !t.word(0, "insert") || !t.word(1, "into") {
		return nil, false
	}
	parts, i := t.name(2)
	if parts == nil || len(parts) > 2 {
		return nil, false
	}
	if t.kind(i) == sqltext.Open {
		if i = t.match(i) + 1; i == 0 {
			return nil, false
		}
	}
	if !t.word(i, "values") {
		return nil, false
	}
	var rows []string
	open := i + 1
	for t.kind(open) == sqltext.Open {
		close := t.match(open)
		if close < 0 {
			return nil, false
		}
		rows = append(rows, t.between(open, close+1))
		if t.kind(close+1) != sqltext.Op || t.text(close+1) != "," {
			open = close + 1
			break
		}
		open = close + 2
	}
	if len(rows) < 2 || (open < len(t.toks) && t.kind(open) != sqltext.Semi) {
		return nil, false
	}
	if !s.referencesItself(ctx, parts) {
		return nil, false
	}
	head := t.sql[:t.toks[i].End] + " "
	actions := make([]string, len(rows))
	for k, row := range rows {
		actions[k] = head + row
	}
	return &splitStatement{sess: s, actions: actions, tag: "INSERT 0 " + strconv.Itoa(len(rows))}, true
}

// referencesItself reports whether the table parts names (in the
// session's database) has a foreign key to itself.
func (s *Session) referencesItself(ctx context.Context, parts []string) bool {
	gen := catalogGeneration.Load()
	if s.selfRefs == nil || s.selfRefs.generation != gen {
		s.selfRefs = &selfReferences{generation: gen, tables: map[string]bool{}}
		_ = s.queryRows(ctx, `SELECT DISTINCT lower(database_name || '.' || schema_name || '.' || table_name) FROM duckdb_constraints()
			WHERE constraint_type = 'FOREIGN KEY' AND lower(referenced_table) = lower(table_name)
				AND database_name IN (current_database(), 'temp')`, func(row []any) {
			key, _ := row[0].(string)
			s.selfRefs.tables[key] = true
		})
	}
	if len(s.selfRefs.tables) == 0 {
		return false
	}
	schema := "main"
	if len(parts) == 2 {
		schema = parts[0]
		if strings.EqualFold(schema, "public") {
			schema = "main"
		}
	}
	name := parts[len(parts)-1]
	db := s.queryString(ctx, "SELECT current_database()")
	return s.selfRefs.tables[strings.ToLower("temp."+schema+"."+name)] || s.selfRefs.tables[strings.ToLower(db+"."+schema+"."+name)]
}
