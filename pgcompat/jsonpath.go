package pgcompat

import (
	"database/sql/driver"
	"encoding/json"
	"math/big"
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's SQL/JSON path operators on jsonb, j @? path (does the path
// return an item) and j @@ path (the result of a predicate), in lax mode
// and with errors suppressed, as the operators run them. The language
// vsql reads is the part of jsonpath that queries use: $ and @, .key,
// ."quoted key", .*, [*], [n, …], filters ? (…), comparisons (==, !=, <>,
// <, <=, >, >=) of paths and literals (strings, numbers, true, false,
// null), &&, ||, !, exists (…) and parentheses. Anything else in a path
// (arithmetic, item methods such as .size(), like_regex, starts with,
// strict) is refused as feature_not_supported, never answered wrongly; a
// malformed path is PostgreSQL's syntax error.

// jpNode is a parsed path expression.
type jpNode interface{}

type (
	// jpPath is $ or @ followed by accessors.
	jpPath struct {
		root  byte // '$' or '@'
		steps []jpStep
	}
	jpStep struct {
		kind    byte   // '.' key, '*' any member, '[' subscripts ('w' wildcard), '?' filter
		key     string // '.'
		indexes []int  // '['
		filter  jpNode // '?'
	}
	jpLiteral struct{ value any } // a JSON value (json.Number for numbers)
	jpCompare struct {
		op          string
		left, right jpNode
	}
	jpLogic struct {
		op          string // "&&", "||", "!"
		left, right jpNode
	}
	jpExists struct{ path jpNode }
)

// jpParser reads a jsonpath text.
type jpParser struct {
	src string
	pos int
}

func jsonpathError(format string, args ...any) error {
	e := vsqlerr.New(vsqlerr.SyntaxError, "syntax error in jsonpath: "+format, args...)
	return e
}

func parseJSONPath(src string) (jpNode, error) {
	p := &jpParser{src: src}
	p.space()
	if p.word("strict") {
		return nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "jsonpath strict mode is not supported").WithHint("Write the path in lax mode (the default).")
	}
	p.word("lax")
	n, err := p.or()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos != len(p.src) {
		return nil, p.unsupported()
	}
	return n, nil
}

func (p *jpParser) unsupported() error {
	rest := p.src[p.pos:]
	if len(rest) > 20 {
		rest = rest[:20]
	}
	return vsqlerr.New(vsqlerr.FeatureNotSupported, "jsonpath at %q is not supported: vsql reads paths, filters, comparisons, &&, ||, ! and exists", rest).
		WithHint("See docs/sql.md, jsonb operators, for the part of jsonpath vsql reads.")
}

// unclosed is the error of a ( not closed where vsql's reading stops:
// a syntax error at the end, else a part of jsonpath vsql does not read.
func (p *jpParser) unclosed() error {
	p.space()
	if p.pos == len(p.src) {
		return jsonpathError("missing ) at end of jsonpath input")
	}
	return p.unsupported()
}

func (p *jpParser) space() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\n\r", rune(p.src[p.pos])) {
		p.pos++
	}
}

func (p *jpParser) peek(s string) bool {
	p.space()
	return strings.HasPrefix(p.src[p.pos:], s)
}

func (p *jpParser) eat(s string) bool {
	if p.peek(s) {
		p.pos += len(s)
		return true
	}
	return false
}

// word eats a keyword followed by a non-identifier character.
func (p *jpParser) word(w string) bool {
	p.space()
	rest := p.src[p.pos:]
	if len(rest) < len(w) || !strings.EqualFold(rest[:len(w)], w) {
		return false
	}
	if len(rest) > len(w) && isJPIdent(rest[len(w)]) {
		return false
	}
	p.pos += len(w)
	return true
}

func isJPIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func (p *jpParser) or() (jpNode, error) {
	left, err := p.and()
	for err == nil && p.eat("||") {
		var right jpNode
		if right, err = p.and(); err == nil {
			left = jpLogic{op: "||", left: left, right: right}
		}
	}
	return left, err
}

func (p *jpParser) and() (jpNode, error) {
	left, err := p.not()
	for err == nil && p.eat("&&") {
		var right jpNode
		if right, err = p.not(); err == nil {
			left = jpLogic{op: "&&", left: left, right: right}
		}
	}
	return left, err
}

func (p *jpParser) not() (jpNode, error) {
	if p.peek("!") && !p.peek("!=") {
		p.eat("!")
		n, err := p.not()
		return jpLogic{op: "!", left: n}, err
	}
	return p.comparison()
}

