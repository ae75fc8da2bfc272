package pgcompat

import (
	"database/sql/driver"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's array functions DuckDB lacks or answers otherwise:
// cardinality of an array (the number of its elements, at every depth;
// DuckDB's counts a MAP's entries only, which it still does here) and
// width_bucket(operand, thresholds) (the bucket of operand given the
// sorted lower bounds of the buckets).

// cardinality counts a list's elements at every depth (0 for an empty
// list); of a MAP, its entries.
func cardinality(a []driver.Value) (any, error) {
	var count func(v any) int64
	count = func(v any) int64 {
		list, ok := v.([]any)
		if !ok {
			return 1
		}
		var n int64
		for _, e := range list {
			n += count(e)
		}
		return n
	}
	switch v := a[0].(type) {
	case []any:
		return count(v), nil
	case duckdb.Map:
		return int64(len(v)), nil
	}
	return nil, invalidArgument("cardinality() takes an array")
}

// arrayDims is array_dims(a): the bounds of each dimension, [1:n1][1:n2]…
// (vsql's arrays start at 1), from the first element at each depth (a
// PostgreSQL array is rectangular); NULL for an empty array.
func arrayDims(a []driver.Value) (any, error) {
	lens, err := arrayShape(a[0])
	if err != nil || len(lens) == 0 {
		return nil, err
	}
	var b strings.Builder
	for _, n := range lens {
		fmt.Fprintf(&b, "[1:%d]", n)
	}
	return b.String(), nil
}

// arrayNdims is array_ndims(a): its number of dimensions, NULL for an
// empty array.
func arrayNdims(a []driver.Value) (any, error) {
	lens, err := arrayShape(a[0])
	if err != nil || len(lens) == 0 {
		return nil, err
	}
	return int32(len(lens)), nil
}

// arrayLength is array_length(a, d) (and array_upper's, every lower
// bound being 1): the length of dimension d, NULL for a dimension the
// array does not have.
func arrayLength(a []driver.Value) (any, error) {
	lens, err := arrayShape(a[0])
	d, ok := a[1].(int64)
	if err != nil || !ok || d < 1 || d > int64(len(lens)) {
		return nil, err
	}
	return int32(lens[d-1]), nil
}

// arrayShape is the length of each dimension of the list v (none for an
// empty one).
func arrayShape(v any) ([]int, error) {
	if _, ok := v.([]any); !ok {
		return nil, invalidArgument("the argument must be an array")
	}
	var lens []int
	for {
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return lens, nil
		}
		lens = append(lens, len(list))
		v = list[0]
	}
}

// widthBucketArray is width_bucket(operand, thresholds): how many of the
// thresholds are at or below operand (PostgreSQL's binary search; NaN
// sorts above every number).
func widthBucketArray(a []driver.Value) (any, error) {
	list, ok := a[1].([]any)
	if text, isText := a[1].(string); isText {
		// an array literal's text: '{1,2}'
		elems, depth, err := textArray(text)
		if err != nil {
			return nil, err
		}
		if depth > 1 {
			return nil, vsqlerr.New(vsqlerr.ArrayDimensions, "thresholds must be one-dimensional array")
		}
		list, ok = make([]any, len(elems)), true
		for i, e := range elems {
			if p, _ := e.(*string); p != nil {
				list[i] = *p
			}
		}
	}
	if !ok {
		return nil, invalidArgument("thresholds must be an array")
	}
	for _, t := range list {
		if t == nil {
			return nil, vsqlerr.New(vsqlerr.NullValueNotAllowed, "thresholds array must not contain NULLs")
		}
		if _, nested := t.([]any); nested {
			return nil, vsqlerr.New(vsqlerr.ArrayDimensions, "thresholds must be one-dimensional array")
		}
	}
	lo, hi := 0, len(list)
	for lo < hi {
		mid := (lo + hi) / 2
		c, ok := compareValues(a[0], list[mid])
		if !ok {
			return nil, invalidArgument("cannot compare the operand with the thresholds")
		}
		if c >= 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return int64(lo), nil
}

// compareValues orders two values of one kind (numbers, times, text) as
// PostgreSQL does (NaN above every number).
func compareValues(x, y any) (int, bool) {
	if fx, ok := number(x); ok {
		fy, ok := number(y)
		if text, isText := y.(string); isText {
			f, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
			fy, ok = f, err == nil
		}
		if !ok {
			return 0, false
		}
		switch {
		case math.IsNaN(fx) && math.IsNaN(fy):
			return 0, true
		case math.IsNaN(fx):
			return 1, true
		case math.IsNaN(fy):
			return -1, true
		case fx < fy:
			return -1, true
		case fx > fy:
			return 1, true
		}
		return 0, true
	}
	switch x := x.(type) {
	case time.Time:
		y, ok := y.(time.Time)
		return x.Compare(y), ok
	case string:
		y, ok := y.(string)
		switch {
		case x < y:
			return -1, ok
		case x > y:
			return 1, ok
		}
		return 0, ok
	}
	return 0, false
}

// number is a numeric value as a float64.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint:
		return float64(argInt(x)), true
	case duckdb.Decimal:
		f, _ := new(big.Float).Quo(new(big.Float).SetInt(x.Value), new(big.Float).SetFloat64(math.Pow10(int(x.Scale)))).Float64()
		return f, true
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f, true
	}
	return 0, false
}

