package pgcompat

// PostgreSQL's trigonometric functions in degrees (sind, cosd, tand, cotd,
// asind, acosd, atand, atan2d), as PostgreSQL 15's float.c computes them:
// the argument is reduced to the first quadrant and the result scaled by
// the function's value at 30, 45 or 60 degrees, so that the multiples of
// 30, 45 and 90 degrees give exact results (sind(30) is 0.5, tand(45) is
// 1, cotd(90) is 0). The C library's sin, cos, asin, acos, atan and
// atan2 are called through cgo: the ones PostgreSQL and DuckDB's own
// sin, cos, … call, where Go's math package may differ in the last bit.

/*
#cgo LDFLAGS: -lm
#include <math.h>
*/
import "C"

import (
	"database/sql/driver"
	"errors"
	"math"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
)

func csin(x float64) float64  { return float64(C.sin(C.double(x))) }
func ccos(x float64) float64  { return float64(C.cos(C.double(x))) }
func casin(x float64) float64 { return float64(C.asin(C.double(x))) }
func cacos(x float64) float64 { return float64(C.acos(C.double(x))) }
func catan(x float64) float64 { return float64(C.atan(C.double(x))) }
func catan2(y, x float64) float64 {
	return float64(C.atan2(C.double(y), C.double(x)))
}

// radiansPerDegree is a variable: Go would compute a constant expression
// such as 30 * radiansPerDegree exactly, C in double precision.
var radiansPerDegree = 0.0174532925199432957692

// The constants float.c's init_degree_constants computes once.
var (
	sin30         = csin(30 * radiansPerDegree)
	oneMinusCos60 = 1 - ccos(60*radiansPerDegree)
	asin05        = casin(0.5)
	acos05        = cacos(0.5)
	atan1         = catan(1)
	tan45         = sindQ1(45) / cosdQ1(45)
	cot45         = cosdQ1(45) / sindQ1(45)
)

func sind0To30(x float64) float64 { return (csin(x*radiansPerDegree) / sin30) / 2 }
func cosd0To60(x float64) float64 {
	return 1 - ((1-ccos(x*radiansPerDegree))/oneMinusCos60)/2
}

func sindQ1(x float64) float64 {
	if x <= 30 {
		return sind0To30(x)
	}
	return cosd0To60(90 - x)
}

func cosdQ1(x float64) float64 {
	if x <= 60 {
		return cosd0To60(x)
	}
	return sind0To30(90 - x)
}

func asindQ1(x float64) float64 {
	if x <= 0.5 {
		return (casin(x) / asin05) * 30
	}
	return 90 - (cacos(x)/acos05)*60
}

func acosdQ1(x float64) float64 {
	if x <= 0.5 {
		return 90 - (casin(x)/asin05)*30
	}
	return (cacos(x) / acos05) * 60
}

// errTrigRange is PostgreSQL's error for an argument outside the
// function's domain (an infinite angle, asind(2)).
var errTrigRange = errors.New("[vsql:numeric_value_out_of_range] input is out of range")

// degrees reduces x (finite) to [0, 90] as float.c does: fmod by 360,
// then the symmetries the function f has. neg[k] tells whether f changes
// sign under the k-th step (x < 0 → -x; x > 180 → 360 - x; x > 90 →
// 180 - x).
func degrees(x float64, neg [3]bool) (float64, float64) {
	sign := 1.0
	x = float64(C.fmod(C.double(x), 360))
	if x < 0 {
		x = -x
		if neg[0] {
			sign = -sign
		}
	}
	if x > 180 {
		x = 360 - x
		if neg[1] {
			sign = -sign
		}
	}
	if x > 90 {
		x = 180 - x
		if neg[2] {
			sign = -sign
		}
	}
	return x, sign
}

// angleFunc is one of sind, cosd, tand and cotd: NaN gives NaN, an
// infinite angle is an error. tand and cotd give 0 for minus zero, as
// float.c does.
func angleFunc(neg [3]bool, f func(x float64) float64) func(a []driver.Value) (any, error) {
	noMinusZero := neg == [3]bool{true, true, true}
	return func(a []driver.Value) (any, error) {
		x := a[0].(float64)
		if math.IsNaN(x) {
			return math.NaN(), nil
		}
		if math.IsInf(x, 0) {
			return nil, errTrigRange
		}
		x, sign := degrees(x, neg)
		r := sign * f(x)
		if noMinusZero && r == 0 {
			r = 0
		}
		return r, nil
	}
}

func trigFunctions() map[string][]scalar {
	f1 := func(run func(a []driver.Value) (any, error)) []scalar {
		return []scalar{{in: []duckdb.Type{tFloat}, out: tFloat, run: run}}
	}
	return map[string][]scalar{
		"__vsql_sind": f1(angleFunc([3]bool{true, true, false}, sindQ1)),
		"__vsql_cosd": f1(angleFunc([3]bool{false, false, true}, cosdQ1)),
		"__vsql_tand": f1(angleFunc([3]bool{true, true, true}, func(x float64) float64 {
			return (sindQ1(x) / cosdQ1(x)) / tan45
		})),
		"__vsql_cotd": f1(angleFunc([3]bool{true, true, true}, func(x float64) float64 {
			return (cosdQ1(x) / sindQ1(x)) / cot45
		})),
		"__vsql_asind": f1(inverseFunc(func(x float64) float64 {
			if x >= 0 {
				return asindQ1(x)
			}
			return -asindQ1(-x)
		})),
		"__vsql_acosd": f1(inverseFunc(func(x float64) float64 {
			if x >= 0 {
				return acosdQ1(x)
			}
			return 90 + asindQ1(-x)
		})),
		"__vsql_atand": f1(func(a []driver.Value) (any, error) {
			x := a[0].(float64)
			if math.IsNaN(x) {
				return math.NaN(), nil
			}
			return (catan(x) / atan1) * 45, nil
		}),
		"__vsql_atan2d": {{in: []duckdb.Type{tFloat, tFloat}, out: tFloat, run: func(a []driver.Value) (any, error) {
			y, x := a[0].(float64), a[1].(float64)
			if math.IsNaN(y) || math.IsNaN(x) {
				return math.NaN(), nil
			}
			return (catan2(y, x) / atan1) * 45, nil
		}}},
	}
}

// inverseFunc is asind or acosd: NaN gives NaN, an argument outside
// [-1, 1] is an error.
func inverseFunc(f func(x float64) float64) func(a []driver.Value) (any, error) {
	return func(a []driver.Value) (any, error) {
		x := a[0].(float64)
		if math.IsNaN(x) {
			return math.NaN(), nil
		}
		if x < -1 || x > 1 {
			return nil, errTrigRange
		}
		return f(x), nil
	}
}

func init() {
	for name, set := range trigFunctions() {
		goFunctions[name] = set
	}
	for _, f := range []string{"sind", "cosd", "tand", "cotd", "asind", "acosd", "atand"} {
		setup = append(setup, `CREATE OR REPLACE MACRO `+schema+`.`+f+`(x) AS __vsql_`+f+`(x)`)
		sqltext.ProvideFunctions(f)
	}
	setup = append(setup, `CREATE OR REPLACE MACRO `+schema+`.atan2d(y, x) AS __vsql_atan2d(y, x)`)
	sqltext.ProvideFunctions("atan2d")
}
