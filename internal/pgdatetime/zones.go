package pgdatetime

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // zone names resolve without the system's tzdata
)

type abbrev struct {
	off  int    // seconds east of UTC
	dst  bool   // a daylight-saving abbreviation (PostgreSQL's DTZ)
	zone string // a dynamic abbreviation: its meaning comes from this zone
}

// abbrevs is PostgreSQL's "Default" time zone abbreviation set.
var abbrevs = map[string]abbrev{
	"acdt":   {off: 37800, dst: true},
	"acsst":  {off: 37800, dst: true},
	"acwst":  {off: 31500},
	"acst":   {off: 34200, dst: false},
	"act":    {off: -18000, dst: false},
	"adt":    {off: -10800, dst: true},
	"aedt":   {off: 39600, dst: true},
	"aesst":  {off: 39600, dst: true},
	"aest":   {off: 36000, dst: false},
	"aft":    {off: 16200, dst: false},
	"akdt":   {off: -28800, dst: true},
	"akst":   {off: -32400, dst: false},
	"almst":  {off: 25200, dst: true},
	"almt":   {zone: "Asia/Almaty"},
	"amst":   {zone: "Asia/Yerevan"},
	"amt":    {off: -14400, dst: false},
	"anast":  {zone: "Asia/Anadyr"},
	"anat":   {zone: "Asia/Anadyr"},
	"arst":   {zone: "America/Argentina/Buenos_Aires"},
	"art":    {zone: "America/Argentina/Buenos_Aires"},
	"ast":    {off: -14400, dst: false},
	"awsst":  {off: 32400, dst: true},
	"awst":   {off: 28800, dst: false},
	"azost":  {off: 0, dst: true},
	"azot":   {off: -3600, dst: false},
	"azst":   {zone: "Asia/Baku"},
	"azt":    {zone: "Asia/Baku"},
	"bdst":   {off: 7200, dst: true},
	"bdt":    {off: 21600, dst: false},
	"bnt":    {off: 28800, dst: false},
	"bort":   {off: 28800, dst: false},
	"bot":    {off: -14400, dst: false},
	"bra":    {off: -10800, dst: false},
	"brst":   {off: -7200, dst: true},
	"brt":    {off: -10800, dst: false},
	"bst":    {off: 3600, dst: true},
	"btt":    {off: 21600, dst: false},
	"cadt":   {off: 37800, dst: true},
	"cast":   {off: 34200, dst: false},
	"cct":    {off: 28800, dst: false},
	"cdt":    {off: -18000, dst: true},
	"cest":   {off: 7200, dst: true},
	"cet":    {off: 3600, dst: false},
	"cetdst": {off: 7200, dst: true},
	"chadt":  {off: 49500, dst: true},
	"chast":  {off: 45900, dst: false},
	"chut":   {off: 36000, dst: false},
	"ckt":    {zone: "Pacific/Rarotonga"},
	"clst":   {zone: "America/Santiago"},
	"clt":    {zone: "America/Santiago"},
	"cot":    {off: -18000, dst: false},
	"cst":    {off: -21600, dst: false},
	"cxt":    {off: 25200, dst: false},
	"davt":   {zone: "Antarctica/Davis"},
	"ddut":   {off: 36000, dst: false},
	"easst":  {zone: "Pacific/Easter"},
	"east":   {zone: "Pacific/Easter"},
	"eat":    {off: 10800, dst: false},
	"edt":    {off: -14400, dst: true},
	"eest":   {off: 10800, dst: true},
	"eet":    {off: 7200, dst: false},
	"eetdst": {off: 10800, dst: true},
	"egst":   {off: 0, dst: true},
	"egt":    {off: -3600, dst: false},
	"est":    {off: -18000, dst: false},
	"fet":    {zone: "Europe/Minsk"},
	"fjst":   {off: 46800, dst: true},
	"fjt":    {off: 43200, dst: false},
	"fkst":   {off: -10800, dst: false},
	"fkt":    {zone: "Atlantic/Stanley"},
	"fnst":   {off: -3600, dst: true},
	"fnt":    {off: -7200, dst: false},
	"galt":   {off: -21600, dst: false},
	"gamt":   {off: -32400, dst: false},
	"gest":   {zone: "Asia/Tbilisi"},
	"get":    {zone: "Asia/Tbilisi"},
	"gft":    {off: -10800, dst: false},
	"gilt":   {off: 43200, dst: false},
	"gmt":    {off: 0, dst: false},
	"gyt":    {zone: "America/Guyana"},
	"hkt":    {off: 28800, dst: false},
	"hst":    {off: -36000, dst: false},
	"ict":    {off: 25200, dst: false},
	"idt":    {off: 10800, dst: true},
	"iot":    {zone: "Indian/Chagos"},
	"irkst":  {zone: "Asia/Irkutsk"},
	"irkt":   {zone: "Asia/Irkutsk"},
	"irt":    {off: 12600, dst: false},
	"ist":    {off: 7200, dst: false},
	"jayt":   {off: 32400, dst: false},
	"jst":    {off: 32400, dst: false},
	"kdt":    {off: 36000, dst: true},
	"kgst":   {off: 21600, dst: true},
	"kgt":    {zone: "Asia/Bishkek"},
	"kost":   {zone: "Pacific/Kosrae"},
	"krast":  {zone: "Asia/Krasnoyarsk"},
	"krat":   {zone: "Asia/Krasnoyarsk"},
	"kst":    {off: 32400, dst: false},
	"lhdt":   {off: 39600, dst: true},
	"lhst":   {off: 37800, dst: false},
	"ligt":   {off: 36000, dst: false},
	"lint":   {off: 50400, dst: false},
	"lkt":    {zone: "Asia/Colombo"},
	"magst":  {zone: "Asia/Magadan"},
	"magt":   {zone: "Asia/Magadan"},
	"mart":   {off: -34200, dst: false},
	"mawt":   {zone: "Antarctica/Mawson"},
	"mdt":    {off: -21600, dst: true},
	"mest":   {off: 7200, dst: true},
	"mesz":   {off: 7200, dst: true},
	"met":    {off: 3600, dst: false},
	"metdst": {off: 7200, dst: true},
	"mez":    {off: 3600, dst: false},
	"mht":    {off: 43200, dst: false},
	"mmt":    {off: 23400, dst: false},
	"mpt":    {off: 36000, dst: false},
	"msd":    {off: 14400, dst: true},
	"msk":    {zone: "Europe/Moscow"},
	"mst":    {off: -25200, dst: false},
	"mut":    {off: 14400, dst: false},
	"must":   {off: 18000, dst: true},
	"mvt":    {off: 18000, dst: false},
	"myt":    {off: 28800, dst: false},
	"ndt":    {off: -9000, dst: true},
	"nft":    {off: -12600, dst: false},
	"novst":  {zone: "Asia/Novosibirsk"},
	"novt":   {zone: "Asia/Novosibirsk"},
	"npt":    {off: 20700, dst: false},
	"nst":    {off: -12600, dst: false},
	"nut":    {off: -39600, dst: false},
	"nzdt":   {off: 46800, dst: true},
	"nzst":   {off: 43200, dst: false},
	"nzt":    {off: 43200, dst: false},
	"omsst":  {zone: "Asia/Omsk"},
	"omst":   {zone: "Asia/Omsk"},
	"pdt":    {off: -25200, dst: true},
	"pet":    {off: -18000, dst: false},
	"petst":  {zone: "Asia/Kamchatka"},
	"pett":   {zone: "Asia/Kamchatka"},
	"pgt":    {off: 36000, dst: false},
	"pht":    {off: 28800, dst: false},
	"pkst":   {off: 21600, dst: true},
	"pkt":    {off: 18000, dst: false},
	"pmdt":   {off: -7200, dst: true},
	"pmst":   {off: -10800, dst: false},
	"pont":   {off: 39600, dst: false},
	"pst":    {off: -28800, dst: false},
	"pwt":    {off: 32400, dst: false},
	"pyst":   {off: -10800, dst: true},
	"pyt":    {zone: "America/Asuncion"},
	"ret":    {off: 14400, dst: false},
	"sadt":   {off: 37800, dst: true},
	"sast":   {off: 7200, dst: false},
	"sct":    {off: 14400, dst: false},
	"sgt":    {zone: "Asia/Singapore"},
	"taht":   {off: -36000, dst: false},
	"tft":    {off: 18000, dst: false},
	"tjt":    {off: 18000, dst: false},
	"tkt":    {zone: "Pacific/Fakaofo"},
	"tmt":    {zone: "Asia/Ashgabat"},
	"tot":    {off: 46800, dst: false},
	"trut":   {off: 36000, dst: false},
	"tvt":    {off: 43200, dst: false},
	"uct":    {off: 0, dst: false},
	"ulast":  {off: 32400, dst: true},
	"ulat":   {zone: "Asia/Ulaanbaatar"},
	"ut":     {off: 0, dst: false},
	"utc":    {off: 0, dst: false},
	"uyst":   {off: -7200, dst: true},
	"uyt":    {off: -10800, dst: false},
	"uzst":   {off: 21600, dst: true},
	"uzt":    {off: 18000, dst: false},
	"vet":    {zone: "America/Caracas"},
	"vlast":  {zone: "Asia/Vladivostok"},
	"vlat":   {zone: "Asia/Vladivostok"},
	"volt":   {zone: "Europe/Volgograd"},
	"vut":    {off: 39600, dst: false},
	"wadt":   {off: 28800, dst: true},
	"wakt":   {off: 43200, dst: false},
	"wast":   {off: 25200},
	"wat":    {off: 3600, dst: false},
	"wdt":    {off: 32400, dst: true},
	"wet":    {off: 0, dst: false},
	"wetdst": {off: 3600, dst: true},
	"wft":    {off: 43200, dst: false},
	"wgst":   {off: -7200, dst: true},
	"wgt":    {off: -10800, dst: false},
	"xjt":    {off: 21600, dst: false},
	"yakst":  {zone: "Asia/Yakutsk"},
	"yakt":   {zone: "Asia/Yakutsk"},
	"yapt":   {off: 36000, dst: false},
	"yekst":  {zone: "Asia/Yekaterinburg"},
	"yekt":   {zone: "Asia/Yekaterinburg"},
	"z":      {off: 0, dst: false},
	"zulu":   {off: 0, dst: false},
}

