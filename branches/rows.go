package branches

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// TableRows is one page of a table's rows in one version.
type TableRows struct {
	Tables  []string // the version's tables (default schema), sorted
	Columns []string
	Rows    [][]string // values as text; NULL is ""
	Nulls   [][]bool
	Total   int64 // rows in the table
}

// Rows reads limit rows of table in version (a snapshot id or name, or a
// branch name, as Diff reads them) from offset, ordered by the primary key
// (or by every column, for a table without one), for the web console. An
// empty table lists the version's tables only.
func (m *Manager) Rows(ctx context.Context, db, version, table string, offset, limit int) (TableRows, error) {
	var out TableRows
	alias, err := m.resolveVersion(ctx, db, version)
	if err != nil {
		return out, err
	}
	shapes, err := m.tables(ctx, alias)
	if err != nil {
		return out, err
	}
	for n := range shapes {
		out.Tables = append(out.Tables, n)
	}
	sort.Strings(out.Tables)
	if table == "" {
		return out, nil
	}
	shape, ok := shapes[table]
	if !ok {
		return out, vsqlerr.New(vsqlerr.InvalidArgument, "table %q does not exist in %s", table, version)
	}
	out.Columns = shape.columns
	order := shape.key
	if len(order) == 0 {
		order = shape.columns
	}
	quoted := make([]string, len(order))
	for i, c := range order {
		quoted[i] = sqltext.QuoteIdent(c)
	}
	from := sqltext.QuoteIdent(alias) + ".main." + sqltext.QuoteIdent(table)
	if err := m.eng.Query(ctx, "SELECT count(*) FROM "+from, func(row []any) error {
		out.Total, _ = row[0].(int64)
		return nil
	}); err != nil {
		return out, err
	}
	cols := make([]string, len(shape.columns))
	for i, c := range shape.columns {
		cols[i] = sqltext.QuoteIdent(c) + "::VARCHAR"
	}
	q := "SELECT " + strings.Join(cols, ", ") + " FROM " + from + " ORDER BY " + strings.Join(quoted, ", ") +
		" LIMIT " + strconv.Itoa(limit) + " OFFSET " + strconv.Itoa(offset)
	err = m.eng.Query(ctx, q, func(row []any) error {
		vals, nulls := make([]string, len(row)), make([]bool, len(row))
		for i, v := range row {
			if v == nil {
				nulls[i] = true
				continue
			}
			vals[i] = fmt.Sprint(v)
		}
		out.Rows, out.Nulls = append(out.Rows, vals), append(out.Nulls, nulls)
		return nil
	})
	return out, err
}
