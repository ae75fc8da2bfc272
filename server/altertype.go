package server

import (
	"context"
	"regexp"
	"slices"
	"strings"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// ALTER TYPE e ADD VALUE [IF NOT EXISTS] 'v' [BEFORE | AFTER 'w'] and
// ALTER TYPE e RENAME VALUE 'a' TO 'b', as migrations change an enum
// (Rails, Django, Prisma). DuckDB's enums cannot change, so the type is
// made again with the new labels and every column of it (or an array of
// it) moved onto the new type, in one transaction: a column's values keep
// their labels (a renamed label's values take the new name), and a new
// label takes its place in the order. PostgreSQL's errors are kept: an
// existing label (42710, a NOTICE with IF NOT EXISTS), a missing label or
// neighbour (22023), a missing type (42704), a label longer than 63
// bytes (42602).

var (
	addEnumValue    = regexp.MustCompile(`(?is)^\s*ALTER\s+TYPE\s+(.+?)\s+ADD\s+VALUE\s+(IF\s+NOT\s+EXISTS\s+)?'((?:[^']|'')*)'\s*(?:(BEFORE|AFTER)\s+'((?:[^']|'')*)')?\s*;?\s*$`)
	renameEnumValue = regexp.MustCompile(`(?is)^\s*ALTER\s+TYPE\s+(.+?)\s+RENAME\s+VALUE\s+'((?:[^']|'')*)'\s+TO\s+'((?:[^']|'')*)'\s*;?\s*$`)
)

// alterEnumStatement is ALTER TYPE … ADD VALUE or RENAME VALUE.
type alterEnumStatement struct {
	noRowsStatement
	sess        *Session
	name        []string // the type's name parts, unquoted
	label       string   // the label added, or the new name of renamed
	renamed     string   // RENAME VALUE: the label renamed
	neighbour   string
	where       string // ADD VALUE: "", BEFORE or AFTER
	ifNotExists bool
}

func (s *Session) prepareAlterEnum(st sqltext.Statement) (pgwire.Statement, bool) {
	unquote := func(lit string) string { return strings.ReplaceAll(lit, "''", "'") }
	a := &alterEnumStatement{sess: s}
	var name string
	if m := addEnumValue.FindStringSubmatch(st.SQL); m != nil {
		name, a.ifNotExists, a.label, a.where, a.neighbour = m[1], m[2] != "", unquote(m[3]), strings.ToUpper(m[4]), unquote(m[5])
	} else if m := renameEnumValue.FindStringSubmatch(st.SQL); m != nil {
		name, a.renamed, a.label = m[1], unquote(m[2]), unquote(m[3])
	} else {
		return nil, false
	}
	for _, p := range pgcompat.SplitQualified(strings.TrimSpace(name)) {
		a.name = append(a.name, sqltext.UnquoteIdent(strings.TrimSpace(p)))
	}
	if len(a.name) >= 2 && strings.EqualFold(a.name[len(a.name)-2], "public") {
		a.name[len(a.name)-2] = "main"
	}
	return a, true
}

func (a *alterEnumStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := a.sess
	display := strings.Join(a.name, ".")
	var db, schema, typeName string
	var labels []string
	if err := s.queryRows(ctx, "SELECT database_name, schema_name, type_name, labels FROM duckdb_types() WHERE logical_type = 'ENUM' AND "+
		catalogWhere("type_name", a.name)+" ORDER BY database_name = 'temp' DESC LIMIT 1", func(row []any) {
		db, _ = row[0].(string)
		schema, _ = row[1].(string)
		typeName, _ = row[2].(string)
		list, _ := row[3].([]any)
		for _, l := range list {
			label, _ := l.(string)
			labels = append(labels, label)
		}
	}); err != nil {
		return nil, err
	}
	if typeName == "" {
		return nil, vsqlerr.New(vsqlerr.UndefinedObject, "type %q does not exist", display).
			WithHint("ALTER TYPE … ADD VALUE and RENAME VALUE change an enum type (CREATE TYPE … AS ENUM).")
	}
	notLabel := func(l string) error {
		return vsqlerr.New(vsqlerr.InvalidArgument, "%q is not an existing enum label", l).
			WithHint("SELECT enum_range(NULL::%s) lists the type's labels.", display)
	}
	if len(a.label) == 0 || len(a.label) > 63 {
		return nil, vsqlerr.New(vsqlerr.InvalidEnumLabel, "invalid enum label %q", a.label)
	}
	var next []string
	switch {
	case a.renamed != "":
		k := slices.Index(labels, a.renamed)
		if k < 0 {
			return nil, notLabel(a.renamed)
		}
		if slices.Contains(labels, a.label) {
			return nil, vsqlerr.New(vsqlerr.EnumLabelExists, "enum label %q already exists", a.label)
		}
		next = slices.Clone(labels)
		next[k] = a.label
	case slices.Contains(labels, a.label):
		if a.ifNotExists {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000",
				Message: "enum label \"" + a.label + "\" already exists, skipping"})
			return &tagRows{tag: "ALTER TYPE"}, nil
		}
		return nil, vsqlerr.New(vsqlerr.EnumLabelExists, "enum label %q already exists", a.label)
	default:
		at := len(labels)
		if a.where != "" {
			if at = slices.Index(labels, a.neighbour); at < 0 {
				return nil, notLabel(a.neighbour)
			}
			if a.where == "AFTER" {
				at++
			}
		}
		next = slices.Insert(slices.Clone(labels), at, a.label)
	}
	// DuckDB's catalog writes a column's type as its labels: another enum
	// with the same labels could not be told apart
	var twins []string
	if err := s.queryRows(ctx, "SELECT schema_name || '.' || type_name FROM duckdb_types() WHERE logical_type = 'ENUM' AND database_name = "+
		sqltext.QuoteString(db)+" AND labels = (SELECT labels FROM duckdb_types() WHERE database_name = "+sqltext.QuoteString(db)+
		" AND schema_name = "+sqltext.QuoteString(schema)+" AND type_name = "+sqltext.QuoteString(typeName)+") AND NOT (schema_name = "+
		sqltext.QuoteString(schema)+" AND type_name = "+sqltext.QuoteString(typeName)+")", func(row []any) {
		t, _ := row[0].(string)
		twins = append(twins, t)
	}); err != nil {
		return nil, err
	}
	if len(twins) > 0 {
		return nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot change enum type %s: type %s has the same labels, and vsql cannot tell their columns apart", display, twins[0]).
			WithHint("Change the labels of one of them first, or recreate the columns' type by hand.")
	}
	cols, err := a.enumColumns(ctx, db, labels)
	if err != nil {
		return nil, err
	}
	typ := sqltext.QuoteIdent(db) + "." + sqltext.QuoteIdent(schema) + "." + sqltext.QuoteIdent(typeName)
	// text is a column's values as text, a renamed label's values renamed
	text := func(c enumColumn) string {
		value := "CAST(" + c.name + " AS VARCHAR)"
		if c.array {
			value = "CAST(" + c.name + " AS VARCHAR[])"
		}
		if a.renamed == "" {
			return value
		}
		from, to := sqltext.QuoteString(a.renamed), sqltext.QuoteString(a.label)
		if c.array {
			return "list_transform(" + value + ", x -> CASE WHEN x = " + from + " THEN " + to + " ELSE x END)"
		}
		return "CASE WHEN " + value + " = " + from + " THEN " + to + " ELSE " + value + " END"
	}
	retype := func(to string, using func(enumColumn) string) []string {
		var out []string
		for _, c := range cols {
			target := to
			if c.array {
				target += "[]"
			}
			out = append(out, "ALTER TABLE "+c.table+" ALTER COLUMN "+c.name+" TYPE "+target+" USING CAST("+using(c)+" AS "+target+")")
		}
		return out
	}
	// the columns to text, the type made again, the columns back
	steps := retype("VARCHAR", text)
	asText := func(c enumColumn) string { return c.name }
	quoted := make([]string, len(next))
	for i, l := range next {
		quoted[i] = sqltext.QuoteString(l)
	}
	steps = append(steps, "DROP TYPE "+typ, "CREATE TYPE "+typ+" AS ENUM ("+strings.Join(quoted, ", ")+")")
	steps = append(steps, retype(typ, asText)...)
	s.catalogChanged()
	return (&splitStatement{sess: s, actions: steps, tag: "ALTER TYPE"}).Execute(ctx, nil)
}

