package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/sqltext"
)

// Casts to a domain (CREATE DOMAIN, server/domain.go). DuckDB knows a
// domain as a type alias of its base type, so x::d and CAST(x AS d) cast
// to the base type; PostgreSQL also checks the domain's constraints. The
// cast is wrapped in the call of the domain's check macro, which returns
// the value or raises the domain's error: x::d becomes
// <macro>(x::d). The server tells the rewrite the domains through
// Session.Domains (keys in lower case), asked once per statement and only for a statement that
// casts to a type name that is not one of PostgreSQL's or DuckDB's own
// (builtinTypes). A cast to an array of a domain (x::d[]) is not checked
// per element.

// domainColonCast: token i is the first ':' of x::type.
func domainColonCast(p *pass, i int) {
	if !p.isOp(i+1, ":") || !p.adjacent(i) || p.isOp(i-1, ":") {
		return
	}
	typeStart := i + 2
	macro, typeEnd := p.domainType(typeStart)
	if macro == "" {
		return
	}
	start := p.operandStart(i - 1)
	if start < 0 {
		return
	}
	// a prefix operator of the operand binds looser than :: (-1::d is
	// -(1::d)), so the call wraps the operand alone
	p.insert(p.toks[start].Start, macro+"(")
	p.insert(p.toks[typeEnd].End, ")")
}

// domainCastCall: token i is CAST of CAST(x AS type).
func domainCastCall(p *pass, i int) {
	if p.kind(i+1) != sqltext.Open || p.isOp(i-1, ".") {
		return
	}
	close := p.matchForward(i + 1)
	if close < 0 {
		return
	}
	// the last AS at the call's own depth
	as, depth := -1, 0
	for k := i + 2; k < close; k++ {
		switch p.kind(k) {
		case sqltext.Open:
			depth++
		case sqltext.Close:
			depth--
		}
		if depth == 0 && p.isWord(k, "as") {
			as = k
		}
	}
	if as < 0 {
		return
	}
	macro, typeEnd := p.domainType(as + 1)
	if macro == "" || typeEnd != close-1 {
		return
	}
	p.insert(p.toks[i].Start, macro+"(")
	p.insert(p.toks[close].End, ")")
}

// domainType reads a type name at token i: the check macro of the domain
// it names ("" when it names none) and the name's last token.
func (p *pass) domainType(i int) (string, int) {
	if p.sess.Domains == nil || p.kind(i) != sqltext.Word && p.kind(i) != sqltext.Quoted {
		return "", -1
	}
	var parts []string
	j := i
	for {
		name := p.text(j)
		if p.kind(j) == sqltext.Quoted {
			name = sqltext.UnquoteIdent(name)
		}
		name = strings.ToLower(name) // (DuckDB's type names ignore case)
		parts = append(parts, name)
		if !p.isOp(j+1, ".") || p.kind(j+2) != sqltext.Word && p.kind(j+2) != sqltext.Quoted {
			break
		}
		j += 2
	}
	if p.isOp(j+1, "[") || p.kind(j+1) == sqltext.Open || p.kind(j+1) == sqltext.Word && typeWords[strings.ToLower(p.text(j+1))] {
		return "", -1 // an array of it, a type modifier, a multi-word type
	}
	if len(parts) == 1 && builtinTypes[parts[0]] {
		return "", -1
	}
	if p.domains == nil {
		p.domains = p.sess.Domains()
		if p.domains == nil {
			p.domains = map[string]string{}
		}
	}
	macro := p.domains[strings.Join(parts, ".")]
	if macro == "" {
		return "", -1
	}
	return macro, j
}

// builtinTypes are type names that never name a domain (a domain's name
// may not be a built-in type's), so a cast to one asks no catalog.
var builtinTypes = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`int int2 int4 int8 integer smallint bigint real float float4 float8 double
		numeric decimal text varchar char character bpchar name bool boolean date time timetz timestamp timestamptz
		interval json jsonb uuid bytea regclass regtype regproc regprocedure oid xid inet cidr money bit varbit
		tinyint hugeint uinteger ubigint usmallint utinyint blob string record anyelement void regnamespace regrole
		regconfig regoper regoperator cstring unknown tsvector tsquery xml point line lseg box path polygon circle`) {
		builtinTypes[t] = true
	}
}
