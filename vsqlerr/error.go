package vsqlerr

import (
	"errors"
	"fmt"
)

// Error is an error with everything an ErrorResponse carries.
type Error struct {
	Code     Code   // symbolic vsql code; "" for errors raised by DuckDB
	SQLState string // five-character SQLSTATE
	Severity string // ERROR (default) or FATAL
	Message  string
	Detail   string
	Hint     string
	Where    string // the CONTEXT line (COPY t, line 3, column a: "x")
	Position int    // 1-based character position in the statement, 0 if none
	Err      error  // the underlying error, if any

	line, col int // DuckDB's LINE context, resolved by ResolvePosition
}

func (e *Error) Error() string {
	if e.Code != "" {
		return "[vsql:" + string(e.Code) + "] " + e.Message
	}
	return e.Message
}

// hintMark separates a message from its own hint in ForEngine's text.
const hintMark = "\n[vsql:hint] "

// ForEngine is err as a vsql_* function hands it to DuckDB, which keeps
// only the text: a vsql error with a hint of its own (not its code's)
// carries the hint in the text, and From reads it back.
func ForEngine(err error) error {
	var ve *Error
	if !errors.As(err, &ve) || ve.Code == "" || ve.Hint == "" || ve.Hint == lookup(ve.Code).Hint {
		return err
	}
	return engineError{ve}
}

type engineError struct{ e *Error }

func (x engineError) Error() string { return x.e.Error() + hintMark + x.e.Hint }
func (x engineError) Unwrap() error { return x.e }

func (e *Error) Unwrap() error { return e.Err }

// New returns an error with the code's SQLSTATE and hint.
func New(code Code, format string, args ...any) *Error {
	info := lookup(code)
	return &Error{Code: code, SQLState: info.SQLState, Severity: "ERROR", Message: fmt.Sprintf(format, args...), Hint: info.Hint}
}

// Wrap is New with an underlying error kept for errors.Is/As.
func Wrap(err error, code Code, format string, args ...any) *Error {
	e := New(code, format, args...)
	e.Err = err
	return e
}

// WithHint replaces the default hint.
func (e *Error) WithHint(format string, args ...any) *Error {
	e.Hint = fmt.Sprintf(format, args...)
	return e
}

// Fatal marks the error as ending the session.
func (e *Error) Fatal() *Error {
	e.Severity = "FATAL"
	return e
}

// From converts any error into an *Error: vsql errors pass through, DuckDB
// errors are mapped, everything else becomes an internal error.
func From(err error) *Error {
	var ve *Error
	if errors.As(err, &ve) {
		return ve
	}
	if de := fromDuckDB(err); de != nil {
		return de
	}
	return &Error{Code: Internal, SQLState: "XX000", Severity: "ERROR", Message: err.Error(), Hint: lookup(Internal).Hint, Err: err}
}

// IsCode reports whether err is a vsql error with the given code.
func IsCode(err error, code Code) bool {
	var ve *Error
	return errors.As(err, &ve) && ve.Code == code
}
