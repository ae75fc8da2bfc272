package pgcompat

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// intervalLiteral reads PostgreSQL's interval input (IntervalStyle
// postgres) into months, days and microseconds, written as text DuckDB's
// cast reads alike: signed fields ('-1 +02:03'), a time with a sign
// ('+02:00'), year-month ('1-2'), '@ … ago', fractional units and ISO
// 8601 ('P1Y2M3DT4H5M6.7S'). False for anything else, which is left to
// DuckDB.
//
// The fields are computed exactly (a fraction of a unit rounded to the
// microsecond, half to even, as PostgreSQL's rint); a field beyond its
// range (months and days are 32-bit, microseconds 64-bit) is PostgreSQL's
// 22015. expr is set instead of text when the microseconds are too many
// for DuckDB to read back from text (near 2^63): then the literal is an
// expression.
func intervalLiteral(s string) (text, expr string, ok bool, err error) {
	var iv ivAcc
	v := strings.TrimSpace(s)
	if plainInterval(v) {
		return "", "", false, nil // '3 days', '1 hour 30 minutes', '04:05:06': DuckDB reads them alike
	}
	if strings.HasPrefix(v, "P") || strings.HasPrefix(v, "p") {
		ok = iv.iso(v[1:])
	} else {
		ok = iv.verbose(v)
	}
	if !ok {
		return "", "", false, nil
	}
	if iv.bad || iv.days > math.MaxInt32 || iv.days < math.MinInt32 {
		return "", "", false, vsqlerr.New(vsqlerr.IntervalFieldOverflow, "interval field value out of range: %q", s)
	}
	if iv.months > math.MaxInt32 || iv.months < math.MinInt32 {
		return "", "", false, vsqlerr.New(vsqlerr.DatetimeFieldOverflow, "interval out of range")
	}
	if iv.micros > 1<<53 || iv.micros < -(1<<53) {
		us := fmt.Sprintf("CAST(%d AS BIGINT)", iv.micros)
		if iv.micros == math.MinInt64 {
			us = "(CAST(-9223372036854775807 AS BIGINT) - 1)" // (DuckDB reads -9223372036854775808 as a HUGEINT)
		}
		return "", fmt.Sprintf("(CAST('%d months %d days' AS INTERVAL) + to_microseconds(%s))", iv.months, iv.days, us), true, nil
	}
	return fmt.Sprintf("%d months %d days %d microseconds", iv.months, iv.days, iv.micros), "", true, nil
}

// plainInterval reports whether v is unsigned whole numbers each with a
// unit, or one unsigned clock time.
func plainInterval(v string) bool {
	f := strings.Fields(v)
	if len(f) == 1 && strings.Trim(f[0], "0123456789:") == "" && strings.Count(f[0], ":") >= 1 {
		return true
	}
	if len(f) == 0 || len(f)%2 != 0 {
		return false
	}
	for i := 0; i < len(f); i += 2 {
		var iv ivAcc
		if strings.Trim(f[i], "0123456789") != "" || len(f[i]) > 9 || !iv.add("1", strings.ToLower(f[i+1])) {
			return false
		}
	}
	return true
}

