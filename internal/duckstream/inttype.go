package duckstream

/*
#include <stdint.h>
#include <stdlib.h>
*/
import "C"

import (
	"database/sql/driver"
	"fmt"
	"sync"

	bindings "github.com/duckdb/duckdb-go-bindings"
)

// Integer types of the engine: int64 values stored as a DECIMAL(18, scale)
// under an alias (RegisterIntType), as RegisterTextType makes text types.
// DuckDB compares, sorts, hashes and stores them as the int64s, and min,
// max, first, … keep the type; it converts to and from nothing but through
// the casts registered here, and only the functions given an overload of
// it take it (DuckDB's functions of DECIMAL do not: an alias is a type of
// its own for binding). pgcompat's money is one (cents, scale 2).
//
// The base is a DECIMAL rather than BIGINT because of integer literals:
// DuckDB lets one convert implicitly to any type whose id is BIGINT, alias
// or not, at the cost it converts to BIGINT (in CastRules::ImplicitCast
// the literal's rule comes before the check of aliases), so with an
// overload of * on (BIGINT, alias) bigint_col * 1000 was ambiguous (and
// DuckDB's own catalog views failed to bind), and with (SMALLINT, alias)
// smallint_col * 1000 took the alias. A DECIMAL alias is reached only
// through the casts registered (each found in DuckDB's cast map, whose
// cost -1 says "explicit only"), and a DECIMAL(18, s) is an int64.

// IntCast converts an integer value to the physical value of an integer
// target (its type's width); an error fails the cast (CAST) or makes the
// value NULL (TRY_CAST).
type IntCast func(v int64) (int64, error)

// IntTextCast converts an integer value to text.
type IntTextCast func(v int64) ([]byte, error)

// Decimal is the unscaled value of a DECIMAL, a 128-bit two's complement
// integer (Hi the sign extension of Lo for the narrower widths).
type Decimal struct {
	Lo uint64
	Hi int64
}

// DecimalIntCast converts the unscaled value of a DECIMAL of scale digits
// after the point to an integer.
type DecimalIntCast func(d Decimal, scale int) (int64, error)

// IntDecimalCast converts an integer to the unscaled value of a
// DECIMAL(width, scale).
type IntDecimalCast func(v int64, width, scale int) (Decimal, error)

// More fixed-width targets and sources of an integer type's casts.
const (
	CastTinyint   CastTarget = iota + 100 // TINYINT
	CastBoolean                           // BOOLEAN
	CastHugeint                           // HUGEINT
	CastUtinyint                          // UTINYINT
	CastUsmallint                         // USMALLINT
	CastUinteger                          // UINTEGER
	CastUbigint                           // UBIGINT
	CastUhugeint                          // UHUGEINT
)

// intTypeID is the type of target, with its width in bytes.
func intTypeID(t CastTarget) (C.int, int) {
	switch t {
	case CastTinyint:
		return C.int(bindings.TypeTinyInt), 1
	case CastBoolean:
		return C.int(bindings.TypeBoolean), 1
	case CastHugeint:
		return C.int(bindings.TypeHugeInt), 16
	case CastUtinyint:
		return C.int(bindings.TypeUTinyInt), 1
	case CastUsmallint:
		return C.int(bindings.TypeUSmallInt), 2
	case CastUinteger:
		return C.int(bindings.TypeUInteger), 4
	case CastUbigint:
		return C.int(bindings.TypeUBigInt), 8
	case CastUhugeint:
		return C.int(bindings.TypeUHugeInt), 16
	}
	id, width := t.duckType()
	return id, width
}

var (
	baseMu  sync.Mutex
	baseIDs = map[string]C.int{}
)

// baseID is the engine's type behind the integer type alias, packed as
// vsql_type reads it (DECIMAL | 18 << 8 | scale << 16).
func baseID(alias string) C.int {
	baseMu.Lock()
	defer baseMu.Unlock()
	return baseIDs[alias]
}

// RegisterIntType registers an integer type of the engine named alias,
// global to the DuckDB instance, stored as DECIMAL(18, scale): columns,
// casts and function arguments can name it, and results of it report the
// alias (Column.Alias). Its casts and functions see the int64 (for scale
// 2 and the value 1.50, 150).
func RegisterIntType(c driver.Conn, alias string, scale int) error {
	if scale < 0 || scale > 18 {
		return fmt.Errorf("duckstream: no DECIMAL(18, %d)", scale)
	}
	id := C.int(int(bindings.TypeDecimal) | 18<<8 | scale<<16)
	if err := registerAlias(c, id, alias); err != nil {
		return err
	}
	baseMu.Lock()
	baseIDs[alias] = id
	baseMu.Unlock()
	return nil
}

// RegisterIntTypeFromText installs fn as the engine's cast of VARCHAR to
// the integer type alias (implicitCost as RegisterTextCast's).
func RegisterIntTypeFromText(c driver.Conn, alias string, implicitCost int64, fn TextCast) error {
	return registerCast(c, C.int(bindings.TypeVarchar), "", baseID(alias), alias, implicitCost, registeredCast{fn: fn, width: 8})
}

