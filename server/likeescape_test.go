package server_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestLikeBackslashEscape: LIKE and ILIKE take a backslash as their
// escape character, as PostgreSQL's do (Django escapes % and _ in a
// __contains value this way); DuckDB's LIKE has no escape character, and
// such patterns silently matched nothing.
func TestLikeBackslashEscape(t *testing.T) {
	pgConn := pgtest.Connect(t)
	vsConn := connectPgx(t, startServer(t, nil))
	pg, vs := pgConn.PgConn(), vsConn.PgConn()
	setupBoth(t, pg, vs, []string{"DROP TABLE IF EXISTS lk_t"},
		"CREATE TABLE lk_t (s text)",
		`INSERT INTO lk_t VALUES ('50%'), ('500'), ('a_b'), ('axb'), ('a\b'), ('ABC_')`)
	compareSteps(t, pg, vs, []string{
		`SELECT 'a_b' LIKE 'a\_b', 'axb' LIKE 'a\_b', '50%' LIKE '%50\%%', 'a\b' LIKE 'a\\b'`,
		`SELECT s FROM lk_t WHERE s LIKE '%0\%' ORDER BY 1`,
		`SELECT s FROM lk_t WHERE s NOT LIKE 'a\_b' ORDER BY 1`,
		`SELECT s FROM lk_t WHERE s ILIKE 'abc\_' ORDER BY 1`,
		`SELECT s FROM lk_t WHERE s LIKE '%' || '\_' || '%' ORDER BY 1`,
		`SELECT s FROM lk_t WHERE s LIKE 'a#_b' ESCAPE '#' ORDER BY 1`,
		`SELECT CASE WHEN 'a%' LIKE 'a\%' THEN 1 ELSE 0 END, 'ab' LIKE 'a%' = true`,
	})
	// a parameter, as Django sends filter(s__contains="_")
	ctx := context.Background()
	for _, pattern := range []string{`%\_%`, `%0\%`, `a\\b`, `%x%`} {
		want, err := likeRows(ctx, pgConn, pattern)
		if err != nil {
			t.Fatalf("PostgreSQL, LIKE $1 with %q: %v", pattern, err)
		}
		got, err := likeRows(ctx, vsConn, pattern)
		if err != nil {
			t.Fatalf("vsqld, LIKE $1 with %q: %v", pattern, err)
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("LIKE $1 with %q: PostgreSQL %v, vsqld %v", pattern, want, got)
		}
	}
}

// likeRows are the rows of lk_t whose s is LIKE pattern, a parameter.
func likeRows(ctx context.Context, c *pgx.Conn, pattern string) ([]string, error) {
	rows, err := c.Query(ctx, "SELECT s FROM lk_t WHERE s LIKE $1 ORDER BY 1", pattern)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
