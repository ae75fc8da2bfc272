package server

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's domains on DuckDB, which has none.
//
// A domain (CREATE DOMAIN d AS base …) is three things in the database
// file, so a branch, a snapshot or a merge carries it as it carries the
// tables:
//
//   - a DuckDB type alias of its base type (CREATE TYPE d AS base), so
//     that columns, casts and composite types can name it;
//   - its definition (base, NOT NULL, DEFAULT, CHECK constraints with
//     their names, as PostgreSQL text with VALUE) as JSON in the alias's
//     comment (COMMENT ON TYPE);
//   - a check macro, __vsql_domain_<d>(value), that returns its argument
//     or raises the domain's error through DuckDB's error() (vsqlerr reads
//     the [vsql:code] prefix back): pgcompat wraps every cast to the
//     domain in a call of it (x::d → __vsql_domain_d(x::d)).
//
// DuckDB resolves the alias when a table is created: the column has the
// base type and DuckDB forgets the domain. So CREATE TABLE expands each
// column of a domain type (domainColumns): the domain's DEFAULT when the
// column has none, and one CHECK constraint that raises the domain's
// errors (PostgreSQL's messages and SQLSTATEs) and carries the marker
// 'vsql_domain:<schema>.<name>', by which DROP DOMAIN and ALTER DOMAIN
// find the columns that use a domain (duckdb_constraints()). The CHECK
// holds the constraints themselves, not a call of the macro: a CHECK or
// DEFAULT that calls a macro makes DuckDB refuse to drop or replace the
// macro. Because DuckDB cannot add, drop or change a table's CHECK
// constraint, ALTER DOMAIN of a domain that columns use is refused.
//
// A session reads the domains once per catalog change (catalogGeneration).

// domainMark starts the comment of a domain's type alias.
const domainMark = `{"vsql_domain"`

// domainCheck is one CHECK constraint of a domain.
type domainCheck struct {
	Name string `json:"name"`
	Expr string `json:"expr"` // PostgreSQL's text, the value as VALUE
}

// domainDef is a domain as its comment stores it.
type domainDef struct {
	Version    int           `json:"vsql_domain"`
	Base       string        `json:"base"`                  // the base type as written (PostgreSQL)
	BaseDomain string        `json:"base_domain,omitempty"` // the base's key, when the base is a domain
	NotNull    bool          `json:"not_null,omitempty"`
	Default    string        `json:"default,omitempty"` // PostgreSQL's text
	Checks     []domainCheck `json:"checks,omitempty"`
	Comment    string        `json:"comment,omitempty"` // COMMENT ON DOMAIN (not yet settable)

	schema, name string
	oid          int64 // DuckDB's, in order of creation
}

func toInt64(v any) int64 {
	switch n := v.(type) {
	case int64:
		return n
	case int32:
		return int64(n)
	case uint64:
		return int64(n)
	}
	return 0
}

func domainKey(schema, name string) string { return strings.ToLower(schema + "." + name) }

func (d *domainDef) key() string { return domainKey(d.schema, d.name) }

// qualified is the alias's name as SQL: schema.name, quoted.
func (d *domainDef) qualified() string {
	return sqltext.QuoteIdent(d.schema) + "." + sqltext.QuoteIdent(d.name)
}

// macro is the check macro's name as SQL.
func (d *domainDef) macro() string {
	return sqltext.QuoteIdent(d.schema) + "." + sqltext.QuoteIdent("__vsql_domain_"+strings.ToLower(d.name))
}

// display is d's name as PostgreSQL's messages write a type: quoted when
// it is not a plain lower-case name.
func (d *domainDef) display() string {
	for i, r := range d.name {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && r >= '0' && r <= '9') {
			return sqltext.QuoteIdent(d.name)
		}
	}
	return d.name
}

// marker is the text a column's CHECK constraint carries to say which
// domain the column has.
func (d *domainDef) marker() string { return "vsql_domain:" + d.key() }

func (d *domainDef) comment() string {
	b, _ := json.Marshal(d)
	return string(b)
}

// domainSet are the domains of the session's database.
type domainSet struct {
	generation int64
	byKey      map[string]*domainDef
	casts      map[string]string // pgcompat.Session.Domains's answer
}

