package pgcompat

import (
	"database/sql/driver"
	"sort"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// tsquery: a tree of lexemes and the operators ! (not), <N> (followed
// by, at distance N), & and |, kept as PostgreSQL's text ('a' & !'b').

// tsqOp is a node's operator, or tsqValue for a lexeme.
type tsqOp uint8

const (
	tsqValue tsqOp = iota
	tsqNot
	tsqPhrase
	tsqAnd
	tsqOr
)

// tsqPriority is an operator's binding strength, as PostgreSQL prints it.
var tsqPriority = map[tsqOp]int{tsqOr: 1, tsqAnd: 2, tsqPhrase: 3, tsqNot: 4, tsqValue: 5}

type tsqNode struct {
	op          tsqOp
	left, right *tsqNode // right alone for !
	dist        int      // of <N>
	word        string
	prefix      bool
	weights     uint8 // bit w for weight w (0 D … 3 A); 0 any
}

// String is the query's PostgreSQL text ("" for the empty query).
func (n *tsqNode) String() string {
	if n == nil {
		return ""
	}
	var b strings.Builder
	n.write(&b, 0, false)
	return b.String()
}

func (n *tsqNode) write(b *strings.Builder, parent int, rightOfPhrase bool) {
	if n.op == tsqValue {
		writeTSLexeme(b, n.word)
		if n.prefix || n.weights != 0 {
			b.WriteByte(':')
			if n.prefix {
				b.WriteByte('*')
			}
			for w := 3; w >= 0; w-- {
				if n.weights&(1<<w) != 0 {
					b.WriteByte(tsWeightLetters[w])
				}
			}
		}
		return
	}
	prio := tsqPriority[n.op]
	paren := prio < parent || n.op == tsqPhrase && rightOfPhrase
	if paren {
		b.WriteString("( ")
	}
	if n.op == tsqNot {
		b.WriteByte('!')
		n.right.write(b, prio, false)
	} else {
		n.left.write(b, prio, false)
		switch n.op {
		case tsqAnd:
			b.WriteString(" & ")
		case tsqOr:
			b.WriteString(" | ")
		default:
			if n.dist == 1 {
				b.WriteString(" <-> ")
			} else {
				b.WriteString(" <" + strconv.Itoa(n.dist) + "> ")
			}
		}
		n.right.write(b, prio, n.op == tsqPhrase)
	}
	if paren {
		b.WriteString(" )")
	}
}

// tsqParser reads tsquery text; morph turns an operand into its query
// (a lexeme as written for ::tsquery, the configuration's lexemes for
// to_tsquery; nil for a stop word).
type tsqParser struct {
	s     string
	i     int
	morph func(word string, prefix bool, weights uint8) *tsqNode
}

func tsquerySyntax(s string) error {
	return vsqlerr.New(vsqlerr.SyntaxError, "syntax error in tsquery: %q", s)
}

func (p *tsqParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

// parse reads the whole text; a stop word is a tsqRemoved operand
// (cleanStopWords drops it with the operators it leaves empty).
func (p *tsqParser) parse() (*tsqNode, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, nil
	}
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, tsquerySyntax(p.s)
	}
	return n, nil
}

// tsqRemoved stands for an operand that was a stop word.
var tsqRemoved = &tsqNode{op: tsqValue}

// or and and read operands of the next level joined by | and by &, left
// to right.
func (p *tsqParser) or() (*tsqNode, error)  { return p.joined('|', tsqOr, p.and) }
func (p *tsqParser) and() (*tsqNode, error) { return p.joined('&', tsqAnd, p.phrase) }

func (p *tsqParser) joined(sep byte, op tsqOp, next func() (*tsqNode, error)) (*tsqNode, error) {
	left, err := next()
	for err == nil {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != sep {
			return left, nil
		}
		p.i++
		var right *tsqNode
		if right, err = next(); err == nil {
			left = &tsqNode{op: op, left: left, right: right}
		}
	}
	return nil, err
}

