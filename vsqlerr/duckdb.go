package vsqlerr

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// duckdbStates maps DuckDB's error classes to PostgreSQL SQLSTATEs. Classes
// whose messages cover several PostgreSQL conditions are refined by
// messageStates below.
var duckdbStates = map[duckdb.ErrorType]string{
	duckdb.ErrorTypeOutOfRange:           "22003", // numeric_value_out_of_range
	duckdb.ErrorTypeConversion:           "22P02", // invalid_text_representation
	duckdb.ErrorTypeUnknownType:          "42704", // undefined_object
	duckdb.ErrorTypeMismatchType:         "42804", // datatype_mismatch
	duckdb.ErrorTypeDivideByZero:         "22012", // division_by_zero
	duckdb.ErrorTypeObjectSize:           "54000", // program_limit_exceeded
	duckdb.ErrorTypeInvalidType:          "42804",
	duckdb.ErrorTypeSerialization:        "XX000",
	duckdb.ErrorTypeTransaction:          "40001", // serialization_failure (write-write conflicts)
	duckdb.ErrorTypeNotImplemented:       "0A000", // feature_not_supported
	duckdb.ErrorTypeExpression:           "42000",
	duckdb.ErrorTypeCatalog:              "42P01", // refined below
	duckdb.ErrorTypeParser:               "42601", // syntax_error
	duckdb.ErrorTypePlanner:              "42000",
	duckdb.ErrorTypeScheduler:            "XX000",
	duckdb.ErrorTypeExecutor:             "XX000",
	duckdb.ErrorTypeConstraint:           "23000", // refined below
	duckdb.ErrorTypeIndex:                "XX000",
	duckdb.ErrorTypeStat:                 "XX000",
	duckdb.ErrorTypeConnection:           "08000",
	duckdb.ErrorTypeSyntax:               "42601",
	duckdb.ErrorTypeSettings:             "42704",
	duckdb.ErrorTypeBinder:               "42703", // refined below
	duckdb.ErrorTypeNetwork:              "08000",
	duckdb.ErrorTypeOptimizer:            "XX000",
	duckdb.ErrorTypeNullPointer:          "XX000",
	duckdb.ErrorTypeIO:                   "58030", // io_error
	duckdb.ErrorTypeInterrupt:            "57014", // query_canceled
	duckdb.ErrorTypeFatal:                "XX000",
	duckdb.ErrorTypeInternal:             "XX000",
	duckdb.ErrorTypeInvalidInput:         "22023", // invalid_parameter_value
	duckdb.ErrorTypeOutOfMemory:          "53200", // out_of_memory
	duckdb.ErrorTypePermission:           "42501", // insufficient_privilege
	duckdb.ErrorTypeParameterNotResolved: "42P18", // indeterminate_datatype
	duckdb.ErrorTypeParameterNotAllowed:  "42P02", // undefined_parameter
	duckdb.ErrorTypeDependency:           "2BP01", // dependent_objects_still_exist
	duckdb.ErrorTypeHTTP:                 "08000",
	duckdb.ErrorTypeMissingExtension:     "0A000",
	duckdb.ErrorTypeAutoLoad:             "0A000",
	duckdb.ErrorTypeSequence:             "2200H", // sequence_generator_limit_exceeded
	duckdb.ErrorTypeInvalidConfiguration: "22023",
}

