package server_test

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vsql/vsql/internal/pgtest"
)

// domainSteps are the statements TestDomains runs on PostgreSQL 15 and on
// vsqld. Each one's answer (tag and rows, or error SQLSTATE, message and
// detail, and the NOTICEs) must be the same.
var domainSteps = []string{
	// CREATE DOMAIN and casts
	"CREATE DOMAIN rgb AS text CHECK (VALUE IN ('red', 'green', 'blue'))",
	"CREATE DOMAIN rgb AS text",                   // 42710
	"CREATE DOMAIN nosuchbase AS nosuchtype",      // 42704
	"SELECT 'red'::rgb, CAST('blue' AS rgb) AS b", // passes
	"SELECT 'purple'::rgb",                        // 23514 rgb_check
	"SELECT CAST('purple' AS rgb)",                // 23514
	"SELECT NULL::rgb IS NULL",                    // NULL passes a CHECK
	"SELECT upper('purple')::rgb",                 // the cast's operand is the call
	"SELECT x::rgb FROM (VALUES ('red'), ('green')) v(x) ORDER BY 1",
	"SELECT x::rgb FROM (VALUES ('red'), ('pink')) v(x)", // 23514 per row
	"CREATE DOMAIN posint AS integer CONSTRAINT positive CHECK (VALUE > 0) NOT NULL DEFAULT 1 CHECK (VALUE < 1000)",
	"SELECT 5::posint + 1",
	"SELECT 0::posint",                                    // 23514 "positive"
	"SELECT 1000::posint",                                 // 23514 posint_check
	"SELECT NULL::posint",                                 // 23502
	"SELECT CAST(NULL AS posint)",                         // 23502
	"SELECT '-3'::posint",                                 // 23514
	"CREATE DOMAIN smallpos AS posint CHECK (VALUE < 10)", // a domain over a domain
	"SELECT 5::smallpos",
	"SELECT 50::smallpos",                   // 23514 smallpos_check
	"SELECT 0::smallpos",                    // 23514 positive (the base's), named for smallpos
	"SELECT NULL::smallpos",                 // 23502
	"CREATE DOMAIN nn AS int NULL NOT NULL", // conflicting
	"CREATE DOMAIN twochecks AS int CHECK (VALUE > 0) CHECK (VALUE > 1) CHECK (VALUE > 2)",
	"SELECT 2::twochecks", // twochecks_check2
	"SELECT 1::twochecks", // twochecks_check1
	`CREATE DOMAIN "Mixed" AS int CHECK (VALUE > 0)`,
	`SELECT 0::"Mixed"`, // value for domain "Mixed" … "Mixed_check"
	`DROP DOMAIN "Mixed"`,
	"CREATE DOMAIN word AS text CHECK (VALUE ~ '^[a-z]+$')",
	"SELECT 'ab1'::public.word",
	"BEGIN",
	"CREATE DOMAIN rolledback AS int CHECK (VALUE > 0)",
	"SELECT 0::rolledback",
	"ROLLBACK",
	"SELECT 0::rolledback", // 42704
	// columns of a domain type: INSERT, UPDATE, DEFAULT
	"CREATE TABLE dom_t (id int PRIMARY KEY, color rgb, qty posint, small smallpos DEFAULT 3)",
	"INSERT INTO dom_t (id, color) VALUES (1, 'red')",             // qty from the domain's DEFAULT
	"INSERT INTO dom_t (id, color, qty) VALUES (2, 'purple', 5)",  // 23514
	"INSERT INTO dom_t (id, color, qty) VALUES (3, 'blue', NULL)", // 23502
	"INSERT INTO dom_t (id, color, qty) VALUES (4, 'blue', 0)",    // 23514
	"INSERT INTO dom_t VALUES (5, NULL, 7, 9)",
	"INSERT INTO dom_t VALUES (6, 'green', 7, 11)", // 23514 smallpos_check
	"SELECT * FROM dom_t ORDER BY id",
	"UPDATE dom_t SET color = 'pink' WHERE id = 1", // 23514
	"UPDATE dom_t SET qty = qty * 1000",            // 23514
	"UPDATE dom_t SET qty = NULL WHERE id = 5",     // 23502
	"UPDATE dom_t SET color = 'blue' WHERE id = 5 RETURNING color, qty",
	"INSERT INTO dom_t (id, color, qty) VALUES (7, 'red', 2), (1, 'red', 2) ON CONFLICT (id) DO NOTHING",
	"SELECT count(*) FROM dom_t",
	// DROP DOMAIN
	"DROP DOMAIN rgb",              // 2BP01: dom_t.color
	"DROP DOMAIN rgb RESTRICT",     // 2BP01
	"DROP TYPE rgb",                // 2BP01 too: a domain is a type
	"DROP DOMAIN posint",           // 2BP01: smallpos and dom_t's columns
	"DROP DOMAIN IF EXISTS nosuch", // NOTICE
	"DROP DOMAIN nosuch",           // 42704
	"CREATE TYPE dom_enum AS ENUM ('a')",
	"DROP DOMAIN dom_enum",    // 42809
	"DROP DOMAIN rgb CASCADE", // drops the column
	"SELECT * FROM dom_t ORDER BY id",
	"SELECT 'purple'::rgb", // 42704: gone
	"DROP DOMAIN IF EXISTS twochecks, nosuch2",
	"SELECT 1::twochecks", // 42704
	// ALTER DOMAIN of a domain no column uses
	"CREATE DOMAIN code AS varchar(10)",
	"SELECT 'abc'::code",
	"ALTER DOMAIN code ADD CONSTRAINT short CHECK (length(VALUE) < 3)",
	"SELECT 'abc'::code", // 23514 short
	"ALTER DOMAIN code ADD CHECK (VALUE <> 'x')",
	"SELECT 'x'::code",                                            // 23514 code_check
	"ALTER DOMAIN code ADD CONSTRAINT short CHECK (VALUE <> 'y')", // 42710
	"ALTER DOMAIN code DROP CONSTRAINT short",
	"SELECT 'abc'::code",
	"ALTER DOMAIN code DROP CONSTRAINT short",           // 42704
	"ALTER DOMAIN code DROP CONSTRAINT IF EXISTS short", // NOTICE
	"ALTER DOMAIN code SET NOT NULL",
	"SELECT NULL::code", // 23502
	"ALTER DOMAIN code DROP NOT NULL",
	"SELECT NULL::code IS NULL",
	"ALTER DOMAIN code SET DEFAULT 'zz'",
	"CREATE TABLE dom_c (id int, c code)",
	"INSERT INTO dom_c (id) VALUES (1)",
	"INSERT INTO dom_c VALUES (2, 'x')", // 23514 code_check
	"SELECT * FROM dom_c",
	"ALTER DOMAIN nosuch SET NOT NULL",   // 42704
	"ALTER DOMAIN dom_enum SET NOT NULL", // 42809
	"DROP TABLE dom_c",
	"ALTER DOMAIN code RENAME CONSTRAINT code_check TO not_x",
	"ALTER DOMAIN code RENAME CONSTRAINT nosuch TO y",    // 42704
	"ALTER DOMAIN code RENAME CONSTRAINT not_x TO not_x", // 42710
	"ALTER DOMAIN code RENAME TO code2",
	"SELECT 'x'::code2", // 23514 not_x
	"SELECT 'x'::code",  // 42704
	"ALTER DOMAIN code2 DROP DEFAULT",
	"CREATE TABLE dom_c (id int, c code2)",
	"INSERT INTO dom_c (id) VALUES (1)",
	"SELECT * FROM dom_c",
	"DROP TABLE dom_c",
	// composite types with a domain field, arrays
	"CREATE TYPE dom_pair AS (a posint, b text)",
	"SELECT (ROW(1, 'x')::dom_pair).a",
	"CREATE DOMAIN int3 AS int[] CHECK (array_length(VALUE, 1) = 3)",
	"SELECT ARRAY[1, 2, 3]::int3",
	"SELECT ARRAY[1, 2]::int3", // 23514
	"SELECT '{1,2,3}'::int[]::int3, x::int3 FROM (SELECT ARRAY[4, 5, 6] AS x) s",
	"DROP TYPE dom_pair",
	"CREATE DOMAIN tiny AS smallpos",
	"CREATE TABLE dom_t2 (a posint, z tiny, k int)",
	"DROP DOMAIN posint", // 2BP01, PostgreSQL's order of dependents
	"DROP DOMAIN posint CASCADE",
	"SELECT * FROM dom_t2",
	"DROP TABLE dom_t2",
	"SELECT * FROM dom_t ORDER BY id",
	"DROP TABLE dom_t",
	"CREATE TEMP TABLE dom_temp (w word)",
	"INSERT INTO dom_temp VALUES ('Bad')",
	"DROP DOMAIN word", // 2BP01: a temporary table's column
	"DROP TABLE dom_temp",
	"DROP DOMAIN int3, code2, word",
	"DROP TYPE dom_enum",
}

