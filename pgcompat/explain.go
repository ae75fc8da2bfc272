package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// EXPLAIN (option [value], …) statement: DuckDB takes ANALYZE and FORMAT
// JSON or TEXT among PostgreSQL's options and refuses the others ("Not
// implemented Error: Unimplemented explain type: costs"), which hid the
// statement's own error behind that one. The options that only shape
// PostgreSQL's plan text (COSTS, VERBOSE, BUFFERS, TIMING, SUMMARY,
// SETTINGS, WAL, GENERIC_PLAN, and FORMAT XML or YAML) are dropped;
// DuckDB's plan is shown, as for any EXPLAIN.

// explainOptions: token i is EXPLAIN.
func explainOptions(p *pass, i int) {
	if i != 0 || p.kind(1) != sqltext.Open {
		return
	}
	close := p.matchForward(1)
	if close < 0 {
		return
	}
	var keep []string
	for k := 2; k < close; {
		end := k
		for end < close && !p.isOp(end, ",") {
			end++
		}
		name := strings.ToLower(p.text(k))
		value := ""
		if end > k+1 {
			value = strings.ToLower(strings.Trim(p.src[p.toks[k+1].Start:p.toks[end-1].End], `'"`))
		}
		switch name {
		case "analyze", "analyse":
			if value == "" || value == "true" || value == "on" || value == "1" {
				keep = append(keep, "ANALYZE")
			}
		case "format":
			if value == "json" || value == "text" {
				keep = append(keep, "FORMAT "+strings.ToUpper(value))
			}
		case "costs", "verbose", "buffers", "timing", "summary", "settings", "wal", "generic_plan":
		default:
			return // an option PostgreSQL does not have either: its error
		}
		k = end + 1
	}
	if len(keep) == 0 && close+1 < len(p.toks) {
		p.replace(p.toks[1].Start, p.toks[close+1].Start, "") // and the space after
		return
	}
	p.replace(p.toks[1].Start, p.toks[close].End, "("+strings.Join(keep, ", ")+")")
}
