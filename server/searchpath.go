package server

import (
	"context"
	"database/sql/driver"
	"regexp"
	"strings"

	"github.com/vsql/vsql/pgcatalog"
	"github.com/vsql/vsql/sqltext"
)

// search_path as PostgreSQL resolves names with it. The setting's value
// is a list of schema names; the session's DuckDB connection gets the
// ones that exist in its database as DuckDB's own search_path (public is
// DuckDB's main; pg_catalog and pg_temp are always searched there), so
// that unqualified names are found, and new objects created, in the
// first schema of the list that exists, as in PostgreSQL. The schemas
// that exist are looked up again after any change to the catalog
// (catalogGeneration), since a schema named in the path may be created
// or dropped later. current_schema(), current_schemas() and
// pg_table_is_visible read the effective list from a DuckDB variable.
//
// Not followed: DuckDB always searches the database's main schema last,
// so a path without public still finds public's tables (when no schema
// of the path has one of that name); a path in which no schema exists
// leaves DuckDB's main as the schema new objects go to (PostgreSQL:
// 3F000 "no schema has been selected to create in"); and a table of an
// earlier schema does not hide one of the same name in
// pg_table_is_visible.

var plainSchemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

// searchPathNames reads a search_path value as PostgreSQL does: names
// separated by commas, unquoted ones folded to lower case, "quoted" and
// 'string' ones as written.
func searchPathNames(value string) []string {
	var names []string
	var cur strings.Builder
	quoted, any := false, false
	flush := func() {
		name := cur.String()
		if !quoted {
			name = strings.ToLower(strings.TrimSpace(name))
		}
		if name != "" || quoted {
			names = append(names, name)
		}
		cur.Reset()
		quoted, any = false, false
	}
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case (c == '"' || c == '\'') && !any:
			// a quoted name, up to its closing quote (doubled quotes
			// stand for one)
			quoted, any = true, true
			for i++; i < len(value); i++ {
				if value[i] == c {
					if i+1 < len(value) && value[i+1] == c {
						cur.WriteByte(c)
						i++
						continue
					}
					break
				}
				cur.WriteByte(value[i])
			}
		case c == ',':
			flush()
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if any && !quoted {
				cur.WriteByte(c)
			}
		default:
			if !quoted {
				any = true
				cur.WriteByte(c)
			}
		}
	}
	if any || cur.Len() > 0 {
		flush()
	}
	return names
}

// searchPathValue is a search_path as SHOW prints it: the names
// separated by ", ", quoted where they are not plain lower-case names.
func searchPathValue(value string) string {
	names := searchPathNames(value)
	out := make([]string, len(names))
	for i, n := range names {
		if plainSchemaName.MatchString(n) {
			out[i] = n
		} else {
			out[i] = sqltext.QuoteIdent(n)
		}
	}
	return strings.Join(out, ", ")
}

// searchPathChanged notes that the session's search_path changed: the
// next statement applies it.
func (s *Session) searchPathChanged() {
	s.searchPathSet = true
	s.searchPathGeneration = -1
}

// applySearchPath gives the session's DuckDB connection its search_path,
// when it changed or the catalog changed since it was last applied. A
// session that never set search_path pays nothing.
func (s *Session) applySearchPath(ctx context.Context) error {
	if !s.searchPathSet {
		return nil
	}
	gen := catalogGeneration.Load()
	if gen == s.searchPathGeneration {
		return nil
	}
	existing := map[string]bool{}
	if err := s.eachRow(ctx, "SELECT schema_name FROM duckdb_schemas() WHERE database_name = current_database()", func(row []driver.Value) {
		if name, ok := row[0].(string); ok {
			existing[name] = true
		}
	}); err != nil {
		return err
	}
	var duck, effective []string
	for _, name := range searchPathNames(s.settingValue("search_path")) {
		if name == "$user" {
			name = s.principal.user
		}
		switch {
		case name == "pg_catalog":
			effective = append(effective, name)
		case name == "pg_temp" || strings.HasPrefix(name, "pg_temp_") || name == "main":
			// the temporary schema is searched first in DuckDB as in
			// PostgreSQL; DuckDB's main is reached only as public
		case name == "public":
			duck = append(duck, "main")
			effective = append(effective, name)
		case existing[name]:
			duck = append(duck, name)
			effective = append(effective, name)
		}
	}
	if len(duck) == 0 {
		duck = []string{"main"} // see above: new objects still need a schema
	}
	paths := make([]string, len(duck))
	for i, d := range duck {
		paths[i] = sqltext.QuoteIdent(s.alias) + "." + sqltext.QuoteIdent(d)
	}
	list := make([]string, len(effective))
	for i, e := range effective {
		list[i] = sqltext.QuoteString(e)
	}
	q := "SET search_path = " + sqltext.QuoteString(strings.Join(paths, ",")) + ";\n" +
		"SET VARIABLE " + pgcatalog.SearchPathVariable + " = CAST([" + strings.Join(list, ", ") + "] AS VARCHAR[])"
	if err := s.exec(ctx, q); err != nil {
		return err
	}
	s.searchPathGeneration = gen
	return nil
}
