package duckstream

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// The few declarations of DuckDB's C API (duckdb.h, stable since v1.1.0)
// that cast functions need. duckdb-go-bindings links the library but does
// not wrap these, and its header's directory is not one a #cgo line of
// another module can name; the handles are opaque pointers either way.
typedef uint64_t idx_t;
typedef struct _duckdb_connection { void *internal_ptr; } *duckdb_connection;
typedef struct _duckdb_cast_function { void *internal_ptr; } *duckdb_cast_function;
typedef struct _duckdb_logical_type { void *internal_ptr; } *duckdb_logical_type;
typedef struct _duckdb_function_info { void *internal_ptr; } *duckdb_function_info;
typedef struct _duckdb_vector { void *internal_ptr; } *duckdb_vector;
typedef int duckdb_state;
typedef int duckdb_cast_mode; // 0 DUCKDB_CAST_NORMAL, 1 DUCKDB_CAST_TRY
typedef bool (*duckdb_cast_function_t)(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output);
typedef void (*duckdb_delete_callback_t)(void *data);

duckdb_cast_function duckdb_create_cast_function(void);
void duckdb_cast_function_set_source_type(duckdb_cast_function cast_function, duckdb_logical_type source_type);
void duckdb_cast_function_set_target_type(duckdb_cast_function cast_function, duckdb_logical_type target_type);
void duckdb_cast_function_set_implicit_cast_cost(duckdb_cast_function cast_function, int64_t cost);
void duckdb_cast_function_set_function(duckdb_cast_function cast_function, duckdb_cast_function_t function);
void duckdb_cast_function_set_extra_info(duckdb_cast_function cast_function, void *extra_info, duckdb_delete_callback_t destroy);
void *duckdb_cast_function_get_extra_info(duckdb_function_info info);
duckdb_cast_mode duckdb_cast_function_get_cast_mode(duckdb_function_info info);
void duckdb_cast_function_set_error(duckdb_function_info info, const char *error);
void duckdb_cast_function_set_row_error(duckdb_function_info info, const char *error, idx_t row, duckdb_vector output);
duckdb_state duckdb_register_cast_function(duckdb_connection con, duckdb_cast_function cast_function);
void duckdb_destroy_cast_function(duckdb_cast_function *cast_function);
duckdb_logical_type duckdb_create_logical_type(int type);
duckdb_logical_type duckdb_create_decimal_type(uint8_t width, uint8_t scale);
void duckdb_logical_type_set_alias(duckdb_logical_type type, const char *alias);
duckdb_state duckdb_register_logical_type(duckdb_connection con, duckdb_logical_type type, void *info);
void duckdb_destroy_logical_type(duckdb_logical_type *type);
void *duckdb_vector_get_data(duckdb_vector vector);
uint64_t *duckdb_vector_get_validity(duckdb_vector vector);
void duckdb_vector_ensure_validity_writable(duckdb_vector vector);
void duckdb_vector_assign_string_element_len(duckdb_vector vector, idx_t index, const char *str, idx_t str_len);

extern bool vsqlCast(duckdb_function_info info, idx_t count, duckdb_vector input, duckdb_vector output);

// vsql_type is a type of the engine, named by alias when alias is not NULL
// (a type vsql_register_alias registered); a DECIMAL (19) is
// DECIMAL(width, scale), where id packs 19 | width << 8 | scale << 16.
static duckdb_logical_type vsql_type(int id, const char *alias) {
	duckdb_logical_type t;
	if ((id & 0xff) == 19) {
		t = duckdb_create_decimal_type((id >> 8) & 0xff, (id >> 16) & 0xff);
	} else {
		t = duckdb_create_logical_type(id);
	}
	if (alias != NULL) {
		duckdb_logical_type_set_alias(t, alias);
	}
	return t;
}

static duckdb_state vsql_register_alias(duckdb_connection con, int id, const char *alias) {
	duckdb_logical_type t = vsql_type(id, alias);
	duckdb_state st = duckdb_register_logical_type(con, t, NULL);
	duckdb_destroy_logical_type(&t);
	return st;
}

static duckdb_state vsql_register_cast(duckdb_connection con, int source, const char *source_alias, int target, const char *target_alias, int64_t cost, int id) {
	duckdb_cast_function f = duckdb_create_cast_function();
	duckdb_logical_type s = vsql_type(source, source_alias);
	duckdb_logical_type t = vsql_type(target, target_alias);
	int *info = malloc(sizeof(int));
	*info = id;
	duckdb_cast_function_set_source_type(f, s);
	duckdb_cast_function_set_target_type(f, t);
	if (cost >= 0) {
		duckdb_cast_function_set_implicit_cast_cost(f, cost);
	}
	duckdb_cast_function_set_function(f, vsqlCast);
	duckdb_cast_function_set_extra_info(f, info, free);
	duckdb_state st = duckdb_register_cast_function(con, f);
	duckdb_destroy_logical_type(&s);
	duckdb_destroy_logical_type(&t);
	duckdb_destroy_cast_function(&f);
	return st;
}

