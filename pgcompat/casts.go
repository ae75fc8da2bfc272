package pgcompat

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"math"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/internal/pgdatetime"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's input of date, timestamp (without time zone) and time (and
// of double precision and real: floatin.go; of smallint, integer and
// bigint: intin.go), as
// the engine's own casts from text: every CAST, :: and implicit cast of a
// string to these types (INSERT … VALUES ('today') into a date column, a
// comparison with a string literal, a text column cast) reads the text as
// PostgreSQL does (internal/pgdatetime), not as DuckDB's parser does.
// DuckDB calls a registered cast in place of its built-in one.
//
// A cast has no session: it reads the day and month in MDY order (the
// DateStyle vsql starts with) and takes 'now', 'today', 'tomorrow' and
// 'yesterday', which depend on the session's TimeZone, in UTC, which is
// right only while every session's TimeZone is UTC; while one is not, the
// cast refuses those words (datetime_needs_session) rather than guess, and
// a typed literal ('now'::timestamp, date 'today'), which the rewrite
// turns into now() and current_date in the session's zone, is the way to
// write them. timestamp with time zone keeps DuckDB's cast (ICU's, which
// reads a text without a zone in the session's TimeZone); its typed
// literals are rewritten (timestamptzLiteral).

// nonUTCSessions counts the sessions whose TimeZone is not UTC,
// nonMDYSessions those whose DateStyle's order is not MDY.
var nonUTCSessions, nonMDYSessions atomic.Int64

// SessionDateOrder records a session's change of DateStyle's order (a
// session starts, and ends, in MDY), for the casts from text.
func SessionDateOrder(from, to pgdatetime.Order) {
	if from != pgdatetime.MDY {
		nonMDYSessions.Add(-1)
	}
	if to != pgdatetime.MDY {
		nonMDYSessions.Add(1)
	}
}

// DateOrder is the order of a DateStyle setting as vsql normalizes it
// ("ISO, DMY").
func DateOrder(dateStyle string) pgdatetime.Order {
	switch {
	case strings.HasSuffix(dateStyle, "DMY"):
		return pgdatetime.DMY
	case strings.HasSuffix(dateStyle, "YMD"):
		return pgdatetime.YMD
	}
	return pgdatetime.MDY
}

// SessionZone records a session's change of TimeZone from one setting to
// another ("" when the session starts or ends), for the casts from text.
func SessionZone(from, to string) {
	if from != "" && !IsUTC(from) {
		nonUTCSessions.Add(-1)
	}
	if to != "" && !IsUTC(to) {
		nonUTCSessions.Add(1)
	}
}

// IsUTC reports whether a TimeZone setting names UTC.
func IsUTC(zone string) bool {
	switch strings.ToLower(strings.TrimSpace(zone)) {
	case "utc", "etc/utc", "gmt", "etc/gmt", "z", "zulu", "etc/zulu", "uct", "etc/uct", "universal", "etc/universal",
		"greenwich", "etc/greenwich", "gmt0", "etc/gmt0", "gmt+0", "gmt-0", "etc/gmt+0", "etc/gmt-0", "+00", "+00:00",
		"<+00>-00", "00:00", "-00:00", "00", "0": // SET TIME ZONE 0, '00:00' (SHOW's spellings)
		return true
	}
	return false
}

// RegisterCasts installs the casts from text on the engine (global to the
// DuckDB instance).
func RegisterCasts(conn *sql.Conn) error {
	return conn.Raw(func(dc any) error {
		c, ok := dc.(driver.Conn)
		if !ok {
			return errors.New("pgcompat: not a driver connection")
		}
		for _, t := range []struct {
			target duckstream.CastTarget
			kind   pgdatetime.Kind
		}{{duckstream.CastDate, pgdatetime.Date}, {duckstream.CastTimestamp, pgdatetime.Timestamp}, {duckstream.CastTime, pgdatetime.Time}} {
			kind := t.kind
			if err := duckstream.RegisterTextCast(c, t.target, -1, func(text []byte) (int64, error) {
				if v, ok := pgdatetime.ParseISO(text, kind); ok { // bulk data, without allocating
					if kind == pgdatetime.Date {
						return int64(v.Days), nil
					}
					return v.Micros, nil
				}
				v, err := textDatetime(string(text), kind, time.Now())
				if err != nil {
					return 0, vsqlerr.ForEngine(err)
				}
				if kind == pgdatetime.Date {
					return int64(v.Days), nil
				}
				return v.Micros, nil
			}); err != nil {
				return err
			}
		}
		for _, t := range []struct {
			target duckstream.CastTarget
			bits   int
		}{{duckstream.CastDouble, 64}, {duckstream.CastFloat, 32}} {
			bits := t.bits
			if err := duckstream.RegisterTextCast(c, t.target, -1, func(text []byte) (int64, error) {
				f, err := parseFloatText(string(text), bits)
				if err != nil {
					return 0, vsqlerr.ForEngine(err)
				}
				if bits == 32 {
					return int64(math.Float32bits(float32(f))), nil
				}
				return int64(math.Float64bits(f)), nil
			}); err != nil {
				return err
			}
		}
		for _, t := range []struct {
			target duckstream.CastTarget
			bits   int
		}{{duckstream.CastSmallint, 16}, {duckstream.CastInteger, 32}, {duckstream.CastBigint, 64}} {
			bits := t.bits
			if err := duckstream.RegisterTextCast(c, t.target, -1, func(text []byte) (int64, error) {
				v, err := parseIntText(text, bits)
				if err != nil {
					return 0, vsqlerr.ForEngine(err)
				}
				return v, nil
			}); err != nil {
				return err
			}
		}
		// double precision and real to smallint, integer and bigint:
		// rounded half to even, then checked against the type's range
		// (DuckDB checked before rounding: 32767.6 became -32768, and
		// -32768.4 was refused)
		for _, src := range []duckstream.CastTarget{duckstream.CastDouble, duckstream.CastFloat} {
			for _, t := range []struct {
				target duckstream.CastTarget
				bits   int
			}{{duckstream.CastSmallint, 16}, {duckstream.CastInteger, 32}, {duckstream.CastBigint, 64}} {
				bits := t.bits
				if err := duckstream.RegisterFloatCast(c, src, t.target, func(f float64) (int64, error) {
					return floatToInt(f, bits)
				}); err != nil {
					return err
				}
			}
		}
		return duckstream.RegisterBytesCast(c, -1, func(text []byte) ([]byte, error) {
			b, err := ParseBytea(text)
			if err != nil {
				return nil, vsqlerr.ForEngine(err)
			}
			return b, nil
		})
	})
}

