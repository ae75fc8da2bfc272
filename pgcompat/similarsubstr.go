package pgcompat

import (
	"database/sql/driver"
	"regexp"
	"strings"
	"sync"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// SUBSTRING(s SIMILAR pattern ESCAPE e) and its SQL:1999 spelling
// SUBSTRING(s FROM pattern FOR e): the part of s that the part of the
// SIMILAR TO pattern between the two escape-double-quote separators (#"
// with escape #) matches, when the whole pattern matches the whole of s
// (NULL otherwise). The part before the first separator matches as
// little as it can, as PostgreSQL's does (its quantifiers are made lazy
// for RE2); with one separator the part after it is returned; with none,
// the whole match. More than two separators is 2200C, an escape of more
// than one character 22025, a NULL escape NULL.

var similarSubstringFunctions = map[string][]scalar{
	"__vsql_substring_similar": {{in: []duckdb.Type{tText, tText, tText}, out: tText, run: substringSimilar}},
}

var similarCache sync.Map // pattern + "\x00" + escape → *regexp.Regexp

func substringSimilar(a []driver.Value) (any, error) {
	s, pattern, escape := a[0].(string), a[1].(string), a[2].(string)
	key := pattern + "\x00" + escape
	var re *regexp.Regexp
	if v, ok := similarCache.Load(key); ok {
		re = v.(*regexp.Regexp)
	} else {
		var err error
		if re, err = similarSubstringRegex(pattern, escape); err != nil {
			return nil, err
		}
		similarCache.Store(key, re)
	}
	m := re.FindStringSubmatchIndex(s)
	if m == nil || m[2] < 0 {
		return nil, nil
	}
	return s[m[2]:m[3]], nil
}

// similarSubstringRegex is the anchored RE2 expression of a SIMILAR TO
// pattern with its separators: group 1 is the part to return.
func similarSubstringRegex(pattern, escape string) (*regexp.Regexp, error) {
	if len([]rune(escape)) > 1 {
		return nil, vsqlerr.New(vsqlerr.InvalidEscapeSequence, "invalid escape string").WithHint("Escape string must be empty or one character.")
	}
	// the parts between separators (escape followed by a double quote)
	var parts []string
	start := 0
	if escape != "" {
		for i := 0; i < len(pattern); i++ {
			if !strings.HasPrefix(pattern[i:], escape) {
				continue
			}
			if strings.HasPrefix(pattern[i+len(escape):], `"`) {
				parts = append(parts, pattern[start:i])
				start = i + len(escape) + 1
				i = start - 1
				continue
			}
			i += len(escape) // an escaped character
		}
	}
	parts = append(parts, pattern[start:])
	if len(parts) > 3 {
		return nil, vsqlerr.New(vsqlerr.InvalidRegex, "SQL regular expression may not contain more than two escape-double-quote separators")
	}
	res := make([]string, len(parts))
	for i, part := range parts {
		r, ok := similarRegex(part, escape)
		if !ok {
			return nil, vsqlerr.New(vsqlerr.InvalidRegex, "invalid SQL regular expression: %q", pattern)
		}
		res[i] = r
	}
	var expr string
	switch len(res) {
	case 1:
		expr = "^(" + res[0] + ")$"
	case 2:
		expr = "^(?:" + lazyQuantifiers(res[0]) + ")(" + res[1] + ")$"
	default:
		expr = "^(?:" + lazyQuantifiers(res[0]) + ")(" + res[1] + ")(?:" + res[2] + ")$"
	}
	re, err := regexp.Compile("(?s)" + expr)
	if err != nil {
		return nil, vsqlerr.New(vsqlerr.InvalidRegex, "invalid regular expression: %v", err)
	}
	return re, nil
}

// lazyQuantifiers makes the quantifiers of a regular expression (as
// similarRegex writes it) prefer fewer repetitions: *, +, ? and {…}
// outside bracket expressions get a ? after them (unless they have one).
func lazyQuantifiers(re string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(re); i++ {
		c := re[i]
		b.WriteByte(c)
		switch {
		case c == '\\' && i+1 < len(re):
			i++
			b.WriteByte(re[i])
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
		case c == '(' && strings.HasPrefix(re[i+1:], "?:"):
			b.WriteString("?:")
			i += 2
		case c == '*' || c == '+' || c == '?' || c == '}':
			if i+1 < len(re) && re[i+1] == '?' {
				b.WriteByte('?')
				i++
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// substringSimilarCall is the rule of substring's SIMILAR and
// FROM pattern FOR escape forms (called by substringFrom with the
// positions of its words): the call becomes pg_substring_similar(s,
// pattern, escape).
func substringSimilarCall(p *pass, i int, words []int, close int, name string) bool {
	var patStart, escStart int
	switch {
	case len(words) == 1 && p.isWord(words[0], "similar"):
		patStart = words[0] + 1
		escStart = -1
		for j := patStart; j < close; j++ {
			if p.kind(j) == sqltext.Open {
				if j = p.matchForward(j); j < 0 {
					return false
				}
				continue
			}
			if p.isWord(j, "escape") {
				escStart = j + 1
				break
			}
		}
		if escStart < 0 {
			return false
		}
		p.replace(p.toks[words[0]].Start, p.toks[words[0]].End, ",")
		p.replace(p.toks[escStart-1].Start, p.toks[escStart-1].End, ",")
	case len(words) == 2 && p.isWord(words[0], "from") && p.isWord(words[1], "for") &&
		p.plainString(words[0]+1) && words[0]+2 == words[1] && p.plainString(words[1]+1) && words[1]+2 == close:
		// FROM 'pattern' FOR 'escape': two string constants are text to
		// PostgreSQL, so this is its text form ('2' and '3' too)
		p.replace(p.toks[words[0]].Start, p.toks[words[0]].End, ",")
		p.replace(p.toks[words[1]].Start, p.toks[words[1]].End, ",")
	default:
		return false
	}
	p.replace(p.toks[i].Start, p.toks[i].End, name)
	return true
}