func (p *tsqParser) phrase() (*tsqNode, error) {
	left, err := p.unary()
	for err == nil {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '<' {
			return left, nil
		}
		dist, n := 1, 0
		switch {
		case strings.HasPrefix(p.s[p.i:], "<->"):
			n = 3
		default:
			j := p.i + 1
			for j < len(p.s) && isDigit(p.s[j]) {
				j++
			}
			if j == p.i+1 || j >= len(p.s) || p.s[j] != '>' {
				return nil, tsquerySyntax(p.s)
			}
			d, convErr := strconv.Atoi(p.s[p.i+1 : j])
			if convErr != nil || d > tsMaxPos+1 {
				return nil, vsqlerr.New(vsqlerr.InvalidArgument, "distance in phrase operator must be an integer value between zero and %d inclusive", tsMaxPos+1)
			}
			dist, n = d, j+1-p.i
		}
		p.i += n
		var right *tsqNode
		if right, err = p.unary(); err == nil {
			left = &tsqNode{op: tsqPhrase, left: left, right: right, dist: dist}
		}
	}
	return nil, err
}

func (p *tsqParser) unary() (*tsqNode, error) {
	p.space()
	if p.i >= len(p.s) {
		return nil, tsquerySyntax(p.s)
	}
	switch p.s[p.i] {
	case '!':
		p.i++
		n, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &tsqNode{op: tsqNot, right: n}, nil
	case '(':
		p.i++
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return nil, tsquerySyntax(p.s)
		}
		p.i++
		return n, nil
	case ')', '&', '|', '<', ':':
		return nil, tsquerySyntax(p.s)
	}
	word, end, ok := readTSWord(p.s, p.i, ":&|!()<")
	if !ok {
		return nil, tsquerySyntax(p.s)
	}
	p.i = end
	var prefix bool
	var weights uint8
	if p.i < len(p.s) && p.s[p.i] == ':' {
		p.i++
		for p.i < len(p.s) {
			c := p.s[p.i]
			if c == '*' {
				prefix = true
			} else if w := strings.IndexByte("DCBAdcba", c); w >= 0 {
				weights |= 1 << (w % 4)
			} else {
				break
			}
			p.i++
		}
	}
	n := p.morph(word, prefix, weights)
	if n == nil {
		return tsqRemoved, nil
	}
	return n, nil
}

// cleanStopWords drops the removed operands and the operators they leave
// empty; a phrase operator next to a removed one takes its distance
// (left and right are the distances removed at either end of the result).
func cleanStopWords(n *tsqNode) (out *tsqNode, left, right int) {
	switch {
	case n == tsqRemoved:
		return nil, 0, 0
	case n.op == tsqValue:
		return n, 0, 0
	case n.op == tsqNot:
		c, _, _ := cleanStopWords(n.right)
		if c == nil {
			return nil, 0, 0
		}
		return &tsqNode{op: tsqNot, right: c}, 0, 0
	}
	l, ll, lr := cleanStopWords(n.left)
	r, rl, rr := cleanStopWords(n.right)
	if n.op != tsqPhrase {
		switch {
		case l == nil:
			return r, 0, 0
		case r == nil:
			return l, 0, 0
		}
		return &tsqNode{op: n.op, left: l, right: r}, 0, 0
	}
	switch {
	case l == nil && r == nil:
		return nil, ll + lr + n.dist + rl + rr, 0
	case l == nil:
		return r, ll + lr + n.dist + rl, rr
	case r == nil:
		return l, ll, lr + n.dist + rl + rr
	}
	return &tsqNode{op: tsqPhrase, left: l, right: r, dist: n.dist + lr + rl}, ll, rr
}

// parseTSQuery reads tsquery text (the lexemes as written).
func parseTSQuery(s string) (*tsqNode, error) {
	p := tsqParser{s: s, morph: func(word string, prefix bool, weights uint8) *tsqNode {
		return &tsqNode{op: tsqValue, word: word, prefix: prefix, weights: weights}
	}}
	return p.parse()
}

// tsqLexemes joins the lexemes of text (in the configuration c) with op:
// & for plainto_tsquery; followed-by at their distance for
// phraseto_tsquery and for an operand of to_tsquery. nil when there are
// none.
func tsqLexemes(c *tsConfig, text string, op tsqOp, prefix bool, weights uint8) *tsqNode {
	var n *tsqNode
	last := 0
	c.words(text, 0, func(lx string, pos int) {
		v := &tsqNode{op: tsqValue, word: lx, prefix: prefix, weights: weights}
		if n == nil {
			n = v
		} else {
			n = &tsqNode{op: op, left: n, right: v, dist: pos - last}
		}
		last = pos
	})
	return n
}