// textDatetime reads text as PostgreSQL's input of kind, in UTC and MDY
// order, at the instant now.
func textDatetime(text string, kind pgdatetime.Kind, now time.Time) (pgdatetime.Value, error) {
	v, err := pgdatetime.Parse(text, kind, pgdatetime.Options{Order: pgdatetime.MDY, Now: now, Location: time.UTC})
	if err != nil && nonMDYSessions.Load() > 0 {
		for _, order := range []pgdatetime.Order{pgdatetime.DMY, pgdatetime.YMD} {
			if _, e := pgdatetime.Parse(text, kind, pgdatetime.Options{Order: order, Now: now, Location: time.UTC}); e == nil {
				err = vsqlerr.New(vsqlerr.DatetimeNeedsSession,
					"%q as a %s depends on the session's DateStyle, which a cast from text cannot see while sessions use an order other than MDY", text, kind)
				break
			}
		}
	}
	if err != nil {
		return v, datetimeError(err)
	}
	if nonMDYSessions.Load() > 0 {
		for _, order := range []pgdatetime.Order{pgdatetime.DMY, pgdatetime.YMD} {
			w, err := pgdatetime.Parse(text, kind, pgdatetime.Options{Order: order, Now: now, Location: time.UTC})
			if err != nil || w != v {
				return v, vsqlerr.New(vsqlerr.DatetimeNeedsSession,
					"%q as a %s depends on the session's DateStyle, which a cast from text cannot see while sessions use an order other than MDY", text, kind)
			}
		}
	}
	switch v.Special {
	case pgdatetime.Now, pgdatetime.Today, pgdatetime.Tomorrow, pgdatetime.Yesterday:
		if nonUTCSessions.Load() > 0 {
			return v, vsqlerr.New(vsqlerr.DatetimeNeedsSession,
				"%q as a %s depends on the session's TimeZone, which a cast from text cannot see while sessions use zones other than UTC", text, kind)
		}
	}
	return v, nil
}

// datetimeError is a pgdatetime error as the vsql error of its reason.
func datetimeError(err error) error {
	var pe *pgdatetime.Error
	if !errors.As(err, &pe) {
		return err
	}
	switch pe.Reason {
	case pgdatetime.OutOfRange:
		return vsqlerr.New(vsqlerr.DatetimeFieldOverflow, "%s", pe.Msg).WithHint("%s", datetimeInputHint)
	case pgdatetime.BadZone:
		return vsqlerr.New(vsqlerr.InvalidTimeZone, "%s", pe.Msg)
	case pgdatetime.BadZoneDisplacement:
		return vsqlerr.New(vsqlerr.ZoneDisplacement, "%s", pe.Msg)
	default:
		return vsqlerr.New(vsqlerr.InvalidDatetimeInput, "%s", pe.Msg)
	}
}

// datetimeInputHint is the hint of a date or time field out of range in
// text read as a date or time (DatetimeFieldOverflow's own is about
// to_timestamp's templates).
const datetimeInputHint = "A field is out of its range (month 1-12, the day of that month, hour 0-24, minute and second 0-59); the order of day and month is month first (MDY)."

// floatToInt is PostgreSQL's cast of a float to an integer type of bits
// bits: rint (half to even), then the range check (22003 "smallint out
// of range"; NaN too).
func floatToInt(f float64, bits int) (int64, error) {
	r := math.RoundToEven(f)
	limit := math.Ldexp(1, bits-1) // 2^(bits-1), exact in a float64
	if math.IsNaN(r) || r < -limit || r >= limit {
		name := map[int]string{16: "smallint", 32: "integer", 64: "bigint"}[bits]
		return 0, vsqlerr.ForEngine(vsqlerr.New(vsqlerr.NumericOutOfRange, "%s out of range", name))
	}
	return int64(r), nil
}
