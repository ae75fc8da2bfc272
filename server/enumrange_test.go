package server_test

import (
	"testing"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestEnumRange: enum_range of one and of two arguments, NULL ends
// included, as PostgreSQL answers.
func TestEnumRange(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	setupBoth(t, pg, vs, []string{"DROP TYPE IF EXISTS er_rainbow"},
		"CREATE TYPE er_rainbow AS ENUM ('red', 'orange', 'yellow', 'green', 'blue', 'purple')")
	compareSteps(t, pg, vs, []string{
		"SELECT enum_range(NULL::er_rainbow)",
		"SELECT enum_range('orange'::er_rainbow, 'green'::er_rainbow)",
		"SELECT enum_range(NULL, 'green'::er_rainbow)",
		"SELECT enum_range('orange'::er_rainbow, NULL)",
		"SELECT enum_range(NULL::er_rainbow, NULL)",
		"SELECT enum_range('green'::er_rainbow, 'orange'::er_rainbow)",
		"SELECT array_length(enum_range('red'::er_rainbow, 'purple'::er_rainbow), 1)",
	})
}
