package duckstream

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// TestTextCast: a registered cast from text replaces DuckDB's own for
// CAST, an implicit cast into a column, comparisons with a literal and a
// text column (dictionary-compressed, with NULLs); a failure is an error
// of CAST and a NULL of TRY_CAST.
func TestTextCast(t *testing.T) {
	db, conn, dc := openConn(t)
	_ = db
	// 'dayN' is N days after 1970-01-01; anything else fails.
	err := RegisterTextCast(driver.Conn(dc), CastDate, -1, func(text []byte) (int64, error) {
		s := string(text)
		if !strings.HasPrefix(s, "day") {
			return 0, errors.New("not a day: " + s)
		}
		return strconv.ParseInt(s[3:], 10, 32)
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	one := func(q string) (string, error) {
		var v sql.NullString
		err := conn.QueryRowContext(ctx, q).Scan(&v)
		if !v.Valid {
			return "NULL", err
		}
		return v.String, err
	}
	for q, want := range map[string]string{
		"SELECT CAST('day1' AS DATE)::VARCHAR":        "1970-01-02",
		"SELECT 'day31'::DATE::VARCHAR":               "1970-02-01",
		"SELECT TRY_CAST('nope' AS DATE)::VARCHAR":    "NULL",
		"SELECT CAST(NULL::VARCHAR AS DATE)::VARCHAR": "NULL",
		"SELECT DATE 'day5' > 'day3'":                 "true", // a typed literal is a cast too
		"SELECT count(*) FROM (SELECT CAST(s AS DATE) d FROM (SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE 'day' || (i % 3) END AS s FROM range(10000) r(i))) WHERE d = 'day2'": "2857",
	} {
		got, err := one(q)
		if err != nil || got != want {
			t.Errorf("%s = %s, %v; want %s", q, got, err, want)
		}
	}
	if _, err := conn.ExecContext(ctx, "CREATE TABLE d (x DATE); INSERT INTO d VALUES ('day10')"); err != nil {
		t.Fatal(err)
	}
	if got, err := one("SELECT x::VARCHAR FROM d"); err != nil || got != "1970-01-11" {
		t.Errorf("implicit cast into a column: %s, %v", got, err)
	}
	// A text column, stored and read back (dictionary compression).
	if _, err := conn.ExecContext(ctx, "CREATE TABLE s AS SELECT 'day' || (i % 4) AS s FROM range(50000) r(i); CHECKPOINT"); err != nil {
		t.Fatal(err)
	}
	if got, err := one("SELECT sum(epoch(CAST(s AS DATE)) / 86400)::BIGINT::VARCHAR FROM s"); err != nil || got != "75000" {
		t.Errorf("stored text column: %s, %v", got, err)
	}
	if _, err := one("SELECT CAST('nope' AS DATE)"); err == nil || !strings.Contains(err.Error(), "not a day: nope") {
		t.Errorf("CAST of bad text: %v", err)
	}
	if _, err := conn.ExecContext(ctx, "INSERT INTO d VALUES ('bad')"); err == nil || !strings.Contains(err.Error(), "not a day: bad") {
		t.Errorf("INSERT of bad text: %v", err)
	}
}

// A cast of VARCHAR to BLOB in Go: values of any length (inline and not),
// the empty value, NULL, TRY_CAST and the error of CAST.
func TestBytesCast(t *testing.T) {
	_, conn, dc := openConn(t)
	// 'rev:…' is the reversed text; anything else fails.
	err := RegisterBytesCast(driver.Conn(dc), -1, func(text []byte) ([]byte, error) {
		s, ok := strings.CutPrefix(string(text), "rev:")
		if !ok {
			return nil, errors.New("not reversible: " + string(text))
		}
		b := []byte(s)
		for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
			b[i], b[j] = b[j], b[i]
		}
		return b, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for q, want := range map[string]string{
		"SELECT hex(CAST('rev:abc' AS BLOB))":                                                                   "636261",
		"SELECT hex(CAST('rev:abcdefghijklmnopqrstuvwxyz' AS BLOB))":                                            strings.ToUpper(hex.EncodeToString([]byte("zyxwvutsrqponmlkjihgfedcba"))),
		"SELECT octet_length(CAST('rev:' AS BLOB))::VARCHAR":                                                    "0",
		"SELECT coalesce(hex(TRY_CAST('nope' AS BLOB)), 'NULL')":                                                "NULL",
		"SELECT coalesce(hex(CAST(NULL::VARCHAR AS BLOB)), 'NULL')":                                             "NULL",
		"SELECT sum(octet_length(CAST('rev:' || repeat('x', i % 40) AS BLOB)))::VARCHAR FROM range(10000) r(i)": "195000",
	} {
		var got string
		if err := conn.QueryRowContext(ctx, q).Scan(&got); err != nil || got != want {
			t.Errorf("%s = %s, %v; want %s", q, got, err, want)
		}
	}
	if _, err := conn.ExecContext(ctx, "CREATE TABLE b (x BLOB); INSERT INTO b VALUES ('oops')"); err == nil || !strings.Contains(err.Error(), "not reversible: oops") {
		t.Errorf("INSERT of bad text: %v", err)
	}
}

// A text type of the engine (RegisterTextType): a column of it, casts
// from text and between two such types in Go (one implicit, used to bind
// a function), a cast of it to a number, and the alias in the result's
// column type.
func TestTextType(t *testing.T) {
	_, conn, dc := openConn(t)
	for _, name := range []string{"up", "down"} {
		if err := RegisterTextType(driver.Conn(dc), name); err != nil {
			t.Fatal(err)
		}
	}
	// text into up: upper case; 'x…' fails
	err := RegisterTextTypeCast(driver.Conn(dc), "", "up", -1, func(text []byte) ([]byte, error) {
		if strings.HasPrefix(string(text), "x") {
			return nil, errors.New("no x: " + string(text))
		}
		return []byte(strings.ToUpper(string(text))), nil
	})
	if err == nil {
		err = RegisterTextTypeCast(driver.Conn(dc), "up", "down", 1, func(text []byte) ([]byte, error) {
			return []byte(strings.ToLower(string(text))), nil
		})
	}
	if err == nil {
		err = RegisterTextTypeNumberCast(driver.Conn(dc), "up", CastBigint, -1, func(text []byte) (int64, error) {
			return int64(len(text)), nil
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for q, want := range map[string]string{
		"SELECT CAST('ab' AS up)":                                         "AB",
		"SELECT CAST(CAST('ab' AS up) AS down)":                           "ab",
		"SELECT CAST(CAST('abc' AS up) AS BIGINT)":                        "3",
		"SELECT coalesce(TRY_CAST('xy' AS up), '-')":                      "-",
		"SELECT typeof(CAST('ab' AS up))":                                 "up",
		"SELECT list_concat([CAST('ab' AS down)], [CAST('cd' AS up)])[2]": "cd", // up to down, implicitly
	} {
		var got string
		if err := conn.QueryRowContext(ctx, q).Scan(&got); err != nil || got != want {
			t.Errorf("%s = %s, %v; want %s", q, got, err, want)
		}
	}
	if _, err := conn.ExecContext(ctx, "CREATE TABLE u (x up); INSERT INTO u VALUES ('ok'), ('xx')"); err == nil || !strings.Contains(err.Error(), "no x: xx") {
		t.Errorf("INSERT of bad text: %v", err)
	}
	s := prepare(t, dc, "SELECT CAST('a' AS up) AS x")
	cols, err := StatementColumns(s)
	if err != nil || len(cols) != 1 || cols[0].Alias != "up" {
		t.Errorf("the column's type: %+v, %v", cols, err)
	}
}

// A cast of DOUBLE and FLOAT to an integer type in Go, for every value of
// a vector, NULLs kept, an error failing CAST and nulling TRY_CAST.
func TestFloatCast(t *testing.T) {
	_, conn, dc := openConn(t)
	for _, src := range []CastTarget{CastDouble, CastFloat} {
		// truncate towards zero; -13 is refused
		if err := RegisterFloatCast(driver.Conn(dc), src, CastInteger, func(f float64) (int64, error) {
			if f == -13 {
				return 0, errors.New("unlucky")
			}
			return int64(f), nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := RegisterFloatCast(driver.Conn(dc), CastDate, CastInteger, nil); err == nil {
		t.Error("a cast from DATE was registered")
	}
	ctx := context.Background()
	for q, want := range map[string]string{
		"SELECT (2.9::DOUBLE)::INTEGER::VARCHAR":           "2",
		"SELECT (-2.9::FLOAT)::INTEGER::VARCHAR":           "-2",
		"SELECT TRY_CAST(-13::DOUBLE AS INTEGER)::VARCHAR": "NULL",
		"SELECT sum(CAST(i / 2 AS INTEGER))::VARCHAR FROM (SELECT CASE WHEN i % 10 = 0 THEN NULL ELSE i::DOUBLE END AS i FROM range(1, 5001) r(i))": "5623750",
	} {
		var v sql.NullString
		err := conn.QueryRowContext(ctx, q).Scan(&v)
		got := v.String
		if !v.Valid {
			got = "NULL"
		}
		if err != nil || got != want {
			t.Errorf("%s = %s, %v; want %s", q, got, err, want)
		}
	}
	var v sql.NullString
	if err := conn.QueryRowContext(ctx, "SELECT (-13::DOUBLE)::INTEGER").Scan(&v); err == nil || !strings.Contains(err.Error(), "unlucky") {
		t.Errorf("CAST refused by the function: %v", err)
	}
}
