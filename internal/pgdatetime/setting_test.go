package pgdatetime

import (
	"testing"
	"time"
)

// The expected values are PostgreSQL 15's answers (SHOW timezone after SET
// TIME ZONE, the offset of timestamptz output in the zone).
func TestParseZoneSetting(t *testing.T) {
	for _, c := range []struct {
		in, show string
		east     int
	}{
		{"10.5", "<+10:30>-10:30", 37800},
		{"-8", "<-08>+08", -28800},
		{"-1.5", "<-01:30>+01:30", -5400},
		{"1.001", "<+01:00:03>-01:00:03", 3603},
		{"0", "<+00>-00", 0},
		{"167", "<+167>-167", 167 * 3600},
		{"-04:30", "-04:30", 16200},
		{"04:15", "04:15", -15300},
		{"-13:00", "-13:00", 46800},
		{"+14:00", "+14:00", -50400},
		{"00:00", "00:00", 0},
		{"UTC+3", "UTC+3", -10800},
		{"UTC-4:30", "UTC-4:30", 16200},
		{"america/new_york", "America/New_York", -14400},
		{"utc", "UTC", 0},
		{"Etc/GMT-5", "Etc/GMT-5", 18000},
		{"PST8PDT", "PST8PDT", -25200},
		{"CST7CDT,M4.1.0,M10.5.0", "CST7CDT,M4.1.0,M10.5.0", -21600},
	} {
		zs, err := ParseZoneSetting(c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		_, east := time.Date(2020, 7, 1, 12, 0, 0, 0, time.UTC).In(zs.Location).Zone()
		if zs.Show != c.show || east != c.east {
			t.Errorf("%q: SHOW %q, offset %d; PostgreSQL: %q, %d", c.in, zs.Show, east, c.show, c.east)
		}
	}
	for _, in := range []string{"168", "-200", "+168:00", "foo", "MSK", "PST", "<+0530>-0530"} {
		if zs, err := ParseZoneSetting(in); err == nil {
			t.Errorf("%q: accepted as %q; PostgreSQL refuses it", in, zs.Show)
		}
	}
}

// PostgreSQL 15: x AT TIME ZONE 'MSK' for a timestamptz x (the offset at
// that instant) and a timestamp x (the wall clock placed in Europe/Moscow).
func TestAbbrevOffset(t *testing.T) {
	at := func(s string) int64 {
		v, err := time.Parse("2006-01-02 15:04:05", s)
		if err != nil {
			t.Fatal(err)
		}
		return v.Unix()
	}
	for _, c := range []struct {
		instant string
		east    int
	}{
		{"2011-03-26 22:59:59", 10800}, {"2011-03-26 23:00:00", 14400},
		{"2014-10-25 21:59:59", 14400}, {"2014-10-25 22:00:00", 10800}, {"1990-01-01 00:00:00", 10800},
	} {
		if east, ok := AbbrevOffsetAt("MSK", at(c.instant)); !ok || east != c.east {
			t.Errorf("MSK at %s UTC: %d %v; PostgreSQL: %d", c.instant, east, ok, c.east)
		}
	}
	for _, c := range []struct {
		local string
		east  int
	}{
		{"2011-03-27 01:59:59", 10800}, {"2011-03-27 02:00:00", 14400}, {"2011-03-27 03:00:00", 14400},
		{"2014-10-26 00:59:59", 14400}, {"2014-10-26 01:00:00", 10800},
	} {
		if east, ok := AbbrevOffsetLocal("msk", at(c.local)); !ok || east != c.east {
			t.Errorf("MSK for %s: %d %v; PostgreSQL: %d", c.local, east, ok, c.east)
		}
	}
	if _, ok := AbbrevOffsetAt("PST", 0); ok {
		t.Error("PST taken for a dynamic abbreviation")
	}
	if zone, ok := DynamicAbbrev("VET"); !ok || zone != "America/Caracas" {
		t.Errorf("VET: %q %v", zone, ok)
	}
}
