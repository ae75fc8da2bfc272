package server

import (
	"context"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL objects vsql cannot create (DuckDB has no triggers, rules,
// operators, casts, aggregates of SQL, text search objects, …)
// never exist in a vsql database, so DROP … IF EXISTS of one is what
// PostgreSQL answers when it is missing: a NOTICE and the command's tag;
// without IF EXISTS it is PostgreSQL's undefined_object (42704). Before,
// DuckDB's parser refused the statement, which broke teardown scripts
// and migrations' down steps that clean up after PostgreSQL.

// neverCreatedKinds are those object kinds, as the words after DROP.
var neverCreatedKinds = []string{
	"TEXT SEARCH CONFIGURATION", "TEXT SEARCH DICTIONARY", "TEXT SEARCH PARSER", "TEXT SEARCH TEMPLATE",
	"FOREIGN DATA WRAPPER", "OPERATOR CLASS", "OPERATOR FAMILY", "EVENT TRIGGER", "ACCESS METHOD",
	"AGGREGATE", "CAST", "COLLATION", "CONVERSION", "OPERATOR", "POLICY", "PROCEDURE", "ROUTINE",
	"RULE", "SERVER", "STATISTICS", "SUBSCRIPTION", "PUBLICATION", "TRANSFORM", "TRIGGER", "LANGUAGE",
	"MATERIALIZED VIEW", "FOREIGN TABLE",
}

// dropNeverCreated reads DROP kind [IF EXISTS] name … of one of
// neverCreatedKinds; ok is false for any other statement.
func dropNeverCreated(st sqltext.Statement) (kind, name string, ifExists, ok bool) {
	toks, sql := st.Tokens(), st.SQL
	if len(toks) < 3 || !strings.EqualFold(sql[toks[0].Start:toks[0].End], "drop") {
		return "", "", false, false
	}
	words := func(from, n int) string {
		if from+n > len(toks) {
			return ""
		}
		parts := make([]string, n)
		for k := range n {
			t := toks[from+k]
			if t.Kind != sqltext.Word {
				return ""
			}
			parts[k] = strings.ToUpper(sql[t.Start:t.End])
		}
		return strings.Join(parts, " ")
	}
	i := 1
	for _, k := range neverCreatedKinds {
		if n := strings.Count(k, " ") + 1; words(1, n) == k {
			kind, i = k, 1+n
			break
		}
	}
	if kind == "" {
		return "", "", false, false
	}
	if words(i, 2) == "IF EXISTS" {
		ifExists, i = true, i+2
	}
	if i >= len(toks) {
		return "", "", false, false
	}
	end := len(toks)
	if toks[end-1].Kind == sqltext.Semi {
		end--
	}
	// the object's name as written, up to CASCADE or RESTRICT
	last := end - 1
	if w := words(last, 1); w == "CASCADE" || w == "RESTRICT" {
		last--
	}
	if last < i {
		return "", "", false, false
	}
	return kind, sql[toks[i].Start:toks[last].End], ifExists, true
}

// indexMethods are PostgreSQL's index access methods.
var indexMethods = map[string]bool{"btree": true, "hash": true, "gist": true, "gin": true, "spgist": true, "brin": true}

// dropNeverCreatedStatement answers dropNeverCreated's statements.
type dropNeverCreatedStatement struct {
	noRowsStatement
	sess       *Session
	kind, name string
	ifExists   bool
}

func (d *dropNeverCreatedStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	if strings.HasPrefix(d.kind, "OPERATOR ") { // … USING method: PostgreSQL checks the method first
		if _, method, ok := strings.Cut(strings.ToLower(d.name), " using "); ok && !indexMethods[strings.TrimSpace(method)] {
			return nil, vsqlerr.New(vsqlerr.UndefinedObject, "access method %q does not exist", strings.TrimSpace(method)).
				WithHint("PostgreSQL's index methods are btree, hash, gist, gin, spgist and brin.")
		}
	}
	if !d.ifExists {
		switch d.kind {
		case "TRIGGER", "RULE", "POLICY":
			// … ON table: PostgreSQL finds the table first
			if err := d.sess.checkTableOf(ctx, d.name); err != nil {
				return nil, err
			}
		case "MATERIALIZED VIEW", "FOREIGN TABLE":
			return nil, vsqlerr.New(vsqlerr.TableNotFound, "%s %s does not exist", strings.ToLower(d.kind), d.name).
				WithHint("A vsql database has no object of this kind (DuckDB cannot express it); DROP %s IF EXISTS succeeds.", d.kind)
		}
		return nil, vsqlerr.New(vsqlerr.UndefinedObject, "%s %s does not exist", strings.ToLower(d.kind), d.name).
			WithHint("A vsql database has no object of this kind (DuckDB cannot express it); DROP %s IF EXISTS succeeds.", d.kind)
	}
	d.sess.notices = append(d.sess.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000",
		Message: strings.ToLower(d.kind) + " " + d.name + " does not exist, skipping"})
	return &tagRows{tag: "DROP " + d.kind}, nil
}

// checkTableOf finds the table of a DROP TRIGGER, RULE or POLICY name ON
// table: PostgreSQL's errors when its schema (3F000) or the table (42P01)
// does not exist, nil when it does or the name has no ON.
func (s *Session) checkTableOf(ctx context.Context, name string) error {
	st := sqltext.Parse("SELECT " + name)
	toks := st.Tokens()
	on := -1
	for k, t := range toks {
		if t.Kind == sqltext.Word && strings.EqualFold(st.SQL[t.Start:t.End], "on") {
			on = k
		}
	}
	if on < 0 {
		return nil
	}
	var parts []string
	for _, t := range toks[on+1:] {
		switch t.Kind {
		case sqltext.Word:
			parts = append(parts, strings.ToLower(st.SQL[t.Start:t.End]))
		case sqltext.Quoted:
			parts = append(parts, sqltext.UnquoteIdent(st.SQL[t.Start:t.End]))
		case sqltext.Op:
			if st.SQL[t.Start:t.End] != "." {
				return nil
			}
		default:
			return nil
		}
	}
	if len(parts) == 0 || len(parts) > 3 {
		return nil
	}
	if len(parts) >= 2 {
		schema := parts[len(parts)-2]
		if schema == "public" {
			schema = "main"
		}
		if s.queryString(ctx, "SELECT schema_name FROM duckdb_schemas() WHERE schema_name = "+sqltext.QuoteString(schema)+" AND database_name = current_database()") == "" {
			return vsqlerr.New(vsqlerr.SchemaNotFound, "schema %q does not exist", parts[len(parts)-2])
		}
	}
	if s.queryString(ctx, "SELECT table_name FROM duckdb_tables()"+tableWhere(parts)+" UNION ALL SELECT view_name FROM duckdb_views()"+
		strings.Replace(tableWhere(parts), "table_name", "view_name", 1)) == "" {
		return vsqlerr.New(vsqlerr.TableNotFound, "relation %q does not exist", strings.Join(parts, "."))
	}
	return nil
}
