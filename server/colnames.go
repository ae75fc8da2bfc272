package server

import (
	"regexp"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL names an unaliased select item after what it is: a function
// call after its function (count(*) is "count"), a column reference or a
// cast of one after the column, anything else "?column?". DuckDB names it
// after the expression's text (count_star(), sum(amount), (a + b)).
// Clients read result columns by name (ORMs, dbt, BI tools), so unaliased
// items get PostgreSQL's names; aliased ones keep theirs.
var (
	callName = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*)\(.*\)$`)
	castOf   = regexp.MustCompile(`^CAST\(([A-Za-z_][A-Za-z0-9_]*) AS [^()]*(\([0-9, ]*\))?\)$`)
	literal  = regexp.MustCompile(`^(-?[0-9][0-9.eE+-]*|'.*'|\(.*\)|NULL|true|false)$`)
	// (x).f, a field of a composite: PostgreSQL names it after the field
	fieldOf = regexp.MustCompile(`^\(.*\)\.([A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")*")$`)
	// a literal cast to a type: PostgreSQL names it after the type
	literalCast = regexp.MustCompile(`^CAST\(('(?:[^']|'')*'|-?[0-9][0-9.eE+-]*|NULL|true|false|(?:main\.)?list_value\((?:'(?:[^']|'')*'|NULL|, )*\)) AS "?([A-Z][A-Z ]*)"?(\([0-9, ]*\))?((\[\])*)\)$`)
	// x::varchar(n): pgcompat's pg_varchar_cut(cast, n)
	varcharCut = regexp.MustCompile(`^` + regexp.QuoteMeta(sqltext.FunctionsSchema) + `\.pg_varchar_cut\((.*), [0-9]+\)$`)
	// x::bit(n), x::bit varying(n): pgcompat's pg_bit_cast(x, n) and
	// pg_varbit_cast(x, n); a literal cast to bit or varbit (B'…' and X'…'
	// constants are the cast of the letter and digits)
	bitCast = regexp.MustCompile(`^` + regexp.QuoteMeta(sqltext.FunctionsSchema) + `\.pg_(bit|varbit)_cast\((.*), -?[0-9]+\)$`)
	// sum over money (pgcompat.MoneySum): pg_sum(m), sum(DISTINCT m)
	// OVER w as a cast of the sum of pg_money_cents
	moneySum    = regexp.MustCompile(`^CAST\(sum\((DISTINCT |ALL )?` + regexp.QuoteMeta(sqltext.FunctionsSchema) + `\.pg_money_cents\(.* AS "?money"?\)$`)
	bitConstant = regexp.MustCompile(`^CAST\('([^']*)' AS "(pg_bit|varbit)"\)$`)
	// a cast to a domain, wrapped in the domain's check macro
	// (pgcompat/domains.go): PostgreSQL names it after the cast operand,
	// or after the domain when the operand has no name
	domainCall = regexp.MustCompile(`^(?:[A-Za-z_]+\.)?"?__vsql_domain_([^"(]*)"?\(CAST\((.*) AS [^()]*\)\)$`)
	// '…'::tsvector, x::tsquery, '…'::regconfig: pgcompat's input
	// function around the cast to VARCHAR (pgcompat/tsearch.go)
	tsCast = regexp.MustCompile(`^` + regexp.QuoteMeta(sqltext.FunctionsSchema) + `\.pg_(tsvector|tsquery|regconfig)(?:_in)?\((CAST\((.*) AS VARCHAR\))\)$`)
	// a call of a function whose name DuckDB quotes ("unbounded"(4))
	quotedCall = regexp.MustCompile(`^(?:main\.)?"([a-z_][a-z0-9_]*)"\(.*\)$`)
	// a column reference, qualified or not, its parts plain or quoted
	columnRef = regexp.MustCompile(`^(?:(?:[A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")*")\.)*(?:[A-Za-z_][A-Za-z0-9_]*|"(?:[^"]|"")*")$`)
)

// castParts splits DuckDB's text of a cast, CAST(x AS t), at its
// top-level AS.
func castParts(duck string) (inner, typ string, ok bool) {
	rest, found := strings.CutPrefix(duck, "CAST(")
	if !found || !strings.HasSuffix(rest, ")") {
		return "", "", false
	}
	rest = rest[:len(rest)-1]
	depth, quote := 0, byte(0)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0 // a doubled quote closes and opens again
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case depth == 0 && strings.HasPrefix(rest[i:], " AS "):
			return rest[:i], rest[i+4:], true
		}
	}
	return "", "", false
}

