package server

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// The DDL of domains (see domain.go): CREATE DOMAIN, DROP DOMAIN (and
// DROP TYPE of a domain), ALTER DOMAIN, and the ALTER TABLE forms that
// would give an existing table a column of a domain type, which vsql
// refuses (DuckDB adds no column with a constraint).

// prepareDomainDDL recognizes the DDL of domains; ok is false for any
// other statement.
func (s *Session) prepareDomainDDL(ctx context.Context, st sqltext.Statement) (pgwire.Statement, bool, error) {
	t := newTokenText(st)
	switch {
	case t.word(0, "create") && t.word(1, "domain"):
		return s.prepareCreateDomain(ctx, t)
	case t.word(0, "drop") && t.word(1, "domain"):
		return s.prepareDropDomain(ctx, t, false)
	case t.word(0, "drop") && t.word(1, "type"):
		return s.prepareDropDomain(ctx, t, true)
	case t.word(0, "alter") && t.word(1, "domain"):
		return s.prepareAlterDomain(ctx, t)
	case t.word(0, "alter") && t.word(1, "table"):
		return nil, false, s.alterTableDomainColumn(ctx, t)
	}
	return nil, false, nil
}

// domainDDL runs a domain statement in one transaction (as partitionDDL).
func (s *Session) domainDDL(tag string, run func(ctx context.Context) error) pgwire.Statement {
	return &partitionDDL{sess: s, tag: tag, run: run}
}

func endOfStatement(t tokenText, i int) bool {
	return i >= len(t.toks) || t.kind(i) == sqltext.Semi
}

func syntaxErrorAt(t tokenText, i int) error {
	if i >= len(t.toks) || t.kind(i) == sqltext.Semi {
		return vsqlerr.New(vsqlerr.SyntaxError, "syntax error at end of input")
	}
	return vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q", t.text(i))
}

// domainClauseWord reports whether token i starts a clause of CREATE
// DOMAIN after the base type.
func domainClauseWord(t tokenText, i int) bool {
	return t.word(i, "collate") || t.word(i, "default") || t.word(i, "constraint") || t.word(i, "check") ||
		t.word(i, "not") && t.word(i+1, "null") || t.word(i, "null")
}

// readCheck reads CHECK (expr) at i: the expression and the index after
// it.
func readCheck(t tokenText, i int) (string, int, error) {
	if !t.word(i, "check") || t.kind(i+1) != sqltext.Open {
		return "", i, syntaxErrorAt(t, i)
	}
	close := t.match(i + 1)
	if close < 0 {
		return "", i, syntaxErrorAt(t, len(t.toks))
	}
	expr := t.between(i+2, close)
	if expr == "" {
		return "", i, syntaxErrorAt(t, close)
	}
	for k := i + 2; k < close; k++ {
		if t.word(k, "select") {
			return "", i, vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot use subquery in check constraint")
		}
	}
	i = close + 1
	if t.word(i, "not") && t.word(i+1, "valid") {
		return "", i, vsqlerr.New(vsqlerr.FeatureNotSupported, "CHECK constraints for domains cannot be marked NOT VALID")
	}
	return expr, i, nil
}

// checkName is the name PostgreSQL gives an unnamed CHECK of domain d:
// d_check, d_check1, … (the first not taken).
func checkName(d *domainDef) string {
	taken := map[string]bool{}
	for _, c := range d.Checks {
		taken[strings.ToLower(c.Name)] = true
	}
	base := d.name + "_check"
	name := base
	for n := 1; taken[name]; n++ {
		name = base + strconv.Itoa(n)
	}
	return name
}

// domainParts is a domain's name parts: the schema (main for public)
// and the name.
func domainParts(parts []string) (schema, name string, err error) {
	switch len(parts) {
	case 1:
		return "main", parts[0], nil
	case 2:
		schema = parts[0]
		if strings.EqualFold(schema, "public") {
			schema = "main"
		}
		return schema, parts[1], nil
	}
	return "", "", vsqlerr.New(vsqlerr.FeatureNotSupported, "a domain named across databases is not supported").
		WithHint("Name the domain as name or schema.name in the database you are connected to.")
}

