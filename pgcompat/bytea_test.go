package pgcompat

import "testing"

func TestRewriteByteaLiterals(t *testing.T) {
	for in, want := range map[string]string{
		`INSERT INTO t VALUES (1, '\x0001ff'::bytea)`:       `INSERT INTO t VALUES (1, from_hex('0001ff'))`,
		`SELECT E'\\x0a0b'::bytea, 'x'`:                     `SELECT from_hex('0a0b'), 'x'`,
		`SELECT '\x'::BYTEA`:                                `SELECT from_hex('')`,
		`SELECT '\000'::bytea`:                              `SELECT '\000'::bytea`,
		`SELECT '\xzz'::bytea`:                              `SELECT '\xzz'::bytea`,
		`SELECT 'it''s \x00'::text, '\x01'::bytea -- bytea`: `SELECT 'it''s \x00'::text, from_hex('01') -- bytea`,
	} {
		got, _ := Rewrite(in)
		if got != want {
			t.Errorf("Rewrite(%s) = %s, want %s", in, got, want)
		}
	}
}
