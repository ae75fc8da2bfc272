package pgdatetime

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Kind is the type the input is read as.
type Kind int

// The kinds Parse reads.
const (
	Date Kind = iota
	Timestamp
	TimestampTZ
	Time
	TimeTZ
)

// String returns PostgreSQL's name of the type.
func (k Kind) String() string {
	switch k {
	case Date:
		return "date"
	case Timestamp:
		return "timestamp without time zone"
	case TimestampTZ:
		return "timestamp with time zone"
	case Time:
		return "time without time zone"
	case TimeTZ:
		return "time with time zone"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// errName is the type name PostgreSQL's input functions put in their
// syntax error messages.
func (k Kind) errName() string {
	switch k {
	case Date:
		return "date"
	case Timestamp:
		return "timestamp"
	case TimestampTZ:
		return "timestamp with time zone"
	case Time:
		return "time"
	case TimeTZ:
		return "time with time zone"
	}
	return k.String()
}

// Order is DateStyle's field order for ambiguous numeric dates.
type Order int

// The field orders.
const (
	MDY Order = iota
	DMY
	YMD
)

// Options are the session settings the input depends on.
type Options struct {
	// Order is DateStyle's field order for numeric dates.
	Order Order
	// Now is the transaction's current instant, for 'now', 'today',
	// 'tomorrow', 'yesterday' (and the date of a time without one).
	Now time.Time
	// Location is the session's TimeZone (nil = UTC): a TimestampTZ or
	// TimeTZ without an explicit zone is read in it; 'today' etc. are dates
	// in it.
	Location *time.Location
}

// Special says which special word the input was, if any.
type Special int

// The special words.
const (
	None Special = iota
	Infinity
	NegInfinity
	Now
	Today
	Tomorrow
	Yesterday
	Epoch
	Allballs
)

// Value is a parsed input. Infinity and NegInfinity are DuckDB's
// encodings: Days math.MaxInt32 and -math.MaxInt32, Micros math.MaxInt64
// and -math.MaxInt64.
type Value struct {
	// Days is a Date: days since 1970-01-01 (proleptic Gregorian; 1 BC is
	// year 0).
	Days int32
	// Micros is, for a Timestamp, microseconds since 1970-01-01 00:00:00
	// of the wall-clock time (a zone in the input is ignored, as
	// PostgreSQL ignores it); for a TimestampTZ, microseconds since the
	// Unix epoch (the instant); for a Time or TimeTZ, microseconds since
	// midnight (24:00:00 is 86400000000).
	Micros int64
	// Offset is, for a TimeTZ, its offset in seconds EAST of UTC
	// ('10:00 PST' has -28800); for a TimestampTZ, the offset used for
	// the instant; for the other kinds, the zone the input named, if any.
	Offset int
	// HasZone says the input named a zone or offset explicitly.
	HasZone bool
	// Special is the special word the input was, if any.
	Special Special
}

// Reason classifies an Error.
type Reason int

// The reasons.
const (
	BadSyntax           Reason = iota // 22007
	OutOfRange                        // 22008
	BadZone                           // 22023
	BadZoneDisplacement               // 22009
)

// Error is an input PostgreSQL refuses, with PostgreSQL's message.
type Error struct {
	Reason Reason
	Msg    string
}

func (e *Error) Error() string { return e.Msg }

// SQLSTATE returns the error's SQLSTATE code.
func (e *Error) SQLSTATE() string {
	switch e.Reason {
	case OutOfRange:
		return "22008"
	case BadZone:
		return "22023"
	case BadZoneDisplacement:
		return "22009"
	}
	return "22007"
}

// Limits of the encodings.
const (
	usecsPerSec  = int64(1000000)
	usecsPerDay  = int64(86400000000)
	unixEpochJD  = 2440588
	pgEpochJD    = 2451545
	dateEndJD    = 2147483494
	minTimestamp = int64(-211813488000000000) // PostgreSQL's, relative to 2000-01-01
	endTimestamp = int64(9223371331200000000)
	pgEpochShift = int64(946684800000000) // 2000-01-01 - 1970-01-01 in microseconds
)

// internal error codes, as PostgreSQL's DTERR_*.
type dterr int

const (
	dtOK dterr = iota
	dtBadFormat
	dtFieldOverflow
	dtMDFieldOverflow
	dtTZDispOverflow
	dtTimeOnly // DecodeDateTime's "return 1": only a time was given
)

// zoneErr is a named zone PostgreSQL does not know, reported directly.
type zoneErr struct{ name string }

func (z *zoneErr) Error() string { return fmt.Sprintf("time zone \"%s\" not recognized", z.name) }

func parseError(d dterr, s string, k Kind) *Error {
	switch d {
	case dtFieldOverflow, dtMDFieldOverflow:
		return &Error{OutOfRange, fmt.Sprintf("date/time field value out of range: \"%s\"", s)}
	case dtTZDispOverflow:
		return &Error{BadZoneDisplacement, fmt.Sprintf("time zone displacement out of range: \"%s\"", s)}
	}
	return &Error{BadSyntax, fmt.Sprintf("invalid input syntax for type %s: \"%s\"", k.errName(), s)}
}

// Parse reads s as PostgreSQL's input function for k does (date_in,
// timestamp_in, timestamptz_in, time_in, timetz_in). An input PostgreSQL
// refuses returns an *Error with PostgreSQL's SQLSTATE and message.
func Parse(s string, k Kind, o Options) (Value, error) {
	if k < Date || k > TimeTZ {
		return Value{}, &Error{BadSyntax, fmt.Sprintf("pgdatetime: unknown kind %d", int(k))}
	}
	if o.Location == nil {
		o.Location = time.UTC
	}
	p := &parser{opts: o}
	bufLen := 129 // MAXDATELEN + 1
	if k == Timestamp || k == TimestampTZ {
		bufLen = 128 + 25
	}
	d := p.tokenize(s, bufLen)
	var zerr *zoneErr
	if d == dtOK {
		if k == Time || k == TimeTZ {
			d, zerr = p.decodeTimeOnly()
		} else {
			d, zerr = p.decodeDateTime()
		}
	}
	if zerr != nil {
		return Value{}, &Error{BadZone, zerr.Error()}
	}
	if d != dtOK {
		return Value{}, parseError(d, s, k)
	}
	v := Value{HasZone: p.zoned, Special: p.special}
	tm := &p.tm
	switch k {
	case Date:
		switch p.dtype {
		case dtkDate:
		case dtkEpoch:
			tm.year, tm.mon, tm.mday = 1970, 1, 1
		case dtkLate:
			v.Days = math.MaxInt32
			return v, nil
		case dtkEarly:
			v.Days = -math.MaxInt32
			return v, nil
		default:
			return Value{}, parseError(dtBadFormat, s, k)
		}
		if !validJulian(tm.year, tm.mon, tm.mday) {
			return Value{}, &Error{OutOfRange, fmt.Sprintf("date out of range: \"%s\"", s)}
		}
		j := date2j(tm.year, tm.mon, tm.mday)
		if j < 0 || j >= dateEndJD {
			return Value{}, &Error{OutOfRange, fmt.Sprintf("date out of range: \"%s\"", s)}
		}
		v.Days = int32(j - unixEpochJD)
		if v.HasZone {
			v.Offset = -p.tz
		}
		return v, nil
	case Timestamp, TimestampTZ:
		switch p.dtype {
		case dtkDate:
			var tzp *int
			if k == TimestampTZ {
				tzp = &p.tz
			}
			r, ok := tm2timestamp(tm, p.fsec, tzp)
			if !ok || r > math.MaxInt64-pgEpochShift || r+pgEpochShift == math.MaxInt64 {
				return Value{}, &Error{OutOfRange, fmt.Sprintf("timestamp out of range: \"%s\"", s)}
			}
			v.Micros = r + pgEpochShift
			if k == TimestampTZ || v.HasZone {
				v.Offset = -p.tz
			}
		case dtkEpoch:
			v.Micros = 0
		case dtkLate:
			v.Micros = math.MaxInt64
		case dtkEarly:
			v.Micros = -math.MaxInt64
		default:
			return Value{}, parseError(dtBadFormat, s, k)
		}
		return v, nil
	default:
		v.Micros = secsOfDay(tm)*usecsPerSec + p.fsec
		if k == TimeTZ || v.HasZone {
			v.Offset = -p.tz
		}
		return v, nil
	}
}

// MustParse is Parse for inputs known to be valid; it panics otherwise.
func MustParse(s string, k Kind, o Options) Value {
	v, err := Parse(s, k, o)
	if err != nil {
		panic(err)
	}
	return v
}

// Field types, as PostgreSQL's DTK_* of ParseDateTime.
const (
	ftNumber = iota
	ftString
	ftDate
	ftTime
	ftTZ
	ftSpecial
)

// Token types (PostgreSQL's RESERV, MONTH, ...); also the bit positions of
// the field masks.
const (
	fReserv     = 0
	fMonth      = 1
	fYear       = 2
	fDay        = 3
	fJulian     = 4
	fTZ         = 5
	fDTZ        = 6
	fDynTZ      = 7
	fIgnore     = 8
	fAmPm       = 9
	fHour       = 10
	fMinute     = 11
	fSecond     = 12
	fMillisec   = 13
	fMicrosec   = 14
	fDOY        = 15
	fDOW        = 16
	fUnits      = 17
	fADBC       = 18
	fISOTime    = 23
	fDTZMod     = 28
	fUnknown    = 31
	dateMask    = 1<<fYear | 1<<fMonth | 1<<fDay
	allSecsMask = 1<<fSecond | 1<<fMillisec | 1<<fMicrosec
	timeMask    = 1<<fHour | 1<<fMinute | allSecsMask
)

func bit(t int) int { return 1 << t }

// Values of RESERV and UNITS tokens (PostgreSQL's DTK_*).
const (
	dtkDate = iota + 1
	dtkTime
	dtkTZ
	dtkEpoch
	dtkLate
	dtkEarly
	dtkNow
	dtkToday
	dtkTomorrow
	dtkYesterday
	dtkZulu
	dtkSecond
	dtkMinute
	dtkHour
	dtkDay
	dtkMonth
	dtkYear
	dtkJulian
	dtkDOW
	dtkDOY
	dtkISODOW
	dtkISOYear
)

const (
	am = iota
	pm
	hr24
)

type token struct {
	typ int
	val int
}

// datetktbl is PostgreSQL's core token table.
var datetktbl = map[string]token{
	"-infinity": {fReserv, dtkEarly},
	"ad":        {fADBC, 0},
	"allballs":  {fReserv, dtkZulu},
	"am":        {fAmPm, am},
	"apr":       {fMonth, 4},
	"april":     {fMonth, 4},
	"at":        {fIgnore, 0},
	"aug":       {fMonth, 8},
	"august":    {fMonth, 8},
	"bc":        {fADBC, 1},
	"d":         {fUnits, dtkDay},
	"dec":       {fMonth, 12},
	"december":  {fMonth, 12},
	"dow":       {fUnits, dtkDOW},
	"doy":       {fUnits, dtkDOY},
	"dst":       {fDTZMod, 3600},
	"epoch":     {fReserv, dtkEpoch},
	"feb":       {fMonth, 2},
	"february":  {fMonth, 2},
	"fri":       {fDOW, 5},
	"friday":    {fDOW, 5},
	"h":         {fUnits, dtkHour},
	"infinity":  {fReserv, dtkLate},
	"isodow":    {fUnits, dtkISODOW},
	"isoyear":   {fUnits, dtkISOYear},
	"j":         {fUnits, dtkJulian},
	"jan":       {fMonth, 1},
	"january":   {fMonth, 1},
	"jd":        {fUnits, dtkJulian},
	"jul":       {fMonth, 7},
	"julian":    {fUnits, dtkJulian},
	"july":      {fMonth, 7},
	"jun":       {fMonth, 6},
	"june":      {fMonth, 6},
	"m":         {fUnits, dtkMonth},
	"mar":       {fMonth, 3},
	"march":     {fMonth, 3},
	"may":       {fMonth, 5},
	"mm":        {fUnits, dtkMinute},
	"mon":       {fDOW, 1},
	"monday":    {fDOW, 1},
	"nov":       {fMonth, 11},
	"november":  {fMonth, 11},
	"now":       {fReserv, dtkNow},
	"oct":       {fMonth, 10},
	"october":   {fMonth, 10},
	"on":        {fIgnore, 0},
	"pm":        {fAmPm, pm},
	"s":         {fUnits, dtkSecond},
	"sat":       {fDOW, 6},
	"saturday":  {fDOW, 6},
	"sep":       {fMonth, 9},
	"sept":      {fMonth, 9},
	"september": {fMonth, 9},
	"sun":       {fDOW, 0},
	"sunday":    {fDOW, 0},
	"t":         {fISOTime, dtkTime},
	"thu":       {fDOW, 4},
	"thur":      {fDOW, 4},
	"thurs":     {fDOW, 4},
	"thursday":  {fDOW, 4},
	"today":     {fReserv, dtkToday},
	"tomorrow":  {fReserv, dtkTomorrow},
	"tue":       {fDOW, 2},
	"tues":      {fDOW, 2},
	"tuesday":   {fDOW, 2},
	"wed":       {fDOW, 3},
	"wednesday": {fDOW, 3},
	"weds":      {fDOW, 3},
	"y":         {fUnits, dtkYear},
	"yesterday": {fReserv, dtkYesterday},
}

// tokMaxLen is how many characters of a word PostgreSQL compares.
const tokMaxLen = 10

func decodeSpecial(s string) token {
	if len(s) > tokMaxLen {
		s = s[:tokMaxLen]
	}
	if t, ok := datetktbl[s]; ok {
		return t
	}
	return token{fUnknown, 0}
}

type pgtm struct {
	year, mon, mday, hour, min, sec, yday int
}

type parser struct {
	opts Options

	fields []string // lowercased, as PostgreSQL's field[]
	raw    []string // the same text in the input's own case
	ftype  []int

	tm      pgtm
	fsec    int64
	tz      int // seconds WEST of UTC, PostgreSQL's sign
	dtype   int
	special Special
	zoned   bool // the input named a zone or offset

	// the zone the decoders found by name: a zone (namedTz), or a dynamic
	// abbreviation (abbrev, of the zone abbrevZone)
	namedTz            *time.Location
	abbrevZone, abbrev string
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isDigit(c) || isAlpha(c) }
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}
func isPunct(c byte) bool { return c > 32 && c < 127 && !isAlnum(c) }
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// tokenize is PostgreSQL's ParseDateTime.
func (p *parser) tokenize(s string, bufLen int) dterr {
	used := 0
	i := 0
	for i < len(s) {
		c := s[i]
		if isSpace(c) {
			i++
			continue
		}
		if len(p.fields) >= 25 {
			return dtBadFormat
		}
		var f, r []byte
		overflow := false
		app := func(lc bool) {
			if used+1 >= bufLen {
				overflow = true
			}
			ch := s[i]
			r = append(r, ch)
			if lc {
				ch = lower(ch)
			}
			f = append(f, ch)
			used++
			i++
		}
		var ft int
		switch {
		case isDigit(c):
			app(false)
			for i < len(s) && isDigit(s[i]) {
				app(false)
			}
			if i < len(s) && s[i] == ':' {
				ft = ftTime
				app(false)
				for i < len(s) && (isDigit(s[i]) || s[i] == ':' || s[i] == '.') {
					app(false)
				}
			} else if i < len(s) && (s[i] == '-' || s[i] == '/' || s[i] == '.') {
				delim := s[i]
				app(false)
				if i < len(s) && isDigit(s[i]) {
					if delim == '.' {
						ft = ftNumber
					} else {
						ft = ftDate
					}
					for i < len(s) && isDigit(s[i]) {
						app(false)
					}
					if i < len(s) && s[i] == delim {
						ft = ftDate
						app(false)
						for i < len(s) && (isDigit(s[i]) || s[i] == delim) {
							app(false)
						}
					}
				} else {
					ft = ftDate
					for i < len(s) && (isAlnum(s[i]) || s[i] == delim) {
						app(true)
					}
				}
			} else {
				ft = ftNumber
			}
		case c == '.':
			app(false)
			for i < len(s) && isDigit(s[i]) {
				app(false)
			}
			ft = ftNumber
		case isAlpha(c):
			ft = ftString
			app(true)
			for i < len(s) && isAlpha(s[i]) {
				app(true)
			}
			isDate := false
			if i < len(s) {
				switch n := s[i]; {
				case n == '-' || n == '/' || n == '.':
					isDate = true
				case n == '+' || isDigit(n):
					if decodeSpecial(string(f)).typ == fUnknown {
						isDate = true
					}
				}
			}
			if isDate {
				ft = ftDate
				for {
					app(true)
					if i >= len(s) {
						break
					}
					n := s[i]
					if !(n == '+' || n == '-' || n == '/' || n == '_' || n == '.' || n == ':' || isAlnum(n)) {
						break
					}
				}
			}
		case c == '+' || c == '-':
			app(false)
			for i < len(s) && isSpace(s[i]) {
				i++
			}
			if i < len(s) && isDigit(s[i]) {
				ft = ftTZ
				app(false)
				for i < len(s) && (isDigit(s[i]) || s[i] == ':' || s[i] == '.' || s[i] == '-') {
					app(false)
				}
			} else if i < len(s) && isAlpha(s[i]) {
				ft = ftSpecial
				app(true)
				for i < len(s) && isAlpha(s[i]) {
					app(true)
				}
			} else {
				return dtBadFormat
			}
		case isPunct(c):
			i++
			continue
		default:
			return dtBadFormat
		}
		if overflow {
			return dtBadFormat
		}
		used++ // the terminating NUL
		p.fields = append(p.fields, string(f))
		p.raw = append(p.raw, string(r))
		p.ftype = append(p.ftype, ft)
	}
	return dtOK
}

// strtoint is PostgreSQL's strtoint over the digits at the start of s:
// it returns the value, the rest of s, and whether it overflowed int32.
// Without digits it returns 0 and s unchanged.
func strtoint(s string) (int, string, bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	j := i
	if j < len(s) && (s[j] == '+' || s[j] == '-') {
		neg = s[j] == '-'
		j++
	}
	k := j
	var v int64
	over := false
	for k < len(s) && isDigit(s[k]) {
		if v < 1<<40 {
			v = v*10 + int64(s[k]-'0')
		} else {
			over = true
		}
		k++
	}
	if k == j {
		return 0, s, false
	}
	if neg {
		v = -v
	}
	if over || v > math.MaxInt32 || v < math.MinInt32 {
		return 0, s[k:], true
	}
	return int(v), s[k:], false
}

// atoi is C's atoi as glibc has it, (int) strtol: the digits saturate at
// the 64-bit limits, then the value is truncated to 32 bits.
func atoi(s string) int {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	var v uint64
	over := false
	for ; i < len(s) && isDigit(s[i]); i++ {
		d := uint64(s[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			over = true
			continue
		}
		v = v*10 + d
	}
	var r int64
	switch {
	case !neg && (over || v > math.MaxInt64):
		r = math.MaxInt64
	case neg && (over || v > 1<<63):
		r = math.MinInt64
	case neg:
		r = -int64(v)
	default:
		r = int64(v)
	}
	return int(int32(r))
}

// secsOfDay is PostgreSQL's ((hour * 60 + min) * 60 + sec), computed in C
// int arithmetic (wrapping at 32 bits, as it does in practice).
func secsOfDay(tm *pgtm) int64 {
	return int64((int32(tm.hour)*60+int32(tm.min))*60 + int32(tm.sec))
}

// parseFraction is PostgreSQL's ParseFraction: s starts with '.'.
func parseFraction(s string) (float64, bool) {
	if s == "." {
		return 0, true
	}
	for i := 1; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat("0"+s, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

func parseFractionalSecond(s string) (int64, bool) {
	f, ok := parseFraction(s)
	if !ok {
		return 0, false
	}
	return int64(math.RoundToEven(f * 1e6)), true
}

// strtodPrefix is strtod(s, NULL) for s starting with '.' followed by
// digits (anything after the digits is ignored).
func strtodPrefix(s string) float64 {
	i := 1
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 1 {
		return 0
	}
	f, _ := strconv.ParseFloat("0"+s[:i], 64)
	return f
}

// decodeTime is PostgreSQL's DecodeTime.
func (p *parser) decodeTime(s string) (int, dterr) {
	tm := &p.tm
	var over bool
	var cp string
	tm.hour, cp, over = strtoint(s)
	if over {
		return timeMask, dtFieldOverflow
	}
	if cp == "" || cp[0] != ':' {
		return timeMask, dtBadFormat
	}
	tm.min, cp, over = strtoint(cp[1:])
	if over {
		return timeMask, dtFieldOverflow
	}
	switch {
	case cp == "":
		tm.sec = 0
		p.fsec = 0
	case cp[0] == '.':
		f, ok := parseFractionalSecond(cp)
		if !ok {
			return timeMask, dtBadFormat
		}
		p.fsec = f
		tm.sec = tm.min
		tm.min = tm.hour
		tm.hour = 0
	case cp[0] == ':':
		tm.sec, cp, over = strtoint(cp[1:])
		if over {
			return timeMask, dtFieldOverflow
		}
		switch {
		case cp == "":
			p.fsec = 0
		case cp[0] == '.':
			f, ok := parseFractionalSecond(cp)
			if !ok {
				return timeMask, dtBadFormat
			}
			p.fsec = f
		default:
			return timeMask, dtBadFormat
		}
	default:
		return timeMask, dtBadFormat
	}
	if tm.hour < 0 || tm.min < 0 || tm.min > 59 || tm.sec < 0 || tm.sec > 60 || p.fsec < 0 || p.fsec > usecsPerSec {
		return timeMask, dtFieldOverflow
	}
	return timeMask, dtOK
}

// decodeNumberField is PostgreSQL's DecodeNumberField. It returns the
// mask, and dtkDate, dtkTime or a negative result as an error.
func (p *parser) decodeNumberField(s string, fmask int, is2digits *bool) (int, dterr) {
	tm := &p.tm
	tmask := 0
	if k := strings.IndexByte(s, '.'); k >= 0 {
		if k+1 == len(s) {
			p.fsec = 0
		} else {
			p.fsec = int64(math.RoundToEven(strtodPrefix(s[k:]) * 1e6))
		}
		s = s[:k]
	} else if fmask&dateMask != dateMask {
		if len(s) >= 6 {
			tmask = dateMask
			n := len(s)
			tm.mday = atoi(s[n-2:])
			tm.mon = atoi(s[n-4 : n-2])
			tm.year = atoi(s[:n-4])
			if n-4 == 2 {
				*is2digits = true
			}
			return tmask, dtOK
		}
	}
	if fmask&timeMask != timeMask {
		if len(s) == 6 {
			tm.sec = atoi(s[4:])
			tm.min = atoi(s[2:4])
			tm.hour = atoi(s[:2])
			return timeMask, dtOK
		} else if len(s) == 4 {
			tm.sec = 0
			tm.min = atoi(s[2:])
			tm.hour = atoi(s[:2])
			return timeMask, dtOK
		}
	}
	return tmask, dtBadFormat
}

// decodeNumber is PostgreSQL's DecodeNumber.
func (p *parser) decodeNumber(s string, haveTextMonth bool, fmask int, is2digits *bool) (int, dterr) {
	tm := &p.tm
	flen := len(s)
	val, cp, over := strtoint(s)
	if over {
		return 0, dtFieldOverflow
	}
	if len(cp) == len(s) {
		return 0, dtBadFormat
	}
	if cp != "" && cp[0] == '.' {
		if len(s)-len(cp) > 2 {
			return p.decodeNumberField(s, fmask|dateMask, is2digits)
		}
		f, ok := parseFractionalSecond(cp)
		if !ok {
			return 0, dtBadFormat
		}
		p.fsec = f
	} else if cp != "" {
		return 0, dtBadFormat
	}
	if flen == 3 && fmask&dateMask == bit(fYear) && val >= 1 && val <= 366 {
		tm.yday = val
		return bit(fDOY) | bit(fMonth) | bit(fDay), dtOK
	}
	var tmask int
	order := p.opts.Order
	switch fmask & dateMask {
	case 0:
		if flen >= 3 || order == YMD {
			tmask = bit(fYear)
			tm.year = val
		} else if order == DMY {
			tmask = bit(fDay)
			tm.mday = val
		} else {
			tmask = bit(fMonth)
			tm.mon = val
		}
	case bit(fYear):
		tmask = bit(fMonth)
		tm.mon = val
	case bit(fMonth):
		if haveTextMonth {
			if flen >= 3 || order == YMD {
				tmask = bit(fYear)
				tm.year = val
			} else {
				tmask = bit(fDay)
				tm.mday = val
			}
		} else {
			tmask = bit(fDay)
			tm.mday = val
		}
	case bit(fYear) | bit(fMonth):
		if haveTextMonth {
			if flen >= 3 && *is2digits {
				tmask = bit(fDay)
				tm.mday = tm.year
				tm.year = val
				*is2digits = false
			} else {
				tmask = bit(fDay)
				tm.mday = val
			}
		} else {
			tmask = bit(fDay)
			tm.mday = val
		}
	case bit(fDay):
		tmask = bit(fMonth)
		tm.mon = val
	case bit(fMonth) | bit(fDay):
		tmask = bit(fYear)
		tm.year = val
	case dateMask:
		return p.decodeNumberField(s, fmask, is2digits)
	default:
		return 0, dtBadFormat
	}
	if tmask == bit(fYear) {
		*is2digits = flen <= 2
	}
	return tmask, dtOK
}

// decodeDate is PostgreSQL's DecodeDate.
func (p *parser) decodeDate(s string, fmask int, is2digits *bool) (int, dterr) {
	tmask := 0
	var fields []string
	i := 0
	for i < len(s) && len(fields) < 25 {
		for i < len(s) && !isAlnum(s[i]) {
			i++
		}
		if i >= len(s) {
			return tmask, dtBadFormat
		}
		start := i
		if isDigit(s[i]) {
			for i < len(s) && isDigit(s[i]) {
				i++
			}
		} else if isAlpha(s[i]) {
			for i < len(s) && isAlpha(s[i]) {
				i++
			}
		}
		fields = append(fields, s[start:i])
		if i < len(s) {
			i++
		}
	}
	haveTextMonth := false
	done := make([]bool, len(fields))
	for j, f := range fields {
		if f != "" && isAlpha(f[0]) {
			t := decodeSpecial(f)
			if t.typ == fIgnore {
				continue
			}
			dmask := bit(t.typ)
			if t.typ != fMonth {
				return tmask, dtBadFormat
			}
			p.tm.mon = t.val
			haveTextMonth = true
			if fmask&dmask != 0 {
				return tmask, dtBadFormat
			}
			fmask |= dmask
			tmask |= dmask
			done[j] = true
		}
	}
	for j, f := range fields {
		if done[j] {
			continue
		}
		if f == "" {
			return tmask, dtBadFormat
		}
		dmask, d := p.decodeNumber(f, haveTextMonth, fmask, is2digits)
		if d != dtOK {
			return tmask, d
		}
		if fmask&dmask != 0 {
			return tmask, dtBadFormat
		}
		fmask |= dmask
		tmask |= dmask
	}
	if fmask&^(bit(fDOY)|bit(fTZ)) != dateMask {
		return tmask, dtBadFormat
	}
	return tmask, dtOK
}

// decodeTimezone is PostgreSQL's DecodeTimezone: s starts with + or -.
func decodeTimezone(s string) (int, dterr) {
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return 0, dtBadFormat
	}
	hr, cp, over := strtoint(s[1:])
	if over {
		return 0, dtTZDispOverflow
	}
	min, sec := 0, 0
	if cp != "" && cp[0] == ':' {
		min, cp, over = strtoint(cp[1:])
		if over {
			return 0, dtTZDispOverflow
		}
		if cp != "" && cp[0] == ':' {
			sec, cp, over = strtoint(cp[1:])
			if over {
				return 0, dtTZDispOverflow
			}
		}
	} else if cp == "" && len(s) > 3 {
		min = hr % 100
		hr = hr / 100
	}
	if hr < 0 || hr > 15 || min < 0 || min >= 60 || sec < 0 || sec >= 60 {
		return 0, dtTZDispOverflow
	}
	tz := (hr*60+min)*60 + sec
	if s[0] == '-' {
		tz = -tz
	}
	if cp != "" {
		return -tz, dtBadFormat
	}
	return -tz, dtOK
}

// validateDate is PostgreSQL's ValidateDate.
func (p *parser) validateDate(fmask int, isjulian, is2digits, bc bool) dterr {
	tm := &p.tm
	if fmask&dateMask == 0 {
		return dtOK
	}
	switch {
	case fmask&bit(fYear) == 0:
	case isjulian:
	case bc:
		if tm.year <= 0 {
			return dtFieldOverflow
		}
		tm.year = -(tm.year - 1)
	case is2digits:
		if tm.year < 0 {
			return dtFieldOverflow
		}
		if tm.year < 70 {
			tm.year += 2000
		} else if tm.year < 100 {
			tm.year += 1900
		}
	default:
		if tm.year <= 0 {
			return dtFieldOverflow
		}
	}
	if fmask&bit(fDOY) != 0 {
		tm.year, tm.mon, tm.mday = j2date(date2j(tm.year, 1, 1) + int64(tm.yday) - 1)
	}
	if fmask&bit(fMonth) != 0 && (tm.mon < 1 || tm.mon > 12) {
		return dtMDFieldOverflow
	}
	if fmask&bit(fDay) != 0 && (tm.mday < 1 || tm.mday > 31) {
		return dtMDFieldOverflow
	}
	if fmask&dateMask == dateMask && tm.mday > daysIn(tm.year, tm.mon) {
		return dtFieldOverflow
	}
	return dtOK
}

func isLeap(y int) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

// DaysIn is the number of days of month m (1-12) of year y, IsLeap
// whether y is a leap year (proleptic Gregorian).
func DaysIn(y, m int) int { return daysIn(y, m) }

func IsLeap(y int) bool { return isLeap(y) }

func daysIn(y, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

func timeOverflows(h, m, s int, fsec int64) bool {
	if h < 0 || h > 24 || m < 0 || m >= 60 || s < 0 || s > 60 || fsec < 0 || fsec > usecsPerSec {
		return true
	}
	return ((int64(h)*60+int64(m))*60+int64(s))*usecsPerSec+fsec > usecsPerDay
}

// JulianDay is the Julian day number of a proleptic Gregorian date (year
// 0 = 1 BC), PostgreSQL's date2j.
func JulianDay(y, m, d int) int64 { return date2j(y, m, d) }

// DateOfJulian is JulianDay's inverse, PostgreSQL's j2date.
func DateOfJulian(jd int64) (y, m, d int) { return j2date(jd) }

// date2j is PostgreSQL's date2j (the Julian day of a proleptic Gregorian
// date, year 0 = 1 BC).
func date2j(y, m, d int) int64 {
	Y, M := int64(y), int64(m)
	if M > 2 {
		M++
		Y += 4800
	} else {
		M += 13
		Y += 4799
	}
	century := Y / 100
	j := Y*365 - 32167
	j += Y/4 - century + century/4
	j += 7834*M/256 + int64(d)
	return j
}

// j2date is PostgreSQL's j2date.
func j2date(jd int64) (int, int, int) {
	julian := uint32(jd)
	julian += 32044
	quad := julian / 146097
	extra := (julian-quad*146097)*4 + 3
	julian += 60 + quad*3 + extra/146097
	quad = julian / 1461
	julian -= quad * 1461
	y := int(julian * 4 / 1461)
	if y != 0 {
		julian = (julian+305)%365 + 123
	} else {
		julian = (julian+306)%366 + 123
	}
	y += int(quad * 4)
	year := y - 4800
	quad = julian * 2141 / 65536
	day := int(julian - 7834*quad/256)
	month := int((quad+10)%12 + 1)
	return year, month, day
}

func validJulian(y, m, d int) bool {
	return (y > -4713 || (y == -4713 && m >= 11)) && (y < 5874898 || (y == 5874898 && m < 6))
}

// tm2timestamp is PostgreSQL's tm2timestamp; the result is relative to
// 2000-01-01.
func tm2timestamp(tm *pgtm, fsec int64, tzp *int) (int64, bool) {
	if !validJulian(tm.year, tm.mon, tm.mday) {
		return 0, false
	}
	date := date2j(tm.year, tm.mon, tm.mday) - pgEpochJD
	t := secsOfDay(tm)*usecsPerSec + fsec
	r := date*usecsPerDay + t
	if (r-t)/usecsPerDay != date {
		return 0, false
	}
	if (r < 0 && date > 0) || (r > 0 && date < -1) {
		return 0, false
	}
	if tzp != nil {
		r += int64(*tzp) * usecsPerSec
	}
	if r < minTimestamp || r >= endTimestamp {
		return 0, false
	}
	return r, true
}

// localNow is the transaction's time in the session zone, as
// GetCurrentDateTime/GetCurrentTimeUsec give it.
func (p *parser) localNow() (pgtm, int64, int) {
	t := p.opts.Now.In(p.opts.Location)
	_, off := t.Zone()
	return pgtm{year: t.Year(), mon: int(t.Month()), mday: t.Day(), hour: t.Hour(), min: t.Minute(), sec: t.Second()},
		int64(t.Nanosecond() / 1000), -off
}

// lookupAbbrev finds a zone abbreviation in the Default set.
func lookupAbbrev(s string) (typ int, off int, zone string) {
	if len(s) > tokMaxLen {
		s = s[:tokMaxLen]
	}
	a, ok := abbrevs[s]
	if !ok {
		return fUnknown, 0, ""
	}
	if a.zone != "" {
		return fDynTZ, 0, a.zone
	}
	if a.dst {
		return fDTZ, a.off, ""
	}
	return fTZ, a.off, ""
}

// decodeDateTime is PostgreSQL's DecodeDateTime.
func (p *parser) decodeDateTime() (dterr, *zoneErr) {
	tm := &p.tm
	fmask, tmask := 0, 0
	ptype := 0
	isjulian, is2digits, bc := false, false, false
	haveTextMonth := false
	mer := hr24
	p.namedTz, p.abbrevZone, p.abbrev = nil, "", ""
	p.dtype = dtkDate
	nf := len(p.fields)
	for i := 0; i < nf; i++ {
		field := p.fields[i]
		reserv := false // a special word ('now', 'allballs') sets the zone implicitly
		switch p.ftype[i] {
		case ftDate:
			if ptype == dtkJulian {
				val, cp, over := strtoint(field)
				if over || val < 0 {
					return dtFieldOverflow, nil
				}
				tm.year, tm.mon, tm.mday = j2date(int64(val))
				isjulian = true
				tz, d := decodeTimezone(cp)
				if d != dtOK {
					return d, nil
				}
				p.tz = tz
				tmask = dateMask | timeMask | bit(fTZ)
				ptype = 0
				break
			} else if ptype != 0 || fmask&(bit(fMonth)|bit(fDay)) == bit(fMonth)|bit(fDay) {
				if isDigit(field[0]) || ptype != 0 {
					if ptype != 0 {
						if ptype != dtkTime {
							return dtBadFormat, nil
						}
						ptype = 0
					}
					if fmask&timeMask == timeMask {
						return dtBadFormat, nil
					}
					k := strings.IndexByte(field, '-')
					if k < 0 {
						return dtBadFormat, nil
					}
					tz, d := decodeTimezone(field[k:])
					if d != dtOK {
						return d, nil
					}
					p.tz = tz
					m, d := p.decodeNumberField(field[:k], fmask, &is2digits)
					if d != dtOK {
						return d, nil
					}
					tmask = m | bit(fTZ)
				} else {
					if !p.zoneName(field, p.raw[i]) {
						return dtOK, &zoneErr{field}
					}
					tmask = bit(fTZ)
				}
			} else {
				m, d := p.decodeDate(field, fmask, &is2digits)
				tmask = m
				if d != dtOK {
					return d, nil
				}
			}
		case ftTime:
			if ptype != 0 {
				if ptype != dtkTime {
					return dtBadFormat, nil
				}
				ptype = 0
			}
			m, d := p.decodeTime(field)
			tmask = m
			if d != dtOK {
				return d, nil
			}
			if timeOverflows(tm.hour, tm.min, tm.sec, p.fsec) {
				return dtFieldOverflow, nil
			}
		case ftTZ:
			tz, d := decodeTimezone(field)
			if d != dtOK {
				return d, nil
			}
			p.tz = tz
			tmask = bit(fTZ)
		case ftNumber:
			if ptype != 0 {
				m, d := p.labeledNumber(field, ptype, fmask, &isjulian, &is2digits)
				if d != dtOK {
					return d, nil
				}
				tmask = m
				ptype = 0
				p.dtype = dtkDate
			} else {
				flen := len(field)
				k := strings.IndexByte(field, '.')
				var m int
				var d dterr
				if k >= 0 && fmask&dateMask == 0 {
					m, d = p.decodeDate(field, fmask, &is2digits)
				} else if k >= 0 && k > 2 {
					m, d = p.decodeNumberField(field, fmask, &is2digits)
				} else if flen >= 6 && (fmask&dateMask == 0 || fmask&timeMask == 0) {
					m, d = p.decodeNumberField(field, fmask, &is2digits)
				} else {
					m, d = p.decodeNumber(field, haveTextMonth, fmask, &is2digits)
				}
				if d != dtOK {
					return d, nil
				}
				tmask = m
			}
		case ftString, ftSpecial:
			typ, val, dz := lookupAbbrev(field)
			if typ == fUnknown {
				t := decodeSpecial(field)
				typ, val = t.typ, t.val
			}
			if typ == fIgnore {
				continue
			}
			tmask = bit(typ)
			switch typ {
			case fReserv:
				reserv = true
				switch val {
				case dtkNow:
					tmask = dateMask | timeMask | bit(fTZ)
					p.dtype = dtkDate
					*tm, p.fsec, p.tz = p.localNow()
					p.special = Now
				case dtkYesterday, dtkToday, dtkTomorrow:
					tmask = dateMask
					p.dtype = dtkDate
					cur, _, _ := p.localNow()
					j := date2j(cur.year, cur.mon, cur.mday)
					switch val {
					case dtkYesterday:
						j--
						p.special = Yesterday
					case dtkTomorrow:
						j++
						p.special = Tomorrow
					default:
						p.special = Today
					}
					tm.year, tm.mon, tm.mday = j2date(j)
				case dtkZulu:
					tmask = timeMask | bit(fTZ)
					p.dtype = dtkDate
					tm.hour, tm.min, tm.sec = 0, 0, 0
					p.tz = 0
					p.special = Allballs
				default:
					p.dtype = val
					switch val {
					case dtkEpoch:
						p.special = Epoch
					case dtkLate:
						p.special = Infinity
					case dtkEarly:
						p.special = NegInfinity
					}
				}
			case fMonth:
				if fmask&bit(fMonth) != 0 && !haveTextMonth && fmask&bit(fDay) == 0 && tm.mon >= 1 && tm.mon <= 31 {
					tm.mday = tm.mon
					tmask = bit(fDay)
				}
				haveTextMonth = true
				tm.mon = val
			case fDTZMod, fDTZ, fTZ, fDynTZ:
				tmask = p.zoneWord(typ, val, dz, field, tmask)
			case fAmPm:
				mer = val
			case fADBC:
				bc = val == 1
			case fDOW:
			case fUnits:
				// PostgreSQL 15 lets a unit word replace a pending one
				// (version 16 rejects consecutive units).
				tmask = 0
				ptype = val
			case fISOTime:
				tmask = 0
				if fmask&dateMask != dateMask {
					return dtBadFormat, nil
				}
				if i >= nf-1 || (p.ftype[i+1] != ftNumber && p.ftype[i+1] != ftTime && p.ftype[i+1] != ftDate) {
					return dtBadFormat, nil
				}
				ptype = dtkTime
			case fUnknown:
				if !p.zoneName(field, p.raw[i]) {
					return dtBadFormat, nil
				}
				tmask = bit(fTZ)
			default:
				return dtBadFormat, nil
			}
		default:
			return dtBadFormat, nil
		}
		if !p.addFields(&fmask, tmask, reserv) {
			return dtBadFormat, nil
		}
	}
	if d := p.validateDate(fmask, isjulian, is2digits, bc); d != dtOK {
		return d, nil
	}
	if !applyMeridian(tm, mer) {
		return dtFieldOverflow, nil
	}
	if p.dtype == dtkDate {
		if fmask&dateMask != dateMask {
			if fmask&timeMask == timeMask {
				return dtTimeOnly, nil
			}
			return dtBadFormat, nil
		}
		if p.namedTz != nil {
			if fmask&bit(fDTZMod) != 0 {
				return dtBadFormat, nil
			}
			p.tz = determineOffset(tm, p.namedTz)
		}
		if p.abbrevZone != "" {
			if fmask&bit(fDTZMod) != 0 {
				return dtBadFormat, nil
			}
			p.tz = determineAbbrevOffset(tm, p.abbrev, p.abbrevZone)
		}
		if fmask&bit(fTZ) == 0 {
			if fmask&bit(fDTZMod) != 0 {
				return dtBadFormat, nil
			}
			p.tz = determineOffset(tm, p.opts.Location)
		}
	}
	return dtOK, nil
}

// labeledNumber decodes a number that a unit word (or "t") labelled.
func (p *parser) labeledNumber(field string, ptype, fmask int, isjulian, is2digits *bool) (int, dterr) {
	tm := &p.tm
	val, cp, over := strtoint(field)
	if over {
		return 0, dtFieldOverflow
	}
	if cp != "" && cp[0] == '.' {
		switch ptype {
		case dtkJulian, dtkTime, dtkSecond:
		default:
			return 0, dtBadFormat
		}
	} else if cp != "" {
		return 0, dtBadFormat
	}
	var tmask int
	switch ptype {
	case dtkYear:
		tm.year = val
		tmask = bit(fYear)
	case dtkMonth:
		if fmask&bit(fMonth) != 0 && fmask&bit(fHour) != 0 {
			tm.min = val
			tmask = bit(fMinute)
		} else {
			tm.mon = val
			tmask = bit(fMonth)
		}
	case dtkDay:
		tm.mday = val
		tmask = bit(fDay)
	case dtkHour:
		tm.hour = val
		tmask = bit(fHour)
	case dtkMinute:
		tm.min = val
		tmask = bit(fMinute)
	case dtkSecond:
		tm.sec = val
		tmask = bit(fSecond)
		if cp != "" && cp[0] == '.' {
			f, ok := parseFractionalSecond(cp)
			if !ok {
				return 0, dtBadFormat
			}
			p.fsec = f
			tmask = allSecsMask
		}
	case dtkJulian:
		if val < 0 {
			return 0, dtFieldOverflow
		}
		tmask = dateMask
		tm.year, tm.mon, tm.mday = j2date(int64(val))
		*isjulian = true
		if cp != "" && cp[0] == '.' {
			f, ok := parseFraction(cp)
			if !ok {
				return 0, dtBadFormat
			}
			t := int64(f * float64(usecsPerDay))
			tm.hour = int(t / 3600000000)
			t -= int64(tm.hour) * 3600000000
			tm.min = int(t / 60000000)
			t -= int64(tm.min) * 60000000
			tm.sec = int(t / usecsPerSec)
			p.fsec = t - int64(tm.sec)*usecsPerSec
			tmask |= timeMask
		}
	case dtkTime:
		m, d := p.decodeNumberField(field, fmask|dateMask, is2digits)
		if d != dtOK {
			return 0, d
		}
		if m != timeMask {
			return 0, dtBadFormat
		}
		tmask = m
	default:
		return 0, dtBadFormat
	}
	return tmask, dtOK
}

// decodeTimeOnly is PostgreSQL's DecodeTimeOnly.
func (p *parser) decodeTimeOnly() (dterr, *zoneErr) {
	tm := &p.tm
	fmask, tmask := 0, 0
	ptype := 0
	isjulian, is2digits, bc := false, false, false
	mer := hr24
	p.namedTz, p.abbrevZone, p.abbrev = nil, "", ""
	p.dtype = dtkTime
	nf := len(p.fields)
	for i := 0; i < nf; i++ {
		field := p.fields[i]
		reserv := false // a special word ('now', 'allballs') sets the zone implicitly
		switch p.ftype[i] {
		case ftDate:
			if i == 0 && nf >= 2 && (p.ftype[nf-1] == ftDate || p.ftype[1] == ftTime) {
				m, d := p.decodeDate(field, fmask, &is2digits)
				tmask = m
				if d != dtOK {
					return d, nil
				}
			} else if isDigit(field[0]) {
				if fmask&timeMask == timeMask {
					return dtBadFormat, nil
				}
				k := strings.IndexByte(field, '-')
				if k < 0 {
					return dtBadFormat, nil
				}
				tz, d := decodeTimezone(field[k:])
				if d != dtOK {
					return d, nil
				}
				p.tz = tz
				m, d := p.decodeNumberField(field[:k], fmask|dateMask, &is2digits)
				if d != dtOK {
					return d, nil
				}
				tmask = m | bit(fTZ)
			} else {
				if !p.zoneName(field, p.raw[i]) {
					return dtOK, &zoneErr{field}
				}
				tmask = bit(fTZ)
			}
		case ftTime:
			// PostgreSQL 15's DecodeTimeOnly leaves a pending unit word
			// pending here.
			m, d := p.decodeTime(field)
			tmask = m
			if d != dtOK {
				return d, nil
			}
		case ftTZ:
			tz, d := decodeTimezone(field)
			if d != dtOK {
				return d, nil
			}
			p.tz = tz
			tmask = bit(fTZ)
		case ftNumber:
			if ptype != 0 {
				m, d := p.labeledNumber(field, ptype, fmask, &isjulian, &is2digits)
				if d != dtOK {
					return d, nil
				}
				tmask = m
				ptype = 0
				p.dtype = dtkDate
			} else {
				flen := len(field)
				k := strings.IndexByte(field, '.')
				var m int
				var d dterr
				if k >= 0 {
					if i == 0 && nf >= 2 && p.ftype[nf-1] == ftDate {
						m, d = p.decodeDate(field, fmask, &is2digits)
					} else if k > 2 {
						m, d = p.decodeNumberField(field, fmask|dateMask, &is2digits)
					} else {
						return dtBadFormat, nil
					}
				} else if flen > 4 {
					m, d = p.decodeNumberField(field, fmask|dateMask, &is2digits)
				} else {
					m, d = p.decodeNumber(field, false, fmask|dateMask, &is2digits)
				}
				if d != dtOK {
					return d, nil
				}
				tmask = m
			}
		case ftString, ftSpecial:
			typ, val, dz := lookupAbbrev(field)
			if typ == fUnknown {
				t := decodeSpecial(field)
				typ, val = t.typ, t.val
			}
			if typ == fIgnore {
				continue
			}
			tmask = bit(typ)
			switch typ {
			case fReserv:
				reserv = true
				switch val {
				case dtkNow:
					tmask = timeMask
					p.dtype = dtkTime
					*tm, p.fsec, _ = p.localNow()
					p.special = Now
				case dtkZulu:
					tmask = timeMask | bit(fTZ)
					p.dtype = dtkTime
					tm.hour, tm.min, tm.sec = 0, 0, 0
					p.special = Allballs
				default:
					return dtBadFormat, nil
				}
			case fDTZMod, fDTZ, fTZ, fDynTZ:
				tmask = p.zoneWord(typ, val, dz, field, tmask)
			case fAmPm:
				mer = val
			case fADBC:
				bc = val == 1
			case fUnits:
				// PostgreSQL 15 lets a unit word replace a pending one
				// (version 16 rejects consecutive units).
				tmask = 0
				ptype = val
			case fISOTime:
				tmask = 0
				if i >= nf-1 || (p.ftype[i+1] != ftNumber && p.ftype[i+1] != ftTime && p.ftype[i+1] != ftDate) {
					return dtBadFormat, nil
				}
				ptype = dtkTime
			case fUnknown:
				if !p.zoneName(field, p.raw[i]) {
					return dtBadFormat, nil
				}
				tmask = bit(fTZ)
			default:
				return dtBadFormat, nil
			}
		default:
			return dtBadFormat, nil
		}
		if !p.addFields(&fmask, tmask, reserv) {
			return dtBadFormat, nil
		}
	}
	if d := p.validateDate(fmask, isjulian, is2digits, bc); d != dtOK {
		return d, nil
	}
	if !applyMeridian(tm, mer) {
		return dtFieldOverflow, nil
	}
	if timeOverflows(tm.hour, tm.min, tm.sec, p.fsec) {
		return dtFieldOverflow, nil
	}
	if fmask&timeMask != timeMask {
		return dtBadFormat, nil
	}
	// The date a zone's offset is taken at: the input's, else today's.
	dateFor := func() (pgtm, dterr) {
		var t pgtm
		if fmask&dateMask == 0 {
			t, _, _ = p.localNow()
		} else {
			if fmask&dateMask != dateMask {
				return t, dtBadFormat
			}
			t.year, t.mon, t.mday = tm.year, tm.mon, tm.mday
		}
		t.hour, t.min, t.sec = tm.hour, tm.min, tm.sec
		return t, dtOK
	}
	if p.namedTz != nil {
		if fmask&bit(fDTZMod) != 0 {
			return dtBadFormat, nil
		}
		if off, fixed := fixedOffset(p.namedTz); fixed {
			p.tz = -off
		} else {
			if fmask&dateMask != dateMask {
				return dtBadFormat, nil
			}
			p.tz = determineOffset(tm, p.namedTz)
		}
	}
	if p.abbrevZone != "" {
		if fmask&bit(fDTZMod) != 0 {
			return dtBadFormat, nil
		}
		t, d := dateFor()
		if d != dtOK {
			return d, nil
		}
		p.tz = determineAbbrevOffset(&t, p.abbrev, p.abbrevZone)
	}
	if fmask&bit(fTZ) == 0 {
		if fmask&bit(fDTZMod) != 0 {
			return dtBadFormat, nil
		}
		t, d := dateFor()
		if d != dtOK {
			return d, nil
		}
		p.tz = determineOffset(&t, p.opts.Location)
	}
	return dtOK, nil
}

// applyMeridian applies AM or PM to the hour, as both of PostgreSQL's
// decoders do at their end; false when the hour is beyond 12 with one.
func applyMeridian(tm *pgtm, mer int) bool {
	if mer != hr24 && tm.hour > 12 {
		return false
	}
	if mer == am && tm.hour == 12 {
		tm.hour = 0
	} else if mer == pm && tm.hour != 12 {
		tm.hour += 12
	}
	return true
}

// addFields adds the fields tmask of one decoded field to fmask, false
// when one of them was given already; a zone not from a reserved word
// marks the input as zoned.
func (p *parser) addFields(fmask *int, tmask int, reserv bool) bool {
	if tmask&*fmask != 0 {
		return false
	}
	*fmask |= tmask
	if tmask&(bit(fTZ)|bit(fDTZMod)) != 0 && !reserv {
		p.zoned = true
	}
	return true
}

// zoneWord applies a zone keyword of the abbreviation table (typ fTZ, fDTZ,
// fDTZMod or fDynTZ, with its value and, when dynamic, its zone dz) found
// as field, and returns the field's mask tmask with the zone bits the
// keyword adds: the same in both of PostgreSQL's decoders.
func (p *parser) zoneWord(typ, val int, dz, field string, tmask int) int {
	switch typ {
	case fDTZMod:
		p.tz -= val
		return tmask | bit(fDTZ)
	case fDTZ:
		p.tz = -val
		return tmask | bit(fTZ)
	case fTZ:
		p.tz = -val
	case fDynTZ:
		p.abbrevZone, p.abbrev = dz, field
		return tmask | bit(fTZ)
	}
	return tmask
}

// zoneName takes field (raw: as written) as a full zone name; false when
// no zone has that name.
func (p *parser) zoneName(field, raw string) bool {
	loc := loadZone(field, raw)
	if loc == nil {
		return false
	}
	p.namedTz = loc
	return true
}