func (s *Session) prepareCreateDomain(ctx context.Context, t tokenText) (pgwire.Statement, bool, error) {
	parts, i := t.name(2)
	if parts == nil {
		return nil, true, syntaxErrorAt(t, 2)
	}
	schema, name, err := domainParts(parts)
	if err != nil {
		return nil, true, err
	}
	if t.word(i, "as") {
		i++
	}
	typeStart := i
	for !endOfStatement(t, i) && !domainClauseWord(t, i) {
		if t.kind(i) == sqltext.Open {
			if i = t.match(i); i < 0 {
				return nil, true, syntaxErrorAt(t, len(t.toks))
			}
		}
		i++
	}
	if i == typeStart {
		return nil, true, syntaxErrorAt(t, i)
	}
	d := &domainDef{Version: 1, Base: t.between(typeStart, i), schema: schema, name: name}
	nullSeen := false
	for !endOfStatement(t, i) {
		constraint := ""
		switch {
		case t.word(i, "collate"):
			// DuckDB's type aliases carry no collation: the base type's
			if _, i = t.name(i + 1); i == 0 {
				return nil, true, syntaxErrorAt(t, i)
			}
			continue
		case t.word(i, "default"):
			if d.Default != "" {
				return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "multiple default expressions")
			}
			start := i + 1
			i = t.scan(start+1, func(k, depth int) bool {
				return depth == 0 && (t.kind(k) == sqltext.Semi || t.word(k, "constraint") || t.word(k, "check") ||
					t.word(k, "not") && t.word(k+1, "null") || t.word(k, "null") || t.word(k, "collate"))
			})
			if start >= len(t.toks) {
				return nil, true, syntaxErrorAt(t, start)
			}
			d.Default = t.between(start, i)
			continue
		case t.word(i, "constraint"):
			c, j := t.name(i + 1)
			if len(c) != 1 {
				return nil, true, syntaxErrorAt(t, i+1)
			}
			constraint, i = c[0], j
		}
		switch {
		case t.word(i, "not") && t.word(i+1, "null"):
			if nullSeen && !d.NotNull {
				return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "conflicting NULL/NOT NULL constraints")
			}
			d.NotNull, nullSeen = true, true
			i += 2
		case t.word(i, "null"):
			if d.NotNull {
				return nil, true, vsqlerr.New(vsqlerr.SyntaxError, "conflicting NULL/NOT NULL constraints")
			}
			nullSeen = true
			i++
		case t.word(i, "check"):
			var expr string
			if expr, i, err = readCheck(t, i); err != nil {
				return nil, true, err
			}
			if constraint == "" {
				constraint = checkName(d)
			}
			d.Checks = append(d.Checks, domainCheck{Name: constraint, Expr: expr})
		default:
			return nil, true, syntaxErrorAt(t, i)
		}
	}
	return s.domainDDL("CREATE DOMAIN", func(ctx context.Context) error {
		set, err := s.domains(ctx)
		if err != nil {
			return err
		}
		if s.typeExists(ctx, schema, name) {
			return vsqlerr.New(vsqlerr.DuplicateObject, "type %q already exists", name)
		}
		baseParts, _ := newTokenText(sqltext.Parse(d.Base)).name(0)
		if b := set.lookup(baseParts); b != nil && len(strings.Fields(d.Base)) == 1 && !strings.Contains(d.Base, "[") {
			d.BaseDomain = b.key()
		}
		if err := s.runText(ctx, "CREATE TYPE "+d.qualified()+" AS "+d.Base); err != nil {
			return err
		}
		return s.saveDomain(ctx, d)
	}), true, nil
}

