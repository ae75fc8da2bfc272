package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// TableLike is one LIKE source table [INCLUDING | EXCLUDING option …]
// element of CREATE TABLE's column list, read by CreateTableLike.
type TableLike struct {
	Source      []string // the source table's name, unquoted parts
	Defaults    bool     // INCLUDING DEFAULTS (or ALL)
	Constraints bool     // INCLUDING CONSTRAINTS: CHECK constraints
	Indexes     bool     // INCLUDING INDEXES: PRIMARY KEY and UNIQUE
	start, end  int      // the element's bytes
}

// CreateTableLike reads CREATE [TEMP] TABLE t (…, LIKE s [INCLUDING …],
// …), which DuckDB refuses ("ColumnDef type not handled yet"); ok is
// false when the statement has no LIKE element. The server writes each
// element out as the source's columns (WithLikeColumns).
func CreateTableLike(st sqltext.Statement) (likes []TableLike, ok bool) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	if !p.isWord(0, "create") {
		return nil, false
	}
	open := -1
	for j := 1; j < len(p.toks) && j < 12; j++ {
		if p.kind(j) == sqltext.Open {
			if p.isWord(j-1, "as") {
				return nil, false
			}
			open = j
			break
		}
	}
	if open < 0 {
		return nil, false
	}
	isTable := false
	for j := 1; j < open; j++ {
		if p.isWord(j, "table") {
			isTable = true
		}
	}
	close := p.matchForward(open)
	if !isTable || close < 0 {
		return nil, false
	}
	for j := open + 1; j < close; j++ {
		if p.isWord(j, "like") && (p.kind(j-1) == sqltext.Open || p.isOp(j-1, ",")) {
			l := TableLike{start: p.toks[j].Start}
			k := p.nameEnd(j + 1)
			if k < 0 {
				return nil, false
			}
			for n := j + 1; n < k; n += 2 {
				l.Source = append(l.Source, sqltext.UnquoteIdent(p.text(n)))
			}
			for (p.isWord(k, "including") || p.isWord(k, "excluding")) && p.kind(k+1) == sqltext.Word {
				on := p.isWord(k, "including")
				switch strings.ToLower(p.text(k + 1)) {
				case "all":
					l.Defaults, l.Constraints, l.Indexes = on, on, on
				case "defaults":
					l.Defaults = on
				case "constraints":
					l.Constraints = on
				case "indexes":
					l.Indexes = on
				}
				k += 2
			}
			if k != close && !p.isOp(k, ",") {
				return nil, false
			}
			l.end = p.toks[k-1].End
			likes = append(likes, l)
			j = k
		} else if p.kind(j) == sqltext.Open {
			if j = p.matchForward(j); j < 0 {
				return nil, false
			}
		}
	}
	return likes, len(likes) > 0
}

// LikeColumn is a source column as the server reads it from DuckDB's
// catalog.
type LikeColumn struct {
	Name, Type, Default string
	NotNull             bool
}

// WithLikeColumns writes each LIKE element of st as its source's
// columns (names, types and NOT NULL; the defaults with INCLUDING
// DEFAULTS), and with INCLUDING CONSTRAINTS / INDEXES its CHECK and
// PRIMARY KEY / UNIQUE constraints (given as table constraint text).
func WithLikeColumns(st sqltext.Statement, likes []TableLike, columns [][]LikeColumn, constraints [][]string) sqltext.Statement {
	edits := make([]sqltext.Edit, len(likes))
	for n, l := range likes {
		var parts []string
		for _, c := range columns[n] {
			def := sqltext.QuoteIdent(c.Name) + " " + c.Type
			if c.NotNull {
				def += " NOT NULL"
			}
			if l.Defaults && c.Default != "" {
				def += " DEFAULT " + c.Default
			}
			parts = append(parts, def)
		}
		parts = append(parts, constraints[n]...)
		edits[n] = sqltext.Edit{Start: l.start, End: l.end, Text: strings.Join(parts, ", ")}
	}
	return st.Edit(edits)
}
