package pgcompat

import (
	"database/sql/driver"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// tsvector: a sorted list of unique lexemes, each with its sorted unique
// positions (1…16383) and their weights. vsql keeps a tsvector as its
// PostgreSQL text ('a':1 'b':2A), normalized as PostgreSQL's input
// normalizes it; every function reads and writes that text.

// tsPos is a position with its weight (0 D, 1 C, 2 B, 3 A).
type tsPos struct {
	pos    int
	weight uint8
}

// tsLexeme is a lexeme with its positions (none for a stripped one).
type tsLexeme struct {
	word string
	pos  []tsPos
}

type tsvector []tsLexeme

const (
	tsMaxPos    = 16383 // positions beyond are this one
	tsMaxNumPos = 256   // positions a lexeme keeps
)

var tsWeightLetters = "DCBA"

// newTSVector normalizes lexemes: sorted by their bytes, one entry a
// lexeme with the union of its positions, each position once (the
// heaviest weight), at most 256 of them.
func newTSVector(lexemes []tsLexeme) tsvector {
	sort.SliceStable(lexemes, func(i, j int) bool { return lexemes[i].word < lexemes[j].word })
	var out tsvector
	for _, l := range lexemes {
		if n := len(out); n > 0 && out[n-1].word == l.word {
			out[n-1].pos = append(out[n-1].pos, l.pos...)
			continue
		}
		out = append(out, tsLexeme{word: l.word, pos: append([]tsPos(nil), l.pos...)})
	}
	for k := range out {
		out[k].pos = uniquePositions(out[k].pos)
	}
	return out
}

func uniquePositions(ps []tsPos) []tsPos {
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].pos < ps[j].pos })
	out := ps[:1]
	for _, p := range ps[1:] {
		last := &out[len(out)-1]
		if p.pos == last.pos {
			last.weight = max(last.weight, p.weight)
			continue
		}
		out = append(out, p)
	}
	if len(out) > tsMaxNumPos {
		out = out[:tsMaxNumPos]
	}
	return out
}

// String is the tsvector's PostgreSQL text.
func (v tsvector) String() string {
	var b strings.Builder
	for i, l := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeTSLexeme(&b, l.word)
		for k, p := range l.pos {
			if k == 0 {
				b.WriteByte(':')
			} else {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(p.pos))
			if p.weight > 0 {
				b.WriteByte(tsWeightLetters[p.weight])
			}
		}
	}
	return b.String()
}

// writeTSLexeme writes a lexeme quoted, ' and \ doubled.
func writeTSLexeme(b *strings.Builder, word string) {
	b.WriteByte('\'')
	for _, r := range word {
		if r == '\'' || r == '\\' {
			b.WriteRune(r)
		}
		b.WriteRune(r)
	}
	b.WriteByte('\'')
}

// tsvectorSyntax is PostgreSQL's error for malformed tsvector text.
func tsvectorSyntax(s string) error {
	return vsqlerr.New(vsqlerr.SyntaxError, "syntax error in tsvector: %q", s)
}

// readTSWord reads a lexeme at s[i:] (quoted, or up to a space or a colon;
// backslash escapes the next character) and returns it and where it
// ends.
func readTSWord(s string, i int, stop string) (word string, end int, ok bool) {
	var b strings.Builder
	quoted := i < len(s) && s[i] == '\''
	if quoted {
		i++
	}
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			b.WriteByte(s[i+1])
			i += 2
			continue
		case quoted && c == '\'':
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i += 2
				continue
			}
			return b.String(), i + 1, true
		case !quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte(stop, c) >= 0):
			return b.String(), i, b.Len() > 0
		}
		b.WriteByte(c)
		i++
	}
	return b.String(), i, !quoted && b.Len() > 0
}

