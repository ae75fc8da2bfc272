package pgcompat

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// tmFields are the broken-down fields to_char prints: a timestamp's, or an
// interval's (whose hour may pass 23 and whose fields may be negative).
type tmFields struct {
	year, mon, mday, hour, min, sec int // year: astronomical (0 is 1 BC)
	usec                            int
	interval                        bool
	zone                            string // zone abbreviation ("" for none, as '-04:30' has)
	zoned                           bool   // a timestamp with time zone
	offset                          int    // seconds east of UTC
	t                               time.Time
}

var monthNames = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
var dayNames = []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}

// meridiem gives the two spellings of each AM/PM and AD/BC keyword.
var meridiem = map[string][2]string{"AM": {"AM", "PM"}, "PM": {"AM", "PM"}, "A.M.": {"A.M.", "P.M."}, "P.M.": {"A.M.", "P.M."},
	"AD": {"AD", "BC"}, "BC": {"AD", "BC"}, "A.D.": {"A.D.", "B.C."}, "B.C.": {"A.D.", "B.C."}}

var romanMonths = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}

func timeFields(t time.Time, withZone bool) tmFields {
	f := tmFields{year: t.Year(), mon: int(t.Month()), mday: t.Day(), hour: t.Hour(), min: t.Minute(), sec: t.Second(), usec: t.Nanosecond() / 1000, t: t}
	if withZone {
		f.zone, f.offset = t.Zone()
		f.zoned = true
	}
	return f
}

// intervalFields breaks an interval down as PostgreSQL's interval2tm does.
func intervalFields(months, days int32, micros int64) tmFields {
	f := tmFields{interval: true, year: int(months / 12), mon: int(months % 12), mday: int(days)}
	f.hour = int(micros / 3600e6)
	micros -= int64(f.hour) * 3600e6
	f.min = int(micros / 60e6)
	micros -= int64(f.min) * 60e6
	f.sec = int(micros / 1e6)
	f.usec = int(micros - int64(f.sec)*1e6)
	return f
}

// formatDatetime is to_char of a timestamp or interval.
func formatDatetime(f tmFields, template string) string {
	var b strings.Builder
	for _, n := range parseTemplate(template, false) {
		if n.kind != nodeKey {
			b.WriteString(n.text)
			continue
		}
		s, num, isNum := f.field(n)
		b.WriteString(s)
		if n.th != 0 && isNum {
			b.WriteString(ordinal(num, n.th == 1))
		}
	}
	return b.String()
}

// pad prints n with at least width digits (no padding in fill mode).
func pad(n int, width int, fm bool) string {
	if fm {
		return strconv.Itoa(n)
	}
	if n < 0 {
		return "-" + fmt.Sprintf("%0*d", width-1, -n)
	}
	return fmt.Sprintf("%0*d", width, n)
}

// name prints a month or day name in the keyword's case, padded to 9
// characters unless in fill mode.
func caseAs(key, s string, width int, fm bool) string {
	switch {
	case key == strings.ToUpper(key):
		s = strings.ToUpper(s)
	case key == strings.ToLower(key):
		s = strings.ToLower(s)
	}
	if !fm && len(s) < width {
		s += strings.Repeat(" ", width-len(s))
	}
	return s
}

