package pgcompat

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's jsonb_set, jsonb_insert and jsonb_delete_path (#-) over
// JSON text. Objects are decoded into maps: the order of keys does not
// survive, which jsonb's does not keep either (package pgwire prints jsonb
// in jsonb's order).

func decodeJSON(s string) (any, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type json: %v", err)
	}
	return v, nil
}

func encodeJSON(v any) (string, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// textPath is a text[] argument: a list, or the text of an array literal
// ('{a,1}', '{"a b",c}').
func textPath(v driver.Value) ([]*string, error) {
	switch x := v.(type) {
	case []any:
		out := make([]*string, len(x))
		for i, e := range x {
			if s, ok := e.(string); ok {
				out[i] = &s
			}
		}
		return out, nil
	case string:
		return parseArrayLiteral(x)
	}
	return nil, invalidArgument("path must be text[]")
}

// parseArrayLiteral reads a one-dimensional PostgreSQL array literal's
// elements (NULL for an unquoted NULL).
func parseArrayLiteral(s string) ([]*string, error) {
	var out []*string
	_, depth, ok := pgArray(s, func(e string, null bool) string {
		if null {
			out = append(out, nil)
		} else {
			out = append(out, &e)
		}
		return ""
	})
	if !ok || depth > 1 {
		return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "malformed array literal: %q", s)
	}
	return out, nil
}

// jsonPathOp is the operation at the end of a path.
type jsonPathOp int

const (
	opSet jsonPathOp = iota
	opInsertBefore
	opInsertAfter
	opDelete
)

// editPath applies op at path in v (create: jsonb_set's create_if_missing).
func editPath(v any, path []*string, level int, op jsonPathOp, nv any, create bool) (any, error) {
	if path[level] == nil {
		return nil, invalidArgument("path element at position %d is null", level+1)
	}
	key := *path[level]
	last := level == len(path)-1
	switch x := v.(type) {
	case map[string]any:
		old, ok := x[key]
		switch {
		case last && op == opDelete:
			delete(x, key)
		case last && ok && (op == opInsertBefore || op == opInsertAfter):
			return nil, invalidArgument("cannot replace existing key").WithHint("Try using the function jsonb_set to replace key value.")
		case last && (ok || create || op != opSet):
			x[key] = nv
		case ok:
			e, err := editPath(old, path, level+1, op, nv, create)
			if err != nil {
				return nil, err
			}
			x[key] = e
		}
		return x, nil
	case []any:
		idx, err := strconv.Atoi(strings.TrimSpace(key))
		if err != nil {
			return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "path element at position %d is not an integer: %q", level+1, key)
		}
		n := len(x)
		if idx < 0 {
			idx += n
		}
		if !last {
			if idx >= 0 && idx < n {
				e, err := editPath(x[idx], path, level+1, op, nv, create)
				if err != nil {
					return nil, err
				}
				x[idx] = e
			}
			return x, nil
		}
		switch op {
		case opDelete:
			if idx >= 0 && idx < n {
				return append(x[:idx:idx], x[idx+1:]...), nil
			}
			return x, nil
		case opSet:
			switch {
			case idx >= 0 && idx < n:
				x[idx] = nv
				return x, nil
			case !create:
				return x, nil
			case idx < 0:
				return append([]any{nv}, x...), nil
			}
			return append(x, nv), nil
		}
		at := idx
		if op == opInsertAfter {
			at++
		}
		switch {
		case idx < 0:
			at = 0
		case at > n:
			at = n
		}
		out := append(append(append([]any{}, x[:at]...), nv), x[at:]...)
		return out, nil
	}
	if level == 0 && op != opDelete {
		return nil, invalidArgument("cannot set path in scalar")
	}
	if level == 0 {
		return nil, invalidArgument("cannot delete path in scalar")
	}
	return v, nil
}

// jsonbEdit runs an edit of (target, path, new value) for jsonb_set (create
// in a[3]), jsonb_insert (after in a[3]) and jsonb_delete_path.
func jsonbEdit(a []driver.Value, op jsonPathOp) (any, error) {
	v, err := decodeJSON(argText(a[0]))
	if err != nil {
		return nil, err
	}
	path, err := textPath(a[1])
	if err != nil {
		return nil, err
	}
	var nv any
	create := true
	if op != opDelete {
		if nv, err = decodeJSON(argText(a[2])); err != nil {
			return nil, err
		}
		b, _ := a[3].(bool)
		switch op {
		case opSet:
			create = b
		case opInsertBefore:
			if b {
				op = opInsertAfter
			}
		}
	}
	if len(path) == 0 {
		return argText(a[0]), nil
	}
	if _, scalar := v.(map[string]any); !scalar {
		if _, arr := v.([]any); !arr && op == opDelete {
			return nil, invalidArgument("cannot delete path in scalar")
		}
	}
	out, err := editPath(v, path, 0, op, nv, create)
	if err != nil {
		return nil, err
	}
	return encodeJSON(out)
}

// jsonbConcat is jsonb || jsonb: two objects merge (the right one's keys
// win); otherwise both sides, a non-array taken as an array of one, are
// concatenated.
func jsonbConcat(a []driver.Value) (any, error) {
	l, err := decodeJSON(argText(a[0]))
	if err != nil {
		return nil, err
	}
	r, err := decodeJSON(argText(a[1]))
	if err != nil {
		return nil, err
	}
	lo, lok := l.(map[string]any)
	ro, rok := r.(map[string]any)
	if lok && rok {
		for k, v := range ro {
			lo[k] = v
		}
		return encodeJSON(lo)
	}
	asArray := func(v any) []any {
		if x, ok := v.([]any); ok {
			return x
		}
		return []any{v}
	}
	return encodeJSON(append(append([]any{}, asArray(l)...), asArray(r)...))
}

