package server

import (
	"context"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
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

// prepareUpsertMerge prepares INSERT … VALUES … ON CONFLICT (keys) DO
// UPDATE whose SET or WHERE holds a subquery, which DuckDB refuses, as
// the MERGE that does the same (pgcompat.ReadUpsertMerge), shown to the
// client as the INSERT (its tag INSERT 0 n, its RETURNING rows). First
// the INSERT with DO NOTHING is prepared (not run), for DuckDB to check
// the conflict target against the table's unique indexes and primary
// key (PostgreSQL's 42P10 when none matches); rows that propose one key
// twice are refused by the upsert check (21000), which is required for
// more than one row. merged is false when the statement is not such an
// upsert or the check cannot be written (it then runs as DuckDB runs
// it).
func (s *Session) prepareUpsertMerge(ctx context.Context, st sqltext.Statement, sess pgcompat.Session, paramOIDs []uint32) (ds *duckStatement, merged bool, err error) {
	if kw := st.Keyword(0); kw != "INSERT" && kw != "WITH" || sess.TableColumns == nil {
		return nil, false, nil
	}
	if !strings.Contains(st.SQL, "onflict") && !strings.Contains(st.SQL, "ONFLICT") {
		return nil, false, nil // no ON CONFLICT: the common INSERT pays one scan of its text
	}
	if strings.Contains(st.SQL, withTablePrefix) {
		// the main statement of a data-modifying WITH (withdml.go): its
		// parts ran before it, so rows they changed would be updated
		// again, where PostgreSQL skips them; DuckDB's refusal stands
		return nil, false, nil
	}
	u, ok := pgcompat.ReadUpsertMerge(st, sess.TableColumns)
	if !ok {
		return nil, false, nil
	}
	probe, err := s.prepareRaw(ctx, u.Probe.SQL)
	if err != nil {
		if strings.Contains(err.Error(), "conflict target") {
			err = vsqlerr.New(vsqlerr.InvalidColumnReference, "there is no unique or exclusion constraint matching the ON CONFLICT specification").
				WithHint("Name as the conflict target the columns of the table's primary key or of one of its unique indexes.")
		}
		return nil, true, s.failed(err)
	}
	// the parameters take the types the INSERT gives them (its columns'),
	// which the MERGE's VALUES in a subquery do not tell DuckDB
	if n := probe.NumInput(); n > 0 {
		typed := make([]uint32, n)
		copy(typed, paramOIDs)
		for i := range typed {
			if typed[i] == 0 {
				if t, err := probe.ParamType(i + 1); err == nil && t != duckdb.TYPE_INVALID {
					typed[i] = pgwire.ParamOID(t, nil)
				}
			}
		}
		paramOIDs = typed
	}
	_ = probe.Close()
	var check *duckStatement
	if u.Rows > 1 {
		if check = s.prepareUpsertCheck(ctx, u.Insert, paramOIDs); check == nil {
			return nil, false, nil
		}
	}
	shown := st
	ds, err = s.prepareDuckDBAs(ctx, u.Merge, &shown, paramOIDs)
	if err != nil {
		if check != nil {
			check.Close()
		}
		return nil, true, err
	}
	ds.upsertCheck = check
	return ds, true, nil
}
