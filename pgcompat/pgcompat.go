package pgcompat

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/sqltext"
)

// schema holds the macros the rewritten statements call (created once per
// process by Setup, beside package pgcatalog's objects).
const schema = sqltext.FunctionsSchema

// setup is what Setup creates.
var setup = []string{
	// A divisor of / or %: zero is an error, as in PostgreSQL (DuckDB
	// returns NULL or Infinity). The error travels as a vsql code.
	// x [NOT] [I]LIKE ANY/ALL (array) (likeany.go): each comparison, then
	// PostgreSQL's three-valued ANY and ALL
	`CREATE OR REPLACE MACRO ` + schema + `.pg_like_any(x, a, ci, neg) AS CASE WHEN a IS NULL THEN NULL
		WHEN list_bool_or(list_transform(a, lambda p: (CASE WHEN ci THEN x ILIKE p ELSE x LIKE p END) <> neg)) THEN true
		WHEN len(list_filter(list_transform(a, lambda p: (CASE WHEN ci THEN x ILIKE p ELSE x LIKE p END) <> neg), lambda e: e IS NULL)) > 0 THEN NULL
		ELSE false END`,
	// rank(a) WITHIN GROUP (ORDER BY x) and the other hypothetical-set
	// aggregates over list(x) (hypothetical): a row x sorts before the
	// hypothetical row a
	`CREATE OR REPLACE MACRO ` + schema + `.pg_hypothetical_before(x, a, d, nf) AS coalesce(CASE WHEN nf THEN x IS NULL AND a IS NOT NULL
		ELSE a IS NULL AND x IS NOT NULL END OR (CASE WHEN d THEN x > a ELSE x < a END), false)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_hypothetical_rank(a, xs, d, nf) AS
		CAST(1 + len(list_filter(xs, lambda x: ` + schema + `.pg_hypothetical_before(x, a, d, nf))) AS BIGINT)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_hypothetical_dense_rank(a, xs, d, nf) AS
		CAST(1 + len(list_distinct(list_filter(xs, lambda x: ` + schema + `.pg_hypothetical_before(x, a, d, nf))))
			+ CASE WHEN nf AND a IS NOT NULL AND len(list_filter(xs, lambda x: x IS NULL)) > 0 THEN 1 ELSE 0 END AS BIGINT)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_hypothetical_percent_rank(a, xs, d, nf) AS CASE WHEN len(xs) = 0 THEN CAST(0 AS DOUBLE)
		ELSE CAST(len(list_filter(xs, lambda x: ` + schema + `.pg_hypothetical_before(x, a, d, nf))) AS DOUBLE) / len(xs) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_hypothetical_cume_dist(a, xs, d, nf) AS
		CAST(len(list_filter(xs, lambda x: ` + schema + `.pg_hypothetical_before(x, a, d, nf) OR x IS NOT DISTINCT FROM a)) + 1 AS DOUBLE) / (len(xs) + 1)`,
	// x ~ ANY (array), x !~* ALL (array), … (likeAny)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regex_any(x, a, ci, neg) AS CASE WHEN a IS NULL THEN NULL
		WHEN list_bool_or(list_transform(a, lambda p: (CASE WHEN ci THEN regexp_matches(x, p, 'i') ELSE regexp_matches(x, p) END) <> neg)) THEN true
		WHEN len(list_filter(list_transform(a, lambda p: (CASE WHEN ci THEN regexp_matches(x, p, 'i') ELSE regexp_matches(x, p) END) <> neg), lambda e: e IS NULL)) > 0 THEN NULL
		ELSE false END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regex_all(x, a, ci, neg) AS CASE WHEN a IS NULL THEN NULL
		WHEN len(list_filter(list_transform(a, lambda p: (CASE WHEN ci THEN regexp_matches(x, p, 'i') ELSE regexp_matches(x, p) END) <> neg), lambda e: NOT e)) > 0 THEN false
		WHEN len(list_filter(list_transform(a, lambda p: (CASE WHEN ci THEN regexp_matches(x, p, 'i') ELSE regexp_matches(x, p) END) <> neg), lambda e: e IS NULL)) > 0 THEN NULL
		ELSE true END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_like_all(x, a, ci, neg) AS CASE WHEN a IS NULL THEN NULL
		WHEN len(list_filter(list_transform(a, lambda p: (CASE WHEN ci THEN x ILIKE p ELSE x LIKE p END) <> neg), lambda e: NOT e)) > 0 THEN false
		WHEN len(list_filter(list_transform(a, lambda p: (CASE WHEN ci THEN x ILIKE p ELSE x LIKE p END) <> neg), lambda e: e IS NULL)) > 0 THEN NULL
		ELSE true END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_json_key(k) AS CASE WHEN k IS NULL THEN error('[vsql:invalid_argument] field name must not be null') ELSE CAST(to_json(CAST(k AS VARCHAR)) AS VARCHAR) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_divisor(x) AS CASE WHEN x = 0 THEN error('[vsql:division_by_zero] division by zero') ELSE x END,
		(x, dividend) AS CASE WHEN x = 0 AND dividend IS NOT NULL THEN error('[vsql:division_by_zero] division by zero') ELSE x END`,
	// x ^ y and power(x, y): PostgreSQL's errors where DuckDB answers
	// Infinity or NaN (exponent)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_exponent(e, b) AS CASE
		WHEN b = 0 AND e < 0 THEN error('[vsql:invalid_power] zero raised to a negative power is undefined')
		WHEN b < 0 AND e <> floor(e) THEN error('[vsql:invalid_power] a negative number raised to a non-integer power yields a complex result')
		ELSE e END`,
	// jsonb's containment, @> and <@ (also lists, as JSON arrays).
	// |/ x and ||/ x, square and cube root (rootOp)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_sqrt(x) AS sqrt(x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_cbrt(x) AS cbrt(x)`,
	// jsonb's containment as PostgreSQL decides it (jsoncontains.go):
	// DuckDB's json_contains answers true for a superset of the pairs
	// (it also looks deeper), except where numbers are written apart (25
	// and 25.0), so the Go test runs on its matches and, when the template
	// has a number, where either side has a '.' (not on 1e2 against 100)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_contains(a, b) AS CASE
		WHEN json_contains(CAST(a AS JSON), CAST(b AS JSON)) OR regexp_matches(CAST(CAST(b AS JSON) AS VARCHAR), '[0-9]')
			AND (contains(CAST(CAST(a AS JSON) AS VARCHAR), '.') OR contains(CAST(CAST(b AS JSON) AS VARCHAR), '.'))
		THEN __vsql_jsonb_contains(CAST(CAST(a AS JSON) AS VARCHAR), CAST(CAST(b AS JSON) AS VARCHAR))
		WHEN a IS NOT NULL AND b IS NOT NULL THEN false END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_contained(a, b) AS ` + schema + `.pg_contains(b, a)`,
	// jsonb's existence, ? ?| ?&: the strings at the top level of a value
	// (an object's keys, an array's string elements, a string itself).
	`CREATE OR REPLACE MACRO ` + schema + `.pg_json_strings(j) AS CASE json_type(j) WHEN 'OBJECT' THEN json_keys(j)
		WHEN 'ARRAY' THEN list_transform(list_filter(CAST(json_extract(j, '$[*]') AS JSON[]), lambda x: json_type(x) = 'VARCHAR'), lambda x: x->>'$')
		WHEN 'VARCHAR' THEN [j->>'$'] ELSE [] END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_exists(j, k) AS CASE WHEN j IS NULL OR CAST(k AS VARCHAR) IS NULL THEN NULL
		ELSE list_contains(` + schema + `.pg_json_strings(CAST(j AS JSON)), CAST(k AS VARCHAR)) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_exists_any(j, ks) AS CASE WHEN j IS NULL OR CAST(ks AS VARCHAR[]) IS NULL THEN NULL
		ELSE list_has_any(` + schema + `.pg_json_strings(CAST(j AS JSON)), CAST(ks AS VARCHAR[])) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_exists_all(j, ks) AS CASE WHEN j IS NULL OR CAST(ks AS VARCHAR[]) IS NULL THEN NULL
		ELSE list_has_all(` + schema + `.pg_json_strings(CAST(j AS JSON)), CAST(ks AS VARCHAR[])) END`,
	// jsonb's paths, #> and #>>: each element a key of an object or an
	// index of an array (negative from the end); a NULL element gives NULL.
	// (jsontext.go: Go functions of json, jsonb and text, the element's
	// text as the value holds it, json's as written)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_path(j, p) AS __vsql_path(j, CAST(p AS VARCHAR[]))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_path_text(j, p) AS __vsql_path_text(j, CAST(p AS VARCHAR[]))`,
	// A text[] literal of a path ('{a,b}', '{"a b",c}'): elements split at
	// commas, double quotes removed.
	`CREATE OR REPLACE MACRO ` + schema + `.pg_text_array(s) AS CASE WHEN trim(s) = '{}' THEN []::VARCHAR[]
		ELSE list_transform(string_split(trim(trim(s), '{}'), ','), lambda e: trim(trim(e), '"')) END`,
	// PostgreSQL's formatting functions, in Go (udf.go); to_timestamp of
	// one number is DuckDB's (seconds since the epoch, as PostgreSQL's).
	`CREATE OR REPLACE MACRO ` + schema + `.to_char(x, f) AS __vsql_to_char(x, f, coalesce(getvariable('vsql_timezone'), current_setting('TimeZone')))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_overlaps(s1, e1, s2, e2) AS __vsql_overlaps(s1, e1, s2, e2, coalesce(getvariable('vsql_timezone'), current_setting('TimeZone')))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_to_timestamp(x) AS to_timestamp(x), (s, f) AS __vsql_to_timestamp(s, f)`,
	`CREATE OR REPLACE MACRO ` + schema + `.to_date(s, f) AS __vsql_to_date(s, f)`,
	`CREATE OR REPLACE MACRO ` + schema + `.to_number(s, f) AS __vsql_to_number(s, f)`,
	// regular expressions (regexfuncs.go)
	`CREATE OR REPLACE MACRO ` + schema + `.regexp_count(s, p) AS __vsql_regexp_count(s, p, 1, ''),
		(s, p, st) AS __vsql_regexp_count(s, p, st, ''), (s, p, st, fl) AS __vsql_regexp_count(s, p, st, fl)`,
	`CREATE OR REPLACE MACRO ` + schema + `.regexp_instr(s, p) AS __vsql_regexp_instr(s, p, 1, 1, '', 0, 0),
		(s, p, st) AS __vsql_regexp_instr(s, p, st, 1, '', 0, 0),
		(s, p, st, n) AS __vsql_regexp_instr(s, p, st, n, '', 0, 0),
		(s, p, st, n, e) AS __vsql_regexp_instr(s, p, st, n, '', 0, e),
		(s, p, st, n, e, fl) AS __vsql_regexp_instr(s, p, st, n, fl, 0, e),
		(s, p, st, n, e, fl, sub) AS __vsql_regexp_instr(s, p, st, n, fl, sub, e)`,
	`CREATE OR REPLACE MACRO ` + schema + `.regexp_substr(s, p) AS __vsql_regexp_substr(s, p, 1, 1, '', 0),
		(s, p, st) AS __vsql_regexp_substr(s, p, st, 1, '', 0),
		(s, p, st, n) AS __vsql_regexp_substr(s, p, st, n, '', 0),
		(s, p, st, n, fl) AS __vsql_regexp_substr(s, p, st, n, fl, 0),
		(s, p, st, n, fl, sub) AS __vsql_regexp_substr(s, p, st, n, fl, sub)`,
	// regexp_replace(s, p, r) keeps DuckDB's; with a start, n or flags
	// PostgreSQL's (a fourth argument is flags when it is text)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regexp_replace(s, p, r) AS __vsql_regexp_replace(s, p, r, 1, 1, '', false),
		(s, p, r, x) AS CASE WHEN typeof(x) = 'VARCHAR' THEN __vsql_regexp_replace(s, p, r, 1, 1, CAST(x AS VARCHAR), false)
			ELSE __vsql_regexp_replace(s, p, r, TRY_CAST(x AS BIGINT), 1, '', false) END,
		(s, p, r, st, n) AS __vsql_regexp_replace(s, p, r, st, n, '', true),
		(s, p, r, st, n, fl) AS __vsql_regexp_replace(s, p, r, st, n, fl, true)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_substring_regex(s, p) AS __vsql_substring_regex(s, p)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_substring_similar(s, p, e) AS __vsql_substring_similar(s, p, e)`,
	// bit strings (bitstring.go): x::bit(n), x::bit varying(n), a # b
	`CREATE OR REPLACE MACRO ` + schema + `.pg_bit_cast(x, n) AS __vsql_bit_cast(x, n)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_varbit_cast(x, n) AS __vsql_varbit_cast(x, n)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_xor(a, b) AS xor(a, b)`,
	// sum over money (money.go, MoneySum): the cents summed as a
	// DECIMAL(38,2), DuckDB's sum of anything else (a macro's typed
	// parameter picks the overload)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_money_cents(x ` + MoneyType + `) AS CAST(x AS DECIMAL(38,2))`,
	// nth_value(x, n) with n <= 0 (windowframe.go)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_nth_arg(n) AS CASE WHEN n <= 0 THEN error('[vsql:invalid_argument_for_nth_value] argument of nth_value must be greater than zero') ELSE n END`,
	// sum over interval (intervalsum.go): PostgreSQL adds the months,
	// days and microseconds apart, so each field is summed on its own
	// (DuckDB's datepart of an interval: hours are not taken modulo 24)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_interval_months(x INTERVAL) AS datepart('year', x) * 12 + datepart('month', x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_interval_days(x INTERVAL) AS datepart('day', x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_interval_micros(x INTERVAL) AS datepart('hour', x) * 3600000000 + datepart('minute', x) * 60000000 + datepart('microseconds', x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_interval_of(m, d, us) AS CASE
		WHEN m NOT BETWEEN -2147483648 AND 2147483647 OR d NOT BETWEEN -2147483648 AND 2147483647 OR us NOT BETWEEN -9223372036854775808 AND 9223372036854775807
		THEN error('[vsql:datetime_field_overflow] interval out of range')
		ELSE to_months(CAST(m AS INTEGER)) + to_days(CAST(d AS INTEGER)) + to_microseconds(CAST(us AS BIGINT)) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_sum(x ` + MoneyType + `) AS CAST(sum(` + schema + `.pg_money_cents(x)) AS ` + MoneyType + `),
		(x INTERVAL) AS ` + schema + `.pg_interval_of(sum(` + schema + `.pg_interval_months(x)), sum(` + schema + `.pg_interval_days(x)), sum(` + schema + `.pg_interval_micros(x))),
		(x) AS sum(x)`,
	// substr and substring of text and bytea at PostgreSQL's positions:
	// characters from max(n, 1) up to n + m (exclusive; DuckDB's
	// substring counts a negative n from the end); a negative m is an
	// error. DuckDB's array_slice keeps text text and a blob a blob.
	`CREATE OR REPLACE MACRO ` + schema + `.pg_substr(s, n) AS array_slice(s, CASE WHEN n < 1 THEN 1 ELSE n END, 9223372036854775807),
		(s, n, m) AS CASE WHEN m < 0 THEN error('[vsql:substring_error] negative substring length not allowed')
			ELSE array_slice(s, CASE WHEN n < 1 THEN 1 ELSE n END, CASE WHEN CAST(n AS BIGINT) + m - 1 < 0 THEN 0 ELSE CAST(n AS BIGINT) + m - 1 END) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_substring(s, n) AS ` + schema + `.pg_substr(s, n), (s, n, m) AS ` + schema + `.pg_substr(s, n, m)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regexp_split_to_array(s, p) AS __vsql_regexp_split(s, p, ''), (s, p, fl) AS __vsql_regexp_split(s, p, fl)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regexp_split_to_table(s, p) AS unnest(__vsql_regexp_split(s, p, '')),
		(s, p, fl) AS unnest(__vsql_regexp_split(s, p, fl))`,
	// string_to_array and string_to_table: a NULL delimiter splits into
	// characters, an empty one gives the whole string; null_string
	// elements become NULL
	`CREATE OR REPLACE MACRO ` + schema + `.pg_string_split(s, d, n) AS list_transform(CASE WHEN s IS NULL THEN NULL WHEN s = '' THEN []
		WHEN d IS NULL THEN string_split(s, '') WHEN d = '' THEN [s] ELSE string_split(s, d) END,
		lambda e: CASE WHEN e = n THEN NULL ELSE e END)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_string_to_array(s, d) AS ` + schema + `.pg_string_split(s, d, NULL),
		(s, d, n) AS ` + schema + `.pg_string_split(s, d, n)`,
	`CREATE OR REPLACE MACRO ` + schema + `.string_to_table(s, d) AS unnest(` + schema + `.pg_string_split(s, d, NULL)),
		(s, d, n) AS unnest(` + schema + `.pg_string_split(s, d, n))`,
	// an empty fill pads nothing (PostgreSQL; DuckDB refuses it)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_lpad(s, n) AS lpad(s, n, ' '), (s, n, f) AS CASE WHEN f = '' THEN left(s, greatest(n, 0)) ELSE lpad(s, n, f) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_rpad(s, n) AS rpad(s, n, ' '), (s, n, f) AS CASE WHEN f = '' THEN left(s, greatest(n, 0)) ELSE rpad(s, n, f) END`,
	// overlay of text or bytea (a blob's length is its bytes)
	`CREATE OR REPLACE MACRO ` + schema + `.overlay(s, r, n) AS CASE WHEN n < 1 THEN error('[vsql:substring_error] negative substring length not allowed')
			ELSE ` + schema + `.pg_substr(s, 1, n - 1) || r || ` + schema + `.pg_substr(s, n + CASE WHEN typeof(r) = 'BLOB' THEN octet_length(CAST(r AS BLOB)) ELSE length(CAST(r AS VARCHAR)) END) END,
		(s, r, n, m) AS CASE WHEN n < 1 THEN error('[vsql:substring_error] negative substring length not allowed')
			ELSE ` + schema + `.pg_substr(s, 1, n - 1) || r || ` + schema + `.pg_substr(s, n + m) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.date_bin(stride, t, origin) AS CASE
		WHEN datepart('month', CAST(stride AS INTERVAL)) <> 0 OR datepart('year', CAST(stride AS INTERVAL)) <> 0
			THEN error('[vsql:feature_not_supported] timestamps cannot be binned into intervals containing months or years')
		WHEN CAST(stride AS INTERVAL) <= INTERVAL 0 SECOND THEN error('[vsql:invalid_argument] stride must be greater than zero')
		ELSE time_bucket(CAST(stride AS INTERVAL), t, origin) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.regexp_like(s, p) AS __vsql_regexp_like(s, p, ''), (s, p, fl) AS __vsql_regexp_like(s, p, fl)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regexp_matches(s, p) AS unnest(__vsql_regexp_matches(s, p, '')),
		(s, p, fl) AS unnest(__vsql_regexp_matches(s, p, fl))`,
	`CREATE OR REPLACE MACRO ` + schema + `.regexp_match(s, p) AS __vsql_regexp_match(s, p, ''), (s, p, fl) AS __vsql_regexp_match(s, p, fl)`,
	`CREATE OR REPLACE MACRO ` + schema + `.parse_ident(s, strict := true) AS __vsql_parse_ident(s, strict)`,
	// json_object and jsonb_object of text arrays (jsonfuncs.go); DuckDB's
	// own json_object is json_build_object's
	`CREATE OR REPLACE MACRO ` + schema + `.pg_json_object(a) AS __vsql_pgjson(__vsql_pgjson_object(a), false, 'json_object'),
		(k, v) AS __vsql_pgjson(__vsql_pgjson_object(k, v), false, 'json_object')`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_object(a) AS CAST(__vsql_json_object(a) AS JSON),
		(k, v) AS CAST(__vsql_json_object(k, v) AS JSON)`,
	// jsonb editing (jsonfuncs.go)
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_set(t, p, v) AS CAST(__vsql_jsonb_set(CAST(t AS VARCHAR), p, CAST(v AS VARCHAR), true) AS JSON),
		(t, p, v, c) AS CAST(__vsql_jsonb_set(CAST(t AS VARCHAR), p, CAST(v AS VARCHAR), c) AS JSON)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_insert(t, p, v) AS CAST(__vsql_jsonb_insert(CAST(t AS VARCHAR), p, CAST(v AS VARCHAR), false) AS JSON),
		(t, p, v, a) AS CAST(__vsql_jsonb_insert(CAST(t AS VARCHAR), p, CAST(v AS VARCHAR), a) AS JSON)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_array_contains(a, b) AS CASE WHEN a IS NULL OR b IS NULL THEN NULL
		ELSE len(list_filter(CAST(b AS VARCHAR[]), lambda x: x IS NULL OR NOT list_contains(CAST(a AS VARCHAR[]), x))) = 0 END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_array_contained(a, b) AS ` + schema + `.pg_array_contains(b, a)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_bytea(b) AS CASE WHEN typeof(b) = 'VARCHAR' AND starts_with(CAST(b AS VARCHAR), chr(92) || 'x')
		THEN unhex(substr(CAST(b AS VARCHAR), 3)) ELSE CAST(b AS BLOB) END`,
	// encode of text: PostgreSQL's bytea input, '\x…' hex
	`CREATE OR REPLACE MACRO ` + schema + `.pg_encode(b, f) AS __vsql_encode(` + schema + `.pg_bytea(b), f)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_decode(s, f) AS __vsql_decode(s, f)`,
	`CREATE OR REPLACE MACRO ` + schema + `.unistr(s) AS __vsql_unistr(s)`,
	`CREATE OR REPLACE MACRO ` + schema + `.sha224(b) AS __vsql_sha224(` + schema + `.pg_bytea(b))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_sha256(b) AS __vsql_sha256(` + schema + `.pg_bytea(b))`,
	`CREATE OR REPLACE MACRO ` + schema + `.sha384(b) AS __vsql_sha384(` + schema + `.pg_bytea(b))`,
	`CREATE OR REPLACE MACRO ` + schema + `.sha512(b) AS __vsql_sha512(` + schema + `.pg_bytea(b))`,
	// to_hex in lower case, a negative integer (or smallint) as its 32-bit
	// two's complement (DuckDB: upper case, 64 bits)
	// pg_sleep returns void, which PostgreSQL sends as an empty value
	// (DuckDB's macro answers NULL)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_sleep(s) AS CASE WHEN sleep_ms(CAST(s * 1000 AS BIGINT)) IS NULL THEN '' END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_to_hex(x) AS lower(to_hex(CASE WHEN typeof(x) IN ('INTEGER', 'SMALLINT', 'TINYINT') AND x < 0 THEN CAST(x AS BIGINT) + 4294967296 ELSE x END))`,
	// split_part with an empty delimiter: the whole string is field 1 and
	// -1 (DuckDB split it into characters); field 0 is an error
	`CREATE OR REPLACE MACRO ` + schema + `.pg_split_part(s, d, n) AS CASE WHEN n = 0 THEN error('[vsql:invalid_argument] field position must not be zero')
		WHEN d = '' THEN CASE WHEN s IS NULL OR n IS NULL THEN NULL WHEN n = 1 OR n = -1 THEN s ELSE '' END ELSE split_part(s, d, n) END`,
	// date_trunc(unit, timestamptz, zone): truncated in that zone
	// PostgreSQL's centuries and millennia start in years …01 (1901, 2001)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_trunc_years(t, n) AS date_trunc('year', t) - to_years(CAST((year(t) - 1) % n AS INTEGER))`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_date_trunc(u, t) AS CASE lower(u) WHEN 'century' THEN ` + schema + `.pg_trunc_years(t, 100)
			WHEN 'millennium' THEN ` + schema + `.pg_trunc_years(t, 1000) ELSE date_trunc(u, t) END,
		(u, t, z) AS timezone(z, CASE lower(u) WHEN 'century' THEN ` + schema + `.pg_trunc_years(timezone(z, CAST(t AS TIMESTAMPTZ)), 100)
			WHEN 'millennium' THEN ` + schema + `.pg_trunc_years(timezone(z, CAST(t AS TIMESTAMPTZ)), 1000)
			ELSE date_trunc(u, timezone(z, CAST(t AS TIMESTAMPTZ))) END)`,
	`CREATE OR REPLACE MACRO ` + schema + `.make_interval(years := 0, months := 0, weeks := 0, days := 0, hours := 0, mins := 0, secs := 0.0) AS
		to_months(CAST(years AS INTEGER) * 12 + CAST(months AS INTEGER)) + to_days(CAST(weeks AS INTEGER) * 7 + CAST(days AS INTEGER))
		+ to_microseconds(CAST(round((CAST(hours AS DOUBLE) * 3600 + CAST(mins AS DOUBLE) * 60 + CAST(secs AS DOUBLE)) * 1e6) AS BIGINT))`,
	`CREATE OR REPLACE MACRO ` + schema + `.num_nulls_variadic(a) AS CAST(len(list_filter(a, lambda e: e IS NULL)) AS INTEGER)`,
	`CREATE OR REPLACE MACRO ` + schema + `.num_nonnulls_variadic(a) AS CAST(len(list_filter(a, lambda e: e IS NOT NULL)) AS INTEGER)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_strip_nulls(j) AS CAST(__vsql_jsonb_strip_nulls(CAST(j AS VARCHAR)) AS JSON)`,
	// arrays (DuckDB lists)
	`CREATE OR REPLACE MACRO ` + schema + `.array_remove(a, x) AS list_filter(a, lambda e: e IS DISTINCT FROM x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.array_replace(a, x, y) AS list_transform(a, lambda e: CASE WHEN e IS NOT DISTINCT FROM x THEN y ELSE e END)`,
	// (the lambdas do not read a, which may be a subquery: ARRAY(SELECT …))
	`CREATE OR REPLACE MACRO ` + schema + `.array_positions(a, x) AS CAST(list_filter(list_transform(a, lambda e, i: CASE WHEN e IS NOT DISTINCT FROM x THEN i END), lambda i: i IS NOT NULL) AS INTEGER[])`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_jsonb_concat(a, b) AS CAST(__vsql_jsonb_concat(CAST(a AS VARCHAR), CAST(b AS VARCHAR)) AS JSON)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_jsonb_minus(a, b) AS CAST(__vsql_jsonb_minus(CAST(a AS VARCHAR), b) AS JSON)`,
	// jsonb_delete(j, key | index | text[]): the function behind jsonb's - operator;
	// json_strip_nulls: json's text without null members, compact, as
	// PostgreSQL writes it (jsontext.go)
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_delete(a, b) AS ` + schema + `.pg_jsonb_minus(a, b)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_concat(a, b) AS ` + schema + `.pg_jsonb_concat(a, b)`,
	`CREATE OR REPLACE MACRO ` + schema + `.json_strip_nulls(j) AS __vsql_pgjson(__vsql_json_strip_nulls(CAST(CAST(j AS ` + JSONType + `) AS VARCHAR)), false, 'json_strip_nulls')`,
	`CREATE OR REPLACE MACRO ` + schema + `.getdatabaseencoding() AS 'UTF8'`,
	// pg_typeof: PostgreSQL's type names (typefuncs.go)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_typeof(x) AS __vsql_pg_type_name(typeof(x))`,
	// make_timestamptz(…, '+2') at a fixed offset (east seconds; datetime.go)
	// x AT TIME ZONE 'MSK' / 'UTC+4:30' (datetime.go atTimeZone): the Go
	// functions shift finite values; infinities stay (timezone('UTC', x)
	// converts them between the two types)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_timezone_abbrev(z, x) AS CASE WHEN isfinite(x) THEN __vsql_timezone_abbrev(z, x) ELSE timezone('UTC', x) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_timezone_offset(z, x) AS CASE WHEN isfinite(x) THEN __vsql_timezone_offset(z, x) ELSE timezone('UTC', x) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_make_timestamptz(y, mo, d, h, mi, s, east) AS timezone('UTC', make_timestamp(y, mo, d, h, mi, s) - to_seconds(east))`,
	// UPDATE t SET a[i] = v (assigned.go): PostgreSQL extends the array
	// with NULLs; an empty or NULL array gets lower bound i, and i below 1
	// lowers it, which a list (from 1) cannot hold
	`CREATE OR REPLACE MACRO ` + schema + `.pg_array_assign(a, i, v) AS CASE
		WHEN i IS NULL THEN error('[vsql:null_value_not_allowed] array subscript in assignment must not be null')
		WHEN (a IS NULL OR len(a) = 0) AND i = 1 THEN [v]
		WHEN a IS NULL OR len(a) = 0 OR i < 1 THEN error('[vsql:feature_not_supported] array subscript ' || i || ' in assignment: vsql arrays start at 1, so an element below 1, or past 1 of an empty or NULL array, cannot be set')
		WHEN i <= len(a) THEN list_concat(a[1:i - 1], [v], a[i + 1:])
		ELSE list_concat(list_resize(a, i - 1), [v]) END`,
	// UPDATE t SET j['a'][0] = v (assigned.go)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_jsonb_assign(t, p, v) AS CAST(__vsql_jsonb_assign(CAST(t AS VARCHAR), CAST(p AS VARCHAR), CAST(v AS VARCHAR)) AS JSON)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_delete_path(t, p) AS CAST(__vsql_jsonb_delete_path(CAST(t AS VARCHAR), p) AS JSON)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_set_lax(t, p, v, create_if_missing := true, null_value_treatment := 'use_json_null') AS CASE
		WHEN t IS NULL OR p IS NULL THEN NULL
		WHEN v IS NOT NULL THEN ` + schema + `.jsonb_set(t, p, v, create_if_missing)
		WHEN null_value_treatment = 'use_json_null' THEN ` + schema + `.jsonb_set(t, p, 'null', create_if_missing)
		WHEN null_value_treatment = 'delete_key' THEN ` + schema + `.jsonb_delete_path(t, p)
		WHEN null_value_treatment = 'return_target' THEN CAST(t AS JSON)
		WHEN null_value_treatment = 'raise_exception' THEN error('[vsql:invalid_argument] JSON value must not be null')
		ELSE error('[vsql:invalid_argument] null_value_treatment must be "delete_key", "return_target", "use_json_null", or "raise_exception"') END`,
	// jsonb functions behind operators, and other small ones
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_typeof(j) AS CASE WHEN j IS NULL THEN NULL ELSE CASE json_type(CAST(j AS JSON))
		WHEN 'OBJECT' THEN 'object' WHEN 'ARRAY' THEN 'array' WHEN 'VARCHAR' THEN 'string' WHEN 'BOOLEAN' THEN 'boolean'
		WHEN 'NULL' THEN 'null' ELSE 'number' END END`,
	`CREATE OR REPLACE MACRO ` + schema + `.json_typeof(j) AS ` + schema + `.jsonb_typeof(j)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_exists(j, k) AS ` + schema + `.pg_exists(j, k)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_exists_any(j, k) AS ` + schema + `.pg_exists_any(j, k)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_exists_all(j, k) AS ` + schema + `.pg_exists_all(j, k)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_contains(a, b) AS ` + schema + `.pg_contains(a, b)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_contained(a, b) AS ` + schema + `.pg_contained(a, b)`,
	`CREATE OR REPLACE MACRO ` + schema + `.to_jsonb(x) AS to_json(x)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_array_length(j) AS CASE WHEN json_type(CAST(j AS JSON)) = 'ARRAY' THEN CAST(json_array_length(CAST(j AS JSON)) AS INTEGER)
		WHEN j IS NOT NULL THEN error('[vsql:invalid_argument] cannot get array length of a ' || CASE WHEN json_type(CAST(j AS JSON)) = 'OBJECT' THEN 'non-array' ELSE 'scalar' END) END`,
	// json_array_length too refuses an object or a scalar (DuckDB: 0)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_json_array_length(j) AS ` + schema + `.jsonb_array_length(j)`,
	`CREATE OR REPLACE MACRO ` + schema + `.booleq(a, b) AS CAST(a AS BOOLEAN) = CAST(b AS BOOLEAN)`,
	`CREATE OR REPLACE MACRO ` + schema + `.boolne(a, b) AS CAST(a AS BOOLEAN) <> CAST(b AS BOOLEAN)`,
	`CREATE OR REPLACE MACRO ` + schema + `.quote_literal(x) AS CASE WHEN contains(CAST(x AS VARCHAR), chr(92))
		THEN 'E' || chr(39) || replace(replace(CAST(x AS VARCHAR), chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39)
		ELSE chr(39) || replace(CAST(x AS VARCHAR), chr(39), chr(39) || chr(39)) || chr(39) END`,
	// strings, bytea and jsonb (strfuncs.go, jsonb.go)
	`CREATE OR REPLACE MACRO ` + schema + `.initcap(s) AS __vsql_initcap(CAST(s AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.get_byte(b, n) AS __vsql_get_byte(CAST(b AS BLOB), n)`,
	// btrim: DuckDB's trim, whose bytea overloads are Go functions
	// (byteaFunctions in strfuncs.go)
	`CREATE OR REPLACE MACRO ` + schema + `.btrim(s) AS trim(s), (s, c) AS trim(s, c)`,
	`CREATE OR REPLACE MACRO ` + schema + `.set_byte(b, n, v) AS __vsql_set_byte(CAST(b AS BLOB), n, v)`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_pretty(j) AS __vsql_jsonb_pretty(CAST(j AS VARCHAR))`,
	// x ~ 'pattern' with back references or lookaround (sqltext's rewrite
	// of the regex operators)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_regex_op(s, p) AS ` + schema + `.regexp_like(s, p), (s, p, f) AS ` + schema + `.regexp_like(s, p, f)`,
	// x::varchar(n) (charlength.go)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_varchar_cut(s, n) AS left(s, n)`,
	// j @? path, j @@ path and their functions (jsonpath.go)
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_path_exists(j, p) AS __vsql_jsonpath_exists(CAST(j AS VARCHAR), CAST(p AS VARCHAR))`,
	`CREATE OR REPLACE MACRO ` + schema + `.jsonb_path_match(j, p) AS __vsql_jsonpath_match(CAST(j AS VARCHAR), CAST(p AS VARCHAR), false)`,
	`CREATE OR REPLACE MACRO ` + schema + `.pg_jsonpath_exists_op(j, p) AS __vsql_jsonpath_exists(CAST(j AS VARCHAR), CAST(p AS VARCHAR))`,
	// trim_array(a, n): a without its last n elements
	`CREATE OR REPLACE MACRO ` + schema + `.trim_array(a, n) AS CASE WHEN n < 0 OR n > len(a)
		THEN error('[vsql:array_subscript_error] number of elements to trim must be between 0 and ' || len(a)) ELSE a[1:len(a) - n] END`,
	// every is the standard's name of bool_and
	`CREATE OR REPLACE MACRO ` + schema + `.every(b) AS bool_and(b)`,
	// timestamptz(date, time [with time zone]): a time without zone is
	// read in the session's TimeZone
	`CREATE OR REPLACE MACRO ` + schema + `.pg_timestamptz(d, t) AS CAST(CAST(d AS DATE) + t AS TIMESTAMPTZ)`,
	// arrays (arrayfuncs.go)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_cardinality(a) AS CAST(__vsql_cardinality(a) AS INTEGER)`,
	`CREATE OR REPLACE MACRO ` + schema + `.array_dims(a) AS __vsql_array_dims(a)`,
	`CREATE OR REPLACE MACRO ` + schema + `.array_ndims(a) AS __vsql_array_ndims(a)`,
	// array_length(a, d): dimension 1 as DuckDB's len (NULL when empty),
	// another through the Go function (DuckDB: not implemented)
	`CREATE OR REPLACE MACRO ` + schema + `.pg_array_length(a) AS array_length(a),
		(a, d) AS CASE WHEN d = 1 THEN CAST(nullif(len(a), 0) AS INTEGER) ELSE __vsql_array_length(a, d) END`,
	// array_to_string(a, sep, null_string): NULLs written as null_string
	// (left out when it is NULL); a NULL separator gives NULL
	`CREATE OR REPLACE MACRO ` + schema + `.pg_array_to_string(a, sep) AS CASE WHEN sep IS NOT NULL THEN array_to_string(a, sep) END,
		(a, sep, n) AS CASE WHEN sep IS NOT NULL THEN array_to_string(list_transform(a, lambda e: coalesce(CAST(e AS VARCHAR), n)), sep) END`,
	`CREATE OR REPLACE MACRO ` + schema + `.width_bucket(x, t) AS CAST(__vsql_width_bucket(x, t) AS INTEGER),
		(x, lo, hi, n) AS CASE
		WHEN n <= 0 THEN error('[vsql:invalid_argument] count must be greater than zero')
		WHEN lo = hi THEN error('[vsql:invalid_argument] lower bound cannot equal upper bound')
		WHEN x IS NULL OR lo IS NULL OR hi IS NULL OR n IS NULL THEN NULL
		WHEN lo < hi THEN CASE WHEN x < lo THEN 0 WHEN x >= hi THEN n + 1 ELSE CAST(floor((x - lo) * n / (hi - lo)) AS INTEGER) + 1 END
		ELSE CASE WHEN x > lo THEN 0 WHEN x <= hi THEN n + 1 ELSE CAST(floor((lo - x) * n / (lo - hi)) AS INTEGER) + 1 END END`,
}

// json(b)_extract_path(_text)(j, VARIADIC path): macros for up to eight
// path elements.
func init() {
	for _, f := range []struct{ name, fn string }{{"jsonb_extract_path", "pg_path"}, {"json_extract_path", "pg_path"},
		{"jsonb_extract_path_text", "pg_path_text"}, {"json_extract_path_text", "pg_path_text"}} {
		var b strings.Builder
		macro := f.name
		if strings.HasPrefix(f.name, "json_") { // DuckDB's own json_extract_path: see ProvideFunctionAs
			macro = "pg_" + f.name
		}
		b.WriteString("CREATE OR REPLACE MACRO " + schema + "." + macro)
		args, list := []string{"j"}, []string{}
		for k := 1; k <= 8; k++ {
			args = append(args, fmt.Sprintf("p%d", k))
			list = append(list, fmt.Sprintf("CAST(p%d AS VARCHAR)", k))
			if k > 1 {
				b.WriteString(",")
			}
			j := "j"
			if strings.HasPrefix(f.name, "json_") {
				j = "CAST(j AS " + JSONType + ")" // json's: the element as written
			}
			fmt.Fprintf(&b, " (%s) AS %s.%s(%s, [%s])", strings.Join(args, ", "), schema, f.fn, j, strings.Join(list, ", "))
		}
		setup = append(setup, b.String())
		sqltext.ProvideFunctionAs(f.name, macro)
	}
	// num_nulls and num_nonnulls of up to 16 arguments
	for _, f := range []struct{ name, test string }{{"num_nulls", "IS NULL"}, {"num_nonnulls", "IS NOT NULL"}} {
		var b strings.Builder
		b.WriteString("CREATE OR REPLACE MACRO " + schema + "." + f.name)
		var args, terms []string
		for k := 1; k <= 16; k++ {
			args = append(args, fmt.Sprintf("a%d", k))
			terms = append(terms, fmt.Sprintf("CAST(a%d %s AS INTEGER)", k, f.test))
			if k > 1 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, " (%s) AS %s", strings.Join(args, ", "), strings.Join(terms, " + "))
		}
		setup = append(setup, b.String())
		sqltext.ProvideFunctions(f.name)
	}
	setup = append(setup, formatMacros(schema)...)
	setup = append(setup, concatMacros(schema)...)
	setup = append(setup, variadicMacros(schema)...)
	setup = append(setup, extractMacros(schema)...)
	setup = append(setup, arrayAssignMacros(schema)...)
	setup = append(setup, arraySliceMacros(schema)...)
	for _, f := range []string{"lpad", "rpad", "encode", "decode", "date_trunc", "sha256", "substr", "substring", "format", "to_hex", "split_part", "concat", "concat_ws"} {
		sqltext.ProvideFunctionAs(f, "pg_"+f)
	}
	sqltext.ProvideFunctions("pg_typeof", "jsonb_typeof", "json_typeof", "jsonb_exists", "jsonb_exists_any", "jsonb_exists_all",
		"jsonb_contains", "jsonb_contained", "to_jsonb", "jsonb_array_length", "booleq", "boolne", "quote_literal", "width_bucket",
		"overlay", "date_bin", "jsonb_strip_nulls", "json_strip_nulls", "getdatabaseencoding", "jsonb_delete", "jsonb_concat", "array_remove", "array_replace", "array_positions", "array_dims", "array_ndims",
		"make_interval", "unistr", "sha224", "sha384", "sha512",
		"initcap", "get_byte", "set_byte", "btrim", "jsonb_pretty", "every", "trim_array", "jsonb_path_exists", "jsonb_path_match", "pg_sleep")
}

