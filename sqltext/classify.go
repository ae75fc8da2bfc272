package sqltext

import "strings"

// Kind says what a statement does, as far as the server needs to know.
type Kind int

const (
	KindOther Kind = iota
	KindQuery      // returns rows: SELECT, VALUES, WITH, SHOW, EXPLAIN, …
	KindInsert
	KindUpdate
	KindDelete
	KindBegin
	KindCommit
	KindRollback
	KindSavepoint // SAVEPOINT, RELEASE, ROLLBACK TO: unsupported by DuckDB
	KindCreateDatabase
	KindDropDatabase
	KindCopy
)

// Kind classifies the statement by its leading keywords.
func (s Statement) Kind() Kind {
	switch s.Keyword(0) {
	case "WITH":
		// WITH … INSERT / UPDATE / DELETE is the statement after its
		// queries
		switch s.withVerb() {
		case "insert":
			return KindInsert
		case "update":
			return KindUpdate
		case "delete":
			return KindDelete
		}
		return KindQuery
	case "SELECT", "VALUES", "TABLE", "FROM", "SHOW", "EXPLAIN", "DESCRIBE",
		"SUMMARIZE", "PRAGMA", "CALL":
		return KindQuery
	case "INSERT":
		return KindInsert
	case "UPDATE":
		return KindUpdate
	case "DELETE":
		return KindDelete
	case "BEGIN", "START":
		return KindBegin
	case "COMMIT", "END":
		return KindCommit
	case "ROLLBACK", "ABORT":
		if s.Keyword(1) == "TO" || s.Keyword(2) == "TO" {
			return KindSavepoint
		}
		return KindRollback
	case "SAVEPOINT", "RELEASE":
		return KindSavepoint
	case "CREATE":
		if s.Keyword(1) == "DATABASE" {
			return KindCreateDatabase
		}
	case "DROP":
		if s.Keyword(1) == "DATABASE" {
			return KindDropDatabase
		}
	case "COPY":
		return KindCopy
	}
	return KindOther
}

// ReturnsRows reports whether the statement produces a row set (as opposed
// to a command tag only).
func (s Statement) ReturnsRows() bool {
	switch s.Kind() {
	case KindQuery:
		return true
	case KindInsert, KindUpdate, KindDelete:
		return s.Returning
	}
	return false
}

// Tag returns the PostgreSQL command tag for the statement, given the number
// of rows it returned or affected.
func (s Statement) Tag(rows int64) string {
	n := itoa(rows)
	switch s.Kind() {
	case KindQuery:
		switch s.Keyword(0) {
		case "SHOW":
			return "SHOW"
		case "EXPLAIN":
			return "EXPLAIN"
		}
		return "SELECT " + n
	case KindInsert:
		return "INSERT 0 " + n
	case KindUpdate:
		return "UPDATE " + n
	case KindDelete:
		return "DELETE " + n
	case KindBegin:
		return "BEGIN"
	case KindCommit:
		return "COMMIT"
	case KindRollback:
		return "ROLLBACK"
	case KindCopy:
		return "COPY " + n
	}
	if s.IsCreateTableAs() {
		if s.withNoData() {
			return "CREATE TABLE AS" // PostgreSQL's tag when no rows are stored
		}
		return "SELECT " + n
	}
	switch s.Keyword(0) {
	case "CREATE", "DROP", "ALTER":
		return s.objectTag()
	case "TRUNCATE":
		return "TRUNCATE TABLE"
	case "SET", "RESET":
		return s.Keyword(0)
	case "":
		return ""
	}
	return s.Keyword(0)
}

// objectTag builds "CREATE TABLE", "DROP VIEW", … skipping modifiers.
func (s Statement) objectTag() string {
	verb := s.Keyword(0)
	for i := 1; i < len(s.Keywords); i++ {
		switch w := s.Keyword(i); w {
		case "OR", "REPLACE", "TEMP", "TEMPORARY", "UNIQUE", "UNLOGGED", "PERSISTENT", "IF", "NOT", "EXISTS":
			continue
		case "MATERIALIZED":
			return verb + " MATERIALIZED VIEW"
		case "MACRO", "FUNCTION":
			return verb + " FUNCTION"
		case "TABLE":
			return verb + " TABLE"
		default:
			return verb + " " + w
		}
	}
	return verb
}

// IsCreateTableAs reports CREATE TABLE … AS SELECT, whose PostgreSQL tag
// is "SELECT n".
func (s Statement) IsCreateTableAs() bool {
	lead := s.lead
	if len(lead) < 3 || lead[0] != "CREATE" {
		return false
	}
	i := 1
	for i < len(lead) && lead[i] != "TABLE" {
		switch lead[i] {
		case "OR", "REPLACE", "TEMP", "TEMPORARY", "UNLOGGED":
			i++
		default:
			return false
		}
	}
	i++ // past TABLE
	if i+2 < len(lead) && lead[i] == "IF" && lead[i+1] == "NOT" && lead[i+2] == "EXISTS" {
		i += 3
	}
	// the (possibly qualified) name: name ( . name )*
	for i < len(lead) {
		if lead[i] == "." {
			i++
			continue
		}
		if i+1 < len(lead) && lead[i+1] == "." {
			i += 2
			continue
		}
		i++
		break
	}
	if i < len(lead) && lead[i] == "(" {
		// a list of column names: CREATE TABLE t (a, b) AS SELECT …
		for i++; i < len(lead) && lead[i] != ")"; i++ {
			if lead[i] == "(" {
				return false // a column definition, not a name list
			}
		}
		i++
	}
	return i < len(lead) && lead[i] == "AS"
}

