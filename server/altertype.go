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

// ALTER TYPE e ADD VALUE [IF NOT EXISTS] 'v' [BEFORE | AFTER 'w'], as
// migrations add a label to an enum (Rails, Django, Prisma). DuckDB's
// enums cannot change, so the type is made again with the new labels and
// every column of it (or an array of it) moved onto the new type, in one
// transaction: the columns' values keep their labels, and the new label
// takes its place in the order. PostgreSQL's errors are kept: an existing
// label (42710, a NOTICE with IF NOT EXISTS), a missing neighbour (22023),
// a missing type (42704).

var addEnumValue = regexp.MustCompile(`(?is)^\s*ALTER\s+TYPE\s+(.+?)\s+ADD\s+VALUE\s+(IF\s+NOT\s+EXISTS\s+)?'((?:[^']|'')*)'\s*(?:(BEFORE|AFTER)\s+'((?:[^']|'')*)')?\s*;?\s*$`)

// alterEnumStatement is ALTER TYPE … ADD VALUE.
type alterEnumStatement struct {
	noRowsStatement
	sess                    *Session
	name                    []string // the type's name parts, unquoted
	label, neighbour, where string   // where: "", BEFORE or AFTER
	ifNotExists             bool
}

func (s *Session) prepareAlterEnum(st sqltext.Statement) (pgwire.Statement, bool) {
	m := addEnumValue.FindStringSubmatch(st.SQL)
	if m == nil {
		return nil, false
	}
	var parts []string
	for _, p := range pgcompat.SplitQualified(strings.TrimSpace(m[1])) {
		parts = append(parts, sqltext.UnquoteIdent(strings.TrimSpace(p)))
	}
	if len(parts) >= 2 && strings.EqualFold(parts[len(parts)-2], "public") {
		parts[len(parts)-2] = "main"
	}
	return &alterEnumStatement{sess: s, name: parts, label: strings.ReplaceAll(m[3], "''", "'"),
		ifNotExists: m[2] != "", where: strings.ToUpper(m[4]), neighbour: strings.ReplaceAll(m[5], "''", "'")}, true
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
			WithHint("ALTER TYPE … ADD VALUE changes an enum type (CREATE TYPE … AS ENUM).")
	}
	if len(a.label) == 0 || len(a.label) > 63 {
		return nil, vsqlerr.New(vsqlerr.InvalidEnumLabel, "invalid enum label %q", a.label)
	}
	if slices.Contains(labels, a.label) {
		if a.ifNotExists {
			s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000",
				Message: "enum label \"" + a.label + "\" already exists, skipping"})
			return &tagRows{tag: "ALTER TYPE"}, nil
		}
		return nil, vsqlerr.New(vsqlerr.EnumLabelExists, "enum label %q already exists", a.label)
	}
	at := len(labels)
	if a.where != "" {
		k := slices.Index(labels, a.neighbour)
		if k < 0 {
			return nil, vsqlerr.New(vsqlerr.InvalidArgument, "%q is not an existing enum label", a.neighbour).
				WithHint("Name a label of the type after BEFORE or AFTER: SELECT enum_range(NULL::%s) lists them.", display)
		}
		at = k
		if a.where == "AFTER" {
			at++
		}
	}
	next := slices.Insert(slices.Clone(labels), at, a.label)
	// the columns of the type, as DuckDB writes it
	quoted := make([]string, len(labels))
	for i, l := range labels {
		quoted[i] = sqltext.QuoteString(l)
	}
	enumText := "ENUM(" + strings.Join(quoted, ", ") + ")"
	type column struct {
		table, name string
		array       bool
	}
	var cols []column
	if err := s.queryRows(ctx, "SELECT database_name, schema_name, table_name, column_name, data_type FROM duckdb_columns() WHERE data_type IN ("+
		sqltext.QuoteString(enumText)+", "+sqltext.QuoteString(enumText+"[]")+") AND database_name = "+sqltext.QuoteString(db)+
		" AND table_name IN (SELECT table_name FROM duckdb_tables() WHERE database_name = "+sqltext.QuoteString(db)+")", func(row []any) {
		d, _ := row[0].(string)
		sc, _ := row[1].(string)
		t, _ := row[2].(string)
		c, _ := row[3].(string)
		typ, _ := row[4].(string)
		cols = append(cols, column{table: sqltext.QuoteIdent(d) + "." + sqltext.QuoteIdent(sc) + "." + sqltext.QuoteIdent(t), name: sqltext.QuoteIdent(c), array: strings.HasSuffix(typ, "[]")})
	}); err != nil {
		return nil, err
	}
	typ := sqltext.QuoteIdent(db) + "." + sqltext.QuoteIdent(schema) + "." + sqltext.QuoteIdent(typeName)
	newLabels := make([]string, len(next))
	for i, l := range next {
		newLabels[i] = sqltext.QuoteString(l)
	}
	retype := func(to string) []string {
		var out []string
		for _, c := range cols {
			text, target := "VARCHAR", to
			if c.array {
				text, target = "VARCHAR[]", to+"[]"
			}
			out = append(out, "ALTER TABLE "+c.table+" ALTER COLUMN "+c.name+" TYPE "+target+" USING CAST(CAST("+c.name+" AS "+text+") AS "+target+")")
		}
		return out
	}
	// the columns to text, the type made again, the columns back
	steps := retype("VARCHAR")
	steps = append(steps, "DROP TYPE "+typ, "CREATE TYPE "+typ+" AS ENUM ("+strings.Join(newLabels, ", ")+")")
	steps = append(steps, retype(typ)...)
	s.catalogChanged()
	return (&splitStatement{sess: s, actions: steps, tag: "ALTER TYPE"}).Execute(ctx, nil)
}
