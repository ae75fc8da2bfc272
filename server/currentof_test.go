package server_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// cursorAnswer is a statement's answer with its error's SQLSTATE and
// message (vsql's [vsql:code] prefix removed), for the steps whose
// message is PostgreSQL's own.
type cursorAnswer struct {
	Tag, State, Message string
	Rows                [][]string
}

func askCursor(t *testing.T, c *pgconn.PgConn, sql string) cursorAnswer {
	t.Helper()
	res, err := execText(c, sql)
	if err != nil {
		var pe *pgconn.PgError
		if asPgError(err, &pe) {
			return cursorAnswer{State: pe.Code, Message: vsqlPrefix.ReplaceAllString(pe.Message, "")}
		}
		t.Fatalf("%s: %v", sql, err)
	}
	last := res[len(res)-1]
	return cursorAnswer{Tag: last.CommandTag.String(), Rows: textRows(last.Rows)}
}

// TestPostgresWhereCurrentOf compares UPDATE and DELETE … WHERE CURRENT OF
// with PostgreSQL 15: the row written, the cursor staying insensitive,
// RETURNING, a prepared statement run after each FETCH, FOR UPDATE and
// FOR SHARE OF a join, and each error with PostgreSQL's SQLSTATE and
// message (no such cursor, a held cursor, no current row, a join, an
// aggregation, DISTINCT, another table, FOR UPDATE naming the table twice
// or never, a view, SCROLL with FOR UPDATE).
func TestPostgresWhereCurrentOf(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	t.Cleanup(func() {
		askCursor(t, pg, "ROLLBACK")
		askCursor(t, pg, "CLOSE ALL")
		askCursor(t, pg, "DROP VIEW IF EXISTS cur_ucv")
		askCursor(t, pg, "DROP TABLE IF EXISTS cur_uc, cur_other")
	})
	steps := []string{
		"DROP VIEW IF EXISTS cur_ucv",
		"DROP TABLE IF EXISTS cur_uc, cur_other",
		"CREATE TABLE cur_uc (f1 int, f2 text)",
		"INSERT INTO cur_uc VALUES (1, 'one'), (2, 'two'), (3, 'three')",
		"CREATE TABLE cur_other (x int)",
		"CREATE VIEW cur_ucv AS SELECT * FROM cur_uc",
		// DELETE; the cursor did not move, and still reads the deleted row
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc",
		"FETCH 2 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"SELECT * FROM cur_uc ORDER BY f1",
		"FETCH ALL FROM c1",
		"MOVE BACKWARD ALL IN c1",
		"FETCH ALL FROM c1",
		"ROLLBACK",
		// UPDATE twice, then DELETE, then both again on the deleted row
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc",
		"FETCH c1",
		"UPDATE cur_uc SET f1 = f1 + 10 WHERE CURRENT OF c1",
		"UPDATE cur_uc SET f1 = f1 + 10 WHERE CURRENT OF c1 RETURNING *",
		"SELECT * FROM cur_uc ORDER BY f1",
		"FETCH RELATIVE 0 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1 RETURNING f2, f1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"UPDATE cur_uc SET f1 = f1 + 10 WHERE CURRENT OF c1",
		"SELECT * FROM cur_uc ORDER BY f1",
		"FETCH NEXT FROM c1",
		"UPDATE cur_uc AS u SET f2 = u.f2 || '!' WHERE CURRENT OF c1 RETURNING u.f1, u.f2",
		"ROLLBACK",
		// a computed select list, a WHERE, LIMIT, a quoted cursor name
		"BEGIN",
		`DECLARE "C" CURSOR FOR SELECT f1 * 2, upper(f2) FROM cur_uc WHERE f1 > 1 LIMIT 2`,
		`FETCH 1 FROM "C"`,
		`UPDATE cur_uc SET f2 = 'changed' WHERE CURRENT OF "C" RETURNING *`,
		`FETCH 1 FROM "C"`,
		`DELETE FROM public.cur_uc WHERE CURRENT OF "C" RETURNING *`,
		"SELECT * FROM cur_uc ORDER BY f1",
		"ROLLBACK",
		// FOR UPDATE: the cursor cannot scroll back
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc FOR UPDATE",
		"SELECT name, is_scrollable FROM pg_cursors",
		"FETCH c1",
		"UPDATE cur_uc SET f1 = 8 WHERE CURRENT OF c1",
		"FETCH RELATIVE 0 FROM c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 SCROLL CURSOR FOR SELECT * FROM cur_uc FOR UPDATE",
		"ROLLBACK",
		// a SCROLL cursor moved back
		"BEGIN",
		"DECLARE c1 SCROLL CURSOR FOR SELECT * FROM cur_uc",
		"FETCH ABSOLUTE 3 FROM c1",
		"FETCH ABSOLUTE 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1 RETURNING *",
		"FETCH LAST FROM c1",
		"UPDATE cur_uc SET f2 = 'last' WHERE CURRENT OF c1 RETURNING *",
		"SELECT * FROM cur_uc ORDER BY f1",
		"ROLLBACK",
		// errors
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"DECLARE cx CURSOR WITH HOLD FOR SELECT * FROM cur_uc",
		"FETCH cx",
		"DELETE FROM cur_uc WHERE CURRENT OF cx",
		"CLOSE cx",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc",
		"FETCH ALL FROM c1",
		"UPDATE cur_uc SET f1 = 0 WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_other WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc FOR SHARE",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_other WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT f1, count(*) FROM cur_uc GROUP BY f1 ORDER BY f1",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT max(f1) FROM cur_uc",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT DISTINCT f2 FROM cur_uc ORDER BY f2",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT f1, generate_series(1, 2) FROM cur_uc",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT f1 FROM cur_uc UNION SELECT 7 ORDER BY 1",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc a, cur_uc b WHERE a.f1 = b.f1",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_uc a, cur_uc b WHERE a.f1 = b.f1 FOR UPDATE",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT a.f1, b.f2 FROM cur_uc a JOIN cur_uc b ON a.f1 = b.f1 + 1 FOR SHARE OF a",
		"FETCH 1 FROM c1",
		"UPDATE cur_uc SET f2 = 'joined' WHERE CURRENT OF c1",
		"SELECT * FROM cur_uc ORDER BY f1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR SELECT * FROM cur_ucv",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_ucv WHERE CURRENT OF c1",
		"ROLLBACK",
		"BEGIN",
		"DECLARE c1 CURSOR FOR VALUES (1)",
		"FETCH 1 FROM c1",
		"DELETE FROM cur_uc WHERE CURRENT OF c1",
		"ROLLBACK",
		"SELECT * FROM cur_uc ORDER BY f1",
	}
	agree := 0
	for _, q := range steps {
		want, got := askCursor(t, pg, q), askCursor(t, vs, q)
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %+v\n  vsqld:      %+v", q, want, got)
			continue
		}
		agree++
	}
	t.Logf("%d of %d statements answered as PostgreSQL 15 does", agree, len(steps))
}

