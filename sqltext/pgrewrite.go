package sqltext

import "strings"

// PostgreSQL names on top of DuckDB.
//
// PostgreSQL clients write PostgreSQL's names: the schema public, catalog
// relations and functions qualified by pg_catalog, OPERATOR(pg_catalog.~),
// COLLATE pg_catalog.default, casts to regclass. RewritePostgres turns such
// a statement into one DuckDB runs, token by token: it never parses, and it
// leaves every token it does not know as written.

// Where vsql's own catalog objects live: two schemas of the engine's
// in-memory database, created once per process (package pgcatalog). Names
// starting with __vsql are refused in client SQL, so only this rewrite can
// reach them.
const (
	PGCatalogSchema = "memory.__vsql_pg"
	InfoSchema      = "memory.__vsql_is"
	// FunctionsSchema holds the PostgreSQL functions package pgcompat
	// provides (ProvideFunctions). They are kept apart from the catalogs
	// because many share a name with a DuckDB function (regexp_replace,
	// lpad, date_trunc, …): in PGCatalogSchema they would shadow the
	// DuckDB function the catalog views and macros there call.
	FunctionsSchema = "memory.__vsql_fn"
)

// PGRelations are the pg_catalog relations vsql answers itself.
var PGRelations = map[string]bool{}

// PGFunctions are the PostgreSQL functions vsql provides (as macros in
// PGCatalogSchema). A call to one of them, bare or qualified by pg_catalog,
// is sent there.
var PGFunctions = map[string]bool{}

// tableFunctions are the table functions (vsql's own vsql_* functions)
// created once per process in PGCatalogSchema: a bare call of one is sent
// there. ProvideTableFunctions fills it.
var tableFunctions = map[string]bool{}

// ProvideTableFunctions names table functions that live in
// PGCatalogSchema; call it from an init function only (the rewrite reads
// the set without a lock).
func ProvideTableFunctions(names ...string) {
	for _, n := range names {
		tableFunctions[n] = true
		triggerWords[n] = true
	}
}

// ProvideFunctions names scalar functions (macros) that live in
// PGCatalogSchema, as PGFunctions does; call it from an init function
// only (the rewrite reads the set without a lock).
func ProvideFunctions(names ...string) {
	for _, n := range names {
		PGFunctions[n] = true
		triggerWords[n] = true
		inFunctionsSchema[n] = true
	}
}

// Kinds of table macros (ProvideTableMacros).
const (
	singleColumn = 1 // one column, which a table alias names as well
	valueColumn  = 2 // one column named value, which a table alias also is
	columns      = 3 // named columns; an alias names the table only
)

// tableMacros are the table macros in FunctionsSchema that a call in FROM
// reaches as they are (not wrapped as a scalar function used as a table),
// by kind.
var tableMacros = map[string]int{}

// ProvideTableMacro names a table macro that lives in FunctionsSchema as
// macro, reached by a call of name in FROM (macro differs where DuckDB has
// a built-in of the name, which the macro's body calls). kind says what a
// table alias of the call names (TableMacroColumns, TableMacroValue,
// TableMacroOneColumn). Call it from an init function only.
func ProvideTableMacro(name, macro string, kind TableMacroKind) {
	tableMacros[name] = int(kind)
	if macro != name {
		providedAs[name] = macro
	}
	triggerWords[name] = true
}

// TableMacroKind is what a table alias of a table macro's call names.
type TableMacroKind int

const (
	// TableMacroOneColumn returns one column, which an alias names too
	// (PostgreSQL's json_object_keys(x) k).
	TableMacroOneColumn TableMacroKind = singleColumn
	// TableMacroValue returns one column named value, and an alias is the
	// value as well (json_array_elements(x) e: e and e.value).
	TableMacroValue TableMacroKind = valueColumn
	// TableMacroColumns returns named columns; an alias names the table.
	TableMacroColumns TableMacroKind = columns
)

// inFunctionsSchema are the PGFunctions that live in FunctionsSchema.
var inFunctionsSchema = map[string]bool{}

// functionSchema is the schema a provided function lives in.
func functionSchema(name string) string {
	if inFunctionsSchema[name] {
		return FunctionsSchema
	}
	return PGCatalogSchema
}

// ProvideFunctionAs is ProvideFunctions for a PostgreSQL function whose
// macro has another name (macro): the PostgreSQL name is also DuckDB's
// built-in, which macros call with DuckDB's meaning (an unqualified name
// in a macro finds a macro of the same schema first).
func ProvideFunctionAs(name, macro string) {
	ProvideFunctions(name)
	providedAs[name] = macro
}

// providedAs maps a provided function to its macro's name where the two
// differ (ProvideFunctionAs).
var providedAs = map[string]string{}

// MacroOf is the name of the macro (in FunctionsSchema) that answers the
// provided function f.
func MacroOf(f string) string {
	if m, ok := providedAs[f]; ok {
		return m
	}
	return f
}

