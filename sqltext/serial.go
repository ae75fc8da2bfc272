package sqltext

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// serialTypes are PostgreSQL's auto-increment pseudo-types and the integer
// type each stands for.
var serialTypes = map[string]string{
	"serial": "INTEGER", "serial4": "INTEGER", "bigserial": "BIGINT", "serial8": "BIGINT",
	"smallserial": "SMALLINT", "serial2": "SMALLINT",
}

// sequenceMax is the MAXVALUE of the sequence of a serial or identity
// column of each type below bigint, as PostgreSQL makes it (the sequence
// is of the column's type; DuckDB's sequences are bigint).
var sequenceMax = map[string]string{
	"INTEGER": " MAXVALUE 2147483647", "integer": " MAXVALUE 2147483647", "int": " MAXVALUE 2147483647", "int4": " MAXVALUE 2147483647",
	"SMALLINT": " MAXVALUE 32767", "smallint": " MAXVALUE 32767", "int2": " MAXVALUE 32767",
}

// RewriteSerial rewrites a CREATE TABLE whose columns are serial,
// bigserial, smallserial or GENERATED … AS IDENTITY — what ORMs create —
// into DuckDB's form: the integer type with DEFAULT nextval of a sequence
// named as PostgreSQL names it (<table>_<column>_seq), and returns the
// CREATE SEQUENCE statements that must run first. ok is false when the
// statement has no such column.
func RewriteSerial(src string) (sequences []string, out string, ok bool) {
	lower := strings.ToLower(src)
	if !strings.Contains(lower, "serial") && !strings.Contains(lower, "identity") {
		return nil, src, false
	}
	toks := tokens(src)
	i := 0
	word := func(w string) bool {
		if i < len(toks) && toks[i].kind == tokWord && toks[i].word == w {
			i++
			return true
		}
		return false
	}
	if !word("create") {
		return nil, src, false
	}
	create := "CREATE SEQUENCE IF NOT EXISTS "
	if !word("table") {
		if !(word("temp") || word("temporary")) || !word("table") {
			return nil, src, false
		}
		create = "CREATE TEMP SEQUENCE IF NOT EXISTS "
	}
	if word("if") && !(word("not") && word("exists")) {
		return nil, src, false
	}
	// The table name: the last part of a dotted name.
	var prefix []string // schema or catalog parts, as written
	table := ""
	for i < len(toks) && (toks[i].kind == tokWord || toks[i].kind == tokQuoted) {
		if table != "" {
			prefix = append(prefix, toks[i-2].text)
		}
		table = toks[i].word
		i++
		if i < len(toks) && toks[i].text == "." {
			i++
			continue
		}
		break
	}
	if table == "" || i >= len(toks) || toks[i].kind != tokOpen {
		return nil, src, false
	}
	qualifier := ""
	if len(prefix) > 0 {
		qualifier = strings.Join(prefix, ".") + "."
	}
	var sb strings.Builder
	last := 0
	depth := 0
	atColumnStart := true
	for i++; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tokOpen:
			depth++
			continue
		case t.kind == tokClose:
			if depth == 0 {
				i = len(toks)
				continue
			}
			depth--
			continue
		case t.text == "," && depth == 0:
			atColumnStart = true
			continue
		}
		if !atColumnStart || depth != 0 {
			continue
		}
		atColumnStart = false
		if (t.kind != tokWord && t.kind != tokQuoted) || i+1 >= len(toks) {
			continue
		}
		switch t.word {
		case "constraint", "primary", "unique", "check", "foreign", "exclude":
			if t.kind == tokWord {
				continue
			}
		}
		column := t.word
		seq := qualifier + QuoteIdent(table+"_"+column+"_seq")
		def := " DEFAULT " + TrackedNextval(QuoteString(strings.Trim(seq, `"`)))
		if qualifier != "" {
			def = " DEFAULT " + TrackedNextval(QuoteString(seq))
		}
		typ := toks[i+1]
		if base, isSerial := serialTypes[typ.word]; isSerial && typ.kind == tokWord {
			sb.WriteString(src[last:typ.start])
			sb.WriteString(base + def + " NOT NULL")
			last = typ.end
			sequences = append(sequences, create+seq+sequenceMax[base])
			continue
		}
		// <type> GENERATED { ALWAYS | BY DEFAULT } AS IDENTITY [( options )]
		for j := i + 2; j+3 < len(toks); j++ {
			if toks[j].text == "," || toks[j].kind == tokClose {
				break
			}
			if toks[j].word != "generated" {
				continue
			}
			k := j + 1
			if toks[k].word == "always" {
				k++
			} else if toks[k].word == "by" && k+1 < len(toks) && toks[k+1].word == "default" {
				k += 2
			} else {
				break
			}
			if k+1 >= len(toks) || toks[k].word != "as" || toks[k+1].word != "identity" {
				break
			}
			end := toks[k+1].end
			options := sequenceMax[typ.word]
			if k+2 < len(toks) && toks[k+2].kind == tokOpen {
				// the sequence options: START, INCREMENT, MINVALUE,
				// MAXVALUE, CYCLE kept (CACHE, SEQUENCE NAME dropped)
				d := 0
				for m := k + 2; m < len(toks); m++ {
					if toks[m].kind == tokOpen {
						d++
					} else if toks[m].kind == tokClose {
						if d--; d == 0 {
							end = toks[m].end
							break
						}
					}
				}
				options = identityOptions(toks, k+3, end, strings.ToLower(typ.word))
			}
			sb.WriteString(src[last:toks[j].start])
			sb.WriteString(strings.TrimPrefix(def, " ") + " NOT NULL")
			last = end
			sequences = append(sequences, create+seq+options)
			break
		}
	}
	if len(sequences) == 0 {
		return nil, src, false
	}
	sb.WriteString(src[last:])
	return sequences, sb.String(), true
}

