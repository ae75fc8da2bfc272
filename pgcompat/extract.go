package pgcompat

import (
	"strings"
	"unicode/utf8"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// EXTRACT(SECOND FROM x) and date_part('second', x) keep the fraction of
// the second in PostgreSQL (25.575401; milliseconds 25575.401); DuckDB's
// date_part of those fields is a whole BIGINT (25), a silent loss of
// the fraction. Both become DuckDB's microseconds of the minute scaled
// down: EXTRACT to numeric with PostgreSQL's scale (6 for seconds, 3 for
// milliseconds: 25.000000 for a whole second, as PostgreSQL 15 prints
// it), date_part to double precision, PostgreSQL's type for it. Other
// fields are left to DuckDB, whose values agree (EXTRACT as bigint where
// PostgreSQL 15 answers numeric; date_part cast to double precision),
// except date_part of an infinite date or timestamp, which is ±Infinity
// for the fields that grow with time (DuckDB answers NULL), and the year,
// ISO year and decade of a date before year 1, which PostgreSQL counts
// without a year 0 (1 BC is year -1; DuckDB's astronomical year is 0);
// make_date reads a negative year as PostgreSQL does, a year BC.

// secondFields maps the spellings PostgreSQL accepts for the two fields
// to the suffix of the macros (extractMacros) that compute them.
var secondFields = map[string]string{
	"second": "seconds", "seconds": "seconds", "sec": "seconds", "secs": "seconds", "s": "seconds",
	"millisecond": "ms", "milliseconds": "ms", "ms": "ms", "msec": "ms", "msecs": "ms",
	"msecond": "ms", "mseconds": "ms", "millisecon": "ms",
}

// monotonicFields are the spellings of the fields PostgreSQL answers
// ±Infinity for in date_part of an infinite date or timestamp (year,
// decade, century, millennium, Julian day, ISO year, epoch).
const monotonicFields = "'y', 'year', 'years', 'yr', 'yrs', 'dec', 'decade', 'decades', 'decs', 'c', 'cent', 'century', 'centuries', " +
	"'mil', 'millennia', 'millennium', 'mils', 'j', 'julian', 'isoyear', 'epoch'"

// decadeFields are the spellings of PostgreSQL's decade field.
const decadeFields = "'dec', 'decade', 'decades', 'decs'"

// yearFields are the fields EXTRACT and date_part read through
// pg_extract_year and pg_date_part_year: the years and decades before
// year 1, which PostgreSQL counts without a year 0. (Those macros call
// DuckDB's year of their argument, which a time cannot bind, as
// PostgreSQL refuses these fields of a time.)
var yearFields = map[string]bool{"y": true, "year": true, "years": true, "yr": true, "yrs": true, "isoyear": true,
	"dec": true, "decade": true, "decades": true, "decs": true}

// extractMacros compute the two fields from DuckDB's microseconds of the
// minute. Their names start pg_extract_ and pg_date_part_, which the
// server names result columns by (extract, date_part).
func extractMacros(schema string) []string {
	return []string{
		"CREATE OR REPLACE MACRO " + schema + ".pg_extract_seconds(x) AS date_part('microseconds', x) * 0.000001",
		"CREATE OR REPLACE MACRO " + schema + ".pg_extract_ms(x) AS date_part('microseconds', x) * 0.001",
		"CREATE OR REPLACE MACRO " + schema + ".pg_date_part_seconds(x) AS CAST(date_part('microseconds', x) * 0.000001 AS DOUBLE)",
		"CREATE OR REPLACE MACRO " + schema + ".pg_date_part_ms(x) AS CAST(date_part('microseconds', x) * 0.001 AS DOUBLE)",
		// the fields that grow with time are ±Infinity of an infinite
		// date or timestamp (DuckDB: NULL); the others stay NULL
		"CREATE OR REPLACE MACRO " + schema + ".pg_date_part(f, x) AS CASE WHEN x IS NOT NULL AND date_part(f, x) IS NULL AND lower(f) IN (" + monotonicFields + ") " +
			"THEN CASE WHEN starts_with(CAST(x AS VARCHAR), '-') THEN CAST('-infinity' AS DOUBLE) ELSE CAST('infinity' AS DOUBLE) END " +
			"ELSE CAST(date_part(f, x) AS DOUBLE) END",
		"CREATE OR REPLACE MACRO " + schema + ".pg_date_part_year(f, x) AS CASE WHEN x IS NOT NULL AND date_part(f, x) IS NULL " +
			"THEN CASE WHEN starts_with(CAST(x AS VARCHAR), '-') THEN CAST('-infinity' AS DOUBLE) ELSE CAST('infinity' AS DOUBLE) END " +
			"ELSE CAST(" + schema + ".pg_bc_year(f, x) AS DOUBLE) END",
		// years, ISO years and decades before year 1 of a date or
		// timestamp counted as PostgreSQL counts them (no year 0: the
		// year before 1 is -1, and its decade 0). DuckDB's year is
		// astronomical (0 for 1 BC), except of a timestamptz (ICU's), which
		// counts years BC up. Only values before year 1 take the slow
		// path: DuckDB's date_part('era') costs ~190 ns a row, a
		// test of the epoch (seconds before 0001-01-01 UTC) next to nothing.
		"CREATE OR REPLACE MACRO " + schema + ".pg_astro_year(x) AS CASE WHEN typeof(x) = 'TIMESTAMP WITH TIME ZONE' THEN 1 - year(x) ELSE year(x) END",
		"CREATE OR REPLACE MACRO " + schema + ".pg_bc_year(f, x) AS CASE " +
			"WHEN typeof(x) NOT IN ('DATE', 'TIMESTAMP', 'TIMESTAMP WITH TIME ZONE', 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS') OR epoch(x) >= -62135596800 THEN date_part(f, x) " +
			"WHEN lower(f) = 'isoyear' THEN CASE WHEN date_part(f, x) <= 0 THEN date_part(f, x) - 1 ELSE date_part(f, x) END " +
			"WHEN lower(f) IN (" + decadeFields + ") THEN -((8 - (" + schema + ".pg_astro_year(x) - 1)) // 10) " +
			"WHEN lower(f) IN ('y', 'year', 'years', 'yr', 'yrs') THEN " + schema + ".pg_astro_year(x) - 1 " +
			"ELSE date_part(f, x) END",
		"CREATE OR REPLACE MACRO " + schema + ".pg_extract_year(f, x) AS CAST(" + schema + ".pg_bc_year(f, x) AS BIGINT)",
		// make_date of a negative year is a year BC (-44 is 44 BC, DuckDB's
		// astronomical -43); year 0 does not exist
		"CREATE OR REPLACE MACRO " + schema + ".pg_make_date(y, m, d) AS make_date(CASE WHEN y < 0 THEN y + 1 WHEN y = 0 THEN " +
			"error('[vsql:datetime_field_overflow] date field value out of range: 0-' || lpad(CAST(m AS VARCHAR), 2, '0') || '-' || lpad(CAST(d AS VARCHAR), 2, '0')) ELSE y END, m, d)",
	}
}

// extractSeconds is the rule of extract and date_part (token i).
func extractSeconds(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	if p.matchForward(i+1) < i+4 {
		return // no argument after the field
	}
	field := p.text(i + 2)
	isExtract := strings.EqualFold(p.text(i), "extract")
	switch {
	case isExtract && p.kind(i+2) == sqltext.Word && p.isWord(i+3, "from"):
	case isExtract && p.plainString(i+2) && p.isWord(i+3, "from"),
		!isExtract && p.plainString(i+2) && p.isOp(i+3, ","):
		field = field[1 : len(field)-1]
	default:
		return
	}
	suffix, ok := secondFields[strings.ToLower(field)]
	if !ok {
		switch {
		case !isExtract && yearFields[strings.ToLower(field)]:
			p.replace(p.toks[i].Start, p.toks[i+1].End, schema+".pg_date_part_year(")
		case !isExtract: // date_part is double precision in PostgreSQL
			p.replace(p.toks[i].Start, p.toks[i+1].End, schema+".pg_date_part(")
		case yearFields[strings.ToLower(field)]:
			// EXTRACT(YEAR FROM x): the year before 1 is -1 (1 BC)
			p.replace(p.toks[i].Start, p.toks[i+4].Start, schema+".pg_extract_year("+sqltext.QuoteString(field)+", ")
		}
		return
	}
	macro := schema + ".pg_extract_" + suffix + "("
	if !isExtract {
		macro = schema + ".pg_date_part_" + suffix + "("
	}
	p.replace(p.toks[i].Start, p.toks[i+4].Start, macro)
}

// similarTo is the rule of similar (token i): x [NOT] SIMILAR TO
// 'pattern' [ESCAPE 'c']. DuckDB reads the pattern as a regular
// expression as it is, so % and _ matched themselves and . any character
// ('abcdefg' SIMILAR TO '_bcd%' was false); a literal pattern is
// translated as PostgreSQL translates it (similarRegex) and an ESCAPE
// clause, which DuckDB does not implement, is consumed. A pattern that
// is not a literal is left to DuckDB (docs/sql.md).
func similarTo(p *pass, i int) {
	if !p.isWord(i+1, "to") || p.kind(i+2) != sqltext.String {
		return
	}
	pattern, ok := stringBody(p.text(i + 2))
	if !ok {
		return
	}
	escape, end := `\`, i+2
	if p.isWord(i+3, "escape") && p.isWord(i+4, "null") {
		// ESCAPE NULL: the answer is NULL, as in PostgreSQL
		p.replace(p.toks[i+2].Start, p.toks[i+4].End, "CAST(NULL AS VARCHAR)")
		return
	}
	if p.isWord(i+3, "escape") {
		e, ok := stringBody(p.text(i + 4))
		if ok && p.kind(i+4) == sqltext.String && utf8.RuneCountInString(e) > 1 {
			p.fail(vsqlerr.New(vsqlerr.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character."))
			return
		}
		if !ok || p.kind(i+4) != sqltext.String || len(e) > 1 {
			return // NULL, an expression or a character of several bytes: DuckDB's error
		}
		escape, end = e, i+4
	}
	re, ok := similarRegex(pattern, escape)
	if !ok {
		return
	}
	p.replace(p.toks[i+2].Start, p.toks[end].End, sqltext.QuoteString(re))
}

// similarRegex translates a SIMILAR TO pattern to the regular expression
// DuckDB matches against the whole string, as PostgreSQL's similar_escape
// does: % is .*, _ is ., ( opens a group, the escape character makes the
// next character literal, bracket expressions are copied, and the
// characters that are special only in regular expressions (. ^ $ and
// backslash) are literal. escape is "" for none. It reports false for a
// pattern with escaped double quotes (SUBSTRING's markers), left as it is.
func similarRegex(pattern, escape string) (string, bool) {
	var b strings.Builder
	afterEscape, inClass := false, false
	for _, c := range pattern {
		switch {
		case afterEscape:
			afterEscape = false
			switch {
			case c == '"':
				return "", false
			case c == '_' || c > 127:
				b.WriteRune(c)
			default:
				b.WriteByte('\\')
				b.WriteRune(c)
			}
		case escape != "" && string(c) == escape:
			afterEscape = true
		case inClass:
			if c == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
			if c == ']' {
				inClass = false
			}
		case c == '[':
			b.WriteByte('[')
			inClass = true
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteByte('.')
		case c == '(':
			b.WriteString("(?:")
		case c == '\\' || c == '.' || c == '^' || c == '$':
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	if afterEscape {
		return "", false // PostgreSQL: invalid escape; DuckDB's error
	}
	return b.String(), true
}