// parseTSVector reads tsvector text ('a':1 'b':2A, or a b:3).
func parseTSVector(s string) (tsvector, error) {
	var lexemes []tsLexeme
	i := 0
	for {
		for i < len(s) && strings.IndexByte(" \t\n\r", s[i]) >= 0 {
			i++
		}
		if i >= len(s) {
			break
		}
		word, end, ok := readTSWord(s, i, ":")
		if !ok || word == "" {
			return nil, tsvectorSyntax(s)
		}
		i = end
		l := tsLexeme{word: word}
		if i < len(s) && s[i] == ':' {
			i++
			for {
				j := i
				for j < len(s) && isDigit(s[j]) {
					j++
				}
				if j == i {
					return nil, tsvectorSyntax(s)
				}
				n, _ := strconv.Atoi(s[i:j])
				if n == 0 {
					return nil, vsqlerr.New(vsqlerr.SyntaxError, "wrong position info in tsvector: %q", s)
				}
				p := tsPos{pos: min(n, tsMaxPos)}
				// weight letters and * (the last letter counts)
				for i = j; i < len(s); i++ {
					if w := strings.IndexByte("DCBAdcba", s[i]); w >= 0 {
						p.weight = uint8(w % 4)
					} else if s[i] != '*' {
						break
					}
				}
				l.pos = append(l.pos, p)
				if i < len(s) && s[i] == ',' {
					i++
					continue
				}
				break
			}
		}
		if i < len(s) && strings.IndexByte(" \t\n\r", s[i]) < 0 {
			return nil, tsvectorSyntax(s)
		}
		lexemes = append(lexemes, l)
	}
	return newTSVector(lexemes), nil
}

// toTSVector is to_tsvector(config, text).
func toTSVector(config, text string) (tsvector, error) {
	c, err := tsConfigNamed(config)
	if err != nil {
		return nil, err
	}
	var lexemes []tsLexeme
	c.words(text, 0, func(lx string, pos int) {
		lexemes = append(lexemes, tsLexeme{word: lx, pos: []tsPos{{pos: min(pos, tsMaxPos)}}})
	})
	return newTSVector(lexemes), nil
}

// JSON flags of json(b)_to_tsvector: which values are indexed.
const (
	jsonFlagString = 1 << iota
	jsonFlagNumeric
	jsonFlagBoolean
	jsonFlagKey
	jsonFlagAll = jsonFlagString | jsonFlagNumeric | jsonFlagBoolean | jsonFlagKey
)

const jsonFlagHint = `Possible values are: "string", "numeric", "boolean", "key", and "all".`

// jsonTSFlags reads the filter of json(b)_to_tsvector: a string or an
// array of strings, each one of the flag names.
func jsonTSFlags(filter string) (int, error) {
	v, err := decodeJSON(filter)
	if err != nil {
		return 0, err
	}
	flag := func(e any) (int, error) {
		s, ok := e.(string)
		if !ok {
			return 0, vsqlerr.New(vsqlerr.InvalidArgument, "flag array element is not a string").WithHint(jsonFlagHint)
		}
		switch s {
		case "string":
			return jsonFlagString, nil
		case "numeric":
			return jsonFlagNumeric, nil
		case "boolean":
			return jsonFlagBoolean, nil
		case "key":
			return jsonFlagKey, nil
		case "all":
			return jsonFlagAll, nil
		}
		return 0, vsqlerr.New(vsqlerr.InvalidArgument, "wrong flag in flag array: %q", s).WithHint(jsonFlagHint)
	}
	switch x := v.(type) {
	case []any:
		flags := 0
		for _, e := range x {
			f, err := flag(e)
			if err != nil {
				return 0, err
			}
			flags |= f
		}
		return flags, nil
	case map[string]any:
		return 0, vsqlerr.New(vsqlerr.InvalidArgument, "wrong flag type, only arrays and scalars are allowed")
	}
	return flag(v)
}

// walkJSONText calls fn with the text of each value of doc that flags
// select (keys, strings, numbers as written, booleans), in jsonb's
// order; fn may replace a string value by returning a new one (ts_headline).
func walkJSONText(v any, flags int, fn func(text string) string) any {
	switch x := v.(type) {
	case string:
		if flags&jsonFlagString != 0 {
			return fn(x)
		}
	case json.Number:
		if flags&jsonFlagNumeric != 0 {
			fn(string(x))
		}
	case bool:
		if flags&jsonFlagBoolean != 0 {
			fn(strconv.FormatBool(x))
		}
	case []any:
		for i, e := range x {
			x[i] = walkJSONText(e, flags, fn)
		}
	case map[string]any:
		for _, k := range jsonbKeys(x) {
			if flags&jsonFlagKey != 0 {
				fn(k)
			}
			x[k] = walkJSONText(x[k], flags, fn)
		}
	}
	return v
}

