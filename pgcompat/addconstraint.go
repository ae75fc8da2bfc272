package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// AlterSteps is one ALTER TABLE action that DuckDB refuses as written,
// carried out as the DuckDB statements Steps, run in order in one
// transaction (all or none). Warning, when set, is sent to the client
// once the steps succeed.
type AlterSteps struct {
	Steps   []string
	Warning string
	// Table: the table's name, unquoted parts. SetsNotNull: Steps include
	// ALTER COLUMN … SET NOT NULL, which DuckDB runs on a table with
	// indexes only once they are dropped (server/altertable.go does).
	Table       []string
	SetsNotNull bool
	// Indexes: the CREATE UNIQUE INDEX statements that follow Steps.
	Indexes []string
}

// Constraint names are made as PostgreSQL makes them (table_column_key,
// table_pkey), cut to its 63 bytes.
const maxIdentLen = 63

// AlterTableConstraints reads ALTER TABLE [IF EXISTS] [ONLY] name with one
// action that adds a column with constraints or adds a table constraint,
// which DuckDB cannot do (it has no ALTER TABLE … ADD CONSTRAINT, and its
// ADD COLUMN takes only a DEFAULT):
//
//   - ADD [COLUMN] c type [DEFAULT e] [NOT NULL | NULL] [UNIQUE |
//     PRIMARY KEY] [REFERENCES …]: the column is added with its default,
//     then SET NOT NULL (23502 if a row has no value), and UNIQUE or
//     PRIMARY KEY becomes a unique index named as PostgreSQL names the
//     constraint (table_c_key, table_pkey). What Django, Rails and
//     Prisma migrations send to add a NOT NULL column.
//   - ADD [CONSTRAINT name] UNIQUE (cols) | PRIMARY KEY (cols): a unique
//     index of that name (and SET NOT NULL for a primary key's columns):
//     Django's unique_together and UniqueConstraint.
//   - a CHECK constraint, in either form: refused (0A000), DuckDB keeps
//     CHECKs only from CREATE TABLE.
//
// A REFERENCES clause is dropped with a warning, as ADD CONSTRAINT …
// FOREIGN KEY is (the session's prepareDDLText). ok is false for every
// other statement, which goes to DuckDB unchanged.
func AlterTableConstraints(st sqltext.Statement) (steps AlterSteps, ok bool, err error) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	nameStart, i, parts, isAlter := p.alterTable()
	if !isAlter {
		return AlterSteps{}, false, nil
	}
	table := p.src[p.toks[nameStart].Start:p.toks[i-1].End]
	prefix := p.src[p.toks[0].Start:p.toks[i-1].End]
	bare := sqltext.UnquoteIdent(p.text(i - 1)) // the table's own name, for constraint names
	if !p.isWord(i, "add") {
		return AlterSteps{}, false, nil
	}
	i++
	end := len(p.toks)
	if end > 0 && p.kind(end-1) == sqltext.Semi {
		end--
	}
	switch {
	case p.isWord(i, "constraint"), p.isWord(i, "unique"), p.isWord(i, "primary"), p.isWord(i, "check"):
		steps, ok, err = p.addTableConstraint(i, end, table, bare)
	case p.isWord(i, "foreign"), p.isWord(i, "exclude"):
		return AlterSteps{}, false, nil
	default:
		steps, ok, err = p.addColumnConstraints(i, end, prefix, table, bare)
	}
	steps.Table = parts
	return steps, ok, err
}

// columnConstraintWord starts a column constraint (or a clause that
// follows the type) in ADD COLUMN.
var columnConstraintWord = map[string]bool{
	"constraint": true, "not": true, "null": true, "default": true, "unique": true, "primary": true,
	"check": true, "references": true, "deferrable": true, "initially": true, "generated": true, "collate": true,
}