// domains reads the session's domains (cached per catalog generation).
func (s *Session) domains(ctx context.Context) (*domainSet, error) {
	gen := catalogGeneration.Load()
	if s.domainCache != nil && s.domainCache.generation == gen {
		return s.domainCache, nil
	}
	set := &domainSet{generation: gen, byKey: map[string]*domainDef{}}
	var bad error
	err := s.queryRows(ctx, `SELECT schema_name, type_name, comment, type_oid FROM duckdb_types()
		WHERE database_name = current_database() AND starts_with(comment, `+sqltext.QuoteString(domainMark)+`)`,
		func(row []any) {
			d := &domainDef{}
			text, _ := row[2].(string)
			if err := json.Unmarshal([]byte(text), d); err != nil {
				bad = err
				return
			}
			d.schema, _ = row[0].(string)
			d.name, _ = row[1].(string)
			d.oid = toInt64(row[3])
			set.byKey[d.key()] = d
		})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, err
	}
	s.domainCache = set
	return set, nil
}

// domainsFunc is pgcompat.Session's Domains for a statement prepared
// under ctx: each domain under the names a cast may give it.
func (s *Session) domainsFunc(ctx context.Context) func() map[string]string {
	return func() map[string]string {
		set, err := s.domains(ctx)
		if err != nil || len(set.byKey) == 0 {
			return nil
		}
		if set.casts == nil {
			set.casts = map[string]string{}
			for _, d := range set.byKey {
				name := strings.ToLower(d.name)
				set.casts[strings.ToLower(d.schema)+"."+name] = d.macro()
				if d.schema == "main" {
					set.casts[name] = d.macro()
					set.casts["public."+name] = d.macro()
				}
			}
		}
		return set.casts
	}
}

// lookup is the domain that name parts (unquoted) name, nil when none.
func (set *domainSet) lookup(parts []string) *domainDef {
	if set == nil || len(set.byKey) == 0 || len(parts) == 0 || len(parts) > 3 {
		return nil
	}
	schema := "main"
	if len(parts) >= 2 {
		schema = parts[len(parts)-2]
		if strings.EqualFold(schema, "public") {
			schema = "main"
		}
	}
	return set.byKey[domainKey(schema, parts[len(parts)-1])]
}