// InfoRelations are the information_schema relations vsql answers itself.
var InfoRelations = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`pg_namespace pg_class pg_attribute pg_attrdef pg_type pg_index
		pg_constraint pg_database pg_roles pg_user pg_am pg_language pg_proc pg_description pg_shdescription
		pg_tables pg_views pg_matviews pg_indexes pg_collation pg_enum pg_tablespace pg_policy
		pg_statistic_ext pg_publication pg_publication_rel pg_publication_namespace pg_trigger
		pg_inherits pg_depend pg_rewrite pg_foreign_table pg_partitioned_table pg_extension
		pg_auth_members pg_cast pg_settings pg_range pg_sequence pg_sequences pg_statio_all_tables pg_stat_all_tables pg_stat_activity pg_cursors pg_prepared_statements`) {
		PGRelations[n] = true
	}
	for _, n := range strings.Fields(`pg_get_userbyid pg_get_function_result pg_get_function_arguments
		pg_get_function_identity_arguments pg_table_is_visible pg_type_is_visible
		pg_function_is_visible format_type pg_get_expr pg_get_indexdef pg_get_constraintdef
		pg_get_viewdef obj_description col_description shobj_description pg_encoding_to_char
		pg_char_to_encoding current_schemas current_schema pg_get_serial_sequence version
		current_setting has_table_privilege has_schema_privilege has_database_privilege
		pg_has_role pg_is_in_recovery array_upper array_lower pg_partition_ancestors
		pg_table_size pg_relation_size pg_total_relation_size pg_indexes_size pg_database_size
		pg_tablespace_location pg_size_pretty pg_relation_is_publishable pg_get_statisticsobjdef_columns pg_get_partkeydef
		pg_get_triggerdef pg_get_ruledef quote_ident to_regclass to_regtype
		regclass_oid regclass_name regtype_oid regtype_name regproc_oid regproc_name
		regnamespace_oid regnamespace_name pg_backend_pid pg_cancel_backend pg_terminate_backend
		clock_timestamp statement_timestamp`) {
		PGFunctions[n] = true
	}
	for _, n := range strings.Fields(`schemata tables columns table_constraints key_column_usage constraint_column_usage
		views referential_constraints sequences _pg_expandarray`) {
		InfoRelations[n] = true
	}
	fillTriggerWords()
}

// vectorColumns are the catalog columns of PostgreSQL's int2vector and
// oidvector types, which vsql keeps as lists.
var vectorColumns = map[string]bool{"indkey": true, "indoption": true, "indclass": true, "indcollation": true,
	"proargtypes": true, "stxkeys": true, "partattrs": true, "partclass": true, "partcollation": true, "tgattr": true}

// renamedFunctions are PostgreSQL functions DuckDB has under another name.
// scalarsUsedAsTables are built-in functions clients call in FROM
// (TypeORM: SELECT * FROM current_database()).
var scalarsUsedAsTables = map[string]bool{"current_database": true, "current_user": true, "session_user": true,
	"version": true, "current_catalog": true}

// loginWords are PostgreSQL's names of the session's login, and the
// provided function that answers each.
var loginWords = map[string]string{"current_user": "vsql_current_user", "session_user": "vsql_session_user", "current_role": "vsql_current_role"}

// (json_build_object and json_build_array, which return json, are
// pgcompat's: jsonBuild)
var renamedFunctions = map[string]string{"jsonb_build_object": "json_object", "jsonb_build_array": "json_array"}

// conditionStart reports whether token i (just before an operand) begins
// a condition: nothing binds tighter than the comparison that follows.
func conditionStart(toks []rwTok, i int) bool {
	if i < 0 {
		return true
	}
	t := toks[i]
	switch t.kind {
	case tokOpen:
		return true
	case tokWord:
		switch t.word {
		case "and", "or", "not", "where", "on", "when", "having", "select", "then", "else":
			return true
		}
	case tokOther:
		return t.word == ","
	}
	return false
}

// regCasts are the reg* pseudo types: a cast of a string literal or a
// parameter finds the object's oid; a cast of anything else names the
// object with that oid.
var regCasts = map[string]bool{"regclass": true, "regtype": true, "regproc": true, "regprocedure": true, "regnamespace": true}

// castTypes are PostgreSQL type names DuckDB lacks, and what to cast to.
var castTypes = map[string]string{"name": "VARCHAR", "char": "VARCHAR", "int2vector": "SMALLINT[]", "oidvector": "BIGINT[]", "regrole": "BIGINT", "xid": "BIGINT"}

type rwTok struct {
	kind       tokenKind
	start, end int
	word       string // lower-cased word or unquoted identifier; "" for others
}

// RewritePostgres rewrites PostgreSQL-only names and syntax in one
// statement; changed is false when the statement is returned as it was.
//
// - public.x, "public".x, "db".public.x and CREATE/DROP SCHEMA public
// name DuckDB's default schema main;
// - pg_catalog.R and information_schema.R for the relations vsql answers,
// and calls of the functions it provides (bare or pg_catalog.f), go to
// PGCatalogSchema and InfoSchema; other pg_catalog.f( calls lose the
// qualifier (DuckDB's functions are not in a pg_catalog schema);
// - OPERATOR(pg_catalog.op) becomes op; COLLATE pg_catalog.default is
// dropped;
// - x ~ 'pattern' and !~, ~*, !~* with a literal pattern search anywhere
// in x as in PostgreSQL (DuckDB's ~ must match the whole string);
// - casts to regclass, regtype, regproc, regnamespace become calls, and
// casts to name and "char" become VARCHAR;
// - a select-list item that is a call of a provided function gets the
// function's name as its column name, as in PostgreSQL.
func RewritePostgres(src string) (out string, changed bool) {
	st, changed := RewritePostgresIn(Parse(src))
	return st.SQL, changed
}

