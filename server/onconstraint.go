package server

import (
	"context"
	"strings"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// onConstraint reads INSERT … ON CONFLICT ON CONSTRAINT name (SQLAlchemy's
// on_conflict_do_update(constraint=…)), which DuckDB does not take ("ON
// CONSTRAINT conflict target is not supported yet"), as ON CONFLICT
// (columns) of the primary key or UNIQUE constraint of that name — named
// as vsql's pg_constraint names them: <table>_pkey, <table>_<columns>_key.
// A name no such constraint has is PostgreSQL's 42704.
func (s *Session) onConstraint(ctx context.Context, st sqltext.Statement) (sqltext.Statement, error) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == sqltext.Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	if !word(0, "insert") && !word(0, "with") {
		return st, nil
	}
	at := -1
	for i := 3; i+1 < len(toks); i++ {
		// (the length first: every INSERT passes here)
		if toks[i].End-toks[i].Start == len("constraint") && word(i, "constraint") && word(i-1, "on") &&
			word(i-2, "conflict") && word(i-3, "on") && (toks[i+1].Kind == sqltext.Word || toks[i+1].Kind == sqltext.Quoted) {
			at = i - 1
			break
		}
	}
	if at < 0 {
		return st, nil
	}
	name := sqltext.UnquoteIdent(sql[toks[at+2].Start:toks[at+2].End])
	if toks[at+2].Kind == sqltext.Word {
		name = strings.ToLower(name)
	}
	var cols []string
	err := s.queryRows(ctx, `SELECT CASE constraint_type WHEN 'PRIMARY KEY' THEN table_name || '_pkey'
			ELSE table_name || '_' || array_to_string(constraint_column_names, '_') || '_key' END,
			constraint_column_names
		FROM duckdb_constraints() WHERE database_name = current_database() AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')`,
		func(row []any) {
			if cols != nil {
				return
			}
			if n, _ := row[0].(string); n == name {
				for _, c := range row[1].([]any) {
					cols = append(cols, sqltext.QuoteIdent(c.(string)))
				}
			}
		})
	if err != nil {
		return st, err
	}
	if cols == nil {
		return st, vsqlerr.New(vsqlerr.UndefinedObject, "constraint %q does not exist", name).
			WithHint("Name a primary key (<table>_pkey) or a UNIQUE constraint (<table>_<columns>_key), as pg_constraint lists them, or give the columns: ON CONFLICT (a, b).")
	}
	offset := st.Offset
	out := sqltext.Parse(sql[:toks[at].Start] + "(" + strings.Join(cols, ", ") + ")" + sql[toks[at+2].End:])
	out.Offset = offset
	return out, nil
}
