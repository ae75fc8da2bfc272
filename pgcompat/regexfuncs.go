package pgcompat

import (
	"database/sql/driver"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's regexp_count, regexp_instr, regexp_substr, regexp_like and
// regexp_match over RE2 (Go's regexp, the dialect DuckDB's own regexp
// functions speak; PostgreSQL's lookahead and back references are not
// there). Flags are PostgreSQL's: i, c, n (newline-sensitive), s, q
// (literal); by default . matches a newline, as in PostgreSQL.

var regexCache sync.Map // flags + "\x00" + pattern → pgRegexp

// pgRegexp is a compiled pattern: Go's RE2 (*regexp.Regexp), or, for the
// back references and lookaround PostgreSQL's engine has and RE2 lacks,
// a backtracking matcher (backtracking).
type pgRegexp interface {
	MatchString(s string) bool
	FindStringSubmatchIndex(s string) []int
	FindAllStringSubmatchIndex(s string, n int) [][]int
	FindAllStringIndex(s string, n int) [][]int
	NumSubexp() int
}

func invalidArgument(format string, args ...any) *vsqlerr.Error {
	return vsqlerr.New(vsqlerr.InvalidArgument, format, args...)
}

// compileRegex compiles a PostgreSQL pattern with its flags for fn (the
// function's name, for errors).
func compileRegex(pattern, flags, fn string) (pgRegexp, error) {
	key := flags + "\x00" + pattern
	if re, ok := regexCache.Load(key); ok {
		return re.(pgRegexp), nil
	}
	icase, newline, literal, expand := false, false, false, false
	for _, f := range flags {
		switch f {
		case 'i':
			icase = true
		case 'c':
			icase = false
		case 'n', 'm':
			newline = true
		case 's':
			newline = false
		case 'q':
			literal = true
		case 'x':
			expand = true
		case 't':
			expand = false
		case 'g':
			return nil, invalidArgument("%s() does not support the \"global\" option", fn).
				WithHint("Use the regexp_matches function instead.")
		default:
			return nil, invalidArgument("invalid regular expression option: %q", string(f))
		}
	}
	p := pattern
	switch {
	case literal:
		p = regexp.QuoteMeta(p)
	case expand:
		p = expanded(p)
	}
	prefix := "(?s)"
	if newline {
		prefix = "(?m)"
	}
	if icase {
		prefix += "(?i)"
	}
	var re pgRegexp
	re2, err := regexp.Compile(prefix + p)
	if err == nil {
		re = re2
	} else if needsBacktracking.MatchString(p) {
		// \1, (?=…), (?!…), (?<=…), (?<!…): a backtracking engine
		bt, btErr := regexp2.Compile(prefix + p)
		if btErr != nil {
			return nil, vsqlerr.New(vsqlerr.InvalidRegex, "invalid regular expression: %v", btErr)
		}
		re = backtracking{bt}
	} else {
		return nil, vsqlerr.New(vsqlerr.InvalidRegex, "invalid regular expression: %v", err)
	}
	regexCache.Store(key, re)
	return re, nil
}

// needsBacktracking finds the constructs of PostgreSQL's regular
// expressions that RE2 refuses and a backtracking engine runs: back
// references and lookahead or lookbehind.
var needsBacktracking = regexp.MustCompile(`\\[1-9]|\(\?<?[=!]`)

// backtracking is a pattern run by regexp2 (backtracking, as PostgreSQL's
// engine is where back references or lookaround are used), with the
// methods of *regexp.Regexp that the functions call.
type backtracking struct{ re *regexp2.Regexp }

func (b backtracking) MatchString(s string) bool {
	ok, _ := b.re.MatchString(s)
	return ok
}

func (b backtracking) NumSubexp() int { return len(b.re.GetGroupNumbers()) - 1 }

func (b backtracking) FindStringSubmatchIndex(s string) []int {
	if all := b.FindAllStringSubmatchIndex(s, 1); len(all) > 0 {
		return all[0]
	}
	return nil
}

func (b backtracking) FindAllStringSubmatchIndex(s string, n int) [][]int {
	var out [][]int
	m, _ := b.re.FindStringMatch(s)
	for m != nil && (n < 0 || len(out) < n) {
		groups := m.Groups()
		idx := make([]int, 2*len(groups))
		for i := range groups {
			idx[2*i], idx[2*i+1] = -1, -1
			if len(groups[i].Captures) > 0 {
				at, length := groups[i].ByteRange()
				idx[2*i], idx[2*i+1] = at, at+length
			}
		}
		out = append(out, idx)
		m, _ = b.re.FindNextMatch(m)
	}
	return out
}

func (b backtracking) FindAllStringIndex(s string, n int) [][]int {
	all := b.FindAllStringSubmatchIndex(s, n)
	for i, m := range all {
		all[i] = m[:2]
	}
	return all
}

func argInt(v driver.Value) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	case int:
		return int64(x)
	case uint8:
		return int64(x)
	case uint16:
		return int64(x)
	case uint32:
		return int64(x)
	case uint64:
		return int64(x)
	case uint:
		return int64(x)
	}
	return 0
}

