package pgcompat

import (
	"errors"
	"testing"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// TestWithChecks: the WITH lists PostgreSQL 15 refuses before running
// them (the codes are PostgreSQL's answers, server/withrecursive_test.go
// compares the messages with a real PostgreSQL), and well-formed ones of
// similar shapes that must not be refused.
func TestWithChecks(t *testing.T) {
	cases := []struct {
		sql  string
		code vsqlerr.Code // "" = not refused
	}{
		{"WITH x(n, b) AS (SELECT 1) SELECT * FROM x", vsqlerr.InvalidColumnReference},
		{"WITH x(n, b) AS (VALUES (1)) SELECT * FROM x", vsqlerr.InvalidColumnReference},
		{"WITH x(n, b) AS (SELECT * FROM t) SELECT * FROM x", ""},
		{"WITH x(n) AS (SELECT 1, 2) SELECT * FROM x", ""},
		{"WITH x(n, b) AS (SELECT f(a, b), [1, 2] FROM t) SELECT * FROM x", ""},
		{"WITH x(n, b) AS (SELECT t.order, t.limit FROM t) SELECT * FROM x", ""},
		{"WITH x(n, b) AS (SELECT 1 AS offset, 2 AS for) SELECT * FROM x", ""},
		{"WITH x(n, b) AS (SELECT * EXCLUDE (c) FROM t) SELECT * FROM x", ""},
		{"WITH x(n, b) AS (SELECT COLUMNS('a|b') FROM t) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n + 1 FROM x JOIN t ON t.offset = x.n) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 INTERSECT SELECT n+1 FROM x) SELECT * FROM x", vsqlerr.InvalidRecursion},
		{"WITH RECURSIVE x(n) AS (SELECT n FROM x UNION ALL SELECT 1) SELECT * FROM x", vsqlerr.InvalidRecursion},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM y LEFT JOIN x ON x.n = y.a) SELECT * FROM x", vsqlerr.InvalidRecursion},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM x LEFT JOIN y ON x.n = y.a) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM x LEFT JOIN y ON left(x.s, 1) = y.a) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT x.n+1 FROM x RIGHT JOIN y ON x.n = y.a) SELECT * FROM x", vsqlerr.InvalidRecursion},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x WHERE n IN (SELECT * FROM x)) SELECT * FROM x", vsqlerr.InvalidRecursion},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM (SELECT * FROM x) s) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM x WHERE x < 5) SELECT x FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM x) SELECT * FROM x", vsqlerr.InvalidRecursion},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT count(*) OVER () FROM x) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + (SELECT count(*) FROM t) FROM x) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x ORDER BY 1) SELECT * FROM x", vsqlerr.FeatureNotSupported},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x) SELECT * FROM x ORDER BY 1 LIMIT 3", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM y), y(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM x) SELECT * FROM x", vsqlerr.FeatureNotSupported},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL (SELECT n+1 FROM x UNION ALL SELECT n+2 FROM x)) SELECT * FROM x", vsqlerr.InvalidRecursion},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL (WITH x AS (SELECT 2) SELECT * FROM x)) SELECT * FROM x", ""},
		{"WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL (WITH y AS (SELECT * FROM x) SELECT n + 1 FROM y)) SELECT * FROM x", ""},
		{"WITH RECURSIVE t(n) AS (VALUES (1) UNION ALL SELECT n+1 FROM t WHERE n < 100) SELECT sum(n) FROM t", ""},
		{"SELECT * FROM unnest(ARRAY[1]) WITH ORDINALITY AS u(a, n)", ""},
		{"CREATE TABLE t (a int) WITH (fillfactor = 70)", ""},
		{"WITH RECURSIVE a(b) AS (SELECT 1 UNION ALL SELECT b+1 FROM a WHERE b < 3) SEARCH DEPTH FIRST BY c SET s SELECT * FROM a", vsqlerr.SyntaxError},
		{"WITH RECURSIVE a(b) AS (SELECT 1 UNION ALL SELECT b+1 FROM a WHERE b < 3) SEARCH DEPTH FIRST BY b, b SET s SELECT * FROM a", vsqlerr.DuplicateColumn},
		{"WITH RECURSIVE a(b) AS (SELECT 1 UNION ALL SELECT b+1 FROM a WHERE b < 3) CYCLE b SET c TO true DEFAULT 0 USING p SELECT * FROM a", vsqlerr.CycleMarkType},
		{"WITH RECURSIVE a(b) AS (SELECT 1 UNION ALL SELECT b+1 FROM a WHERE b < 3) CYCLE b SET c TO 'Y' DEFAULT 'N' USING p SELECT * FROM a", ""},
		{"WITH a(b) AS (SELECT 1) SEARCH DEPTH FIRST BY b SET s SELECT * FROM a", vsqlerr.SyntaxError},
		{"WITH RECURSIVE c AS (SELECT 1 a) MERGE INTO m USING c ON m.k = c.a WHEN MATCHED THEN DELETE", vsqlerr.SyntaxError},
	}
	for _, c := range cases {
		_, _, err := rewriteChecked(sqltext.Parse(c.sql), Session{})
		var ve *vsqlerr.Error
		switch {
		case c.code == "" && err != nil:
			t.Errorf("%s: refused: %v", c.sql, err)
		case c.code != "" && (!errors.As(err, &ve) || ve.Code != c.code):
			t.Errorf("%s: got %v, want %s", c.sql, err, c.code)
		}
	}
}