// field prints one keyword; num and isNum give the number for a TH suffix.
func (f tmFields) field(n fmtNode) (s string, num int64, isNum bool) {
	year := f.year
	if !f.interval && year <= 0 {
		year = 1 - year // BC years count from 1
	}
	bc := !f.interval && f.year <= 0
	number := func(v, width int) (string, int64, bool) { return pad(v, width, n.fm), int64(v), true }
	hour12 := f.hour % 12
	if hour12 == 0 {
		hour12 = 12
	}
	pm := f.hour%24 >= 12
	switch strings.ToUpper(n.key) {
	case "HH", "HH12":
		return number(hour12, 2)
	case "HH24":
		return number(f.hour, 2)
	case "MI":
		return number(f.min, 2)
	case "SS":
		return number(f.sec, 2)
	case "MS":
		return number(f.usec/1000, 3)
	case "US":
		return number(f.usec, 6)
	case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
		d := int(n.key[2] - '0')
		v := f.usec
		for i := d; i < 6; i++ {
			v /= 10
		}
		return number(v, d)
	case "SSSS", "SSSSS":
		v := f.hour*3600 + f.min*60 + f.sec
		return strconv.Itoa(v), int64(v), true
	case "AM", "PM", "A.M.", "P.M.", "AD", "BC", "A.D.", "B.C.":
		k := strings.ToUpper(n.key)
		later := bc // AD/BC; AM/PM by the hour
		if strings.Contains(k, "M") {
			later = pm
		}
		s = meridiem[k][0]
		if later {
			s = meridiem[k][1]
		}
		return caseAs(n.key, s, 0, true), 0, false
	case "Y,YYY":
		return fmt.Sprintf("%d,%03d", year/1000, year%1000), int64(year), true
	case "YYYY":
		return number(year, 4)
	case "YYY":
		return number(year%1000, 3)
	case "YY":
		return number(year%100, 2)
	case "Y":
		return number(year%10, 1)
	case "IYYY", "IYY", "IY", "I":
		iy, _ := f.t.ISOWeek()
		if iy <= 0 {
			iy = 1 - iy
		}
		w := len(n.key)
		m := []int{0, 10, 100, 1000, 1 << 30}[w]
		return number(iy%m, w)
	case "IW":
		_, w := f.t.ISOWeek()
		return number(w, 2)
	case "ID":
		return number(isoDay(f.t), 1)
	case "IDDD":
		_, w := f.t.ISOWeek()
		return number((w-1)*7+isoDay(f.t), 3)
	case "CC":
		var c int
		if f.interval {
			c = f.year / 100
		} else if f.year > 0 {
			c = (f.year + 99) / 100
		} else {
			c = -((99 - (f.year - 1)) / 100)
		}
		return number(c, 2)
	case "Q":
		if f.interval {
			return number(f.mon/3+1, 1)
		}
		return number((f.mon-1)/3+1, 1)
	case "MM":
		return number(f.mon, 2)
	case "MONTH":
		if f.mon < 1 || f.mon > 12 {
			return "", 0, false
		}
		return caseAs(n.key, monthNames[f.mon-1], 9, n.fm), 0, false
	case "MON":
		if f.mon < 1 || f.mon > 12 {
			return "", 0, false
		}
		return caseAs(n.key, monthNames[f.mon-1][:3], 0, true), 0, false
	case "RM":
		return f.roman(n), 0, false
	case "DAY":
		if f.interval {
			return "", 0, false
		}
		return caseAs(n.key, dayNames[f.t.Weekday()], 9, n.fm), 0, false
	case "DY":
		if f.interval {
			return "", 0, false
		}
		return caseAs(n.key, dayNames[f.t.Weekday()][:3], 0, true), 0, false
	case "DDD":
		if f.interval {
			return number(f.mday, 3)
		}
		return number(f.t.YearDay(), 3)
	case "DD":
		return number(f.mday, 2)
	case "D":
		if f.interval {
			return "", 0, false
		}
		return number(int(f.t.Weekday())+1, 1)
	case "WW":
		if f.interval {
			return number(f.mday/7+1, 2)
		}
		return number((f.t.YearDay()-1)/7+1, 2)
	case "W":
		return number((f.mday-1)/7+1, 1)
	case "J":
		if f.interval {
			return "", 0, false
		}
		return number(int(pgdatetime.JulianDay(f.year, f.mon, f.mday)), 1)
	case "TZ":
		if f.zone == "" {
			return "", 0, false
		}
		return caseAs(n.key, f.zone, 0, true), 0, false
	case "OF":
		if !f.zoned {
			return "", 0, false
		}
		s = offsetText(f.offset, true)
		return s, 0, false
	case "TZH":
		if !f.zoned {
			return "", 0, false
		}
		return offsetText(f.offset, false)[:3], 0, false
	case "TZM":
		if !f.zoned {
			return "", 0, false
		}
		o := f.offset
		if o < 0 {
			o = -o
		}
		return fmt.Sprintf("%02d", o/60%60), 0, false
	}
	return "", 0, false // FX
}

// offsetText is +hh, or +hh:mm when minutes are nonzero (withMinutes:
// only then); without: always +hh:mm.
func offsetText(off int, short bool) string {
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	s := fmt.Sprintf("%s%02d", sign, off/3600)
	if !short || off%3600 != 0 { // PostgreSQL's OF: minutes when not whole hours
		s += fmt.Sprintf(":%02d", off/60%60)
	}
	return s
}

