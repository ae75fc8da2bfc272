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
	startSel, stopSel, fragmentDelimiter string
	maxWords, minWords, shortW           int
	maxFragments                         int
	highlightAll                         bool
}

// parseHLOptions reads 'StartSel = <, StopSel = >, MaxWords = 10'.
func parseHLOptions(s string) (hlOptions, error) {
	o := hlOptions{startSel: "<b>", stopSel: "</b>", fragmentDelimiter: " ... ", maxWords: 35, minWords: 15, shortW: 3}
	for _, item := range splitUnquoted(s, ',') {
		if strings.TrimSpace(item) == "" {
			continue
		}
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
			o.maxFragments, err = number()
		case "fragmentdelimiter":
			o.fragmentDelimiter = value
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
		case o.maxFragments < 0:
			return o, vsqlerr.New(vsqlerr.InvalidArgument, "MaxFragments should be >= 0")
		}
	}
	return o, nil
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
func hlWords(c *tsConfig, text string, ops []*tsqNode, keepTags bool) []hlWord {
	separator := hlSeparator
	if keepTags {
		separator = func(s string) string { return s }
	}
	var words []hlWord
	at, pos := 0, 0
	for _, t := range tsParse(text) {
		pos++
		if t.kind == tsHyphenated {
			continue // its parts are the words shown
		}
		if t.start > at {
			words = append(words, hlWord{text: separator(text[at:t.start])})
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
		words = append(words, hlWord{text: separator(text[at:])})
	}
	return words
}

// hlSeparator is the text between two words as a headline shows it: each
// tag a space (HighlightAll keeps the tags).
func hlSeparator(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if n := tsTagAt(s, i); s[i] == '<' && n > 0 {
			b.WriteByte(' ')
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// hlNext is the first word at or after i that is an operand of the
// query, -1 if none.
func hlNext(words []hlWord, i int) int {
	for ; i < len(words); i++ {
		if words[i].item != nil {
			return i
		}
	}
	return -1
}

// hlCover finds the earliest shortest cover from words[*p]: the words
// begin…end, both operands of q, that q matches, at most maxCover words
// apart.
func hlCover(words []hlWord, q *tsqNode, maxCover int, p *int) (int, int, bool) {
	for begin := hlNext(words, *p); begin >= 0; {
		next := -1
		for end := begin; end >= 0 && end-begin < maxCover; {
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
			after := hlNext(words, end+1)
			if end == begin {
				next = after
			}
			end = after
		}
		begin = next
	}
	return 0, 0, false
}

// headline is ts_headline of text.
func headline(c *tsConfig, text string, q *tsqNode, o hlOptions) string {
	ops := tsqOperands(q)
	words := hlWords(c, text, ops, o.highlightAll)
	shown := make([]bool, len(words))
	mark := func(b, e int) {
		for i := max(b, 0); i <= e && i < len(words); i++ {
			shown[i] = true
		}
	}
	switch {
	case o.highlightAll:
		mark(0, len(words)-1)
	case o.maxFragments > 0:
		markFragments(words, q, o, mark)
	default:
		mark(markHeadline(words, q, o))
	}
	// the shown words, a delimiter between fragments
	var b strings.Builder
	fragments, in := 0, false
	for i, w := range words {
		if !shown[i] {
			in = false
			continue
		}
		if !in {
			in = true
			if fragments++; fragments > 1 {
				b.WriteString(o.fragmentDelimiter)
			}
		}
		if w.item != nil {
			b.WriteString(o.startSel + w.text + o.stopSel)
		} else {
			b.WriteString(w.text)
		}
	}
	return b.String()
}

// badEnd reports whether a headline should not end on word i: a number
// or a short word, not of the query.
func (o hlOptions) badEnd(words []hlWord, i int) bool {
	return (!words[i].word || words[i].noEnd || len(words[i].text) <= o.shortW) && words[i].item == nil
}

// hlFragment is a part of a cover: its first and last words, its words
// and its query words.
type hlFragment struct {
	start, end, words, items int
	chosen, excluded         bool
}

// markFragments marks up to MaxFragments fragments: the covers cut into
// pieces of at most MaxWords that begin and end on query words, the ones
// with the most query words (then the fewest words) first, each
// stretched towards MaxWords on both sides, none overlapping another;
// without a cover, the first MinWords words.
func markFragments(words []hlWord, q *tsqNode, o hlOptions, mark func(b, e int)) {
	count := func(i int, f *hlFragment, sign int) {
		if words[i].word {
			f.words += sign
		}
		if words[i].item != nil {
			f.items += sign
		}
	}
	var frags []hlFragment
	maxCover := max(o.maxWords*10, 100) * o.maxFragments
	for p := 0; q != nil; p++ {
		b, e, ok := hlCover(words, q, maxCover, &p)
		if !ok {
			break
		}
		for start := b; start <= e; {
			f := hlFragment{start: start, end: e}
			for f.start < e && words[f.start].item == nil {
				f.start++
			}
			i := f.start
			for ; i <= f.end && f.words < o.maxWords; i++ {
				count(i, &f, 1)
			}
			if f.end > i { // cut: back to a query word
				for f.end = i; f.end >= f.start; f.end-- {
					if words[f.end].item != nil {
						break
					}
					count(f.end, &f, -1)
				}
				f.end = max(f.end, f.start)
			}
			frags = append(frags, f)
			start = f.end + 1
		}
	}
	shown := make([]bool, len(words))
	marked := 0
	for n := 0; n < o.maxFragments; n++ {
		best := -1
		for i, f := range frags {
			if !f.chosen && !f.excluded && (best < 0 || f.items > frags[best].items || f.items == frags[best].items && f.words < frags[best].words) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		f := &frags[best]
		f.chosen = true
		if f.words < o.maxWords {
			stretch, room := 0, (o.maxWords-f.words)/2
			at := f.start
			for i := f.start - 1; i >= 0 && stretch < room && !shown[i]; i-- {
				if words[i].word {
					f.words++
					stretch++
				}
				at = i
			}
			for ; at < f.start && o.badEnd(words, at); at++ {
				if words[at].word {
					f.words--
				}
			}
			f.start = at
			at = f.end
			for i := f.end + 1; i < len(words) && f.words < o.maxWords && !shown[i]; i++ {
				if words[i].word {
					f.words++
				}
				at = i
			}
			for ; at > f.end && o.badEnd(words, at); at-- {
				if words[at].word {
					f.words--
				}
			}
			f.end = at
		}
		for i := f.start; i <= f.end; i++ {
			shown[i] = true
		}
		mark(f.start, f.end)
		marked++
		for i := range frags {
			g := &frags[i]
			if i != best && (g.start >= f.start && g.start <= f.end || g.end >= f.start && g.end <= f.end || g.start < f.start && g.end > f.end) {
				g.excluded = true
			}
		}
	}
	if marked == 0 {
		n := 0
		for i := 0; i < len(words) && n < o.minWords; i++ {
			if words[i].word {
				n++
			}
			mark(i, i)
		}
	}
}

// markHeadline chooses the words shown: of the covers of the query, the
// one kept whole, with the most query words, ending well, grown to
// MinWords (forward, then back) or cut to MaxWords; without a cover, the
// first MinWords words.
func markHeadline(words []hlWord, q *tsqNode, o hlOptions) (int, int) {
	bad := func(i int) bool { return o.badEnd(words, i) }
	count := func(i int, curlen, poslen *int, sign int) {
		if words[i].word {
			*curlen += sign
		}
		if words[i].item != nil {
			*poslen += sign
		}
	}
	bestb, beste, bestlen, bestcover := -1, -1, -1, false
	maxCover := max(o.maxWords*10, 100)
	for p := 0; q != nil; p++ {
		b, e, ok := hlCover(words, q, maxCover, &p)
		if !ok {
			break
		}
		curlen, poslen, posb, pose := 0, 0, b, b
		i := b
		for ; i <= e && curlen < o.maxWords; i++ {
			count(i, &curlen, &poslen, 1)
			pose = i
		}
		if curlen < o.maxWords {
			for i = i - 1; i < len(words) && curlen < o.maxWords; i++ {
				if i > e {
					count(i, &curlen, &poslen, 1)
				}
				pose = i
				if bad(i) {
					continue
				}
				if curlen >= o.minWords {
					break
				}
			}
			if curlen < o.minWords {
				for i = b - 1; i >= 0; i-- {
					count(i, &curlen, &poslen, 1)
					if curlen >= o.maxWords {
						break
					}
					if bad(i) {
						continue
					}
					if curlen >= o.minWords {
						break
					}
				}
				posb = max(i, 0)
			}
		} else {
			if i > e {
				i = e
			}
			for ; curlen > o.minWords; i-- {
				if !bad(i) {
					break
				}
				count(i, &curlen, &poslen, -1)
				pose = i - 1
			}
		}
		cover := posb <= b && pose >= e
		if cover && !bestcover || cover == bestcover && (poslen > bestlen || poslen == bestlen && !bad(pose) && bad(beste)) {
			bestb, beste, bestlen, bestcover = posb, pose, poslen, cover
		}
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