// chain is d with the domains it is based on, the innermost first: the
// order PostgreSQL checks their constraints in.
func (set *domainSet) chain(d *domainDef) []*domainDef {
	var out []*domainDef
	for n := d; n != nil && len(out) < 64; n = set.byKey[n.BaseDomain] {
		out = append(out, n)
		if n.BaseDomain == "" {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// defaultOf is the default a column of domain d gets: its own or the
// nearest base domain's ("" for none).
func (set *domainSet) defaultOf(d *domainDef) string {
	c := set.chain(d)
	for i := len(c) - 1; i >= 0; i-- {
		if c[i].Default != "" {
			return c[i].Default
		}
	}
	return ""
}

// dependents are the domains based on d, directly or not.
func (set *domainSet) dependents(d *domainDef) []*domainDef {
	var out []*domainDef
	for _, o := range set.byKey {
		for n := o; n.BaseDomain != "" && len(out) < 1024; {
			b := set.byKey[n.BaseDomain]
			if b == nil {
				break
			}
			if b == d {
				out = append(out, o)
				break
			}
			n = b
		}
	}
	slices.SortFunc(out, func(a, b *domainDef) int { return int(a.oid - b.oid) })
	return out
}

// domainErrors is the CASE that checks value (SQL) against the
// constraints of d and the domains it is based on: WHEN branches that
// raise the domain's errors, for a CASE whose ELSE the caller writes.
// expr turns a check's PostgreSQL text into SQL over value.
func (set *domainSet) domainErrors(d *domainDef, value string, expr func(string) (string, error)) (string, error) {
	var b strings.Builder
	c := set.chain(d)
	for _, n := range c {
		if n.NotNull {
			e := vsqlerr.New(vsqlerr.DomainNotNull, "domain %s does not allow null values", d.display())
			b.WriteString(" WHEN " + value + " IS NULL THEN error(" + sqltext.QuoteString(e.Error()) + ")")
			break
		}
	}
	for _, n := range c {
		checks := slices.Clone(n.Checks)
		slices.SortFunc(checks, func(a, b domainCheck) int { return strings.Compare(a.Name, b.Name) })
		for _, k := range checks {
			x, err := expr(k.Expr)
			if err != nil {
				return "", err
			}
			e := vsqlerr.New(vsqlerr.DomainCheck, "value for domain %s violates check constraint %q", d.display(), k.Name)
			b.WriteString(" WHEN NOT coalesce((" + x + "), TRUE) THEN error(" + sqltext.QuoteString(e.Error()) + ")")
		}
	}
	return b.String(), nil
}

// substituteValue writes value for each VALUE of a check's text.
func substituteValue(expr, value string) string {
	return substituteColumns(expr, []string{"value"}, func(string) string { return value })
}

// writeMacro creates (or replaces) d's check macro.
func (s *Session) writeMacro(ctx context.Context, set *domainSet, d *domainDef) error {
	sess := pgcompat.Session{Order: s.dateOrder, Location: s.location, Domains: s.domainsFunc(ctx)}
	cases, err := set.domainErrors(d, "value", func(pg string) (string, error) {
		tr := pgcompat.TranslateIn(sqltext.Parse("SELECT "+pg), false, sess)
		return strings.TrimPrefix(tr.Statement.SQL, "SELECT "), nil
	})
	if err != nil {
		return err
	}
	body := "value"
	if cases != "" {
		body = "CASE" + cases + " ELSE value END"
	}
	return s.exec(ctx, "CREATE OR REPLACE MACRO "+d.macro()+"(value) AS "+body)
}

// domainColumns expands the columns of a domain type of a CREATE TABLE
// (PostgreSQL's text, before pgcompat): the domain's DEFAULT when the
// column has none, and a CHECK of its constraints with its marker. ok is
// false when the statement has no such column.
func (s *Session) domainColumns(ctx context.Context, st sqltext.Statement) (sqltext.Statement, bool, error) {
	t := newTokenText(st)
	if !t.word(0, "create") {
		return st, false, nil
	}
	_, _, at, ok := t.createTableHead()
	if !ok || t.kind(at) != sqltext.Open {
		return st, false, nil
	}
	close := t.match(at)
	if close < 0 {
		return st, false, nil
	}
	set, err := s.domains(ctx)
	if err != nil || len(set.byKey) == 0 {
		return st, false, err
	}
	var edits []sqltext.Edit
	for _, it := range t.items(at, close) {
		a, b := it[0], it[1]
		if t.word(a, "constraint") || t.word(a, "primary") || t.word(a, "unique") || t.word(a, "check") ||
			t.word(a, "foreign") || t.word(a, "exclude") || t.word(a, "like") {
			continue
		}
		col, i := t.name(a)
		if len(col) != 1 {
			continue
		}
		typ, j := t.name(i)
		if typ == nil || j > b {
			continue
		}
		d := set.lookup(typ)
		if d == nil || t.kind(j) == sqltext.Open || (t.kind(j) == sqltext.Op && t.text(j) == "[") {
			continue // not a domain, or an array of one (not checked)
		}
		column := sqltext.QuoteIdent(col[0])
		var extra strings.Builder
		hasDefault := t.scan(j, func(k, depth int) bool { return k >= b || depth == 0 && t.word(k, "default") }) < b
		if def := set.defaultOf(d); def != "" && !hasDefault {
			extra.WriteString(" DEFAULT (" + def + ")")
		}
		cases, err := set.domainErrors(d, column, func(pg string) (string, error) { return substituteValue(pg, column), nil })
		if err != nil {
			return st, false, err
		}
		extra.WriteString(" CHECK (CASE" + cases + " ELSE " + sqltext.QuoteString(d.marker()) + " IS NOT NULL END)")
		end := t.toks[b-1].End
		edits = append(edits, sqltext.Edit{Start: end, End: end, Text: extra.String()})
	}
	if len(edits) == 0 {
		return st, false, nil
	}
	return st.Edit(edits), true, nil
}

// domainUse is a column that has a domain.
type domainUse struct {
	db, schema, table, column string
	domain                    *domainDef
	oid                       int64 // the table's
}

func (u domainUse) String() string {
	return "column " + u.column + " of table " + u.table
}

// domainColumnsOf are the columns of d's type, found by their CHECK's
// marker, in the session's database and its temporary tables.
func (s *Session) domainColumnsOf(ctx context.Context, d *domainDef) ([]domainUse, error) {
	var out []domainUse
	err := s.queryRows(ctx, `SELECT database_name, schema_name, table_name, constraint_column_names[1], table_oid FROM duckdb_constraints()
		WHERE constraint_type = 'CHECK' AND database_name IN (current_database(), 'temp')
		AND contains(expression, `+sqltext.QuoteString(sqltext.QuoteString(d.marker()))+`)
		ORDER BY table_oid, constraint_column_indexes[1]`, func(row []any) {
		u := domainUse{domain: d}
		u.db, _ = row[0].(string)
		u.schema, _ = row[1].(string)
		u.table, _ = row[2].(string)
		u.column, _ = row[3].(string)
		u.oid = toInt64(row[4])
		out = append(out, u)
	})
	return out, err
}

// qualifiedTable is the use's table as SQL.
func (u domainUse) qualifiedTable() string {
	if u.db == "temp" {
		return sqltext.QuoteIdent(u.table)
	}
	return sqltext.QuoteIdent(u.db) + "." + sqltext.QuoteIdent(u.schema) + "." + sqltext.QuoteIdent(u.table)
}