// toTSQuery is to_tsquery(config, text).
func toTSQuery(config, text string) (*tsqNode, error) {
	c, err := tsConfigNamed(config)
	if err != nil {
		return nil, err
	}
	p := tsqParser{s: text, morph: func(word string, prefix bool, weights uint8) *tsqNode {
		return tsqLexemes(c, word, tsqPhrase, prefix, weights)
	}}
	n, err := p.parse()
	if err != nil || n == nil {
		return nil, err
	}
	n, _, _ = cleanStopWords(n)
	return n, nil
}

// plainToTSQuery is plainto_tsquery (op &) and phraseto_tsquery (op
// followed-by).
func plainToTSQuery(config, text string, op tsqOp) (*tsqNode, error) {
	c, err := tsConfigNamed(config)
	if err != nil {
		return nil, err
	}
	return tsqLexemes(c, text, op, false, 0), nil
}

// websearchToTSQuery is websearch_to_tsquery: terms joined by &, a
// "quoted phrase" by followed-by, or between two terms |, -term its
// negation. Outside quotes, white space and the characters of tsquery's
// operators (& | ! ( ) < > :) separate terms; the words of one term
// are a phrase (foo_bar, foo-bar).
func websearchToTSQuery(config, text string) (*tsqNode, error) {
	c, err := tsConfigNamed(config)
	if err != nil {
		return nil, err
	}
	type item struct {
		text   string
		quoted bool
		nots   int
	}
	var items []item
	for i := 0; i < len(text); {
		nots := 0
		for i < len(text) && text[i] == '-' {
			nots++
			i++
		}
		switch {
		case i >= len(text):
		case text[i] == '"':
			end := strings.IndexByte(text[i+1:], '"')
			if end < 0 {
				end = len(text) - i - 1
			}
			items = append(items, item{text: text[i+1 : i+1+end], quoted: true, nots: nots})
			i += end + 2
			continue
		case strings.IndexByte(websearchSeparators, text[i]) >= 0:
			i++
			continue
		}
		j := i
		for j < len(text) && strings.IndexByte(websearchSeparators+`"`, text[j]) < 0 {
			j++
		}
		if j > i {
			items = append(items, item{text: text[i:j], nots: nots})
		}
		i = j
	}
	// & binds tighter than |: groups of terms joined by &, groups by |
	var result, group *tsqNode
	or := false
	for k, it := range items {
		if !it.quoted && it.nots == 0 && strings.EqualFold(it.text, "or") && k > 0 && k+1 < len(items) && !or {
			or = true
			continue
		}
		n := tsqLexemes(c, it.text, tsqPhrase, false, 0)
		if n == nil {
			continue
		}
		for ; it.nots > 0; it.nots-- {
			n = &tsqNode{op: tsqNot, right: n}
		}
		switch {
		case group == nil:
			group = n
		case or:
			result = joinTSQ(result, group, tsqOr)
			group = n
		default:
			group = &tsqNode{op: tsqAnd, left: group, right: n}
		}
		or = false
	}
	return joinTSQ(result, group, tsqOr), nil
}

// websearchSeparators end a term of websearch_to_tsquery.
const websearchSeparators = " \t\n\r&|!()<>:"

func joinTSQ(a, b *tsqNode, op tsqOp) *tsqNode {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &tsqNode{op: op, left: a, right: b}
}

// numNode is numnode(q): its operands and operators.
func (n *tsqNode) numNode() int {
	if n == nil {
		return 0
	}
	return 1 + n.left.numNode() + n.right.numNode()
}

// queryTree is querytree(q): the query without its negated parts, what an
// index can search for; T when nothing is left.
func queryTree(n *tsqNode) *tsqNode {
	if n == nil {
		return nil
	}
	switch n.op {
	case tsqValue:
		return n
	case tsqNot:
		return nil
	}
	l, r := queryTree(n.left), queryTree(n.right)
	switch {
	case n.op == tsqOr && (l == nil || r == nil):
		return nil
	case l == nil:
		return r
	case r == nil:
		return l
	}
	return &tsqNode{op: n.op, left: l, right: r, dist: n.dist}
}

// tsMatch is v @@ q. An operator of phrases (<N>) compares positions.
func tsMatch(v tsvector, q *tsqNode) bool {
	if q == nil {
		return false
	}
	return tsExecute(q, func(op *tsqNode) ([]int, bool) { return v.positions(op) })
}

