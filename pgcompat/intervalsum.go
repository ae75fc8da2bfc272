package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// sum over interval, which DuckDB's sum lacks. PostgreSQL's sum(interval)
// adds the months, the days and the microseconds of the values apart
// (interval_pl: '20 days' + '20 days' is '40 days', not '1 mon 10 days'),
// so vsql sums each field with DuckDB's sum and makes the interval of the
// three sums (pg_interval_of: 22008 interval out of range when a field's
// sum does not fit, as in PostgreSQL). As for money (MoneySum), the server
// prepares the statement as it is and, only after DuckDB refused it for
// sum(INTERVAL), again with the plain calls sent to pg_sum, whose INTERVAL
// overload is that sum; the calls a macro cannot take (FILTER, OVER, ORDER
// BY) one at a time through IntervalSumCall. sum(DISTINCT interval) is left
// to DuckDB's refusal: the distinct values are intervals, not fields.

// SumOverInterval reports whether err is DuckDB's refusal of
// sum(interval).
func SumOverInterval(err error) bool {
	return err != nil && strings.Contains(err.Error(), "'sum(INTERVAL)'")
}

// SumRefused reports whether err is DuckDB's refusal of a sum over a type
// vsql sums itself (money or interval).
func SumRefused(err error) bool { return SumOverMoney(err) || SumOverInterval(err) }

// NotInterval reports whether err is DuckDB's refusal of an
// IntervalSumCall: the sum was over another type.
func NotInterval(err error) bool {
	return err != nil && strings.Contains(err.Error(), "pg_interval_months() does not support")
}

// IntervalSumCall is the statement with its k-th call of sum that MoneySum
// left (FILTER, OVER or ORDER BY) taken as a sum over interval: sum(x)
// FILTER (…) OVER w is pg_interval_of(sum(pg_interval_months(x)) FILTER
// (…) OVER w, … days …, … microseconds …), whose field macros take an
// interval only (so a sum of another type fails to bind: NotInterval).
// ok is false for a call with DISTINCT, which stays as it was.
func IntervalSumCall(st sqltext.Statement, k int) (out sqltext.Statement, ok bool) {
	p := pass{src: st.SQL, toks: st.Tokens()}
	for _, c := range sumCalls(&p) {
		if c.plain {
			continue
		}
		if k--; k >= 0 {
			continue
		}
		if p.isWord(c.open+1, "distinct") {
			return st, false
		}
		arg := p.src[p.toks[c.arg].Start:p.toks[c.argEnd].End]
		after := p.src[p.toks[c.close].End:p.toks[c.end].End]
		field := func(name string) string {
			return "sum(" + schema + ".pg_interval_" + name + "(" + arg + "))" + after
		}
		p.replace(p.toks[c.name].Start, p.toks[c.end].End,
			schema+".pg_interval_of("+field("months")+", "+field("days")+", "+field("micros")+")")
		return st.Edit(p.apply()), true
	}
	return st, false
}