func (f tmFields) roman(n fmtNode) string {
	var m int // index into romanMonths
	switch {
	case f.interval && f.mon == 0 && f.year == 0:
		return ""
	case f.interval && f.mon == 0:
		m = 11
		if f.year < 0 {
			m = 0
		}
	case f.mon < 0:
		m = 12 + f.mon
	default:
		m = f.mon - 1
	}
	s := romanMonths[m]
	if n.key == "rm" {
		s = strings.ToLower(s)
	}
	if !n.fm {
		s = fmt.Sprintf("%-4s", s)
	}
	return s
}

func isoDay(t time.Time) int {
	d := int(t.Weekday())
	if d == 0 {
		return 7
	}
	return d
}

// parsed collects the fields to_timestamp and to_date read.
type parsed struct {
	year, yearLen, bc, cc, j, mm, dd, ddd, d, ww, w, hh, mi, ss, ssss, ms, us int
	has                                                                       map[string]bool
	clock12, pm, iso, gregorian                                               bool
	tzSign, tzh, tzm                                                          int
}

// parseDatetime is PostgreSQL's to_timestamp(text, text) and to_date:
// the fields of template read from s (not in FX mode: spaces and
// separators are matched loosely).
func parseDatetime(s, template string) (time.Time, bool, error) {
	nodes := parseTemplate(template, false)
	p := parsed{has: map[string]bool{}}
	fx := false
	extra := 0
	i := 0
	for k, n := range nodes {
		if i >= len(s) {
			break
		}
		if !fx && !(n.kind == nodeKey && strings.ToUpper(n.key) == "FX") && (n.kind == nodeKey || k == 0) {
			for i < len(s) && isSpace(s[i]) {
				i++
				extra++
			}
		}
		switch n.kind {
		case nodeSpace, nodeSep:
			if !fx {
				extra--
				if i < len(s) && (isSpace(s[i]) || isSeparator(s[i])) {
					i++
					extra++
				}
			} else {
				i += runeLen(s, i)
			}
			continue
		case nodeChar:
			if !fx && extra > 0 {
				extra--
			} else if i < len(s) {
				i += runeLen(s, i)
			}
			continue
		}
		var err error
		i, err = p.read(s, i, nodes, k, extra)
		if err != nil {
			return time.Time{}, false, err
		}
		if n.th != 0 {
			if i+2 <= len(s) {
				i += 2
			}
		}
		if strings.ToUpper(n.key) == "FX" {
			fx = true
		}
		if !fx {
			extra = 0
			for i < len(s) && isSpace(s[i]) {
				i++
				extra++
			}
		}
	}
	return p.result(s)
}

// nextIsSeparator reports whether the field at node k is followed by
// something that cannot be a digit (so its number may have any width).
func nextIsSeparator(nodes []fmtNode, k int) bool {
	if nodes[k].th != 0 {
		return true
	}
	if k+1 >= len(nodes) {
		return true
	}
	n := nodes[k+1]
	if n.kind == nodeKey {
		return !digitKeys[strings.ToUpper(n.key)]
	}
	return !(len(n.text) == 1 && isDigit(n.text[0]))
}

var digitKeys = map[string]bool{}

func init() {
	for _, k := range strings.Fields(`CC DDD DD D FF1 FF2 FF3 FF4 FF5 FF6 HH24 HH12 HH IDDD ID IW IYYY IYY IY I J MI MM MS Q SSSSS SSSS SS TZH TZM US WW W Y,YYY YYYY YYY YY Y`) {
		digitKeys[k] = true
	}
}

// readInt reads the number of a field of width w at s[i:]: exactly w
// characters, or as many digits as there are in fill mode or before a
// separator.
func readInt(s string, i int, nodes []fmtNode, k, w int) (int, int, int, error) {
	n := nodes[k]
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start := i
	if n.fm || nextIsSeparator(nodes, k) {
		j := i
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		v, err := strconv.Atoi(s[i:j])
		if err != nil || j == i {
			return 0, i, 0, datetimeFormatError("invalid value %q for %q", fieldText(s[i:], w), n.key).WithHint("Value must be an integer.")
		}
		return v, j, j - start, nil
	}
	if len(s)-i < w {
		return 0, i, 0, datetimeFormatError("source string too short for %q formatting field", n.key).
			WithHint("Field requires %d characters, but only %d remain. If your source string is not fixed-width, try using the \"FM\" modifier.", w, len(s)-i)
	}
	j := i
	if s[j] == '+' || s[j] == '-' {
		j++
	}
	for j < i+w && isDigit(s[j]) {
		j++
	}
	if j < i+w {
		return 0, i, 0, datetimeFormatError("invalid value %q for %q", s[i:i+w], n.key).
			WithHint("Field requires %d characters, but only %d could be parsed. If your source string is not fixed-width, try using the \"FM\" modifier.", w, j-i)
	}
	v, err := strconv.Atoi(s[i:j])
	if err != nil {
		return 0, i, 0, datetimeFormatError("invalid value %q for %q", s[i:i+w], n.key).WithHint("Value must be an integer.")
	}
	return v, j, j - start, nil
}