// positions are the positions of the lexemes op names (a prefix: every
// lexeme starting so) of the weights it allows; found reports whether
// a lexeme matched at all (a stripped one has no positions).
func (v tsvector) positions(op *tsqNode) (pos []int, found bool) {
	i := sort.Search(len(v), func(i int) bool { return v[i].word >= op.word })
	for ; i < len(v); i++ {
		l := v[i]
		if l.word != op.word && !(op.prefix && strings.HasPrefix(l.word, op.word)) {
			break
		}
		if len(l.pos) == 0 {
			found = true
			continue
		}
		for _, p := range l.pos {
			if op.weights == 0 || op.weights&(1<<p.weight) != 0 {
				pos = append(pos, p.pos)
				found = true
			}
		}
		if !op.prefix {
			break
		}
	}
	sort.Ints(pos)
	return pos, found
}

// tsExecute evaluates q; lookup gives an operand's positions.
func tsExecute(q *tsqNode, lookup func(*tsqNode) ([]int, bool)) bool {
	switch q.op {
	case tsqValue:
		_, found := lookup(q)
		return found
	case tsqNot:
		return !tsExecute(q.right, lookup)
	case tsqAnd:
		return tsExecute(q.left, lookup) && tsExecute(q.right, lookup)
	case tsqOr:
		return tsExecute(q.left, lookup) || tsExecute(q.right, lookup)
	}
	// a phrase with a lexeme found without positions (strip) is false,
	// negated parts too: PostgreSQL cannot tell, and says no
	nopos := false
	set := phraseSet(q, func(op *tsqNode) ([]int, bool) {
		pos, found := lookup(op)
		nopos = nopos || found && len(pos) == 0
		return pos, found
	})
	return !nopos && (set.negated || len(set.spans) > 0)
}

// span is a match of a phrase: its first and last positions.
type span struct{ start, end int }

// posSet is where a phrase matches: its spans or, when negated, every
// position but the ends of its spans (then all of one width).
type posSet struct {
	spans   []span
	negated bool
	width   int // of a negated set
}

// endsAt reports whether a span ends at p (of a negated set: no match
// ends there).
func (s posSet) endsAt(p int) bool {
	for _, sp := range s.spans {
		if sp.end == p {
			return true
		}
	}
	return false
}

// ends are the ends of the spans.
func (s posSet) ends() map[int]span {
	out := make(map[int]span, len(s.spans))
	for _, sp := range s.spans {
		if old, ok := out[sp.end]; !ok || sp.start < old.start {
			out[sp.end] = sp
		}
	}
	return out
}

// phraseSet is where q matches, as PostgreSQL's phrase execution finds
// it: an alternative (|) keeps each side's own width, as if the phrase
// around it were written out for each side.
func phraseSet(q *tsqNode, lookup func(*tsqNode) ([]int, bool)) posSet {
	switch q.op {
	case tsqValue:
		pos, _ := lookup(q)
		out := posSet{}
		for _, p := range pos {
			out.spans = append(out.spans, span{p, p})
		}
		return out
	case tsqNot:
		s := phraseSet(q.right, lookup)
		if !s.negated {
			s.width = 0
			for _, sp := range s.spans {
				s.width = max(s.width, sp.end-sp.start)
			}
		}
		s.negated = !s.negated
		return s
	}
	l, r := phraseSet(q.left, lookup), phraseSet(q.right, lookup)
	var out posSet
	switch {
	case q.op == tsqPhrase && !l.negated && !r.negated:
		le := l.ends()
		for _, rs := range r.spans {
			if ls, ok := le[rs.start-q.dist]; ok {
				out.spans = append(out.spans, span{ls.start, rs.end})
			}
		}
	case q.op == tsqPhrase && l.negated && !r.negated:
		for _, rs := range r.spans {
			if end := rs.start - q.dist; !l.endsAt(end) {
				out.spans = append(out.spans, span{end - l.width, rs.end})
			}
		}
	case q.op == tsqPhrase && !l.negated:
		for _, ls := range l.spans {
			if end := ls.end + q.dist + r.width; !r.endsAt(end) {
				out.spans = append(out.spans, span{ls.start, end})
			}
		}
	case q.op == tsqPhrase: // both negated: every end but those either excludes
		out = posSet{negated: true, width: l.width + q.dist + r.width, spans: r.spans}
		for _, ls := range l.spans {
			out.spans = append(out.spans, span{ls.start, ls.end + q.dist + r.width})
		}
	case !l.negated && !r.negated && q.op == tsqOr:
		out.spans = append(append(out.spans, l.spans...), r.spans...)
	case !l.negated && !r.negated: // and: ends in both
		re := r.ends()
		for _, ls := range l.spans {
			if rs, ok := re[ls.end]; ok {
				out.spans = append(out.spans, span{min(ls.start, rs.start), ls.end})
			}
		}
	case l.negated && r.negated:
		out = posSet{negated: true, width: max(l.width, r.width)}
		for _, ls := range l.spans {
			if r.endsAt(ls.end) || q.op == tsqAnd {
				out.spans = append(out.spans, ls)
			}
		}
		if q.op == tsqAnd {
			out.spans = append(out.spans, r.spans...)
		}
	default: // one side negated
		pos, neg := l, r
		if l.negated {
			pos, neg = r, l
		}
		if q.op == tsqAnd {
			for _, sp := range pos.spans {
				if !neg.endsAt(sp.end) {
					out.spans = append(out.spans, sp)
				}
			}
			break
		}
		out = posSet{negated: true, width: neg.width}
		for _, sp := range neg.spans {
			if !pos.endsAt(sp.end) {
				out.spans = append(out.spans, sp)
			}
		}
	}
	return out
}