// RewritePostgresIn is RewritePostgres on a statement's tokens: the
// statement is not lexed again.
func RewritePostgresIn(st Statement) (out Statement, changed bool) {
	src, stoks := st.SQL, st.Tokens()
	if st.open || !mayNeedRewrite(src, stoks) {
		return st, false
	}
	toks := make([]rwTok, 0, len(stoks))
	for _, tok := range stoks {
		t := rwTok{kind: tok.Kind.internal(), start: tok.Start, end: tok.End}
		switch t.kind {
		case tokWord:
			t.word = strings.ToLower(src[t.start:t.end])
		case tokQuoted:
			t.word = UnquoteIdent(src[t.start:t.end])
		case tokOther:
			t.word = src[t.start:t.end]
		}
		toks = append(toks, t)
	}
	n := len(toks)
	repl := make([]*string, n) // replacement text of a token ("" deletes it)
	pre := make([]string, n)   // inserted before a token
	post := make([]string, n)  // inserted after a token
	set := func(i int, s string) { repl[i] = &s; changed = true }
	isText := func(i int, s string) bool { return i >= 0 && i < n && toks[i].kind == tokOther && toks[i].word == s }
	isWord := func(i int, w string) bool { return i >= 0 && i < n && toks[i].kind == tokWord && toks[i].word == w }
	isName := func(i int) bool { return i >= 0 && i < n && (toks[i].kind == tokWord || toks[i].kind == tokQuoted) }
	dot := func(i int) bool { return isText(i, ".") }
	// match[i] is the index of the parenthesis matching toks[i].
	match := make([]int, n)
	var stack []int
	for i := range toks {
		match[i] = -1
		switch toks[i].kind {
		case tokOpen:
			stack = append(stack, i)
		case tokClose:
			if len(stack) > 0 {
				o := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				match[i], match[o] = o, i
			}
		}
	}
	// provided marks calls of provided functions by their first token:
	// the function's name (for the column name) and the call's last token.
	provided := map[int]providedCall{}

	for i := 0; i < n; i++ {
		t := toks[i]
		switch {
		// OPERATOR(pg_catalog.~) → ~
		case isWord(i, "operator") && i+1 < n && toks[i+1].kind == tokOpen && match[i+1] > i:
			j := i + 2
			if isName(j) && toks[j].word == "pg_catalog" && dot(j+1) {
				j += 2
			}
			op := strings.TrimSpace(src[toks[j].start:toks[match[i+1]].start])
			if op == "" || strings.ContainsAny(op, " \t\n") {
				continue
			}
			for k := i; k <= match[i+1]; k++ {
				set(k, "")
			}
			set(i, op)
			if regexOperand(src, toks, match[i+1], op, set) {
				set(i, strings.TrimSuffix(op, "*"))
			}
			i = match[i+1]
			continue
		// COLLATE pg_catalog.default, COLLATE "default" → nothing
		case isWord(i, "collate"):
			switch {
			case isName(i+1) && toks[i+1].word == "pg_catalog" && dot(i+2) && isName(i+3) && toks[i+3].word == "default":
				for k := i; k <= i+3; k++ {
					set(k, "")
				}
				i += 3
			case i+1 < n && toks[i+1].kind == tokQuoted && toks[i+1].word == "default":
				set(i, "")
				set(i+1, "")
				i++
			}
			continue
		// public.x → main.x; CREATE SCHEMA [IF NOT EXISTS] public → main
		case isName(i) && t.word == "public":
			if dot(i+1) || isWord(i-1, "schema") || (isWord(i-1, "exists") && (isWord(i-3, "schema") || isWord(i-4, "schema"))) {
				set(i, "main")
			}
			continue
		// "db".pg_catalog.x, "db".information_schema.x: the catalogs are
		// the session's database's
		case isName(i) && !dot(i-1) && dot(i+1) && isName(i+2) && (toks[i+2].word == "pg_catalog" || toks[i+2].word == "information_schema") &&
			dot(i+3) && isName(i+4):
			set(i, "")
			set(i+1, "")
			continue
		// pg_temp.x (and pg_temp_1.x, as vsql's catalogs call it): the
		// session's temporary objects, DuckDB's catalog temp
		case isName(i) && (t.word == "pg_temp" || t.word == "pg_temp_1") && !dot(i-1) && dot(i+1):
			set(i, "temp")
			continue
		// pg_catalog.x
		case isName(i) && t.word == "pg_catalog" && dot(i+1) && isName(i+2) && !(dot(i-1) && !(repl[i-2] != nil && *repl[i-2] == "")):
			name := toks[i+2].word
			call := i+3 < n && toks[i+3].kind == tokOpen
			switch {
			case call && tableFunctions[name]:
				set(i, PGCatalogSchema) // pg_catalog.pg_get_keywords()
			case call && PGFunctions[name]:
				set(i, functionSchema(name))
				if m, ok := providedAs[name]; ok {
					set(i+2, m)
				}
				provided[i] = providedCall{name: name, end: match[i+3]}
			case call:
				set(i, "")
				set(i+1, "")
			case PGRelations[name]:
				set(i, PGCatalogSchema)
			case isText(i-1, ":") && isText(i-2, ":"), isWord(i-1, "as"):
				set(i, "") // a type: ::pg_catalog.text, CAST(x AS pg_catalog.text)
				set(i+1, "")
				if to, ok := castTypes[name]; ok && (name != "char" || toks[i+2].kind == tokQuoted) {
					set(i+2, to)
				}
			}
			i++
			continue
		// information_schema.x
		case isName(i) && t.word == "information_schema" && dot(i+1) && isName(i+2) && !(dot(i-1) && !(repl[i-2] != nil && *repl[i-2] == "")):
			if InfoRelations[toks[i+2].word] {
				set(i, InfoSchema)
			}
			i++
			continue
		// x = ANY(list) → vsql_any_eq(x, (list)): DuckDB cannot use the
		// former in an outer join's condition. Only for a simple operand
		// standing alone in a condition, and not for ANY(subquery).
		case isWord(i, "any") && isText(i-1, "=") && i+1 < n && toks[i+1].kind == tokOpen && match[i+1] > i+1 &&
			!isWord(i+2, "select") && !isWord(i+2, "values") && !isWord(i+2, "with"):
			first := operandStart(toks, match, i-2)
			if first < 0 || !conditionStart(toks, first-1) {
				continue
			}
			pre[first] = PGCatalogSchema + ".vsql_any_eq(" + pre[first]
			set(i-1, ",")
			set(i, "")
			post[match[i+1]] += ")"
			continue
		// x.indkey as a whole select item: int2vector prints as "1 2"
		// (Sequelize splits it), not as the list vsql stores
		case t.kind == tokWord && vectorColumns[t.word] && dot(i-1) && isName(i-2) && (i+1 >= n || isWord(i+1, "as") ||
			isText(i+1, ",") || isWord(i+1, "from")) && i-3 >= 0 && (isWord(i-3, "select") || isText(i-3, ",")) && inSelectList(toks, i-3) &&
			parenDepth(toks, i) == 0: // only what reaches the client; subqueries compute with the list
			pre[i-2] = "array_to_string(" + pre[i-2]
			post[i] += ", ' ')"
			if !isWord(i+1, "as") {
				post[i] += " AS " + t.word
			}
			changed = true
			continue
		// array_agg(a.attname): PostgreSQL's name[] reaches clients as array
		// text ("{id,name}"): drivers leave it unparsed (Sequelize relies on
		// it), unlike text[], which vsql's VARCHAR[] would be reported as.
		case t.kind == tokWord && t.word == "array_agg" && !dot(i-1) && i+4 < n && toks[i+1].kind == tokOpen &&
			match[i+1] == i+5 && isName(i+2) && dot(i+3) && toks[i+4].word == "attname":
			pre[i] = PGCatalogSchema + ".vsql_pg_array_text(" + pre[i]
			post[match[i+1]] += ")"
			changed = true
			continue
		// current_user, session_user, current_role: the login, not DuckDB's
		// "duckdb" (PostgreSQL writes them without parentheses)
		case t.kind == tokWord && !dot(i-1) && !dot(i+1) && loginWords[t.word] != "" && !(i+1 < n && toks[i+1].kind == tokOpen):
			set(i, PGCatalogSchema+"."+loginWords[t.word]+"()")
			if isWord(i-1, "from") || isWord(i-1, "join") {
				pre[i] = "(SELECT " + pre[i]
				post[i] += " AS " + t.word + ")"
			}
			continue
		// a built-in scalar function used as a table
		case t.kind == tokWord && !dot(i-1) && scalarsUsedAsTables[t.word] && i+1 < n && toks[i+1].kind == tokOpen &&
			match[i+1] > 0 && (isWord(i-1, "from") || isWord(i-1, "join")):
			pre[i] = "(SELECT " + pre[i]
			post[match[i+1]] += " AS " + t.word + ")"
			changed = true
			continue
		// functions DuckDB has under other names
		case t.kind == tokWord && !dot(i-1) && renamedFunctions[t.word] != "" && i+1 < n && toks[i+1].kind == tokOpen:
			set(i, renamedFunctions[t.word])
			continue
		// a bare call of a provided table function: vsql_branches(…)
		case t.kind == tokWord && !dot(i-1) && tableFunctions[t.word] && i+1 < n && toks[i+1].kind == tokOpen &&
			!isWord(i-1, "macro") && !isWord(i-1, "function"):
			set(i, PGCatalogSchema+"."+t.word)
			continue
		// a provided table macro in FROM (after FROM, JOIN, LATERAL or a
		// comma of a FROM list): json_object_keys(x) k. A table alias of
		// one returning one column names that column too, as in
		// PostgreSQL: f(…) k(k); of one returning a column named value,
		// the alias is that column as well, e->>'k' as e.value: the column
		// is renamed where the statement uses the alias as a value, and
		// where it uses it both ways (SELECT value, value AS e FROM f(…))
		// e.
		case t.kind == tokWord && !dot(i-1) && tableMacros[t.word] != 0 && i+1 < n && toks[i+1].kind == tokOpen && match[i+1] > 0 &&
			(isWord(i-1, "from") || isWord(i-1, "join") || isWord(i-1, "lateral") || (isText(i-1, ",") && !inSelectList(toks, i-1))):
			set(i, FunctionsSchema+"."+MacroOf(t.word))
			a := aliasAfter(toks, match[i+1], n)
			switch {
			case a == 0:
			case tableMacros[t.word] == singleColumn:
				post[a] += "(" + src[toks[a].start:toks[a].end] + ")"
			case tableMacros[t.word] == valueColumn:
				// The alias as a value (e->>'k'), as a table (e.value), or
				// both: the column renamed, left alone, or value and the
				// alias side by side.
				asValue, asTable := false, false
				for k := range toks {
					if k != a && toks[k].kind == toks[a].kind && toks[k].word == toks[a].word && !dot(k-1) {
						if dot(k + 1) {
							asTable = true
						} else {
							asValue = true
						}
					}
				}
				switch {
				case asValue && asTable:
					pre[i] = "(SELECT value, value AS " + src[toks[a].start:toks[a].end] + " FROM " + pre[i]
					post[match[i+1]] += ")"
				case asValue:
					post[a] += "(" + src[toks[a].start:toks[a].end] + ")"
				}
			}
			continue
		// a bare call of a provided function; current_schema without ()
		case t.kind == tokWord && !dot(i-1) && !dot(i+1) && PGFunctions[t.word] &&
			!isWord(i-1, "macro") && !isWord(i-1, "function") && !isText(i-1, ":"):
			if i+1 < n && toks[i+1].kind == tokOpen {
				set(i, functionSchema(t.word)+"."+MacroOf(t.word))
				provided[i] = providedCall{name: t.word, end: match[i+1]}
				if (isWord(i-1, "from") || isWord(i-1, "join")) && match[i+1] > 0 {
					// a scalar function used as a table: FROM current_schema();
					// an alias names its column too, as in PostgreSQL
					pre[i] = "(SELECT " + pre[i]
					post[match[i+1]] += " AS " + t.word + ")"
					if a := aliasAfter(toks, match[i+1], n); a > 0 {
						post[a] += "(" + src[toks[a].start:toks[a].end] + ")"
					}
				}
			} else if t.word == "current_schema" {
				set(i, PGCatalogSchema+".current_schema()")
				provided[i] = providedCall{name: t.word, end: i}
			}
			continue
		// generate_series(…) s: PostgreSQL names the column after the
		// table alias; DuckDB needs it said, generate_series(…) s(s)
		case t.kind == tokWord && (t.word == "generate_series" || t.word == "unnest" && oneArgument(toks, i+1, match[i+1])) &&
			i+1 < n && toks[i+1].kind == tokOpen && match[i+1] > 0:
			prev := i - 1
			if dot(prev) && isName(prev-1) && toks[prev-1].word == "pg_catalog" {
				prev -= 2
			}
			if isWord(prev, "lateral") {
				prev-- // , LATERAL generate_series(1, t.n) g
			}
			if !isWord(prev, "from") && !isWord(prev, "join") && !(isText(prev, ",") && inFromList(toks, prev)) {
				continue
			}
			if a := aliasAfter(toks, match[i+1], n); a > 0 {
				post[a] += "(" + src[toks[a].start:toks[a].end] + ")"
				changed = true
			}
			continue
		// a bare catalog relation after FROM, JOIN or a comma
		case (t.kind == tokWord || t.kind == tokQuoted) && PGRelations[t.word] && !dot(i-1) && !dot(i+1) &&
			(isWord(i-1, "from") || isWord(i-1, "join") || (isText(i-1, ",") && !inSelectList(toks, i-1))) && !(i+1 < n && toks[i+1].kind == tokOpen):
			set(i, PGCatalogSchema+"."+t.word)
			continue
		// x ~ 'p', x !~ 'p', x ~* 'p', x !~* 'p'
		case isText(i, "~"):
			op, last := "~", i
			if isText(i-1, "!") && toks[i-1].end == t.start {
				op = "!~"
			}
			if isText(i+1, "*") && toks[i+1].start == t.end {
				op += "*"
				last = i + 1
			}
			if first := i - 1; backtrackingPattern(src, toks, last+1) {
				// back references and lookaround, which DuckDB's RE2
				// refuses: pg_regex_op, PostgreSQL's regexp_like (its
				// backtracking engine) under a name colnames sees through
				if op[0] == '!' {
					first--
				}
				if first = operandStart(toks, match, first); first >= 0 {
					not, flags := "", ""
					if op[0] == '!' {
						not = "NOT "
						set(i-1, "")
					}
					if strings.HasSuffix(op, "*") {
						flags = ", 'i'"
						set(last, "")
					}
					pre[first] = "(" + not + FunctionsSchema + ".pg_regex_op(" + pre[first]
					set(i, ",")
					post[last+1] += flags + "))"
					changed = true
					i = last
					continue
				}
			}
			if regexOperand(src, toks, last, op, set) && last > i {
				set(last, "") // ~* and !~*: the pattern carries (?i)
			}
			i = last
			continue
		// ::type
		case isText(i, ":") && isText(i+1, ":") && toks[i+1].start == t.end:
			j := i + 2
			if isName(j) && toks[j].word == "pg_catalog" && dot(j+1) {
				j += 2
			}
			if !isName(j) {
				continue
			}
			typ := toks[j].word
			if to, ok := castTypes[typ]; ok && (typ != "char" || toks[j].kind == tokQuoted) {
				for k := i + 2; k < j; k++ {
					set(k, "")
				}
				set(j, to)
				i = j
				continue
			}
			if (typ == "varchar" || typ == "text") && vectorColumns[toks[i-1].word] && toks[i-1].kind == tokWord {
				// int2vector and oidvector print as "1 2", not as lists
				if first := operandStart(toks, match, i-1); first >= 0 {
					pre[first] = "array_to_string(" + pre[first]
					post[i-1] += ", ' ')"
					changed = true
				}
				continue
			}
			if !regCasts[typ] {
				continue
			}
			first := operandStart(toks, match, i-1)
			if first < 0 {
				continue
			}
			if isText(j+1, "[") && isText(j+2, "]") {
				// x::regtype[] (pgcli): each oid of the list to its name
				base := strings.TrimSuffix(typ, "procedure")
				if base == "reg" {
					base = "regproc"
				}
				pre[first] = "list_transform(CAST(" + pre[first]
				post[i-1] += " AS BIGINT[]), lambda vsql_oid: " + PGCatalogSchema + "." + base + "_name(vsql_oid))"
				for k := i; k <= j+2; k++ {
					set(k, "")
				}
				i = j + 2
				continue
			}
			base := strings.TrimSuffix(typ, "procedure")
			if base == "reg" {
				base = "regproc"
			}
			fn := base + "_name"
			textual := toks[i-1].kind == tokString || toks[i-1].kind == tokParam
			if toks[i-1].kind == tokClose && match[i-1] >= 0 {
				for k := match[i-1]; k < i-1; k++ {
					if isText(k, "|") && isText(k+1, "|") {
						textual = true // a concatenation: a name, not an oid
					}
				}
			}
			castTo := func(w string) bool { return isText(j+1, ":") && isText(j+2, ":") && isWord(j+3, w) }
			compared := func(k int) bool { // an operand of =, <>, != compares oids
				return isText(k, "=") || isText(k, "!") && isText(k+1, "=") || isText(k, "<") && isText(k+1, ">") ||
					isText(k, ">") && isText(k-1, "<")
			}
			if textual || castTo("oid") || compared(j+1) || compared(first-1) {
				fn = base + "_oid" // a name to its oid
			}
			if textual && (castTo("text") || castTo("varchar")) {
				fn = base + "_name(" + PGCatalogSchema + "." + base + "_oid" // the name, normalized
				post[i-1] += ")"
			}
			pre[first] = PGCatalogSchema + "." + fn + "(" + pre[first]
			post[i-1] += ")"
			for k := i; k <= j; k++ {
				set(k, "")
			}
			// PostgreSQL names the column after the operand's column, or the type
			col := typ
			if k := toks[i-1].kind; k == tokWord || k == tokQuoted {
				col = toks[i-1].word
			}
			if _, ok := provided[first]; !ok {
				pc := providedCall{name: col, end: j}
				if strings.HasSuffix(fn, "_oid") {
					pc.nameFn = base + "_name" // shown by name when it is a whole select-list item
				}
				provided[first] = pc
			}
			i = j
			continue
		}
	}
	if !changed {
		return st, false
	}
	nameSelectItems(toks, provided, pre, post)
	var edits []Edit
	for i, t := range toks {
		if pre[i] != "" {
			edits = append(edits, Edit{t.start, t.start, pre[i]})
		}
		if repl[i] != nil {
			edits = append(edits, Edit{t.start, t.end, *repl[i]})
		}
		if post[i] != "" {
			edits = append(edits, Edit{t.end, t.end, post[i]})
		}
	}
	return st.Edit(edits), true
}