// unquoteRef is the last part of a column reference, unquoted.
func unquoteRef(ref string) string {
	if !columnRef.MatchString(ref) {
		return ref
	}
	last := ref
	if strings.HasSuffix(ref, `"`) {
		if i := strings.LastIndex(ref[:len(ref)-1], `."`); i >= 0 {
			last = ref[i+1:]
		}
	} else if i := strings.LastIndexByte(ref, '.'); i >= 0 {
		last = ref[i+1:]
	}
	if strings.HasPrefix(last, `"`) && strings.HasSuffix(last, `"`) && len(last) >= 2 {
		return strings.ReplaceAll(last[1:len(last)-1], `""`, `"`)
	}
	return last
}

// typeNamed reports whether duck is a cast named after its type, its
// operand having no name of its own ('1'::text): PostgreSQL's
// FigureColname gives that name the weakest strength, so a cast of it is
// named after the outer type ('1'::text::int4 is "int4").
func typeNamed(duck string) bool {
	inner, _, ok := castParts(duck)
	if !ok {
		return false
	}
	name := postgresColumnName(inner)
	return name == "?column?" || name == inner && !columnRef.MatchString(inner) || typeNamed(inner)
}

// typeColumnNames are PostgreSQL's names of DuckDB's types, for a literal
// cast to one ('1'::int is "int4", '…'::timestamptz "timestamptz").
var typeColumnNames = map[string]string{"INTEGER": "int4", "BIGINT": "int8", "SMALLINT": "int2", "BOOLEAN": "bool",
	"DOUBLE": "float8", "FLOAT": "float4", "DECIMAL": "numeric", "VARCHAR": "varchar", "DATE": "date", "TIME": "time",
	"TIMESTAMP": "timestamp", "TIMESTAMP WITH TIME ZONE": "timestamptz", "TIME WITH TIME ZONE": "timetz",
	"INTERVAL": "interval", "JSON": "jsonb", "UUID": "uuid", "BLOB": "bytea", "money": "money", "pg_json": "json"}

// paramText is a parameter castUnresolved cast to text.
var paramText = regexp.MustCompile(`^TRY_CAST\(\$[0-9]+ AS VARCHAR\)$`)