// messageStates refines a class by the message text, first match wins.
var messageStates = []struct {
	class    duckdb.ErrorType
	contains string
	state    string
}{
	{duckdb.ErrorTypeCatalog, "already exists", "42P07"},                       // duplicate_table
	{duckdb.ErrorTypeCatalog, "is main key table of the table", "2BP01"},       // DROP TABLE of a referenced table: dependent_objects_still_exist
	{duckdb.ErrorTypeCatalog, "Function with name", "42883"},                   // undefined_function
	{duckdb.ErrorTypeCatalog, "Schema with name", "3F000"},                     // invalid_schema_name
	{duckdb.ErrorTypeCatalog, "Type with name", "42704"},                       // undefined_object
	{duckdb.ErrorTypeCatalog, "Catalog with name", "3D000"},                    // invalid_catalog_name
	{duckdb.ErrorTypeCatalog, "Prepared statement", "26000"},                   // invalid_sql_statement_name
	{duckdb.ErrorTypeCatalog, "unrecognized configuration parameter", "42704"}, // undefined_object, as PostgreSQL's SET
	{duckdb.ErrorTypeConstraint, "uplicate key", "23505"},                      // unique_violation
	{duckdb.ErrorTypeConstraint, "PRIMARY KEY or UNIQUE constraint violation", "23505"},
	{duckdb.ErrorTypeConstraint, "Data contains duplicates on indexed column", "23505"}, // CREATE UNIQUE INDEX
	{duckdb.ErrorTypeConstraint, "NOT NULL constraint", "23502"},                        // not_null_violation
	{duckdb.ErrorTypeConstraint, "CHECK constraint", "23514"},                           // check_violation
	{duckdb.ErrorTypeConstraint, "foreign key", "23503"},                                // foreign_key_violation
	{duckdb.ErrorTypeBinder, "values were supplied", "42601"},                           // INSERT has more expressions than target columns
	// a window function where PostgreSQL allows none (WHERE, GROUP BY,
	// HAVING, UPDATE's SET, VALUES, RETURNING): windowing_error; inside an
	// aggregate's argument: grouping_error
	{duckdb.ErrorTypeBinder, "cannot contain window functions", "42P20"},
	{duckdb.ErrorTypeBinder, "window functions are not allowed", "42P20"},
	{duckdb.ErrorTypeBinder, "aggregate function calls cannot contain window function calls", "42803"},
	{duckdb.ErrorTypeNotImplemented, "ExpressionBinder::BindExpression: WINDOW", "42P20"},
	{duckdb.ErrorTypeBinder, "does not exist", "42883"},              // e.g. no function matches
	{duckdb.ErrorTypeBinder, "No function matches", "42883"},         // undefined_function
	{duckdb.ErrorTypeBinder, "Referenced column", "42703"},           // undefined_column
	{duckdb.ErrorTypeBinder, "must appear in the GROUP BY", "42803"}, // grouping_error
	{duckdb.ErrorTypeBinder, "Cannot compare", "42883"},
	{duckdb.ErrorTypeBinder, "Could not choose a best candidate", "42725"}, // ambiguous_function
	{duckdb.ErrorTypeBinder, "ambiguous", "42702"},                         // ambiguous_column
	{duckdb.ErrorTypeTransaction, "read-only", "25006"},                    // read_only_sql_transaction
	{duckdb.ErrorTypeInvalidInput, "read-only", "25006"},
	{duckdb.ErrorTypeConversion, "out of range", "22003"},
	// A zone name DuckDB does not know is a bad value, not a missing
	// feature (PostgreSQL: time zone "…" not recognized).
	{duckdb.ErrorTypeNotImplemented, "Unknown TimeZone", "22023"}, // invalid_parameter_value
	{duckdb.ErrorTypeBinder, "interval cannot be 0", "22023"},     // generate_series's step
	// json_build_object (DuckDB's json_object) with an odd number of
	// arguments, or a key that is not text: PostgreSQL's argument errors.
	{duckdb.ErrorTypeBinder, "json_object() requires an even number of arguments", "22023"},
	{duckdb.ErrorTypeBinder, "json_object() keys must be VARCHAR", "22023"},
	{duckdb.ErrorTypeConversion, "Unimplemented type for cast", "42846"},                // cannot_coerce: no cast between the types
	{duckdb.ErrorTypeInvalidInput, "More than one row returned by a subquery", "21000"}, // cardinality_violation
	{duckdb.ErrorTypeBinder, "DEFAULT value cannot contain column names", "0A000"},      // as PostgreSQL's DEFAULT
	// ON CONFLICT (cols) naming no unique index or primary key: PostgreSQL's
	// invalid_column_reference; DuckDB's upsert and RETURNING limits: no
	// such feature (where vsql does not write the statement otherwise)
	{duckdb.ErrorTypeBinder, "conflict target are not referenced by a UNIQUE/PRIMARY KEY", "42P10"},
	{duckdb.ErrorTypeBinder, "DO UPDATE SET clause cannot contain a subquery", "0A000"},
	{duckdb.ErrorTypeBinder, "SUBQUERY is not supported in returning statements", "0A000"},
	// DuckDB's parser understood the statement and has no such feature
	// (data-modifying WITH, FOR UPDATE, SELECT INTO, UPDATE … SET a[i]).
	// CREATE SEQUENCE's checks: PostgreSQL's invalid_parameter_value
	{duckdb.ErrorTypeParser, "ncrement must not be zero", "22023"},
	{duckdb.ErrorTypeParser, "must be less than MAXVALUE", "22023"},
	{duckdb.ErrorTypeParser, "cannot be greater than MAXVALUE", "22023"},
	{duckdb.ErrorTypeParser, "cannot be less than MINVALUE", "22023"},
	{duckdb.ErrorTypeParser, "A CTE needs a SELECT", "0A000"}, // feature_not_supported
	{duckdb.ErrorTypeParser, "not supported", "0A000"},
	{duckdb.ErrorTypeParser, "NOT IMPLEMENTED", "0A000"},
}

