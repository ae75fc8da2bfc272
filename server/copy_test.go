package server_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"
)

func copyIn(t *testing.T, conn *pgx.Conn, sql, data string) (pgconn.CommandTag, error) {
	t.Helper()
	return conn.PgConn().CopyFrom(context.Background(), strings.NewReader(data), sql)
}

func copyOut(t *testing.T, conn *pgx.Conn, sql string) string {
	t.Helper()
	var buf bytes.Buffer
	tag, err := conn.PgConn().CopyTo(context.Background(), &buf, sql)
	if err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	if !strings.HasPrefix(tag.String(), "COPY ") {
		t.Errorf("%s: tag %q", sql, tag)
	}
	return buf.String()
}

func queryString(t *testing.T, conn *pgx.Conn, sql string) string {
	t.Helper()
	var s string
	if err := conn.QueryRow(context.Background(), sql, pgx.QueryExecModeSimpleProtocol).Scan(&s); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return s
}

func TestCopyFromText(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	mustExec(t, conn, "CREATE TABLE t (id int, name text, note text, d date, ok boolean, tags int[], raw bytea)")
	data := "1\talice\t\\N\t2024-01-02\tt\t{1,2}\t\\\\x4142\n" +
		"2\ttab\\there\tline\\nbreak\t2024-02-03\tf\t{}\t\\N\n" +
		"3\tback\\\\slash\t\\101\\x42\t\\N\ton\t\\N\t\\N\n" +
		"\\.\n"
	tag, err := copyIn(t, conn, "COPY t FROM STDIN", data)
	if err != nil {
		t.Fatal(err)
	}
	if tag.String() != "COPY 3" {
		t.Errorf("tag %q", tag)
	}
	got := queryString(t, conn, "SELECT string_agg(concat_ws('|', id, name, coalesce(note, 'NULL'), d, ok, tags, hex(raw)), ';' ORDER BY id) FROM t")
	// (concat_ws writes booleans and arrays as PostgreSQL does: t, {1,2})
	want := "1|alice|NULL|2024-01-02|t|{1,2}|4142;2|tab\there|line\nbreak|2024-02-03|f|{};3|back\\slash|AB|t"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Round trip: COPY TO STDOUT writes what PostgreSQL would.
	out := copyOut(t, conn, "COPY t (id, name, note, d, ok, raw) TO STDOUT")
	wantOut := "1\talice\t\\N\t2024-01-02\tt\t\\\\x4142\n" +
		"2\ttab\\there\tline\\nbreak\t2024-02-03\tf\t\\N\n" +
		"3\tback\\\\slash\tAB\t\\N\tt\t\\N\n"
	if out != wantOut {
		t.Errorf("COPY TO:\n got %q\nwant %q", out, wantOut)
	}
}

func TestCopyFromCSV(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	mustExec(t, conn, "CREATE TABLE c (id int, a text, b text, n numeric(10,2))")
	data := "id,a,b,n\n" +
		"1,plain,,1.50\n" +
		"2,\"quoted, comma\",\"\",2\n" +
		"3,\"multi\nline \"\"field\"\"\",x,\r\n" +
		"4,  spaced  ,\"NULL\",-3.25\n"
	tag, err := copyIn(t, conn, "COPY c FROM STDIN WITH (FORMAT csv, HEADER true)", data)
	if err != nil {
		t.Fatal(err)
	}
	if tag.String() != "COPY 4" {
		t.Errorf("tag %q", tag)
	}
	got := queryString(t, conn, "SELECT string_agg(concat_ws('|', id, coalesce(a, 'NULL'), coalesce(b, 'NULL'), coalesce(n::text, 'NULL')), ';' ORDER BY id) FROM c")
	want := "1|plain|NULL|1.50;2|quoted, comma||2.00;3|multi\nline \"field\"|x|NULL;4|  spaced  |NULL|-3.25"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	out := copyOut(t, conn, "COPY c TO STDOUT WITH (FORMAT csv, HEADER)")
	wantOut := "id,a,b,n\n1,plain,,1.50\n2,\"quoted, comma\",\"\",2.00\n3,\"multi\nline \"\"field\"\"\",x,\n4,  spaced  ,NULL,-3.25\n"
	if out != wantOut {
		t.Errorf("COPY TO:\n got %q\nwant %q", out, wantOut)
	}
	// Old syntax, another delimiter and NULL string, a column list, FORCE_NOT_NULL.
	mustExec(t, conn, "DELETE FROM c")
	if _, err := copyIn(t, conn, "COPY c (b, id) FROM STDIN WITH CSV HEADER DELIMITER ';' NULL 'nil'", "b;id\nnil;1\n;2\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := copyIn(t, conn, "COPY c (id, b) FROM STDIN (FORMAT csv, FORCE_NOT_NULL (b))", "3,\n"); err != nil {
		t.Fatal(err)
	}
	got = queryString(t, conn, "SELECT string_agg(concat_ws('|', id, coalesce(a, 'NULL'), coalesce(b, 'NULL')), ';' ORDER BY id) FROM c")
	if want := "1|NULL|NULL;2|NULL|;3|NULL|"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// HEADER MATCH
	if _, err := copyIn(t, conn, "COPY c (id, b) FROM STDIN (FORMAT csv, HEADER match)", "id,b\n4,x\n"); err != nil {
		t.Fatal(err)
	}
	_, err = copyIn(t, conn, "COPY c (id, b) FROM STDIN (FORMAT csv, HEADER match)", "id,bb\n5,x\n")
	expectPgError(t, err, "22P04", `column name mismatch in header line field 2: got "bb", expected "b"`)
}