func fieldText(s string, w int) string {
	if len(s) > w {
		return s[:w]
	}
	return s
}

// set records a field, refusing a second, different value.
func (p *parsed) set(dst *int, v int, key string) error {
	name := strings.ToUpper(key)
	if p.has[fieldOf(name)] && *dst != v {
		return datetimeFormatError("conflicting values for %q field in formatting string", key).
			WithHint("This value contradicts a previous setting for the same field type.")
	}
	p.has[fieldOf(name)] = true
	*dst = v
	return nil
}

func fieldOf(key string) string {
	switch key {
	case "HH12", "HH24":
		return "HH"
	case "AD", "A.D.", "B.C.":
		return "BC"
	case "MON", "MONTH", "RM":
		return "MM"
	case "DAY", "DY", "ID":
		return "D"
	case "IW":
		return "WW"
	case "IDDD":
		return "DDD"
	case "YYYY", "YYY", "YY", "Y", "IYYY", "IYY", "IY", "I", "Y,YYY":
		return "YEAR"
	}
	return key
}

// seq matches one of words (case-insensitively) at s[i:].
func seq(s string, i int, words []string, key string) (int, int, error) {
	for w, word := range words {
		if len(s)-i >= len(word) && strings.EqualFold(s[i:i+len(word)], word) {
			return w, i + len(word), nil
		}
	}
	return 0, i, datetimeFormatError("invalid value %q for %q", fieldText(s[i:], maxLen(words)), key).
		WithHint("The given value did not match any of the allowed values for this field.")
}

func maxLen(words []string) int {
	m := 0
	for _, w := range words {
		if len(w) > m {
			m = len(w)
		}
	}
	return m
}

var monthAbbrevs, dayAbbrevs = abbrevs(monthNames), abbrevs(dayNames)

func abbrevs(l []string) []string {
	out := make([]string, len(l))
	for i, s := range l {
		out[i] = s[:3]
	}
	return out
}

var romanReversed = []string{"XII", "XI", "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"}