// aliasAfter returns the token of a table alias without a column list
// after the call closing at e (f(…) s, f(…) AS s), 0 if there is none.
func aliasAfter(toks []rwTok, e, n int) int {
	a := e + 1
	if a < n && toks[a].kind == tokWord && toks[a].word == "as" {
		a++
	}
	if a < n && toks[a].kind == tokWord && !clauseWords[toks[a].word] && !joinWords[toks[a].word] &&
		!(a+1 < n && (toks[a+1].kind == tokOpen || toks[a+1].kind == tokOther && toks[a+1].word == ".")) {
		return a
	}
	return 0
}

// triggerWords are the words without which RewritePostgres changes
// nothing (filled by init, after the lists above).
var triggerWords = map[string]bool{}

func fillTriggerWords() {
	for _, w := range []string{"public", "pg_catalog", "information_schema", "operator", "collate", "any", "generate_series", "unnest", "pg_temp", "pg_temp_1", "array_agg"} {
		triggerWords[w] = true
	}
	for _, set := range []map[string]bool{PGRelations, PGFunctions, regCasts, vectorColumns, scalarsUsedAsTables} {
		for w := range set {
			triggerWords[w] = true
		}
	}
	for w := range renamedFunctions {
		triggerWords[w] = true
	}
	for w := range loginWords {
		triggerWords[w] = true
	}
	// castTypes' words (name, char, …) trigger only as a cast's type
	// (mayNeedRewrite): "name" is a common column name.
}

