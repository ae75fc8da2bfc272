package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// lockingClause: SELECT … FOR UPDATE, FOR NO KEY UPDATE, FOR SHARE or
// FOR KEY SHARE, each with OF t, … and NOWAIT or SKIP LOCKED, in a
// SELECT or a subquery of one (Django's select_for_update, SQLAlchemy's
// with_for_update, job queues' FOR UPDATE SKIP LOCKED). DuckDB refuses
// the clause; vsqld drops it. DuckDB takes no row locks: its transactions
// are optimistic, and a transaction that writes a row another
// transaction wrote since it began (or is writing) fails with 40001
// (serialization_failure) instead of waiting for a lock, so an update
// is never lost; what a lock would also have kept — another transaction
// changing the row between this one's read and its commit when this one
// does not write the row itself — is not kept (docs/sql.md).
func lockingClause(p *pass, i int) {
	if !p.dml {
		return
	}
	open := p.enclosing(i)
	if open >= 0 && !p.isWord(open+1, "select") && !p.isWord(open+1, "with") {
		return // substring(s FROM 1 FOR n) and other calls
	}
	// PostgreSQL refuses a locking clause with aggregates, GROUP BY,
	// HAVING, DISTINCT, set operations and window functions (0A000): the
	// clause stays, and DuckDB refuses it with the same class.
	for j := open + 1; j < i; j++ {
		if p.kind(j) != sqltext.Word {
			continue
		}
		w := strings.ToLower(p.text(j))
		if lockRefused[w] || (aggregateNames[w] && p.kind(j+1) == sqltext.Open) {
			return
		}
	}
	j := i + 1
	switch {
	case p.isWord(j, "update"), p.isWord(j, "share"):
		j++
	case p.isWord(j, "no") && p.isWord(j+1, "key") && p.isWord(j+2, "update"):
		j += 3
	case p.isWord(j, "key") && p.isWord(j+1, "share"):
		j += 2
	default:
		return
	}
	if p.isWord(j, "of") {
		j++
		for p.kind(j) == sqltext.Word || p.kind(j) == sqltext.Quoted {
			j++
			if p.isOp(j, ".") || p.isOp(j, ",") {
				j++
				continue
			}
			break
		}
	}
	switch {
	case p.isWord(j, "nowait"):
		j++
	case p.isWord(j, "skip") && p.isWord(j+1, "locked"):
		j += 2
	}
	// The clause ends the query, or another clause follows it.
	switch {
	case j >= len(p.toks), p.kind(j) == sqltext.Semi, p.kind(j) == sqltext.Close,
		p.isWord(j, "for"), p.isWord(j, "limit"), p.isWord(j, "offset"), p.isWord(j, "fetch"):
	default:
		return
	}
	p.replace(p.toks[i].Start, p.toks[j-1].End, "")
}

// lockRefused are the words of a query PostgreSQL refuses a locking
// clause with; aggregateNames its common aggregate functions.
var lockRefused = map[string]bool{"group": true, "having": true, "distinct": true, "union": true,
	"intersect": true, "except": true, "over": true, "window": true}

var aggregateNames = map[string]bool{"count": true, "sum": true, "min": true, "max": true, "avg": true,
	"array_agg": true, "string_agg": true, "bool_and": true, "bool_or": true, "every": true,
	"json_agg": true, "jsonb_agg": true, "json_object_agg": true, "jsonb_object_agg": true,
	"stddev": true, "stddev_pop": true, "stddev_samp": true, "variance": true, "var_pop": true,
	"var_samp": true, "bit_and": true, "bit_or": true, "percentile_cont": true, "percentile_disc": true, "mode": true}