// IsAddForeignKey reports ALTER TABLE … ADD [CONSTRAINT name] FOREIGN KEY:
// DuckDB cannot add a foreign key to an existing table.
func IsAddForeignKey(src string) bool {
	toks := tokens(src)
	if len(toks) < 5 || toks[0].word != "alter" || toks[1].word != "table" {
		return false
	}
	for i := 2; i+1 < len(toks); i++ {
		if toks[i].kind == tokWord && toks[i].word == "foreign" && toks[i+1].word == "key" {
			for j := 2; j < i; j++ {
				if toks[j].kind == tokWord && toks[j].word == "add" {
					return true
				}
			}
		}
	}
	return false
}

// StripForeignKeyActions removes ON DELETE / ON UPDATE actions from the
// REFERENCES clauses of CREATE TABLE (Sequelize writes ON DELETE SET NULL
// ON UPDATE CASCADE): DuckDB's foreign keys take none. It returns the
// actions it removed that change behaviour (CASCADE, SET NULL, SET
// DEFAULT); the key itself stays and is enforced as NO ACTION.
func StripForeignKeyActions(src string) (out string, removed []string, ok bool) {
	lower := strings.ToLower(src)
	if !strings.Contains(lower, "references") || (!strings.Contains(lower, "on delete") && !strings.Contains(lower, "on update")) {
		return src, nil, false
	}
	toks := tokens(src)
	if len(toks) < 2 || toks[0].word != "create" {
		return src, nil, false
	}
	var sb strings.Builder
	last := 0
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].word != "on" || (toks[i+1].word != "delete" && toks[i+1].word != "update") || toks[i].kind != tokWord {
			continue
		}
		j := i + 2
		action := ""
		switch {
		case toks[j].word == "cascade" || toks[j].word == "restrict":
			action = toks[j].word
		case (toks[j].word == "set" || toks[j].word == "no") && j+1 < len(toks) &&
			(toks[j+1].word == "null" || toks[j+1].word == "default" || toks[j+1].word == "action"):
			action = toks[j].word + " " + toks[j+1].word
			j++
		default:
			continue
		}
		if action != "restrict" && action != "no action" {
			removed = append(removed, "ON "+strings.ToUpper(toks[i+1].word+" "+action))
		}
		sb.WriteString(src[last:toks[i].start])
		last = toks[j].end
		i = j
	}
	if last == 0 {
		return src, nil, false
	}
	sb.WriteString(src[last:])
	return sb.String(), removed, true
}

// AlterColumnType reads ALTER TABLE t ALTER [COLUMN] c [SET DATA] TYPE typ
// [USING …]: the table and column names (unquoted) and the type as written.
func AlterColumnType(src string) (table, column, typ string, ok bool) {
	toks := tokens(src)
	if len(toks) < 7 || toks[0].word != "alter" || toks[1].word != "table" {
		return "", "", "", false
	}
	i := 2
	if toks[i].word == "only" && toks[i].kind == tokWord {
		i++
	}
	for i+1 < len(toks) && toks[i+1].text == "." { // a qualified name: its last part
		i += 2
	}
	if i >= len(toks) || (toks[i].kind != tokWord && toks[i].kind != tokQuoted) {
		return "", "", "", false
	}
	table = toks[i].word
	i++
	if i >= len(toks) || toks[i].word != "alter" {
		return "", "", "", false
	}
	i++
	if i < len(toks) && toks[i].word == "column" && toks[i].kind == tokWord {
		i++
	}
	if i >= len(toks) || (toks[i].kind != tokWord && toks[i].kind != tokQuoted) {
		return "", "", "", false
	}
	column = toks[i].word
	i++
	if i+1 < len(toks) && toks[i].word == "set" && toks[i+1].word == "data" {
		i += 2
	}
	if i >= len(toks) || toks[i].word != "type" {
		return "", "", "", false
	}
	i++
	start := i
	depth := 0
	for i < len(toks) && !(toks[i].kind == tokWord && (toks[i].word == "using" || toks[i].word == "collate")) && !(toks[i].text == "," && depth == 0) && toks[i].kind != tokSemi {
		switch toks[i].kind {
		case tokOpen:
			depth++
		case tokClose:
			depth--
		}
		i++
	}
	if start == i {
		return "", "", "", false
	}
	return table, column, src[toks[start].start:toks[i-1].end], true
}