func argText(v driver.Value) string { s, _ := v.(string); return s }

// runeOffset is the byte offset of the 1-based character position pos.
func runeOffset(s string, pos int64) int {
	off := 0
	for i := int64(1); i < pos && off < len(s); i++ {
		_, n := utf8.DecodeRuneInString(s[off:])
		off += n
	}
	return off
}

func positive(v int64, name string) error {
	if v <= 0 {
		return invalidArgument("invalid value for parameter %q: %d", name, v)
	}
	return nil
}

// matches returns the matches (with submatch byte offsets) of re in s
// from the character position start.
func matches(re pgRegexp, s string, start int64) [][]int {
	off := runeOffset(s, start)
	if off > len(s) {
		return nil
	}
	ms := re.FindAllStringSubmatchIndex(s[off:], -1)
	for _, m := range ms {
		for i := range m {
			if m[i] >= 0 {
				m[i] += off
			}
		}
	}
	return ms
}

// regexpCount: (s, pattern, start, flags).
func regexpCount(a []driver.Value) (any, error) {
	s, start := argText(a[0]), argInt(a[2])
	if err := positive(start, "start"); err != nil {
		return nil, err
	}
	re, err := compileRegex(argText(a[1]), argText(a[3]), "regexp_count")
	if err != nil {
		return nil, err
	}
	return int32(len(matches(re, s, start))), nil
}

// nthMatch finds the n-th match's bytes of subexpression sub (-1, -1 when
// there is none).
func nthMatch(a []driver.Value, fn string, n, sub int64) (string, int, int, error) {
	s, start := argText(a[0]), argInt(a[2])
	if err := positive(start, "start"); err != nil {
		return "", -1, -1, err
	}
	if err := positive(n, "n"); err != nil {
		return "", -1, -1, err
	}
	if sub < 0 {
		return "", -1, -1, invalidArgument("invalid value for parameter %q: %d", "subexpr", sub)
	}
	re, err := compileRegex(argText(a[1]), argText(a[4]), fn)
	if err != nil {
		return "", -1, -1, err
	}
	ms := matches(re, s, start)
	if int64(len(ms)) < n || int(sub) > re.NumSubexp() {
		return s, -1, -1, nil
	}
	m := ms[n-1]
	return s, m[2*sub], m[2*sub+1], nil
}

// regexpInstr: (s, pattern, start, n, flags, subexpr, endoption).
func regexpInstr(a []driver.Value) (any, error) {
	end := argInt(a[6])
	if end != 0 && end != 1 {
		return nil, invalidArgument("invalid value for parameter %q: %d", "endoption", end)
	}
	s, b, e, err := nthMatch(a, "regexp_instr", argInt(a[3]), argInt(a[5]))
	if err != nil || b < 0 {
		return int32(0), err
	}
	at := b
	if end == 1 {
		at = e
	}
	return int32(utf8.RuneCountInString(s[:at]) + 1), nil
}