static int vsql_cast_id(duckdb_function_info info) {
	return *(int *)duckdb_cast_function_get_extra_info(info);
}
*/
import "C"

import (
	"database/sql/driver"
	"fmt"
	"sync"
	"unsafe"

	bindings "github.com/duckdb/duckdb-go-bindings"
)

// A cast of VARCHAR to a fixed-width type, written in Go: DuckDB calls it
// for every such cast of the engine (CAST, ::, the implicit cast of a
// string literal to a column's type), in place of its own. Registered
// casts take precedence over DuckDB's built-in ones for the same pair of
// types.

// TextCast converts one text value to the target's physical value (days
// for DATE as int64, microseconds for TIMESTAMP and TIME, the IEEE bits of
// DOUBLE and FLOAT, the integer itself for SMALLINT, INTEGER and BIGINT,
// which the caller keeps within the type's range); an error fails
// the cast (CAST) or makes the value NULL (TRY_CAST).
type TextCast func(text []byte) (int64, error)

// CastTarget is a target type of a text cast.
type CastTarget int

const (
	CastDate      CastTarget = iota // DATE, stored as int32 days
	CastTimestamp                   // TIMESTAMP, int64 microseconds
	CastTime                        // TIME, int64 microseconds
	CastDouble                      // DOUBLE, the float64's bits (math.Float64bits)
	CastFloat                       // FLOAT (REAL), the float32's bits (math.Float32bits) in the low 32 bits
	CastSmallint                    // SMALLINT, int16
	CastInteger                     // INTEGER, int32
	CastBigint                      // BIGINT, int64
	CastBlob                        // BLOB: RegisterBytesCast
)

func (t CastTarget) duckType() (C.int, int) {
	switch t {
	case CastDate:
		return C.int(bindings.TypeDate), 4
	case CastTimestamp:
		return C.int(bindings.TypeTimestamp), 8
	case CastDouble:
		return C.int(bindings.TypeDouble), 8
	case CastFloat:
		return C.int(bindings.TypeFloat), 4
	case CastSmallint:
		return C.int(bindings.TypeSmallInt), 2
	case CastInteger:
		return C.int(bindings.TypeInteger), 4
	case CastBigint:
		return C.int(bindings.TypeBigInt), 8
	case CastBlob:
		return C.int(bindings.TypeBlob), -1
	default:
		return C.int(bindings.TypeTime), 8
	}
}

var (
	castMu    sync.RWMutex
	castFuncs []registeredCast
)

type registeredCast struct {
	fn    TextCast
	bytes BytesCast // a BLOB target (width -1)
	// fromFloat reads a DOUBLE (floatWidth 8) or FLOAT (4) source
	fromFloat  FloatCast
	floatWidth int
	// fromInt reads an integer source of intWidth bytes (1, 2, 4, 8)
	// into an integer target; intText the same into text (width -1)
	fromInt  IntCast
	intText  IntTextCast
	intWidth int
	// fromDecimal reads a DECIMAL source of decWidth bytes (2, 4, 8, 16)
	// and scale into an integer target; toDecimal writes a DECIMAL
	// target of width bytes (2, 4, 8, 16) and scale from an integer
	// source of intWidth bytes
	fromDecimal DecimalIntCast
	toDecimal   IntDecimalCast
	decWidth    int
	digits      int // a DECIMAL target's width in digits
	scale       int
	width       int
}

// FloatCast converts a DOUBLE or FLOAT value (a FLOAT widened) to the
// physical value of an integer target; an error fails the cast (CAST)
// or makes the value NULL (TRY_CAST).
type FloatCast func(f float64) (int64, error)

// RegisterFloatCast installs fn as the engine's cast of source (CastDouble
// or CastFloat) to target (CastSmallint, CastInteger or CastBigint).
func RegisterFloatCast(c driver.Conn, source, target CastTarget, fn FloatCast) error {
	if source != CastDouble && source != CastFloat || target != CastSmallint && target != CastInteger && target != CastBigint {
		return fmt.Errorf("duckstream: no float cast from %d to %d", source, target)
	}
	src, srcWidth := source.duckType()
	_, width := target.duckType()
	return registerFrom(c, src, target, -1, registeredCast{fromFloat: fn, floatWidth: srcWidth, width: width})
}