// tsqueryArg reads a tsquery argument.
func tsqueryArg(v driver.Value) (*tsqNode, error) {
	s, _ := v.(string)
	return parseTSQuery(s)
}

// tsqueryFunctions are the Go functions of tsquery values.
func tsqueryFunctions() map[string][]scalar {
	str := func(n *tsqNode, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return n.String(), nil
	}
	text2 := func(f func(config, text string) (*tsqNode, error)) []scalar {
		return []scalar{{in: []duckdb.Type{tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			return str(f(a[0].(string), a[1].(string)))
		}}}
	}
	return map[string][]scalar{
		"__vsql_tsquery_in":  {{in: []duckdb.Type{tText}, out: tText, run: func(a []driver.Value) (any, error) { return str(tsqueryArg(a[0])) }}},
		"__vsql_to_tsquery":  text2(toTSQuery),
		"__vsql_websearch":   text2(websearchToTSQuery),
		"__vsql_plainto":     text2(func(c, t string) (*tsqNode, error) { return plainToTSQuery(c, t, tsqAnd) }),
		"__vsql_phraseto":    text2(func(c, t string) (*tsqNode, error) { return plainToTSQuery(c, t, tsqPhrase) }),
		"__vsql_tsquery_and": {{in: []duckdb.Type{tText, tText}, out: tText, run: func(a []driver.Value) (any, error) { return tsqueryJoin(a, tsqAnd) }}},
		"__vsql_tsquery_or":  {{in: []duckdb.Type{tText, tText}, out: tText, run: func(a []driver.Value) (any, error) { return tsqueryJoin(a, tsqOr) }}},
		"__vsql_tsquery_not": {{in: []duckdb.Type{tText}, out: tText, run: func(a []driver.Value) (any, error) {
			n, err := tsqueryArg(a[0])
			if err != nil || n == nil {
				return str(n, err)
			}
			return str(&tsqNode{op: tsqNot, right: n}, nil)
		}}},
		"__vsql_tsquery_phrase": {{in: []duckdb.Type{tText, tText, tInt4}, out: tText, run: func(a []driver.Value) (any, error) {
			l, r, err := readBoth(a[0], a[1], tsqueryArg, tsqueryArg)
			d := int(a[2].(int32))
			if err == nil && (d < 0 || d > tsMaxPos+1) {
				err = vsqlerr.New(vsqlerr.InvalidArgument, "distance in phrase operator must be an integer value between zero and %d inclusive", tsMaxPos+1)
			}
			if err != nil || l == nil || r == nil {
				return str(joinTSQ(l, r, tsqPhrase), err)
			}
			return str(&tsqNode{op: tsqPhrase, left: l, right: r, dist: d}, nil)
		}}},
		"__vsql_numnode":      {{in: []duckdb.Type{tText}, out: tInt4, run: func(a []driver.Value) (any, error) { n, err := tsqueryArg(a[0]); return int32(n.numNode()), err }}},
		"__vsql_querytree":    {{in: []duckdb.Type{tText}, out: tText, run: tsQueryTree}},
		"__vsql_ts_match":     {{in: []duckdb.Type{tText, tText, tText}, out: tBool, run: tsMatchValues}},
		"__vsql_ts_match_vq":  {{in: []duckdb.Type{tText, tText}, out: tBool, run: tsMatchVQ}},
		"__vsql_ts_config_ok": {{in: []duckdb.Type{tText}, out: tText, run: tsConfigCheck}},
	}
}