var (
	zoneMu    sync.Mutex
	zoneCache = map[string]*time.Location{}
	zoneNames map[string]string // lower-cased -> name, from the system's zoneinfo
)

func systemZoneNames() map[string]string {
	if zoneNames != nil {
		return zoneNames
	}
	zoneNames = map[string]string{}
	for _, root := range []string{"/usr/share/zoneinfo", "/usr/share/lib/zoneinfo", "/usr/lib/locale/TZ"} {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return nil
			}
			rel = filepath.ToSlash(rel)
			k := strings.ToLower(rel)
			if _, ok := zoneNames[k]; !ok {
				zoneNames[k] = rel
			}
			return nil
		})
	}
	return zoneNames
}

// titleCase capitalizes each word of a zone name ("america/new_york" ->
// "America/New_York"), the usual spelling of IANA names.
func titleCase(s string) string {
	b := []byte(s)
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == '/' || c == '_' || c == '-'
	}
	return string(b)
}

// loadZone is PostgreSQL's pg_tzset: an IANA zone name (matched without
// regard to case), else a POSIX-style zone specification such as
// "GMT+8". lower is the name lower-cased, raw as the input spelled it.
func loadZone(lower, raw string) *time.Location {
	zoneMu.Lock()
	defer zoneMu.Unlock()
	if loc, ok := zoneCache[lower]; ok {
		return loc
	}
	loc := findZone(lower, raw)
	if len(zoneCache) >= 4096 {
		// Input text decides what is looked up: keep the cache bounded.
		clear(zoneCache)
	}
	zoneCache[lower] = loc
	return loc
}

