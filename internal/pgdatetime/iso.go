package pgdatetime

// ParseISO reads the ISO 8601 forms bulk data comes in, without
// allocating: YYYY-MM-DD for a Date, YYYY-MM-DD HH:MM:SS[.ffffff] (or with
// T) for a Timestamp, HH:MM:SS[.ffffff] for a Time, no zone. It gives what
// Parse gives for them; ok is false for anything else (then Parse reads
// it).
func ParseISO(b []byte, kind Kind) (Value, bool) {
	num := func(b []byte) (int, bool) {
		n := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	clock := func(b []byte) (int64, bool) {
		if len(b) < 8 || b[2] != ':' || b[5] != ':' {
			return 0, false
		}
		h, ok1 := num(b[0:2])
		m, ok2 := num(b[3:5])
		sec, ok3 := num(b[6:8])
		if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 59 {
			return 0, false
		}
		us := int64(0)
		if len(b) > 8 {
			frac := b[9:]
			if b[8] != '.' || len(frac) == 0 || len(frac) > 6 {
				return 0, false
			}
			f, ok := num(frac)
			if !ok {
				return 0, false
			}
			us = int64(f)
			for k := len(frac); k < 6; k++ {
				us *= 10
			}
		}
		return (int64(h)*3600+int64(m)*60+int64(sec))*usecsPerSec + us, true
	}
	day := func(b []byte) (int64, bool) {
		if len(b) != 10 || b[4] != '-' || b[7] != '-' {
			return 0, false
		}
		y, ok1 := num(b[0:4])
		m, ok2 := num(b[5:7])
		d, ok3 := num(b[8:10])
		if !ok1 || !ok2 || !ok3 || y < 1 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
			return 0, false
		}
		return date2j(y, m, d) - unixEpochJulian, true
	}
	switch kind {
	case Date:
		d, ok := day(b)
		return Value{Days: int32(d)}, ok
	case Time:
		c, ok := clock(b)
		return Value{Micros: c}, ok
	case Timestamp:
		if len(b) < 19 || b[10] != ' ' && b[10] != 'T' {
			return Value{}, false
		}
		d, ok1 := day(b[:10])
		c, ok2 := clock(b[11:])
		return Value{Micros: d*usecsPerDay + c}, ok1 && ok2
	}
	return Value{}, false
}

// unixEpochJulian is the Julian day of 1970-01-01.
const unixEpochJulian = 2440588