func (p *pass) addColumnConstraints(i, end int, prefix, table, bare string) (AlterSteps, bool, error) {
	if p.isWord(i, "column") {
		i++
	}
	ifNotExists := false
	if p.isWord(i, "if") && p.isWord(i+1, "not") && p.isWord(i+2, "exists") {
		ifNotExists = true
		i += 3
	}
	if p.kind(i) != sqltext.Word && p.kind(i) != sqltext.Quoted {
		return AlterSteps{}, false, nil
	}
	column := p.text(i)
	i++
	typeStart := i
	for i < end && !(p.kind(i) == sqltext.Word && columnConstraintWord[strings.ToLower(p.text(i))]) {
		if p.kind(i) == sqltext.Open || p.isOp(i, "[") {
			if i = p.matchForward(i); i < 0 {
				return AlterSteps{}, false, nil
			}
		}
		i++
	}
	if i == typeStart {
		return AlterSteps{}, false, nil
	}
	typ := p.src[p.toks[typeStart].Start:p.toks[i-1].End]
	var (
		defaultExpr, collate, warning string
		notNull, unique, primary      bool
		indexName, pendingName        string // CONSTRAINT name: for the constraint after it
	)
	for i < end {
		if p.kind(i) != sqltext.Word {
			return AlterSteps{}, false, nil
		}
		named := pendingName
		pendingName = ""
		switch w := strings.ToLower(p.text(i)); {
		case w == "constraint":
			if p.kind(i+1) != sqltext.Word && p.kind(i+1) != sqltext.Quoted {
				return AlterSteps{}, false, nil
			}
			pendingName = sqltext.UnquoteIdent(p.text(i + 1))
			i += 2
		case w == "not" && p.isWord(i+1, "null"):
			notNull = true
			i += 2
		case w == "not" && p.isWord(i+1, "deferrable"):
			i += 2
		case w == "null":
			i++
		case w == "default":
			j := p.clauseEnd(i+1, end)
			if j == i+1 {
				return AlterSteps{}, false, nil
			}
			defaultExpr = p.src[p.toks[i+1].Start:p.toks[j-1].End]
			i = j
		case w == "collate":
			if i+1 >= end {
				return AlterSteps{}, false, nil
			}
			collate = p.src[p.toks[i].Start:p.toks[i+1].End]
			i += 2
		case w == "unique":
			if p.isWord(i+1, "nulls") {
				return AlterSteps{}, false, nil
			}
			unique, indexName = true, named
			i++
		case w == "primary" && p.isWord(i+1, "key"):
			primary, notNull, indexName = true, true, named
			i += 2
		case w == "check":
			return AlterSteps{}, true, refuseAddCheck()
		case w == "references":
			// REFERENCES t [(c)] [MATCH …] [ON DELETE …] [ON UPDATE …]
			i = p.clauseEnd(i+1, end)
			warning = "foreign keys cannot be added to an existing table (DuckDB); the column was added without its REFERENCES constraint, which is not enforced"
		case w == "deferrable", w == "initially":
			i = p.clauseEnd(i+1, end)
		default: // GENERATED … and what this does not read: DuckDB's answer
			return AlterSteps{}, false, nil
		}
	}
	if !notNull && !unique && !primary && warning == "" {
		return AlterSteps{}, false, nil // DEFAULT and NULL alone: DuckDB's own ADD COLUMN
	}
	if ifNotExists {
		// The constraints would land on the column that already exists.
		return AlterSteps{}, true, vsqlerr.New(vsqlerr.FeatureNotSupported, "ADD COLUMN IF NOT EXISTS with constraints is not supported").
			WithHint("Add the column with ADD COLUMN IF NOT EXISTS and its DEFAULT, then ALTER COLUMN … SET NOT NULL, or create a unique index for UNIQUE.")
	}
	add := prefix + " ADD COLUMN " + column + " " + typ
	if collate != "" {
		add += " " + collate
	}
	if defaultExpr != "" {
		add += " DEFAULT " + defaultExpr
	}
	steps := AlterSteps{Steps: []string{add}, Warning: warning, SetsNotNull: notNull}
	if notNull {
		steps.Steps = append(steps.Steps, prefix+" ALTER COLUMN "+column+" SET NOT NULL")
	}
	if unique || primary {
		name := indexName
		switch {
		case name != "":
		case primary:
			name = constraintIdent(bare, "pkey")
		default:
			name = constraintIdent(bare+"_"+sqltext.UnquoteIdent(column), "key")
		}
		steps.Indexes = append(steps.Indexes, "CREATE UNIQUE INDEX "+sqltext.QuoteIdent(name)+" ON "+table+" ("+column+")")
	}
	return steps, true, nil
}

