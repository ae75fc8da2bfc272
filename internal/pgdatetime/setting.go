package pgdatetime

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// ZoneSetting is a value of PostgreSQL's TimeZone setting as its
// check_timezone reads it.
type ZoneSetting struct {
	Show     string         // what SHOW TimeZone answers
	Location *time.Location // the zone
	IANA     bool           // Location is the tz database's zone named Show
	Fixed    bool           // the zone never changes its offset…
	East     int            // …which is East seconds east of UTC
}

// maxZoneOffset bounds an offset of the TimeZone setting: PostgreSQL's
// pg_tzset_offset refuses a week or more.
const maxZoneOffset = 7 * 24 * 3600

var (
	// posixOffsetOnly is a POSIX specification of an offset without a
	// name ('-04:30', '04:15', '+2'): hours WEST of Greenwich.
	posixOffsetOnly = regexp.MustCompile(`^([+-]?)(\d{1,3})(?::(\d{1,2})(?::(\d{1,2}))?)?$`)
	// offsetSpelling is the name SHOW gives a numeric setting, <+10:30>-10:30.
	offsetSpelling = regexp.MustCompile(`^<([+-])(\d{2,3})(?::(\d\d))?(?::(\d\d))?>[+-]\d{2,3}(?::\d\d){0,2}$`)
)

// ParseZoneSetting reads a value of the TimeZone setting as PostgreSQL
// 15's check_timezone does:
//
//   - a number ('10.5', '-8', '-1.5'): hours EAST of UTC, the SQL
//     standard's sign; SHOW answers it as PostgreSQL names it,
//     '<+10:30>-10:30';
//   - a zone name in any case ('america/new_york' is America/New_York);
//   - a POSIX specification ('UTC+3', 'PST8PDT', 'CST7CDT,M4.1.0,M10.5.0',
//     or an offset alone, '-04:30'): POSIX's sign, hours WEST ('-04:30' is
//     UTC+04:30).
//
// The INTERVAL form of SET TIME ZONE is OffsetZone's.
func ParseZoneSetting(v string) (ZoneSetting, error) {
	s := strings.TrimSpace(v)
	bad := func(detail string) (ZoneSetting, error) {
		msg := fmt.Sprintf("invalid value for parameter \"TimeZone\": \"%s\"", v)
		if detail != "" {
			msg += ": " + detail
		}
		return ZoneSetting{}, &Error{BadZone, msg}
	}
	if hours, err := strconv.ParseFloat(s, 64); err == nil && s != "" && (s[0] == '+' || s[0] == '-' || s[0] == '.' || isDigit(s[0])) {
		west := -hours * 3600
		if math.IsNaN(west) || math.Abs(west) >= maxZoneOffset {
			return bad("UTC timezone offset is out of range.")
		}
		return OffsetZone(-int(west)), nil // truncated, as PostgreSQL's (long) cast
	}
	if m := offsetSpelling.FindStringSubmatch(s); m != nil {
		east := zoneSeconds(m[2], m[3], m[4])
		if m[1] == "-" {
			east = -east
		}
		if east >= maxZoneOffset || east <= -maxZoneOffset {
			return bad("UTC timezone offset is out of range.")
		}
		return OffsetZone(east), nil
	}
	if m := posixOffsetOnly.FindStringSubmatch(s); m != nil {
		west := zoneSeconds(m[2], m[3], m[4])
		if m[1] == "-" {
			west = -west
		}
		if west >= maxZoneOffset || west <= -maxZoneOffset {
			return bad("")
		}
		// PostgreSQL names such a zone by its (empty) abbreviation
		return ZoneSetting{Show: s, Location: time.FixedZone("", -west), Fixed: true, East: -west}, nil
	}
	loc, err := LoadLocation(s)
	if err != nil {
		return bad("")
	}
	zs := ZoneSetting{Show: s, Location: loc}
	if _, err := time.LoadLocation(loc.String()); err == nil && loc.String() != "Local" {
		zs.Show, zs.IANA = loc.String(), true
	}
	zs.East, zs.Fixed = fixedOffset(loc)
	if z, ok := parsePOSIXZone(strings.ToUpper(s)); ok && !zs.IANA && zs.Fixed {
		zs.Location = time.FixedZone(z.stdName, zs.East) // 'UTC+3' is abbreviated UTC
	}
	return zs, nil
}

func zoneSeconds(h, m, s string) int {
	hh, _ := strconv.Atoi(h)
	mm, _ := strconv.Atoi(m)
	ss, _ := strconv.Atoi(s)
	return hh*3600 + mm*60 + ss
}

// OffsetZone is the TimeZone setting of a fixed offset given in seconds
// east of UTC (SET TIME ZONE 10.5, SET TIME ZONE INTERVAL '+05:30' HOUR
// TO MINUTE), named as PostgreSQL's pg_tzset_offset names it: SHOW
// answers '<+10:30>-10:30', and the zone's abbreviation (to_char's TZ)
// is '+10:30'.
func OffsetZone(east int) ZoneSetting {
	abs := east
	if abs < 0 {
		abs = -abs
	}
	digits := fmt.Sprintf("%02d", abs/3600)
	if abs%3600 != 0 {
		digits += fmt.Sprintf(":%02d", abs/60%60)
		if abs%60 != 0 {
			digits += fmt.Sprintf(":%02d", abs%60)
		}
	}
	abbr, show := "+"+digits, "<+"+digits+">-"+digits
	if east < 0 {
		abbr, show = "-"+digits, "<-"+digits+">+"+digits
	}
	return ZoneSetting{Show: show, Location: time.FixedZone(abbr, east), Fixed: true, East: east}
}
