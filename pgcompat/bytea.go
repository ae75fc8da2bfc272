package pgcompat

import (
	"encoding/hex"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// byteaLiteral is the rule of bytea (token i): PostgreSQL's hex bytea
// literal '\x0001'::bytea — as psycopg2 and other clients that inline
// parameters write it — becomes from_hex('0001'): DuckDB reads '\x00'
// inside a BLOB literal as one escaped byte, so the literal would store
// other bytes. Other literals are left to DuckDB's cast, which reads
// plain text alike but not PostgreSQL's octal escapes ('\000'::bytea is
// refused).
func byteaLiteral(p *pass, i int) {
	lit := i - 3
	if lit < 0 || p.kind(lit) != sqltext.String || !p.isOp(i-1, ":") || !p.isOp(i-2, ":") || !p.adjacent(i-2) {
		return
	}
	body, ok := stringBody(p.text(lit))
	if !ok || !strings.HasPrefix(body, `\x`) {
		return
	}
	digits := strings.ReplaceAll(body[2:], " ", "")
	if _, err := hex.DecodeString(digits); err != nil {
		return
	}
	p.replace(p.toks[lit].Start, p.toks[i].End, "from_hex("+sqltext.QuoteString(digits)+")")
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