var vsqlPattern = regexp.MustCompile(`(?s)\[vsql:([a-z_]+)\] (.*?)(?:\n\nLINE \d+:.*)?$`)

var linePattern = regexp.MustCompile(`(?s)\n\nLINE (\d+): (.*)\n( *)\^\s*$`)

// fromDuckDB maps a DuckDB error, or returns nil when err is not one.
func fromDuckDB(err error) *Error {
	var de *duckdb.Error
	if !errors.As(err, &de) {
		if errors.Is(err, context.Canceled) {
			return New(QueryCanceled, "canceling statement due to user request")
		}
		return nil
	}
	state, ok := duckdbStates[de.Type]
	if !ok {
		state = "XX000"
	}
	for _, m := range messageStates {
		if m.class == de.Type && strings.Contains(de.Msg, m.contains) {
			state = m.state
			break
		}
	}
	msg := de.Msg
	// A vsql error raised inside a vsql_* function comes back wrapped in a
	// DuckDB error: recover its code, SQLSTATE and hint.
	inner := msg
	if k := strings.LastIndex(msg, "(Error: "); k >= 0 && strings.Contains(msg[k:], "[vsql:") {
		// raised inside a CHECK constraint: DuckDB wraps it as "CHECK
		// constraint failed … <the constraint's text> (Error: [vsql:code]
		// message)" (a Go function's error after "database/sql/driver:
		// API error: "), and the constraint's text may hold [vsql: too
		inner = msg[k+len("(Error: "):]
	}
	if m := vsqlPattern.FindStringSubmatch(inner); m != nil {
		if _, ok := codes[Code(m[1])]; ok {
			text, hint, hasHint := strings.Cut(m[2], hintMark)
			text = strings.TrimSpace(text)
			if inner != msg && strings.HasSuffix(text, ")") {
				text = text[:len(text)-1]
			}
			e := New(Code(m[1]), "%s", text)
			if hasHint {
				e.Hint = strings.TrimSpace(hint)
			}
			e.Err = err
			return e
		}
	}
	if de.Type == duckdb.ErrorTypeInterrupt {
		return New(QueryCanceled, "canceling statement due to user request")
	}
	out := &Error{SQLState: state, Severity: "ERROR", Err: err}
	out.Message, out.line, out.col = splitLineContext(msg)
	switch {
	case de.Type == duckdb.ErrorTypePermission:
		// DuckDB's own file boundary (enable_external_access off,
		// allowed_directories): a server file outside what vsqld allows.
		out.Code, out.SQLState = ServerFileAccess, "42501"
		out.Hint = "DuckDB opens only vsql's own directories and the --file-access directories (for admins); " + lookup(ServerFileAccess).Hint
	case de.Type == duckdb.ErrorTypeInvalidInput && strings.Contains(msg, "the configuration has been locked"):
		out.Code, out.SQLState = PermissionDenied, "42501"
		out.Hint = "vsqld locks DuckDB's configuration at start; admins may change only memory_limit, preserve_insertion_order and the other tuning settings the README lists (Security: server files and settings)."
	}
	return out
}

// splitLineContext removes DuckDB's trailing "LINE n: <excerpt>" context
// from msg and returns the line and 0-based column it points at (0, 0 when
// there is none or DuckDB shortened the excerpt so the column is unknown).
func splitLineContext(msg string) (string, int, int) {
	m := linePattern.FindStringSubmatchIndex(msg)
	if m == nil {
		return msg, 0, 0
	}
	line, _ := strconv.Atoi(msg[m[2]:m[3]])
	excerpt := msg[m[4]:m[5]]
	caret := m[7] - m[6] - len("LINE ") - (m[3] - m[2]) - len(": ")
	if strings.HasPrefix(excerpt, "...") || caret < 0 || line <= 0 {
		return msg[:m[0]], 0, 0
	}
	return msg[:m[0]], line, caret
}

// ResolvePosition turns the line and column DuckDB reported into a 1-based
// character position within sql, the statement that failed.
func (e *Error) ResolvePosition(sql string) {
	if e.line <= 0 || e.Position != 0 {
		return
	}
	off := 0
	for i := 1; i < e.line; i++ {
		nl := strings.IndexByte(sql[off:], '\n')
		if nl < 0 {
			return
		}
		off += nl + 1
	}
	byteOff := off + e.col
	if byteOff > len(sql) {
		return
	}
	e.Position = len([]rune(sql[:byteOff])) + 1
}