var jpCompareOps = []string{"==", "!=", "<>", "<=", ">=", "<", ">"}

func (p *jpParser) comparison() (jpNode, error) {
	left, err := p.primary()
	if err != nil {
		return nil, err
	}
	for _, op := range jpCompareOps {
		if p.eat(op) {
			right, err := p.primary()
			if err != nil {
				return nil, err
			}
			if op == "<>" {
				op = "!="
			}
			return jpCompare{op: op, left: left, right: right}, nil
		}
	}
	return left, nil
}

func (p *jpParser) primary() (jpNode, error) {
	p.space()
	if p.pos >= len(p.src) {
		return nil, jsonpathError("unexpected end of path")
	}
	switch c := p.src[p.pos]; {
	case c == '(':
		p.pos++
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, p.unclosed()
		}
		return p.steps(n)
	case c == '$' || c == '@':
		p.pos++
		return p.steps(jpPath{root: c})
	case c == '"':
		s, err := p.str()
		return jpLiteral{value: s}, err
	case c == '-' || c >= '0' && c <= '9' || c == '.':
		return p.number()
	}
	switch {
	case p.word("true"):
		return jpLiteral{value: true}, nil
	case p.word("false"):
		return jpLiteral{value: false}, nil
	case p.word("null"):
		return jpLiteral{value: nil}, nil
	case p.word("exists"):
		if !p.eat("(") {
			return nil, jsonpathError("exists needs (")
		}
		n, err := p.or()
		if err != nil {
			return nil, err
		}
		if !p.eat(")") {
			return nil, p.unclosed()
		}
		return jpExists{path: n}, nil
	}
	return nil, p.unsupported()
}

// steps reads the accessors after a path's root.
func (p *jpParser) steps(n jpNode) (jpNode, error) {
	path, isPath := n.(jpPath)
	for {
		p.space()
		if p.pos >= len(p.src) {
			break
		}
		var step jpStep
		switch c := p.src[p.pos]; {
		case c == '.' && !(p.pos+1 < len(p.src) && p.src[p.pos+1] >= '0' && p.src[p.pos+1] <= '9'):
			p.pos++
			p.space()
			switch {
			case p.eat("*"):
				step.kind = '*'
			case p.peek(`"`):
				key, err := p.str()
				if err != nil {
					return nil, err
				}
				step = jpStep{kind: '.', key: key}
			default:
				start := p.pos
				for p.pos < len(p.src) && isJPIdent(p.src[p.pos]) {
					p.pos++
				}
				if p.pos == start {
					return nil, jsonpathError("a key must follow .")
				}
				key := p.src[start:p.pos]
				if p.peek("(") {
					return nil, vsqlerr.New(vsqlerr.FeatureNotSupported, "jsonpath item method .%s() is not supported", key).
						WithHint("See docs/sql.md, jsonb operators, for the part of jsonpath vsql reads.")
				}
				step = jpStep{kind: '.', key: key}
			}
		case c == '[':
			p.pos++
			step.kind = '['
			if p.eat("*") {
				step.kind = 'w'
			} else {
				for {
					n, err := p.number()
					if err != nil {
						return nil, err
					}
					lit := n.(jpLiteral).value.(json.Number)
					i, err := lit.Int64()
					if err != nil {
						return nil, p.unsupported()
					}
					step.indexes = append(step.indexes, int(i))
					if !p.eat(",") {
						break
					}
				}
			}
			if !p.eat("]") {
				return nil, p.unsupported()
			}
		case c == '?':
			p.pos++
			if !p.eat("(") {
				return nil, jsonpathError("a filter needs (")
			}
			f, err := p.or()
			if err != nil {
				return nil, err
			}
			if !p.eat(")") {
				return nil, p.unclosed()
			}
			step = jpStep{kind: '?', filter: f}
		default:
			if isPath {
				return path, nil
			}
			return n, nil
		}
		if !isPath {
			return nil, p.unsupported() // accessors after (…)
		}
		path.steps = append(path.steps, step)
	}
	if isPath {
		return path, nil
	}
	return n, nil
}

func (p *jpParser) str() (string, error) {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			p.pos += 2
			continue
		case '"':
			p.pos++
			var s string
			if err := json.Unmarshal([]byte(p.src[start:p.pos]), &s); err != nil {
				return "", jsonpathError("bad string %s", p.src[start:p.pos])
			}
			return s, nil
		}
		p.pos++
	}
	return "", jsonpathError("unterminated string")
}