// BytesCast converts one text value to the bytes of a BLOB; an error
// fails the cast (CAST) or makes the value NULL (TRY_CAST).
type BytesCast func(text []byte) ([]byte, error)

// RegisterBytesCast installs fn as the engine's cast of VARCHAR to BLOB,
// as RegisterTextCast does for fixed-width types.
func RegisterBytesCast(c driver.Conn, implicitCost int64, fn BytesCast) error {
	return register(c, CastBlob, implicitCost, registeredCast{bytes: fn, width: -1})
}

// RegisterTextCast installs fn as the engine's cast of VARCHAR to target,
// through the driver connection c (casts are global to the DuckDB
// instance). implicitCost is DuckDB's implicit cast cost (-1: the
// default).
func RegisterTextCast(c driver.Conn, target CastTarget, implicitCost int64, fn TextCast) error {
	_, width := target.duckType()
	return register(c, target, implicitCost, registeredCast{fn: fn, width: width})
}

func register(c driver.Conn, target CastTarget, implicitCost int64, rc registeredCast) error {
	return registerFrom(c, C.int(bindings.TypeVarchar), target, implicitCost, rc)
}

func registerFrom(c driver.Conn, source C.int, target CastTarget, implicitCost int64, rc registeredCast) error {
	typ, _ := target.duckType()
	return registerCast(c, source, "", typ, "", implicitCost, rc)
}

// registerCast registers rc as the cast of the type source, named
// sourceAlias if not "" (a text type of RegisterTextType), to the type
// typ, named targetAlias if not "".
func registerCast(c driver.Conn, source C.int, sourceAlias string, typ C.int, targetAlias string, implicitCost int64, rc registeredCast) error {
	h, err := connHandle(c)
	if err != nil {
		return err
	}
	castMu.Lock()
	id := len(castFuncs)
	castFuncs = append(castFuncs, rc)
	castMu.Unlock()
	src, dst := cString(sourceAlias), cString(targetAlias)
	defer C.free(unsafe.Pointer(src))
	defer C.free(unsafe.Pointer(dst))
	if st := C.vsql_register_cast(C.duckdb_connection(h.Ptr), source, src, typ, dst, C.int64_t(implicitCost), C.int(id)); st != 0 {
		return fmt.Errorf("duckstream: DuckDB refused the cast of type %d %s to type %d %s", source, sourceAlias, typ, targetAlias)
	}
	return nil
}

// cString is s in C's memory (for C.free), NULL for "".
func cString(s string) *C.char {
	if s == "" {
		return nil
	}
	return C.CString(s)
}

// RegisterTextType registers a type of the engine named alias whose values
// are text (VARCHAR), global to the DuckDB instance: columns, casts and
// function arguments can name it, and results of it report the alias
// (duckdb.TypeInfo.Alias), as DuckDB's JSON does.
func RegisterTextType(c driver.Conn, alias string) error {
	return registerAlias(c, C.int(bindings.TypeVarchar), alias)
}

// registerAlias registers the type id under the name alias.
func registerAlias(c driver.Conn, id C.int, alias string) error {
	h, err := connHandle(c)
	if err != nil {
		return err
	}
	name := C.CString(alias)
	defer C.free(unsafe.Pointer(name))
	if st := C.vsql_register_alias(C.duckdb_connection(h.Ptr), id, name); st != 0 {
		return fmt.Errorf("duckstream: DuckDB refused the type %s", alias)
	}
	return nil
}

// RegisterTextTypeCast installs fn as the engine's cast of the text type
// source ("" for VARCHAR) to the text type target (types of
// RegisterTextType, or "" for VARCHAR). implicitCost as RegisterTextCast.
func RegisterTextTypeCast(c driver.Conn, source, target string, implicitCost int64, fn BytesCast) error {
	return registerCast(c, C.int(bindings.TypeVarchar), source, C.int(bindings.TypeVarchar), target, implicitCost, registeredCast{bytes: fn, width: -1})
}

// RegisterTextTypeBlobCast installs fn as the engine's cast of the text
// type source to BLOB.
func RegisterTextTypeBlobCast(c driver.Conn, source string, implicitCost int64, fn BytesCast) error {
	return registerCast(c, C.int(bindings.TypeVarchar), source, C.int(bindings.TypeBlob), "", implicitCost, registeredCast{bytes: fn, width: -1})
}