// read reads the field of node k at s[i:].
func (p *parsed) read(s string, i int, nodes []fmtNode, k, extra int) (int, error) {
	n := nodes[k]
	key := strings.ToUpper(n.key)
	num := func(dst *int, w int) (int, error) {
		v, j, _, err := readInt(s, i, nodes, k, w)
		if err != nil {
			return i, err
		}
		return j, p.set(dst, v, n.key)
	}
	// name reads one of words into dst: its index + add, or (add < 0)
	// -add - its index
	name := func(dst *int, words []string, add int) (int, error) {
		v, j, err := seq(s, i, words, n.key)
		if err != nil {
			return j, err
		}
		if add < 0 {
			return j, p.set(dst, -add-v, n.key)
		}
		return j, p.set(dst, v+add, n.key)
	}
	if isoKeys[key] {
		if p.gregorian {
			return i, mixedConventions()
		}
		p.iso = true
	} else if gregorianKeys[key] {
		if p.iso {
			return i, mixedConventions()
		}
		p.gregorian = true
	}
	switch key {
	case "FX":
		return i, nil
	case "AM", "PM", "A.M.", "P.M.":
		var v int
		words := meridiem[key]
		j, err := name(&v, words[:], 0)
		p.pm, p.clock12 = v == 1, true
		return j, err
	case "AD", "BC", "A.D.", "B.C.":
		words := meridiem[key]
		return name(&p.bc, words[:], 0)
	case "HH", "HH12":
		p.clock12 = true
		return num(&p.hh, 2)
	case "HH24":
		return num(&p.hh, 2)
	case "MI":
		return num(&p.mi, 2)
	case "SS":
		return num(&p.ss, 2)
	case "MS", "US", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
		w := 6
		switch key {
		case "MS":
			w = 3
		case "US":
		default:
			w = int(key[2] - '0')
		}
		v, j, l, err := readInt(s, i, nodes, k, w)
		if err != nil {
			return i, err
		}
		for ; l < 6; l++ {
			v *= 10
		}
		if key == "MS" {
			return j, p.set(&p.ms, v/1000, n.key)
		}
		return j, p.set(&p.us, v, n.key)
	case "SSSS", "SSSSS":
		return num(&p.ssss, len(key))
	case "Y,YYY":
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if j == i || j+4 > len(s) || s[j] != ',' || !isDigit(s[j+1]) || !isDigit(s[j+2]) || !isDigit(s[j+3]) {
			return i, datetimeFormatError("invalid input string for \"Y,YYY\"")
		}
		m, _ := strconv.Atoi(s[i:j])
		y, _ := strconv.Atoi(s[j+1 : j+4])
		p.yearLen = 4
		return j + 4, p.set(&p.year, m*1000+y, n.key)
	case "YYYY", "IYYY", "YYY", "IYY", "YY", "IY", "Y", "I":
		w := len(key)
		v, j, l, err := readInt(s, i, nodes, k, w)
		if err != nil {
			return i, err
		}
		if w < 4 && l < 4 {
			v = adjustYear(v)
		}
		p.yearLen = w
		return j, p.set(&p.year, v, n.key)
	case "CC":
		return num(&p.cc, 2)
	case "Q":
		var q int
		return num(&q, 1) // PostgreSQL ignores the quarter
	case "MM":
		return num(&p.mm, 2)
	case "MON":
		return name(&p.mm, monthAbbrevs, 1)
	case "MONTH":
		return name(&p.mm, monthNames, 1)
	case "RM":
		return name(&p.mm, romanReversed, -12)
	case "DY":
		return name(&p.d, dayAbbrevs, 1)
	case "DAY":
		return name(&p.d, dayNames, 1)
	case "DDD", "IDDD":
		return num(&p.ddd, 3)
	case "DD":
		return num(&p.dd, 2)
	case "D", "ID":
		return num(&p.d, 1)
	case "WW", "IW":
		return num(&p.ww, 2)
	case "W":
		return num(&p.w, 1)
	case "J":
		v, j, _, err := readInt(s, i, nodes, k, 1)
		if err != nil {
			return i, err
		}
		return j, p.set(&p.j, v, n.key)
	case "TZH":
		switch {
		case i < len(s) && (s[i] == '+' || s[i] == '-' || s[i] == ' '):
			p.tzSign = 1
			if s[i] == '-' {
				p.tzSign = -1
			}
			i++
		case extra > 0 && i > 0 && s[i-1] == '-':
			p.tzSign = -1
		default:
			p.tzSign = 1
		}
		v, j, _, err := readInt(s, i, nodes, k, 2)
		if err != nil {
			return i, err
		}
		p.tzh = v
		return j, nil
	case "TZM":
		if p.tzSign == 0 {
			p.tzSign = 1
		}
		v, j, _, err := readInt(s, i, nodes, k, 2)
		if err != nil {
			return i, err
		}
		p.tzm = v
		return j, nil
	case "TZ", "OF":
		return i, vsqlerr.New(vsqlerr.FeatureNotSupported, "formatting field %q is only supported in to_char", n.key)
	}
	return i, nil
}

var isoKeys = map[string]bool{"IYYY": true, "IYY": true, "IY": true, "I": true, "IW": true, "ID": true, "IDDD": true}
var gregorianKeys = map[string]bool{"YYYY": true, "YYY": true, "YY": true, "Y": true, "Y,YYY": true, "WW": true, "W": true, "D": true, "DDD": true, "MM": true, "MON": true, "MONTH": true, "DD": true, "RM": true}

func mixedConventions() error {
	return datetimeFormatError("invalid combination of date conventions").
		WithHint("Do not mix Gregorian and ISO week date conventions in a formatting template.")
}

// adjustYear reads a year of fewer than 4 digits as the one nearest 2020.
func adjustYear(y int) int {
	switch {
	case y < 70:
		return y + 2000
	case y < 100:
		return y + 1900
	case y < 520:
		return y + 2000
	case y < 1000:
		return y + 1000
	}
	return y
}

var daysBefore = [2][13]int{{0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365}, {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}}