func findZone(lower, raw string) *time.Location {
	if lower == "" {
		return nil
	}
	// Names that cannot be a zone file go straight to the POSIX reading.
	noFile := lower == "local" || strings.Contains(lower, "..") || strings.HasPrefix(lower, "/")
	upper := strings.ToUpper(lower)
	if upper == "GMT" {
		// PostgreSQL always reads "GMT" as the POSIX zone, never a file.
		return time.FixedZone("GMT", 0)
	}
	if !noFile {
		cands := []string{raw}
		if n, ok := systemZoneNames()[lower]; ok {
			cands = append(cands, n)
		}
		cands = append(cands, titleCase(lower), upper)
		for _, c := range cands {
			if c == "" || c == "Local" {
				continue
			}
			if loc, err := time.LoadLocation(c); err == nil {
				return loc
			}
		}
	}
	if z, ok := parsePOSIXZone(upper); ok {
		return z.location(upper)
	}
	return nil
}

// posixZone is a POSIX TZ specification "STDoffset[DST[offset][,rule]]".
// Offsets are POSIX's: hours WEST of Greenwich ("GMT+8" is eight hours
// behind); std and dst hold seconds east.
type posixZone struct {
	stdName, dstName string
	std, dst         int
	rule             string // "" = PostgreSQL's default, ",M3.2.0,M11.1.0"
}