// saveDomain writes d's comment and macro and checks its constraints'
// expressions (as PostgreSQL does when they are created).
func (s *Session) saveDomain(ctx context.Context, d *domainDef) error {
	if err := s.exec(ctx, "COMMENT ON TYPE "+d.qualified()+" IS "+sqltext.QuoteString(d.comment())); err != nil {
		return err
	}
	s.catalogChanged()
	set, err := s.domains(ctx)
	if err != nil {
		return err
	}
	if d = set.byKey[d.key()]; d == nil {
		return vsqlerr.New(vsqlerr.Internal, "domain not saved")
	}
	if err := s.writeMacro(ctx, set, d); err != nil {
		return err
	}
	// (cast to the base type: a cast to the domain would check it)
	base := set.chain(d)[0].Base
	for _, c := range d.Checks {
		if _, err := s.queryThrough(ctx, "SELECT ("+substituteValue(c.Expr, "value")+")::boolean FROM (SELECT CAST(NULL AS "+base+") AS value) AS v", 0); err != nil {
			return err
		}
	}
	if d.Default != "" {
		if _, err := s.queryThrough(ctx, "SELECT CAST(("+d.Default+") AS "+base+")", 0); err != nil {
			return err
		}
	}
	return nil
}

// typeExists reports whether the session's database has a type named
// name in schema (a domain, an enum, a composite type).
func (s *Session) typeExists(ctx context.Context, schema, name string) bool {
	return s.queryString(ctx, "SELECT type_name FROM duckdb_types() WHERE database_name = current_database() AND schema_name = "+
		sqltext.QuoteString(schema)+" AND lower(type_name) = lower("+sqltext.QuoteString(name)+")") != ""
}

// prepareDropDomain reads DROP DOMAIN [IF EXISTS] name, … [CASCADE |
// RESTRICT]; asType is DROP TYPE, taken only when every name is a
// domain.
func (s *Session) prepareDropDomain(ctx context.Context, t tokenText, asType bool) (pgwire.Statement, bool, error) {
	i, ifExists := 2, false
	if t.word(i, "if") && t.word(i+1, "exists") {
		i, ifExists = i+2, true
	}
	var names [][]string
	for {
		parts, j := t.name(i)
		if parts == nil {
			if asType {
				return nil, false, nil
			}
			return nil, true, syntaxErrorAt(t, i)
		}
		names = append(names, parts)
		i = j
		if t.kind(i) != sqltext.Op || t.text(i) != "," {
			break
		}
		i++
	}
	cascade := false
	switch {
	case t.word(i, "cascade"):
		cascade = true
		i++
	case t.word(i, "restrict"):
		i++
	}
	if !endOfStatement(t, i) {
		if asType {
			return nil, false, nil
		}
		return nil, true, syntaxErrorAt(t, i)
	}
	if asType {
		set, err := s.domains(ctx)
		if err != nil || len(set.byKey) == 0 {
			return nil, false, err
		}
		for _, n := range names {
			if set.lookup(n) == nil {
				return nil, false, nil // DuckDB's DROP TYPE (splitStatement splits lists)
			}
		}
	}
	tag := "DROP DOMAIN"
	if asType {
		tag = "DROP TYPE"
	}
	return s.domainDDL(tag, func(ctx context.Context) error {
		for _, n := range names {
			set, err := s.domains(ctx)
			if err != nil {
				return err
			}
			d := set.lookup(n)
			display := strings.Join(n, ".")
			if d == nil {
				if len(n) <= 2 {
					schema, name, _ := domainParts(n)
					if s.typeExists(ctx, schema, name) {
						return vsqlerr.New(vsqlerr.WrongObjectType, "%q is not a domain", display)
					}
				}
				if ifExists {
					s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000",
						Message: "type \"" + display + "\" does not exist, skipping"})
					continue
				}
				return vsqlerr.New(vsqlerr.UndefinedObject, "type %q does not exist", display).
					WithHint("SELECT typname FROM pg_type WHERE typtype = 'd' lists the domains.")
			}
			if err := s.dropDomain(ctx, set, d, cascade); err != nil {
				return err
			}
		}
		return nil
	}), true, nil
}

