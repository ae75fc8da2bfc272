package pgcompat

import (
	"math"
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// SequenceParams are a sequence's parameters, as duckdb_sequences() shows
// them and CREATE SEQUENCE sets them.
type SequenceParams struct {
	Start, Min, Max, Increment int64
	Cycle                      bool
}

// AlterSequence is PostgreSQL's ALTER SEQUENCE [IF EXISTS] name with the
// options that change its parameters or position, which DuckDB lacks:
// AS type, INCREMENT [BY] n, [NO] MINVALUE, [NO] MAXVALUE, START [WITH] n,
// RESTART [[WITH] n], CACHE n (no effect), [NO] CYCLE, OWNED BY (not
// recorded), SET LOGGED and SET UNLOGGED (no effect).
type AlterSequence struct {
	Name     string // as written
	IfExists bool
	NoChange bool // only CACHE, OWNED BY, SET [UN]LOGGED: nothing to do

	asType               string
	increment            *int64
	min, max, start      *int64
	noMin, noMax         bool
	cycle                *bool
	restart, restartWith bool
	restartAt            int64
}

// ReadAlterSequence reads ALTER SEQUENCE with those options; ok is false
// for another statement or option (RENAME TO, SET SCHEMA, OWNER TO:
// DuckDB's answer). A malformed number is a syntax error.
func ReadAlterSequence(st sqltext.Statement) (a AlterSequence, ok bool, err error) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	if !p.isWord(0, "alter") || !p.isWord(1, "sequence") {
		return a, false, nil
	}
	i := 2
	if p.isWord(i, "if") && p.isWord(i+1, "exists") {
		a.IfExists = true
		i += 2
	}
	nameStart := i
	if i = p.nameEnd(i); i < 0 {
		return a, false, nil
	}
	a.Name = p.src[p.toks[nameStart].Start:p.toks[i-1].End]
	end := len(p.toks)
	if end > 0 && p.kind(end-1) == sqltext.Semi {
		end--
	}
	if i >= end {
		return a, false, nil
	}
	// number reads an optionally signed integer at token j.
	number := func(j int) (int64, int, bool) {
		sign := ""
		if p.isOp(j, "-") || p.isOp(j, "+") {
			sign = p.text(j)
			j++
		}
		if p.kind(j) != sqltext.Number {
			return 0, j, false
		}
		v, err := strconv.ParseInt(sign+p.text(j), 10, 64)
		return v, j + 1, err == nil
	}
	// value reads the number of option what at token j into *dst.
	value := func(j int, what string, dst **int64) (int, error) {
		v, next, ok := number(j)
		if !ok {
			return j, vsqlerr.New(vsqlerr.SyntaxError, "syntax error at or near %q in ALTER SEQUENCE … %s", p.text(j), what)
		}
		*dst = &v
		return next, nil
	}
	changes := false
	for i < end {
		switch {
		case p.isWord(i, "as") && p.kind(i+1) == sqltext.Word:
			a.asType = strings.ToLower(p.text(i + 1))
			i += 2
		case p.isWord(i, "increment"):
			i++
			if p.isWord(i, "by") {
				i++
			}
			if i, err = value(i, "INCREMENT", &a.increment); err != nil {
				return a, true, err
			}
		case p.isWord(i, "minvalue"):
			if i, err = value(i+1, "MINVALUE", &a.min); err != nil {
				return a, true, err
			}
		case p.isWord(i, "maxvalue"):
			if i, err = value(i+1, "MAXVALUE", &a.max); err != nil {
				return a, true, err
			}
		case p.isWord(i, "no") && p.isWord(i+1, "minvalue"):
			a.noMin, i = true, i+2
		case p.isWord(i, "no") && p.isWord(i+1, "maxvalue"):
			a.noMax, i = true, i+2
		case p.isWord(i, "no") && p.isWord(i+1, "cycle"):
			f := false
			a.cycle, i = &f, i+2
		case p.isWord(i, "cycle"):
			t := true
			a.cycle, i = &t, i+1
		case p.isWord(i, "start"):
			i++
			if p.isWord(i, "with") {
				i++
			}
			if i, err = value(i, "START", &a.start); err != nil {
				return a, true, err
			}
		case p.isWord(i, "restart"):
			a.restart = true
			i++
			if p.isWord(i, "with") {
				i++
			}
			if v, next, ok := number(i); ok {
				a.restartWith, a.restartAt, i = true, v, next
			}
		case p.isWord(i, "cache"):
			var cache *int64 // read, not kept
			if i, err = value(i+1, "CACHE", &cache); err != nil {
				return a, true, err
			}
			if *cache <= 0 {
				return a, true, vsqlerr.New(vsqlerr.SequenceParameter, "CACHE (%d) must be greater than zero", *cache)
			}
			continue // no effect on the values
		case p.isWord(i, "set") && (p.isWord(i+1, "logged") || p.isWord(i+1, "unlogged")):
			i += 2
			continue // DuckDB's sequences are always in its write-ahead log
		case p.isWord(i, "owned") && p.isWord(i+1, "by"):
			i += 2
			for i < end && (p.kind(i) == sqltext.Word || p.kind(i) == sqltext.Quoted || p.isOp(i, ".")) {
				i++
			}
			continue // not recorded
		default:
			return a, false, nil
		}
		changes = true
	}
	a.NoChange = !changes // CACHE and OWNED BY alone
	return a, true, nil
}

