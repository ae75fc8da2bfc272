package pgcompat

import (
	"database/sql/driver"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
)

// (s1, e1) OVERLAPS (s2, e2), SQL's period predicate: DuckDB's parser
// reads it as a call of a function overlaps that DuckDB lacks. The rule
// overlapsRule turns it into pg_overlaps(s1, e1, s2, e2), whose Go
// function (__vsql_overlaps) has PostgreSQL's overloads: timestamps,
// timestamps with time zone or times, each end either such a value or
// an interval added to its start (in the session's TimeZone, months
// first, as PostgreSQL adds them; a time wraps around midnight), and
// PostgreSQL's answer for NULL ends (overlaps_timestamp: a period with
// one NULL end is the instant of the other; NULL where that decides).

// overlapsRule rewrites (a, b) OVERLAPS (c, d) at the word overlaps
// (token i); other shapes (a row of another width) are left to DuckDB.
func overlapsRule(p *pass, i int) {
	if p.kind(i-1) != sqltext.Close || p.kind(i+1) != sqltext.Open {
		return
	}
	j, k := p.matchBackward(i-1), p.matchForward(i+1)
	if j < 0 || k < 0 || p.topCommas(j, i-1) != 1 || p.topCommas(i+1, k) != 1 {
		return
	}
	if w := p.kind(j - 1); (w == sqltext.Word && !notNames[lowerWord(p.text(j-1))]) || w == sqltext.Quoted {
		return // f(a, b) OVERLAPS …: not a row
	}
	p.replace(p.toks[j].Start, p.toks[j].End, schema+".pg_overlaps(")
	p.replace(p.toks[i-1].Start, p.toks[i+1].End, ", ")
}

// topCommas counts the commas directly inside the brackets open at token
// j and closed at token k.
func (p *pass) topCommas(j, k int) int {
	n, depth := 0, 0
	for t := j + 1; t < k; t++ {
		switch {
		case p.toks[t].Kind == sqltext.Open || p.isOp(t, "["):
			depth++
		case p.toks[t].Kind == sqltext.Close || p.isOp(t, "]"):
			depth--
		case depth == 0 && p.isOp(t, ","):
			n++
		}
	}
	return n
}

func lowerWord(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// overlapsFunctions are __vsql_overlaps's overloads: (start, end or
// interval, start, end or interval, the session's TimeZone).
func overlapsFunctions() []scalar {
	var set []scalar
	for _, base := range []duckdb.Type{tTS, tTSTZ, duckdb.TYPE_TIME} {
		for _, ends := range [][2]duckdb.Type{{base, base}, {tIval, tIval}, {base, tIval}, {tIval, base}} {
			set = append(set, scalar{in: []duckdb.Type{base, ends[0], base, ends[1], tText}, out: tBool, nulls: true,
				run: func(a []driver.Value) (any, error) { return overlapsRun(a, base), nil }})
		}
	}
	return set
}

// overlapsRun is PostgreSQL's overlaps_timestamp (and overlaps_time) on
// values as microseconds.
func overlapsRun(a []driver.Value, base duckdb.Type) any {
	loc := time.UTC
	if base == tTSTZ {
		loc = inZone(time.Time{}, a[4]).Location()
	}
	point := func(v driver.Value) (int64, bool) {
		switch x := v.(type) {
		case time.Time:
			if base == duckdb.TYPE_TIME {
				return int64(x.Hour())*3600e6 + int64(x.Minute())*60e6 + int64(x.Second())*1e6 + int64(x.Nanosecond()/1000), true
			}
			return x.UnixMicro(), true
		}
		return 0, false
	}
	end := func(start, v driver.Value) (int64, bool) {
		iv, ok := v.(duckdb.Interval)
		if !ok {
			return point(v)
		}
		if base == duckdb.TYPE_TIME {
			s, ok := point(start)
			if !ok {
				return 0, false
			}
			const day = int64(86400e6)
			return ((s+iv.Micros)%day + day) % day, true
		}
		t, ok := start.(time.Time)
		if !ok {
			return 0, false
		}
		return addInterval(t.In(loc), iv).UnixMicro(), true
	}
	ts1, ok1 := point(a[0])
	te1, okE1 := end(a[0], a[1])
	ts2, ok2 := point(a[2])
	te2, okE2 := end(a[2], a[3])
	order := func(s int64, sOK bool, e int64, eOK bool) (int64, int64, bool, bool) {
		if !sOK {
			return e, 0, eOK, false // one end NULL: the other is the start
		}
		if eOK && s > e {
			return e, s, true, true
		}
		return s, e, true, eOK
	}
	ts1, te1, ok1, okE1 = order(ts1, ok1, te1, okE1)
	ts2, te2, ok2, okE2 = order(ts2, ok2, te2, okE2)
	if !ok1 || !ok2 {
		return nil
	}
	switch {
	case ts1 > ts2:
		if !okE2 {
			return nil
		}
		if ts1 < te2 {
			return true
		}
		if !okE1 {
			return nil
		}
		return false
	case ts1 < ts2:
		if !okE1 {
			return nil
		}
		if ts2 < te1 {
			return true
		}
		if !okE2 {
			return nil
		}
		return false
	default:
		if !okE1 || !okE2 {
			return nil
		}
		return true
	}
}

// addInterval is t + iv as PostgreSQL adds an interval to a timestamp:
// months on the calendar date (the day kept, or the month's last), then
// days on the wall clock of t's zone, then the microseconds.
func addInterval(t time.Time, iv duckdb.Interval) time.Time {
	if iv.Months != 0 {
		y, m, d := t.Date()
		mm := int(m) - 1 + int(iv.Months)
		y += mm / 12
		if mm %= 12; mm < 0 {
			mm += 12
			y--
		}
		if last := time.Date(y, time.Month(mm+2), 0, 0, 0, 0, 0, time.UTC).Day(); d > last {
			d = last
		}
		t = time.Date(y, time.Month(mm+1), d, t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), t.Location())
	}
	if iv.Days != 0 {
		t = t.AddDate(0, 0, int(iv.Days))
	}
	return t.Add(time.Duration(iv.Micros) * time.Microsecond)
}