// enumColumn is a table column of an enum type, or of an array of it.
type enumColumn struct {
	table, name string // quoted
	array       bool
}

// enumColumns lists the columns of database db whose type is the enum of
// labels (as DuckDB writes it: ENUM('a', 'b'), or ENUM('a', 'b')[]).
func (a *alterEnumStatement) enumColumns(ctx context.Context, db string, labels []string) ([]enumColumn, error) {
	quoted := make([]string, len(labels))
	for i, l := range labels {
		quoted[i] = sqltext.QuoteString(l)
	}
	enumText := "ENUM(" + strings.Join(quoted, ", ") + ")"
	var cols []enumColumn
	err := a.sess.queryRows(ctx, "SELECT database_name, schema_name, table_name, column_name, data_type FROM duckdb_columns() WHERE data_type IN ("+
		sqltext.QuoteString(enumText)+", "+sqltext.QuoteString(enumText+"[]")+") AND database_name = "+sqltext.QuoteString(db)+
		" AND table_name IN (SELECT table_name FROM duckdb_tables() WHERE database_name = "+sqltext.QuoteString(db)+")", func(row []any) {
		d, _ := row[0].(string)
		sc, _ := row[1].(string)
		t, _ := row[2].(string)
		c, _ := row[3].(string)
		typ, _ := row[4].(string)
		cols = append(cols, enumColumn{table: sqltext.QuoteIdent(d) + "." + sqltext.QuoteIdent(sc) + "." + sqltext.QuoteIdent(t),
			name: sqltext.QuoteIdent(c), array: strings.HasSuffix(typ, "[]")})
	})
	return cols, err
}
