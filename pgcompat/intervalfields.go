package pgcompat

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// The SQL standard's interval qualifiers, which DuckDB's parser refuses
// ("DAY TO HOUR is not supported"): INTERVAL '1 2' DAY TO HOUR, INTERVAL
// '12:34.5678' MINUTE TO SECOND(2), INTERVAL(2) '1 day 01:23:45.6789'.
// The literal is read as PostgreSQL's DecodeInterval reads it under the
// qualifier — a number without a unit takes the qualifier's last field
// (a number before a time, or before an hour, is days), h:m is m:s under
// MINUTE TO SECOND — then the fields below the qualifier's last are
// dropped and the seconds rounded to the precision, as
// AdjustIntervalForTypmod does; the typed literal becomes the interval
// that results, or PostgreSQL's error (22007). A literal with unit words
// ('1 day 2 hours') is read as without a qualifier, then cut alike.

const (
	fieldYear = 1 << iota
	fieldMonth
	fieldDay
	fieldHour
	fieldMinute
	fieldSecond
	fieldsTime = fieldHour | fieldMinute | fieldSecond
)

var intervalFieldWords = map[string]int{"year": fieldYear, "month": fieldMonth, "day": fieldDay, "hour": fieldHour,
	"minute": fieldMinute, "second": fieldSecond}

// intervalLiteralTyped is the rule of interval (token i): interval(p)
// '…' and interval '…' with a qualifier; other typed literals as
// typedLiteral.
func intervalLiteralTyped(p *pass, i int) {
	lit, prec := i+1, -1
	if p.kind(i+1) == sqltext.Open && p.kind(i+2) == sqltext.Number && p.kind(i+3) == sqltext.Close && p.plainString(i+4) {
		n, err := strconv.Atoi(p.text(i + 2))
		if err != nil || n > 6 {
			return
		}
		lit, prec = i+4, n
	}
	if !p.plainString(lit) || p.isOp(i-1, ".") || p.isOp(i-1, ":") || p.isWord(i-1, "as") {
		return
	}
	rng, fieldPrec, last := p.intervalQualifier(lit + 1)
	if last < 0 && prec < 0 {
		typedLiteral(p, i)
		return
	}
	if last < 0 {
		last = lit
	}
	if fieldPrec >= 0 {
		prec = fieldPrec
	}
	val := p.stringText(lit)
	iv, ok := decodeQualifiedInterval(val, rng)
	if !ok {
		msg := fmt.Sprintf("[vsql:invalid_datetime_input] invalid input syntax for type interval: %q", val)
		p.replace(p.toks[i].Start, p.toks[last].End, "CAST(error("+sqlString(msg)+") AS INTERVAL)")
		return
	}
	iv.adjust(rng, prec)
	p.replace(p.toks[i].Start, p.toks[last].End, fmt.Sprintf("INTERVAL '%d months %d days %d microseconds'", iv.months, iv.days, iv.micros))
}

// intervalQualifier reads a qualifier starting at token k: a field, or
// field TO field, the last one SECOND optionally with a precision. It
// returns the fields' mask, the precision (-1: none) and the qualifier's
// last token (-1: none there).
func (p *pass) intervalQualifier(k int) (rng, prec, last int) {
	first, ok := intervalFieldWords[strings.ToLower(p.text(k))]
	if !ok || p.kind(k) != sqltext.Word {
		return 0, -1, -1
	}
	rng, last, prec = first, k, -1
	if p.isWord(k+1, "to") {
		to, ok := intervalFieldWords[strings.ToLower(p.text(k+2))]
		if !ok || to <= first || first == fieldYear && to != fieldMonth || first == fieldMonth {
			return 0, -1, -1
		}
		for f := first; f <= to; f <<= 1 {
			rng |= f
		}
		last = k + 2
	}
	if p.isWord(last, "second") && p.kind(last+1) == sqltext.Open && p.kind(last+2) == sqltext.Number && p.kind(last+3) == sqltext.Close {
		n, err := strconv.Atoi(p.text(last + 2))
		if err != nil || n > 6 {
			return 0, -1, -1
		}
		prec, last = n, last+3
	}
	return rng, prec, last
}

