package pgwire

import (
	"encoding/binary"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/vsql/vsql/internal/duckstream"
	"github.com/vsql/vsql/pgcompat"
)

// Nested values on the chunk path: DuckDB's LIST and ARRAY reported as a
// PostgreSQL array (text {1,2,NULL}, {{1,2},{3,4}}; binary array_send's
// layout), and STRUCTs and lists of them as text in PostgreSQL's own
// formats: a record as record_out writes it, (1,"a b"), an array of
// records as {"(1,a)","(2,b)"}. A STRUCT's fields need no names: row(1,
// 2) and (1, 2) have none.

// maxArrayDims is PostgreSQL's MAXDIM.
const maxArrayDims = 6

// ChunkColumn reports whether the chunk encoder can send result column c
// as col announces it (its OID, and an array's element OID and
// dimensions); false sends the result through the row path.
func ChunkColumn(c duckstream.Column, col *Column) bool {
	_, ok := encoderFor(c, col)
	return ok
}

// encoderFor builds the encoder of result column c sent as col.
func encoderFor(c duckstream.Column, col *Column) (colEncoder, bool) {
	switch c.Type {
	case duckdb.TYPE_LIST, duckdb.TYPE_ARRAY:
		if col.Elem != 0 {
			return arrayEncoder(c, col.Elem, col.Dims)
		}
		if col.OID == pgtype.TextOID {
			return textEncoder(c)
		}
		return colEncoder{}, false
	case duckdb.TYPE_STRUCT:
		if col.OID == pgtype.TextOID {
			return textEncoder(c)
		}
		return colEncoder{}, false
	}
	if col.Elem != 0 {
		return colEncoder{}, false
	}
	e := scalarEncoder(c, chunkKind(c, col.OID))
	return e, e.kind != 0
}

// scalarEncoder is the encoder of a scalar column of kind k.
func scalarEncoder(c duckstream.Column, k colKind) colEncoder {
	e := colEncoder{kind: k, scale: int(c.Scale), width: 8}
	switch c.Internal {
	case duckdb.TYPE_SMALLINT:
		e.width = 2
	case duckdb.TYPE_INTEGER:
		e.width = 4
	}
	return e
}

// arrayEncoder encodes a list of dims levels whose innermost elements are
// scalars sent as elem, in text or binary.
func arrayEncoder(c duckstream.Column, elem uint32, dims int) (colEncoder, bool) {
	if dims < 1 || dims > maxArrayDims || (c.Type != duckdb.TYPE_LIST && c.Type != duckdb.TYPE_ARRAY) {
		return colEncoder{}, false
	}
	var child colEncoder
	if dims > 1 {
		var ok bool
		if child, ok = arrayEncoder(c.Children[0], elem, dims-1); !ok {
			return colEncoder{}, false
		}
	} else {
		inner := c.Children[0]
		if child = scalarEncoder(inner, chunkKind(inner, elem)); child.kind == 0 {
			return colEncoder{}, false
		}
	}
	return colEncoder{kind: listKind(c), size: c.Size, elem: elem, dims: dims, children: []colEncoder{child}}, true
}

func listKind(c duckstream.Column) colKind {
	if c.Type == duckdb.TYPE_ARRAY {
		return kArray
	}
	return kList
}

// textEncoder encodes a nested value as text whatever the format asked
// (it is sent as text, whose binary form is the same bytes): lists as
// PostgreSQL arrays, structs as records, scalars as their own type's
// text.
func textEncoder(c duckstream.Column) (colEncoder, bool) {
	e := colEncoder{textOnly: true}
	switch c.Type {
	case duckdb.TYPE_LIST, duckdb.TYPE_ARRAY, duckdb.TYPE_STRUCT:
		e.kind, e.size = listKind(c), c.Size
		if c.Type == duckdb.TYPE_STRUCT {
			e.kind = kStruct
		}
		e.children = make([]colEncoder, len(c.Children))
		for k, cc := range c.Children {
			var ok bool
			if e.children[k], ok = textEncoder(cc); !ok {
				return colEncoder{}, false
			}
		}
		return e, true
	}
	oid := chunkKinds[c.Type].oid
	if c.Type == duckdb.TYPE_VARCHAR && c.Alias == "JSON" {
		oid = pgtype.JSONBOID
	}
	if c.Type == duckdb.TYPE_VARCHAR && c.Alias == pgcompat.JSONType {
		oid = pgtype.JSONOID
	}
	if c.Type == duckdb.TYPE_DECIMAL && c.Alias == pgcompat.MoneyType {
		oid = MoneyOID
	}
	if oid == 0 {
		return colEncoder{}, false
	}
	e = scalarEncoder(c, chunkKind(c, oid))
	e.textOnly = true
	return e, e.kind != 0
}

// setup gives an encoder and its children the session's settings, the
// format asked for and where to report an error.
func (e *colEncoder) setup(binaryFormat bool, loc *time.Location, text textSettings, errp *error) {
	e.binary = binaryFormat && !e.textOnly
	e.loc, e.digits, e.date, e.byteaEscape, e.errp = loc, text.digits, text.date, text.byteaEscape, errp
	for k := range e.children {
		e.children[k].setup(binaryFormat, loc, text, errp)
	}
}

// elements is where row i's elements are in the child vector.
func (e *colEncoder) elements(v *duckstream.Vector, i int) (offset, n int) {
	if e.kind == kArray {
		return i * e.size, e.size
	}
	return duckstream.List(v, i)
}