// arrayFill: array_fill(v, ARRAY[n1, n2, …]) (and with lower bounds all
// 1, or dimensions '{}') is PostgreSQL's array of n1 × n2 × … copies of
// v, written as nested list comprehensions:
//
//	[[v FOR __vsql_i IN range(n2)] FOR __vsql_i IN range(n1)]
//
// DuckDB's type of a list fixes its depth, so the rewrite needs the
// dimensions as numbers in the statement; other forms (a column or
// parameter of dimensions, lower bounds other than 1, which vsql's lists
// cannot have) are left for DuckDB to refuse.
func arrayFill(p *pass, i int) {
	if p.isOp(i-1, ".") || p.kind(i+1) != sqltext.Open {
		return
	}
	closing := p.matchForward(i + 1)
	if closing < 0 {
		return
	}
	args := p.splitArgs(i+1, closing)
	if len(args) != 2 && len(args) != 3 {
		return
	}
	dims, ok := p.numberList(args[1])
	if !ok {
		return
	}
	if len(args) == 3 {
		lower, ok := p.numberList(args[2])
		if !ok || len(lower) != len(dims) && len(lower) != 0 {
			return
		}
		for _, b := range lower {
			if b != "1" {
				return
			}
		}
	}
	if len(dims) == 0 {
		dims = []string{"0"} // '{}': an empty array
	}
	var tail strings.Builder
	for k := len(dims) - 1; k >= 0; k-- {
		fmt.Fprintf(&tail, " FOR __vsql_i IN range(%s)]", dims[k])
	}
	p.replace(p.toks[i].Start, p.toks[i+1].End, strings.Repeat("[", len(dims)))
	p.replace(p.toks[args[0][1]].End, p.toks[closing].End, tail.String())
}

// numberList reads the tokens of arg as ARRAY[n, …] or '{n,…}' of
// non-negative integers.
func (p *pass) numberList(arg [2]int) ([]string, bool) {
	from, to := arg[0], arg[1]
	if from == to && p.kind(from) == sqltext.String {
		body, ok := strings.CutPrefix(p.text(from), "'{")
		if body, ok2 := strings.CutSuffix(body, "}'"); ok && ok2 {
			if strings.TrimSpace(body) == "" {
				return nil, true
			}
			var out []string
			for _, n := range strings.Split(body, ",") {
				if _, err := strconv.ParseUint(strings.TrimSpace(n), 10, 31); err != nil {
					return nil, false
				}
				out = append(out, strings.TrimSpace(n))
			}
			return out, true
		}
		return nil, false
	}
	if !p.isWord(from, "array") || !p.isOp(from+1, "[") || !p.isOp(to, "]") {
		return nil, false
	}
	var out []string
	for j := from + 2; j < to; j += 2 {
		if p.kind(j) != sqltext.Number || (!p.isOp(j+1, ",") && j+1 != to) {
			return nil, false
		}
		if _, err := strconv.ParseUint(p.text(j), 10, 31); err != nil {
			return nil, false
		}
		out = append(out, p.text(j))
	}
	return out, true
}