// mayNeedRewrite is a quick scan, without allocating, for a token the
// rewrite acts on; most statements (and big INSERTs) have none.
func mayNeedRewrite(src string, toks []Token) bool {
	var buf [32]byte
	castType := false // the previous token was : (of ::) or AS
	for _, t := range toks {
		tok := token{t.Kind.internal(), t.Start, t.End}
		afterCast := castType
		castType = tok.kind == tokOther && src[tok.start] == ':' ||
			tok.kind == tokWord && tok.end-tok.start == 2 && strings.EqualFold(src[tok.start:tok.end], "as")
		switch tok.kind {
		case tokWord, tokQuoted:
			w := src[tok.start:tok.end]
			if tok.kind == tokQuoted {
				w = strings.TrimSuffix(w[1:], `"`)
			}
			if len(w) > len(buf) {
				continue
			}
			for i := 0; i < len(w); i++ {
				c := w[i]
				if tok.kind == tokWord && c >= 'A' && c <= 'Z' {
					c += 'a' - 'A'
				}
				buf[i] = c
			}
			if triggerWords[string(buf[:len(w)])] {
				return true
			}
			if _, ok := castTypes[string(buf[:len(w)])]; ok && afterCast {
				return true
			}
		case tokOther:
			if src[tok.start] == '~' {
				return true
			}
		}
	}
	return false
}

