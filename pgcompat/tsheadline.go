package pgcompat

import (
	"database/sql/driver"
	"strconv"
	"strings"

	"github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/vsqlerr"
)

// ts_headline: the document with the words of the query marked, cut to
// the best cover of the query, as PostgreSQL's default parser chooses it
// (MaxFragments 0).

// hlOptions are ts_headline's options.
type hlOptions struct {
	startSel, stopSel          string
	maxWords, minWords, shortW int
	highlightAll               bool
}

// parseHLOptions reads 'StartSel = <, StopSel = >, MaxWords = 10'.
func parseHLOptions(s string) (hlOptions, error) {
	o := hlOptions{startSel: "<b>", stopSel: "</b>", maxWords: 35, minWords: 15, shortW: 3}
	for _, item := range splitHLOptions(s) {
		key, value, ok := strings.Cut(item, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if !ok || key == "" {
			return o, vsqlerr.New(vsqlerr.SyntaxError, "syntax error in headline options: %q", s)
		}
		if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
			value = value[1 : len(value)-1]
		}
		number := func() (int, error) {
			n, err := strconv.Atoi(value)
			if err != nil {
				return 0, vsqlerr.New(vsqlerr.InvalidTextValue, "invalid input syntax for type integer: %q", value)
			}
			return n, nil
		}
		var err error
		switch strings.ToLower(key) {
		case "startsel":
			o.startSel = value
		case "stopsel":
			o.stopSel = value
		case "maxwords":
			o.maxWords, err = number()
		case "minwords":
			o.minWords, err = number()
		case "shortword":
			o.shortW, err = number()
		case "highlightall":
			switch strings.ToLower(value) {
			case "1", "on", "true", "t", "y", "yes":
				o.highlightAll = true
			}
		case "maxfragments":
			var n int
			if n, err = number(); err == nil && n > 0 {
				err = vsqlerr.New(vsqlerr.FeatureNotSupported, "ts_headline's MaxFragments is not supported")
			}
		case "fragmentdelimiter":
		default:
			err = vsqlerr.New(vsqlerr.InvalidArgument, "unrecognized headline parameter: %q", key)
		}
		if err != nil {
			return o, err
		}
	}
	if !o.highlightAll {
		switch {
		case o.minWords >= o.maxWords:
			return o, vsqlerr.New(vsqlerr.InvalidArgument, "MinWords should be less than MaxWords")
		case o.minWords <= 0:
			return o, vsqlerr.New(vsqlerr.InvalidArgument, "MinWords should be positive")
		case o.shortW < 0:
			return o, vsqlerr.New(vsqlerr.InvalidArgument, "ShortWord should be >= 0")
		}
	}
	return o, nil
}

// splitHLOptions splits options at commas outside double quotes.
func splitHLOptions(s string) []string {
	var out []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			quoted = !quoted
		case ',':
			if !quoted {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, s[start:])
	}
	return out
}

// hlWord is a piece of the document: a word, or what separates words.
type hlWord struct {
	text     string
	word     bool // counts as a word
	noEnd    bool // a headline does not end on it (a number)
	pos      int  // a word's position, as to_tsvector numbers it
	item     *tsqNode
	selected bool
}

// hlWords splits text into words and separators, marking each word whose
// lexeme is an operand of q.
func hlWords(c *tsConfig, text string, ops []*tsqNode) []hlWord {
	var words []hlWord
	at, pos := 0, 0
	for _, t := range tsParse(text) {
		pos++
		if t.kind == tsHyphenated {
			continue // its parts are the words shown
		}
		if t.start > at {
			words = append(words, hlWord{text: text[at:t.start]})
		}
		w := hlWord{text: text[t.start:t.end], word: true, noEnd: t.kind == tsNumber, pos: pos}
		if lx := c.lexeme(text, t); lx != "" {
			for _, op := range ops {
				if lx == op.word || op.prefix && strings.HasPrefix(lx, op.word) {
					w.item = op
					break
				}
			}
		}
		words = append(words, w)
		at = t.end
	}
	if at < len(text) {
		words = append(words, hlWord{text: text[at:]})
	}
	return words
}

// hlCover finds the next cover from words[*p]: the first place every
// operand has appeared, then back to the last first appearance; true when
// q matches the words between.
func hlCover(words []hlWord, q *tsqNode, ops []*tsqNode, p *int) (int, int, bool) {
	for *p < len(words) {
		start, end := *p, -1
		for _, op := range ops {
			for i := start; i < len(words); i++ {
				if words[i].item == op {
					end = max(end, i)
					break
				}
			}
		}
		if end < 0 {
			return 0, 0, false
		}
		begin := len(words)
		for _, op := range ops {
			for i := end; i >= start; i-- {
				if words[i].item == op {
					begin = min(begin, i)
					break
				}
			}
		}
		if begin <= end {
			lookup := func(op *tsqNode) ([]int, bool) {
				var pos []int
				for i := begin; i <= end; i++ {
					if words[i].item == op {
						pos = append(pos, words[i].pos)
					}
				}
				return pos, pos != nil
			}
			if tsExecute(q, lookup) {
				*p = begin
				return begin, end, true
			}
			*p = begin + 1
			continue
		}
		*p++
	}
	return 0, 0, false
}

