package duckstream

import (
	"database/sql/driver"
	"fmt"
	"reflect"
	"unsafe"

	bindings "github.com/duckdb/duckdb-go-bindings"
	duckdb "github.com/duckdb/duckdb-go/v2"
	"github.com/duckdb/duckdb-go/v2/mapping"
)

// This file is the one place that reaches into duckdb-go's private fields:
// the C handles of a prepared statement (Stmt.preparedStmt), of a
// connection (Conn.conn) and of the database (Connector.db, for Workers). duckdb-go runs every query through
// duckdb_pending_prepared, which materializes the whole result; streaming
// needs duckdb_pending_prepared_streaming on the same handle. The field
// names and types are checked (TestHandles fails loudly if an upgrade moves
// them) and a mismatch returns an error, never a wild pointer.

var (
	stmtField = fieldOf(reflect.TypeFor[duckdb.Stmt](), "preparedStmt", reflect.TypeFor[*bindings.PreparedStatement]())
	connField = fieldOf(reflect.TypeFor[duckdb.Conn](), "conn", reflect.TypeFor[bindings.Connection]())
	dbField   = fieldOf(reflect.TypeFor[duckdb.Connector](), "db", reflect.TypeFor[mapping.Database]())
)

type field struct {
	offset uintptr
	err    error
}

func fieldOf(t reflect.Type, name string, want reflect.Type) field {
	f, ok := t.FieldByName(name)
	if !ok {
		return field{err: fmt.Errorf("duckstream: %s has no field %s (duckdb-go changed; see internal/duckstream/handles.go)", t, name)}
	}
	if f.Type != want {
		return field{err: fmt.Errorf("duckstream: %s.%s is %s, not %s (duckdb-go changed; see internal/duckstream/handles.go)", t, name, f.Type, want)}
	}
	return field{offset: f.Offset}
}

// stmtHandle returns the C prepared statement behind s.
func stmtHandle(s *duckdb.Stmt) (bindings.PreparedStatement, error) {
	if stmtField.err != nil {
		return bindings.PreparedStatement{}, stmtField.err
	}
	p := *(**bindings.PreparedStatement)(unsafe.Add(unsafe.Pointer(s), stmtField.offset))
	if p == nil || p.Ptr == nil {
		return bindings.PreparedStatement{}, fmt.Errorf("duckstream: statement is closed")
	}
	return *p, nil
}

// connHandle returns the C connection behind a duckdb-go driver connection.
func connHandle(c driver.Conn) (bindings.Connection, error) {
	if connField.err != nil {
		return bindings.Connection{}, connField.err
	}
	dc, ok := c.(*duckdb.Conn)
	if !ok {
		return bindings.Connection{}, fmt.Errorf("duckstream: %T is not a *duckdb.Conn", c)
	}
	h := *(*bindings.Connection)(unsafe.Add(unsafe.Pointer(dc), connField.offset))
	if h.Ptr == nil {
		return bindings.Connection{}, fmt.Errorf("duckstream: connection is closed")
	}
	return h, nil
}

// databaseHandle returns the C database behind a duckdb-go connector.
func databaseHandle(c *duckdb.Connector) (mapping.Database, error) {
	if dbField.err != nil {
		return mapping.Database{}, dbField.err
	}
	db := *(*mapping.Database)(unsafe.Add(unsafe.Pointer(c), dbField.offset))
	if db.Ptr == nil {
		return mapping.Database{}, fmt.Errorf("duckstream: the connector's database is closed")
	}
	return db, nil
}

// Available reports whether the handles can be reached in this build of
// duckdb-go (nil) or why not.
func Available() error {
	if stmtField.err != nil {
		return stmtField.err
	}
	if connField.err != nil {
		return connField.err
	}
	return dbField.err
}

// StatementColumns describes the result columns of a prepared statement
// as Query's Result will (a column whose type depends on parameters not
// bound yet is TYPE_INVALID).
func StatementColumns(s *duckdb.Stmt) ([]Column, error) {
	ps, err := stmtHandle(s)
	if err != nil {
		return nil, err
	}
	n := int(bindings.PreparedStatementColumnCount(ps))
	cols := make([]Column, n)
	for i := range n {
		lt := bindings.PreparedStatementColumnLogicalType(ps, bindings.IdxT(i))
		cols[i] = columnOf(lt)
		bindings.DestroyLogicalType(&lt)
	}
	return cols, nil
}
