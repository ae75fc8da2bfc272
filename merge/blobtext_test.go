package merge

import (
	"bytes"
	"encoding/hex"
	"testing"
)

// DuckDB's text of a BLOB (CAST(from_hex('…') AS VARCHAR), as to_json
// writes it in a request's audit) read back to the bytes.
func TestDuckBlobText(t *testing.T) {
	for _, c := range []struct{ text, hex string }{
		{`\x5CA`, "5c41"},
		{`\x7F \x22~\x0A`, "7f20227e0a"},
		{`\x80\xFF`, "80ff"},
		{`\xDE41`, "de3431"},
		{`abc`, "616263"},
		{``, ""},
		{`\x4`, "5c7834"}, // not DuckDB's; read as it is
	} {
		want, _ := hex.DecodeString(c.hex)
		if got := duckBlobText(c.text); !bytes.Equal(got, want) {
			t.Errorf("duckBlobText(%q) = %x, want %x", c.text, got, want)
		}
	}
}