// dependencies are what depends on d, in PostgreSQL's order (each
// domain based on d, then what depends on it, then d's columns): the
// lines of PostgreSQL's DETAIL, the domains (outermost last) and the
// columns.
func (s *Session) dependencies(ctx context.Context, set *domainSet, d *domainDef) (lines []string, domains []*domainDef, uses []domainUse, err error) {
	// (in order of creation, as PostgreSQL's pg_depend lists them)
	var walk func(d *domainDef, depth int) error
	walk = func(d *domainDef, depth int) error {
		if depth > 64 {
			return nil
		}
		own, err := s.domainColumnsOf(ctx, d)
		if err != nil {
			return err
		}
		var based []*domainDef
		for _, o := range set.dependents(d) {
			if o.BaseDomain == d.key() {
				based = append(based, o)
			}
		}
		for len(own) > 0 || len(based) > 0 {
			if len(based) > 0 && (len(own) == 0 || based[0].oid < own[0].oid) {
				o := based[0]
				based = based[1:]
				lines = append(lines, "type "+o.display()+" depends on type "+d.display())
				domains = append(domains, o)
				if err := walk(o, depth+1); err != nil {
					return err
				}
				continue
			}
			lines = append(lines, own[0].String()+" depends on type "+d.display())
			uses = append(uses, own[0])
			own = own[1:]
		}
		return nil
	}
	err = walk(d, 0)
	return lines, domains, uses, err
}

// dropDomain drops d; with cascade also the domains based on it and the
// columns of them all (PostgreSQL's NOTICE), else those make it fail.
func (s *Session) dropDomain(ctx context.Context, set *domainSet, d *domainDef, cascade bool) error {
	lines, deps, uses, err := s.dependencies(ctx, set, d)
	if err != nil {
		return err
	}
	if len(lines) > 0 && !cascade {
		e := vsqlerr.New(vsqlerr.DependentObjects, "cannot drop type %s because other objects depend on it", d.display()).
			WithHint("Use DROP ... CASCADE to drop the dependent objects too.")
		e.Detail = strings.Join(lines, "\n")
		return e
	}
	dropped := map[string]int{}
	for _, u := range uses {
		dropped[u.qualifiedTable()]++
	}
	for _, u := range uses {
		left := s.queryString(ctx, "SELECT count(*)::VARCHAR FROM duckdb_columns() WHERE database_name = "+sqltext.QuoteString(u.db)+
			" AND schema_name = "+sqltext.QuoteString(u.schema)+" AND table_name = "+sqltext.QuoteString(u.table))
		if n, _ := strconv.Atoi(left); n <= dropped[u.qualifiedTable()] {
			return vsqlerr.New(vsqlerr.FeatureNotSupported, "DROP … CASCADE would drop every column of table %s", u.table).
				WithHint("DuckDB has no table without columns: drop the table first, or add a column to it.")
		}
	}
	if len(lines) > 0 {
		n := &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000"}
		if len(lines) == 1 {
			n.Message = "drop cascades to " + strings.Split(lines[0], " depends on ")[0]
		} else {
			n.Message = "drop cascades to " + strconv.Itoa(len(lines)) + " other objects"
			var detail []string
			for _, l := range lines {
				detail = append(detail, "drop cascades to "+strings.Split(l, " depends on ")[0])
			}
			n.Detail = strings.Join(detail, "\n")
		}
		s.notices = append(s.notices, n)
	}
	for _, u := range uses {
		if err := s.runText(ctx, "ALTER TABLE "+u.qualifiedTable()+" DROP COLUMN "+sqltext.QuoteIdent(u.column)); err != nil {
			return err
		}
	}
	// the outermost domain first: DuckDB's alias of an alias depends on it
	for k := len(deps) - 1; k >= -1; k-- {
		o := d
		if k >= 0 {
			o = deps[k]
		}
		if err := s.exec(ctx, "DROP MACRO IF EXISTS "+o.macro()); err != nil {
			return err
		}
		if err := s.exec(ctx, "DROP TYPE "+o.qualified()); err != nil {
			return dependencyError(err, o)
		}
	}
	s.catalogChanged()
	return nil
}

// typeDependent is a line of DuckDB's Dependency Error: a composite type
// with a field of the domain (DuckDB records that dependency, not a
// table column's).
var typeDependent = regexp.MustCompile(`type "([^"]+)" depends on type "([^"]+)"`)

