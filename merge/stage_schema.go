package merge

import (
	"context"
	"fmt"
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// applySchema changes the staging copy of ours to the planned catalog,
// inside the build's transaction and before any row is applied: views the
// merge replaces or removes go first, then removed tables, then tables that
// lose columns are rebuilt (DuckDB cannot drop a column that an index
// follows), columns are added, and new tables are created with their
// indexes. Definitions from the inputs run with staging as the default
// database, so their unqualified names land there.
func (s *session) applySchema(ctx context.Context, staging, op string) error {
	if s.plan.mode == SchemaStrict {
		return nil
	}
	if _, err := s.conn.ExecContext(ctx, "USE "+sqltext.QuoteIdent(staging)); err != nil {
		return err
	}
	exec := func(what, q string) error {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	for _, v := range s.plan.views {
		if own := s.ours.views[v.name]; own != "" && own != v.change.Definition {
			if err := exec("drop view "+v.name, "DROP VIEW "+sqltext.QuoteIdent(v.name)); err != nil {
				return err
			}
		}
	}
	for i, tp := range s.plan.tables {
		own := tp.sides[1]
		name := sqltext.QuoteIdent(tp.name)
		switch {
		case tp.merged == nil:
			if own != nil {
				if err := exec("drop table "+tp.name, "DROP TABLE "+name); err != nil {
					return err
				}
			}
		case own == nil:
			if err := exec("create table "+tp.name, tp.merged.sql); err != nil {
				return err
			}
			for _, ix := range tp.merged.indexes {
				if err := exec("create index on "+tp.name, ix); err != nil {
					return err
				}
			}
		case len(tp.dropColumns) > 0:
			if err := s.rebuild(ctx, tp, fmt.Sprintf("__vsql_rebuild_%s_%d", op, i)); err != nil {
				return err
			}
		default:
			for _, c := range tp.addColumns {
				if err := exec("add column "+tp.name+"."+c.name, "ALTER TABLE "+name+" ADD COLUMN "+sqltext.QuoteIdent(c.name)+" "+c.dataType); err != nil {
					return err
				}
			}
		}
	}
	_, err := s.conn.ExecContext(ctx, "USE "+sqltext.QuoteIdent(s.home))
	return err
}

// rebuild recreates ours' table from its planned definition, keeping ours'
// rows in the columns the result keeps (added columns start NULL).
func (s *session) rebuild(ctx context.Context, tp *tablePlan, old string) error {
	own := tp.sides[1]
	var kept []string
	for _, c := range tp.merged.columns {
		if _, ok := own.column(c.name); ok {
			kept = append(kept, sqltext.QuoteIdent(c.name))
		}
	}
	cols := strings.Join(kept, ", ")
	name := sqltext.QuoteIdent(tp.name)
	steps := []string{
		"CREATE TABLE " + sqltext.QuoteIdent(old) + " AS SELECT " + cols + " FROM " + name,
		"DROP TABLE " + name,
		tp.merged.sql,
	}
	steps = append(steps, tp.merged.indexes...)
	steps = append(steps,
		"INSERT INTO "+name+" ("+cols+") SELECT "+cols+" FROM "+sqltext.QuoteIdent(old),
		"DROP TABLE "+sqltext.QuoteIdent(old))
	for _, q := range steps {
		if _, err := s.conn.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("rebuild table %s: %w", tp.name, err)
		}
	}
	return nil
}

// createViews creates the result's views that ours lacks or has with
// another definition, dependencies first.
func (s *session) createViews(ctx context.Context, staging string) error {
	if s.plan.mode == SchemaStrict {
		return nil
	}
	if _, err := s.conn.ExecContext(ctx, "USE "+sqltext.QuoteIdent(staging)); err != nil {
		return err
	}
	for _, name := range s.plan.viewOrder {
		v := s.plan.view(name)
		if s.ours.views[name] == v.change.Definition {
			continue
		}
		if _, err := s.conn.ExecContext(ctx, v.change.Definition); err != nil {
			return fmt.Errorf("create view %s: %w", name, err)
		}
	}
	_, err := s.conn.ExecContext(ctx, "USE "+sqltext.QuoteIdent(s.home))
	return err
}