// backtrackingPattern reports whether token j is a '…' pattern with back
// references (\1 … \9) or lookaround ((?=, (?!, (?<=, (?<!), which RE2
// does not have.
func backtrackingPattern(src string, toks []rwTok, j int) bool {
	if j >= len(toks) || toks[j].kind != tokString || src[toks[j].start] != '\'' {
		return false
	}
	pat := src[toks[j].start:toks[j].end]
	for k := 0; k+1 < len(pat); k++ {
		if pat[k] == '\\' {
			if c := pat[k+1]; c >= '1' && c <= '9' {
				return true
			}
			k++
		}
	}
	return strings.Contains(pat, "(?=") || strings.Contains(pat, "(?!") || strings.Contains(pat, "(?<=") || strings.Contains(pat, "(?<!")
}

// regexOperand rewrites the literal pattern after the regular expression
// operator op ending at token i so that DuckDB's whole-string match
// searches anywhere, as PostgreSQL's ~ does, and case-insensitively for ~*
// and !~* (the caller then drops the *). It reports whether it did.
func regexOperand(src string, toks []rwTok, i int, op string, set func(int, string)) bool {
	switch op {
	case "~", "!~", "~*", "!~*":
	default:
		return false
	}
	j := i + 1
	if j >= len(toks) || toks[j].kind != tokString || src[toks[j].start] != '\'' || toks[j].end-toks[j].start < 2 || src[toks[j].end-1] != '\'' {
		return false
	}
	pat := src[toks[j].start+1 : toks[j].end-1]
	flags := ""
	if strings.HasSuffix(op, "*") {
		flags = "i"
	}
	set(j, "'(?s:.*)(?"+flags+":"+pat+")(?s:.*)'")
	return true
}