// jsonToTSVector is json(b)_to_tsvector(config, doc, flags): each text
// its own phrase, one position apart from the one before.
func jsonToTSVector(config, doc string, flags int) (tsvector, error) {
	c, err := tsConfigNamed(config)
	if err != nil {
		return nil, err
	}
	v, err := decodeJSON(doc)
	if err != nil {
		return nil, err
	}
	var lexemes []tsLexeme
	pos := 0
	walkJSONText(v, flags, func(text string) string {
		before := len(lexemes)
		pos = c.words(text, pos, func(lx string, p int) {
			lexemes = append(lexemes, tsLexeme{word: lx, pos: []tsPos{{pos: min(p, tsMaxPos)}}})
		})
		if len(lexemes) > before {
			pos++
		}
		return text
	})
	return newTSVector(lexemes), nil
}

// lexemeArray reads a text[] of lexemes (a list, or an array literal),
// without its NULL elements (setweight and ts_delete pass over them).
func lexemeArray(v driver.Value) ([]string, error) {
	elems, err := textPath(v)
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		if e != nil {
			out = append(out, *e)
		}
	}
	return out, err
}

// strictArray reads a text[] of which no element may be NULL (22004,
// "what array") or, when nonEmpty, empty (2200F), as array_to_tsvector
// and ts_filter read theirs.
func strictArray(v driver.Value, what string, nonEmpty bool) ([]string, error) {
	elems, err := textPath(v)
	out := make([]string, 0, len(elems))
	for _, e := range elems {
		switch {
		case e == nil:
			return nil, vsqlerr.New(vsqlerr.NullValueNotAllowed, "%s array may not contain nulls", what)
		case nonEmpty && *e == "":
			return nil, vsqlerr.New(vsqlerr.ZeroLengthString, "%s array may not contain empty strings", what)
		}
		out = append(out, *e)
	}
	return out, err
}

// tsDelete is ts_delete(v, lexemes): v without them.
func tsDelete(v tsvector, lexemes []string) tsvector {
	drop := map[string]bool{}
	for _, l := range lexemes {
		drop[l] = true
	}
	out := tsvector{}
	for _, l := range v {
		if !drop[l.word] {
			out = append(out, l)
		}
	}
	return out
}

// tsFilter is ts_filter(v, weights): the positions of those weights, and
// the lexemes that keep one.
func tsFilter(v tsvector, weights []string) (tsvector, error) {
	var mask uint8
	for _, w := range weights {
		k := strings.IndexByte("DCBAdcba", firstByte(w))
		if k < 0 || len(w) != 1 {
			return nil, vsqlerr.New(vsqlerr.InvalidArgument, "unrecognized weight: %q", w)
		}
		mask |= 1 << (k % 4)
	}
	out := tsvector{}
	for _, l := range v {
		kept := tsLexeme{word: l.word}
		for _, p := range l.pos {
			if mask&(1<<p.weight) != 0 {
				kept.pos = append(kept.pos, p)
			}
		}
		if kept.pos != nil {
			out = append(out, kept)
		}
	}
	return out, nil
}

// setWeight is setweight(v, weight [, lexemes]).
func setWeight(v tsvector, weight string, only []string) (tsvector, error) {
	w := strings.IndexByte("DCBAdcba", firstByte(weight))
	if w < 0 || len(weight) != 1 {
		return nil, vsqlerr.New(vsqlerr.Internal, "unrecognized weight: %d", firstByte(weight)).WithHint("A weight is A, B, C or D.")
	}
	var keep map[string]bool
	if only != nil {
		keep = map[string]bool{}
		for _, s := range only {
			keep[s] = true
		}
	}
	for i := range v {
		if keep != nil && !keep[v[i].word] {
			continue
		}
		for k := range v[i].pos {
			v[i].pos[k].weight = uint8(w % 4)
		}
	}
	return v, nil
}

func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

// concatTSVector is a || b: b's positions after a's last.
func concatTSVector(a, b tsvector) tsvector {
	shift := 0
	for _, l := range a {
		for _, p := range l.pos {
			shift = max(shift, p.pos)
		}
	}
	all := append(tsvector(nil), a...)
	for _, l := range b {
		moved := tsLexeme{word: l.word}
		for _, p := range l.pos {
			moved.pos = append(moved.pos, tsPos{pos: min(p.pos+shift, tsMaxPos), weight: p.weight})
		}
		all = append(all, moved)
	}
	return newTSVector(all)
}

