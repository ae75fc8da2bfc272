package pgdatetime

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/vsql/vsql/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// inputs are the string literals of PostgreSQL's date/time regression files
// (testdata/corpus.txt) and our own edge cases (testdata/edge.txt).
func inputs(t *testing.T) []string {
	seen := map[string]bool{"": true}
	out := []string{""}
	for _, f := range []string{"testdata/corpus.txt", "testdata/edge.txt"} {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			l := sc.Text()
			if f == "testdata/edge.txt" && strings.HasPrefix(l, "#") {
				continue
			}
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
		fh.Close()
	}
	// Long inputs and many fields (PostgreSQL's work buffer and field
	// limits), and bytes outside ASCII.
	for _, l := range []string{
		strings.Repeat("1 ", 24) + "1", strings.Repeat("1 ", 25) + "1", strings.Repeat("1 ", 30),
		"1999-01-08 04:05:06" + strings.Repeat(" ", 300), strings.Repeat(" ", 300) + "1999-01-08",
		"1999-01-08 " + strings.Repeat("0", 117), "1999-01-08 " + strings.Repeat("0", 140), "1999-01-08 " + strings.Repeat("0", 160),
		"1999-01-08 04:05:06." + strings.Repeat("1", 100), "1999-01-08 04:05:06." + strings.Repeat("9", 130),
		"1999-01-08 " + strings.Repeat("a", 200) + "/b", "1999-01-08 04:05 " + strings.Repeat("x", 120),
		"1999-01-08 " + strings.Repeat("jan ", 10), strings.Repeat("on ", 40) + "1999-01-08",
		"1999-01-08 é", "1999-01-08 04:05 Europe/Zürich", "１９９９-01-08", "1999-01-08\u00a004:05", "1999-01-08\t04:05\n",
	} {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

var sqlType = map[Kind]string{
	Date:        "date",
	Timestamp:   "timestamp",
	TimestampTZ: "timestamptz",
	Time:        "time",
	TimeTZ:      "timetz",
}

// isoYear formats a proleptic Gregorian year (0 = 1 BC) as PostgreSQL's
// ISO DateStyle does, returning the " BC" suffix separately.
func isoYear(y int) (string, string) {
	if y <= 0 {
		return fmt.Sprintf("%04d", 1-y), " BC"
	}
	return fmt.Sprintf("%04d", y), ""
}

func isoFrac(us int64) string {
	if us == 0 {
		return ""
	}
	return strings.TrimRight(fmt.Sprintf(".%06d", us), "0")
}

func isoTime(us int64) string {
	h := us / 3600000000
	us -= h * 3600000000
	m := us / 60000000
	us -= m * 60000000
	s := us / 1000000
	us -= s * 1000000
	return fmt.Sprintf("%02d:%02d:%02d%s", h, m, s, isoFrac(us))
}

func isoOffset(east int) string {
	sign := "+"
	if east < 0 {
		sign = "-"
		east = -east
	}
	h, m, s := east/3600, east/60%60, east%60
	out := fmt.Sprintf("%s%02d", sign, h)
	if m != 0 || s != 0 {
		out += fmt.Sprintf(":%02d", m)
	}
	if s != 0 {
		out += fmt.Sprintf(":%02d", s)
	}
	return out
}

// format prints v as PostgreSQL prints the type in DateStyle ISO, with
// timestamptz shown in loc.
func format(v Value, k Kind, loc *time.Location) string {
	switch k {
	case Date:
		switch v.Days {
		case math.MaxInt32:
			return "infinity"
		case -math.MaxInt32:
			return "-infinity"
		}
		t := time.Unix(int64(v.Days)*86400, 0).UTC()
		y, bc := isoYear(t.Year())
		return fmt.Sprintf("%s-%02d-%02d%s", y, t.Month(), t.Day(), bc)
	case Timestamp, TimestampTZ:
		switch v.Micros {
		case math.MaxInt64:
			return "infinity"
		case -math.MaxInt64:
			return "-infinity"
		}
		sec := v.Micros / 1000000
		us := v.Micros % 1000000
		if us < 0 {
			us += 1000000
			sec--
		}
		t := time.Unix(sec, 0).UTC()
		zone := ""
		if k == TimestampTZ {
			t = t.In(loc)
			_, off := t.Zone()
			zone = isoOffset(off)
		}
		y, bc := isoYear(t.Year())
		return fmt.Sprintf("%s-%02d-%02d %02d:%02d:%02d%s%s%s", y, t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), isoFrac(us), zone, bc)
	case Time:
		return isoTime(v.Micros)
	case TimeTZ:
		return isoTime(v.Micros) + isoOffset(v.Offset)
	}
	return "?"
}

type session struct {
	name  string
	conn  *pgx.Conn
	loc   *time.Location
	order Order
}

func connect(t *testing.T, name, zone, datestyle string, order Order) *session {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pgtest.DSN(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	for _, q := range []string{
		"SET TimeZone = '" + zone + "'",
		"SET DateStyle = '" + datestyle + "'",
		"SET IntervalStyle = 'postgres'",
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	return &session{name: name, conn: conn, loc: loc, order: order}
}

type pgAnswer struct {
	text  string
	state string
	msg   string
	now   time.Time
}

func askPG(s *session, in string, k Kind) pgAnswer {
	var a pgAnswer
	q := fmt.Sprintf("SELECT now(), $1::text::%s::text", sqlType[k])
	err := s.conn.QueryRow(context.Background(), q, in).Scan(&a.now, &a.text)
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			a.state, a.msg = pe.Code, pe.Message
		} else {
			a.state, a.msg = "?", err.Error()
		}
	}
	return a
}

// beyondDuckDB reports whether PostgreSQL's answer is a timestamp beyond
// the range DuckDB can hold, which Parse refuses by design.
func beyondDuckDB(k Kind, pgText string) bool {
	if k != Timestamp && k != TimestampTZ {
		return false
	}
	var y int
	if _, err := fmt.Sscanf(pgText, "%d-", &y); err != nil {
		return false
	}
	return y >= 294247 && !strings.HasSuffix(pgText, " BC")
}

func requirePG(t *testing.T) {
	if os.Getenv("VSQL_REQUIRE_PG") == "" {
		if _, err := os.Stat("/usr/lib/postgresql/15/bin/postgres"); err != nil && os.Getenv("VSQL_PG_BIN") == "" {
			t.Skip("PostgreSQL 15 not installed")
		}
	}
}

func sessions(t *testing.T) []*session {
	return []*session{
		connect(t, "UTC/MDY", "UTC", "ISO, MDY", MDY),
		connect(t, "America/New_York/DMY", "America/New_York", "ISO, DMY", DMY),
		connect(t, "Europe/Moscow/YMD", "Europe/Moscow", "ISO, YMD", YMD),
	}
}

// compareAll parses every input as every kind in every session, with
// PostgreSQL as the oracle, and reports each disagreement as an error.
func compareAll(t *testing.T, label string, ss []*session, ins []string) {
	kinds := []Kind{Date, Timestamp, TimestampTZ, Time, TimeTZ}
	total, agree, beyond, msgDiff := 0, 0, 0, 0
	var bad []string
	for _, s := range ss {
		for _, in := range ins {
			for _, k := range kinds {
				total++
				pg := askPG(s, in, k)
				now := pg.now
				if now.IsZero() {
					now = time.Now()
				}
				v, err := Parse(in, k, Options{Order: s.order, Now: now, Location: s.loc})
				var ours, oursState, oursMsg string
				if err != nil {
					var pe *Error
					if !errors.As(err, &pe) {
						t.Fatalf("Parse(%q, %v) returned %T", in, k, err)
					}
					oursState, oursMsg = pe.SQLSTATE(), pe.Msg
				} else {
					ours = format(v, k, s.loc)
				}
				switch {
				case pg.state == "" && oursState == "" && ours == pg.text:
					agree++
				case pg.state != "" && pg.state == oursState:
					agree++
					if pg.msg != oursMsg {
						msgDiff++
						t.Logf("%s %s %q: same SQLSTATE %s, messages differ: pg %q, ours %q", s.name, k, in, pg.state, pg.msg, oursMsg)
					}
				case pg.state == "" && oursState == "22008" && beyondDuckDB(k, pg.text):
					beyond++
				default:
					pgSide := pg.text
					if pg.state != "" {
						pgSide = "ERROR " + pg.state + " " + pg.msg
					}
					oursSide := ours
					if oursState != "" {
						oursSide = "ERROR " + oursState + " " + oursMsg
					}
					bad = append(bad, fmt.Sprintf("%s %s %q: pg %s; ours %s", s.name, k, in, pgSide, oursSide))
				}
			}
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
	t.Logf("%s: %d inputs x %d kinds x %d sessions = %d comparisons: %d agree, %d refused as beyond DuckDB's timestamp range, %d disagree; %d agreeing errors have different message text",
		label, len(ins), len(kinds), len(ss), total, agree, beyond, len(bad), msgDiff)
}

func TestAgainstPostgres(t *testing.T) {
	requirePG(t)
	ss := append(sessions(t), connect(t, "Australia/Lord_Howe/MDY", "Australia/Lord_Howe", "ISO, MDY", MDY))
	compareAll(t, "corpus and edge cases", ss, inputs(t))
}

// TestGenerated compares inputs put together at random (with a fixed seed)
// from pieces of date, time, zone and other words.
func TestGenerated(t *testing.T) {
	requirePG(t)
	pieces := [][]string{
		{"1999-01-08", "1/8/1999", "08/01/99", "Jan 8 1999", "8 Jan 1999", "January 8, 1999", "1999.008", "19990108", "990108",
			"J2451187", "99-01-08", "1-2-3", "12-31-99", "31-12-99", "2000-02-29", "2001-02-29", "0001-01-01", "13-01-2000",
			"31/12/1999", "1999/12/31", "99 Jan 08", "Jan-08-99", "08-Jan-1999", "1999-Jan-08", "Feb 29", "20000229", "5-6",
			"2000-12", "12.31.1999", "31.12.1999", "1999.12.31", "1 2 3", "2024-03-10", "2024-11-03", "1883-11-18", "10000-01-01", "0099-12-31"},
		{"04:05", "04:05:06", "04:05:06.789", "4:05 PM", "12:00 AM", "12:30 pm", "040506", "0405", "040506.5", "24:00", "24:00:01",
			"23:59:60", "T04:05:06", "T040506", "t0405", "02:30", "01:30", "13:00 PM", "0:00", "10:00:00.9999999", "5 AM", "04:5", "4::"},
		{"", "Z", "UTC", "PST", "pdt", "+05", "-08:00", "+0530", "-0330", "+5:30:15", "America/New_York", "EST5EDT", "GMT+8", "UTC-3",
			"MSK", "CEST", "foo", "Europe/Xyz", "Asia/Kolkata", "Australia/Sydney", "Etc/GMT-14", "+16", "MET DST", "DST", "nzdt", "AKST", "XYZ5ABC4"},
		{"", "", "", "BC", "AD", "Mon", "Friday", "at", "on", "today", "tomorrow", "yesterday", "allballs", "epoch", "now", "infinity", "T", "J", "y", "d"},
	}
	seps := []string{" ", " ", "  ", ",", "T", "-", "/", ""}
	seed, count := uint64(1), 2500
	if v := os.Getenv("VSQL_PGDT_GEN_SEED"); v != "" {
		fmt.Sscan(v, &seed)
		count = 15000
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	seen := map[string]bool{}
	var ins []string
	for len(ins) < count {
		var parts []string
		for _, p := range pieces {
			if rng.IntN(5) > 0 {
				parts = append(parts, p[rng.IntN(len(p))])
			}
		}
		if rng.IntN(4) == 0 && len(parts) > 1 {
			i, j := rng.IntN(len(parts)), rng.IntN(len(parts))
			parts[i], parts[j] = parts[j], parts[i]
		}
		var b strings.Builder
		for i, p := range parts {
			if p == "" {
				continue
			}
			if i > 0 && b.Len() > 0 {
				b.WriteString(seps[rng.IntN(len(seps))])
			}
			switch rng.IntN(6) {
			case 0:
				p = strings.ToUpper(p)
			case 1:
				p = strings.ToLower(p)
			}
			b.WriteString(p)
		}
		in := b.String()
		if !seen[in] {
			seen[in] = true
			ins = append(ins, in)
		}
	}
	compareAll(t, "generated", sessions(t), ins)
}

// TestSpecialWords checks the words that depend on the current time against
// the Now passed in, and against PostgreSQL's own evaluation of them.
func TestSpecialWords(t *testing.T) {
	loc, _ := time.LoadLocation("America/New_York")
	now := time.Date(2024, 3, 10, 23, 30, 15, 123456000, time.UTC) // 19:30 EDT, the day DST began
	o := Options{Now: now, Location: loc}
	check := func(in string, k Kind, want Value) {
		t.Helper()
		v, err := Parse(in, k, o)
		if err != nil {
			t.Errorf("Parse(%q, %v): %v", in, k, err)
			return
		}
		if v.Days != want.Days || v.Micros != want.Micros || v.Special != want.Special {
			t.Errorf("Parse(%q, %v) = %+v, want %+v", in, k, v, want)
		}
	}
	day := func(y, m, d int) int32 {
		return int32(time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
	}
	check("now", TimestampTZ, Value{Micros: now.UnixMicro(), Special: Now})
	check("now", Timestamp, Value{Micros: time.Date(2024, 3, 10, 19, 30, 15, 123456000, time.UTC).UnixMicro(), Special: Now})
	check("now", Date, Value{Days: day(2024, 3, 10), Special: Now})
	check("today", Date, Value{Days: day(2024, 3, 10), Special: Today})
	check("tomorrow", Date, Value{Days: day(2024, 3, 11), Special: Tomorrow})
	check("yesterday", Date, Value{Days: day(2024, 3, 9), Special: Yesterday})
	check("today", TimestampTZ, Value{Micros: time.Date(2024, 3, 10, 0, 0, 0, 0, loc).UnixMicro(), Special: Today})
	check("tomorrow 10:00", Timestamp, Value{Micros: time.Date(2024, 3, 11, 10, 0, 0, 0, time.UTC).UnixMicro(), Special: Tomorrow})
	check("now", Time, Value{Micros: (19*3600+30*60+15)*1000000 + 123456, Special: Now})
	check("allballs", Time, Value{Micros: 0, Special: Allballs})
	check("epoch", TimestampTZ, Value{Micros: 0, Special: Epoch})
	check("infinity", Date, Value{Days: math.MaxInt32, Special: Infinity})
	check("-infinity", Timestamp, Value{Micros: -math.MaxInt64, Special: NegInfinity})
	for in, want := range map[string]bool{"now": false, "allballs": false, "2000-01-01 04:05": false, "2000-01-01 04:05 PST": true,
		"2000-01-01 04:05-08": true, "2000-01-01 04:05 Europe/London": true, "2000-01-01 04:05 MET DST": true, "2000-01-01 04:05Z": true,
		"J2451187-08": true, "2000-01-01 040506-08": true, "today": false, "2000-01-01 allballs": false} {
		for _, k := range []Kind{TimestampTZ, TimeTZ} {
			if v, err := Parse(in, k, o); err == nil && v.HasZone != want {
				t.Errorf("Parse(%q, %v).HasZone = %v, want %v", in, k, v.HasZone, want)
			}
		}
	}
	if v := MustParse("10:00 PST", TimeTZ, o); v.Offset != -28800 || !v.HasZone {
		t.Errorf("10:00 PST: %+v", v)
	}

	if os.Getenv("VSQL_REQUIRE_PG") == "" {
		if _, err := os.Stat("/usr/lib/postgresql/15/bin/postgres"); err != nil && os.Getenv("VSQL_PG_BIN") == "" {
			t.Skip("PostgreSQL 15 not installed")
		}
	}
	s := connect(t, "UTC", "America/New_York", "ISO, MDY", MDY)
	for _, q := range []string{
		"SELECT 'today'::date = current_date",
		"SELECT 'tomorrow'::date = current_date + 1",
		"SELECT 'yesterday'::date = current_date - 1",
		"SELECT 'now'::timestamptz = now()",
		"SELECT 'now'::timestamp = localtimestamp",
		"SELECT 'today'::timestamptz = date_trunc('day', now())",
		"SELECT 'tomorrow 10:00'::timestamp = current_date + 1 + time '10:00'",
	} {
		var ok bool
		if err := s.conn.QueryRow(context.Background(), q, pgx.QueryExecModeSimpleProtocol).Scan(&ok); err != nil || !ok {
			t.Errorf("%s: %v %v", q, ok, err)
		}
	}
	// And ours against PostgreSQL's in the same transaction's now().
	for _, in := range []string{"now", "today", "tomorrow", "yesterday", "today 10:00", "tomorrow 23:59:59.5", "yesterday PST", "now UTC"} {
		for _, k := range []Kind{Date, Timestamp, TimestampTZ, Time, TimeTZ} {
			pg := askPG(s, in, k)
			v, err := Parse(in, k, Options{Now: pg.now, Location: s.loc})
			switch {
			case pg.state != "" || err != nil:
				var pe *Error
				if !errors.As(err, &pe) || pe.SQLSTATE() != pg.state {
					t.Errorf("%s %q: pg %s %s, ours %v", k, in, pg.state, pg.msg, err)
				}
			case format(v, k, s.loc) != pg.text:
				t.Errorf("%s %q: pg %s, ours %s", k, in, pg.text, format(v, k, s.loc))
			}
		}
	}
}

// TestAbbreviations compares the abbreviation table with PostgreSQL's
// pg_timezone_abbrevs (the Default set).
func TestAbbreviations(t *testing.T) {
	if os.Getenv("VSQL_REQUIRE_PG") == "" {
		if _, err := os.Stat("/usr/lib/postgresql/15/bin/postgres"); err != nil && os.Getenv("VSQL_PG_BIN") == "" {
			t.Skip("PostgreSQL 15 not installed")
		}
	}
	s := connect(t, "UTC", "UTC", "ISO, MDY", MDY)
	rows, err := s.conn.Query(context.Background(), "SELECT lower(abbrev), extract(epoch FROM utc_offset)::int, is_dst FROM pg_timezone_abbrevs")
	if err != nil {
		t.Fatal(err)
	}
	pg := map[string]bool{}
	for rows.Next() {
		var name string
		var off int
		var dst bool
		if err := rows.Scan(&name, &off, &dst); err != nil {
			t.Fatal(err)
		}
		pg[name] = true
		a, ok := abbrevs[name]
		if !ok {
			t.Errorf("abbreviation %q (%d, dst %v) missing", name, off, dst)
			continue
		}
		if a.zone == "" && (a.off != off || a.dst != dst) {
			t.Errorf("abbreviation %q: ours %d dst %v, pg %d dst %v", name, a.off, a.dst, off, dst)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for name := range abbrevs {
		if !pg[name] {
			t.Errorf("abbreviation %q is not in PostgreSQL's Default set", name)
		}
	}
}

// TestShow prints PostgreSQL's and our answers for the inputs in
// VSQL_PGDT_SHOW (separated by '|'), for debugging.
func TestShow(t *testing.T) {
	list := os.Getenv("VSQL_PGDT_SHOW")
	if list == "" {
		t.Skip("VSQL_PGDT_SHOW not set")
	}
	s := connect(t, "UTC", "UTC", "ISO, MDY", MDY)
	for _, in := range strings.Split(list, "|") {
		for _, k := range []Kind{Date, Timestamp, TimestampTZ, Time, TimeTZ} {
			pg := askPG(s, in, k)
			v, err := Parse(in, k, Options{Now: pg.now, Location: s.loc})
			ours := ""
			if err != nil {
				ours = err.(*Error).SQLSTATE() + " " + err.Error()
			} else {
				ours = format(v, k, s.loc)
			}
			t.Logf("%-12s %q: pg %q %s %s | ours %s", sqlType[k], in, pg.text, pg.state, pg.msg, ours)
		}
	}
}

// TestLoadLocation compares LoadLocation with PostgreSQL's TimeZone
// setting: the same names are accepted, and instants print the same in
// the zone.
func TestLoadLocation(t *testing.T) {
	requirePG(t)
	s := connect(t, "UTC", "UTC", "ISO, MDY", MDY)
	ctx := context.Background()
	names := []string{"America/New_York", "america/new_york", "AMERICA/NEW_YORK", "UTC", "utc", "GMT", "GMT+8", "UTC-3", "gmt-05:30",
		"PST8PDT", "EST5EDT", "CST7CDT", "CST7CDT,M4.1.0,M10.5.0", "XYZ5ABC4", "XY5", "Europe/London", "Japan", "EST", "foo", "foo/bar",
		"Etc/GMT-14", "Asia/Kolkata", "Australia/Lord_Howe", "Europe/Moscow", "America/Sao_Paulo", "Pacific/Chatham", "Africa/Casablanca",
		"America/Argentina/Buenos_Aires", "Asia/Tehran", "UTC+25", "Europe/Xyz", "W-SU", "GB", "Hongkong", "Local", "localtime", ""}
	instants := []string{"2000-01-01 12:00+00", "2000-07-01 12:00+00", "1950-07-01 12:00+00", "1890-07-01 12:00+00", "2050-07-01 12:00+00",
		"2024-03-10 07:30+00", "2024-11-03 06:30+00", "0100-01-01 00:00+00", "2014-10-26 12:00+00"}
	for _, name := range names {
		_, pgErr := s.conn.Exec(ctx, "SELECT set_config('TimeZone', $1, false)", name)
		loc, err := LoadLocation(name)
		if (pgErr != nil) != (err != nil) {
			t.Errorf("zone %q: pg error %v, ours %v", name, pgErr, err)
			continue
		}
		if err != nil {
			continue
		}
		for _, in := range instants {
			var pgText string
			if err := s.conn.QueryRow(ctx, "SELECT $1::text::timestamptz::text", in).Scan(&pgText); err != nil {
				t.Fatal(err)
			}
			v, err := Parse(in, TimestampTZ, Options{Location: loc})
			if err != nil {
				t.Fatal(err)
			}
			if got := format(v, TimestampTZ, loc); got != pgText {
				t.Errorf("zone %q, %s: pg %s, ours %s", name, in, pgText, got)
			}
		}
	}
	if _, err := s.conn.Exec(ctx, "SET TimeZone = 'UTC'"); err != nil {
		t.Fatal(err)
	}
}

// TestFuzzChars compares random strings of date/time characters and
// words (fixed seed), to exercise the field splitting.
func TestFuzzChars(t *testing.T) {
	requirePG(t)
	chunks := []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "00", "12", "24", "31", "60", "99", "1999", "2000", "20000101",
		" ", " ", ":", ":", "-", "-", "/", ".", ".", "+", ",", "T", "t", "Z", "J", "y", "m", "d", "h", "mm", "s", "am", "pm",
		"jan", "Feb", "bc", "ad", "pst", "utc", "msk", "est5edt", "America/New_York", "gmt+8", "dst", "today", "now", "epoch",
		"allballs", "infinity", "mon", "at", "on", "x", "!", "@",
		".5", ".123456789", "-08", "+05:30", "5000000000", "BC", "1999.008", "J2451187", "Europe/London", "XYZ5ABC", "  ", "\t"}
	seed, count := uint64(7), 3000
	if v := os.Getenv("VSQL_PGDT_FUZZ_SEED"); v != "" {
		fmt.Sscan(v, &seed)
		count = 20000
	}
	rng := rand.New(rand.NewPCG(seed, 11))
	seen := map[string]bool{}
	var ins []string
	for len(ins) < count {
		n := 1 + rng.IntN(10)
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(chunks[rng.IntN(len(chunks))])
		}
		in := b.String()
		if !seen[in] {
			seen[in] = true
			ins = append(ins, in)
		}
	}
	ss := sessions(t)[:2]
	if os.Getenv("VSQL_PGDT_FUZZ_SEED") != "" {
		ss = append(sessions(t), connect(t, "Australia/Lord_Howe/MDY", "Australia/Lord_Howe", "ISO, MDY", MDY))
	}
	compareAll(t, "random characters", ss, ins)
}

func BenchmarkParse(b *testing.B) {
	ny, _ := time.LoadLocation("America/New_York")
	o := Options{Location: ny, Now: time.Now()}
	for _, c := range []struct {
		in string
		k  Kind
	}{
		{"1999-01-08", Date},
		{"1999-01-08 04:05:06.789", Timestamp},
		{"1999-01-08 04:05:06.789-08", TimestampTZ},
		{"January 8, 1999 04:05 PM America/New_York", TimestampTZ},
		{"04:05:06", Time},
		{"2011-04-12 04:05:06 MSK", TimestampTZ},
	} {
		b.Run(c.in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(c.in, c.k, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