// AlterTableOnView reads ALTER TABLE [IF EXISTS] [db.][schema.]name …: the
// name's parts (unquoted) and the statement as ALTER VIEW, for when the
// name is a view (PostgreSQL renames views with ALTER TABLE; dbt does).
func AlterTableOnView(src string) (parts []string, asView string, ok bool) {
	toks := tokens(src)
	if len(toks) < 4 || toks[0].word != "alter" || toks[1].word != "table" || toks[1].kind != tokWord {
		return nil, "", false
	}
	i := 2
	if toks[i].word == "if" && i+1 < len(toks) && toks[i+1].word == "exists" {
		i += 2
	}
	for i < len(toks) && (toks[i].kind == tokWord || toks[i].kind == tokQuoted) {
		parts = append(parts, toks[i].word)
		if i+1 < len(toks) && toks[i+1].text == "." {
			i += 2
			continue
		}
		break
	}
	if len(parts) == 0 || len(parts) > 3 {
		return nil, "", false
	}
	return parts, src[:toks[1].start] + "VIEW" + src[toks[1].end:], true
}

// identityTypeRange is the range of an identity column's integer type.
var identityTypeRange = map[string][2]int64{"smallint": {math.MinInt16, math.MaxInt16}, "int2": {math.MinInt16, math.MaxInt16},
	"integer": {math.MinInt32, math.MaxInt32}, "int": {math.MinInt32, math.MaxInt32}, "int4": {math.MinInt32, math.MaxInt32}}

// identityOptions are an identity column's sequence options (tokens from,
// up to the byte offset end) as CREATE SEQUENCE options, with
// PostgreSQL's defaults for the column's type typ: START [WITH] n,
// INCREMENT [BY] n, [NO] MINVALUE, [NO] MAXVALUE and [NO] CYCLE; CACHE
// and SEQUENCE NAME are dropped.
func identityOptions(toks []sqlToken, from, end int, typ string) string {
	number := func(n int) (int64, int, bool) {
		sign := ""
		if n < len(toks) && (toks[n].text == "-" || toks[n].text == "+") {
			sign, n = toks[n].text, n+1
		}
		if n >= len(toks) || toks[n].start >= end {
			return 0, n, false
		}
		v, err := strconv.ParseInt(sign+toks[n].text, 10, 64)
		return v, n + 1, err == nil
	}
	var start, lo, hi *int64
	inc, cycle := int64(1), false
	for m := from; m < len(toks) && toks[m].start < end; m++ {
		if toks[m].kind != tokWord {
			continue
		}
		switch w := toks[m].word; w {
		case "start", "increment", "minvalue", "maxvalue":
			if m > 0 && toks[m-1].word == "no" {
				continue // NO MINVALUE, NO MAXVALUE: the default
			}
			n := m + 1
			if n < len(toks) && (toks[n].word == "with" || toks[n].word == "by") {
				n++
			}
			v, next, ok := number(n)
			if !ok {
				continue
			}
			switch w {
			case "start":
				start = &v
			case "increment":
				if v != 0 {
					inc = v
				}
			case "minvalue":
				lo = &v
			case "maxvalue":
				hi = &v
			}
			m = next - 1
		case "cycle":
			cycle = m == 0 || toks[m-1].word != "no"
		}
	}
	r, ok := identityTypeRange[typ]
	if !ok {
		r = [2]int64{math.MinInt64, math.MaxInt64}
	}
	min, max := int64(1), r[1]
	if inc < 0 {
		min, max = r[0], -1
	}
	if lo != nil {
		min = *lo
	}
	if hi != nil {
		max = *hi
	}
	first := min
	if inc < 0 {
		first = max
	}
	if start != nil {
		first = *start
	}
	// INCREMENT first: DuckDB resets the bounds of a descending sequence
	// when INCREMENT BY follows them
	out := fmt.Sprintf(" INCREMENT BY %d MINVALUE %d MAXVALUE %d START WITH %d", inc, min, max, first)
	if cycle {
		out += " CYCLE"
	}
	return out
}
