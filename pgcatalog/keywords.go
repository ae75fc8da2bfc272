package pgcatalog

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL 15's keywords by category, as its pg_get_keywords() lists them
// (U unreserved, C unreserved but not a function or type name, T reserved
// but a function or type name, R reserved), and the ones that need AS
// to be a column label. Clients (pgjdbc, sqlline) quote identifiers with
// this list, so it is PostgreSQL's own, not DuckDB's (duckdb_keywords).
var pgKeywords = map[string]string{
	"U": `abort absolute access action add admin after aggregate also alter always asensitive assertion
		assignment at atomic attach attribute backward before begin breadth by cache call called cascade
		cascaded catalog chain characteristics checkpoint class close cluster columns comment comments
		commit committed compression configuration conflict connection constraints content continue
		conversion copy cost csv cube current cursor cycle data database day deallocate declare defaults
		deferred definer delete delimiter delimiters depends depth detach dictionary disable discard
		document domain double drop each enable encoding encrypted enum escape event exclude excluding
		exclusive execute explain expression extension external family filter finalize first following
		force forward function functions generated global granted groups handler header hold hour identity
		if immediate immutable implicit import include including increment index indexes inherit inherits
		inline input insensitive insert instead invoker isolation key label language large last leakproof
		level listen load local location lock locked logged mapping match matched materialized maxvalue
		merge method minute minvalue mode month move name names new next nfc nfd nfkc nfkd no normalized
		nothing notify nowait nulls object of off oids old operator option options ordinality others over
		overriding owned owner parallel parameter parser partial partition passing password plans policy
		preceding prepare prepared preserve prior privileges procedural procedure procedures program
		publication quote range read reassign recheck recursive ref referencing refresh reindex relative
		release rename repeatable replace replica reset restart restrict return returns revoke role
		rollback rollup routine routines rows rule savepoint schema schemas scroll search second security
		sequence sequences serializable server session set sets share show simple skip snapshot sql stable
		standalone start statement statistics stdin stdout storage stored strict strip subscription support
		sysid system tables tablespace temp template temporary text ties transaction transform trigger
		truncate trusted type types uescape unbounded uncommitted unencrypted unknown unlisten unlogged
		until update vacuum valid validate validator value varying version view views volatile whitespace
		within without work wrapper write xml year yes zone
`,
	"C": `between bigint bit boolean char character coalesce dec decimal exists extract float greatest
		grouping inout int integer interval least national nchar none normalize nullif numeric out overlay
		position precision real row setof smallint substring time timestamp treat trim values varchar
		xmlattributes xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot
		xmlserialize xmltable
`,
	"T": `authorization binary collation concurrently cross current_schema freeze full ilike inner is isnull
		join left like natural notnull outer overlaps right similar tablesample verbose
`,
	"R": `all analyse analyze and any array as asc asymmetric both case cast check collate column constraint
		create current_catalog current_date current_role current_time current_timestamp current_user
		default deferrable desc distinct do else end except false fetch for foreign from grant group having
		in initially intersect into lateral leading limit localtime localtimestamp not null offset on only
		or order placing primary references returning select session_user some symmetric table then to
		trailing true union unique user using variadic when where window with
`,
}

const pgKeywordsAsLabel = `array as char character create day except fetch filter for from grant group having hour intersect
	into isnull limit minute month notnull offset on order over overlaps precision returning second to
	union varying where window with within without year
`

// pg_get_keywords is a table macro: bare or qualified by pg_catalog, a call
// is sent to the schema it lives in.
func init() { sqltext.ProvideTableFunctions("pg_get_keywords") }

// keywordsSQL creates pg_get_keywords() with PostgreSQL's columns: word,
// catcode, barelabel, catdesc, baredesc.
func keywordsSQL() string {
	var parts []string
	for _, c := range []string{"U", "C", "T", "R"} {
		parts = append(parts, "SELECT unnest(string_split("+sqltext.QuoteString(strings.Join(strings.Fields(pgKeywords[c]), " "))+", ' ')) AS word, '"+c+"' AS catcode")
	}
	asLabel := sqltext.QuoteString(strings.Join(strings.Fields(pgKeywordsAsLabel), " "))
	return `CREATE OR REPLACE MACRO {P}.pg_get_keywords() AS TABLE SELECT word, catcode,
		NOT list_contains(string_split(` + asLabel + `, ' '), word) AS barelabel,
		CASE catcode WHEN 'U' THEN 'unreserved' WHEN 'C' THEN 'unreserved (cannot be function or type name)'
			WHEN 'T' THEN 'reserved (can be function or type name)' ELSE 'reserved' END AS catdesc,
		CASE WHEN list_contains(string_split(` + asLabel + `, ' '), word) THEN 'requires AS' ELSE 'can be bare label' END AS baredesc
		FROM (` + strings.Join(parts, " UNION ALL ") + `) ORDER BY word`
}

// quotedKeywords are the keywords quote_ident and format's %I quote: all
// but the unreserved ones.
var quotedKeywords = func() map[string]bool {
	m := map[string]bool{}
	for _, cat := range []string{"C", "T", "R"} {
		for _, w := range strings.Fields(pgKeywords[cat]) {
			m[w] = true
		}
	}
	return m
}()

// KeywordNeedsQuote reports whether PostgreSQL 15 quotes word, a
// lower-case identifier, as an identifier (quote_ident): it is a keyword
// other than an unreserved one.
func KeywordNeedsQuote(word string) bool { return quotedKeywords[word] }