// regexpSubstr: (s, pattern, start, n, flags, subexpr).
func regexpSubstr(a []driver.Value) (any, error) {
	s, b, e, err := nthMatch(a, "regexp_substr", argInt(a[3]), argInt(a[5]))
	if err != nil || b < 0 {
		return nil, err
	}
	return s[b:e], nil
}

// regexpLike: (s, pattern, flags).
func regexpLike(a []driver.Value) (any, error) {
	re, err := compileRegex(argText(a[1]), argText(a[2]), "regexp_like")
	if err != nil {
		return nil, err
	}
	return re.MatchString(argText(a[0])), nil
}

// regexpMatch: (s, pattern, flags) → the capture groups of the first
// match (the whole match without groups), NULL without a match.
func regexpMatch(a []driver.Value) (any, error) {
	re, err := compileRegex(argText(a[1]), argText(a[2]), "regexp_match")
	if err != nil {
		return nil, err
	}
	s := argText(a[0])
	m := re.FindStringSubmatchIndex(s)
	if m == nil {
		return nil, nil
	}
	return groups(re, s, m), nil
}

// parseIdent is PostgreSQL's parse_ident(text, strict): the names of a
// qualified identifier, unquoted ones lower-cased.
func parseIdent(a []driver.Value) (any, error) {
	s := argText(a[0])
	strict, _ := a[1].(bool)
	bad := func(detail string) error {
		e := invalidArgument("string is not a valid identifier: %q", s)
		if detail != "" {
			e = e.WithHint("%s", detail)
		}
		return e
	}
	var out []any
	i := 0
	skip := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	afterDot := false
	for {
		skip()
		switch {
		case i < len(s) && s[i] == '"':
			var b strings.Builder
			i++
			for {
				j := strings.IndexByte(s[i:], '"')
				if j < 0 {
					return nil, bad("String has unclosed double quotes.")
				}
				b.WriteString(s[i : i+j])
				i += j + 1
				if i < len(s) && s[i] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				break
			}
			if b.Len() == 0 {
				return nil, bad("Quoted identifier must not be empty.")
			}
			out = append(out, b.String())
		case i < len(s) && identStart(s[i]):
			j := i
			for j < len(s) && identPart(s[j]) {
				j++
			}
			out = append(out, strings.ToLower(s[i:j]))
			i = j
		default:
			if afterDot {
				return nil, bad("No valid identifier after \".\".")
			}
			if i < len(s) && s[i] == '.' {
				return nil, bad("No valid identifier before \".\".")
			}
			return nil, bad("")
		}
		skip()
		if i < len(s) && s[i] == '.' {
			i++
			afterDot = true
			continue
		}
		if i < len(s) && strict {
			return nil, bad("")
		}
		return out, nil
	}
}

func identStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func identPart(c byte) bool { return identStart(c) || isDigit(c) || c == '$' }

// regexpReplace: (s, pattern, replacement, start, n, flags); n 0 replaces
// every match. The replacement's \1…\9 are submatches, \& the match, \\ a
// backslash.
func regexpReplace(a []driver.Value) (any, error) {
	s, repl := argText(a[0]), argText(a[2])
	start, n := argInt(a[3]), argInt(a[4])
	if err := positive(start, "start"); err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, invalidArgument("invalid value for parameter %q: %d", "n", n)
	}
	flags := argText(a[5])
	global := strings.ContainsRune(flags, 'g')
	re, err := compileRegex(argText(a[1]), strings.ReplaceAll(flags, "g", ""), "regexp_replace")
	if err != nil {
		return nil, err
	}
	if !a5Given(a) { // (s, p, r [, flags]): the first match, every one with g
		n = 1
		if global {
			n = 0
		}
	}
	var b strings.Builder
	last := 0
	for k, m := range matches(re, s, start) {
		if n != 0 && int64(k+1) != n {
			continue
		}
		b.WriteString(s[last:m[0]])
		expandReplacement(&b, repl, s, m)
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String(), nil
}