// RegisterTextTypeNumberCast installs fn as the engine's cast of the text
// type source to the fixed-width type target (its value as
// RegisterTextCast's).
func RegisterTextTypeNumberCast(c driver.Conn, source string, target CastTarget, implicitCost int64, fn TextCast) error {
	typ, width := target.duckType()
	return registerCast(c, C.int(bindings.TypeVarchar), source, typ, "", implicitCost, registeredCast{fn: fn, width: width})
}

//export vsqlCast
func vsqlCast(info C.duckdb_function_info, count C.idx_t, input, output C.duckdb_vector) C.bool {
	castMu.RLock()
	rc := castFuncs[C.vsql_cast_id(info)]
	castMu.RUnlock()
	try := C.duckdb_cast_function_get_cast_mode(info) == 1
	in := Vector{Data: C.duckdb_vector_get_data(input), Valid: (*uint64)(unsafe.Pointer(C.duckdb_vector_get_validity(input)))}
	out := C.duckdb_vector_get_data(output)
	var outValid *uint64
	setNull := func(i int) {
		if outValid == nil {
			C.duckdb_vector_ensure_validity_writable(output)
			outValid = (*uint64)(unsafe.Pointer(C.duckdb_vector_get_validity(output)))
		}
		w := (*uint64)(unsafe.Add(unsafe.Pointer(outValid), (i>>6)*8))
		*w &^= 1 << (uint(i) & 63)
	}
	ok := true
	for i := 0; i < int(count); i++ {
		if in.Null(i) {
			setNull(i)
			continue
		}
		var v int64
		var b []byte
		var hi int64 // a 128-bit DECIMAL target's high half
		var err error
		switch {
		case rc.fromInt != nil:
			v, err = rc.fromInt(readInt(in.Data, i, rc.intWidth))
		case rc.intText != nil:
			b, err = rc.intText(readInt(in.Data, i, rc.intWidth))
		case rc.fromDecimal != nil:
			var d Decimal
			if rc.decWidth == 16 {
				d.Lo, d.Hi = HugeInt(&in, i)
			} else {
				x := readInt(in.Data, i, rc.decWidth)
				d.Lo, d.Hi = uint64(x), x>>63
			}
			v, err = rc.fromDecimal(d, rc.scale)
		case rc.toDecimal != nil:
			var d Decimal
			d, err = rc.toDecimal(readInt(in.Data, i, rc.intWidth), rc.digits, rc.scale)
			v, hi = int64(d.Lo), d.Hi
		case rc.fromFloat != nil && rc.floatWidth == 4:
			v, err = rc.fromFloat(float64(*(*float32)(unsafe.Add(in.Data, i*4))))
		case rc.fromFloat != nil:
			v, err = rc.fromFloat(*(*float64)(unsafe.Add(in.Data, i*8)))
		case rc.bytes != nil:
			b, err = rc.bytes(Bytes(&in, i))
		default:
			v, err = rc.fn(Bytes(&in, i))
		}
		if err != nil {
			msg := C.CString(err.Error())
			if try {
				C.duckdb_cast_function_set_row_error(info, msg, C.idx_t(i), output)
				C.free(unsafe.Pointer(msg))
				ok = false
				continue
			}
			C.duckdb_cast_function_set_error(info, msg)
			C.free(unsafe.Pointer(msg))
			return false
		}
		switch rc.width {
		case 1:
			*(*int8)(unsafe.Add(out, i)) = int8(v)
		case -1:
			if len(b) == 0 {
				b = []byte{0} // a valid pointer for the empty value (length 0)
				b = b[:0:1]
			}
			p := (*C.char)(unsafe.Pointer(unsafe.SliceData(b)))
			C.duckdb_vector_assign_string_element_len(output, C.idx_t(i), p, C.idx_t(len(b)))
		case 2:
			*(*int16)(unsafe.Add(out, i*2)) = int16(v)
		case 4:
			*(*int32)(unsafe.Add(out, i*4)) = int32(v)
		case 16:
			*(*int64)(unsafe.Add(out, i*16)) = v
			*(*int64)(unsafe.Add(out, i*16+8)) = hi
		default:
			*(*int64)(unsafe.Add(out, i*8)) = v
		}
	}
	return C.bool(ok)
}

// readInt reads row i of a vector of signed integers of width bytes.
func readInt(data unsafe.Pointer, i, width int) int64 {
	switch width {
	case 1:
		return int64(*(*int8)(unsafe.Add(data, i)))
	case 2:
		return int64(*(*int16)(unsafe.Add(data, i*2)))
	case 4:
		return int64(*(*int32)(unsafe.Add(data, i*4)))
	}
	return *(*int64)(unsafe.Add(data, i*8))
}