// result builds the timestamp from the fields read, as PostgreSQL's
// do_to_timestamp does; hasZone reports a TZH/TZM field.
func (p *parsed) result(src string) (time.Time, bool, error) {
	year, mon, mday, hour, min, sec := 0, 1, 1, 0, 0, 0
	if p.has["SSSS"] || p.has["SSSSS"] {
		x := p.ssss
		hour, min, sec = x/3600, x%3600/60, x%60
	}
	if p.has["SS"] {
		sec = p.ss
	}
	if p.has["MI"] {
		min = p.mi
	}
	if p.has["HH"] || p.has["HH12"] || p.has["HH24"] {
		hour = p.hh
	}
	if p.clock12 {
		if hour < 1 || hour > 12 {
			return time.Time{}, false, vsqlerr.New(vsqlerr.DatetimeFieldOverflow, "hour \"%d\" is invalid for the 12-hour clock", hour).
				WithHint("Use the 24-hour clock, or give an hour between 1 and 12.")
		}
		if p.pm && hour < 12 {
			hour += 12
		} else if !p.pm && hour == 12 {
			hour = 0
		}
	}
	bc := p.has["BC"] && p.bc == 1
	switch {
	case p.has["YEAR"]:
		if p.has["CC"] && p.yearLen <= 2 {
			cc := p.cc
			if bc {
				cc = -cc
			}
			year = p.year % 100
			if year != 0 {
				if cc >= 0 {
					year += (cc - 1) * 100
				} else {
					year = (cc+1)*100 - year + 1
				}
			} else if cc >= 0 {
				year = cc * 100
			} else {
				year = cc*100 + 1
			}
		} else {
			year = p.year
			if bc {
				year = -year
			}
			if year < 0 {
				year++
			}
		}
	case p.has["CC"]:
		cc := p.cc
		if bc {
			cc = -cc
		}
		if cc >= 0 {
			year = (cc-1)*100 + 1
		} else {
			year = cc*100 + 1
		}
	}
	dateSet := false
	if p.has["J"] {
		year, mon, mday = pgdatetime.DateOfJulian(int64(p.j))
		dateSet = true
	}
	ddd := p.ddd
	if p.has["WW"] {
		if p.iso {
			y, m, d := isoWeekDate(year, p.ww, p.d)
			year, mon, mday = y, m, d
			dateSet = true
		} else {
			ddd = (p.ww-1)*7 + 1
		}
	}
	if p.has["W"] {
		mday = (p.w-1)*7 + 1
	}
	if p.has["DD"] {
		mday = p.dd
	}
	if p.has["MM"] {
		mon = p.mm
	}
	if ddd != 0 && (mon <= 1 || mday <= 1) && !dateSet {
		if year == 0 && !bc {
			return time.Time{}, false, datetimeFormatError("cannot calculate day of year without year information")
		}
		if p.iso {
			t := isoYearStart(year).AddDate(0, 0, ddd-1)
			year, mon, mday = t.Year(), int(t.Month()), t.Day()
		} else {
			leap := 0
			if pgdatetime.IsLeap(year) {
				leap = 1
			}
			m := 1
			for ; m <= 12; m++ {
				if ddd <= daysBefore[leap][m] {
					break
				}
			}
			if mon <= 1 {
				mon = m
			}
			if mday <= 1 && m <= 12 {
				mday = ddd - daysBefore[leap][m-1]
			}
		}
	}
	usec := p.ms*1000 + p.us
	if mon < 1 || mon > 12 || mday < 1 || mday > pgdatetime.DaysIn(year, mon) || hour > 24 || min > 59 || sec > 60 || hour < 0 || min < 0 || sec < 0 {
		return time.Time{}, false, vsqlerr.New(vsqlerr.DatetimeFieldOverflow, "date/time field value out of range: %q", src)
	}
	t := time.Date(year, time.Month(mon), mday, hour, min, sec, usec*1000, time.UTC)
	if p.tzSign != 0 {
		off := p.tzSign * (p.tzh*3600 + p.tzm*60)
		t = t.Add(-time.Duration(off) * time.Second)
		return t, true, nil
	}
	return t, false, nil
}

// isoYearStart is the Monday of ISO week 1 of ISO year y.
func isoYearStart(y int) time.Time {
	jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
	return jan4.AddDate(0, 0, 1-isoDay(jan4))
}

// isoWeekDate is the date of ISO year y, week w, day d (1 = Monday; 0:
// Monday).
func isoWeekDate(y, w, d int) (int, int, int) {
	if d == 0 {
		d = 1
	}
	t := isoYearStart(y).AddDate(0, 0, (w-1)*7+d-1)
	return t.Year(), int(t.Month()), t.Day()
}

