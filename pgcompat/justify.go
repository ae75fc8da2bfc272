package pgcompat

import (
	"database/sql/driver"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
)

// PostgreSQL's justify_hours, justify_days and justify_interval, in Go:
// DuckDB keeps an interval's months, days and microseconds apart, as
// PostgreSQL does, but has no function that moves whole days out of the
// microseconds or whole 30-day months out of the days.

const usecsPerDay = 24 * 60 * 60 * 1000000

// justify carries 24 hours into a day (hours) and 30 days into a month
// (days), then gives the three fields one sign as PostgreSQL does.
func justify(iv duckdb.Interval, hours, days bool) duckdb.Interval {
	months, dd, micros := int64(iv.Months), int64(iv.Days), iv.Micros
	if hours {
		whole := micros / usecsPerDay
		micros -= whole * usecsPerDay
		dd += whole
	}
	if days {
		whole := dd / 30
		dd -= whole * 30
		months += whole
		switch {
		case months > 0 && (dd < 0 || hours && dd == 0 && micros < 0):
			dd += 30
			months--
		case months < 0 && (dd > 0 || hours && dd == 0 && micros > 0):
			dd -= 30
			months++
		}
	}
	if hours {
		switch {
		case dd > 0 && micros < 0:
			micros += usecsPerDay
			dd--
		case dd < 0 && micros > 0:
			micros -= usecsPerDay
			dd++
		}
	}
	return duckdb.Interval{Months: int32(months), Days: int32(dd), Micros: micros}
}

func justifyOf(hours, days bool) []scalar {
	return []scalar{{in: []duckdb.Type{tIval}, out: tIval, run: func(a []driver.Value) (any, error) {
		return justify(a[0].(duckdb.Interval), hours, days), nil
	}}}
}

func init() {
	goFunctions["__vsql_justify_hours"] = justifyOf(true, false)
	goFunctions["__vsql_justify_days"] = justifyOf(false, true)
	goFunctions["__vsql_justify_interval"] = justifyOf(true, true)
	setup = append(setup,
		`CREATE OR REPLACE MACRO `+schema+`.justify_hours(i) AS __vsql_justify_hours(i)`,
		`CREATE OR REPLACE MACRO `+schema+`.justify_days(i) AS __vsql_justify_days(i)`,
		`CREATE OR REPLACE MACRO `+schema+`.justify_interval(i) AS __vsql_justify_interval(i)`,
		// numeric's scale functions, on the value's decimal text (DuckDB's
		// DECIMAL keeps the type's scale; PostgreSQL's numeric a value's)
		`CREATE OR REPLACE MACRO `+schema+`.scale(x) AS CAST(length(split_part(CAST(x AS VARCHAR), '.', 2)) AS INTEGER)`,
		`CREATE OR REPLACE MACRO `+schema+`.min_scale(x) AS CAST(length(rtrim(split_part(CAST(x AS VARCHAR), '.', 2), '0')) AS INTEGER)`,
		// div(a, b): the integer part of a / b, truncated toward zero
		`CREATE OR REPLACE MACRO `+schema+`.div(a, b) AS CAST(trunc(a / `+schema+`.pg_divisor(b, a)) AS DECIMAL(38, 0))`,
	)
	sqltext.ProvideFunctions("justify_hours", "justify_days", "justify_interval", "scale", "min_scale", "div")
}