// parsePOSIXZone reads a POSIX TZ specification as PostgreSQL's tzparse
// does (s upper-cased).
func parsePOSIXZone(s string) (posixZone, bool) {
	var z posixZone
	name := func() (string, bool) {
		i := 0
		for i < len(s) && !isDigit(s[i]) && s[i] != ',' && s[i] != '-' && s[i] != '+' {
			if s[i] == '<' || s[i] == '>' {
				return "", false
			}
			i++
		}
		if i == 0 {
			return "", false
		}
		n := s[:i]
		s = s[i:]
		return n, true
	}
	num := func(max int) (int, bool) {
		j, v := 0, 0
		for j < len(s) && isDigit(s[j]) {
			v = v*10 + int(s[j]-'0')
			if v > max {
				return 0, false
			}
			j++
		}
		if j == 0 {
			return 0, false
		}
		s = s[j:]
		return v, true
	}
	offset := func() (int, bool) {
		neg := false
		if s != "" && (s[0] == '-' || s[0] == '+') {
			neg = s[0] == '-'
			s = s[1:]
		}
		h, ok := num(24*7 - 1)
		if !ok {
			return 0, false
		}
		secs := h * 3600
		if s != "" && s[0] == ':' {
			s = s[1:]
			m, ok := num(59)
			if !ok {
				return 0, false
			}
			secs += m * 60
			if s != "" && s[0] == ':' {
				s = s[1:]
				sec, ok := num(60)
				if !ok {
					return 0, false
				}
				secs += sec
			}
		}
		if neg {
			secs = -secs
		}
		return -secs, true
	}
	var ok bool
	if z.stdName, ok = name(); !ok || s == "" {
		return z, false
	}
	if z.std, ok = offset(); !ok {
		return z, false
	}
	if s == "" {
		return z, true
	}
	if z.dstName, ok = name(); !ok {
		return z, false
	}
	z.dst = z.std + 3600
	if s != "" && s[0] != ',' {
		if z.dst, ok = offset(); !ok {
			return z, false
		}
	}
	if s != "" {
		if s[0] != ',' || !validRule(s[1:]) {
			return z, false
		}
		z.rule = s
	}
	return z, true
}

// validRule checks a POSIX DST rule "start[/time],end[/time]".
func validRule(r string) bool {
	parts := strings.Split(r, ",")
	if len(parts) != 2 {
		return false
	}
	for _, p := range parts {
		date, tm, _ := strings.Cut(p, "/")
		switch {
		case strings.HasPrefix(date, "M"):
			f := strings.Split(date[1:], ".")
			if len(f) != 3 {
				return false
			}
			for i, max := range []int{12, 5, 6} {
				n, err := strconv.Atoi(f[i])
				if err != nil || n < 0 || n > max || (i < 2 && n == 0) {
					return false
				}
			}
		case strings.HasPrefix(date, "J"):
			n, err := strconv.Atoi(date[1:])
			if err != nil || n < 1 || n > 365 {
				return false
			}
		default:
			n, err := strconv.Atoi(date)
			if err != nil || n < 0 || n > 365 {
				return false
			}
		}
		if tm != "" {
			for _, c := range []byte(tm) {
				if !isDigit(c) && c != ':' && c != '+' && c != '-' {
					return false
				}
			}
		}
	}
	return true
}

func posixOffset(east int) string {
	west := -east
	sign := ""
	if west < 0 {
		sign = "-"
		west = -west
	}
	return fmt.Sprintf("%s%d:%02d:%02d", sign, west/3600, west/60%60, west%60)
}

