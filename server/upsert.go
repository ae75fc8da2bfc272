package server

import (
	"context"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// prepareUpsertCheck prepares, for INSERT … VALUES … ON CONFLICT (keys)
// DO UPDATE (st as DuckDB runs it), the query that finds a key the rows
// propose twice: PostgreSQL refuses such a statement (21000), DuckDB
// would insert the first row and drop the others' updates without a
// word. nil when the statement is not one, or the check cannot be
// written (a key column the statement leaves to its default, a query
// DuckDB cannot prepare): the statement then runs as DuckDB runs it.
func (s *Session) prepareUpsertCheck(ctx context.Context, st sqltext.Statement, paramOIDs []uint32) *duckStatement {
	u, ok := pgcompat.ReadUpsert(st)
	if !ok {
		return nil
	}
	var columns []string
	if u.Columns != nil {
		for _, c := range u.Columns {
			columns = append(columns, sqltext.UnquoteIdent(c))
		}
	} else if columns = s.firstColumns(ctx, u.Table, u.NValues); columns == nil {
		return nil
	}
	q, ok := u.DuplicateKeysQuery(columns)
	if !ok {
		return nil
	}
	failed := s.txStatus() == txFailed
	check, err := s.prepareDuckDB(ctx, q, paramOIDs)
	if err != nil {
		if !failed && s.txStatus() == txFailed {
			s.setTx(txOpen) // the check only failed to prepare
		}
		return nil
	}
	return check
}

// refuseDuplicateKeys runs the upsert check with the statement's
// arguments: PostgreSQL's 21000 when the rows propose a key twice.
func (d *duckStatement) refuseDuplicateKeys(ctx context.Context, args []any) error {
	rows, err := d.executeOnce(ctx, args, false)
	if err != nil {
		return err
	}
	defer rows.Close()
	vals := make([]any, 1)
	if rows.Next(vals) {
		if dup, _ := vals[0].(bool); dup {
			return vsqlerr.New(vsqlerr.CardinalityViolation, "ON CONFLICT DO UPDATE command cannot affect row a second time").
				WithHint("Ensure that no rows proposed for insertion within the same command have duplicate constrained values.")
		}
	}
	return rows.Err()
}