// jsonbMinus is jsonb - text (a key, or the string elements of an
// array), jsonb - integer (an array element, negative from the end) and
// jsonb - text[] (several keys or strings).
func jsonbMinus(a []driver.Value) (any, error) {
	v, err := decodeJSON(argText(a[0]))
	if err != nil {
		return nil, err
	}
	var keys []string
	index, byIndex := 0, false
	switch x := a[1].(type) {
	case string:
		keys = []string{x}
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok {
				keys = append(keys, s)
			}
		}
	case int32, int64, int16, int8:
		index, byIndex = int(argInt(x)), true
	default:
		return nil, invalidArgument("operator does not exist: jsonb - %T", x)
	}
	switch x := v.(type) {
	case map[string]any:
		if byIndex {
			return nil, invalidArgument("cannot delete from object using integer index")
		}
		for _, k := range keys {
			delete(x, k)
		}
		return encodeJSON(x)
	case []any:
		if byIndex {
			if index < 0 {
				index += len(x)
			}
			if index >= 0 && index < len(x) {
				x = append(x[:index:index], x[index+1:]...)
			}
			return encodeJSON(x)
		}
		out := []any{}
		for _, e := range x {
			if s, ok := e.(string); ok && slices.Contains(keys, s) {
				continue
			}
			out = append(out, e)
		}
		return encodeJSON(out)
	}
	return nil, invalidArgument("cannot delete from scalar")
}

// jsonbStripNulls removes the object fields whose value is null, at every
// depth (null array elements stay).
func jsonbStripNulls(a []driver.Value) (any, error) {
	v, err := decodeJSON(argText(a[0]))
	if err != nil {
		return nil, err
	}
	var strip func(any) any
	strip = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if e == nil {
					delete(x, k)
				} else {
					x[k] = strip(e)
				}
			}
		case []any:
			for i, e := range x {
				x[i] = strip(e)
			}
		}
		return v
	}
	return encodeJSON(strip(v))
}

// jsonbAssign is PostgreSQL's jsonb subscript assignment, UPDATE t SET
// j['a'][0] = value (jsonb_set_element): (target or NULL, the subscripts
// as a JSON array, the new value or NULL). Missing keys and containers
// are created (an object for a text subscript, an array for an integer
// one), an array is padded with nulls up to the index, a negative index
// counts from the end but may not pass the start, and a path through a
// scalar is refused. A NULL target is an empty array when the first
// subscript is an integer, else an empty object; a NULL value is JSON
// null.
func jsonbAssign(a []driver.Value) (any, error) {
	raw, err := decodeJSON(argText(a[1]))
	if err != nil {
		return nil, err
	}
	subs, _ := raw.([]any)
	if len(subs) == 0 {
		return nil, invalidArgument("jsonb subscript assignment needs a subscript")
	}
	path := make([]string, len(subs))
	for i, s := range subs {
		switch x := s.(type) {
		case nil:
			return nil, vsqlerr.New(vsqlerr.NullValueNotAllowed, "jsonb subscript in assignment must not be null").
				WithHint("Give each subscript a key or an index.")
		case string:
			path[i] = x
		case json.Number:
			path[i] = x.String()
		default:
			return nil, invalidArgument("jsonb subscript must be of type integer or text")
		}
	}
	var target any
	if a[0] == nil {
		if _, isInt := subs[0].(json.Number); isInt {
			target = []any{}
		} else {
			target = map[string]any{}
		}
	} else if target, err = decodeJSON(argText(a[0])); err != nil {
		return nil, err
	}
	var value any
	if a[2] != nil {
		if value, err = decodeJSON(argText(a[2])); err != nil {
			return nil, err
		}
	}
	out, err := assignPath(target, path, 0, value)
	if err != nil {
		return nil, err
	}
	return encodeJSON(out)
}

// assignPath sets path[level:] in v to value (jsonbAssign).
func assignPath(v any, path []string, level int, value any) (any, error) {
	last := level == len(path)-1
	switch x := v.(type) {
	case map[string]any:
		key := path[level]
		old, ok := x[key]
		switch {
		case last:
			x[key] = value
		case ok:
			e, err := assignPath(old, path, level+1, value)
			if err != nil {
				return nil, err
			}
			x[key] = e
		default:
			x[key] = newPath(path, level+1, value)
		}
		return x, nil
	case []any:
		idx, err := strconv.Atoi(strings.TrimSpace(path[level]))
		if err != nil {
			return nil, vsqlerr.New(vsqlerr.InvalidTextValue, "path element at position %d is not an integer: %q", level+1, path[level])
		}
		n := len(x)
		if idx < 0 {
			if -idx > n {
				return nil, invalidArgument("path element at position %d is out of range: %d", level+1, idx)
			}
			idx += n
		}
		if idx < n {
			if last {
				x[idx] = value
				return x, nil
			}
			e, err := assignPath(x[idx], path, level+1, value)
			if err != nil {
				return nil, err
			}
			x[idx] = e
			return x, nil
		}
		for len(x) < idx {
			x = append(x, nil)
		}
		return append(x, newPath(path, level+1, value)), nil
	}
	return nil, invalidArgument("cannot replace existing key").
		WithHint("The path assumes key is a composite object, but it is a scalar value.")
}

// newPath is the value a missing path[level:] holds: containers created
// down to value, an array (padded with nulls) for an integer subscript.
func newPath(path []string, level int, value any) any {
	if level == len(path) {
		return value
	}
	if idx, err := strconv.Atoi(strings.TrimSpace(path[level])); err == nil {
		arr := make([]any, max(idx, 0))
		return append(arr, newPath(path, level+1, value))
	}
	return map[string]any{path[level]: newPath(path, level+1, value)}
}