// Setup creates the macros rewritten statements call; exec runs one
// statement on the engine.
func Setup(ctx context.Context, exec func(context.Context, string) error) error {
	if err := exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema); err != nil {
		return err
	}
	for _, q := range setup {
		if err := exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// rule rewrites around token i, which matched its trigger; it records its
// changes as edits of the pass.
type rule func(p *pass, i int)

// rules maps a trigger (a lower-cased word, or one operator character) to
// its rule. Every rule sees the same token slice.
var rules = map[string]rule{
	"/":                        divide,
	"using":                    orderUsing,
	"index":                    createIndex,
	"bytea":                    byteaLiteral,
	"%":                        modulo,
	"^":                        exponent,
	"power":                    powerCall,
	"rank":                     hypothetical,
	"dense_rank":               hypothetical,
	"percent_rank":             hypothetical,
	"cume_dist":                hypothetical,
	"pow":                      powerCall,
	"@":                        containsLeft,    // a @> b
	"<":                        lessRule,        // q <-> q (tsearch.go); a <@ b; enum < 'label' (enumorder.go)
	">":                        greaterRule,     // (a, b) > (c, d) (rowcompare.go); enum > 'label'
	"=":                        equalsRule,      // (a, b) = (c, d) (rowcompare.go)
	"in":                       rowIn,           // (a, b) NOT IN (SELECT …) (rowcompare.go)
	"select":                   emptySelectList, // SELECT FROM t (rowcompare.go)
	"between":                  enumBetween,
	"enum_range":               enumRange,        // enum_range(a, b) (enumorder.go)
	"symmetric":                betweenSymmetric, // x BETWEEN SYMMETRIC a AND b (rowcompare.go)
	"asymmetric":               betweenSymmetric,
	"nextval":                  nextvalCall, // nextval('public.s'::regclass), recorded for the session (sequences.go)
	"currval":                  currvalCall, // the session's currval (sequences.go)
	"lastval":                  lastvalCall,
	"setval":                   sequenceArg,
	"sequence":                 createSequence, // CREATE SEQUENCE … AS integer CACHE 1 (sequences.go)
	"?":                        exists,         // a ? b, a ?| b, a ?& b
	"#":                        path,           // a #> b, a #>> b
	"at":                       reservedWord,
	"by":                       reservedWord,
	"show":                     reservedWord,
	"jsonb":                    jsonbType,
	"json":                     jsonType, // (jsontext.go)
	"json_build_object":        jsonBuild,
	"json_build_array":         jsonBuild,
	"json_object":              jsonBuild, // jsonb_build_object, as sqltext names it
	"json_array":               jsonBuild,
	"to_json":                  jsonBuild,
	"row_to_json":              jsonBuild,
	"array_to_json":            jsonBuild,
	"tsvector":                 tsTypeName, // (tsearch.go)
	"tsquery":                  tsTypeName,
	"regconfig":                tsTypeName,
	"length":                   tsLength,
	"name":                     nameType,
	"bit":                      bitType,   // bit(n), bit varying(n), varbit (bitstring.go)
	"float":                    floatType, // float is float8 (floatin.go)
	"varbit":                   bitType,
	"b":                        bitLiteral, // B'0101', X'1F'
	"x":                        bitLiteral,
	"timestamptz":              func(p *pass, i int) { timestamptzLiteral(p, i); timePrecision(p, i); timestamptzCall(p, i) },
	"timestamp":                func(p *pass, i int) { timePrecision(p, i); typedLiteral(p, i) },
	"time":                     func(p *pass, i int) { timePrecision(p, i); typedLiteral(p, i) },
	"timetz":                   func(p *pass, i int) { timePrecision(p, i); typedLiteral(p, i) },
	"numeric":                  wideDecimal,
	"varchar":                  varcharCast, // x::varchar(n) cuts (charlength.go)
	"character":                varcharCast,
	"with":                     withQueries, // storage parameters; WITH [RECURSIVE] lists (recursive.go)
	"decimal":                  wideDecimal,
	"zone":                     func(p *pass, i int) { timestamptzLiteral(p, i); atTimeZone(p, i) },                   // timestamp with time zone; x AT TIME ZONE 'PST' (datetime.go)
	"group":                    func(p *pass, i int) { groupByKey(p, i); groupByQuantifier(p, i) },                    // GROUP BY a table's primary key (groupbykey.go); GROUP BY ALL | DISTINCT (groupingsets.go)
	"vsql_any_eq":              anyEqLiteralArray,                                                                     // 33 = ANY ('{1,2}') as sqltext wrote it (likeany.go)
	"date_trunc":               dateTruncZone,                                                                         // date_trunc('day', x, 'VET') (datetime.go)
	"pg_date_trunc":            dateTruncZone,                                                                         // its macro
	"make_timestamptz":         makeTimestamptzZone,                                                                   // make_timestamptz(…, '+2') (datetime.go)
	"explain":                  explainOptions,                                                                        // EXPLAIN (COSTS OFF) … (explain.go)
	"timezone":                 atTimeZone,                                                                            // timezone('PST', x)
	"function":                 sqlFunction,                                                                           // CREATE FUNCTION … LANGUAGE sql as a macro (sqlfunctions.go)
	"unnest":                   unnestRule,                                                                            // unnest(a, b) in FROM
	"generate_series":          generateSeries,                                                                        // rows, not a list, in a select list; '12 hours' steps; 0A000 where PostgreSQL refuses it
	":":                        func(p *pass, i int) { colonCast(p, i); domainColonCast(p, i); arrayCastDepth(p, i) }, // '…'::bool, '{1,2}'::int[]; x::domain (domains.go); ARRAY[[…]]::text[] (arrayconcat.go)
	"bool":                     typedLiteral,
	"boolean":                  typedLiteral,
	"date":                     typedLiteral,
	"interval":                 intervalLiteralTyped, // interval '1 2' day to hour (intervalfields.go)
	"cast":                     func(p *pass, i int) { castCall(p, i); domainCastCall(p, i); castArrayDepth(p, i) },
	"extract":                  extractSeconds, // EXTRACT(SECOND FROM x): the fraction (extract.go)
	"date_part":                extractSeconds,
	"similar":                  similarTo,      // x SIMILAR TO 'pattern' (extract.go)
	"overlay":                  overlayPlacing, // overlay(s PLACING r FROM n FOR m)
	"overlaps":                 overlapsRule,   // (a, b) OVERLAPS (c, d)
	"substring":                substringFrom,  // substring(s FROM n FOR m), substring(s FROM 'regex')
	"pg_substring":             substringFrom,  // (the same, sent to the macro by sqltext)
	"&":                        ampersandRule,  // q && q (tsearch.go), i && '{1,2}'
	"!":                        bangRule,       // !!q (tsearch.go), (a, b) != (c, d)
	"|":                        pipeOp,         // '…'::jsonb || '…', |/ x, ||/ x
	"-":                        minusRule,      // '…'::jsonb - 'key', x - '1'
	"+":                        numericOperand,
	"variadic":                 variadicCall,  // num_nulls(VARIADIC a)
	"ties":                     fetchWithTies, // FETCH FIRST n ROWS WITH TIES (fetchties.go)
	"preceding":                frameOffset,   // RANGE BETWEEN '1 day' PRECEDING … (windowframe.go)
	"following":                frameOffset,
	"groups":                   groupsFrame,    // GROUPS frame without ORDER BY: 42P20
	"count":                    countCall,      // count(): 42809
	"lag":                      lagLeadDefault, // lag(x, 1, 0.5): the common type of x and the default
	"lead":                     lagLeadDefault,
	"nth_value":                nthValueArgument, // nth_value(x, 0): 22016
	"percentile_cont":          percentileCont,   // WITHIN GROUP (ORDER BY x): x as double precision
	"filter":                   aggregateFilter,  // agg(x) FILTER (WHERE c): x read for c's rows only (aggfilter.go)
	"u":                        unicodeString,    // U&'d\0061t' (unicodestrings.go)
	"type":                     createType,       // CREATE TYPE t AS (…)
	"_int2":                    arrayTypeName,
	"_int4":                    arrayTypeName,
	"_int8":                    arrayTypeName,
	"_text":                    arrayTypeName,
	"_varchar":                 arrayTypeName,
	"_bool":                    arrayTypeName,
	"_float4":                  arrayTypeName,
	"_float8":                  arrayTypeName,
	"_numeric":                 arrayTypeName,
	"_date":                    arrayTypeName,
	"_timestamp":               arrayTypeName,
	"_timestamptz":             arrayTypeName,
	"_json":                    arrayTypeName,
	"_jsonb":                   arrayTypeName,
	"_name":                    arrayTypeName,
	"row":                      anonymousRow,
	"for":                      lockingClause,     // SELECT … FOR UPDATE (locking.go)
	"into":                     selectInto,        // SELECT … INTO t FROM … (selectinto.go)
	"values":                   insertValues,      // INSERT … VALUES ('{1,2}'): the column type's input (assigned.go)
	"insert":                   insertIndirection, // INSERT INTO t (f[1], f[2], g.a) (insertindirection.go)
	"conflict":                 onConflictTarget,  // ON CONFLICT DO UPDATE without a target (upsert.go)
	"returning":                aliasedTarget,     // INSERT INTO t AS a … RETURNING t.c (upsert.go)
	"set":                      updateSet,         // UPDATE … SET c = '…'
	"json_agg":                 jsonAgg,           // (jsonagg.go)
	"any":                      likeAny,           // x LIKE ANY (array) (likeany.go)
	"like":                     likeEscape,        // x LIKE 'a\_b': PostgreSQL's backslash escape (likeescape.go)
	"ilike":                    likeEscape,
	"all":                      likeAny,
	"jsonb_agg":                jsonAgg,
	"json_object_agg":          jsonAgg,
	"jsonb_object_agg":         jsonAgg,
	"columns":                  columnsOrder,                                                             // information_schema.columns in PostgreSQL's order (columnsorder.go)
	"array_agg":                distinctAgg,                                                              // (DISTINCT col): PostgreSQL's sorted order (jsonagg.go)
	"string_agg":               func(p *pass, i int) { distinctAgg(p, i); stringAggNullDelimiter(p, i) }, // string_agg(x, NULL): no delimiter
	"*":                        starRule,
	"array_fill":               arrayFill,      // (arrayfuncs.go)
	"[":                        subscriptChain, // x[1:2][2] (arrayassign.go)
	"array_cat":                arrayCat,       // (arrayconcat.go)
	"array":                    emptyArray,
	"array_position":           multiDimSearch,
	"array_positions":          multiDimSearch,
	"array_remove":             multiDimSearch,
	"json_populate_record":     recordCall,
	"jsonb_populate_record":    recordCall,
	"json_populate_recordset":  recordCall,
	"jsonb_populate_recordset": recordCall,
	"json_to_record":           recordCall,
	"jsonb_to_record":          recordCall,
	"json_to_recordset":        recordCall,
	"jsonb_to_recordset":       recordCall,
}

// triggerBytes is a cheap first test: a statement containing none of these
// bytes (case-insensitively) cannot match a rule.
const triggerBytes = "/%@<>?#:&|-*[aAbBsSjJzZnNtTdDuUgGwWrRxX"

// Rewrite returns sql as DuckDB should run it for PostgreSQL's semantics;
// changed is false when it is returned as it was.
func Rewrite(sql string) (out string, changed bool) {
	st, changed := rewrite(sqltext.Parse(sql), Session{})
	return st.SQL, changed
}

// rewrite is Rewrite of a statement (on its tokens) in a session with the
// settings sess.
func rewrite(st sqltext.Statement, sess Session) (out sqltext.Statement, changed bool) {
	out, changed, _ = rewriteChecked(st, sess)
	return out, changed
}

// rewriteChecked is rewrite that also returns the error a rule found in
// the statement (one PostgreSQL raises before running anything, such as a
// malformed recursive query: recursive.go).
func rewriteChecked(st sqltext.Statement, sess Session) (out sqltext.Statement, changed bool, err error) {
	sql := st.SQL
	if !strings.ContainsAny(sql, triggerBytes) || st.Unterminated() {
		return st, false, nil
	}
	p := pass{src: sql, toks: st.Tokens(), sess: sess}
	if len(p.toks) > 0 && p.kind(0) == sqltext.Word {
		switch strings.ToLower(p.text(0)) {
		case "insert", "update", "delete", "select", "with":
			p.dml = true
		}
	}
	var buf [32]byte
	for i, t := range p.toks {
		var r rule
		switch t.Kind {
		case sqltext.Op:
			r = rules[sql[t.Start:t.End]]
		case sqltext.Word:
			if t.End-t.Start <= len(buf) {
				r = rules[string(lower(buf[:0], sql[t.Start:t.End]))] // no allocation for a map index
			}
		case sqltext.String:
			r = stringLiteral
		}
		if r != nil {
			r(&p, i)
			if p.whole {
				break // the statement was written anew (sqlfunctions.go)
			}
		}
	}
	for _, f := range p.deferred {
		f()
	}
	if p.err != nil {
		return st, false, p.err
	}
	if len(p.edits) == 0 {
		return st, false, nil
	}
	return st.Edit(p.apply()), true, nil
}

// lower lower-cases an ASCII word into buf.
func lower(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

type edit struct {
	start, end int // replaced bytes (start == end: an insertion)
	text       string
	seq        int // order among insertions at one offset (negative: openings, the last made first)
}

type pass struct {
	src   string
	toks  []sqltext.Token
	edits []edit
	sess  Session
	dml   bool // INSERT, UPDATE, DELETE, SELECT or WITH
	// whole: a rule replaced the whole statement; the others stop
	whole bool
	// enums: Session.EnumColumns's answer, asked once (enumorder.go)
	enums map[string]string
	// arrays: Session.ArrayColumns's answer, asked once, and the columns
	// of the tables the statement reads (arraycompare.go)
	arrays, fromColumns map[string]string
	// tables: Session.TableColumns's answers, by name parts
	tables map[string][]TableColumn
	// domains: Session.Domains's answer, asked once (domains.go)
	domains map[string]string
	// deferred run after every token's rule, for a rule that copies text
	// after its token, which later rules may still rewrite
	deferred []func()
	// err is the statement's error a rule found (PostgreSQL raises it
	// before running anything): the statement is not run
	err error
}

func (p *pass) replace(start, end int, text string) {
	p.edits = append(p.edits, edit{start, end, text, len(p.edits)})
}

func (p *pass) insert(at int, text string) { p.replace(at, at, text) }

// edited reports whether an edit made so far touches the bytes start…end
// (a rule that copies source text must not copy what another rewrote).
func (p *pass) edited(start, end int) bool {
	for _, e := range p.edits {
		if e.start < end && e.end > start || e.start == e.end && e.start > start && e.start < end {
			return true
		}
	}
	return false
}

// open inserts the opening of a call that wraps an operator's left
// operand: an operator further right wraps the ones before it (they are
// left-associative), so among openings at one offset the last made comes
// first, and openings come before the other insertions there.
func (p *pass) open(at int, text string) {
	p.edits = append(p.edits, edit{at, at, text, -1 - len(p.edits)})
}

// apply orders the edits for sqltext.Statement.Edit: in source order,
// insertions before a replacement at the same offset, otherwise in seq
// order; of overlapping edits the first one wins.
func (p *pass) apply() []sqltext.Edit {
	sort.SliceStable(p.edits, func(a, b int) bool {
		ea, eb := p.edits[a], p.edits[b]
		if ea.start != eb.start {
			return ea.start < eb.start
		}
		if (ea.start == ea.end) != (eb.start == eb.end) {
			return ea.start == ea.end
		}
		return ea.seq < eb.seq
	})
	out := make([]sqltext.Edit, 0, len(p.edits))
	pos := 0
	for _, e := range p.edits {
		if e.start < pos {
			continue // overlapping edits: the first one wins
		}
		out = append(out, sqltext.Edit{Start: e.start, End: e.end, Text: e.text})
		pos = e.end
	}
	return out
}

// editedSource is the source from byte start to end with the edits made
// so far within it applied, for a rule that copies text other rules may
// have rewritten (x/2 is x//2 by then); false when an edit crosses start
// or end.
func (p *pass) editedSource(start, end int) (string, bool) {
	var inside []edit
	for _, e := range p.edits {
		switch {
		case e.start >= start && e.end <= end && !(e.start == e.end && (e.start == start || e.start == end)):
			inside = append(inside, e)
		case e.start < end && e.end > start:
			return "", false
		}
	}
	sub := pass{src: p.src, edits: inside}
	var b strings.Builder
	pos := start
	for _, e := range sub.apply() {
		b.WriteString(p.src[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.WriteString(p.src[pos:end])
	return b.String(), true
}

// text is token i's source text ("" out of range).
func (p *pass) text(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.src[p.toks[i].Start:p.toks[i].End]
}

func (p *pass) kind(i int) sqltext.TokenKind {
	if i < 0 || i >= len(p.toks) {
		return -1
	}
	return p.toks[i].Kind
}

// isWord reports whether token i is the word w (w lower-case).
func (p *pass) isWord(i int, w string) bool {
	return p.kind(i) == sqltext.Word && strings.EqualFold(p.text(i), w)
}

// isOp reports whether token i is the operator character c.
func (p *pass) isOp(i int, c string) bool {
	return p.kind(i) == sqltext.Op && p.text(i) == c
}

// adjacent reports whether tokens i and i+1 touch (one operator "->").
func (p *pass) adjacent(i int) bool {
	return i >= 0 && i+1 < len(p.toks) && p.toks[i].End == p.toks[i+1].Start
}

// matchForward returns the index of the token closing the bracket at i
// (a parenthesis, or [ ]), -1 if unbalanced.
func (p *pass) matchForward(i int) int {
	openOp := p.kind(i) == sqltext.Op
	depth := 0
	for j := i; j < len(p.toks); j++ {
		switch {
		case !openOp && p.toks[j].Kind == sqltext.Open, openOp && p.isOp(j, "["):
			depth++
		case !openOp && p.toks[j].Kind == sqltext.Close, openOp && p.isOp(j, "]"):
			depth--
			if depth == 0 {
				return j
			}
		case p.toks[j].Kind == sqltext.Semi:
			return -1
		}
	}
	return -1
}

// matchBackward returns the index of the token opening the bracket that
// closes at i, -1 if unbalanced.
func (p *pass) matchBackward(i int) int {
	closeOp := p.kind(i) == sqltext.Op
	depth := 0
	for j := i; j >= 0; j-- {
		switch {
		case !closeOp && p.toks[j].Kind == sqltext.Close, closeOp && p.isOp(j, "]"):
			depth++
		case !closeOp && p.toks[j].Kind == sqltext.Open, closeOp && p.isOp(j, "["):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// notNames are words that never start or continue an operand.
var notNames = map[string]bool{"select": true, "where": true, "and": true, "or": true, "not": true, "on": true,
	"when": true, "then": true, "else": true, "end": true, "from": true, "having": true, "as": true, "in": true,
	"is": true, "by": true, "like": true, "between": true, "return": true, "returning": true, "set": true,
	"values": true, "limit": true, "offset": true, "distinct": true, "all": true, "any": true, "some": true,
	"case": true, "order": true, "group": true, "join": true, "using": true, "with": true, "into": true}

// operandEnd returns the last token of the operand that starts at token i
// and binds tighter than * / %: signs, a primary, then postfix ::type,
// [subscript], .field and ^ power. -1 when the operand is not recognised.
func (p *pass) operandEnd(i int) int {
	for p.isOp(i, "-") || p.isOp(i, "+") {
		i++
	}
	j := p.primaryEnd(i)
	if j < 0 {
		return -1
	}
	for {
		switch {
		case p.isOp(j+1, ":") && p.isOp(j+2, ":") && p.adjacent(j+1):
			k := p.typeEnd(j + 3)
			if k < 0 {
				return -1
			}
			j = k
		case p.isOp(j+1, "["):
			k := p.matchForward(j + 1)
			if k < 0 {
				return -1
			}
			j = k
		case p.isOp(j+1, ".") && (p.kind(j+2) == sqltext.Word || p.kind(j+2) == sqltext.Quoted || p.isOp(j+2, "*")):
			j += 2
			if p.kind(j+1) == sqltext.Open { // schema.f(…)
				if j = p.matchForward(j + 1); j < 0 {
					return -1
				}
			}
		case p.isOp(j+1, "^"):
			k := p.operandEnd(j + 2)
			if k < 0 {
				return -1
			}
			j = k
		default:
			return j
		}
	}
}

// primaryEnd returns the last token of the primary expression at token i.
func (p *pass) primaryEnd(i int) int {
	switch p.kind(i) {
	case sqltext.Number, sqltext.String, sqltext.Param, sqltext.Quoted:
		if p.kind(i) == sqltext.Quoted && p.kind(i+1) == sqltext.Open {
			return p.matchForward(i + 1) // "f"(…)
		}
		return i
	case sqltext.Open:
		return p.matchForward(i)
	case sqltext.Op:
		if p.isOp(i, "[") {
			return p.matchForward(i)
		}
		return -1
	case sqltext.Word:
		w := strings.ToLower(p.text(i))
		switch {
		case w == "case":
			depth := 0
			for j := i; j < len(p.toks); j++ {
				if p.isWord(j, "case") {
					depth++
				} else if p.isWord(j, "end") {
					if depth--; depth == 0 {
						return j
					}
				}
			}
			return -1
		case w == "array" && p.isOp(i+1, "["):
			return p.matchForward(i + 1)
		case notNames[w]:
			return -1
		}
		if p.kind(i+1) == sqltext.String { // interval '1 day', date '…'
			return i + 1
		}
		if p.kind(i+1) != sqltext.Open {
			return i
		}
		j := p.matchForward(i + 1)
		if j < 0 {
			return -1
		}
		if p.isWord(j+1, "filter") && p.kind(j+2) == sqltext.Open {
			if j = p.matchForward(j + 2); j < 0 {
				return -1
			}
		}
		if p.isWord(j+1, "over") {
			if p.kind(j+2) == sqltext.Open {
				return p.matchForward(j + 2)
			}
			return j + 2
		}
		return j
	}
	return -1
}

// typeEnd returns the last token of the type name starting at token i:
// words (double precision, timestamp with time zone), an optional (n[,m])
// and [] suffixes.
func (p *pass) typeEnd(i int) int {
	if p.kind(i) != sqltext.Word && p.kind(i) != sqltext.Quoted {
		return -1
	}
	j := i
	for p.kind(j+1) == sqltext.Word && typeWords[strings.ToLower(p.text(j+1))] {
		j++
	}
	if p.kind(j+1) == sqltext.Open {
		if j = p.matchForward(j + 1); j < 0 {
			return -1
		}
	}
	for p.isOp(j+1, "[") {
		if j = p.matchForward(j + 1); j < 0 {
			return -1
		}
	}
	return j
}

// typeWords continue a multi-word type name.
var typeWords = map[string]bool{"precision": true, "varying": true, "with": true, "without": true, "time": true, "zone": true}

// divide: integer division for integer operands (DuckDB's //, which
// divides other types as / does) and 22012 for a zero divisor.
func divide(p *pass, i int) {
	if p.isOp(i+1, "/") && p.adjacent(i) || p.isOp(i-1, "/") && p.adjacent(i-1) {
		return // DuckDB's own //, written by the client
	}
	if p.intervalOperand(i - 1) {
		return // interval / n: DuckDB has no // for intervals
	}
	if p.isOp(i-1, "|") && p.adjacent(i-1) {
		return // |/ and ||/, PostgreSQL's square and cube roots (rootOp)
	}
	if wrapDivisor(p, i) {
		p.replace(p.toks[i].Start, p.toks[i].End, "//")
	}
}

// modulo: 22012 for a zero divisor.
func modulo(p *pass, i int) { wrapDivisor(p, i) }

// wrapDivisor sends the operand after the operator at token i through
// pg_divisor; false when that operand is not recognised. The operand
// before it goes along when it is recognised: PostgreSQL's division is
// strict, so NULL / 0 is NULL (SUM(x) / COUNT(*) over no rows), and only
// a dividend that is not NULL makes a zero divisor an error.
func wrapDivisor(p *pass, i int) bool {
	end := p.operandEnd(i + 1)
	if end < 0 {
		return false
	}
	dividend := ""
	if start := p.operandStart(i - 1); start >= 0 && !p.edited(p.toks[start].Start, p.toks[i-1].End) {
		dividend = ", " + p.src[p.toks[start].Start:p.toks[i-1].End]
	}
	if end == i+1 && p.plainString(i+1) {
		// x / '-10': PostgreSQL reads the untyped literal as the other
		// operand's type; a number written as one is that number here
		// (DuckDB's // takes no text).
		num, ok := numericText(p.text(i + 1))
		if !ok {
			return false
		}
		p.replace(p.toks[i+1].Start, p.toks[i+1].End, schema+".pg_divisor("+num+dividend+")")
		return true
	}
	if p.kind(i+1) == sqltext.Number && end == i+1 && strings.Trim(p.text(i+1), "0._") != "" {
		return true // a nonzero literal divisor needs no check
	}
	p.insert(p.toks[i+1].Start, schema+".pg_divisor(")
	p.insert(p.toks[end].End, dividend+")")
	return true
}

// exponent: PostgreSQL's 2201F errors for 0 ^ negative and negative ^
// non-integer (DuckDB answers Infinity and NaN): the exponent goes through
// pg_exponent with the base.
func exponent(p *pass, i int) {
	if p.isOp(i+1, "@") && p.adjacent(i) || p.isOp(i-1, "|") && p.adjacent(i-1) {
		return // ^@ (starts with), or part of another operator
	}
	end, start := p.operandEnd(i+1), p.operandStart(i-1)
	if end < 0 || start < 0 || p.edited(p.toks[start].Start, p.toks[i-1].End) {
		return
	}
	if p.kind(i+1) == sqltext.Number && end == i+1 && !strings.ContainsAny(p.text(i+1), ".eE") {
		return // a whole exponent written as a number (not negative): nothing to check
	}
	wrapExponent(p, i+1, end, p.src[p.toks[start].Start:p.toks[i-1].End])
}

// wrapExponent sends the exponent, tokens first…last, through pg_exponent
// with the base. An exponent written as a string literal ('2.0', 'inf')
// is read as the other operand's type by PostgreSQL: one holding a plain
// number becomes that number; another is left as written (unchecked).
func wrapExponent(p *pass, first, last int, base string) {
	if first == last && p.plainString(first) {
		num, ok := numericText(p.text(first))
		if !ok {
			return
		}
		p.replace(p.toks[first].Start, p.toks[first].End, schema+".pg_exponent("+num+", "+base+")")
		return
	}
	p.insert(p.toks[first].Start, schema+".pg_exponent(")
	p.insert(p.toks[last].End, ", "+base+")")
}

// hypothetical: PostgreSQL's hypothetical-set aggregates rank(a),
// dense_rank(a), percent_rank(a) and cume_dist(a) WITHIN GROUP (ORDER BY
// x [ASC | DESC] [NULLS FIRST | LAST]), which DuckDB lacks ("Unknown
// ordered aggregate"): pg_hypothetical_<name>(a, list(x), descending,
// nulls first) ranks a among the group's values of x. One argument and
// one sort key; a FILTER or OVER after it is left to DuckDB. Only the
// keywords and parentheses around a and x are rewritten.
func hypothetical(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	argClose := p.matchForward(i + 1)
	if argClose < 0 || argClose == i+2 || !p.isWord(argClose+1, "within") || !p.isWord(argClose+2, "group") ||
		p.kind(argClose+3) != sqltext.Open || !p.isWord(argClose+4, "order") || !p.isWord(argClose+5, "by") {
		return
	}
	groupClose := p.matchForward(argClose + 3)
	if groupClose < 0 || p.isWord(groupClose+1, "filter") || p.isWord(groupClose+1, "over") {
		return
	}
	oneItem := func(from, to int) bool {
		for j := from; j < to; j++ {
			if p.kind(j) == sqltext.Open || p.isOp(j, "[") {
				if j = p.matchForward(j); j < 0 {
					return false
				}
				continue
			}
			if p.isOp(j, ",") {
				return false
			}
		}
		return true
	}
	if !oneItem(i+2, argClose) || !oneItem(argClose+6, groupClose) {
		return
	}
	for j := i + 2; j < argClose; j++ {
		if p.kind(j+1) == sqltext.Open && p.kind(j) == sqltext.Word && aggregateNames[strings.ToLower(p.text(j))] {
			return // rank(sum(x)): PostgreSQL's 42803, DuckDB's refusal
		}
	}
	// the sort key's direction and NULLS, at its end
	keyEnd := groupClose - 1
	descending, nullsFirst, nullsGiven := false, false, false
	if p.isWord(keyEnd-1, "nulls") && (p.isWord(keyEnd, "first") || p.isWord(keyEnd, "last")) {
		nullsFirst, nullsGiven = p.isWord(keyEnd, "first"), true
		keyEnd -= 2
	}
	if p.isWord(keyEnd, "asc") || p.isWord(keyEnd, "desc") {
		descending = p.isWord(keyEnd, "desc")
		keyEnd--
	}
	if keyEnd < argClose+6 {
		return
	}
	if !nullsGiven {
		nullsFirst = descending // PostgreSQL's default
	}
	p.replace(p.toks[i].Start, p.toks[i].End, schema+".pg_hypothetical_"+strings.ToLower(p.text(i)))
	p.replace(p.toks[argClose].Start, p.toks[argClose+5].End, ", coalesce(list(")
	p.replace(p.toks[keyEnd].End, p.toks[groupClose].End, fmt.Sprintf("), []), %t, %t)", descending, nullsFirst)) // (list of no rows: NULL)
}

// powerCall: power(x, y) and pow(x, y), as exponent does for x ^ y.
func powerCall(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	close := p.matchForward(i + 1)
	if close < 0 {
		return
	}
	comma := -1
	for j := i + 2; j < close; j++ {
		if p.kind(j) == sqltext.Open || p.isOp(j, "[") {
			if j = p.matchForward(j); j < 0 {
				return
			}
			continue
		}
		if p.isOp(j, ",") {
			if comma >= 0 {
				return // not two arguments
			}
			comma = j
		}
	}
	if comma < i+3 || comma+1 >= close || p.edited(p.toks[i+2].Start, p.toks[comma-1].End) {
		return
	}
	wrapExponent(p, comma+1, close-1, p.src[p.toks[i+2].Start:p.toks[comma-1].End])
}

// numericOperand: x * '-10', x + '3', '2' - x (token i is the operator):
// PostgreSQL reads the untyped literal as the other operand's type, so a
// literal holding a plain number is that number (DuckDB could not choose
// between the number and the interval or date forms of the operator). Not
// when both operands are literals (PostgreSQL: operator is not unique), a
// literal is cast or subscripted, or the other operand is a json(b) cast
// (jsonb - 'key' deletes a key).
func numericOperand(p *pass, i int) {
	if p.adjacent(i) && p.kind(i+1) == sqltext.Op || p.adjacent(i-1) && p.kind(i-1) == sqltext.Op {
		return // part of another operator (->, #-, **)
	}
	operandEnd := func(j int) bool { // token j ends an operand
		switch p.kind(j) {
		case sqltext.Number, sqltext.Quoted, sqltext.Close, sqltext.Param:
			return true
		case sqltext.Word:
			return !p.isWord(j, "select") && !reservedBefore[strings.ToLower(p.text(j))]
		}
		return false
	}
	if !operandEnd(i-1) && !p.plainString(i-1) {
		return // unary
	}
	literal := func(j int) bool {
		typed := p.kind(j-1) == sqltext.Word && !reservedBefore[strings.ToLower(p.text(j-1))] // int2 '2', date '…'
		return p.plainString(j) && !typed && !p.isOp(j+1, ":") && !p.isOp(j+1, "[") && !p.isOp(j-1, ":") && !p.edited(p.toks[j].Start, p.toks[j].End)
	}
	jsonLeft := p.isWord(i-1, "jsonb") || p.isWord(i-1, "json")
	switch {
	case literal(i+1) && !p.plainString(i-1) && !jsonLeft && operandEnd(i-1):
		if num, ok := numericText(p.text(i + 1)); ok {
			p.replace(p.toks[i+1].Start, p.toks[i+1].End, num)
		}
	case literal(i-1) && !p.plainString(i+1) && (p.kind(i+1) == sqltext.Number || p.kind(i+1) == sqltext.Word || p.kind(i+1) == sqltext.Quoted || p.kind(i+1) == sqltext.Open):
		if p.kind(i-2) == sqltext.Op && !p.isOp(i-2, ",") && !p.isOp(i-2, "(") {
			return // the literal is another operator's operand
		}
		if num, ok := numericText(p.text(i - 1)); ok {
			p.replace(p.toks[i-1].Start, p.toks[i-1].End, num)
		}
	}
}

// minusRule and starRule: the rules of - and *, with numericOperand.
func minusRule(p *pass, i int) { minusOp(p, i); numericOperand(p, i) }
func starRule(p *pass, i int)  { recordStar(p, i); rowStar(p, i); numericOperand(p, i) }

// reservedBefore are words after which a - or + is unary.
var reservedBefore = map[string]bool{"select": true, "where": true, "and": true, "or": true, "not": true, "then": true,
	"else": true, "when": true, "return": true, "returning": true, "by": true, "in": true, "as": true, "case": true,
	"values": true, "on": true, "set": true, "between": true, "is": true, "like": true, "having": true}

// numericText is the number a string literal '…' holds, as SQL text
// ("(-10)", "0.5"); false when it holds no plain number.
func numericText(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '\'' || lit[len(lit)-1] != '\'' {
		return "", false // not a closed '…' literal
	}
	v := strings.TrimSpace(lit[1 : len(lit)-1])
	sign := ""
	if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
		sign, v = v[:1], v[1:]
	}
	digits, dot := 0, false
	for k := 0; k < len(v); k++ {
		switch c := v[k]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !dot:
			dot = true
		default:
			return "", false
		}
	}
	if digits == 0 {
		return "", false
	}
	if sign == "-" {
		return "(-" + v + ")", true
	}
	return v, true
}

// orderUsing turns ORDER BY x USING < and USING > (PostgreSQL's sort by
// an operator) into ASC and DESC, which they mean for the default
// operator classes; other operators are left for DuckDB to refuse.
func orderUsing(p *pass, i int) {
	if p.kind(i+1) != sqltext.Op || p.toks[i+1].End-p.toks[i+1].Start != 1 {
		return
	}
	op := p.text(i + 1)
	if op != "<" && op != ">" || p.kind(i+2) == sqltext.Op && p.adjacent(i+1) && !p.isOp(i+2, ",") {
		return // <=, <>, >=, …
	}
	word := "ASC"
	if op == ">" {
		word = "DESC"
	}
	p.replace(p.toks[i].Start, p.toks[i+1].End, word)
}

// intervalOperand reports whether the operand ending at token i is
// visibly an interval (interval '…', ::interval, INTERVAL n unit).
func (p *pass) intervalOperand(i int) bool {
	for j := i; j >= 0 && j > i-4; j-- {
		if p.isWord(j, "interval") {
			return true
		}
		if p.kind(j) == sqltext.Open || p.kind(j) == sqltext.Close || p.isOp(j, ",") {
			return false
		}
	}
	return false
}

// operandStart returns the first token of the operand that ends at token
// i, for the operators of containment: a primary with its postfix
// ::type, [subscript] and dotted names. -1 when not recognised.
func (p *pass) operandStart(i int) int {
	j := i
	for {
		switch {
		case p.kind(j) == sqltext.Close:
			k := p.matchBackward(j)
			if k < 0 {
				return -1
			}
			if p.kind(k-1) == sqltext.Word && !notNames[strings.ToLower(p.text(k-1))] {
				k-- // f(…)
			}
			j = k
		case p.isOp(j, "]"):
			k := p.matchBackward(j)
			if k < 0 {
				return -1
			}
			j = k - 1 // subscript: its operand precedes it
			if p.isWord(j, "array") {
				return j
			}
			continue
		case p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted:
			if p.kind(j) == sqltext.Word && notNames[strings.ToLower(p.text(j))] {
				return -1
			}
			if p.isOp(j-1, ":") && p.isOp(j-2, ":") { // x::jsonb
				j -= 3
				continue
			}
		case p.kind(j) == sqltext.String:
			if w := p.typedLiteralType(j); w >= 0 { // jsonb '…'
				return w
			}
			if p.bitConstant(j - 1) { // B'0101'
				return j - 1
			}
		case p.kind(j) == sqltext.Number || p.kind(j) == sqltext.Param:
		default:
			return -1
		}
		if p.isOp(j-1, ".") && (p.kind(j-2) == sqltext.Word || p.kind(j-2) == sqltext.Quoted) {
			j -= 2
			continue
		}
		return j
	}
}

// typedLiteralType returns the token of the type word of a typed literal
// (json '…', jsonb '…', text '…') whose string is token i, else -1.
func (p *pass) typedLiteralType(i int) int {
	if p.kind(i-1) != sqltext.Word || !typedLiteralWords[strings.ToLower(p.text(i-1))] || p.isOp(i-2, ".") {
		return -1
	}
	return i - 1
}

// typedLiteralWords are the type names that prefix a literal an operator
// of containment or existence takes (after the type rewrite: jsonb is
// JSON).
var typedLiteralWords = map[string]bool{"json": true, "jsonb": true, "text": true, "varchar": true}

// containsLeft rewrites a @> b (token i is @ of @>), and the jsonpath
// operators a @? path and a @@ path (jsonpath.go).
func containsLeft(p *pass, i int) {
	switch {
	case p.isOp(i-1, "@") && p.adjacent(i-1):
		// the second @ of @@
	case p.isOp(i+1, ">") && p.adjacent(i):
		contains(p, i, i+1, false)
	case p.isOp(i+1, "?") && p.adjacent(i):
		p.binary(i, i+1, ".pg_jsonpath_exists_op(", false)
	case p.isOp(i+1, "@") && p.adjacent(i):
		p.binary(i, i+1, ".pg_match_op(", false) // jsonpath's or text search's (tsearch.go)
	}
}

// containsRight rewrites a <@ b (token i is < of <@).
func containsRight(p *pass, i int) {
	if p.isOp(i+1, "@") && p.adjacent(i) {
		contains(p, i, i+1, true)
	}
}

// contains turns a @> b into pg_contains(a, b) and a <@ b into
// pg_contained(a, b), by insertions only, so that the rules applying
// inside either operand (a jsonb cast) still apply.
func contains(p *pass, op, op2 int, reversed bool) {
	fn := ".pg_contains("
	if reversed {
		fn = ".pg_contained("
	}
	// i @> '{32,17}': a literal that is no JSON but an array is array
	// containment (elements compared as text)
	l, r := p.arrayNotJSON(op-1), p.arrayNotJSON(op2+1)
	// i @> '{}' of an array column i (arraycompare.go)
	if l == "" && r == "" && (p.sess.ArrayColumns != nil || p.sess.TableColumns != nil) {
		if p.isEmptyArrayLiteral(op2+1) && p.literalEnds(op2+1) && p.columnBefore(op-1, p.arrayColumn) != "" {
			r = "[]"
		} else if p.isEmptyArrayLiteral(op-1) && p.literalStarts(op-1) && p.columnAfter(op2+1, p.arrayColumn) != "" {
			l = "[]"
		}
	}
	if l != "" || r != "" {
		for k, list := range map[int]string{op - 1: l, op2 + 1: r} {
			if list != "" {
				p.replace(p.toks[k].Start, p.toks[k].End, list)
			}
		}
		fn = ".pg_array_contains("
		if reversed {
			fn = ".pg_array_contained("
		}
	}
	// a bare parameter is typed as text: pg_contains reads its operands
	// several times, and DuckDB cannot rebind a prepared statement whose
	// untyped parameter appears more than once (its result lost columns)
	for _, k := range []int{op - 1, op2 + 1} {
		if p.kind(k) == sqltext.Param && !p.isOp(k+1, ":") && !p.isOp(k-1, ":") {
			p.replace(p.toks[k].Start, p.toks[k].End, "CAST("+p.text(k)+" AS VARCHAR)")
		}
	}
	p.binary(op, op2, fn, false)
}

// exists turns a ? b into pg_exists(a, b), a ?| b into pg_exists_any and
// a ?& b into pg_exists_all. A ? that does not follow an operand (DuckDB's
// own placeholder, VALUES (?, ?)) is left alone.
func exists(p *pass, i int) {
	switch {
	case p.isOp(i-1, "@") && p.adjacent(i-1):
		// the ? of @? (containsLeft)
	case p.isOp(i+1, "|") && p.adjacent(i):
		p.binary(i, i+1, ".pg_exists_any(", false)
	case p.isOp(i+1, "&") && p.adjacent(i):
		p.binary(i, i+1, ".pg_exists_all(", false)
	default:
		p.binary(i, i, ".pg_exists(", false)
	}
}

// binary turns the operator of tokens op…op2 with its operands into a call
// of fn (".name("), by insertions only, so that the rules applying inside
// either operand (a jsonb cast) still apply. The left operand takes in
// the ->, ->>, #> and #>> before it: they bind as tightly in PostgreSQL
// (one precedence for all other operators, left to right).
func (p *pass) binary(op, op2 int, fn string, textArray bool) {
	first := p.operandStart(op - 1)
	for first >= 0 {
		k := p.pathOpBefore(first)
		if k < 0 {
			break
		}
		first = p.operandStart(k - 1)
	}
	last := p.operandEnd(op2 + 1)
	if first < 0 || last < 0 {
		return
	}
	p.open(p.toks[first].Start, schema+fn)
	p.replace(p.toks[op].Start, p.toks[op2].End, ",")
	if textArray && first >= 0 && last == op2+1 && p.kind(last) == sqltext.String {
		// '{a,b}': PostgreSQL reads the literal as text[]
		p.insert(p.toks[last].Start, schema+".pg_text_array(")
		p.insert(p.toks[last].End, ")")
	}
	p.insert(p.toks[last].End, ")")
}

// path turns a #> b into pg_path(a, b), a #>> b into pg_path_text(a,
// b) and a #- b into jsonb_delete_path(a, b) (token i is #).
func path(p *pass, i int) {
	if p.isOp(i+1, "-") && p.adjacent(i) {
		p.binary(i, i+1, ".jsonb_delete_path(", true)
		return
	}
	if p.isOp(i+1, ">") && !p.adjacent(i) {
		return
	}
	if p.isOp(i+1, ">") && p.isOp(i+2, ">") && p.adjacent(i+1) {
		p.binary(i, i+2, ".pg_path_text(", true)
		return
	}
	if p.isOp(i+1, ">") {
		p.binary(i, i+1, ".pg_path(", true)
		return
	}
	p.binary(i, i, ".pg_xor(", false) // a # b: PostgreSQL's exclusive or, of integers and bit strings
}

// pathOpBefore returns the first token of a ->, ->>, #> or #>> that ends
// just before token i, -1 if there is none.
func (p *pass) pathOpBefore(i int) int {
	j := i - 1
	if !p.isOp(j, ">") {
		return -1
	}
	if p.isOp(j-1, ">") && p.adjacent(j-1) {
		j--
	}
	if (p.isOp(j-1, "-") || p.isOp(j-1, "#")) && p.adjacent(j-1) {
		return j - 1
	}
	return -1
}

// concatOp turns a || b into pg_jsonb_concat(a, b) when an operand is
// visibly jsonb ('…'::jsonb): DuckDB's || would concatenate the text.
func concatOp(p *pass, i int) {
	if !p.isOp(i+1, "|") || !p.adjacent(i) || p.isOp(i-1, "|") || p.isOp(i-1, "?") {
		return
	}
	if p.jsonbOperand(i-1, i+2) {
		p.binary(i, i+1, ".pg_jsonb_concat(", false)
		return
	}
	arrayConcatChain(p, i) // (arrayconcat.go)
}

// pipeOp: PostgreSQL's prefix operators |/ (square root) and ||/ (cube
// root), else a || b of jsonb.
func pipeOp(p *pass, i int) {
	if !rootOp(p, i) && !tsOperator(p, i, "|") {
		concatOp(p, i)
	}
}

// rootOp turns |/ x and ||/ x into pg_sqrt(x) and pg_cbrt(x) (DuckDB has
// neither operator). The operand is what PostgreSQL's grammar gives a
// prefix operator: it binds less tightly than + - * / % ^ (|/ 4 * 2 is
// the root of 8), more tightly than comparisons, AND, || and the other
// operators. Not after an operand (x |/ y is no operator in PostgreSQL).
func rootOp(p *pass, i int) bool {
	last, fn := rootPrefix(p, i)
	if last < 0 {
		return false
	}
	switch p.kind(i - 1) {
	case sqltext.Number, sqltext.String, sqltext.Close, sqltext.Quoted, sqltext.Param:
		return false
	case sqltext.Word:
		if !notNames[strings.ToLower(p.text(i-1))] {
			return false // a name: x |/ y
		}
	}
	end := p.rootOperandEnd(last + 1)
	if end < 0 {
		return false
	}
	p.replace(p.toks[i].Start, p.toks[last+1].Start, schema+"."+fn+"(")
	p.insert(p.toks[end].End, ")")
	return true
}

// rootPrefix reports whether token i starts |/ or ||/: the operator's
// last token and the macro computing it, or -1.
func rootPrefix(p *pass, i int) (int, string) {
	if p.isOp(i-1, "|") && p.adjacent(i-1) {
		return -1, "" // the second | of ||/ (or of ||)
	}
	last, fn := i+1, "pg_sqrt"
	if p.isOp(i+1, "|") && p.adjacent(i) {
		last, fn = i+2, "pg_cbrt"
	}
	if !p.isOp(last, "/") || !p.adjacent(last-1) || p.kind(last+1) == sqltext.Op && p.adjacent(last) {
		return -1, "" // |/- or |// are other operators to PostgreSQL
	}
	return last, fn
}

// rootOperandEnd returns the last token of a prefix operator's operand
// starting at token i: operands joined by + - * / % (and ^, in
// operandEnd), or a nested |/ or ||/; -1 when not recognised.
func (p *pass) rootOperandEnd(i int) int {
	if last, _ := rootPrefix(p, i); p.isOp(i, "|") && last >= 0 {
		return p.rootOperandEnd(last + 1)
	}
	end := p.operandEnd(i)
	for end >= 0 {
		k := end + 1
		if p.kind(k) != sqltext.Op {
			if p.isWord(k, "at") || p.isWord(k, "collate") {
				return -1 // bind more tightly than the operator; not followed here
			}
			return end
		}
		switch p.text(k) {
		case "+", "-", "*", "/", "%":
			if p.adjacent(k) && p.kind(k+1) == sqltext.Op && !p.isOp(k+1, "-") && !p.isOp(k+1, "+") {
				return -1 // ->, //, */ …: not followed here
			}
			end = p.operandEnd(k + 1)
		default:
			return end
		}
	}
	return end
}

// minusOp turns a - b into pg_jsonb_minus(a, b) when a is visibly jsonb
// (a key, an index or a text[] of keys deleted).
func minusOp(p *pass, i int) {
	if p.isOp(i+1, ">") && p.adjacent(i) {
		jsonKey(p, i)
		return
	}
	if p.isOp(i-1, "#") && p.adjacent(i-1) || !p.isWord(i-1, "jsonb") || !p.isOp(i-2, ":") {
		return
	}
	p.binary(i, i, ".pg_jsonb_minus(", false)
}

// jsonKey: a literal key after -> or ->> (token i is the -) that DuckDB
// would read as a path — '$…' (JSONPath), '/…' (JSON pointer) or the empty key (the
// whole document) — is written as the JSON pointer of that key ('/$oid',
// '/~1a', '/'), so that it names the key, as in PostgreSQL.
func jsonKey(p *pass, i int) {
	k := i + 2
	if p.isOp(k, ">") && p.adjacent(i+1) {
		k++
	}
	if !p.plainString(k) {
		return
	}
	key := p.stringText(k)
	if key != "" && key[0] != '$' && key[0] != '/' {
		return
	}
	pointer := "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
	p.replace(p.toks[k].Start, p.toks[k].End, "'"+strings.ReplaceAll(pointer, "'", "''")+"'")
}

// jsonbOperand reports whether the operand ending at token left, or the
// one starting at token right, ends in a ::jsonb cast.
func (p *pass) jsonbOperand(left, right int) bool {
	if p.isWord(left, "jsonb") && p.isOp(left-1, ":") {
		return true
	}
	end := p.operandEnd(right)
	return end >= 0 && p.isWord(end, "jsonb") && p.isOp(end-1, ":")
}

// reservedWord quotes at, by and show where PostgreSQL reads them as
// names (they are unreserved there) and DuckDB as keywords.
func reservedWord(p *pass, i int) {
	if p.isOp(i-1, ".") {
		p.quote(i) // t.at
		return
	}
	switch strings.ToLower(p.text(i)) {
	case "at":
		if p.isWord(i+1, "time") || p.isWord(i+1, "local") || p.kind(i+1) == sqltext.Open {
			return // AT TIME ZONE, AT LOCAL, DuckDB's AT (VERSION => …)
		}
	case "by":
		prev := strings.ToLower(p.text(i - 1))
		if p.kind(i-1) == sqltext.Word && byWords[prev] {
			return // GROUP BY, ORDER BY, PARTITION BY, …
		}
	case "show":
		if i == 0 || p.kind(i-1) == sqltext.Semi || p.isWord(i-1, "explain") ||
			p.kind(i-1) == sqltext.Open && p.kind(i+1) == sqltext.Word {
			return // SHOW …, DuckDB's FROM (SHOW TABLES)
		}
	}
	p.quote(i)
}

// byWords are the words BY follows as a keyword.
var byWords = map[string]bool{"group": true, "order": true, "partition": true, "increment": true, "generated": true,
	"all": true, "union": true, "except": true, "intersect": true, "distinct": true, "cluster": true,
	"distribute": true, "sort": true, "sorted": true}

func (p *pass) quote(i int) {
	p.replace(p.toks[i].Start, p.toks[i].End, `"`+strings.ToLower(p.text(i))+`"`)
}

// jsonbType: the type jsonb is DuckDB's JSON (reported as jsonb, 3802).
func jsonbType(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) == sqltext.Open {
		return // a name t.jsonb, or a function
	}
	p.replace(p.toks[i].Start, p.toks[i].End, "JSON")
}

// nameType: PostgreSQL's type name (identifiers, 63 bytes) is VARCHAR
// where the word is visibly a type: after ::, before a string literal
// (name 'x'), as CAST's target, and as the type of a column in CREATE
// TABLE and ALTER TABLE. name is a common column name, so every other
// place keeps the word as written.
func nameType(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) == sqltext.Open || p.isOp(i+1, ".") {
		return // t.name, name(…), name.x
	}
	if p.isOp(i-1, ":") && p.isOp(i-2, ":") || p.kind(i+1) == sqltext.String && !p.isWord(i-1, "as") ||
		p.castTarget(i) || p.columnType(i) {
		p.replace(p.toks[i].Start, p.toks[i].End, "VARCHAR")
	}
}

// arrayTypeName: PostgreSQL's internal name of an array type (_int4,
// _text, …) is its element type with [] where the word is visibly a type
// (after ::, as CAST's target or a column's or a composite field's type).
func arrayTypeName(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) == sqltext.Open || p.isOp(i+1, ".") {
		return
	}
	if p.isOp(i-1, ":") && p.isOp(i-2, ":") || p.castTarget(i) || p.columnType(i) {
		elem := strings.ToLower(p.text(i))[1:]
		switch elem {
		case "jsonb":
			elem = "json"
		case "name":
			elem = "varchar"
		}
		p.replace(p.toks[i].Start, p.toks[i].End, elem+"[]")
	}
}

// arrayTypeNames are the _type names arrayTypeName reads.
var arrayTypeNames = map[string]bool{}

func init() {
	for name := range rules {
		if strings.HasPrefix(name, "_") {
			arrayTypeNames[name] = true
		}
	}
}

// castTarget reports whether token i is the type of CAST(… AS type).
func (p *pass) castTarget(i int) bool {
	if !p.isWord(i-1, "as") || !(p.kind(i+1) == sqltext.Close || p.isOp(i+1, "[")) {
		return false
	}
	end := p.typeEnd(i)
	if end < 0 || p.kind(end+1) != sqltext.Close {
		return false
	}
	open := p.matchBackward(end + 1)
	return open > 0 && (p.isWord(open-1, "cast") || p.isWord(open-1, "try_cast"))
}

// columnAfterType are the words that may follow a column's type.
var columnAfterType = map[string]bool{"not": true, "null": true, "default": true, "primary": true, "unique": true,
	"check": true, "references": true, "collate": true, "constraint": true, "generated": true}

// columnType reports whether token i is the type of a column definition:
// CREATE TABLE t (c type …, …), ALTER TABLE … ADD [COLUMN] c type, ALTER
// [COLUMN] c [SET DATA] TYPE type.
func (p *pass) columnType(i int) bool {
	end := p.typeEnd(i)
	if end < 0 {
		return false
	}
	switch next := end + 1; {
	case next >= len(p.toks), p.kind(next) == sqltext.Semi, p.kind(next) == sqltext.Close, p.isOp(next, ","):
	case p.kind(next) == sqltext.Word && columnAfterType[strings.ToLower(p.text(next))]:
	default:
		return false
	}
	if p.isWord(i-1, "type") && p.isWord(0, "alter") {
		return true // ALTER [COLUMN] c [SET DATA] TYPE name
	}
	if p.kind(i-1) != sqltext.Word && p.kind(i-1) != sqltext.Quoted {
		return false
	}
	switch c := i - 2; {
	case p.isWord(0, "alter") && (p.isWord(c, "add") || p.isWord(c, "column") && p.isWord(c-1, "add")):
		return true
	case p.isWord(0, "create") && (p.kind(c) == sqltext.Open || p.isOp(c, ",")):
		// a column of CREATE [TEMP] TABLE t (…): the list's parenthesis
		// follows the table's name, before any AS.
		open := c
		for p.kind(open) != sqltext.Open {
			if open = p.enclosing(open); open < 0 {
				return false
			}
		}
		if p.enclosing(open) >= 0 {
			return false // nested: a CHECK (…), a function's arguments
		}
		for j := 1; j < open; j++ {
			if p.isWord(j, "type") && j == 1 {
				return compositeType(p, open) // CREATE TYPE t AS (f type, …)
			}
			if p.isWord(j, "as") || p.kind(j) == sqltext.Open {
				return false
			}
			if p.isWord(j, "table") {
				return true
			}
		}
	}
	return false
}

// compositeType reports whether token open is the parenthesis of CREATE
// TYPE name AS (…), PostgreSQL's composite type.
func compositeType(p *pass, open int) bool {
	if !p.isWord(0, "create") || !p.isWord(1, "type") || !p.isWord(open-1, "as") {
		return false
	}
	j := 2
	if p.kind(j) != sqltext.Word && p.kind(j) != sqltext.Quoted {
		return false
	}
	if p.isOp(j+1, ".") {
		j += 2
		if p.kind(j) != sqltext.Word && p.kind(j) != sqltext.Quoted {
			return false
		}
	}
	return open == j+2
}

// createType: CREATE TYPE name AS (f type, …), a composite type, is
// DuckDB's CREATE TYPE name AS STRUCT(f type, …); the fields' types are
// mapped as a table's columns are (columnType). An empty field list is
// left to DuckDB to refuse.
func createType(p *pass, i int) {
	if i != 1 || !p.isWord(0, "create") {
		return
	}
	for open := i + 2; open <= i+5 && open < len(p.toks); open++ {
		if p.kind(open) == sqltext.Open {
			if compositeType(p, open) && p.kind(open+1) != sqltext.Close {
				p.insert(p.toks[open].Start, "STRUCT")
			}
			return
		}
	}
}

// enclosing returns the index of the ( that encloses token i, -1 if none.
func (p *pass) enclosing(i int) int {
	depth := 0
	for j := i - 1; j >= 0; j-- {
		switch p.toks[j].Kind {
		case sqltext.Close:
			depth++
		case sqltext.Open:
			if depth == 0 {
				return j
			}
			depth--
		}
	}
	return -1
}

// timestamptzCall: timestamptz(date, time [with time zone]), a function
// of two arguments (timestamptz(p) is the type), calls pg_timestamptz.
func timestamptzCall(p *pass, i int) {
	if p.isOp(i-1, ".") || p.isOp(i-1, ":") || p.kind(i+1) != sqltext.Open {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 || len(p.splitArgs(i+1, closing)) != 2 {
		return
	}
	p.replace(p.toks[i].Start, p.toks[i].End, schema+".pg_timestamptz")
}

// timePrecision drops the precision of time(p), timetz(p), timestamp(p)
// and timestamptz(p), which DuckDB's types do not take (DuckDB reads
// timestamp(p) as TIMESTAMP_S or TIMESTAMP_MS, other types than
// PostgreSQL's timestamp, whose text casts refuse PostgreSQL's input):
// their values keep microseconds.
func timePrecision(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) != sqltext.Open || p.kind(i+2) != sqltext.Number || p.kind(i+3) != sqltext.Close {
		return
	}
	p.replace(p.toks[i].End, p.toks[i+3].End, "")
}

// maxDecimalDigits is the widest DECIMAL DuckDB has.
const maxDecimalDigits = 38

// wideDecimal narrows numeric(p, s) and decimal(p, s) with p above 38,
// which DuckDB refuses, to 38 digits with the same scale: values that fit
// are exact, a value with more digits is refused (out of range), never
// rounded away.
func wideDecimal(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) != sqltext.Open || p.kind(i+2) != sqltext.Number {
		return
	}
	prec, err := strconv.Atoi(p.text(i + 2))
	if err != nil || prec <= maxDecimalDigits {
		return
	}
	switch {
	case p.kind(i+3) == sqltext.Close:
	case p.isOp(i+3, ",") && p.kind(i+4) == sqltext.Number && p.kind(i+5) == sqltext.Close:
		if scale, err := strconv.Atoi(p.text(i + 4)); err != nil || scale > maxDecimalDigits {
			return
		}
	default:
		return
	}
	p.replace(p.toks[i+2].Start, p.toks[i+2].End, strconv.Itoa(maxDecimalDigits))
}

// storageParameters drops CREATE TABLE … WITH (fillfactor = n, …), the
// storage parameters of PostgreSQL's heap pages, vacuum and parallel
// scans, which mean nothing to DuckDB's storage. Only a list of those it
// knows with values PostgreSQL accepts is dropped; anything else (oids,
// an unknown parameter) is left for DuckDB to refuse.
func storageParameters(p *pass, i int) {
	if !p.isWord(0, "create") || p.kind(i-1) != sqltext.Close || p.kind(i+1) != sqltext.Open {
		return
	}
	isTable := false
	for j := 1; j < i && !isTable; j++ {
		isTable = p.isWord(j, "table")
	}
	end := p.matchForward(i + 1)
	if !isTable || end < 0 {
		return
	}
	for j := i + 2; j < end; j += 4 {
		if p.kind(j) != sqltext.Word || !p.isOp(j+1, "=") || !storageValue(strings.ToLower(p.text(j)), p.text(j+2)) ||
			!(j+3 == end || p.isOp(j+3, ",")) {
			return
		}
	}
	p.replace(p.toks[i].Start, p.toks[end].End, "")
}

// storageValue reports whether v is a value PostgreSQL takes for the
// storage parameter name.
func storageValue(name, v string) bool {
	n, err := strconv.Atoi(v)
	switch name {
	case "fillfactor":
		return err == nil && n >= 10 && n <= 100
	case "parallel_workers":
		return err == nil && n >= 0 && n <= 1024
	case "autovacuum_enabled":
		switch strings.ToLower(v) {
		case "true", "false", "on", "off":
			return true
		}
	}
	return false
}

// timestamptzLiteral reads a literal typed timestamptz ('…'::timestamptz,
// timestamptz '…', CAST('…' AS timestamptz), and the same with timestamp
// with time zone) as PostgreSQL's input does (readLiteral): formats and
// zone names DuckDB refuses, the words today, tomorrow, yesterday and
// now, and a numeric offset written after a space ('2026-12-02
// 21:55:36.153 +00:00', Sequelize's form).
func timestamptzLiteral(p *pass, i int) {
	first := i
	if p.isWord(i, "zone") {
		if p.isWord(i-1, "time") && p.isWord(i-2, "with") && p.isWord(i-3, "time") {
			if p.plainString(i + 1) { // time with time zone '…'
				p.castLiteral(i+1, i-3, i)
			}
			return
		}
		if !(p.isWord(i-1, "time") && p.isWord(i-2, "with") && p.isWord(i-3, "timestamp")) {
			return
		}
		first = i - 3
	}
	lit := -1
	switch {
	case p.kind(i+1) == sqltext.String:
		lit = i + 1
	case p.isOp(first-1, ":") && p.isOp(first-2, ":") && p.kind(first-3) == sqltext.String:
		lit = first - 3
	case p.isWord(first-1, "as") && p.kind(first-2) == sqltext.String:
		lit = first - 2
	}
	if lit < 0 {
		return
	}
	if p.plainString(lit) {
		p.readLiteral(lit, literalType{kind: litTimestampTZ}, first, i)
	}
}

// timestamptzISO reads s as PostgreSQL's timestamptz input and writes it
// in the ISO form DuckDB's cast reads alike: with the instant in UTC when
// s names a zone or offset ('Mon Feb 10 17:32:01 1997 PST' is
// '1997-02-11 01:32:01+00'), else the wall-clock time, which DuckDB then
// reads in the session's TimeZone as PostgreSQL does. The special words
// and years outside 1…9999 are left to DuckDB.
func timestamptzISO(s string) (string, bool) {
	v, err := pgdatetime.Parse(s, pgdatetime.TimestampTZ, pgdatetime.Options{Order: pgdatetime.MDY, Location: time.UTC, Now: time.Now()})
	if err != nil || v.Special != pgdatetime.None {
		return "", false
	}
	t := time.UnixMicro(v.Micros).UTC()
	if t.Year() < 1 || t.Year() > 9999 {
		return "", false
	}
	iso := t.Format("2006-01-02 15:04:05.999999")
	if v.HasZone {
		iso += "+00"
	}
	return iso, true
}

var spacedOffset = regexp.MustCompile(`^(\d{4}-\d\d-\d\d[ T]\d\d?:\d\d(?::\d\d(?:\.\d+)?)?) +([+-]\d\d?(?::?\d\d){0,2})$`)

// fixOffset removes the space before a numeric UTC offset in a timestamp
// ("2026-12-02 21:55:36.153 +00:00" → "…36.153+00:00"), which PostgreSQL
// accepts and DuckDB reads as a time zone name.
func fixOffset(s string) (string, bool) {
	if len(s) < 17 || strings.IndexByte(s, ' ') < 0 {
		return s, false
	}
	m := spacedOffset.FindStringSubmatch(s)
	if m == nil {
		return s, false
	}
	return m[1] + m[2], true
}

// TimestampParam is fixOffset for a parameter value bound as timestamptz
// or timestamp (text format): PostgreSQL's input with a spaced offset
// becomes one DuckDB casts.
func TimestampParam(s string) string {
	fixed, _ := fixOffset(s)
	return fixed
}

// templateReaders are the functions whose text argument a template reads
// (pg_to_timestamp: to_timestamp once sqltext sent it to its macro).
var templateReaders = map[string]bool{"to_timestamp": true, "pg_to_timestamp": true, "to_date": true}

// offsetLiteral removes the space before a numeric offset in a plain
// string literal (token i) of a DML statement shaped exactly like a
// timestamp with a spaced offset ('2026-12-02 21:55:36.153 +00:00'):
// Sequelize writes its timestamps so into timestamptz columns and compares
// them so in WHERE (DuckDB reads the offset as a zone name). The
// trade-off: such a literal meant as text loses that space. The text of
// to_timestamp(text, template) is left to its template.
// stringLiteral is the rule of every string constant: E'…' with Unicode
// escapes (unicodestrings.go), then offsetLiteral.
func stringLiteral(p *pass, i int) {
	escapeStringUnicode(p, i)
	offsetLiteral(p, i)
	arrayCompared(p, i)
}

func offsetLiteral(p *pass, i int) {
	if !p.dml || !p.plainString(i) || p.toks[i].End-p.toks[i].Start < 19 {
		return
	}
	if p.kind(i-1) == sqltext.Open && p.kind(i-2) == sqltext.Word && templateReaders[strings.ToLower(p.text(i-2))] {
		return
	}
	t := p.toks[i]
	if fixed, ok := fixOffset(p.src[t.Start+1 : t.End-1]); ok {
		p.replace(t.Start, t.End, "'"+fixed+"'")
	}
}