// a5Given reports whether the call gave n itself (the macro's last
// argument): PostgreSQL's n 0 then means every match.
func a5Given(a []driver.Value) bool { v, _ := a[6].(bool); return v }

func expandReplacement(b *strings.Builder, repl, s string, m []int) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 >= len(repl) {
			b.WriteByte(c)
			continue
		}
		i++
		switch d := repl[i]; {
		case d >= '1' && d <= '9':
			g := int(d - '0')
			if 2*g+1 < len(m) && m[2*g] >= 0 {
				b.WriteString(s[m[2*g]:m[2*g+1]])
			}
		case d == '&':
			b.WriteString(s[m[0]:m[1]])
		default:
			b.WriteByte(d)
		}
	}
}

// regexpSplit: (s, pattern, flags) → the pieces between matches, as
// PostgreSQL's regexp_split_to_array (an empty match at the start, at the
// end or just after a match does not split).
func regexpSplit(a []driver.Value) (any, error) {
	re, err := compileRegex(argText(a[1]), argText(a[2]), "regexp_split_to_array")
	if err != nil {
		return nil, err
	}
	s := argText(a[0])
	out := []any{}
	pos, prevEnd := 0, -1
	for _, m := range re.FindAllStringIndex(s, -1) {
		if m[0] == m[1] && (m[0] == 0 || m[0] == len(s) || m[0] == prevEnd) {
			continue
		}
		out = append(out, s[pos:m[0]])
		pos, prevEnd = m[1], m[1]
	}
	return append(out, s[pos:]), nil
}

// substringRegex is substring(s FROM pattern): the first parenthesized
// subexpression's match if the pattern has one, else the whole match;
// NULL without a match.
func substringRegex(a []driver.Value) (any, error) {
	re, err := compileRegex(argText(a[1]), "", "substring")
	if err != nil {
		return nil, err
	}
	s := argText(a[0])
	m := re.FindStringSubmatchIndex(s)
	switch {
	case m == nil:
		return nil, nil
	case re.NumSubexp() == 0:
		return s[m[0]:m[1]], nil
	case m[2] < 0:
		return nil, nil
	}
	return s[m[2]:m[3]], nil
}

// regexpMatches: (s, pattern, flags) → for each match (every one with
// flag g, else the first) its capture groups, as regexp_match gives them.
func regexpMatches(a []driver.Value) (any, error) {
	flags := argText(a[2])
	global := strings.ContainsRune(flags, 'g')
	re, err := compileRegex(argText(a[1]), strings.ReplaceAll(flags, "g", ""), "regexp_matches")
	if err != nil {
		return nil, err
	}
	s := argText(a[0])
	limit := 1
	if global {
		limit = -1
	}
	out := []any{}
	for _, m := range re.FindAllStringSubmatchIndex(s, limit) {
		out = append(out, groups(re, s, m))
	}
	return out, nil
}

// groups are a match's capture groups (the whole match without groups;
// NULL for a group that did not take part).
func groups(re pgRegexp, s string, m []int) []any {
	if re.NumSubexp() == 0 {
		return []any{s[m[0]:m[1]]}
	}
	out := make([]any, re.NumSubexp())
	for i := range out {
		if m[2*i+2] >= 0 {
			out[i] = s[m[2*i+2]:m[2*i+3]]
		}
	}
	return out
}

// expanded removes the white space and #-comments of a pattern in
// PostgreSQL's expanded syntax (flag x), outside brackets and escapes.
func expanded(p string) string {
	var b strings.Builder
	inBracket := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			b.WriteByte(c)
			i++
			b.WriteByte(p[i])
			continue
		case inBracket:
			if c == ']' {
				inBracket = false
			}
		case c == '[':
			inBracket = true
		case isSpace(c):
			continue
		case c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