// tsqueryJoin is a && b and a || b of tsqueries (an empty one gives the
// other).
func tsqueryJoin(a []driver.Value, op tsqOp) (any, error) {
	l, r, err := readBoth(a[0], a[1], tsqueryArg, tsqueryArg)
	if err != nil {
		return nil, err
	}
	return joinTSQ(l, r, op).String(), nil
}

// readBoth reads two arguments.
func readBoth[L, R any](a, b driver.Value, readA func(driver.Value) (L, error), readB func(driver.Value) (R, error)) (L, R, error) {
	l, err := readA(a)
	if err != nil {
		var r R
		return l, r, err
	}
	r, err := readB(b)
	return l, r, err
}

func tsQueryTree(a []driver.Value) (any, error) {
	n, err := tsqueryArg(a[0])
	if err != nil || n == nil {
		return "", err
	}
	if t := queryTree(n); t != nil {
		return t.String(), nil
	}
	return "T", nil
}

// tsConfigCheck is a regconfig's name, checked ('english'::regconfig).
func tsConfigCheck(a []driver.Value) (any, error) {
	s := a[0].(string)
	if _, err := tsConfigNamed(s); err != nil {
		return nil, err
	}
	return s, nil
}

func tsMatchVQ(a []driver.Value) (any, error) {
	v, q, err := readBoth(a[0], a[1], tsvectorArg, tsqueryArg)
	if err != nil {
		return nil, err
	}
	return tsMatch(v, q), nil
}

// tsMatchValues is a @@ b when the rewrite cannot see the operands'
// types (all are text to DuckDB): a tsvector and a tsquery in either
// order, read from their PostgreSQL text (a tsvector in vsql's output
// form makes the other operand a tsquery's input, 'a & b'); two texts
// are text @@ text, to_tsvector and plainto_tsquery in the default
// configuration (third argument), as PostgreSQL's.
func tsMatchValues(a []driver.Value) (any, error) {
	left, right, config := a[0].(string), a[1].(string), a[2].(string)
	queryFirst := looksTSQuery(left) && !looksTSQuery(right)
	if queryFirst {
		left, right = right, left
	}
	// beside a tsvector (or a tsquery), the other operand is of the
	// other type, as PostgreSQL types an untyped literal
	typed := queryFirst || looksTSVector(left)
	var v tsvector
	var err error
	if typed {
		v, err = parseTSVector(left)
	} else {
		v, err = toTSVector(config, left)
	}
	if err != nil {
		return nil, err
	}
	var q *tsqNode
	if typed || looksTSQuery(right) {
		q, err = parseTSQuery(right)
	} else {
		q, err = plainToTSQuery(config, right, tsqAnd)
	}
	if err != nil {
		return nil, err
	}
	return tsMatch(v, q), nil
}

// looksTSVector reports whether s is a tsvector as vsql writes one:
// every lexeme quoted, each followed by its positions or a space.
func looksTSVector(s string) bool {
	if s == "" {
		return true
	}
	for i := 0; i < len(s); {
		if s[i] != '\'' {
			return false
		}
		_, end, ok := readTSWord(s, i, "")
		if !ok {
			return false
		}
		i = end
		if i < len(s) && s[i] == ':' {
			i++
			for i < len(s) && (isDigit(s[i]) || s[i] == ',' || strings.IndexByte("ABC", s[i]) >= 0) {
				i++
			}
		}
		if i < len(s) {
			if s[i] != ' ' {
				return false
			}
			i++
		}
	}
	return true
}

// looksTSQuery reports whether s is a tsquery as vsql writes one: its
// operands quoted.
func looksTSQuery(s string) bool {
	if s == "" || strings.IndexByte("'!(", s[0]) < 0 {
		return false
	}
	_, err := parseTSQuery(s)
	if err != nil {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			_, end, _ := readTSWord(s, i, "")
			i = end - 1
		case c == ' ' || c == '!' || c == '(' || c == ')' || c == '&' || c == '|' || c == '<' || c == '>' || c == '-' || c == ':' || c == '*' || isDigit(c) || strings.IndexByte("ABCD", c) >= 0:
		default:
			return false
		}
	}
	return true
}