// dependencyError is DuckDB's refusal to drop d's alias in PostgreSQL's
// words (PostgreSQL drops a composite type's field with CASCADE; DuckDB
// cannot change a composite type, so CASCADE fails too).
func dependencyError(err error, d *domainDef) error {
	if !strings.Contains(err.Error(), "Dependency Error") {
		return err
	}
	var lines []string
	for _, m := range typeDependent.FindAllStringSubmatch(err.Error(), -1) {
		lines = append(lines, "composite type "+m[1]+" depends on type "+m[2])
	}
	e := vsqlerr.New(vsqlerr.DependentObjects, "cannot drop type %s because other objects depend on it", d.display()).
		WithHint("Drop the composite types that have a field of the domain first (vsql cannot drop a field of a composite type, so CASCADE does not).")
	e.Detail = strings.Join(lines, "\n")
	return e
}

// prepareAlterDomain runs what ALTER DOMAIN vsql supports on a domain no
// column uses: ADD [CONSTRAINT c] CHECK (…), DROP CONSTRAINT [IF EXISTS]
// c, SET / DROP NOT NULL, SET / DROP DEFAULT, RENAME TO, RENAME
// CONSTRAINT a TO b. The other forms are refused.
func (s *Session) prepareAlterDomain(ctx context.Context, t tokenText) (pgwire.Statement, bool, error) {
	parts, i := t.name(2)
	if parts == nil {
		return nil, true, syntaxErrorAt(t, 2)
	}
	display := strings.Join(parts, ".")
	var change func(ctx context.Context, set *domainSet, d *domainDef) error
	switch {
	case t.word(i, "add"):
		j, constraint := i+1, ""
		if t.word(j, "constraint") {
			c, k := t.name(j + 1)
			if len(c) != 1 {
				return nil, true, syntaxErrorAt(t, j+1)
			}
			constraint, j = c[0], k
		}
		if t.word(j, "not") && t.word(j+1, "null") {
			return s.prepareAlterDomain(ctx, newTokenText(sqltext.Parse("ALTER DOMAIN "+t.between(2, i)+" SET NOT NULL")))
		}
		expr, j, err := readCheck(t, j)
		if err != nil {
			return nil, true, err
		}
		if !endOfStatement(t, j) {
			return nil, true, syntaxErrorAt(t, j)
		}
		change = func(ctx context.Context, set *domainSet, d *domainDef) error {
			name := constraint
			if name == "" {
				name = checkName(d)
			}
			for _, c := range d.Checks {
				if strings.EqualFold(c.Name, name) {
					return vsqlerr.New(vsqlerr.DuplicateObject, "constraint %q for domain %q already exists", name, d.name)
				}
			}
			d.Checks = append(d.Checks, domainCheck{Name: name, Expr: expr})
			return nil
		}
	case t.word(i, "drop") && t.word(i+1, "constraint"):
		j, ifExists := i+2, false
		if t.word(j, "if") && t.word(j+1, "exists") {
			j, ifExists = j+2, true
		}
		c, j := t.name(j)
		if len(c) != 1 {
			return nil, true, syntaxErrorAt(t, j)
		}
		if t.word(j, "cascade") || t.word(j, "restrict") {
			j++
		}
		if !endOfStatement(t, j) {
			return nil, true, syntaxErrorAt(t, j)
		}
		change = func(ctx context.Context, set *domainSet, d *domainDef) error {
			for k, x := range d.Checks {
				if x.Name == c[0] {
					d.Checks = append(d.Checks[:k], d.Checks[k+1:]...)
					return nil
				}
			}
			msg := "constraint \"" + c[0] + "\" of domain \"" + d.name + "\" does not exist"
			if ifExists {
				s.notices = append(s.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000", Message: msg + ", skipping"})
				return errNoChange
			}
			return vsqlerr.New(vsqlerr.UndefinedObject, "%s", msg)
		}
	case (t.word(i, "set") || t.word(i, "drop")) && t.word(i+1, "not") && t.word(i+2, "null") && endOfStatement(t, i+3):
		set := t.word(i, "set")
		change = func(ctx context.Context, _ *domainSet, d *domainDef) error {
			if d.NotNull == set {
				return errNoChange
			}
			d.NotNull = set
			return nil
		}
	case t.word(i, "drop") && t.word(i+1, "default") && endOfStatement(t, i+2):
		change = func(ctx context.Context, _ *domainSet, d *domainDef) error {
			d.Default = ""
			return nil
		}
	case t.word(i, "set") && t.word(i+1, "default") && !endOfStatement(t, i+2):
		end := t.scan(i+2, func(k, depth int) bool { return t.kind(k) == sqltext.Semi })
		def := t.between(i+2, end)
		change = func(ctx context.Context, _ *domainSet, d *domainDef) error {
			d.Default = def
			return nil
		}
	case t.word(i, "rename") && t.word(i+1, "constraint"):
		from, j := t.name(i + 2)
		if len(from) != 1 || !t.word(j, "to") {
			return nil, true, syntaxErrorAt(t, j)
		}
		to, j := t.name(j + 1)
		if len(to) != 1 || !endOfStatement(t, j) {
			return nil, true, syntaxErrorAt(t, j)
		}
		change = func(ctx context.Context, _ *domainSet, d *domainDef) error {
			found := -1
			for k, x := range d.Checks {
				if strings.EqualFold(x.Name, to[0]) {
					return vsqlerr.New(vsqlerr.DuplicateObject, "constraint %q for domain %s already exists", to[0], d.display())
				}
				if x.Name == from[0] {
					found = k
				}
			}
			if found < 0 {
				return vsqlerr.New(vsqlerr.UndefinedObject, "constraint %q for domain %s does not exist", from[0], d.display())
			}
			d.Checks[found].Name = to[0]
			return nil
		}
	case t.word(i, "rename") && t.word(i+1, "to"):
		to, j := t.name(i + 2)
		if len(to) != 1 || !endOfStatement(t, j) {
			return nil, true, syntaxErrorAt(t, j)
		}
		return s.domainDDL("ALTER DOMAIN", func(ctx context.Context) error {
			set, d, err := s.alterTarget(ctx, parts, display)
			if err != nil {
				return err
			}
			if err := s.refuseUsed(ctx, set, d, "RENAME"); err != nil {
				return err
			}
			if s.typeExists(ctx, d.schema, to[0]) {
				return vsqlerr.New(vsqlerr.DuplicateObject, "type %q already exists", to[0])
			}
			return s.renameDomain(ctx, set, d, to[0])
		}), true, nil
	default:
		what := strings.ToUpper(t.text(i))
		if t.kind(i+1) == sqltext.Word {
			what += " " + strings.ToUpper(t.text(i+1))
		}
		return nil, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "ALTER DOMAIN … %s is not supported", what).
			WithHint("vsql's ALTER DOMAIN takes ADD CONSTRAINT … CHECK, DROP CONSTRAINT, SET/DROP NOT NULL, SET/DROP DEFAULT, RENAME TO and RENAME CONSTRAINT (docs/sql.md, Domains).")
	}
	return s.domainDDL("ALTER DOMAIN", func(ctx context.Context) error {
		set, d, err := s.alterTarget(ctx, parts, display)
		if err != nil {
			return err
		}
		copy := *d
		copy.Checks = append([]domainCheck(nil), d.Checks...)
		if err := change(ctx, set, &copy); err != nil {
			if err == errNoChange {
				return nil
			}
			return err
		}
		if err := s.refuseUsed(ctx, set, d, strings.ToUpper(t.text(i))+" "+strings.ToUpper(t.text(i+1))); err != nil {
			return err
		}
		if err := s.saveDomain(ctx, &copy); err != nil {
			return err
		}
		// the domains based on it check its constraints too
		set, err = s.domains(ctx)
		if err != nil {
			return err
		}
		for _, o := range set.dependents(set.byKey[copy.key()]) {
			if err := s.writeMacro(ctx, set, o); err != nil {
				return err
			}
		}
		return nil
	}), true, nil
}