func (p *jpParser) number() (jpNode, error) {
	p.space()
	start := p.pos
	if p.pos < len(p.src) && p.src[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.' || p.src[p.pos] == 'e' || p.src[p.pos] == 'E' ||
		(p.src[p.pos] == '+' || p.src[p.pos] == '-') && p.pos > start && (p.src[p.pos-1] == 'e' || p.src[p.pos-1] == 'E')) {
		p.pos++
	}
	text := p.src[start:p.pos]
	if _, ok := new(big.Float).SetString(text); !ok {
		return nil, jsonpathError("bad number %q", text)
	}
	return jpLiteral{value: json.Number(text)}, nil
}

// jpState is the value of a predicate: true, false or unknown.
type jpState int

const (
	jpFalse jpState = iota
	jpTrue
	jpUnknown
)

// jpEval evaluates n on root with @ = current; a predicate gives one
// boolean item (nil for unknown).
func jpEval(n jpNode, root, current any) ([]any, error) {
	switch x := n.(type) {
	case jpPath:
		items := []any{root}
		if x.root == '@' {
			items = []any{current}
		}
		for _, st := range x.steps {
			var next []any
			for _, it := range items {
				out, err := jpStep1(st, root, it)
				if err != nil {
					return nil, err
				}
				next = append(next, out...)
			}
			items = next
		}
		return items, nil
	case jpLiteral:
		return []any{x.value}, nil
	default:
		s, err := jpPredicate(n, root, current)
		if err != nil {
			return nil, err
		}
		switch s {
		case jpTrue:
			return []any{true}, nil
		case jpFalse:
			return []any{false}, nil
		}
		return []any{nil}, nil
	}
}

// jpStep1 applies one accessor to one item, in lax mode: an array is
// unwrapped for a key, a non-array is its own only element.
func jpStep1(st jpStep, root, it any) ([]any, error) {
	switch st.kind {
	case '.':
		switch v := it.(type) {
		case map[string]any:
			if m, ok := v[st.key]; ok {
				return []any{m}, nil
			}
		case []any:
			var out []any
			for _, e := range v {
				if m, ok := e.(map[string]any); ok {
					if val, ok := m[st.key]; ok {
						out = append(out, val)
					}
				}
			}
			return out, nil
		}
		return nil, nil
	case '*':
		members := func(m map[string]any, out []any) []any {
			for _, k := range jsonbKeys(m) {
				out = append(out, m[k])
			}
			return out
		}
		switch v := it.(type) {
		case map[string]any:
			return members(v, nil), nil
		case []any: // lax: the members of each object element
			var out []any
			for _, e := range v {
				if m, ok := e.(map[string]any); ok {
					out = members(m, out)
				}
			}
			return out, nil
		}
		return nil, nil
	case 'w':
		if a, ok := it.([]any); ok {
			return a, nil
		}
		return []any{it}, nil
	case '[':
		a, ok := it.([]any)
		if !ok {
			a = []any{it}
		}
		var out []any
		for _, i := range st.indexes {
			if i >= 0 && i < len(a) {
				out = append(out, a[i])
			}
		}
		return out, nil
	case '?':
		s, err := jpPredicate(st.filter, root, it)
		if err != nil {
			return nil, err
		}
		if s == jpTrue {
			return []any{it}, nil
		}
		return nil, nil
	}
	return nil, nil
}

// jpPredicate evaluates a predicate (three-valued).
func jpPredicate(n jpNode, root, current any) (jpState, error) {
	switch x := n.(type) {
	case jpLogic:
		l, err := jpPredicate(x.left, root, current)
		if err != nil {
			return jpUnknown, err
		}
		switch x.op {
		case "!":
			switch l {
			case jpTrue:
				return jpFalse, nil
			case jpFalse:
				return jpTrue, nil
			}
			return jpUnknown, nil
		case "&&":
			if l == jpFalse {
				return jpFalse, nil
			}
			r, err := jpPredicate(x.right, root, current)
			if err != nil || r == jpFalse {
				return r, err
			}
			if l == jpUnknown || r == jpUnknown {
				return jpUnknown, nil
			}
			return jpTrue, nil
		default: // ||
			if l == jpTrue {
				return jpTrue, nil
			}
			r, err := jpPredicate(x.right, root, current)
			if err != nil || r == jpTrue {
				return r, err
			}
			if l == jpUnknown || r == jpUnknown {
				return jpUnknown, nil
			}
			return jpFalse, nil
		}
	case jpExists:
		items, err := jpEval(x.path, root, current)
		if err != nil {
			return jpUnknown, nil
		}
		if len(items) > 0 {
			return jpTrue, nil
		}
		return jpFalse, nil
	case jpCompare:
		left, err := jpEval(x.left, root, current)
		if err != nil {
			return jpUnknown, nil
		}
		right, err := jpEval(x.right, root, current)
		if err != nil {
			return jpUnknown, nil
		}
		// lax: arrays are unwrapped; true when any pair compares true,
		// unknown when a pair cannot be compared and none is true
		left, right = jpUnwrap(left), jpUnwrap(right)
		unknown := false
		for _, l := range left {
			for _, r := range right {
				switch jpCompareItems(x.op, l, r) {
				case jpTrue:
					return jpTrue, nil
				case jpUnknown:
					unknown = true
				}
			}
		}
		if unknown {
			return jpUnknown, nil
		}
		return jpFalse, nil
	case jpPath, jpLiteral:
		// a path as a predicate: its single boolean item
		items, err := jpEval(n, root, current)
		if err != nil || len(items) != 1 {
			return jpUnknown, nil
		}
		if b, ok := items[0].(bool); ok {
			if b {
				return jpTrue, nil
			}
			return jpFalse, nil
		}
		return jpUnknown, nil
	}
	return jpUnknown, nil
}

