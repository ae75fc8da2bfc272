package server_test

import (
	"bytes"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestPostgresBinaryCursor: FETCH from a cursor declared BINARY sends its
// values in binary format through the simple query protocol, the bytes
// PostgreSQL 15 sends; a cursor declared without BINARY sends text.
func TestPostgresBinaryCursor(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	fetch := func(c *pgconn.PgConn, binary bool) *pgconn.Result {
		t.Helper()
		declare := "DECLARE bc CURSOR FOR SELECT 42::int4 AS i, 'x'::text AS s, 7::int8 AS b, true AS t, NULL::int4 AS n"
		if binary {
			declare = "DECLARE bc BINARY CURSOR FOR SELECT 42::int4 AS i, 'x'::text AS s, 7::int8 AS b, true AS t, NULL::int4 AS n"
		}
		res, err := execText(c, "BEGIN; "+declare+"; FETCH 1 FROM bc")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := execText(c, "ROLLBACK"); err != nil {
			t.Fatal(err)
		}
		return res[len(res)-1]
	}
	for _, binary := range []bool{true, false} {
		want, got := fetch(pg, binary), fetch(vs, binary)
		if len(got.Rows) != 1 || len(want.Rows) != 1 || len(got.FieldDescriptions) != len(want.FieldDescriptions) {
			t.Fatalf("binary %v: PostgreSQL %v, vsqld %v", binary, want.Rows, got.Rows)
		}
		for i, f := range want.FieldDescriptions {
			g := got.FieldDescriptions[i]
			if g.Format != f.Format || g.DataTypeOID != f.DataTypeOID {
				t.Errorf("binary %v, column %s: format %d oid %d, PostgreSQL's %d %d", binary, f.Name, g.Format, g.DataTypeOID, f.Format, f.DataTypeOID)
			}
			if !bytes.Equal(got.Rows[0][i], want.Rows[0][i]) || (got.Rows[0][i] == nil) != (want.Rows[0][i] == nil) {
				t.Errorf("binary %v, column %s: % x, PostgreSQL's % x", binary, f.Name, got.Rows[0][i], want.Rows[0][i])
			}
		}
	}
}
