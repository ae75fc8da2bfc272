package pgcompat

import "github.com/vsql/vsql/sqltext"

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
	if open := p.enclosing(i); open >= 0 && !p.isWord(open+1, "select") && !p.isWord(open+1, "with") {
		return // substring(s FROM 1 FOR n) and other calls
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