func jpUnwrap(items []any) []any {
	var out []any
	for _, it := range items {
		if a, ok := it.([]any); ok {
			out = append(out, a...)
		} else {
			out = append(out, it)
		}
	}
	return out
}

// jpCompareItems compares two scalar items: numbers with numbers, strings
// with strings, booleans with booleans, null with anything (equal only to
// null); other pairs, and objects or arrays, are unknown.
func jpCompareItems(op string, l, r any) jpState {
	var c int
	switch {
	case l == nil || r == nil:
		if op != "==" && op != "!=" {
			return jpUnknown
		}
		eq := l == nil && r == nil
		if op == "!=" {
			eq = !eq
		}
		return jpBool(eq)
	}
	switch a := l.(type) {
	case json.Number:
		b, ok := r.(json.Number)
		if !ok {
			return jpUnknown
		}
		x, _ := new(big.Float).SetString(string(a))
		y, _ := new(big.Float).SetString(string(b))
		if x == nil || y == nil {
			return jpUnknown
		}
		c = x.Cmp(y)
	case string:
		b, ok := r.(string)
		if !ok {
			return jpUnknown
		}
		c = strings.Compare(a, b)
	case bool:
		b, ok := r.(bool)
		if !ok {
			return jpUnknown
		}
		switch {
		case a == b:
			c = 0
		case !a:
			c = -1
		default:
			c = 1
		}
	default:
		return jpUnknown
	}
	switch op {
	case "==":
		return jpBool(c == 0)
	case "!=":
		return jpBool(c != 0)
	case "<":
		return jpBool(c < 0)
	case "<=":
		return jpBool(c <= 0)
	case ">":
		return jpBool(c > 0)
	}
	return jpBool(c >= 0)
}

func jpBool(b bool) jpState {
	if b {
		return jpTrue
	}
	return jpFalse
}

// jsonpathArgs decodes the jsonb and parses the path of an operator call.
func jsonpathArgs(a []driver.Value) (any, jpNode, error) {
	path, err := parseJSONPath(argText(a[1]))
	if err != nil {
		return nil, nil, err
	}
	v, err := decodeJSON(argText(a[0]))
	if err != nil {
		return nil, nil, err
	}
	return v, path, nil
}

// jsonpathExists is j @? path: whether the path returns an item (a
// predicate returns its boolean, an item too).
func jsonpathExists(a []driver.Value) (any, error) {
	v, path, err := jsonpathArgs(a)
	if err != nil {
		return nil, err
	}
	items, err := jpEval(path, v, v)
	if err != nil {
		return nil, nil
	}
	return len(items) > 0, nil
}

// jsonpathMatch is j @@ path (silent) and jsonb_path_match(j, path): the
// predicate's result, NULL when unknown; a path that does not return one
// boolean (or NULL) is NULL for the operator, 22038 for the function.
func jsonpathMatch(a []driver.Value) (any, error) {
	v, path, err := jsonpathArgs(a)
	if err != nil {
		return nil, err
	}
	silent, _ := a[2].(bool)
	items, err := jpEval(path, v, v)
	if err == nil && len(items) == 1 {
		switch b := items[0].(type) {
		case bool:
			return b, nil
		case nil:
			return nil, nil
		}
	}
	if silent {
		return nil, nil
	}
	return nil, vsqlerr.New(vsqlerr.JSONPathBoolean, "single boolean result is expected")
}