// tsvectorArg reads a tsvector argument.
func tsvectorArg(v driver.Value) (tsvector, error) {
	s, _ := v.(string)
	return parseTSVector(s)
}

// tsvectorFunctions are the Go functions of tsvector values.
func tsvectorFunctions() map[string][]scalar {
	str := func(v tsvector, err error) (any, error) {
		if err != nil {
			return nil, err
		}
		return v.String(), nil
	}
	return map[string][]scalar{
		"__vsql_tsvector_in": {{in: []duckdb.Type{tText}, out: tText, run: func(a []driver.Value) (any, error) {
			return str(tsvectorArg(a[0]))
		}}},
		"__vsql_to_tsvector": {{in: []duckdb.Type{tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			return str(toTSVector(a[0].(string), a[1].(string)))
		}}},
		"__vsql_json_to_tsvector": {{in: []duckdb.Type{tText, tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			flags, err := jsonTSFlags(a[2].(string))
			if err != nil {
				return nil, err
			}
			return str(jsonToTSVector(a[0].(string), a[1].(string), flags))
		}}},
		"__vsql_setweight": {{in: []duckdb.Type{tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			v, err := tsvectorArg(a[0])
			if err != nil {
				return nil, err
			}
			return str(setWeight(v, a[1].(string), nil))
		}}, {in: []duckdb.Type{tText, tText, tAny}, out: tText, run: func(a []driver.Value) (any, error) {
			v, only, err := readBoth(a[0], a[2], tsvectorArg, lexemeArray)
			if err != nil {
				return nil, err
			}
			return str(setWeight(v, a[1].(string), only))
		}}},
		"__vsql_strip": {{in: []duckdb.Type{tText}, out: tText, run: func(a []driver.Value) (any, error) {
			v, err := tsvectorArg(a[0])
			for i := range v {
				v[i].pos = nil
			}
			return str(v, err)
		}}},
		"__vsql_tsvector_to_array": {{in: []duckdb.Type{tText}, out: tTextList, run: func(a []driver.Value) (any, error) {
			v, err := tsvectorArg(a[0])
			words := make([]any, len(v))
			for i, l := range v {
				words[i] = l.word
			}
			return words, err
		}}},
		"__vsql_array_to_tsvector": {{in: []duckdb.Type{tAny}, out: tText, run: func(a []driver.Value) (any, error) {
			words, err := strictArray(a[0], "lexeme", true)
			lexemes := make([]tsLexeme, len(words))
			for i, w := range words {
				lexemes[i].word = w
			}
			return str(newTSVector(lexemes), err)
		}}},
		// ts_delete(v, lexeme text | lexemes text[])
		"__vsql_ts_delete": {{in: []duckdb.Type{tText, tAny}, out: tText, run: func(a []driver.Value) (any, error) {
			v, err := tsvectorArg(a[0])
			if err != nil {
				return nil, err
			}
			if s, ok := a[1].(string); ok {
				return tsDelete(v, []string{s}).String(), nil
			}
			words, err := lexemeArray(a[1])
			return str(tsDelete(v, words), err)
		}}},
		"__vsql_ts_filter": {{in: []duckdb.Type{tText, tAny}, out: tText, run: func(a []driver.Value) (any, error) {
			v, weights, err := readBoth(a[0], a[1], tsvectorArg, func(w driver.Value) ([]string, error) { return strictArray(w, "weight", false) })
			if err != nil {
				return nil, err
			}
			return str(tsFilter(v, weights))
		}}},
		"__vsql_tsvector_length": {{in: []duckdb.Type{tText}, out: tInt4, run: func(a []driver.Value) (any, error) {
			v, err := tsvectorArg(a[0])
			return int32(len(v)), err
		}}},
		"__vsql_tsvector_concat": {{in: []duckdb.Type{tText, tText}, out: tText, run: func(a []driver.Value) (any, error) {
			x, y, err := readBoth(a[0], a[1], tsvectorArg, tsvectorArg)
			if err != nil {
				return nil, err
			}
			return concatTSVector(x, y).String(), nil
		}}},
	}
}