// errNoChange: an ALTER DOMAIN that leaves the domain as it is.
var errNoChange = vsqlerr.New(vsqlerr.Internal, "no change")

// alterTarget is the domain ALTER DOMAIN names, or PostgreSQL's error.
func (s *Session) alterTarget(ctx context.Context, parts []string, display string) (*domainSet, *domainDef, error) {
	set, err := s.domains(ctx)
	if err != nil {
		return nil, nil, err
	}
	if d := set.lookup(parts); d != nil {
		return set, d, nil
	}
	if len(parts) <= 2 {
		schema, name, _ := domainParts(parts)
		if s.typeExists(ctx, schema, name) {
			return nil, nil, vsqlerr.New(vsqlerr.WrongObjectType, "%s is not a domain", display)
		}
	}
	return nil, nil, vsqlerr.New(vsqlerr.UndefinedObject, "type %q does not exist", display).
		WithHint("SELECT typname FROM pg_type WHERE typtype = 'd' lists the domains.")
}

// refuseUsed refuses an ALTER DOMAIN of a domain that a column has,
// itself or through a domain based on it: the column's CHECK holds the
// domain's constraints, and DuckDB cannot change a table's CHECK.
func (s *Session) refuseUsed(ctx context.Context, set *domainSet, d *domainDef, what string) error {
	for _, o := range append([]*domainDef{d}, set.dependents(d)...) {
		uses, err := s.domainColumnsOf(ctx, o)
		if err != nil {
			return err
		}
		if len(uses) > 0 {
			return vsqlerr.New(vsqlerr.FeatureNotSupported, "ALTER DOMAIN … %s of a domain that table columns use is not supported", what).
				WithHint("%s has domain %s; vsql writes a domain's constraints into its columns' CHECK constraints, which DuckDB cannot change. Drop or recreate the table without the domain, alter the domain, then create the table again.", uses[0], o.name)
		}
	}
	return nil
}