// RegisterIntTypeToText installs fn as the engine's cast of the integer
// type alias to VARCHAR.
func RegisterIntTypeToText(c driver.Conn, alias string, fn IntTextCast) error {
	return registerCast(c, baseID(alias), alias, C.int(bindings.TypeVarchar), "", -1, registeredCast{intText: fn, intWidth: 8, width: -1})
}

// RegisterIntTypeFrom installs fn as the engine's cast of source (an
// integer type or BOOLEAN; a DOUBLE or FLOAT with RegisterIntTypeFromFloat)
// to the integer type alias.
func RegisterIntTypeFrom(c driver.Conn, source CastTarget, alias string, fn IntCast) error {
	id, width := intTypeID(source)
	if width != 1 && width != 2 && width != 4 && width != 8 {
		return fmt.Errorf("duckstream: no integer cast from %d", source)
	}
	return registerCast(c, id, "", baseID(alias), alias, -1, registeredCast{fromInt: fn, intWidth: width, width: 8})
}

// RegisterIntTypeFromWide installs fn as the engine's cast of a HUGEINT or
// UHUGEINT (source) to the integer type alias; fn reads the value as a
// DECIMAL of scale 0 (a UHUGEINT's bits as a HUGEINT's).
func RegisterIntTypeFromWide(c driver.Conn, source CastTarget, alias string, fn DecimalIntCast) error {
	if source != CastHugeint && source != CastUhugeint {
		return fmt.Errorf("duckstream: no 128-bit cast from %d", source)
	}
	id, _ := intTypeID(source)
	return registerCast(c, id, "", baseID(alias), alias, -1, registeredCast{fromDecimal: fn, decWidth: 16, width: 8})
}

// RegisterIntTypeFromFloat installs fn as the engine's cast of a DOUBLE
// or FLOAT (source) to the integer type alias.
func RegisterIntTypeFromFloat(c driver.Conn, source CastTarget, alias string, fn FloatCast) error {
	if source != CastDouble && source != CastFloat {
		return fmt.Errorf("duckstream: no float cast from %d", source)
	}
	id, width := source.duckType()
	return registerCast(c, id, "", baseID(alias), alias, -1, registeredCast{fromFloat: fn, floatWidth: width, width: 8})
}

// RegisterIntTypeTo installs fn as the engine's cast of the integer type
// alias to target (an integer type, BOOLEAN, DOUBLE or FLOAT: fn returns
// the physical value, as TextCast's; the high half of a 128-bit target
// is the sign's).
func RegisterIntTypeTo(c driver.Conn, alias string, target CastTarget, fn IntCast) error {
	id, width := intTypeID(target)
	if target == CastDate || target == CastTimestamp || target == CastTime || target == CastBlob {
		return fmt.Errorf("duckstream: no integer cast to %d", target)
	}
	rc := registeredCast{fromInt: fn, intWidth: 8, width: width}
	if width == 16 {
		rc = registeredCast{toDecimal: func(v int64, _, _ int) (Decimal, error) {
			x, err := fn(v)
			return Decimal{Lo: uint64(x), Hi: x >> 63}, err
		}, intWidth: 8, width: 16}
	}
	return registerCast(c, baseID(alias), alias, id, "", -1, rc)
}

// RegisterIntTypeDecimalCasts installs from as the engine's cast of every
// DECIMAL(width, scale) to the integer type alias, and to as the cast of
// alias to every DECIMAL(width, scale): DuckDB finds a registered cast of
// a DECIMAL by its width and scale, so there is one of each way for each
// of the 779 pairs (1,558 casts, registered in about 10 ms). Casts to a
// DECIMAL of 19 digits or more and alias's own scale are left to DuckDB:
// they widen the int64 into a 128-bit integer, exactly (DuckDB checks no
// range there, so an int64 beyond 18 digits is kept whole).
func RegisterIntTypeDecimalCasts(c driver.Conn, alias string, from DecimalIntCast, to IntDecimalCast) error {
	base := baseID(alias)
	own := int(base >> 16 & 0xff)
	for width := 1; width <= 38; width++ {
		for scale := 0; scale <= width; scale++ {
			id := C.int(int(bindings.TypeDecimal) | width<<8 | scale<<16)
			bytes := decimalBytes(width)
			if err := registerCast(c, id, "", base, alias, -1, registeredCast{fromDecimal: from, decWidth: bytes, scale: scale, width: 8}); err != nil {
				return err
			}
			if width >= 19 && scale == own {
				continue
			}
			rc := registeredCast{toDecimal: to, intWidth: 8, digits: width, scale: scale, width: bytes}
			if err := registerCast(c, base, alias, id, "", -1, rc); err != nil {
				return err
			}
		}
	}
	return nil
}

// decimalBytes is the size of a DECIMAL(width, …)'s physical integer.
func decimalBytes(width int) int {
	switch {
	case width <= 4:
		return 2
	case width <= 9:
		return 4
	case width <= 18:
		return 8
	}
	return 16
}