// domainRefused are the forms vsql refuses (feature_not_supported) where
// PostgreSQL runs them: ALTER DOMAIN of a domain that columns use, and a
// column of a domain type added to an existing table.
var domainRefused = []string{
	"CREATE DOMAIN used AS int CHECK (VALUE > 0)",
	"CREATE TABLE dom_u (a used, b int)",
	"ALTER DOMAIN used ADD CHECK (VALUE < 10)",
	"ALTER DOMAIN used DROP CONSTRAINT used_check",
	"ALTER DOMAIN used SET NOT NULL",
	"ALTER DOMAIN used SET DEFAULT 3",
	"ALTER TABLE dom_u ADD COLUMN c used",
	"ALTER TABLE dom_u ALTER COLUMN b TYPE used",
	"ALTER DOMAIN used OWNER TO postgres",
	"ALTER DOMAIN used RENAME TO used2",
}

// TestDomains runs the same domain statements on PostgreSQL 15 and on
// vsqld: casts to a domain, columns of one (INSERT, UPDATE, DEFAULT),
// domains over domains, DROP (RESTRICT, CASCADE, IF EXISTS) and the ALTER
// DOMAIN forms vsql runs. Errors must have PostgreSQL's SQLSTATE and
// message.
func TestDomains(t *testing.T) {
	var pgNotices, vsNotices []string
	pg := noticeConn(t, pgtest.DSN(t), &pgNotices)
	vs := noticeConn(t, dsn(startServer(t, nil), "postgres"), &vsNotices)
	agree := 0
	for _, sql := range domainSteps {
		pgNotices, vsNotices = nil, nil
		want, got := askDomain(t, pg, sql), askDomain(t, vs, sql)
		want.Notices, got.Notices = pgNotices, vsNotices
		want.Hint, got.Hint = "", "" // vsql's hints are its own
		if own := vsqlPrefix.MatchString(got.Message); !own {
			want.Message, got.Message = "", "" // DuckDB's own (not this feature's)
		}
		want.Message = vsqlPrefix.ReplaceAllString(want.Message, "")
		got.Message = vsqlPrefix.ReplaceAllString(got.Message, "")
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%s\n  PostgreSQL: %+v\n  vsqld:      %+v", sql, want, got)
			continue
		}
		agree++
	}
	t.Logf("%d of %d statements answered as PostgreSQL 15 does", agree, len(domainSteps))
	// a composite type with a field of a domain: the domain cannot be
	// dropped (DuckDB does not say which field: the DETAIL differs)
	for _, sql := range []string{"CREATE DOMAIN dom_f AS int CHECK (VALUE > 0)", "CREATE TYPE dom_ft AS (f dom_f, g text)",
		"DROP DOMAIN dom_f", "DROP TYPE dom_ft", "DROP DOMAIN dom_f"} {
		want, got := askDomain(t, pg, sql), askDomain(t, vs, sql)
		if want.Tag != got.Tag || want.State != got.State || vsqlPrefix.ReplaceAllString(got.Message, "") != want.Message {
			t.Errorf("%s\n  PostgreSQL: %v\n  vsqld:      %v", sql, want, got)
		}
	}
	// COPY FROM STDIN checks the domain as INSERT does
	for _, c := range []*pgconn.PgConn{pg, vs} {
		askDomain(t, c, "CREATE DOMAIN dom_copy AS int NOT NULL CHECK (VALUE > 0)")
		askDomain(t, c, "CREATE TABLE dom_ct (a int, b dom_copy)")
	}
	for _, copy := range []struct{ data, state string }{{"1\t1\n2\t2\n", ""}, {"3\t0\n", "23514"}, {"4\t\\N\n", "23502"}} {
		for name, c := range map[string]*pgconn.PgConn{"PostgreSQL": pg, "vsqld": vs} {
			_, err := c.CopyFrom(context.Background(), strings.NewReader(copy.data), "COPY dom_ct FROM STDIN")
			var pe *pgconn.PgError
			switch {
			case copy.state == "" && err != nil:
				t.Errorf("%s: COPY %q: %v", name, copy.data, err)
			case copy.state != "" && (!asPgError(err, &pe) || pe.Code != copy.state):
				t.Errorf("%s: COPY %q: want %s, got %v", name, copy.data, copy.state, err)
			}
		}
	}
	if want, got := askDomain(t, pg, "SELECT * FROM dom_ct ORDER BY a"), askDomain(t, vs, "SELECT * FROM dom_ct ORDER BY a"); !reflect.DeepEqual(want, got) {
		t.Errorf("after COPY\n  PostgreSQL: %v\n  vsqld:      %v", want, got)
	}
	for _, sql := range domainRefused {
		want, got := askDomain(t, pg, sql), askDomain(t, vs, sql)
		switch {
		case want.State == "0A000" || want.State != "" && want.State != got.State:
			t.Errorf("%s: PostgreSQL %+v", sql, want)
		case got.State == "" && want.State == "":
			// the set-up statements
		case got.State != "0A000" || got.Hint == "":
			t.Errorf("%s: want feature_not_supported with a hint, got %+v", sql, got)
		}
	}
}