// decodeQualifiedInterval reads s under the qualifier's fields rng (0:
// none), right to left as PostgreSQL's DecodeInterval does.
func decodeQualifiedInterval(s string, rng int) (ivAcc, bool) {
	var iv ivAcc
	if strings.IndexFunc(s, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '@' }) >= 0 {
		ok := iv.verbose(s) // unit words: the qualifier only cuts
		return iv, ok
	}
	fields := strings.Fields(s)
	if len(fields) == 0 {
		return iv, false
	}
	typ, seen := 0, 0
	for k := len(fields) - 1; k >= 0; k-- {
		f := fields[k]
		body, neg := f, false
		if f[0] == '+' || f[0] == '-' {
			body, neg = f[1:], f[0] == '-'
		}
		if strings.Contains(body, ":") {
			us, ok := intervalClock(body, rng)
			if !ok || seen&fieldsTime != 0 {
				return iv, false
			}
			if neg {
				us = -us
			}
			iv.micros += us
			seen |= fieldsTime
			typ = fieldDay // a number before a time is days
			continue
		}
		if typ == 0 {
			typ = defaultIntervalField(rng)
		}
		whole, frac, hasFrac := strings.Cut(body, ".")
		n, err := strconv.ParseInt(whole, 10, 64)
		if err != nil && !(whole == "" && hasFrac) {
			if y, m, ok := strings.Cut(whole, "-"); ok && !hasFrac { // years-months
				yv, err1 := strconv.ParseInt(y, 10, 64)
				mv, err2 := strconv.ParseInt(m, 10, 64)
				if err1 != nil || err2 != nil || mv >= 12 || seen&fieldMonth != 0 {
					return iv, false
				}
				months := yv*12 + mv
				if neg {
					months = -months
				}
				iv.months += months
				seen |= fieldMonth
				typ = 0
				continue
			}
			return iv, false
		}
		fv := 0.0
		if hasFrac {
			if fv, err = strconv.ParseFloat("0."+frac, 64); err != nil {
				return iv, false
			}
		}
		if neg {
			n, fv = -n, -fv
		}
		mask := typ
		switch typ {
		case fieldSecond:
			iv.micros += n*1e6 + int64(math.Round(fv*1e6))
		case fieldMinute:
			iv.micros += n*60e6 + int64(math.Round(fv*60e6))
		case fieldHour:
			iv.micros += n*3600e6 + int64(math.Round(fv*3600e6))
			typ = fieldDay // a number before an hour is days
		case fieldDay:
			iv.days += n
			iv.micros += int64(math.Round(fv * usPerDay))
		case fieldMonth:
			if hasFrac {
				return iv, false
			}
			iv.months += n
		case fieldYear:
			if hasFrac {
				return iv, false
			}
			iv.months += n * 12
		}
		if seen&mask != 0 {
			return iv, false
		}
		seen |= mask
	}
	return iv, seen != 0
}

// defaultIntervalField is the field of a number without a unit under the
// qualifier rng: its last field (seconds without one).
func defaultIntervalField(rng int) int {
	switch {
	case rng == 0:
		return fieldSecond
	case rng&fieldSecond != 0:
		return fieldSecond
	case rng&fieldMinute != 0:
		return fieldMinute
	case rng&fieldHour != 0:
		return fieldHour
	case rng&fieldDay != 0:
		return fieldDay
	case rng&fieldMonth != 0:
		return fieldMonth
	}
	return fieldYear
}

// intervalClock reads h:m[:s[.f]] (m:s.f, and m:s under MINUTE TO
// SECOND) as microseconds.
func intervalClock(s string, rng int) (int64, bool) {
	parts := strings.Split(s, ":")
	if len(parts) > 3 {
		return 0, false
	}
	num := func(t string) (int64, bool) {
		n, err := strconv.ParseInt(t, 10, 64)
		return n, err == nil && n >= 0
	}
	// seconds reads ss[.fff] as microseconds
	seconds := func(t string) (int64, bool) {
		w, f, _ := strings.Cut(t, ".")
		sec, ok := num(w)
		if !ok || sec > 60 {
			return 0, false
		}
		us := sec * 1e6
		if f != "" {
			v, err := strconv.ParseFloat("0."+f, 64)
			if err != nil {
				return 0, false
			}
			us += int64(math.Round(v * 1e6))
		}
		return us, true
	}
	h, ok := num(parts[0])
	if !ok {
		return 0, false
	}
	var m, us int64
	switch {
	case len(parts) == 2 && strings.Contains(parts[1], "."), // mm:ss.fff
		len(parts) == 2 && rng == fieldMinute|fieldSecond: // mm:ss
		if us, ok = seconds(parts[1]); !ok {
			return 0, false
		}
		m, h = h, 0
	case len(parts) == 2:
		if m, ok = num(parts[1]); !ok {
			return 0, false
		}
	default:
		if m, ok = num(parts[1]); !ok {
			return 0, false
		}
		if us, ok = seconds(parts[2]); !ok {
			return 0, false
		}
	}
	if m > 59 {
		return 0, false
	}
	return h*3600e6 + m*60e6 + us, true
}

// adjust drops the fields below the qualifier's last one and rounds the
// seconds to prec digits (-1: as they are), as AdjustIntervalForTypmod.
func (iv *ivAcc) adjust(rng, prec int) {
	switch {
	case rng == fieldYear:
		iv.months, iv.days, iv.micros = iv.months/12*12, 0, 0
	case rng == fieldMonth, rng == fieldYear|fieldMonth:
		iv.days, iv.micros = 0, 0
	case rng == fieldDay:
		iv.micros = 0
	case rng == fieldHour, rng == fieldDay|fieldHour:
		iv.micros = iv.micros / 3600e6 * 3600e6
	case rng == fieldMinute, rng == fieldHour|fieldMinute, rng == fieldDay|fieldHour|fieldMinute:
		iv.micros = iv.micros / 60e6 * 60e6
	}
	if prec >= 0 && prec < 6 {
		scale := int64(math.Pow10(6 - prec))
		if iv.micros >= 0 {
			iv.micros = (iv.micros + scale/2) / scale * scale
		} else {
			iv.micros = -((-iv.micros + scale/2) / scale * scale)
		}
	}
}