func abs64(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

type ivAcc struct {
	months, days, micros int64
	bad                  bool // a field went beyond 64 bits
}

const usPerDay = 86400e6

// unitFactors are the microseconds (or, for the units of years, months)
// in one of each unit.
var unitFactors = map[string]int64{
	"millennium": 12000, "millennia": 12000, "millenniums": 12000, "century": 1200, "centuries": 1200,
	"decade": 120, "decades": 120, "y": 12, "yr": 12, "yrs": 12, "year": 12, "years": 12,
	"h": 3600e6, "hr": 3600e6, "hrs": 3600e6, "hour": 3600e6, "hours": 3600e6,
	"m": 60e6, "min": 60e6, "mins": 60e6, "minute": 60e6, "minutes": 60e6,
	"s": 1e6, "sec": 1e6, "secs": 1e6, "second": 1e6, "seconds": 1e6,
	"ms": 1e3, "msec": 1e3, "msecs": 1e3, "millisecond": 1e3, "milliseconds": 1e3,
	"us": 1, "usec": 1, "usecs": 1, "microsecond": 1, "microseconds": 1,
}

// add adds n (a decimal number's text, possibly fractional) of unit,
// carrying fractions down as PostgreSQL's DecodeInterval does: the whole
// number exactly (a field beyond 64 bits is marked bad), its fraction as
// a double, rounded half to even where it lands (a fraction of a year to
// whole months, of a month to 30-day days and then time, of a day to
// time); '1.5 microseconds' is 1 and '0.0000015 seconds' 1, as there.
func (iv *ivAcc) add(n string, unit string) bool {
	whole, frac, ok := splitNumber(n)
	if !ok {
		return false
	}
	switch unit {
	case "mon", "mons", "month", "months":
		iv.addTo(&iv.months, whole)
		iv.addFractDays(frac * 30)
	case "w", "week", "weeks":
		iv.addTo(&iv.days, new(big.Int).Mul(whole, big.NewInt(7)))
		iv.addFractDays(frac * 7)
	case "d", "day", "days":
		iv.addTo(&iv.days, whole)
		iv.addTo(&iv.micros, big.NewInt(fractMicros(frac*usPerDay)))
	default:
		f, ok := unitFactors[unit]
		if !ok {
			return false
		}
		field := &iv.micros
		if monthUnits[unit] {
			field = &iv.months
		}
		iv.addTo(field, new(big.Int).Mul(whole, big.NewInt(f)))
		if monthUnits[unit] {
			iv.addTo(field, big.NewInt(int64(math.RoundToEven(frac*float64(f)))))
		} else {
			iv.addTo(field, big.NewInt(fractMicros(frac*float64(f))))
		}
	}
	return true
}

// splitNumber reads a decimal number's text as its whole part (exact) and
// its fraction (a double, with the number's sign).
func splitNumber(n string) (*big.Int, float64, bool) {
	t := strings.TrimPrefix(n, "+")
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	w, f, _ := strings.Cut(t, ".")
	if w == "" && f == "" || strings.Trim(w, "0123456789") != "" || strings.Trim(f, "0123456789") != "" {
		return nil, 0, false
	}
	whole := new(big.Int)
	if w != "" {
		whole.SetString(w, 10)
	}
	frac := 0.0
	if f != "" {
		frac, _ = strconv.ParseFloat("0."+f, 64)
	}
	if neg {
		whole.Neg(whole)
		frac = -frac
	}
	return whole, frac, true
}

// monthUnits are the units unitFactors counts in months.
var monthUnits = map[string]bool{"millennium": true, "millennia": true, "millenniums": true, "century": true, "centuries": true,
	"decade": true, "decades": true, "y": true, "yr": true, "yrs": true, "year": true, "years": true}

// addFractDays adds a fraction of days (a double): whole days to days,
// the rest as time, as PostgreSQL's AdjustFractDays.
func (iv *ivAcc) addFractDays(d float64) {
	whole := math.Trunc(d)
	iv.addTo(&iv.days, big.NewInt(int64(whole)))
	iv.addTo(&iv.micros, big.NewInt(fractMicros((d-whole)*usPerDay)))
}

// fractMicros is a fraction's microseconds as PostgreSQL's
// AdjustFractMicroseconds counts them: the whole ones, then what is left
// rounded by rint, so that half a microsecond rounds toward zero.
func fractMicros(x float64) int64 {
	whole := math.Trunc(x)
	return int64(whole) + int64(math.RoundToEven(x-whole))
}

// addDays adds d days (a day count before a time, '1 2:03:04').
func (iv *ivAcc) addDays(d *big.Rat) {
	whole := truncRat(d)
	iv.addTo(&iv.days, whole)
	frac, _ := new(big.Rat).Sub(d, new(big.Rat).SetInt(whole)).Float64()
	iv.addTo(&iv.micros, big.NewInt(fractMicros(frac*usPerDay)))
}

// addTo adds v to the field f, marking the accumulator bad when the sum
// leaves 64 bits.
func (iv *ivAcc) addTo(f *int64, v *big.Int) {
	sum := new(big.Int).Add(big.NewInt(*f), v)
	if !sum.IsInt64() {
		iv.bad = true
		return
	}
	*f = sum.Int64()
}

// truncRat is r's integer part (toward zero).
func truncRat(r *big.Rat) *big.Int {
	return new(big.Int).Quo(r.Num(), r.Denom())
}

// roundHalfEven is r rounded to an integer, half to even.
func roundHalfEven(r *big.Rat) *big.Int {
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	twice := new(big.Int).Lsh(new(big.Int).Abs(m), 1)
	if c := twice.Cmp(r.Denom()); c > 0 || c == 0 && q.Bit(0) == 1 {
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return q
}

// clock adds [+-]h:mm[:ss[.f]].
func (iv *ivAcc) clock(t string) bool {
	sign := 1.0
	if t[0] == '+' || t[0] == '-' {
		if t[0] == '-' {
			sign = -1
		}
		t = t[1:]
	}
	parts := strings.Split(t, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	total := new(big.Rat)
	for k, p := range parts {
		if p == "" || strings.Trim(p, "0123456789.") != "" || k < len(parts)-1 && strings.Contains(p, ".") {
			return false
		}
		f, ok := new(big.Rat).SetString(p)
		if !ok {
			return false
		}
		total.Add(total, f.Mul(f, new(big.Rat).SetInt64([]int64{3600e6, 60e6, 1e6}[k])))
	}
	if sign < 0 {
		total.Neg(total)
	}
	iv.addTo(&iv.micros, roundHalfEven(total))
	return true
}

func isClock(t string) bool { return strings.Contains(t, ":") }

// yearMonth adds [+-]y-m.
func (iv *ivAcc) yearMonth(t string) bool {
	sign := int64(1)
	if t[0] == '+' || t[0] == '-' {
		if t[0] == '-' {
			sign = -1
		}
		t = t[1:]
	}
	y, m, found := strings.Cut(t, "-")
	yi, err1 := strconv.ParseInt(y, 10, 64)
	mi, err2 := strconv.ParseInt(m, 10, 64)
	if !found || err1 != nil || err2 != nil || strings.Trim(y+m, "0123456789") != "" {
		return false
	}
	iv.months += sign * (yi*12 + mi)
	return true
}

// verbose reads '@ 1 year 2 mons -3 days +04:05:06 ago' and the like.
func (iv *ivAcc) verbose(v string) bool {
	// @ is noise anywhere, as to PostgreSQL ('@ 1 hour @ 42 minutes')
	toks := slices.DeleteFunc(strings.Fields(strings.ToLower(v)), func(t string) bool { return t == "@" })
	// a sign stands for the field after it, spaces between ('1 month - 1 second')
	for i := 0; i+1 < len(toks); i++ {
		if toks[i] == "-" || toks[i] == "+" {
			toks = slices.Replace(toks, i, i+2, toks[i]+toks[i+1])
		}
	}
	ago := false
	if len(toks) > 0 && toks[len(toks)-1] == "ago" {
		ago, toks = true, toks[:len(toks)-1]
	}
	if len(toks) == 0 {
		return false
	}
	clocks := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case isClock(t):
			if clocks++; clocks > 1 || !iv.clock(t) {
				return false // two times: PostgreSQL's redundant field
			}
		case strings.Count(strings.TrimLeft(t, "+-"), "-") == 1 && !strings.ContainsAny(t, "."):
			if !iv.yearMonth(t) {
				return false
			}
		default:
			n, ok := new(big.Rat).SetString(strings.TrimPrefix(t, "+"))
			if !ok || strings.ContainsAny(t, "eEinfINF/") {
				return false
			}
			switch {
			case i+1 < len(toks) && !isNumberStart(toks[i+1]):
				if !iv.add(t, toks[i+1]) {
					return false
				}
				i++
			case i+1 < len(toks) && isClock(toks[i+1]):
				iv.addDays(n) // '1 2:03:04': a day count before a time
			case i+1 == len(toks):
				iv.add(t, "seconds") // a lone number: seconds
			default:
				return false
			}
		}
	}
	if ago {
		if iv.micros == math.MinInt64 || iv.days == math.MinInt64 || iv.months == math.MinInt64 {
			iv.bad = true
		}
		iv.months, iv.days, iv.micros = -iv.months, -iv.days, -iv.micros
	}
	return true
}

func isNumberStart(t string) bool {
	return t != "" && (isDigit(t[0]) || t[0] == '+' || t[0] == '-' || t[0] == '.')
}

// iso reads ISO 8601 after the P: designators (1Y2M3W4DT5H6M7.8S) or the
// alternative format (0002-10-15T10:30:20, 00021015T103020).
func (iv *ivAcc) iso(v string) bool {
	if v == "" {
		return false
	}
	date, clock, hasT := strings.Cut(strings.ToUpper(v), "T")
	if strings.ContainsAny(date, "YMWD") || strings.ContainsAny(clock, "HMS") || date == "" && hasT {
		return iv.designators(date, "YMWD", false) && iv.designators(clock, "HMS", true)
	}
	// the alternative format
	d := strings.ReplaceAll(date, "-", "")
	if strings.Trim(d, "0123456789") != "" || len(d) > 8 || len(d) < 4 {
		return false
	}
	for len(d) < 8 {
		d += "0"
	}
	y, _ := strconv.ParseInt(d[:4], 10, 64)
	m, _ := strconv.ParseInt(d[4:6], 10, 64)
	dd, _ := strconv.ParseInt(d[6:], 10, 64)
	iv.months += y*12 + m
	iv.days += dd
	if !hasT {
		return true
	}
	c := clock
	if !strings.Contains(c, ":") {
		if len(c) < 6 || strings.Trim(c[:6], "0123456789") != "" {
			return false
		}
		c = c[:2] + ":" + c[2:4] + ":" + c[4:]
	}
	return iv.clock(c)
}

// designators reads numbers each ended by one of the letters of units
// (Y M W D in the date part, H M S in the time part).
func (iv *ivAcc) designators(s, units string, timePart bool) bool {
	for s != "" {
		j := strings.IndexAny(s, units)
		if j <= 0 {
			return false
		}
		if _, ok := new(big.Rat).SetString(strings.TrimPrefix(s[:j], "+")); !ok || strings.ContainsAny(s[:j], "eE/") {
			return false
		}
		n := s[:j]
		unit := map[byte]string{'Y': "years", 'W': "weeks", 'D': "days", 'H': "hours", 'S': "seconds"}[s[j]]
		if s[j] == 'M' {
			unit = "months"
			if timePart {
				unit = "minutes"
			}
		}
		iv.add(n, unit)
		s = s[j+1:]
	}
	return true
}

// Interval fields as PostgreSQL's DecodeInterval marks them: each may be
// given once ('1 day 1 day' is an error), and a time or fractional
// seconds take the seconds, milliseconds and microseconds together.
const (
	ivYear = 1 << iota
	ivMonth
	ivDay
	ivHour
	ivMinute
	ivSecond
	ivMillisecond
	ivMicrosecond
	ivWeek
	ivDecade
	ivCentury
	ivMillennium
	ivAllSeconds = ivSecond | ivMillisecond | ivMicrosecond
)

// ivUnitFields are the field of each unit word.
var ivUnitFields = map[string]int{
	"millennium": ivMillennium, "millennia": ivMillennium, "millenniums": ivMillennium,
	"century": ivCentury, "centuries": ivCentury, "decade": ivDecade, "decades": ivDecade,
	"y": ivYear, "yr": ivYear, "yrs": ivYear, "year": ivYear, "years": ivYear,
	"mon": ivMonth, "mons": ivMonth, "month": ivMonth, "months": ivMonth,
	"w": ivWeek, "week": ivWeek, "weeks": ivWeek, "d": ivDay, "day": ivDay, "days": ivDay,
	"h": ivHour, "hr": ivHour, "hrs": ivHour, "hour": ivHour, "hours": ivHour,
	"m": ivMinute, "min": ivMinute, "mins": ivMinute, "minute": ivMinute, "minutes": ivMinute,
	"s": ivSecond, "sec": ivSecond, "secs": ivSecond, "second": ivSecond, "seconds": ivSecond,
	"ms": ivMillisecond, "msec": ivMillisecond, "msecs": ivMillisecond, "millisecond": ivMillisecond, "milliseconds": ivMillisecond,
	"us": ivMicrosecond, "usec": ivMicrosecond, "usecs": ivMicrosecond, "microsecond": ivMicrosecond, "microseconds": ivMicrosecond,
}

// redundantIntervalField reports whether the interval input v (PostgreSQL's
// verbose form) gives a field twice, which PostgreSQL refuses (22007). It
// answers false for text it does not read.
func redundantIntervalField(v string) bool {
	toks := strings.Fields(strings.ToLower(v))
	if len(toks) > 0 && toks[0] == "@" {
		toks = toks[1:]
	}
	if len(toks) > 0 && toks[len(toks)-1] == "ago" {
		toks = toks[:len(toks)-1]
	}
	seen := 0
	mark := func(f int) bool {
		dup := seen&f != 0
		seen |= f
		return dup
	}
	for i := 0; i < len(toks); i++ {
		t := strings.TrimLeft(toks[i], "+-")
		if t == "" {
			continue
		}
		if isClock(t) {
			if mark(ivHour | ivMinute | ivAllSeconds) {
				return true
			}
			continue
		}
		if _, err := strconv.ParseFloat(t, 64); err != nil || strings.ContainsAny(t, "eEinfINF") {
			return false
		}
		if i+1 < len(toks) {
			if f, ok := ivUnitFields[toks[i+1]]; ok {
				if f == ivSecond && strings.Contains(t, ".") {
					f = ivAllSeconds
				}
				if mark(f) {
					return true
				}
				i++
				continue
			}
			if isClock(toks[i+1]) {
				if mark(ivDay) {
					return true
				}
				continue
			}
			return false
		}
	}
	return false
}
