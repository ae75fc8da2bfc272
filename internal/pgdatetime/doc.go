// Package pgdatetime reads date/time input text exactly as PostgreSQL 15's
// input functions do: date_in, timestamp_in, timestamptz_in, time_in and
// timetz_in, that is PostgreSQL's ParseDateTime (splitting the text into
// fields), DecodeDateTime and DecodeTimeOnly (deciding what each field is)
// and the checks the input functions make afterwards. vsqld uses it where
// DuckDB's own parser would refuse PostgreSQL's formats: in the cast from
// VARCHAR to DATE, TIMESTAMP and TIME, and in the SQL rewriter for typed
// literals such as DATE 'January 8, 1999'.
//
// It is pure Go: no DuckDB, no cgo.
//
// # What it reads
//
// Everything PostgreSQL's input functions accept (section 8.5.1 of its
// manual), with the same heuristics, among them:
//
//   - ISO 8601: '1999-01-08 04:05:06', '1999-01-08T04:05:06Z',
//     '19990108T040506', offsets '+05', '+05:30', '+0530', '-05:30:15';
//   - dates with month names and numeric dates in DateStyle's field order
//     (Options.Order, MDY by default): 'January 8, 1999', '1/8/1999',
//     '18/1/1999' (DMY), '1999-Jan-08', 'Jan-08-1999', '08-Jan-1999',
//     '99-Jan-08', '19990108', '990108', '1999.008' (year and day of year),
//     'J2451187' (Julian day), BC and AD, two-digit years (below 70 is
//     20xx, else 19xx), ignored day names ('Mon Feb 10 17:32:01 1997 PST');
//   - times with fractional seconds (rounded to microseconds as PostgreSQL
//     rounds them), AM/PM, run-together '040506', 24:00:00 and leap second
//     :60 where PostgreSQL allows them, unit-labelled fields
//     ('y1999m01d08h04mm05s06');
//   - zones: the abbreviations of PostgreSQL's "Default" set (fixed ones
//     such as PST or CEST and the dynamic ones such as MSK, whose meaning
//     comes from their zone's history), IANA names in any case
//     ('America/New_York', 'america/new_york': matched against the system's
//     zoneinfo directory when there is one, else by the names' usual
//     capitalization; Go's time package with time/tzdata embedded, so they
//     resolve without the system's tzdata), POSIX-style specifications
//     as PostgreSQL's tzparse reads them ('GMT+8' is eight hours WEST of
//     Greenwich, 'UTC-3', 'PST8PDT'; one with a daylight-saving name and no
//     rule follows the US rules, as PostgreSQL's default rule), 'MET DST';
//   - the special words 'epoch', 'infinity', '-infinity', 'now', 'today',
//     'tomorrow', 'yesterday' (the last three optionally with a time) and
//     'allballs', where PostgreSQL takes them (Value.Special says which).
//
// What PostgreSQL refuses is refused with the same SQLSTATE and message
// text: invalid input syntax (22007), field value or date/timestamp out of
// range (22008), unknown zone name (22023), time zone displacement out of
// range (22009).
//
// # API
//
// Parse(s, kind, opts) returns a Value. A Date is days since 1970-01-01; a
// Timestamp is the wall-clock time in microseconds since 1970-01-01 00:00
// (a zone in the input is checked and ignored, as PostgreSQL does); a
// TimestampTZ is the instant in microseconds since the Unix epoch, with the
// offset used in Value.Offset; a Time or TimeTZ is microseconds since
// midnight, TimeTZ's offset in Value.Offset (seconds east of UTC, as
// PostgreSQL prints it: '10:00 PST' has -28800). Value.HasZone says the
// input named a zone or offset. Infinities are DuckDB's encodings:
// math.MaxInt32 and -math.MaxInt32 for dates, math.MaxInt64 and
// -math.MaxInt64 for timestamps. Years are proleptic Gregorian with 1 BC
// as year 0. Errors are *Error, with Reason, PostgreSQL's Msg and
// SQLSTATE(). LoadLocation resolves a zone name as PostgreSQL's TimeZone
// setting does, for callers that need the session zone as a
// *time.Location; ParseZoneSetting reads a value of the TimeZone setting
// as SET TIME ZONE takes it (a number of hours east, '10.5'; a POSIX
// offset west, '-04:30'; a name; a POSIX specification) with the value
// SHOW answers ('<+10:30>-10:30'), and OffsetZone names a fixed offset
// as PostgreSQL does; AtZone resolves the zone of AT TIME ZONE (an
// abbreviation first, as a fixed offset, then a name) for the SQL
// rewriter; DynamicAbbrev, AbbrevOffsetAt and AbbrevOffsetLocal give a
// dynamic abbreviation's offset at an instant or for a wall-clock time
// (timestamptz and timestamp AT TIME ZONE 'MSK'). ParseISO (iso.go) reads the plain ISO 8601 forms bulk
// data comes in (YYYY-MM-DD, YYYY-MM-DD HH:MM:SS[.ffffff], HH:MM:SS)
// without allocating, as Parse reads them, and declines anything else;
// vsqld's casts from text try it first. JulianDay, DateOfJulian, DaysIn
// and IsLeap are the calendar PostgreSQL's input uses, for vsql's other
// date code (to_char, to_date).
//
// # What it does not do
//
//   - Session settings come from the caller: DateStyle's field order
//     (Options.Order), TimeZone (Options.Location, nil = UTC) and the
//     transaction's current instant (Options.Now, for 'now', 'today', and
//     for zones of a time without a date). It never reads the clock or the
//     process's zone.
//   - Only PostgreSQL's Default abbreviation set; the timezone_abbreviations
//     setting is not modelled.
//   - Zone history comes from Go's tzdata (the system's, else the embedded
//     copy), which may be a different release from PostgreSQL's.
//   - Timestamps beyond DuckDB's range (after 294246 AD; PostgreSQL goes to
//     294276 AD) are refused with OutOfRange, "timestamp out of range".
//   - Type modifiers (timestamp(0) etc.) are not applied: Parse keeps
//     microseconds.
//   - It does not format values, and it does not read intervals.
package pgdatetime