// TestCurrentOfExtended: WHERE CURRENT OF prepared once and executed after
// each FETCH (the extended protocol) writes the row the cursor is on at
// each execution, with the statement's own parameters first.
func TestCurrentOfExtended(t *testing.T) {
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, q := range []string{"CREATE TABLE cx (id int PRIMARY KEY, v text)", "INSERT INTO cx VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"BEGIN", "DECLARE c CURSOR FOR SELECT id FROM cx"} {
		if a := askCursor(t, vs, q); a.State != "" {
			t.Fatalf("%s: %+v", q, a)
		}
	}
	sd, err := vs.Prepare(ctx, "upd", "UPDATE cx SET v = $1 WHERE CURRENT OF c", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sd.ParamOIDs) != 1 {
		t.Fatalf("parameters: %v, want one (the rowid's is vsql's)", sd.ParamOIDs)
	}
	for _, want := range [][]string{{"1", "x1"}, {"2", "x2"}} {
		if a := askCursor(t, vs, "FETCH c"); len(a.Rows) != 1 || a.Rows[0][0] != want[0] {
			t.Fatalf("FETCH: %+v", a)
		}
		res := vs.ExecPrepared(ctx, "upd", [][]byte{[]byte(want[1])}, nil, nil).Read()
		if res.Err != nil || res.CommandTag.String() != "UPDATE 1" {
			t.Fatalf("execution after FETCH %s: %v %v", want[0], res.Err, res.CommandTag)
		}
	}
	if a := askCursor(t, vs, "SELECT id, v FROM cx ORDER BY id"); !reflect.DeepEqual(a.Rows, [][]string{{"1", "x1"}, {"2", "x2"}, {"3", "c"}}) {
		t.Fatalf("after the updates: %+v", a)
	}
	// an UPDATE of the key (or any UPDATE … RETURNING of a table with a
	// key): DuckDB moves the row to a new rowid, which the cursor cannot
	// follow; a second write through it is refused
	if a := askCursor(t, vs, "UPDATE cx SET id = 20 WHERE CURRENT OF c"); a.Tag != "UPDATE 1" {
		t.Fatalf("UPDATE of the key: %+v", a)
	}
	if a := askCursor(t, vs, "UPDATE cx SET v = 'again' WHERE CURRENT OF c"); a.State != "0A000" {
		t.Fatalf("UPDATE after the row moved: %+v, want 0A000", a)
	}
	askCursor(t, vs, "ROLLBACK")
}
