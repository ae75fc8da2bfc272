package pgdatetime

import "testing"

// TestParseISO: the fast path gives what Parse gives for the ISO forms it
// takes, and leaves every other text to Parse.
func TestParseISO(t *testing.T) {
	for _, c := range []struct {
		text string
		kind Kind
	}{
		{"1999-01-08", Date}, {"2000-02-29", Date}, {"0001-01-01", Date}, {"9999-12-31", Date},
		{"1969-12-31 23:59:59.999999", Timestamp}, {"2026-12-04T05:06:07.5", Timestamp}, {"1970-01-01 00:00:00", Timestamp},
		{"00:00:00", Time}, {"23:59:59.123", Time},
	} {
		fast, ok := ParseISO([]byte(c.text), c.kind)
		v, err := Parse(c.text, c.kind, Options{})
		if !ok || err != nil || fast.Days != v.Days || fast.Micros != v.Micros {
			t.Errorf("%s (%s): fast %+v %v, Parse %+v %v", c.text, c.kind, fast, ok, v, err)
		}
	}
	for _, c := range []string{"1999-02-29", "1999-13-01", "1999-1-08", "24:00:00", "23:59:60", "10:00:00.1234567", "1999-01-08 10:00:00+02", "1999-01-08 10:00", "today", ""} {
		for _, kind := range []Kind{Date, Timestamp, Time} {
			if _, ok := ParseISO([]byte(c), kind); ok {
				t.Errorf("%q (%s) taken by the fast path", c, kind)
			}
		}
	}
}