// addTableConstraint: ADD [CONSTRAINT name] UNIQUE (cols) | PRIMARY KEY
// (cols) | CHECK (…), from token i (after ADD).
func (p *pass) addTableConstraint(i, end int, table, bare string) (AlterSteps, bool, error) {
	name := ""
	if p.isWord(i, "constraint") {
		if p.kind(i+1) != sqltext.Word && p.kind(i+1) != sqltext.Quoted {
			return AlterSteps{}, false, nil
		}
		name = sqltext.UnquoteIdent(p.text(i + 1))
		i += 2
	}
	primary := false
	switch {
	case p.isWord(i, "check"):
		return AlterSteps{}, true, refuseAddCheck()
	case p.isWord(i, "unique"):
		i++
	case p.isWord(i, "primary") && p.isWord(i+1, "key"):
		primary = true
		i += 2
	default:
		return AlterSteps{}, false, nil // FOREIGN KEY, EXCLUDE: the session's own answers
	}
	if p.kind(i) != sqltext.Open {
		return AlterSteps{}, false, nil // UNIQUE USING INDEX, NULLS NOT DISTINCT
	}
	close := p.matchForward(i)
	if close < 0 {
		return AlterSteps{}, false, nil
	}
	var columns []string
	for j := i + 1; j < close; j++ {
		if p.kind(j) != sqltext.Word && p.kind(j) != sqltext.Quoted {
			return AlterSteps{}, false, nil
		}
		columns = append(columns, p.text(j))
		if j+1 < close && !p.isOp(j+1, ",") {
			return AlterSteps{}, false, nil
		}
		j++
	}
	if len(columns) == 0 {
		return AlterSteps{}, false, nil
	}
	// DEFERRABLE, INITIALLY …, NOT VALID may follow; INCLUDE, WITH and
	// USING INDEX TABLESPACE are DuckDB's to refuse.
	for j := close + 1; j < end; j++ {
		switch strings.ToLower(p.text(j)) {
		case "deferrable", "initially", "deferred", "immediate", "not", "valid":
		default:
			return AlterSteps{}, false, nil
		}
	}
	if name == "" {
		if primary {
			name = constraintIdent(bare, "pkey")
		} else {
			parts := []string{bare}
			for _, c := range columns {
				parts = append(parts, sqltext.UnquoteIdent(c))
			}
			name = constraintIdent(strings.Join(parts, "_"), "key")
		}
	}
	steps := AlterSteps{SetsNotNull: primary}
	if primary {
		for _, c := range columns {
			steps.Steps = append(steps.Steps, "ALTER TABLE "+table+" ALTER COLUMN "+c+" SET NOT NULL")
		}
	}
	steps.Indexes = append(steps.Indexes, "CREATE UNIQUE INDEX "+sqltext.QuoteIdent(name)+" ON "+table+" ("+strings.Join(columns, ", ")+")")
	return steps, true, nil
}

