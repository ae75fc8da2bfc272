package pgcompat

import (
	"testing"

	"github.com/vsql/vsql/vsqlerr"
)

func TestParseIntText(t *testing.T) {
	for _, c := range []struct {
		text  string
		bits  int
		want  int64
		state string // "" when valid
	}{
		{"42", 32, 42, ""},
		{"  -17 \n", 16, -17, ""},
		{"+7", 64, 7, ""},
		{"32767", 16, 32767, ""},
		{"-32768", 16, -32768, ""},
		{"32768", 16, 0, "22003"},
		{"-2147483648", 32, -2147483648, ""},
		{"2147483648", 32, 0, "22003"},
		{"9223372036854775807", 64, 9223372036854775807, ""},
		{"-9223372036854775808", 64, -9223372036854775808, ""},
		{"9223372036854775808", 64, 0, "22003"},
		{"99999999999999999999999999", 64, 0, "22003"},
		{"99999999999999999999999999x", 64, 0, "22P02"},
		{"34.5", 16, 0, "22P02"},
		{"1e3", 32, 0, "22P02"},
		{"0x1F", 32, 0, "22P02"},
		{"1_000", 32, 0, "22P02"},
		{"", 32, 0, "22P02"},
		{"-", 32, 0, "22P02"},
		{"1 2", 32, 0, "22P02"},
	} {
		got, err := parseIntText([]byte(c.text), c.bits)
		if c.state == "" {
			if err != nil || got != c.want {
				t.Errorf("%q (%d bits) = %d, %v; want %d", c.text, c.bits, got, err, c.want)
			}
			continue
		}
		if err == nil || vsqlerr.From(err).SQLState != c.state {
			t.Errorf("%q (%d bits): %v, want SQLSTATE %s", c.text, c.bits, err, c.state)
		}
	}
}

// BenchmarkParseIntText: the cast reads every integer of COPY and INSERT
// text; it must not allocate.
func BenchmarkParseIntText(b *testing.B) {
	text := []byte("1234567890")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseIntText(text, 64); err != nil {
			b.Fatal(err)
		}
	}
}