// headline is ts_headline of text.
func headline(c *tsConfig, text string, q *tsqNode, o hlOptions) string {
	ops := tsqOperands(q)
	words := hlWords(c, text, ops)
	bestb, beste := 0, len(words)-1
	if !o.highlightAll {
		bestb, beste = markHeadline(words, q, ops, o)
	}
	var b strings.Builder
	for i := bestb; i <= beste && i < len(words); i++ {
		if words[i].item != nil {
			b.WriteString(o.startSel + words[i].text + o.stopSel)
		} else {
			b.WriteString(words[i].text)
		}
	}
	return b.String()
}

// markHeadline chooses the words shown: the cover with the most query
// words, grown to MinWords and cut to MaxWords, ending on a word longer
// than ShortWord; without a cover, the first MinWords words.
func markHeadline(words []hlWord, q *tsqNode, ops []*tsqNode, o hlOptions) (int, int) {
	weak := func(i int) bool { return !words[i].word || words[i].noEnd || len([]rune(words[i].text)) <= o.shortW }
	bestb, beste, bestlen := 0, 0, -1
	from := 0
	for q != nil {
		p, cq, ok := hlCover(words, q, ops, &from)
		if !ok {
			break
		}
		curlen, poslen, pose := 0, 0, p
		i := p
		for ; i <= cq && curlen < o.maxWords; i++ {
			if words[i].word {
				curlen++
			}
			if words[i].item != nil {
				poslen++
			}
			pose = i
		}
		if poslen < bestlen && !weak(beste) {
			from = p + 1
			continue
		}
		posb := p
		if curlen < o.maxWords {
			for i = i - 1; i < len(words) && curlen < o.maxWords; i++ {
				if i != cq {
					if words[i].word {
						curlen++
					}
					if words[i].item != nil {
						poslen++
					}
				}
				pose = i
				if weak(i) {
					continue
				}
				if curlen >= o.minWords {
					break
				}
			}
			if curlen < o.minWords && i >= len(words) {
				for i = p - 1; i >= 0; i-- {
					if words[i].word {
						curlen++
					}
					if words[i].item != nil {
						poslen++
					}
					if curlen >= o.maxWords {
						break
					}
					if weak(i) {
						continue
					}
					if curlen >= o.minWords {
						break
					}
				}
				posb = max(i, 0)
			}
		} else {
			if i > cq {
				i = cq
			}
			for ; curlen > o.minWords; i-- {
				if words[i].word {
					curlen--
				}
				if words[i].item != nil {
					poslen--
				}
				pose = i
				if weak(i) {
					continue
				}
				break
			}
		}
		if bestlen < 0 || poslen > bestlen && !weak(pose) || bestlen >= 0 && !weak(pose) && weak(beste) {
			bestb, beste, bestlen = posb, pose, poslen
		}
		from = p + 1
	}
	if bestlen < 0 {
		curlen, pose := 0, 0
		for i := 0; i < len(words) && curlen < o.minWords; i++ {
			if words[i].word {
				curlen++
			}
			pose = i
		}
		return 0, pose
	}
	return bestb, beste
}

// headlineFunctions: __vsql_ts_headline(config, document, query,
// options) of text, __vsql_ts_headline_json of JSON (each string value
// on its own).
func headlineFunctions() map[string][]scalar {
	in := []duckdb.Type{tText, tText, tText, tText}
	return map[string][]scalar{
		"__vsql_ts_headline3": {{in: in, out: tText, run: headline3}},
		"__vsql_ts_headline":  {{in: in, out: tText, run: headlineText}},
		"__vsql_ts_headline_json": {{in: in, out: tText, run: func(a []driver.Value) (any, error) {
			c, q, o, err := headlineArgs(a)
			if err != nil {
				return nil, err
			}
			doc, err := decodeJSON(a[1].(string))
			if err != nil {
				return nil, err
			}
			doc = walkJSONText(doc, jsonFlagString, func(s string) string { return headline(c, s, q, o) })
			return string(AppendJSONB(nil, doc)), nil
		}}},
	}
}

// headline3 is ts_headline of three text arguments: (config, document,
// query) when the third is a tsquery, else (document, query, options).
func headline3(a []driver.Value) (any, error) {
	args := []driver.Value{a[3], a[0], a[1], a[2]}
	if looksTSQuery(a[2].(string)) && !looksTSQuery(a[1].(string)) {
		args = []driver.Value{a[0], a[1], a[2], ""}
	}
	return headlineText(args)
}

// headlineArgs reads (config, document, query, options).
func headlineArgs(a []driver.Value) (*tsConfig, *tsqNode, hlOptions, error) {
	c, err := tsConfigNamed(a[0].(string))
	if err != nil {
		return nil, nil, hlOptions{}, err
	}
	q, err := tsqueryArg(a[2])
	if err != nil {
		return nil, nil, hlOptions{}, err
	}
	o, err := parseHLOptions(a[3].(string))
	return c, q, o, err
}

// headlineText is ts_headline(config, text, query, options).
func headlineText(a []driver.Value) (any, error) {
	c, q, o, err := headlineArgs(a)
	if err != nil {
		return nil, err
	}
	return headline(c, a[1].(string), q, o), nil
}