// operandStart finds the first token of the operand that ends at token i:
// a literal, a parameter, a (qualified) name, or a parenthesized
// expression or call. It returns -1 when it cannot tell.
// operandKeywords may stand before a parenthesized operand without making
// it a function call: SELECT (a || b)::regclass.
var operandKeywords = map[string]bool{"select": true, "where": true, "and": true, "or": true, "not": true, "on": true,
	"by": true, "as": true, "when": true, "then": true, "else": true, "in": true, "from": true, "join": true, "is": true,
	"case": true, "having": true, "distinct": true, "all": true, "any": true, "values": true, "return": true, "like": true}

func operandStart(toks []rwTok, match []int, i int) int {
	if i < 0 {
		return -1
	}
	switch toks[i].kind {
	case tokString, tokParam:
		return i
	case tokClose:
		o := match[i]
		if o < 0 {
			return -1
		}
		if o > 0 && (toks[o-1].kind == tokQuoted || (toks[o-1].kind == tokWord && !operandKeywords[toks[o-1].word])) {
			return nameStart(toks, o-1)
		}
		return o
	case tokWord, tokQuoted:
		return nameStart(toks, i)
	case tokOther:
		// a number is one token
		if w := toks[i].word; w == "" || w[0] < '0' || w[0] > '9' {
			return -1
		}
		return i
	}
	return -1
}

