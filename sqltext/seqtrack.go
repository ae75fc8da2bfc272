package sqltext

import (
	"regexp"
	"strings"
)

// Per-session sequence values (PostgreSQL's currval and lastval).
//
// DuckDB's currval is the sequence's last value in the whole database,
// and it has no lastval. PostgreSQL answers both from the values nextval
// returned in the calling session. So every nextval call the server runs
// for a client, whether the client wrote it or a column's DEFAULT holds it
// (serial and identity columns), goes through an engine function that
// records the value for the caller, named by the session's token in a
// DuckDB variable only the caller's connection holds:
//
//	nextval('s')  →  __vsql_nextval(getvariable('__vsql_session'), 's', nextval('s'))
//
// currval and lastval read what the caller recorded.
const (
	// SessionVariable is the DuckDB variable holding the session's token
	// ("<pid>:<random hex>"), set when the session starts.
	SessionVariable = "__vsql_session"
	// NextvalFunction(token, name, value) records value as the caller's
	// last value of sequence name and returns it.
	NextvalFunction = "__vsql_nextval"
	// CurrvalFunction(token, name, check) is the caller's last value of
	// sequence name (check, a never-evaluated currval(name), makes DuckDB
	// find the sequence when it binds the call).
	CurrvalFunction = "__vsql_currval"
	// LastvalFunction(token) is the value the caller's last nextval
	// returned.
	LastvalFunction = "__vsql_lastval"
)

// TrackedNextval is the call of nextval on arg (SQL text naming the
// sequence: a string literal, a parameter) that records its value for
// the calling session. arg appears twice: it must have no side effects.
func TrackedNextval(arg string) string {
	return NextvalFunction + "(getvariable('" + SessionVariable + "'), " + arg + ", nextval(" + arg + "))"
}

// TrackedCurrval is currval of arg as the calling session sees it.
func TrackedCurrval(arg string) string {
	return CurrvalFunction + "(getvariable('" + SessionVariable + "'), " + arg + ", CASE WHEN false THEN currval(" + arg + ") END)"
}

// TrackedLastval is lastval() of the calling session.
func TrackedLastval() string {
	return LastvalFunction + "(getvariable('" + SessionVariable + "'))"
}

// trackedNextval matches TrackedNextval of a string literal, as DuckDB
// keeps it in a column's DEFAULT.
var trackedNextval = regexp.MustCompile(`__vsql_nextval\(getvariable\('__vsql_session'\), '(?:[^']|'')*', (nextval\('(?:[^']|'')*'\))\)`)

// UntrackDefault is a column's DEFAULT as DuckDB keeps it with each
// recording nextval call written as the plain nextval call (for SQL that
// sets the default again through the statement rewrite, which records
// it anew).
func UntrackDefault(def string) string {
	if !strings.Contains(def, NextvalFunction) {
		return def
	}
	return trackedNextval.ReplaceAllString(def, "$1")
}
