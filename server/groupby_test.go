package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestGroupByDependentColumns: a grouped query may select the other
// columns of a table whose primary key it groups by, written as Django
// writes it (quoted names) or plainly; grouping by other columns and
// selecting ungrouped ones is PostgreSQL's 42803, not a query that forms
// other groups.
func TestGroupByDependentColumns(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP TABLE IF EXISTS gb_invoice", "DROP TABLE IF EXISTS gb_customer"},
		`CREATE TABLE gb_customer ("id" bigint PRIMARY KEY, "name" varchar(100) NOT NULL, city text)`,
		`CREATE TABLE gb_invoice ("id" bigint PRIMARY KEY, total numeric(10,2), customer_id bigint)`,
		`INSERT INTO gb_customer VALUES (1, 'ann', 'oslo'), (2, 'bob', 'oslo'), (3, 'cy', 'rome')`,
		`INSERT INTO gb_invoice VALUES (1, 10, 1), (2, 5, 1), (3, 7, 2)`)
	compareSteps(t, pg, vs, []string{
		`SELECT "gb_customer"."id", "gb_customer"."name", COUNT("gb_invoice"."id") AS "n", SUM("gb_invoice"."total") AS "s" FROM "gb_customer" LEFT OUTER JOIN "gb_invoice" ON ("gb_customer"."id" = "gb_invoice"."customer_id") GROUP BY "gb_customer"."id" ORDER BY "gb_customer"."name" ASC`,
		`SELECT c.*, count(i.id) FROM gb_customer c LEFT JOIN gb_invoice i ON i.customer_id = c.id GROUP BY c.id ORDER BY c.id`,
		`SELECT id, name, city FROM gb_customer GROUP BY city ORDER BY 1`,
		`SELECT city, name FROM gb_customer GROUP BY city`,
		`SELECT city, count(*) FROM gb_customer GROUP BY city ORDER BY city`,
	})
}
