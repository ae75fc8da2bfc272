// Package pgcompat gives PostgreSQL's SQL PostgreSQL's semantics on DuckDB
// where the two dialects read the same text differently.
//
// # Design
//
// One lexing pass per statement: sqltext.Split lexes the query once and
// each Statement carries its tokens (sqltext.Token: the lexer Split and
// Classify use, with numbers as one token). Rewrite walks those tokens
// once. Each token that is a trigger — a lower-cased word or one operator
// character — runs the rule the table rules maps it to. A rule looks at its
// neighbours in the same token slice and records edits (byte ranges of the
// source and their replacement, mostly insertions); nothing is re-lexed
// between rules, and edits are applied once at the end in source order
// (sqltext.Statement.Edit). Because rules insert around operands rather
// than replacing them, rules compose: the jsonb in '{"a":1}'::jsonb @> x is
// renamed while @> wraps its operands. A statement with none of the
// trigger bytes is returned untouched.
//
// The server calls Translate from one place (server.Session.Prepare): the
// whole text layer in order — named arguments of vsql_* calls
// (sqltext.QuoteNamedArguments), PostgreSQL's names
// (sqltext.RewritePostgresIn), then Rewrite, which also reads hex bytea
// literals (bytea.go), drops index operator classes, COLLATE "C" and
// the predicate of a partial index that is not UNIQUE, and names unnamed
// indexes (index.go), drops SELECT's locking clauses (locking.go: FOR
// UPDATE and its kin; DuckDB's optimistic transactions refuse a second
// writer of a row with 40001 instead of locking it), reads SELECT … INTO
// t as CREATE TABLE t AS SELECT … (selectinto.go), turns json_agg,
// jsonb_agg and json(b)_object_agg into string_agg over each value's JSON
// (jsonagg.go: DuckDB's json_group_* are macros without ORDER BY, DISTINCT
// or FILTER; array_agg and string_agg of DISTINCT col get ORDER BY col,
// PostgreSQL's order, and array_agg(e.enumlabel) the enum's order;
// string_agg's NULL delimiter is the empty string),
// gives a query of information_schema.columns without ORDER BY
// PostgreSQL's column order (columnsorder.go: Sequelize reads it so),
// reads x LIKE ANY / ALL (array) and x ~ ANY / ALL (array) (likeany.go), keeps the fraction of
// EXTRACT(SECOND …) and date_part('second', …), translates literal
// SIMILAR TO patterns as PostgreSQL does (extract.go), casts the string
// literal an enum column is compared with by order (col < 'label') to the
// column's enum type (enumorder.go; the server tells it the enum columns
// through Session.EnumColumns), reads a string literal that INSERT …
// VALUES or UPDATE … SET assigns to a column of an array, date/time,
// interval or boolean type as the cast to that type would be read
// (assigned.go; the server tells it the table's column types through
// Session.TableColumns), writes an INSERT whose column list assigns
// array elements and composite fields (INSERT INTO t (f[1], f[2], g.a))
// as an INSERT of whole columns built from NULL over its rows
// (insertindirection.go, with the same column types), appends to a GROUP BY of a table's primary key
// the table's other columns the query names (groupbykey.go), drops
// EXPLAIN's options DuckDB lacks
// (explain.go), reads GROUP BY ALL and GROUP BY DISTINCT
// (groupingsets.go: DISTINCT expands the list into its grouping sets,
// once each), reads SUBSTRING(s SIMILAR p ESCAPE e) and SUBSTRING(s FROM
// 'p' FOR 'e') (similarsubstr.go), reads Unicode escapes in U&'…', U&"…"
// and E'…' constants (unicodestrings.go), writes t.* inside row(…) as
// *COLUMNS(t.*) (rowStar in records.go), reads FETCH FIRST n ROWS WITH
// TIES as a QUALIFY on
// rank() (fetchties.go), reads a window frame's offset written as a
// string ('1 day' PRECEDING) as an interval or a number and refuses a
// GROUPS frame without ORDER BY and count() as PostgreSQL's parser does
// and nth_value(x, n) of an n below 1 as its executor does,
// gives lag and lead with a default such as 1.5 the common type of
// value and default, and reads percentile_cont's sort key as double
// precision (windowframe.go), evaluates an aggregate's argument only for the
// rows its FILTER keeps (aggfilter.go, through pass.deferred, which runs
// after every token's rule), writes row comparisons ((a, b) < (c, d),
// (a, b) NOT IN (SELECT …)) out element by element with PostgreSQL's
// NULL rules (rowcompare.go, deferred too), gives an empty select list
// (SELECT FROM t) the placeholder column NoColumn, which the server
// describes as none (rowcompare.go), reads float as double
// precision (floatin.go), reads interval qualifiers (INTERVAL '1 2' DAY TO HOUR,
// intervalfields.go), writes a jsonb column's subscripted
// assignment (SET j['a'][0] = v) as pg_jsonb_assign (jsonbAssign in
// jsonfuncs.go) and an array's elements and slices (SET a[2] = v,
// a[1:2] = s, b[1][2:] = s, INSERT INTO t (a[1:2]) …) as pg_array_assign,
// pg_array_set_elemN and pg_array_set_sliceN (arrayassign.go, which also
// reads x[1:2][2] as a slice of each dimension), reads a '{…}' literal
// compared with an array column as the column's type (arraycompare.go),
// writes || and array_cat of an array and an element, or of arrays of n
// and n-1 dimensions, as list_append and list_prepend (arrayconcat.go), reads the zone literal of AT TIME ZONE,
// timezone(), make_timestamptz() and date_trunc() as PostgreSQL does
// (atTimeZone, makeTimestamptzZone and dateTruncZone in datetime.go: a
// zone ICU cannot express, a dynamic abbreviation such as MSK or a fixed
// offset that is not whole hours, is applied by the Go functions
// __vsql_timezone_abbrev and __vsql_timezone_offset), wraps a cast to a domain (x::d,
// CAST(x AS d)) in the call of the domain's check macro (domains.go; the
// server tells it the domains through Session.Domains), types the array literal a number
// is compared with by ANY or ALL (anyLiteralArray in likeany.go), names
// types as PostgreSQL does in pg_typeof (pgTypeName), writes a
// CREATE FUNCTION … LANGUAGE sql of one query (or LANGUAGE plpgsql whose
// body only returns an expression) as a macro and DROP FUNCTION as DROP
// MACRO (sqlfunctions.go), refuses set-returning calls where PostgreSQL's
// parser does (srfPlacement in unnest.go), reads x BETWEEN SYMMETRIC a AND
// b (rowcompare.go), reads interval input exactly at its fields' edges
// (interval.go), reads
// nextval('public.s'::regclass), runs nextval, currval and lastval as the
// session's (sqltext.TrackedNextval: the value recorded for the caller),
// reads pg_dump's CREATE SEQUENCE … AS integer CACHE 1 with PostgreSQL's
// checks of its options (sequences.go), writes a
// literal key after -> or ->> that DuckDB would take for a path ('$oid',
// '/a', the empty key) as the JSON pointer of the key (jsonKey) and fixes spaced
// timestamptz offsets in DML (offsetLiteral). AlterTableConstraints,
// AlterDropConstraint and AlterOnIndexedTable (addconstraint.go,
// alterindexes.go) read the ALTER TABLE forms the server carries out as
// several DuckDB statements; ReadAlterSequence and AlterSequence.Apply
// (altersequence.go) read ALTER SEQUENCE and check its parameters as
// PostgreSQL does, for the server to make the sequence anew; FewerValues,
// InsertTarget and WithColumnList (insertcolumns.go) give an INSERT of
// fewer values than columns the column list of the first ones, after
// DuckDB refused it; ReadUpsert and Upsert.DuplicateKeysQuery
// (upsert.go) write the query the server runs before an INSERT … VALUES
// … ON CONFLICT (keys) DO UPDATE to refuse rows proposing one key twice,
// as PostgreSQL does (DuckDB keeps the first and drops the others);
// MultiColumnSubquery (multiassign.go) writes UPDATE … SET (a, b) =
// (SELECT x, y …) as one scalar subquery per column, before Translate;
// RowStars (rowstar.go) writes x.* in DO UPDATE and UPDATE (records
// compared, ROW(v.*)) as the row's columns, before Translate;
// ReadUpsertMerge (upsertmerge.go) writes an ON CONFLICT … DO UPDATE
// whose SET or WHERE holds a subquery as DuckDB's MERGE, with the probe
// and check the server runs first; ReturningSubquery (returningsub.go)
// writes a RETURNING list with a subquery as a data-modifying WITH over
// the RETURNING * rows. The rule of CONFLICT (upsert.go)
// refuses ON CONFLICT DO UPDATE without a target and RETURNING
// excluded.c; the rule of INTO (selectinto.go) refuses SELECT … INTO out
// of place.
// CreateTableLike and WithLikeColumns (createlike.go) read CREATE TABLE
// t (LIKE s …) and write its element out as the source's columns, which
// the server reads from DuckDB's catalog. The rule of WITH (recursive.go)
// checks a WITH list as PostgreSQL's parser does (a column list longer
// than its query, mutual recursion, a malformed recursive query) and
// returns PostgreSQL's error in Translation.Err, which the server sends
// instead of running the statement; it writes a WITH RECURSIVE list in
// PostgreSQL's order when an item names a later one, and rewrites SEARCH
// and CYCLE clauses into the recursive query PostgreSQL's rewriter makes
// of them. Each step reads the tokens the step before left:
// Statement.Edit moves the tokens an edit does not touch and lexes only
// the text the edit wrote, together with the tokens it cut or touches, so
// the client's text is lexed once from Split to DuckDB's prepare
// (server's TestOneLexingPass counts the passes, sqltext.LexPasses; the
// tests compare Edit's tokens with a fresh pass on every rewrite and in
// FuzzRewrite). A statement that ends inside a quote or comment is left
// alone (DuckDB refuses it). The bench reports the layer's cost per
// statement with its lexing passes ("The PostgreSQL layer per
// statement"). Rewritten
// statements call macros in memory.__vsql_fn that Setup creates once per
// process; client SQL cannot name them (names starting with __vsql are
// refused before the rewrite).
//
// # PostgreSQL functions
//
// Setup also creates macros of PostgreSQL functions DuckDB lacks (to_char,
// to_timestamp(text, text), to_date, to_number, regexp_instr and the other
// regexp_* functions, parse_ident, jsonb_set, jsonb_insert, jsonb_typeof,
// json(b)_extract_path, width_bucket, trim_array, …; docs/sql.md lists
// them; array_fill of constant dimensions is a rule, arrayFill, that
// writes nested list comprehensions). Their
// names are given to sqltext.ProvideFunctions, so that RewritePostgres
// sends a bare call of one to memory.__vsql_fn (sqltext.FunctionsSchema),
// in its existing pass: apart from the catalogs of memory.__vsql_pg,
// whose views and macros call DuckDB's functions by unqualified names
// that a macro of the same schema would shadow. A PostgreSQL function
// DuckDB also has (to_timestamp, regexp_replace, regexp_matches,
// string_to_array, lpad, encode, date_trunc, …) also gets a macro named
// pg_… (sqltext.ProvideFunctionAs), so that the macros of
// memory.__vsql_fn, too, reach DuckDB's own under the plain name. Where
// a macro cannot express PostgreSQL's semantics — the template languages
// of to_char and to_timestamp and format()'s (textformat.go, which
// first turns each argument into its type's PostgreSQL text with
// __vsql_pg_text, as concat and concat_ws do through pg_text_arg), RE2 matches at character positions (a
// backtracking engine, regexp2, for the back references and lookaround RE2 refuses), paths into JSON,
// json_object and jsonb_object of text arrays (jsonfuncs.go), cardinality
// and width_bucket of arrays (arrayfuncs.go), initcap, get_byte and
// set_byte (strfuncs.go, which also has the bytea overloads of trim,
// ltrim, rtrim and bit_count, registered as the bit string ones are),
// jsonb_pretty (jsonb.go), json's text (jsontext.go: the type pg_json,
// its casts and the Go functions of its operators and builders), the
// jsonpath of @?,
// @@, jsonb_path_exists and jsonb_path_match (jsonpath.go: a parser and a
// lax-mode evaluator of the part of jsonpath queries use) —
// the macro calls a Go scalar function of the engine
// (RegisterFunctions, udf.go) named __vsql_…, which client SQL cannot
// name either (TestProvidedFunctionsInternal). Go functions raise
// PostgreSQL's errors with vsql codes (invalid_datetime_format 22007,
// datetime_field_overflow 22008, invalid_template 42601,
// invalid_regular_expression 2201B, invalid_unicode_escape 42601,
// invalid_text_representation 22P02, invalid_argument 22023), their hints
// carried through DuckDB by vsqlerr.ForEngine.
//
// justify_hours, justify_days and justify_interval are Go functions too
// (justify.go), beside the macros div, scale and min_scale. So are the
// trigonometric functions in degrees (sind, cosd, tand, cotd, asind,
// acosd, atand, atan2d; trig.go), which follow PostgreSQL's float.c step
// by step and call the C library's sin, cos, asin, acos, atan and atan2
// through cgo, for PostgreSQL's values to the last bit. jsonb.go is
// jsonb's one printer (AppendJSONB: keys shorter first, ", " and ": "),
// used by pgwire for JSON columns and here for record values.
//
// jsonsrf.go: PostgreSQL's JSON set-returning functions
// (json(b)_array_elements(_text), json(b)_each(_text),
// json(b)_object_keys) as table macros of the same schema, reached in
// FROM through sqltext.ProvideTableMacro (which also says what a table
// alias of the call names), and, those returning one column, as scalar
// macros of the same name that unnest in a select list. json_each's
// macro is pg_json_each, so that its body reaches DuckDB's json_each.
//
// # Full-text search
//
// tsvector, tsquery and regconfig are VARCHAR holding PostgreSQL's text
// (tsearch.go: the macros and rules; tsparse.go: the default parser's
// tokens for ordinary text and the configurations simple and english,
// the latter with PostgreSQL's English stop words and the Snowball
// stemmer of github.com/kljensen/snowball; tsvector.go and tsquery.go:
// the types' input, normalization and output, the to_tsquery family and
// @@; tsrank.go: ts_rank and ts_rank_cd in PostgreSQL's float4
// arithmetic; tsheadline.go: ts_headline's covers, choice of headline
// and MaxFragments' fragments, as PostgreSQL 15's wparser_def.c chooses
// them). Every function is a Go function reading and writing that
// text. Because the engine sees text only, the rules tell the types
// apart by sight: x::tsvector, CAST(x AS tsquery) and tsvector 'x' are
// the normalizing input functions (pg_tsvector_in, pg_tsquery_in; the
// type word elsewhere, as a column's type, is VARCHAR); a || b, a && b,
// !!a, a <-> b and length(a) become text search's calls when an operand
// is a cast to the type or a call of a function returning it
// (tsOperator, tsqueryNot, tsqueryPhrase, tsLength); a @@ b is pg_match_op, which is jsonpath's for
// a JSON left operand and otherwise reads each side as a tsvector or
// tsquery when it is in PostgreSQL's output form (every lexeme quoted),
// else as text (to_tsvector, plainto_tsquery), as PostgreSQL's text @@
// text. The default configuration is the constant pg_catalog.english.
//
// # Casts from text (casts.go)
//
// RegisterCasts also replaces DuckDB's casts of VARCHAR to DOUBLE and
// FLOAT with PostgreSQL's float8in and float4in (floatin.go): text beyond
// the type's range, or too small to be anything but zero, is refused
// with numeric_value_out_of_range (22003), where DuckDB's cast made it
// Infinity or 0. And its casts of VARCHAR to SMALLINT, INTEGER and BIGINT
// with PostgreSQL's integer input (intin.go): spaces, a sign and decimal
// digits only, so '34.5' is invalid_text_representation (22P02) where
// DuckDB rounded it to 35, and a value beyond the type 22003. The parse
// does not allocate: COPY reads every integer through it. And its cast
// of VARCHAR to BLOB with PostgreSQL's bytea input (ParseBytea, bytes.go:
// \x and hex pairs, or the escape format), where DuckDB read '\xdeadbeef'
// as one escaped byte and seven characters; pgwire reads bytea parameters
// with the same function.
//
// RegisterCasts also replaces DuckDB's casts of DOUBLE and FLOAT to
// SMALLINT, INTEGER and BIGINT (duckstream.RegisterFloatCast: rounded half
// to even before the range check, as PostgreSQL; DuckDB checked first and
// 32767.6::float8::int2 wrapped to -32768). It replaces DuckDB's casts of
// VARCHAR to DATE, TIMESTAMP and
// TIME in the engine with PostgreSQL's input functions
// (internal/pgdatetime, through duckstream.RegisterTextCast): every CAST,
// ::, typed literal and implicit cast of a string into a column of those
// types then reads PostgreSQL's formats and fails with PostgreSQL's
// messages (invalid_datetime_input 22007, datetime_field_overflow 22008,
// invalid_time_zone_displacement 22009, invalid_time_zone 22023). A cast
// has no session: it reads MDY order, and the words now, today, tomorrow
// and yesterday in UTC, which the counts of sessions off MDY
// (SessionDateOrder) and off UTC (SessionZone) make safe: while one
// exists, the cast refuses text whose value the order decides, or those
// words (datetime_needs_session). Typed literals of date, timestamp and
// time are read by the rewrite in the session's own DateStyle and
// TimeZone (TranslateIn's Session; datetimeLiteral in literals.go) and
// written in ISO form, the words as current_date and now(). timestamptz keeps DuckDB's (ICU) cast, which
// reads a zone-less time in the session's TimeZone; its typed literals are
// read by pgdatetime and rewritten in ISO form (timestamptzLiteral; BC
// and five-digit years as make_timestamp of their microseconds, the words
// today and now as current_date and now()). The
// ISO 8601 forms bulk data comes in (COPY, INSERT of many rows) take a
// fast path that reads them without allocating (isoDatetime): measured on
// COPY of 500,000 rows with a timestamp and a date column, 0.42–0.50 s,
// as with DuckDB's own cast (0.49–0.51 s); every value through pgdatetime
// took 1.40 s.
//
// # Bit strings (bitstring.go)
//
// bit(n) and bit varying(n) are two types of the engine registered by
// RegisterFunctions (duckstream.RegisterTextType): pg_bit and varbit,
// text of '0' and '1', one character a bit, which pgwire reports as bit
// (OID 1560) and varbit (1562). DuckDB's BIT was measured and not taken:
// it compares its storage, a padding byte first, so '1101' sorted before
// '0' and '10' before '1' (PostgreSQL: bitwise, then the shorter first),
// and it refuses the empty bit string. Text of 0 and 1 compares
// byte by byte with a prefix first, which is PostgreSQL's order, so =, <,
// ORDER BY, DISTINCT and indexes need nothing of vsql's; length,
// substring and || of the text are those of the bits. Their casts from
// text read PostgreSQL's bit input (binary digits, B…, X… hexadecimal;
// 22P02 for another character), each converts to the other implicitly,
// casts to integer and bigint take the last bits (22003 beyond the
// type's width), and casts to smallint, real, double precision and bytea,
// which PostgreSQL lacks and DuckDB made of the digits, raise 42846. The
// operators & | ~ << >> and ||, and length, bit_length, octet_length,
// position, get_bit, set_bit and bit_count, are Go functions overloading
// DuckDB's on pg_bit (varbit converts to it, as PostgreSQL's operators
// are declared on bit); a # b is pg_xor (the rule of #); get_bit and
// set_bit of bytea, and octet_length of text, are overloads there too. A
// length is not part of an engine type: the rules below write a cast to
// one as a call and a column of one as the type and a CHECK.
//
// # Money (money.go)
//
// money is an integer type of the engine (duckstream.RegisterIntType):
// DECIMAL(18,2) named money, whose int64 is the cents, pgwire's money
// (OID 790). DuckDB compares, sorts, hashes and takes min and max of the
// int64s; the alias keeps DuckDB's functions of DECIMAL from it, and a
// DECIMAL rather than BIGINT base keeps integer literals from converting
// to it (DuckDB's rule for integer literals ignores aliases). Its casts
// (cash_in, cash_out, from integer, bigint and every DECIMAL, to every
// DECIMAL, and PostgreSQL's refusals) are Go functions in DuckDB's cast
// map; + - * / and cashlarger, cashsmaller, cash_words are Go overloads.
// The rewrite's / is // (divide), so / and // both have money's
// overloads; its numericOperand makes m + '1.5' m + 1.5, which DuckDB
// refuses, so the server prepares such a statement again with the numbers
// beside + and - quoted back one at a time (MoneyNumber). sum has no
// overload to add (DuckDB refuses overloads of a built-in aggregate): a
// statement DuckDB refuses for sum(money) is prepared again with pg_sum,
// a macro whose overload on money sums the cents as DECIMAL(38,2) with
// DuckDB's sum (MoneySum), and calls of sum a macro cannot take (DISTINCT,
// ORDER BY, FILTER, OVER) one at a time as the cast of that sum.
// sum over interval follows the same path (intervalsum.go): pg_sum's
// INTERVAL overload sums the months, days and microseconds apart, and
// IntervalSumCall writes a call with FILTER, ORDER BY or OVER as the
// interval of three such sums.
//
// Caveats: to_number returns double precision (DuckDB's DECIMAL has one
// scale per column, PostgreSQL's numeric one per value); to_char of a
// timestamptz reads the session's TimeZone by name: DuckDB's, or the
// variable vsql_timezone the server sets for a zone DuckDB cannot name
// ('-04:30', SET TIME ZONE 10.5), read by pgdatetime.ParseZoneSetting
// (one neither knows is taken as UTC); the regexp_* functions speak RE2, not PostgreSQL's
// ARE (no lookahead, back references or \m \M word boundaries).
//
// sqltext is a lexer, not a parser: an operand is recognised by the shape
// of its tokens (a literal, a name, a parenthesised expression, a function
// call with FILTER/OVER, CASE … END, ARRAY[…], then ::type, [subscript],
// .field and ^). Where a rule cannot tell, it leaves the text as written:
// DuckDB's semantics, never an error of its own making.
//
// PostgreSQL's own grammar (github.com/pganalyze/pg_query_go/v6, v6.2.5)
// was measured as the alternative and not taken. On the bench's four
// layer statements (bench/wire.go, layerStatements), each benchmark right
// after the other on this machine, medians of 3 runs of 20,000:
// pg_query.Parse alone takes 38.1 µs (point query), 34.3 µs (ORM INSERT),
// 62.1 µs (rewritten) and 79.4 µs (catalog query), where vsql's whole
// layer — sqltext.Parse and Translate, every rewrite included — takes 2.4,
// 3.9, 10.9 and 23.0 µs: the parse alone is 3.5–16× the layer, before any
// rule would walk its tree or the tree be deparsed back to DuckDB's text,
// and DuckDB-only syntax (vsql's docs use map {…}, SUMMARIZE, struct
// literals) would still need the token path as a fallback. Its scanner
// alone (pg_query.Scan: 4.1, 8.7, 10.3, 18.5 µs) costs about what
// sqltext's lexer and all the rules cost together. It also adds
// PostgreSQL's parser sources to the cgo build: 44 s more wall time (56 s
// of CPU) on a cold cache, on top of DuckDB's.
//
// # The rules
//
//   - a / b: integer division for integer operands, as DuckDB's //, which
//     divides every other numeric type as / does. Not for a left operand
//     that is visibly an interval (interval '…' / 2), which // cannot
//     divide; an interval computed by an expression ((t1 - t0) / 2) fails
//     with "No function matches '//(INTERVAL, …)'": write it * 0.5.
//
//   - |/ x, ||/ x: pg_sqrt(x), pg_cbrt(x) (rootOp), PostgreSQL's prefix
//     square and cube root, which DuckDB lacks (and the rule for a / b
//     would make |//). The operand extends over + - * / % ^ (a prefix
//     operator binds less tightly than those in PostgreSQL's grammar);
//     after a name or another operand the text is left as written.
//
//   - a / '-10', a % '3', a * '2', a + '3', '10' - a: a string literal
//     holding a plain number is that number (PostgreSQL reads the untyped
//     literal as the other operand's type; DuckDB's // takes no text and
//     its * + - cannot choose between their forms; numericOperand).
//
//   - ORDER BY x USING < and USING >: ASC and DESC (orderUsing).
//
//   - rank(a), dense_rank(a), percent_rank(a), cume_dist(a) WITHIN GROUP
//     (ORDER BY x …): pg_hypothetical_<name>(a, list of x, descending,
//     nulls first) (hypothetical), PostgreSQL's hypothetical-set
//     aggregates, which DuckDB lacks.
//
//   - x ^ y, power(x, y), pow(x, y): the exponent goes through
//     pg_exponent with the base (exponent, powerCall), which raises
//     [vsql:invalid_power] (2201F) for 0 to a negative power and a
//     negative number to a non-integer one, where DuckDB answers Infinity
//     and NaN. An exponent written as a whole number is left alone.
//
//   - a / b and a % b: a divisor that is not a nonzero literal goes through
//     pg_divisor, which raises [vsql:division_by_zero] (SQLSTATE 22012) for
//     zero, as PostgreSQL does for integers, numerics and floats alike
//     (DuckDB returns NULL or Infinity) — unless the dividend, passed along
//     when the rule recognises it and no other rule rewrote it, is NULL:
//     PostgreSQL's division is strict, so SUM(x) / COUNT(*) over no rows
//     is NULL. Overflow needs no rule: DuckDB's
//     "Out of Range Error" is 22003 already (package vsqlerr).
//
//   - at, by, show: unreserved in PostgreSQL, keywords in DuckDB; quoted
//     where they are names (not AT TIME ZONE, GROUP/ORDER/PARTITION BY,
//     SHOW at the start of a statement).
//
//   - jsonb: DuckDB's JSON (pgwire reports JSON as jsonb, OID 3802, the type
//     ORMs declare). json: the engine type pg_json (jsontext.go), its text
//     as written, reported as json (114); ->, ->>, #>, #>>, the json
//     set-returning functions and the functions that build json
//     (json_build_object, json_agg, to_json, …) keep or write
//     PostgreSQL's text.
//
//   - a @> b, a <@ b: pg_contains / pg_contained, PostgreSQL's jsonb
//     containment (jsoncontains.go: a Go function of both sides cast to
//     JSON, lists becoming JSON arrays; DuckDB's json_contains searched
//     nested values and compared numbers as text).
//
//   - a ? b, a ?| b, a ?& b: pg_exists, pg_exists_any, pg_exists_all over
//     the strings at the top level of a (an object's keys, an array's
//     string elements, a string). A ? that follows no operand is DuckDB's
//     placeholder and stays.
//
//   - a #> b, a #>> b: pg_path / pg_path_text, the path (text[]; a string
//     literal '{a,0}' goes through pg_text_array) walked one element at a
//     time: a key of an object (a JSON pointer step), an index of an array
//     (negative from the end).
//
//   - B'0101', X'1F': CAST('B0101' AS pg_bit) (bitLiteral; the letter
//     stays for the cast to read the digits in its base).
//
//   - bit(n), bit, bit varying(n), varbit(n) where visibly a type
//     (bitType): x::bit(n) and CAST(x AS bit(n)) are pg_bit_cast(x, n),
//     which pads or cuts a bit string or text on the right and takes an
//     integer's last n bits, as PostgreSQL's explicit cast (bit alone is
//     bit(1)); x::bit varying(n) is pg_varbit_cast(x, n), which cuts
//     (x::varbit is pg_varbit_cast(x, -1), which refuses an integer). A
//     column of CREATE TABLE gets the type and CHECK (__vsql_bit_fits(col,
//     n, fixed)) (a Go function: DuckDB would refuse to replace a macro a
//     CHECK calls), which raises PostgreSQL's 22026 (bit(n) of another
//     length) or 22001 (bit varying(n) longer); ALTER TABLE … ADD gets
//     the type alone (DuckDB adds no column with a constraint), so that
//     length is not checked. An array of bit strings (bit(4)[]) is an
//     array of the type, without the length.
//
//   - a # b: pg_xor(a, b), DuckDB's xor (integers) and vsql's (bit
//     strings); DuckDB's parser has no # operator.
//
//   - name: PostgreSQL's identifier type is VARCHAR where the word is
//     visibly a type (after ::, before a string literal, as CAST's
//     target, as a column's type in CREATE TABLE and ALTER TABLE); a
//     column or alias called name is left alone. Not truncated to 63
//     bytes as PostgreSQL's name is.
//
//   - time(p), timetz(p), timestamp(p), timestamptz(p): the precision,
//     which DuckDB's types refuse (or, for timestamp(p), read as other
//     types: TIMESTAMP_S, TIMESTAMP_MS), is dropped (values keep
//     microseconds; PostgreSQL rounds them to p digits).
//
//   - x::varchar(n) and CAST(x AS varchar(n)): the value cut to n
//     characters (charlength.go; pg_varchar_cut, which server/colnames.go
//     sees through). A column's declared length is not enforced.
//
//   - numeric(p, s), decimal(p, s) with p above 38: DECIMAL(38, s), the
//     widest DuckDB has; values that fit are exact, wider ones are
//     refused (out of range), never rounded.
//
//   - CREATE TABLE … WITH (fillfactor = n, parallel_workers = n,
//     autovacuum_enabled = b): PostgreSQL's storage parameters, which mean
//     nothing to DuckDB's storage, are dropped when every one is known and
//     its value one PostgreSQL accepts (else DuckDB refuses the clause).
//
//   - x [NOT] LIKE | ILIKE pattern (likeescape.go): ESCAPE '\' added, as
//     PostgreSQL's LIKE escapes with a backslash by default, when the
//     pattern is not a literal or is one with a backslash.
//
//   - x + interval '1 month - 1 second', x - '…'::interval (intervalorder.go):
//     a literal with a calendar and a time part, the right operand of + or
//     -, becomes two intervals added in PostgreSQL's order (months and
//     days, then time); DuckDB's timestamptz added the time first.
//
//   - enum_range(a, b): DuckDB's enum_range_boundary, a bare NULL given
//     the other argument's cast type (enumorder.go).
//
//   - CREATE VIEW … WITH (security_barrier, security_invoker = b,
//     check_option = local) (viewoptions.go): checked as PostgreSQL checks
//     them (22023 for another name or value), then dropped.
//
//   - '… +00:00'::timestamptz, timestamptz '…', CAST('…' AS timestamp with
//     time zone): the space before a numeric offset is removed (DuckDB
//     reads "+00:00" after a space as a zone name). TimestampParam does the
//     same for text parameters bound as timestamp or timestamptz (Sequelize
//     sends its dates this way); an untyped literal is left alone.
//
//   - a || b, a - b (a or, for ||, b visibly '…'::jsonb) and a #- b:
//     pg_jsonb_concat (objects merge, other values concatenate as
//     arrays), pg_jsonb_minus (a key, an index, a text[] of keys) and
//     jsonb_delete_path; DuckDB would concatenate the text or refuse.
//
//   - '…'::bool, bool '…', CAST('…' AS boolean) (also through ::text):
//     the literal read as PostgreSQL reads booleans (' f ', 'on', 'of',
//     'yes', '1'), written as 'true' or 'false'; text that is no boolean
//     is left for DuckDB's cast to refuse (22P02 on both).
//
//   - '{1,2}'::int[], CAST('{a,"b c",NULL}' AS text[]): PostgreSQL's array
//     input becomes a DuckDB list of string literals the cast converts
//     element by element; a literal nested deeper than the type's []
//     gets more [] (PostgreSQL's int[] has any number of dimensions).
//     A dimension prefix ('[1:2]={…}') is read when its lower bounds are
//     1; other bounds, which a list cannot have, and text PostgreSQL
//     refuses (ragged or mixed nesting, '{{},{}}') become the error
//     PostgreSQL's input would raise (or feature_not_supported). An untyped
//     literal operand of && (i && '{32,17}') becomes DuckDB's list text
//     ('[32, 17]'), which DuckDB casts to the other side's list type as
//     PostgreSQL does the literal. With @> and <@, such a literal that is
//     no JSON ('{32}', not '{}') makes the operator array containment,
//     pg_array_contains (elements compared as text, NULL never
//     contained).
//
//   - num_nulls(VARIADIC a), num_nonnulls(VARIADIC a): the macros that
//     count an array's elements; concat, concat_ws, json(b)_build_array
//     and json(b)_build_object of VARIADIC a: Go functions taking the
//     array's elements, flattened, as the arguments (variadic.go).
//
//   - date '…', '…'::date, CAST('…' AS date): the inputs PostgreSQL reads
//     alike under every DateStyle ('January 8, 1999', '08-Jan-1999',
//     '19990108', '990108', '1999.008', 'J2451187') become ISO text; the
//     orders DateStyle decides ('1/8/1999', two-digit years) are left.
//
//   - interval '…', '…'::interval, CAST('…' AS interval): PostgreSQL's
//     interval input (signed fields '-1 +02:03', '+02:00', year-month
//     '1-2', '@ … ago', fractional units, ISO 8601 'P1Y2M3DT4H' and its
//     alternative format) read here into months, days and microseconds,
//     written as text DuckDB reads alike; what this reader does not know
//     is left to DuckDB.
//
//   - (a, b) OVERLAPS (c, d): pg_overlaps(a, b, c, d), a Go function with
//     PostgreSQL's overloads and its NULL rules (overlaps.go); DuckDB's
//     parser reads OVERLAPS as a call of a function it lacks.
//
//   - overlay(s PLACING r FROM n FOR m): the call overlay(s, r, n, m)
//     (DuckDB's parser has no PLACING); substring(s FROM 'pattern') and
//     substring(s, 'pattern') with a text literal pattern:
//     pg_substring_regex, PostgreSQL's regular expression substring
//     (DuckDB would read the pattern as a position). substring(s FROM n
//     FOR m) and substring(s FOR m) become calls of pg_substring, to
//     which sqltext sends substring and substr (the macro pg_substr:
//     DuckDB's array_slice at PostgreSQL's positions, for text and
//     bytea; DuckDB's substring counts a negative start from the end).
//
//   - unnest(a, b, …) [WITH ORDINALITY] alias(c1, c2, …) in FROM: PostgreSQL
//     zips the arrays (padding with NULL); it becomes a LATERAL subquery of
//     one-argument unnests, which DuckDB zips the same way, the ordinality
//     an unnest of generate_series over the longest (unnest.go). Django's
//     index introspection sends it.
//
//   - generate_series(…) in a select list: rows in PostgreSQL, one list in
//     DuckDB; wrapped in unnest(…) (CAST(… AS INTEGER) for literal int4
//     bounds, PostgreSQL's type), and a select item that is the bare call
//     is named generate_series. psqlODBC's SQLForeignKeys numbers key
//     columns this way.
//
//   - CREATE TYPE t AS (f type, …): PostgreSQL's composite type is
//     DuckDB's CREATE TYPE t AS STRUCT(f type, …); the fields' types are
//     a table's column types to the other rules (name, jsonb, wide
//     numerics, and _int4-style array names, which become int4[] where
//     visibly a type). Package pgwire prints structs in PostgreSQL's row
//     format. row(a, b) as a whole select-list item of a SELECT, or
//     before a field ((row(a, b)).f1), is struct_pack(f1 := a, f2 := b):
//     PostgreSQL's field names, and a struct the driver can read (it
//     refuses DuckDB's unnamed ones); elsewhere it stays unnamed, which
//     DuckDB casts to a named struct by position (row(…)::t, VALUES). (x).*
//     as a select-list item is unnest(x), the fields as columns.
//
//   - json(b)_populate_record(set)(base, j), json(b)_to_record(set)(j)
//     AS x(a int, …) (records.go): written out as json_transform_strict
//     of the JSON text a Go function (__vsql_json_populate) builds from
//     the base and j, to the structure to_json(typeof(base)); in FROM a
//     LATERAL subquery unnesting the struct into columns, in a select
//     list the struct (a recordset: unnest of the list). The column
//     definition list of json_to_record is the base CAST(NULL AS
//     STRUCT(a int, …)), as it is of json_populate_record(null::record,
//     j) AS (a int, …) (without one, null::record raises PostgreSQL's
//     0A000); an anonymous row(…) base becomes struct_pack(f1 := …, …),
//     PostgreSQL's field names.
//
//     Why this design: the record's type is the base value's own DuckDB
//     type, which DuckDB folds to a constant at bind time (typeof), so
//     nothing is looked up in the catalog (duckdb_types() would cost a
//     query per statement and know nothing of a row(…) or a column
//     definition list) and no state is carried from the CREATE TYPE that
//     was rewritten (it would not survive a restart, a branch switch or a
//     type created through DuckDB's own syntax). A macro cannot hold the
//     expression: DuckDB binds a macro's body when it is created, and
//     json_transform's structure must be a constant then; so the base is
//     repeated in the statement (its copies rewritten on their own). The
//     merge is in Go because PostgreSQL's per-field rules need the field
//     types (typeof's text, parsed there): a missing key takes the base's
//     field, a scalar field reads the value's text (so DuckDB's cast from
//     text refuses 43.2 for an integer, where json_transform would round
//     it), arrays and nested records are converted element by element,
//     and PostgreSQL's errors are raised with its SQLSTATEs.
//     json_transform_strict refuses what json_transform would make NULL.
//
// These operator rules (@>, <@, ?, #>) become calls by insertions only;
// their left operand takes in the ->, ->>, #> and #>> before it, which
// bind as tightly in PostgreSQL, and an operator further right wraps the
// ones before it (pass.open).
//
// # Caveats
//
// json_contains also finds a nested needle (PostgreSQL's @> compares from
// the top: '{"a":{"b":1}}' @> '{"b":1}' is false there, true here). jsonb
// values are printed in jsonb's form by package pgwire, numbers in their
// shortest form; ->> and #>> of an object or array give DuckDB's compact
// text. Rewritten operators are named ?column? as PostgreSQL names them
// (server's postgresColumnName).
package pgcompat