// sequenceTypeRange is the range of a sequence type's values.
var sequenceTypeRange = map[string][2]int64{
	"smallint": {math.MinInt16, math.MaxInt16}, "int2": {math.MinInt16, math.MaxInt16},
	"integer": {math.MinInt32, math.MaxInt32}, "int": {math.MinInt32, math.MaxInt32}, "int4": {math.MinInt32, math.MaxInt32},
	"bigint": {math.MinInt64, math.MaxInt64}, "int8": {math.MinInt64, math.MaxInt64},
}

// typeOfBounds guesses the type a sequence was made with from its
// bounds (DuckDB's sequences are bigint; AS type only set the bounds).
func typeOfBounds(old SequenceParams) string {
	for _, t := range []string{"smallint", "integer"} {
		r := sequenceTypeRange[t]
		if old.Increment > 0 && old.Max == r[1] || old.Increment < 0 && old.Min == r[0] {
			return t
		}
	}
	return "bigint"
}

// Apply gives the parameters after the ALTER of a sequence whose
// parameters are old; restart is set when the statement restarts the
// sequence (its next nextval then returns at). PostgreSQL's checks, with
// its messages (22023).
func (a AlterSequence) Apply(old SequenceParams) (p SequenceParams, restart bool, at int64, err error) {
	p = old
	oldType := typeOfBounds(old)
	typ := oldType
	if a.asType != "" {
		if _, ok := sequenceTypeRange[a.asType]; !ok {
			return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "sequence type must be smallint, integer, or bigint")
		}
		typ = a.asType
	}
	if a.increment != nil {
		if *a.increment == 0 {
			return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "INCREMENT must not be zero")
		}
		p.Increment = *a.increment
	}
	r, oldR := sequenceTypeRange[typ], sequenceTypeRange[oldType]
	// bounds: given, NO …, or (when the type changes) the new type's if
	// they were the old type's (whichever the direction, as PostgreSQL
	// resets them)
	switch {
	case a.max != nil:
		p.Max = *a.max
	case typ != oldType && old.Max == oldR[1]:
		p.Max = r[1]
	case a.noMax || typ != oldType && old.Max == -1:
		p.Max = r[1]
		if p.Increment < 0 {
			p.Max = -1
		}
	}
	switch {
	case a.min != nil:
		p.Min = *a.min
	case typ != oldType && old.Min == oldR[0]:
		p.Min = r[0]
	case a.noMin || typ != oldType && old.Min == 1:
		p.Min = r[0]
		if p.Increment > 0 {
			p.Min = 1
		}
	}
	if p.Max > r[1] || p.Max < r[0] {
		return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "MAXVALUE (%d) is out of range for sequence data type %s", p.Max, typ)
	}
	if p.Min > r[1] || p.Min < r[0] {
		return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "MINVALUE (%d) is out of range for sequence data type %s", p.Min, typ)
	}
	if p.Min >= p.Max {
		return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "MINVALUE (%d) must be less than MAXVALUE (%d)", p.Min, p.Max)
	}
	if a.start != nil {
		p.Start = *a.start
	}
	if p.Start < p.Min {
		return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "START value (%d) cannot be less than MINVALUE (%d)", p.Start, p.Min)
	}
	if p.Start > p.Max {
		return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "START value (%d) cannot be greater than MAXVALUE (%d)", p.Start, p.Max)
	}
	if a.cycle != nil {
		p.Cycle = *a.cycle
	}
	if a.restart {
		restart, at = true, p.Start
		if a.restartWith {
			at = a.restartAt
		}
		if at < p.Min {
			return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "RESTART value (%d) cannot be less than MINVALUE (%d)", at, p.Min)
		}
		if at > p.Max {
			return p, false, 0, vsqlerr.New(vsqlerr.SequenceParameter, "RESTART value (%d) cannot be greater than MAXVALUE (%d)", at, p.Max)
		}
	}
	return p, restart, at, nil
}
