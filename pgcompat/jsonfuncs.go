package pgcompat

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"fmt"
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

// jsonObject is PostgreSQL's json_object and jsonb_object of text arrays:
// (a) of a one-dimensional array of keys and values alternating, or of a
// two-dimensional one of [key, value] pairs; (a, b) of an array of keys
// and one of values. Each argument is a list or an array literal's text.
// A key given twice keeps its last value (jsonb's rule; the result is
// JSON, which vsqld prints as jsonb).
func jsonObject(a []driver.Value) (any, error) { return jsonObjectOf(a, false) }

// pgJSONObject is json_object's json: every pair in order (duplicate keys
// too), PostgreSQL's spacing ({"a" : "1", "b" : null}).
func pgJSONObject(a []driver.Value) (any, error) { return jsonObjectOf(a, true) }

func jsonObjectOf(a []driver.Value, asJSON bool) (any, error) {
	wrong := func(msg string) error { return vsqlerr.New(vsqlerr.ArrayDimensions, "%s", msg) }
	var keys, values []*string
	if len(a) == 2 {
		k, kd, err := textArray(a[0])
		if err != nil {
			return nil, err
		}
		v, vd, err := textArray(a[1])
		if err != nil {
			return nil, err
		}
		if kd > 1 || vd > 1 {
			return nil, wrong("wrong number of array subscripts")
		}
		if len(k) != len(v) {
			return nil, wrong("mismatched array dimensions")
		}
		keys, values = flatten(k), flatten(v)
	} else {
		elems, depth, err := textArray(a[0])
		if err != nil {
			return nil, err
		}
		switch depth {
		case 0, 1:
			flat := flatten(elems)
			if len(flat)%2 != 0 {
				return nil, wrong("array must have even number of elements")
			}
			for i := 0; i < len(flat); i += 2 {
				keys, values = append(keys, flat[i]), append(values, flat[i+1])
			}
		case 2:
			for _, row := range elems {
				pair, _ := row.([]any)
				if len(pair) != 2 {
					return nil, wrong("array must have two columns")
				}
				p := flatten(pair)
				keys, values = append(keys, p[0]), append(values, p[1])
			}
		default:
			return nil, wrong("wrong number of array subscripts")
		}
	}
	if asJSON {
		b := []byte{'{'}
		for i, k := range keys {
			if k == nil {
				return nil, vsqlerr.New(vsqlerr.NullValueNotAllowed, "null value not allowed for object key")
			}
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(appendJSONString(b, *k), " : "...)
			if values[i] == nil {
				b = append(b, "null"...)
			} else {
				b = appendJSONString(b, *values[i])
			}
		}
		return string(append(b, '}')), nil
	}
	obj := map[string]any{}
	var order []string
	for i, k := range keys {
		if k == nil {
			return nil, vsqlerr.New(vsqlerr.NullValueNotAllowed, "null value not allowed for object key")
		}
		if _, seen := obj[*k]; !seen {
			order = append(order, *k)
		}
		if values[i] == nil {
			obj[*k] = nil
		} else {
			obj[*k] = *values[i]
		}
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range order {
		if i > 0 {
			b.WriteString(", ")
		}
		kj, _ := json.Marshal(k)
		vj, _ := json.Marshal(obj[k])
		b.Write(kj)
		b.WriteString(": ")
		b.Write(vj)
	}
	b.WriteByte('}')
	return b.String(), nil
}

// textArray reads a text array argument: a list, or an array literal's
// text; elements are *string (nil for NULL) or, nested, []any. depth is
// how deeply it nests (1 for a flat one, 0 for an empty one).
func textArray(v any) ([]any, int, error) {
	var read func(x any) (any, int)
	read = func(x any) (any, int) {
		switch x := x.(type) {
		case nil:
			return (*string)(nil), 0
		case []any:
			out, depth := make([]any, len(x)), 0
			for i, e := range x {
				var d int
				out[i], d = read(e)
				depth = max(depth, d)
			}
			return out, depth + 1
		case string:
			return &x, 0
		}
		s := fmt.Sprint(x)
		return &s, 0
	}
	if s, ok := v.(string); ok {
		list, _, ok := pgArray(s, func(e string, null bool) string {
			if null {
				return "null"
			}
			q, _ := json.Marshal(e)
			return string(q)
		})
		if !ok {
			return nil, 0, vsqlerr.New(vsqlerr.InvalidTextValue, "malformed array literal: %q", s)
		}
		var parsed any
		if err := json.Unmarshal([]byte(list), &parsed); err != nil {
			return nil, 0, vsqlerr.New(vsqlerr.InvalidTextValue, "malformed array literal: %q", s)
		}
		v = parsed
	}
	out, depth := read(v)
	list, _ := out.([]any)
	if len(list) == 0 {
		depth = 0
	}
	return list, depth, nil
}

// flatten is a flat list of text elements (nested lists' elements in
// order).
func flatten(list []any) []*string {
	var out []*string
	for _, e := range list {
		switch e := e.(type) {
		case *string:
			out = append(out, e)
		case []any:
			out = append(out, flatten(e)...)
		}
	}
	return out
}