// nameStart walks back over a dotted name ending at token i.
func nameStart(toks []rwTok, i int) int {
	for i >= 2 && toks[i-1].kind == tokOther && toks[i-1].word == "." &&
		toks[i-1].end == toks[i].start && (toks[i-2].kind == tokWord || toks[i-2].kind == tokQuoted) && toks[i-2].end == toks[i-1].start {
		i -= 2
	}
	return i
}

// joinWords may follow a table without being its alias.
var joinWords = map[string]bool{"join": true, "left": true, "right": true, "inner": true, "full": true, "cross": true,
	"natural": true, "on": true, "using": true, "as": true, "with": true}

// clauseWords end a select list.
var clauseWords = map[string]bool{"from": true, "where": true, "group": true, "having": true, "order": true,
	"limit": true, "offset": true, "union": true, "intersect": true, "except": true, "window": true, "into": true, "qualify": true}

type providedCall struct {
	name   string
	end    int    // the call's last token
	nameFn string // for 'x'::regclass: the function that names the oid
}

// nameSelectItems gives a select-list item that is exactly a call of a
// provided function (now qualified) its PostgreSQL column name; a reg*
// cast of a literal standing alone there shows the object's name, as
// PostgreSQL prints it.
func nameSelectItems(toks []rwTok, provided map[int]providedCall, pre, post []string) {
	for i, c := range provided {
		if i == 0 || c.end < 0 || !inSelectList(toks, i-1) {
			continue
		}
		if next := c.end + 1; next < len(toks) {
			k := toks[next]
			if !(k.kind == tokSemi || k.kind == tokClose || (k.kind == tokWord && clauseWords[k.word]) || (k.kind == tokOther && k.word == ",")) {
				continue
			}
		}
		if c.nameFn != "" {
			pre[i] = PGCatalogSchema + "." + c.nameFn + "(" + pre[i]
			post[c.end] += ")"
		}
		post[c.end] += ` AS ` + QuoteIdent(c.name)
	}
}

// inSelectList reports whether token prev (just before an item) is SELECT,
// DISTINCT, ALL or a comma of a select list at the same depth.
func inSelectList(toks []rwTok, prev int) bool {
	k := clauseBack(toks, prev, func(w string) bool { return w == "select" || clauseWords[w] || w == "on" || w == "by" })
	if k < 0 || toks[k].word != "select" {
		return false
	}
	return k == prev || (k+1 == prev && (toks[prev].word == "distinct" || toks[prev].word == "all")) || toks[prev].word == ","
}

// clauseBack walks back from token prev at its parenthesis depth to the
// first word stop accepts: its index, or -1 at an enclosing parenthesis or
// the statement's start.
func clauseBack(toks []rwTok, prev int, stop func(word string) bool) int {
	depth := 0
	for k := prev; k >= 0; k-- {
		switch t := toks[k]; t.kind {
		case tokClose:
			depth++
		case tokOpen:
			if depth == 0 {
				return -1
			}
			depth--
		case tokWord:
			if depth == 0 && stop(t.word) {
				return k
			}
		}
	}
	return -1
}

// oneArgument reports whether the call's parentheses (open to closing)
// hold one argument: unnest(a) s names its column s, unnest(a, b) s(x, y)
// its columns.
func oneArgument(toks []rwTok, open, closing int) bool {
	if open+1 >= len(toks) || closing <= open+1 {
		return false
	}
	depth := 0
	for k := open + 1; k < closing; k++ {
		switch {
		case toks[k].kind == tokOpen, toks[k].kind == tokOther && toks[k].word == "[":
			depth++
		case toks[k].kind == tokClose, toks[k].kind == tokOther && toks[k].word == "]":
			depth--
		case depth == 0 && toks[k].kind == tokOther && toks[k].word == ",":
			return false
		}
	}
	return true
}

// inFromList reports whether the comma at prev separates FROM items:
// going back at its depth, the first clause word is FROM (not SELECT,
// ORDER BY, GROUP BY, …; ON and USING of a join are in the FROM list).
func inFromList(toks []rwTok, prev int) bool {
	k := clauseBack(toks, prev, func(w string) bool { return w == "from" || fromListEnds[w] })
	return k >= 0 && toks[k].word == "from"
}

// fromListEnds are the clause words before which a comma is not in a FROM
// list.
var fromListEnds = map[string]bool{"select": true, "where": true, "group": true, "order": true, "by": true,
	"having": true, "window": true, "limit": true, "offset": true, "returning": true, "set": true, "values": true,
	"into": true, "qualify": true}

// parenDepth is the parenthesis depth of token i.
func parenDepth(toks []rwTok, i int) int {
	d := 0
	for k := 0; k < i; k++ {
		switch toks[k].kind {
		case tokOpen:
			d++
		case tokClose:
			d--
		}
	}
	return d
}
