package sqltext

import (
	"encoding/hex"
	"strings"
)

// RewriteByteaLiterals turns PostgreSQL's hex bytea literals —
// '\x0001'::bytea, as psycopg2 and other clients that inline parameters
// write them — into from_hex('0001'): DuckDB reads '\x00' inside a BLOB
// literal as one escaped byte, so the literal would store other bytes.
// Escape-format literals ('\000'::bytea) mean the same in both and are
// left alone.
func RewriteByteaLiterals(src string) (string, bool) {
	if !strings.Contains(strings.ToLower(src), "bytea") {
		return src, false
	}
	toks := tokens(src)
	var sb strings.Builder
	last, changed := 0, false
	for i := 0; i+3 < len(toks); i++ {
		if toks[i].kind != tokString || toks[i+1].text != ":" || toks[i+2].text != ":" || toks[i+3].word != "bytea" {
			continue
		}
		body, ok := stringBody(toks[i].text)
		if !ok || !strings.HasPrefix(body, `\x`) {
			continue
		}
		digits := strings.ReplaceAll(body[2:], " ", "")
		if _, err := hex.DecodeString(digits); err != nil {
			continue
		}
		sb.WriteString(src[last:toks[i].start])
		sb.WriteString("from_hex(" + QuoteString(digits) + ")")
		last = toks[i+3].end
		changed = true
		i += 3
	}
	if !changed {
		return src, false
	}
	sb.WriteString(src[last:])
	return sb.String(), true
}

// stringBody returns the value of a standard ('…') or escape (E'…') string
// literal token; other literals are not handled.
func stringBody(lit string) (string, bool) {
	switch {
	case strings.HasPrefix(lit, "'") && strings.HasSuffix(lit, "'") && len(lit) >= 2:
		return strings.ReplaceAll(lit[1:len(lit)-1], "''", "'"), true
	case (strings.HasPrefix(lit, "E'") || strings.HasPrefix(lit, "e'")) && strings.HasSuffix(lit, "'") && len(lit) >= 3:
		body := lit[2 : len(lit)-1]
		if strings.Contains(body, `\\`) && !strings.ContainsAny(strings.ReplaceAll(body, `\\`, ""), `\`) {
			return strings.ReplaceAll(strings.ReplaceAll(body, `\\`, `\`), "''", "'"), true
		}
	}
	return "", false
}
