package duckstream

import "unsafe"

// Typed reads of row i of a vector's data (flat vectors, as results are).

func Int8(v *Vector, i int) int8     { return *(*int8)(unsafe.Add(v.Data, i)) }
func Uint8(v *Vector, i int) uint8   { return *(*uint8)(unsafe.Add(v.Data, i)) }
func Int16(v *Vector, i int) int16   { return *(*int16)(unsafe.Add(v.Data, i*2)) }
func Uint16(v *Vector, i int) uint16 { return *(*uint16)(unsafe.Add(v.Data, i*2)) }
func Int32(v *Vector, i int) int32   { return *(*int32)(unsafe.Add(v.Data, i*4)) }
func Uint32(v *Vector, i int) uint32 { return *(*uint32)(unsafe.Add(v.Data, i*4)) }
func Int64(v *Vector, i int) int64   { return *(*int64)(unsafe.Add(v.Data, i*8)) }
func Float32(v *Vector, i int) float32 {
	return *(*float32)(unsafe.Add(v.Data, i*4))
}
func Float64(v *Vector, i int) float64 {
	return *(*float64)(unsafe.Add(v.Data, i*8))
}
func Bool(v *Vector, i int) bool { return *(*uint8)(unsafe.Add(v.Data, i)) != 0 }

// HugeInt returns a 128-bit value (DECIMAL(>18), UUID) as its halves.
func HugeInt(v *Vector, i int) (lower uint64, upper int64) {
	p := unsafe.Add(v.Data, i*16)
	return *(*uint64)(p), *(*int64)(unsafe.Add(p, 8))
}

// Bytes returns a VARCHAR or BLOB value (a duckdb_string_t) without
// copying: valid until the chunk is released.
func Bytes(v *Vector, i int) []byte {
	p := unsafe.Add(v.Data, i*16)
	n := *(*uint32)(p)
	if n <= 12 {
		return unsafe.Slice((*byte)(unsafe.Add(p, 4)), n)
	}
	return unsafe.Slice(*(**byte)(unsafe.Add(p, 8)), n)
}

// List returns where row i of a LIST vector's elements are in its child
// vector: rows offset to offset+length-1.
func List(v *Vector, i int) (offset, length int) {
	p := unsafe.Add(v.Data, i*16)
	return int(*(*uint64)(p)), int(*(*uint64)(unsafe.Add(p, 8)))
}
