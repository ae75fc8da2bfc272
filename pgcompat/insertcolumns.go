package pgcompat

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// fewerValues is DuckDB's refusal of an INSERT without a column list that
// gives fewer values than the table has columns.
var fewerValues = regexp.MustCompile(`table .+ has (\d+) columns but (\d+) values were supplied`)

// FewerValues reads DuckDB's error for an INSERT that gives n values to a
// table of more columns; ok is false for any other error. PostgreSQL
// fills the columns after the n first with their defaults.
func FewerValues(err error) (n int, ok bool) {
	if err == nil {
		return 0, false
	}
	m := fewerValues.FindStringSubmatch(err.Error())
	if m == nil {
		return 0, false
	}
	columns, _ := strconv.Atoi(m[1])
	n, _ = strconv.Atoi(m[2])
	return n, n > 0 && n < columns
}

// InsertTarget reads INSERT INTO name [[AS] alias] without a column
// list: the table's name (unquoted parts) and the byte offset where a
// column list goes. ok is false for another statement, or one with a
// column list.
func InsertTarget(st sqltext.Statement) (parts []string, at int, ok bool) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	i := 0
	if p.isWord(0, "with") {
		return nil, 0, false // the INSERT follows a WITH: not read here
	}
	if !p.isWord(i, "insert") || !p.isWord(i+1, "into") {
		return nil, 0, false
	}
	i += 2
	start := i
	if i = p.nameEnd(i); i < 0 {
		return nil, 0, false
	}
	for j := start; j < i; j += 2 {
		parts = append(parts, sqltext.UnquoteIdent(p.text(j)))
	}
	if p.isWord(i, "as") {
		i += 2 // the alias
	}
	if i > len(p.toks) || i < len(p.toks) && p.kind(i) == sqltext.Open && !p.isWord(i+1, "select") && !p.isWord(i+1, "values") && !p.isWord(i+1, "with") {
		return nil, 0, false // a column list already
	}
	return parts, p.toks[i-1].End, true
}

// WithColumnList inserts the column list of columns (names, quoted here)
// at byte offset at of st's text (InsertTarget's).
func WithColumnList(st sqltext.Statement, at int, columns []string) sqltext.Statement {
	quoted := make([]string, len(columns))
	for i, c := range columns {
		quoted[i] = sqltext.QuoteIdent(c)
	}
	return st.Edit([]sqltext.Edit{{Start: at, End: at, Text: " (" + strings.Join(quoted, ", ") + ")"}})
}