// TestCopyToBytes compares COPY TO output byte for byte with PostgreSQL's
// documented formats.
func TestCopyToBytes(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	mustExec(t, conn, `CREATE TABLE v (i int, s text, b boolean, d date, ts timestamp, n numeric(8,3), f float8, a text[])`)
	mustExec(t, conn, `INSERT INTO v VALUES
		(1, 'plain', true, '2024-03-04', '2024-03-04 05:06:07.5', 1.5, 0.1, ['x', 'y z']),
		(2, E'tab\there\nnl\\bs\rcr', false, NULL, NULL, -0.001, -2.5e10, []),
		(3, 'quote"comma,', NULL, '0044-01-01', '2000-01-01 00:00:00', 0, 1e100, NULL),
		(4, '', NULL, NULL, NULL, NULL, NULL, ['"q"', NULL])`)
	text := copyOut(t, conn, "COPY v TO STDOUT")
	wantText := "1\tplain\tt\t2024-03-04\t2024-03-04 05:06:07.5\t1.500\t0.1\t{x,\"y z\"}\n" +
		"2\ttab\\there\\nnl\\\\bs\\rcr\tf\t\\N\t\\N\t-0.001\t-25000000000\t{}\n" +
		"3\tquote\"comma,\t\\N\t0044-01-01\t2000-01-01 00:00:00\t0.000\t1e+100\t\\N\n" +
		"4\t\t\\N\t\\N\t\\N\t\\N\t\\N\t{\"\\\\\"q\\\\\"\",NULL}\n"
	if text != wantText {
		t.Errorf("text:\n got %q\nwant %q", text, wantText)
	}
	csv := copyOut(t, conn, "COPY (SELECT i, s, b, a FROM v ORDER BY i) TO STDOUT WITH (FORMAT csv, HEADER)")
	wantCSV := "i,s,b,a\n" +
		"1,plain,t,\"{x,\"\"y z\"\"}\"\n" +
		"2,\"tab\there\nnl\\bs\rcr\",f,{}\n" +
		"3,\"quote\"\"comma,\",,\n" +
		"4,\"\",,\"{\"\"\\\"\"q\\\"\"\"\",NULL}\"\n"
	if csv != wantCSV {
		t.Errorf("csv:\n got %q\nwant %q", csv, wantCSV)
	}
	// Options: delimiter, NULL string, FORCE_QUOTE, a header in text format.
	got := copyOut(t, conn, "COPY (SELECT i, s FROM v WHERE i IN (1, 4) ORDER BY i) TO STDOUT WITH (FORMAT csv, DELIMITER '|', NULL 'NULL', FORCE_QUOTE (s))")
	if want := "1|\"plain\"\n4|\"\"\n"; got != want {
		t.Errorf("force_quote: got %q, want %q", got, want)
	}
	got = copyOut(t, conn, "COPY (SELECT i, b AS \"a b\" FROM v WHERE i > 2 ORDER BY i) TO STDOUT (HEADER, NULL '')")
	if want := "i\ta b\n3\t\n4\t\n"; got != want {
		t.Errorf("text header: got %q, want %q", got, want)
	}
}

func expectPgError(t *testing.T, err error, code, contains string) *pgconn.PgError {
	t.Helper()
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		t.Fatalf("want error %s (%s), got %v", code, contains, err)
	}
	if pe.Code != code || !strings.Contains(pe.Message, contains) {
		t.Errorf("got %s %q (where %q), want %s containing %q", pe.Code, pe.Message, pe.Where, code, contains)
	}
	return pe
}

