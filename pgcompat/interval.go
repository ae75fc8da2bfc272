package pgcompat

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// intervalLiteral reads PostgreSQL's interval input (IntervalStyle
// postgres) into months, days and microseconds, written as text DuckDB's
// cast reads alike: signed fields ('-1 +02:03'), a time with a sign
// ('+02:00'), year-month ('1-2'), '@ … ago', fractional units and ISO
// 8601 ('P1Y2M3DT4H5M6.7S'). False for anything else, which is left to
// DuckDB.
func intervalLiteral(s string) (string, bool) {
	var iv ivAcc
	v := strings.TrimSpace(s)
	if plainInterval(v) {
		return "", false // '3 days', '1 hour 30 minutes', '04:05:06': DuckDB reads them alike
	}
	var ok bool
	if strings.HasPrefix(v, "P") || strings.HasPrefix(v, "p") {
		ok = iv.iso(v[1:])
	} else {
		ok = iv.verbose(v)
	}
	if !ok || abs64(iv.micros) > 1<<53 || abs64(iv.months) > 1<<31 || abs64(iv.days) > 1<<31 {
		return "", false // beyond what float64 arithmetic here keeps exact
	}
	return fmt.Sprintf("%d months %d days %d microseconds", iv.months, iv.days, iv.micros), true
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
		if strings.Trim(f[i], "0123456789") != "" || !iv.add(1, strings.ToLower(f[i+1])) {
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
}

const usPerDay = 86400e6

// add adds n (possibly fractional) of unit, carrying fractions down as
// PostgreSQL does (a fraction of a year to whole months, of a month to
// 30-day days and then time, of a day to time).
func (iv *ivAcc) add(n float64, unit string) bool {
	switch unit {
	case "millennium", "millennia", "millenniums":
		iv.months += int64(math.Round(n * 12000))
	case "century", "centuries":
		iv.months += int64(math.Round(n * 1200))
	case "decade", "decades":
		iv.months += int64(math.Round(n * 120))
	case "y", "yr", "yrs", "year", "years":
		iv.months += int64(math.Round(n * 12))
	case "mon", "mons", "month", "months":
		whole := math.Trunc(n)
		iv.months += int64(whole)
		iv.addDays((n - whole) * 30)
	case "w", "week", "weeks":
		iv.addDays(n * 7)
	case "d", "day", "days":
		iv.addDays(n)
	case "h", "hr", "hrs", "hour", "hours":
		iv.micros += int64(math.Round(n * 3600e6))
	case "m", "min", "mins", "minute", "minutes":
		iv.micros += int64(math.Round(n * 60e6))
	case "s", "sec", "secs", "second", "seconds":
		iv.micros += int64(math.Round(n * 1e6))
	case "ms", "msec", "msecs", "millisecond", "milliseconds":
		iv.micros += int64(math.Round(n * 1e3))
	case "us", "usec", "usecs", "microsecond", "microseconds":
		iv.micros += int64(math.Round(n))
	default:
		return false
	}
	return true
}

func (iv *ivAcc) addDays(d float64) {
	whole := math.Trunc(d)
	iv.days += int64(whole)
	iv.micros += int64(math.Round((d - whole) * usPerDay))
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
	var total float64
	for k, p := range parts {
		if p == "" || strings.Trim(p, "0123456789.") != "" || k < len(parts)-1 && strings.Contains(p, ".") {
			return false
		}
		f, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return false
		}
		total += f * []float64{3600e6, 60e6, 1e6}[k]
	}
	iv.micros += int64(math.Round(sign * total))
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
			n, err := strconv.ParseFloat(t, 64)
			if err != nil || strings.ContainsAny(t, "eEinfINF") {
				return false
			}
			switch {
			case i+1 < len(toks) && !isNumberStart(toks[i+1]):
				if !iv.add(n, toks[i+1]) {
					return false
				}
				i++
			case i+1 < len(toks) && isClock(toks[i+1]):
				iv.addDays(n) // '1 2:03:04': a day count before a time
			case i+1 == len(toks):
				iv.micros += int64(math.Round(n * 1e6)) // a lone number: seconds
			default:
				return false
			}
		}
	}
	if ago {
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
		n, err := strconv.ParseFloat(s[:j], 64)
		if err != nil || strings.ContainsAny(s[:j], "eE") {
			return false
		}
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