// atTimeZone rewrites the zone of x AT TIME ZONE 'zone' (token i is ZONE)
// and of timezone('zone', x) (token i is timezone) as PostgreSQL reads it
// (pgdatetime.AtZone), in a form DuckDB's ICU reads alike: an
// abbreviation of a fixed offset ('PST', 'CET', 'EDT'), which ICU takes
// for a zone with daylight-saving time or does not know, and a POSIX
// offset ('UTC+3': three hours west), become the Etc/GMT zone of that
// offset; a zone name is written in its database's spelling. A dynamic
// abbreviation ('MSK': the offset it had in Europe/Moscow then) and a
// fixed offset that is not whole hours ('UTC+4:30', 'NST'), which ICU
// cannot express, become a call of the Go function
// __vsql_timezone_abbrev / __vsql_timezone_offset (through the macros
// pg_timezone_abbrev and pg_timezone_offset). A POSIX rule of its
// own is left to DuckDB (which refuses it).
func atTimeZone(p *pass, i int) {
	lit, first, infix := -1, -1, false
	switch {
	case p.isWord(i, "zone") && p.isWord(i-1, "time") && p.isWord(i-2, "at"):
		lit, infix = i+1, true
		untypedInstant(p, i-3)
		first = p.operandStart(i - 3)
		if first >= 0 && p.kind(first) == sqltext.String {
			first = typedInstantStart(p, first)
		}
	case p.isWord(i, "timezone") && p.kind(i+1) == sqltext.Open && p.isOp(i+3, ",") && !p.isOp(i-1, "."):
		lit = i + 2
	}
	if !p.plainString(lit) || p.edited(p.toks[lit].Start, p.toks[lit].End) {
		return
	}
	zone := p.stringText(lit)
	name, east, fixed, ok := pgdatetime.AtZone(zone)
	if icu, ok := icuZone(name, east, fixed, ok); ok {
		if icu != zone {
			p.replace(p.toks[lit].Start, p.toks[lit].End, sqlString(icu))
		}
		return
	}
	call := ""
	if _, dyn := pgdatetime.DynamicAbbrev(zone); dyn {
		call = schema + ".pg_timezone_abbrev(" + sqlString(zone) + ", "
	} else if ok && fixed {
		call = schema + ".pg_timezone_offset(" + strconv.Itoa(east) + ", "
	} else {
		return
	}
	switch {
	case infix && first >= 0: // x AT TIME ZONE 'MSK' → f('MSK', x)
		p.open(p.toks[first].Start, call)
		p.replace(p.toks[i-3].End, p.toks[lit].End, ")")
	case !infix: // timezone('MSK', x) → f('MSK', x)
		p.replace(p.toks[i].Start, p.toks[lit+1].End, call)
	}
}

// typedInstantStart is the first token of the typed literal whose
// string is token lit: timestamp '…', timestamptz '…', date '…',
// timestamp with[out] time zone '…'; lit itself when it is untyped.
func typedInstantStart(p *pass, lit int) int {
	switch {
	case p.isWord(lit-1, "zone") && p.isWord(lit-2, "time") && (p.isWord(lit-3, "with") || p.isWord(lit-3, "without")) && p.isWord(lit-4, "timestamp"):
		return lit - 4
	case p.isWord(lit-1, "timestamp") || p.isWord(lit-1, "timestamptz") || p.isWord(lit-1, "date"):
		return lit - 1
	}
	return lit
}

// untypedInstant types the untyped string literal at token lit before AT
// TIME ZONE as PostgreSQL resolves it, timestamp with time zone: '19970210
// 173201' AT TIME ZONE 'America/New_York' is read by PostgreSQL's input
// in the session's DateStyle and TimeZone (DuckDB cannot choose between
// its timezone functions for a string).
func untypedInstant(p *pass, lit int) {
	if !p.plainString(lit) || p.edited(p.toks[lit].Start, p.toks[lit].End) {
		return
	}
	switch {
	case lit == 0, p.isOp(lit-1, ","), p.kind(lit-1) == sqltext.Open:
	case p.kind(lit-1) == sqltext.Word:
		switch strings.ToLower(p.src[p.toks[lit-1].Start:p.toks[lit-1].End]) {
		case "select", "where", "and", "or", "when", "then", "else", "by", "on", "not":
		default:
			return // timestamp '…', a typed literal
		}
	default:
		return
	}
	loc := p.sess.Location
	if loc == nil {
		loc = time.UTC
	}
	v, err := pgdatetime.Parse(p.stringText(lit), pgdatetime.TimestampTZ, pgdatetime.Options{Order: p.sess.Order, Location: loc, Now: time.Now()})
	if err != nil || v.Special != pgdatetime.None {
		return
	}
	p.replace(p.toks[lit].Start, p.toks[lit].End, "CAST('"+time.UnixMicro(v.Micros).UTC().Format("2006-01-02 15:04:05.999999")+"+00' AS TIMESTAMPTZ)")
}