// clauseEnd returns the first token from i (before end) that starts the
// next column constraint at depth 0: the end of a DEFAULT expression or
// of a REFERENCES clause.
func (p *pass) clauseEnd(i, end int) int {
	for i < end {
		if p.kind(i) == sqltext.Open || p.isOp(i, "[") {
			j := p.matchForward(i)
			if j < 0 {
				return end
			}
			i = j + 1
			continue
		}
		if p.kind(i) == sqltext.Word {
			switch strings.ToLower(p.text(i)) {
			case "constraint", "unique", "primary", "check", "references", "collate", "deferrable", "initially", "generated":
				return i
			case "default":
				if !p.isWord(i-1, "set") { // ON DELETE SET DEFAULT
					return i
				}
			case "not":
				if p.isWord(i+1, "null") || p.isWord(i+1, "deferrable") {
					return i
				}
			case "null":
				if !p.isWord(i-1, "is") && !p.isWord(i-1, "not") && !p.isWord(i-1, "set") {
					return i
				}
			}
		}
		i++
	}
	return end
}

// constraintIdent is PostgreSQL's name for a constraint: base_suffix,
// base cut so that the whole fits in 63 bytes.
func constraintIdent(base, suffix string) string {
	if room := maxIdentLen - len(suffix) - 1; len(base) > room {
		base = base[:room]
	}
	return base + "_" + suffix
}

func refuseAddCheck() error {
	return vsqlerr.New(vsqlerr.FeatureNotSupported, "a CHECK constraint cannot be added to an existing table").
		WithHint("DuckDB keeps CHECK constraints only from CREATE TABLE: declare it there, or create the table again with it and copy the rows (INSERT INTO new SELECT * FROM old).")
}

// DropConstraint is ALTER TABLE [IF EXISTS] [ONLY] table DROP CONSTRAINT
// [IF EXISTS] name [RESTRICT | CASCADE], read by AlterDropConstraint.
// Table is the table's name as written; Parts its parts, unquoted.
type DropConstraint struct {
	Table    string
	Parts    []string
	Name     string
	IfExists bool
}

// AlterDropConstraint reads ALTER TABLE … DROP CONSTRAINT name. DuckDB
// has no DROP CONSTRAINT; the session drops the unique index that
// AlterTableConstraints made for the constraint of that name.
func AlterDropConstraint(st sqltext.Statement) (DropConstraint, bool) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	nameStart, i, parts, isAlter := p.alterTable()
	if !isAlter {
		return DropConstraint{}, false
	}
	d := DropConstraint{Table: p.src[p.toks[nameStart].Start:p.toks[i-1].End], Parts: parts}
	if !p.isWord(i, "drop") || !p.isWord(i+1, "constraint") {
		return DropConstraint{}, false
	}
	i += 2
	if p.isWord(i, "if") && p.isWord(i+1, "exists") {
		d.IfExists = true
		i += 2
	}
	if p.kind(i) != sqltext.Word && p.kind(i) != sqltext.Quoted {
		return DropConstraint{}, false
	}
	d.Name = sqltext.UnquoteIdent(p.text(i))
	i++
	if p.isWord(i, "restrict") || p.isWord(i, "cascade") {
		i++
	}
	if i < len(p.toks) && p.kind(i) != sqltext.Semi {
		return DropConstraint{}, false
	}
	return d, true
}

// alterTable reads ALTER TABLE [IF EXISTS] [ONLY] name: the name's first
// token and the token after it, and its parts unquoted; ok is false for
// another statement.
func (p *pass) alterTable() (nameStart, next int, parts []string, ok bool) {
	if !p.isWord(0, "alter") || !p.isWord(1, "table") {
		return 0, 0, nil, false
	}
	i := 2
	if p.isWord(i, "if") && p.isWord(i+1, "exists") {
		i += 2
	}
	if p.isWord(i, "only") {
		i++
	}
	nameStart = i
	if next = p.nameEnd(i); next < 0 {
		return 0, 0, nil, false
	}
	for j := nameStart; j < next; j += 2 {
		parts = append(parts, sqltext.UnquoteIdent(p.text(j)))
	}
	return nameStart, next, parts, true
}
