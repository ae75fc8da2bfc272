package sqltext

import "strings"

// Truncate is PostgreSQL's TRUNCATE [TABLE] [ONLY] name [*] [, …]
// [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT], which
// DuckDB reads only for one table and no options.
type Truncate struct {
	Tables  []TableName // in the order written; Schema "main" for public
	Cascade bool
	Restart bool   // RESTART IDENTITY
	Options bool   // anything DuckDB's own TRUNCATE does not read: more tables, ONLY, *, IDENTITY, CASCADE, RESTRICT
	Only    []bool // per table: written with ONLY
}

// ParseTruncate reads a TRUNCATE statement from its tokens; ok is false
// for another statement or one it cannot read (DuckDB then answers it).
func ParseTruncate(st Statement) (t Truncate, ok bool) {
	if st.Keyword(0) != "TRUNCATE" {
		return t, false
	}
	toks := wordTokens(st.SQL, st.Tokens())
	word := func(i int, w string) bool { return i < len(toks) && toks[i].kind == tokWord && toks[i].word == w }
	text := func(i int, s string) bool { return i < len(toks) && toks[i].kind == tokOther && toks[i].text == s }
	i := 1
	if word(i, "table") {
		i++
	}
	for {
		only := word(i, "only")
		if only {
			t.Options = true
			i++
		}
		var parts []string
		for {
			if i >= len(toks) || (toks[i].kind != tokWord && toks[i].kind != tokQuoted) {
				return t, false
			}
			parts = append(parts, toks[i].word)
			if toks[i].kind == tokWord {
				parts[len(parts)-1] = toks[i].text // plain parts keep their case, as ParseTableName
			}
			i++
			if !text(i, ".") {
				break
			}
			i++
		}
		if len(parts) > 3 {
			return t, false
		}
		name := TableName{Table: parts[len(parts)-1]}
		if len(parts) >= 2 {
			name.Schema = parts[len(parts)-2]
			if strings.EqualFold(name.Schema, "public") {
				name.Schema = "main"
			}
		}
		if len(parts) == 3 {
			name.Catalog = parts[0]
		}
		t.Tables = append(t.Tables, name)
		t.Only = append(t.Only, only)
		if text(i, "*") {
			t.Options = true
			i++
		}
		if !text(i, ",") {
			break
		}
		t.Options = true
		i++
	}
	for i < len(toks) {
		switch {
		case (word(i, "restart") || word(i, "continue")) && word(i+1, "identity"):
			t.Restart = word(i, "restart")
			i += 2
		case word(i, "cascade"):
			t.Cascade = true
			i++
		case word(i, "restrict"):
			i++
		default:
			return t, false
		}
		t.Options = true
	}
	return t, true
}