// location builds the zone: a fixed one, or one whose daylight-saving
// rule Go's time package evaluates from a synthesized TZif footer.
func (z posixZone) location(name string) *time.Location {
	if z.dstName == "" || z.dst == z.std {
		// Daylight-saving time with the standard offset changes nothing
		// but the abbreviation; PostgreSQL then counts the zone as fixed
		// too (pg_get_timezone_offset compares offsets only).
		return time.FixedZone(name, z.std)
	}
	rule := z.rule
	if rule == "" {
		rule = ",M3.2.0,M11.1.0"
	}
	footer := "<" + z.stdName + ">" + posixOffset(z.std) + "<" + z.dstName + ">" + posixOffset(z.dst) + rule
	chars := z.stdName + "\x00" + z.dstName + "\x00"
	be32 := func(b []byte, v uint32) []byte { return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	header := func(b []byte, timecnt int) []byte {
		b = append(b, "TZif2"...)
		b = append(b, make([]byte, 15)...)
		for _, n := range []int{0, 0, 0, timecnt, 2, len(chars)} {
			b = be32(b, uint32(n))
		}
		return b
	}
	types := func(b []byte) []byte {
		b = be32(b, uint32(int32(z.std)))
		b = append(b, 0, 0)
		b = be32(b, uint32(int32(z.dst)))
		b = append(b, 1, byte(len(z.stdName)+1))
		return append(b, chars...)
	}
	// Go evaluates the footer's rule wrongly before 1970, so the years
	// before are spelled out as transitions.
	type trans struct {
		at  int64
		dst byte
	}
	tx := []trans{{int64(-1) << 44, 0}}
	if start, end, ok := parseMRule(rule[1:]); ok {
		for y := -4714; y <= 1970; y++ {
			a := start.at(y) - int64(z.std)
			e := end.at(y) - int64(z.dst)
			if a < e {
				tx = append(tx, trans{a, 1}, trans{e, 0})
			} else {
				tx = append(tx, trans{e, 0}, trans{a, 1})
			}
		}
	}
	var b []byte
	b = header(b, 0)
	b = types(b)
	b = header(b, len(tx))
	for _, x := range tx {
		t := uint64(x.at)
		b = be32(b, uint32(t>>32))
		b = be32(b, uint32(t))
	}
	for _, x := range tx {
		b = append(b, x.dst)
	}
	b = types(b)
	b = append(b, '\n')
	b = append(b, footer...)
	b = append(b, '\n')
	loc, err := time.LoadLocationFromTZData(name, b)
	if err != nil {
		return nil
	}
	return loc
}

// mRule is a POSIX rule date "Mm.w.d[/time]": day d (0 = Sunday) of week
// w (5 = the last) of month m, at time (seconds, local) of that day.
type mRule struct{ m, w, d, secs int }

func parseMRule(r string) (mRule, mRule, bool) {
	a, b, ok := strings.Cut(r, ",")
	if !ok {
		return mRule{}, mRule{}, false
	}
	x, ok1 := parseOneMRule(a)
	y, ok2 := parseOneMRule(b)
	return x, y, ok1 && ok2
}

func parseOneMRule(r string) (mRule, bool) {
	date, tm, hasTime := strings.Cut(r, "/")
	if !strings.HasPrefix(date, "M") {
		return mRule{}, false
	}
	f := strings.Split(date[1:], ".")
	if len(f) != 3 {
		return mRule{}, false
	}
	var v [3]int
	for i := range f {
		n, err := strconv.Atoi(f[i])
		if err != nil {
			return mRule{}, false
		}
		v[i] = n
	}
	m := mRule{v[0], v[1], v[2], 7200}
	if hasTime {
		neg := strings.HasPrefix(tm, "-")
		tm = strings.TrimLeft(tm, "+-")
		secs, mult := 0, 3600
		for i, p := range strings.Split(tm, ":") {
			n, err := strconv.Atoi(p)
			if err != nil || i > 2 {
				return mRule{}, false
			}
			secs += n * mult
			mult /= 60
		}
		if neg {
			secs = -secs
		}
		m.secs = secs
	}
	return m, true
}

// at is the rule's local time in year y, in seconds since 1970-01-01
// 00:00 local.
func (r mRule) at(y int) int64 {
	first := date2j(y, r.m, 1)
	wd := int((first + 1) % 7)
	if wd < 0 {
		wd += 7
	}
	day := 1 + (r.d-wd+7)%7 + 7*(r.w-1)
	for day > daysIn(y, r.m) {
		day -= 7
	}
	return (first+int64(day-1)-unixEpochJD)*86400 + int64(r.secs)
}

// LoadLocation resolves a time zone name as PostgreSQL's TimeZone setting
// and its input functions do: an IANA name in any case
// ("america/new_york"), else a POSIX-style specification ("UTC-3",
// "GMT+8" = eight hours west, "PST8PDT", "CST7CDT,M4.1.0,M10.5.0"; one
// with a daylight-saving name but no rule follows the US rules). Zone
// abbreviations are not names here (PostgreSQL takes them only in
// date/time input).
func LoadLocation(name string) (*time.Location, error) {
	if loc := loadZone(strings.ToLower(name), name); loc != nil {
		return loc, nil
	}
	return nil, &Error{BadZone, fmt.Sprintf("time zone \"%s\" not recognized", name)}
}

// fixedOffset reports whether loc never changes its offset, and the
// offset (seconds east), as PostgreSQL's pg_get_timezone_offset.
func fixedOffset(loc *time.Location) (int, bool) {
	t := time.Unix(0, 0).In(loc)
	start, end := t.ZoneBounds()
	if !start.IsZero() || !end.IsZero() {
		return 0, false
	}
	_, off := t.Zone()
	return off, true
}

// localSeconds is the wall-clock time tm in seconds since 1970-01-01
// 00:00, as PostgreSQL computes it; ok is false where PostgreSQL detects
// an overflow (and then takes the zone as UTC).
func localSeconds(tm *pgtm) (int64, bool) {
	day := (date2j(tm.year, tm.mon, tm.mday) - unixEpochJD) * 86400
	t := day + secsOfDay(tm)
	if t < 0 && day > 0 {
		return 0, false
	}
	return t, true
}

func offsetAt(loc *time.Location, unix int64) int {
	_, off := time.Unix(unix, 0).In(loc).Zone()
	return off
}

// determineOffset is PostgreSQL's DetermineTimeZoneOffset: the offset
// (seconds WEST, PostgreSQL's sign) of the wall-clock time tm in loc. A
// time in a spring-forward gap takes the offset before the transition, an
// ambiguous time in a fall-back overlap the one after.
func determineOffset(tm *pgtm, loc *time.Location) int {
	if !validJulian(tm.year, tm.mon, tm.mday) {
		return 0
	}
	t, ok := localSeconds(tm)
	if !ok {
		return 0
	}
	prev := time.Unix(t-86400, 0).In(loc)
	_, before := prev.Zone()
	_, end := prev.ZoneBounds()
	if end.IsZero() {
		return -before
	}
	boundary := end.Unix()
	after := offsetAt(loc, boundary)
	bt := t - int64(before)
	at := t - int64(after)
	if bt < boundary && at < boundary {
		return -before
	}
	if bt > boundary && at >= boundary {
		return -after
	}
	if bt > at {
		return -before
	}
	return -after
}

var abbrevZones sync.Map // zone name -> *time.Location, for dynamic abbreviations

func abbrevZone(name string) *time.Location {
	if loc, ok := abbrevZones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	abbrevZones.Store(name, loc)
	return loc
}

// determineAbbrevOffset is PostgreSQL's DetermineTimeZoneAbbrevOffset: the
// offset a dynamic abbreviation had in its zone at or before tm (else the
// first time after), else the zone's offset at tm.
func determineAbbrevOffset(tm *pgtm, abbr, zone string) int {
	loc := abbrevZone(zone)
	if loc == nil {
		return 0
	}
	zoneTz := determineOffset(tm, loc)
	if !validJulian(tm.year, tm.mon, tm.mday) {
		return zoneTz
	}
	t, ok := localSeconds(tm)
	if !ok {
		return zoneTz
	}
	if west, found := abbrevOffsetAt(loc, abbr, t+int64(zoneTz)); found {
		return west
	}
	return zoneTz
}

// abbrevOffsetAt is PostgreSQL's DetermineTimeZoneAbbrevOffsetInternal:
// the offset (seconds west) abbr had in loc at or before instant, else
// the first time after; found is false when loc never used it.
func abbrevOffsetAt(loc *time.Location, abbr string, instant int64) (west int, found bool) {
	up := strings.ToUpper(abbr)
	cur := time.Unix(instant, 0).In(loc)
	for n := 0; n < 2000; n++ {
		name, off := cur.Zone()
		if strings.ToUpper(name) == up {
			return -off, true
		}
		start, _ := cur.ZoneBounds()
		if start.IsZero() {
			break
		}
		cur = start.Add(-time.Second)
	}
	cur = time.Unix(instant, 0).In(loc)
	for n := 0; n < 2000; n++ {
		_, end := cur.ZoneBounds()
		if end.IsZero() {
			break
		}
		cur = end
		name, off := cur.Zone()
		if strings.ToUpper(name) == up {
			return -off, true
		}
	}
	return 0, false
}

// DynamicAbbrev reports whether s is a dynamic abbreviation of
// PostgreSQL's Default set (case-insensitively: "MSK", "VET"), whose
// offset is the one it had in zone at the instant in question.
func DynamicAbbrev(s string) (zone string, ok bool) {
	a, found := abbrevs[strings.ToLower(s)]
	if !found || a.zone == "" || abbrevZone(a.zone) == nil {
		return "", false
	}
	return a.zone, true
}

// AbbrevOffsetAt is the offset, in seconds east, the dynamic abbreviation
// abbr had at the instant unix (seconds since the epoch), as PostgreSQL's
// DetermineTimeZoneAbbrevOffsetTS for timestamptz AT TIME ZONE 'MSK': its
// meaning at or before then, else the first after, else the zone's
// offset then. ok is false when abbr is not a dynamic abbreviation.
func AbbrevOffsetAt(abbr string, unix int64) (east int, ok bool) {
	zone, ok := DynamicAbbrev(abbr)
	if !ok {
		return 0, false
	}
	loc := abbrevZone(zone)
	if west, found := abbrevOffsetAt(loc, abbr, unix); found {
		return -west, true
	}
	return offsetAt(loc, unix), true
}

// AbbrevOffsetLocal is the offset, in seconds east, the dynamic
// abbreviation abbr has for the wall-clock time local (seconds since
// 1970-01-01 00:00), as PostgreSQL's DetermineTimeZoneAbbrevOffset for
// timestamp AT TIME ZONE 'MSK' and make_timestamptz(…, 'MSK'): the wall
// clock is placed in the abbreviation's zone, then the abbreviation's
// meaning at that instant is taken. ok is false when abbr is not a
// dynamic abbreviation.
func AbbrevOffsetLocal(abbr string, local int64) (east int, ok bool) {
	zone, ok := DynamicAbbrev(abbr)
	if !ok {
		return 0, false
	}
	t := time.Unix(local, 0).UTC()
	tm := pgtm{year: t.Year(), mon: int(t.Month()), mday: t.Day(), hour: t.Hour(), min: t.Minute(), sec: t.Second()}
	return -determineAbbrevOffset(&tm, abbr, zone), true
}

// AtZone resolves the zone argument of PostgreSQL's AT TIME ZONE and
// timezone(zone, …) as timestamptz_zone does: first as an abbreviation of
// the Default set (case-insensitively; "PST" is UTC-8 all year, "CET"
// UTC+1), then as a zone name or POSIX specification (LoadLocation). It
// returns the offset, in seconds east, of a zone that never changes it
// (fixed), else the IANA name of a zone from the time zone database
// (name). ok is false for what has neither: a dynamic abbreviation
// ("MSK", whose offset depends on the date), a POSIX specification with
// its own daylight-saving rule, or text that names no zone.
func AtZone(s string) (name string, east int, fixed, ok bool) {
	if a, found := abbrevs[strings.ToLower(s)]; found {
		if a.zone != "" {
			return "", 0, false, false
		}
		return "", a.off, true, true
	}
	loc, err := LoadLocation(s)
	if err != nil {
		return "", 0, false, false
	}
	if off, isFixed := fixedOffset(loc); isFixed {
		return "", off, true, true
	}
	if _, err := time.LoadLocation(loc.String()); err != nil {
		return "", 0, false, false // a POSIX rule of its own
	}
	return loc.String(), 0, false, true
}