func TestCopyErrorsLeaveTableUnchanged(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	mustExec(t, conn, "CREATE TABLE e (id int PRIMARY KEY, name text NOT NULL)")
	mustExec(t, conn, "INSERT INTO e VALUES (0, 'zero')")
	cases := []struct {
		sql, data, code, msg string
	}{
		{"COPY e FROM STDIN", "1\ta\n2\tb\nx\tc\n4\td\n", "22P02", `COPY e, line 3, column id: invalid input syntax for type integer: "x"`},
		{"COPY e FROM STDIN", "1\ta\n2\n", "22P04", `COPY e, line 2: missing data for column "name"`},
		{"COPY e FROM STDIN", "1\ta\n2\tb\n3\tc\textra\n", "22P04", "COPY e, line 3: extra data after last expected column"},
		{"COPY e FROM STDIN (FORMAT csv, HEADER)", "id,name\n1,a\n2,\"open\n", "22P04", "COPY e, line 3: unterminated CSV quoted field"},
		{"COPY e FROM STDIN (FORMAT csv)", "1,a\n0,dup\n", "23505", ""},
		{"COPY e FROM STDIN (FORMAT csv)", "1,a\n2,\n", "23502", ""},
		{"COPY e FROM STDIN (FORMAT binary)", "", "0A000", "binary"},
		{"COPY e FROM STDIN (FORMAT xml)", "", "22023", `COPY format "xml" not recognized`},
		{"COPY e FROM STDIN (DELIMITER ',,')", "", "22023", "single one-byte character"},
		{"COPY e (id, id) FROM STDIN", "", "42701", "specified more than once"},
		{"COPY nope FROM STDIN", "", "42P01", ""},
	}
	for _, c := range cases {
		_, err := copyIn(t, conn, c.sql, c.data)
		pe := expectPgError(t, err, c.code, c.msg)
		if c.code == "22P02" && pe.Where != `COPY e, line 3, column id: "x"` {
			t.Errorf("where = %q", pe.Where)
		}
		if got := queryString(t, conn, "SELECT count(*)::text || ':' || string_agg(name, ',') FROM e"); got != "1:zero" {
			t.Fatalf("%s %q: table changed: %s", c.sql, c.data, got)
		}
	}
	// CopyFail from the client (pgx sends it when the reader fails).
	_, err := conn.PgConn().CopyFrom(context.Background(), io.MultiReader(strings.NewReader("5\tfive\n"), errReader{}), "COPY e FROM STDIN")
	expectPgError(t, err, "57014", "COPY from stdin failed: reader broke")
	if got := queryString(t, conn, "SELECT count(*)::text FROM e"); got != "1" {
		t.Fatalf("table changed after CopyFail: %s", got)
	}
	// The connection is still usable.
	if _, err := copyIn(t, conn, "COPY e FROM STDIN", "7\tseven\n"); err != nil {
		t.Fatal(err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("reader broke") }

func TestCopyInTransaction(t *testing.T) {
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	mustExec(t, conn, "CREATE TABLE tx (id int)")
	mustExec(t, conn, "BEGIN")
	if _, err := copyIn(t, conn, "COPY tx FROM STDIN", "1\n2\n3\n"); err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, conn, "SELECT count(*)::text FROM tx"); got != "3" {
		t.Errorf("inside the transaction: %s rows", got)
	}
	mustExec(t, conn, "ROLLBACK")
	if got := queryString(t, conn, "SELECT count(*)::text FROM tx"); got != "0" {
		t.Errorf("after ROLLBACK: %s rows", got)
	}
	// An error inside a transaction block fails the transaction.
	mustExec(t, conn, "BEGIN")
	if _, err := copyIn(t, conn, "COPY tx FROM STDIN", "1\n"); err != nil {
		t.Fatal(err)
	}
	_, err := copyIn(t, conn, "COPY tx FROM STDIN", "2\nbad\n")
	expectPgError(t, err, "22P02", "line 2")
	if conn.PgConn().TxStatus() != 'E' {
		t.Errorf("tx status %c, want E", conn.PgConn().TxStatus())
	}
	mustExec(t, conn, "ROLLBACK")
	mustExec(t, conn, "BEGIN")
	if _, err := copyIn(t, conn, "COPY tx FROM STDIN", "4\n5\n"); err != nil {
		t.Fatal(err)
	}
	mustExec(t, conn, "COMMIT")
	if got := queryString(t, conn, "SELECT string_agg(id::text, ',' ORDER BY id) FROM tx"); got != "4,5" {
		t.Errorf("after COMMIT: %s", got)
	}
}

// COPY on a branch connection (dbname db/branch) and into a branch named
// by qualified name.
func TestCopyBranch(t *testing.T) {
	addr := startServer(t, nil)
	admin := connectPgx(t, addr)
	mustExec(t, admin, "CREATE DATABASE shop")
	ctx := context.Background()
	main, err := pgx.Connect(ctx, dsn(addr, "shop"))
	if err != nil {
		t.Fatal(err)
	}
	defer main.Close(ctx)
	mustExec(t, main, "CREATE TABLE items (id int, name text)")
	mustExec(t, main, "SELECT * FROM vsql_create_snapshot()")
	mustExec(t, main, "SELECT * FROM vsql_create_branch(NULL, 'dev')")
	dev, err := pgx.Connect(ctx, dsn(addr, "shop/dev"))
	if err != nil {
		t.Fatal(err)
	}
	defer dev.Close(ctx)
	if _, err := copyIn(t, dev, "COPY items FROM STDIN (FORMAT csv)", "1,on dev\n2,also dev\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := copyIn(t, main, `COPY "shop/dev".main.items (id, name) FROM STDIN`, "3\tfrom main\n"); err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, main, "SELECT count(*)::text FROM items"); got != "0" {
		t.Errorf("main has %s rows", got)
	}
	if got := copyOut(t, dev, "COPY items TO STDOUT (FORMAT csv)"); got != "1,on dev\n2,also dev\n3,from main\n" {
		t.Errorf("dev: %q", got)
	}
	if got := copyOut(t, main, `COPY (SELECT count(*) FROM "shop/dev".items) TO STDOUT`); got != "3\n" {
		t.Errorf("qualified read: %q", got)
	}
	// A three-part name in the session's own database.
	if _, err := copyIn(t, main, "COPY shop.main.items FROM STDIN", "10\tmain row\n"); err != nil {
		t.Fatal(err)
	}
	if got := queryString(t, main, "SELECT count(*)::text FROM items"); got != "1" {
		t.Errorf("main has %s rows", got)
	}
	// A snapshot is read-only: COPY TO works, COPY FROM is refused.
	snap, err := pgx.Connect(ctx, dsn(addr, "shop@1"))
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close(ctx)
	if got := copyOut(t, snap, "COPY items TO STDOUT"); got != "" {
		t.Errorf("snapshot: %q", got)
	}
	_, err = copyIn(t, snap, "COPY items FROM STDIN", "11\tnope\n")
	expectPgError(t, err, "25006", "read-only")
}

// The copy sub-protocol at message level: extended protocol with Flush and
// Sync during copy-in (ignored), errors skip to Sync, simple-protocol
// COPY in the middle of a multi-statement string, COPY TO messages.
func TestCopyProtocolMessages(t *testing.T) {
	addr := startServer(t, nil)
	c := dialRaw(t, addr)
	c.startup("postgres")
	c.simple("CREATE TABLE x (id int, s text)")

	// Extended protocol: Parse/Bind/Describe/Execute, then copy data with
	// Flush and Sync in the middle, CopyDone, Sync.
	c.send(&pgproto3.Parse{Query: "COPY x FROM STDIN (FORMAT csv)"}, &pgproto3.Bind{}, &pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{}, &pgproto3.Flush{})
	msgs := c.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.CopyInResponse); return ok })
	if countType[*pgproto3.NoData](msgs) != 1 {
		t.Errorf("Describe of COPY: %#v, want NoData", msgs)
	}
	cir := msgs[len(msgs)-1].(*pgproto3.CopyInResponse)
	if cir.OverallFormat != 0 || len(cir.ColumnFormatCodes) != 2 {
		t.Errorf("CopyInResponse %+v", cir)
	}
	c.send(&pgproto3.CopyData{Data: []byte("1,a\n2,")}, &pgproto3.Flush{}, &pgproto3.Sync{},
		&pgproto3.CopyData{Data: []byte("b\n")}, &pgproto3.CopyDone{}, &pgproto3.Sync{})
	msgs = c.untilReady()
	if len(msgs) != 2 || string(msgs[0].(*pgproto3.CommandComplete).CommandTag) != "COPY 2" {
		t.Fatalf("after CopyDone: %#v", msgs)
	}

	// An error in extended mode: the rest up to Sync is skipped, one ReadyForQuery.
	c.send(&pgproto3.Parse{Query: "COPY x FROM STDIN"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Flush{})
	c.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.CopyInResponse); return ok })
	c.send(&pgproto3.CopyData{Data: []byte("3\tc\nbad line\n")}, &pgproto3.CopyData{Data: []byte("4\td\n")}, &pgproto3.CopyDone{},
		&pgproto3.Parse{Query: "SELECT 1"}, &pgproto3.Bind{}, &pgproto3.Execute{}, &pgproto3.Sync{})
	msgs = c.untilReady()
	if len(msgs) != 2 {
		t.Fatalf("after a bad line: %d messages %#v, want ErrorResponse + ReadyForQuery", len(msgs), msgs)
	}
	if e, ok := msgs[0].(*pgproto3.ErrorResponse); !ok || e.Code != "22P04" || e.Where != "COPY x, line 2: \"bad line\"" && !strings.Contains(e.Message, "line 2") {
		t.Errorf("error %#v", msgs[0])
	}

	// Simple protocol: COPY in the middle of a string; CopyFail ends it.
	c.send(&pgproto3.Query{String: "SELECT 'before'; COPY x FROM STDIN; SELECT 'after'"})
	c.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.CopyInResponse); return ok })
	c.send(&pgproto3.CopyData{Data: []byte("5\te\n")}, &pgproto3.CopyDone{})
	msgs = c.untilReady()
	if got := dataRowText(msgs); got != "after" || countType[*pgproto3.CommandComplete](msgs) != 2 {
		t.Errorf("rest of the string: %q %#v", got, msgs)
	}
	c.send(&pgproto3.Query{String: "COPY x FROM STDIN; SELECT 'not run'"})
	c.until(func(m pgproto3.BackendMessage) bool { _, ok := m.(*pgproto3.CopyInResponse); return ok })
	c.send(&pgproto3.CopyData{Data: []byte("6\tf\n")}, &pgproto3.CopyFail{Message: "user said no"})
	msgs = c.untilReady()
	if e, ok := msgs[0].(*pgproto3.ErrorResponse); !ok || e.Code != "57014" || !strings.Contains(e.Message, "COPY from stdin failed: user said no") || len(msgs) != 2 {
		t.Errorf("CopyFail: %#v", msgs)
	}
	// Copy messages after the COPY ended are dropped.
	c.send(&pgproto3.CopyData{Data: []byte("7\tg\n")}, &pgproto3.CopyDone{})
	msgs = c.simple("SELECT string_agg(id::text, ',' ORDER BY id) FROM x")
	if got := dataRowText(msgs); got != "1,2,5" {
		t.Errorf("rows %q", got)
	}

	// COPY TO: CopyOutResponse, one CopyData per row, CopyDone, COPY n.
	msgs = c.simple("COPY x (id) TO STDOUT")
	var kinds []string
	for _, m := range msgs {
		kinds = append(kinds, fmt.Sprintf("%T", m))
	}
	want := "*pgproto3.CopyOutResponse *pgproto3.CopyData *pgproto3.CopyData *pgproto3.CopyData *pgproto3.CopyDone *pgproto3.CommandComplete *pgproto3.ReadyForQuery"
	if strings.Join(kinds, " ") != want {
		t.Errorf("COPY TO messages: %s", strings.Join(kinds, " "))
	}
	if string(msgs[1].(*pgproto3.CopyData).Data) != "1\n" || string(msgs[5].(*pgproto3.CommandComplete).CommandTag) != "COPY 3" {
		t.Errorf("COPY TO: %#v", msgs)
	}
}

// A 1M-row CSV load must take seconds, not minutes.
func TestCopyMillionRows(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	addr := startServer(t, nil)
	conn := connectPgx(t, addr)
	mustExec(t, conn, "CREATE TABLE big (id bigint, name text, amount numeric(12,2), day date)")
	const n = 1_000_000
	var data bytes.Buffer
	data.Grow(n * 40)
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&data, "%d,name %d,%d.%02d,2024-01-%02d\n", i, i, i%1000, i%100, i%28+1)
	}
	start := time.Now()
	tag, err := conn.PgConn().CopyFrom(context.Background(), &data, "COPY big FROM STDIN WITH (FORMAT csv)")
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("1M-row CSV COPY: %v", elapsed)
	if tag.String() != "COPY 1000000" {
		t.Errorf("tag %q", tag)
	}
	if got := queryString(t, conn, "SELECT count(*)::text || ' ' || sum(id)::text FROM big"); got != "1000000 500000500000" {
		t.Errorf("got %s", got)
	}
	if elapsed > 10*time.Second {
		t.Errorf("1M rows took %v", elapsed)
	}
}