// appendNested appends row i of a LIST, ARRAY or STRUCT vector.
func (e *colEncoder) appendNested(b []byte, v *duckstream.Vector, i int) []byte {
	if e.kind == kStruct {
		return e.appendRecord(b, v, i)
	}
	if e.binary {
		return e.appendBinaryArray(b, v, i)
	}
	return e.appendTextArray(b, v, i)
}

// appendTextArray writes array_out's text: elements quoted when empty,
// NULL, or holding braces, a comma, a quote, a backslash or white space
// (quotes and backslashes escaped with a backslash); sub-arrays as they
// are.
func (e *colEncoder) appendTextArray(b []byte, v *duckstream.Vector, i int) []byte {
	off, n := e.elements(v, i)
	child, ce := &v.Children[0], &e.children[0]
	b = append(b, '{')
	for k := off; k < off+n; k++ {
		if k > off {
			b = append(b, ',')
		}
		if child.Null(k) {
			b = append(b, "NULL"...)
			continue
		}
		if ce.kind == kList || ce.kind == kArray {
			b = ce.appendTextArray(b, child, k)
			continue
		}
		at := len(b)
		b = ce.appendValue(b, child, k)
		if s := b[at:]; pgcompat.ArrayElementNeedsQuote(s) {
			e.scratch = append(e.scratch[:0], s...)
			b = append(b[:at], '"')
			for _, c := range e.scratch {
				if c == '"' || c == '\\' {
					b = append(b, '\\')
				}
				b = append(b, c)
			}
			b = append(b, '"')
		}
	}
	return append(b, '}')
}

// appendRecord writes record_out's text (see appendRow).
func (e *colEncoder) appendRecord(b []byte, v *duckstream.Vector, i int) []byte {
	b = append(b, '(')
	for k := range e.children {
		if k > 0 {
			b = append(b, ',')
		}
		fv := &v.Children[k]
		if fv.Null(i) {
			continue
		}
		at := len(b)
		b = e.children[k].appendValue(b, fv, i)
		if s := b[at:]; needsRowQuote(s) {
			e.scratch = append(e.scratch[:0], s...)
			b = append(b[:at], '"')
			for _, c := range e.scratch {
				if c == '"' || c == '\\' {
					b = append(b, c)
				}
				b = append(b, c)
			}
			b = append(b, '"')
		}
	}
	return append(b, ')')
}

// appendBinaryArray writes array_send's layout: dimensions, a has-NULL
// flag, the element OID, each dimension's length and lower bound (1),
// then every element, length-prefixed (-1 for NULL), in row-major order.
// A list of lists whose lengths differ, or with a NULL sub-list, is no
// PostgreSQL array: the statement fails (e.errp).
func (e *colEncoder) appendBinaryArray(b []byte, v *duckstream.Vector, i int) []byte {
	var dims [maxArrayDims]int
	if !e.shape(v, i, dims[:e.dims], true) {
		if *e.errp == nil {
			*e.errp = errRaggedArray
		}
		return b
	}
	ndims := e.dims
	for _, d := range dims[:e.dims] {
		if d == 0 {
			ndims = 0 // an empty array has no dimensions
		}
	}
	b = binary.BigEndian.AppendUint32(b, uint32(ndims))
	flag := len(b)
	b = binary.BigEndian.AppendUint32(b, 0)
	b = binary.BigEndian.AppendUint32(b, e.elem)
	for _, d := range dims[:ndims] {
		b = binary.BigEndian.AppendUint32(b, uint32(d))
		b = binary.BigEndian.AppendUint32(b, 1)
	}
	var nulls bool
	b = e.appendBinaryElements(b, v, i, &nulls)
	if nulls {
		binary.BigEndian.PutUint32(b[flag:], 1)
	}
	return b
}

// shape fills dims with the lengths of row i's levels, and reports whether
// every sub-list of a level has the same length (first: dims are still to
// be set) and none is NULL.
func (e *colEncoder) shape(v *duckstream.Vector, i int, dims []int, first bool) bool {
	off, n := e.elements(v, i)
	if first {
		dims[0] = n
	} else if dims[0] != n {
		return false
	}
	if len(dims) == 1 {
		return true
	}
	child, ce := &v.Children[0], &e.children[0]
	for k := off; k < off+n; k++ {
		if child.Null(k) || !ce.shape(child, k, dims[1:], first && k == off) {
			return false
		}
	}
	if n == 0 {
		for d := range dims[1:] {
			dims[1+d] = 0
		}
	}
	return true
}

func (e *colEncoder) appendBinaryElements(b []byte, v *duckstream.Vector, i int, nulls *bool) []byte {
	off, n := e.elements(v, i)
	child, ce := &v.Children[0], &e.children[0]
	for k := off; k < off+n; k++ {
		if ce.kind == kList || ce.kind == kArray {
			b = ce.appendBinaryElements(b, child, k, nulls)
			continue
		}
		if child.Null(k) {
			*nulls = true
			b = append(b, 0xff, 0xff, 0xff, 0xff)
			continue
		}
		at := len(b)
		b = ce.appendValue(append(b, 0, 0, 0, 0), child, k)
		binary.BigEndian.PutUint32(b[at:], uint32(len(b)-at-4))
	}
	return b
}