// domainAnswer is a statement's answer with the error's message.
type domainAnswer struct {
	answer
	State, Message, Detail string
	Hint                   string
	Notices                []string
}

// vsqlPrefix is the "[vsql:code] " vsql's messages start with.
var vsqlPrefix = regexp.MustCompile(`^\[vsql:[a-z_]+\] `)

func askDomain(t *testing.T, c *pgconn.PgConn, sql string) domainAnswer {
	t.Helper()
	res, err := execText(c, sql)
	if err != nil {
		var pe *pgconn.PgError
		if asPgError(err, &pe) {
			a := domainAnswer{State: pe.Code, Message: pe.Message, Detail: pe.Detail}
			a.Hint = pe.Hint
			return a
		}
		t.Fatalf("%s: %v", sql, err)
	}
	a := domainAnswer{answer: answer{Tag: res[len(res)-1].CommandTag.String(), Rows: textRows(res[len(res)-1].Rows)}}
	for _, f := range res[len(res)-1].FieldDescriptions {
		a.Names = append(a.Names, f.Name)
	}
	return a
}

// noticeConn connects to dsn, recording each NOTICE's message (and
// detail) in notices.
func noticeConn(t *testing.T, dsn string, notices *[]string) *pgconn.PgConn {
	t.Helper()
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	cfg.OnNotice = func(_ *pgconn.PgConn, n *pgconn.Notice) {
		text := n.Severity + ": " + n.Message
		if n.Detail != "" {
			text += " / " + n.Detail
		}
		*notices = append(*notices, text)
	}
	c, err := pgconn.ConnectConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func (a domainAnswer) String() string {
	return fmt.Sprintf("tag=%q names=%v rows=%v state=%s message=%q detail=%q notices=%q", a.Tag, a.Names, a.Rows, a.State, a.Message, a.Detail, a.Notices)
}

// TestDomainsParameters: a parameter cast to a domain, or written to a
// column of one, is checked in the extended protocol too.
func TestDomainsParameters(t *testing.T) {
	ctx := context.Background()
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		for _, q := range []string{"CREATE DOMAIN dom_p AS text CHECK (VALUE <> 'bad')", "CREATE TABLE dom_pt (a int, b dom_p)"} {
			if _, err := c.Exec(ctx, q); err != nil {
				t.Fatalf("%s: %s: %v", name, q, err)
			}
		}
		var s string
		if err := c.QueryRow(ctx, "SELECT $1::dom_p", "good").Scan(&s); err != nil || s != "good" {
			t.Errorf("%s: %v %q", name, err, s)
		}
		var pe *pgconn.PgError
		if err := c.QueryRow(ctx, "SELECT $1::dom_p", "bad").Scan(&s); !asPgError(err, &pe) || pe.Code != "23514" {
			t.Errorf("%s: a bad parameter: %v", name, err)
		}
		if _, err := c.Exec(ctx, "INSERT INTO dom_pt VALUES ($1, $2)", 1, "ok"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := c.Exec(ctx, "INSERT INTO dom_pt VALUES ($1, $2)", 2, "bad"); !asPgError(err, &pe) || pe.Code != "23514" {
			t.Errorf("%s: a bad row: %v", name, err)
		}
		if _, err := c.Exec(ctx, "DROP TABLE dom_pt; DROP DOMAIN dom_p"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