// renameDomain gives d (which no column uses) the name to: a new alias,
// comment and macro, the old ones dropped, and the domains based on it
// told.
func (s *Session) renameDomain(ctx context.Context, set *domainSet, d *domainDef, to string) error {
	old := *d
	n := *d
	n.name = to
	if deps := set.dependents(d); len(deps) > 0 {
		// DuckDB's alias of an alias depends on it: the old alias could
		// not be dropped
		return vsqlerr.New(vsqlerr.FeatureNotSupported, "ALTER DOMAIN … RENAME of a domain that other domains are based on is not supported").
			WithHint("Domain %s is based on %s; drop it first, or keep the name.", deps[0].name, d.name)
	}
	if err := s.runText(ctx, "CREATE TYPE "+n.qualified()+" AS "+d.Base); err != nil {
		return err
	}
	if err := s.exec(ctx, "DROP MACRO IF EXISTS "+old.macro()); err != nil {
		return err
	}
	if err := s.exec(ctx, "DROP TYPE "+old.qualified()); err != nil {
		return err
	}
	return s.saveDomain(ctx, &n)
}

// alterTableDomainColumn refuses ALTER TABLE … ADD COLUMN and ALTER
// COLUMN … TYPE of a domain type: DuckDB adds no column with a CHECK
// constraint, and the column would not be checked.
func (s *Session) alterTableDomainColumn(ctx context.Context, t tokenText) error {
	i := 2
	if t.word(i, "if") && t.word(i+1, "exists") {
		i += 2
	}
	if t.word(i, "only") {
		i++
	}
	if _, i = t.name(i); i == 0 {
		return nil
	}
	var typeAt int
	switch {
	case t.word(i, "add"):
		j := i + 1
		if t.word(j, "column") {
			j++
		}
		if t.word(j, "if") && t.word(j+1, "not") && t.word(j+2, "exists") {
			j += 3
		}
		if t.word(j, "constraint") || t.word(j, "primary") || t.word(j, "unique") || t.word(j, "check") || t.word(j, "foreign") {
			return nil
		}
		_, typeAt = t.name(j)
	case t.word(i, "alter"):
		j := i + 1
		if t.word(j, "column") {
			j++
		}
		_, j = t.name(j)
		if t.word(j, "set") && t.word(j+1, "data") {
			j += 2
		}
		if !t.word(j, "type") {
			return nil
		}
		typeAt = j + 1
	default:
		return nil
	}
	typ, _ := t.name(typeAt)
	if typ == nil {
		return nil
	}
	set, err := s.domains(ctx)
	if err != nil {
		return err
	}
	if d := set.lookup(typ); d != nil {
		return vsqlerr.New(vsqlerr.FeatureNotSupported, "a column of domain %s cannot be added to an existing table", d.name).
			WithHint("DuckDB adds no column with a constraint, so the domain would not be checked: declare the column in CREATE TABLE, or give it the base type (%s).", d.Base)
	}
	return nil
}