func postgresColumnName(duck string) string {
	switch {
	case strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_extract_"), strings.HasPrefix(duck, "main.date_part("):
		return "extract" // EXTRACT(f FROM x), which DuckDB binds as date_part
	case strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_date_part"):
		return "date_part"
	case strings.HasPrefix(duck, "regexp_full_match("), strings.HasPrefix(duck, sqltext.PGCatalogSchema+".vsql_any_eq("),
		strings.Contains(duck, sqltext.FunctionsSchema+".pg_regex_op("),
		strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_jsonpath_"):
		return "?column?" // x ~ y, x SIMILAR TO y, x = ANY (…)
	case strings.HasPrefix(duck, "main.like_escape("), strings.HasPrefix(duck, "main.not_like_escape("),
		strings.HasPrefix(duck, "main.ilike_escape("), strings.HasPrefix(duck, "main.not_ilike_escape("):
		return "?column?" // x LIKE p ESCAPE e, as pgcompat's likeEscape writes x LIKE p
	case strings.HasPrefix(duck, "~(") && strings.HasSuffix(duck, ")"):
		return "?column?" // ~x, a prefix operator
	case strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_hypothetical_"):
		// rank(a) WITHIN GROUP (…) and its kin
		name := strings.TrimPrefix(duck, sqltext.FunctionsSchema+".pg_hypothetical_")
		return name[:strings.IndexByte(name+"(", '(')]
	case strings.HasPrefix(duck, "main.timezone("):
		return "timezone" // x AT TIME ZONE z
	case strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_make_timestamptz("):
		return "make_timestamptz"
	case strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_typeof("):
		return "pg_typeof"
	case strings.HasPrefix(duck, sqltext.NextvalFunction+"("), strings.HasPrefix(duck, "main."+sqltext.NextvalFunction+"("):
		return "nextval" // the session's nextval, currval and lastval (seqvalues.go)
	case strings.HasPrefix(duck, sqltext.CurrvalFunction+"("), strings.HasPrefix(duck, "main."+sqltext.CurrvalFunction+"("):
		return "currval"
	case strings.HasPrefix(duck, sqltext.LastvalFunction+"("), strings.HasPrefix(duck, "main."+sqltext.LastvalFunction+"("):
		return "lastval"
	case strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_sum("), moneySum.MatchString(duck),
		strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_interval_of(sum("):
		return "sum" // sum over money (pgcompat.MoneySum) or interval (pgcompat.IntervalSumCall), also OVER (…)
	case strings.HasPrefix(duck, `main.list_apply("range"(`) && strings.Contains(duck, "(lambda __vsql_i: "):
		return "array_fill" // pgcompat's comprehension for array_fill
	case strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_tsvector_length("):
		return "length" // length(tsvector)
	case paramText.MatchString(duck):
		return "?column?" // SELECT $1: the parameter castUnresolved typed as text
	case strings.HasPrefix(duck, "CASE ") && strings.HasSuffix(duck, " END"):
		return "case" // FigureColname's name of a CASE expression
	case strings.HasPrefix(duck, "__vsql_pgjson(") && strings.HasSuffix(duck, "')"),
		strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_jsonb_built(") && strings.HasSuffix(duck, "')"):
		// json_build_object, json_agg, to_json and their kin
		// (pgcompat/jsontext.go): the name is the last argument
		if k := strings.LastIndex(duck, ", '"); k > 0 {
			return duck[k+3 : len(duck)-2]
		}
	}
	if m := tsCast.FindStringSubmatch(duck); m != nil {
		if literal.MatchString(m[3]) {
			return m[1] // a literal: named after the type
		}
		return postgresColumnName(m[3])
	}
	if m := bitCast.FindStringSubmatch(duck); m != nil {
		if name := postgresColumnName(m[2]); name != "?column?" {
			return name // b::bit(3) is "b"
		}
		return m[1] // '0101'::bit(4) is "bit"
	}
	if m := bitConstant.FindStringSubmatch(duck); m != nil {
		if m[2] == "varbit" {
			return "varbit"
		}
		if m[1] == "" || m[1][0] == '0' || m[1][0] == '1' {
			return "bit" // bit '0101'
		}
		return "?column?" // B'0101', X'1F'
	}
	// x::varchar(n), cut to n characters by a macro around the cast
	if m := varcharCut.FindStringSubmatch(duck); m != nil {
		return postgresColumnName(m[1])
	}
	if m := domainCall.FindStringSubmatch(duck); m != nil {
		// (a cast of a cast, '…'::timestamptz::d, is named after the
		// outer type, as PostgreSQL's FigureColname does)
		if name := postgresColumnName(m[2]); name != "?column?" && (!strings.HasPrefix(m[2], "CAST(") || castOf.MatchString(m[2])) {
			return name
		}
		return m[1]
	}
	if m := literalCast.FindStringSubmatch(duck); m != nil {
		if name, ok := typeColumnNames[m[2]]; ok {
			return name
		}
	}
	if m := quotedCall.FindStringSubmatch(duck); m != nil {
		return m[1]
	}
	if strings.HasPrefix(duck, sqltext.FunctionsSchema+".pg_") || strings.HasPrefix(duck, sqltext.PGCatalogSchema+".pg_") {
		return "?column?" // an operator pgcompat rewrote into a call (@>, ?, #>)
	}
	// current_user, session_user and current_role, rewritten into calls
	// of macros in the catalog schema (sqltext.RewritePostgres)
	if rest, ok := strings.CutPrefix(duck, sqltext.PGCatalogSchema+".vsql_"); ok && strings.HasSuffix(rest, "()") {
		duck = "vsql_" + rest
	}
	if m := castOf.FindStringSubmatch(duck); m != nil {
		return m[1]
	}
	if inner, typ, ok := castParts(duck); ok {
		// PostgreSQL's FigureColname: a cast is named after its operand
		// when that has a name (a column, a function, a cast of one),
		// else after the type
		if name := postgresColumnName(inner); name != "?column?" && (name != inner || columnRef.MatchString(inner)) && !typeNamed(inner) {
			return unquoteRef(name)
		}
		base := strings.Trim(strings.TrimRight(typ, "[]"), `"`)
		if i := strings.IndexByte(base, '('); i > 0 {
			base = base[:i]
		}
		if name, ok := typeColumnNames[base]; ok {
			return name
		}
		return "?column?"
	}
	if m := fieldOf.FindStringSubmatch(duck); m != nil {
		if f := m[1]; strings.HasPrefix(f, `"`) {
			return strings.ReplaceAll(f[1:len(f)-1], `""`, `"`)
		}
		return strings.ToLower(m[1])
	}
	switch {
	case (strings.HasPrefix(duck, `"row"(`) || strings.HasPrefix(duck, `main."row"(`)) && strings.HasSuffix(duck, ")"):
		return "row" // (a, b), row(a, b)
	case (strings.HasPrefix(duck, "main.list_value(") || strings.HasPrefix(duck, "list_value(")) && strings.HasSuffix(duck, ")"),
		strings.HasPrefix(duck, "[") && strings.HasSuffix(duck, "]"),
		strings.HasPrefix(duck, "(ARRAY[") && strings.HasSuffix(duck, "])"):
		return "array" // ARRAY[a, b]
	}
	if m := callName.FindStringSubmatch(duck); m != nil {
		name := strings.ToLower(m[1])
		switch name {
		case "count_star":
			return "count"
		case "vsql_current_user":
			return "current_user"
		case "vsql_session_user":
			return "session_user"
		case "vsql_current_role":
			return "current_role"
		case "cast", "try_cast":
			return "?column?"
		}
		return name
	}
	if literal.MatchString(duck) {
		return "?column?"
	}
	return duck
}