// withNoData reports whether the statement ends with WITH NO DATA (a
// trailing semicolon aside) and its query is not AS EXECUTE.
func (s Statement) withNoData() bool {
	toks := s.Tokens()
	n := len(toks)
	for n > 0 && toks[n-1].Kind == Semi {
		n--
	}
	if n < 3 {
		return false
	}
	for k := 1; k < n; k++ {
		if toks[k].Kind == Word && strings.EqualFold(s.SQL[toks[k].Start:toks[k].End], "execute") &&
			toks[k-1].Kind == Word && strings.EqualFold(s.SQL[toks[k-1].Start:toks[k-1].End], "as") {
			return false // CREATE TABLE … AS EXECUTE p WITH NO DATA: PostgreSQL's tag is SELECT 0
		}
	}
	for k, w := range []string{"with", "no", "data"} {
		t := toks[n-3+k]
		if t.Kind != Word || !strings.EqualFold(s.SQL[t.Start:t.End], w) {
			return false
		}
	}
	return true
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// DatabaseTarget parses "CREATE DATABASE name …" and "DROP DATABASE [IF
// EXISTS] name …". It returns the database name (unquoted, case-folded as
// PostgreSQL does), whether IF EXISTS was given, and the text after the name
// (options such as WITH (FORCE)). ok is false when there is no name.
func (s Statement) DatabaseTarget() (name string, ifExists bool, rest string, ok bool) {
	var toks []token
	for _, t := range s.Tokens() {
		if len(toks) == 5 {
			break
		}
		toks = append(toks, token{t.Kind.internal(), t.Start, t.End})
	}
	i := 2 // past CREATE/DROP DATABASE
	word := func(j int) string {
		if j < len(toks) && toks[j].kind == tokWord {
			return strings.ToUpper(s.SQL[toks[j].start:toks[j].end])
		}
		return ""
	}
	if word(0) == "DROP" && word(2) == "IF" && word(3) == "EXISTS" {
		ifExists = true
		i = 4
	}
	if i >= len(toks) || (toks[i].kind != tokWord && toks[i].kind != tokQuoted) {
		return "", ifExists, "", false
	}
	return UnquoteIdent(s.SQL[toks[i].start:toks[i].end]), ifExists, strings.TrimSpace(s.SQL[toks[i].end:]), true
}

// DeallocateTarget reads DEALLOCATE [PREPARE] name | ALL: the statement's
// name (unquoted, folded like an identifier) or all.
func DeallocateTarget(sql string) (name string, all bool) {
	toks := tokens(sql)
	i := 1
	if i < len(toks) && toks[i].kind == tokWord && toks[i].word == "prepare" {
		i++
	}
	if i >= len(toks) {
		return "", false
	}
	switch t := toks[i]; {
	case t.kind == tokWord && t.word == "all":
		return "", true
	case t.kind == tokWord || t.kind == tokQuoted:
		return t.word, false
	}
	return "", false
}

// CreateTableAsIfNotExists returns the name parts of CREATE TABLE IF NOT
// EXISTS name … AS SELECT (PostgreSQL skips it with a NOTICE when the
// table exists); ok is false for any other statement.
func (s Statement) CreateTableAsIfNotExists() (parts []string, ok bool) {
	if !s.IsCreateTableAs() {
		return nil, false
	}
	toks, sql := s.Tokens(), s.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	i := 1
	for i < len(toks) && !word(i, "table") {
		i++
	}
	i++
	if !word(i, "if") || !word(i+1, "not") || !word(i+2, "exists") {
		return nil, false
	}
	for i += 3; i < len(toks) && (toks[i].Kind == Word || toks[i].Kind == Quoted); i += 2 {
		parts = append(parts, UnquoteIdent(sql[toks[i].Start:toks[i].End]))
		if i+1 >= len(toks) || toks[i+1].Kind != Op || sql[toks[i+1].Start:toks[i+1].End] != "." {
			break
		}
	}
	return parts, len(parts) > 0 && len(parts) <= 3
}

// withVerb is the first word of the statement after a WITH's queries
// (lower-case: select, insert, …), "" if none is found.
func (s Statement) withVerb() string {
	depth := 0
	for _, t := range s.Tokens() {
		switch t.Kind {
		case Open:
			depth++
		case Close:
			depth--
		case Word:
			if depth != 0 {
				continue
			}
			switch w := strings.ToLower(s.SQL[t.Start:t.End]); w {
			case "select", "values", "table", "from", "insert", "update", "delete", "merge":
				return w
			}
		}
	}
	return ""
}