// icuZone is the name DuckDB's ICU reads as a zone pgdatetime.AtZone
// resolved: the zone's name, or the Etc/GMT zone of a fixed offset of
// whole hours; false for what ICU cannot express.
func icuZone(name string, east int, fixed, ok bool) (string, bool) {
	switch {
	case !ok:
		return "", false
	case fixed && east == 0:
		return "UTC", true
	case fixed && east%3600 == 0 && east >= -12*3600 && east <= 14*3600:
		return fmt.Sprintf("Etc/GMT%+d", -east/3600), true // POSIX's sign: Etc/GMT+8 is UTC-8
	case fixed:
		return "", false
	}
	return name, true
}

// isoOffsetZone reads a zone written as a numeric offset in ISO 8601's
// sign ('+2', '-05:30': hours east), as make_timestamptz takes it.
var isoOffsetZone = regexp.MustCompile(`^\s*([+-])(\d{1,2})(?::?(\d\d))?\s*$`)

// makeTimestamptzZone rewrites the zone of make_timestamptz(y, m, d, h,
// mi, s, 'zone') (token i is make_timestamptz) as PostgreSQL reads it: a
// numeric offset counts hours east ('+2' is UTC+2), then an abbreviation
// or a name as for AT TIME ZONE (atTimeZone).
func makeTimestamptzZone(p *pass, i int) {
	closing, args := p.callArgs(i)
	if len(args) != 7 || args[6][0] != args[6][1] || !p.plainString(args[6][0]) {
		return
	}
	lit := args[6][0]
	zone := p.stringText(lit)
	name, east, fixed, ok := pgdatetime.AtZone(zone)
	if m := isoOffsetZone.FindStringSubmatch(zone); m != nil {
		h, _ := strconv.Atoi(m[2])
		if h > 15 { // PostgreSQL's MAX_TZDISP_HOUR
			p.replace(p.toks[i].Start, p.toks[closing].End, "CAST(error("+sqlString(fmt.Sprintf("[vsql:invalid_argument] numeric time zone %q out of range", zone))+") AS TIMESTAMPTZ)")
			return
		}
		mins := 0
		if m[3] != "" {
			mins, _ = strconv.Atoi(m[3])
		}
		east, fixed, ok = h*3600+mins*60, true, true
		if m[1] == "-" {
			east = -east
		}
	}
	if _, dyn := pgdatetime.DynamicAbbrev(zone); dyn && !ok { // 'MSK': its offset then
		p.replace(p.toks[i].Start, p.toks[closing].End, "__vsql_timezone_abbrev("+sqlString(zone)+", make_timestamp("+
			p.src[p.toks[args[0][0]].Start:p.toks[args[5][1]].End]+"))")
		return
	}
	switch {
	case !ok:
	case fixed: // the wall-clock time less the offset, as UTC: any offset
		p.replace(p.toks[i].Start, p.toks[closing].End, schema+".pg_make_timestamptz("+
			p.src[p.toks[args[0][0]].Start:p.toks[args[5][1]].End]+", "+strconv.Itoa(east)+")")
	case name != zone:
		p.replace(p.toks[lit].Start, p.toks[lit].End, sqlString(name))
	}
}

// dateTruncZone rewrites the zone of date_trunc(unit, x, 'zone') (token
// i is date_trunc, or pg_date_trunc, its macro) as AT TIME ZONE reads it (atTimeZone), but a dynamic
// abbreviation ('VET') stands for its zone (America/Caracas), as in
// PostgreSQL's timestamptz_trunc_zone.
func dateTruncZone(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	args := p.splitArgs(i+1, closing)
	if len(args) != 3 || args[2][0] != args[2][1] || !p.plainString(args[2][0]) {
		return
	}
	lit := args[2][0]
	zone := p.stringText(lit)
	name, ok := icuZone(pgdatetime.AtZone(zone))
	if !ok {
		name, ok = pgdatetime.DynamicAbbrev(zone)
	}
	if ok && name != zone {
		p.replace(p.toks[lit].Start, p.toks[lit].End, sqlString(name))
	}
}
