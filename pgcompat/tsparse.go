package pgcompat

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"

	"github.com/vsql/vsql/vsqlerr"
)

// Full-text search: the part of PostgreSQL's default text search parser
// ordinary text needs, and the configurations simple and english.

// tsTokenKind is the kind of a token of the default parser; each kind the
// configurations index is a kind PostgreSQL's ts_debug names.
type tsTokenKind uint8

const (
	tsAsciiWord  tsTokenKind = iota // letters, all ASCII
	tsWord                          // letters, some not ASCII
	tsNumWord                       // letters and digits
	tsHyphenated                    // a compound of parts joined by -: asciihword, hword, numhword
	tsHyphenPart                    // a part of the compound before it: hword_asciipart, hword_part, hword_numpart
	tsNumber                        // int, uint, float, sfloat, version
	tsEmail
	tsHost
	tsFile // a name with dots: x.1, a.b
)

// tsToken is one token of the text: its bytes [start, end) of the text.
type tsToken struct {
	kind       tsTokenKind
	start, end int
	letters    bool // a word or part made of letters only (stemmed in english)
}

// isTSLetter reports whether r belongs to a word.
func isTSLetter(r rune) bool { return unicode.IsLetter(r) }

// tsParse splits text into the tokens the configurations index, in order;
// everything else (spaces, punctuation, tags) separates them.
func tsParse(text string) []tsToken {
	var toks []tsToken
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isTSLetter(r) || isDigit(text[i]):
			if n := tsEmailAt(text, i); n > 0 {
				toks = append(toks, tsToken{kind: tsEmail, start: i, end: i + n})
				i += n
				continue
			}
			if n := tsHostAt(text, i); n > 0 {
				toks = append(toks, tsToken{kind: tsHost, start: i, end: i + n})
				i += n
				continue
			}
			if n := tsFileAt(text, i); n > 0 {
				toks = append(toks, tsToken{kind: tsFile, start: i, end: i + n})
				i += n
				continue
			}
			if isDigit(text[i]) {
				if n := tsNumberAt(text, i); n > 0 && !tsWordRuneAt(text, i+n) {
					toks = append(toks, tsToken{kind: tsNumber, start: i, end: i + n})
					i += n
					continue
				}
			}
			i = tsWordAt(text, i, &toks)
		case r == '&' && tsEntityAt(text, i) > 0:
			i += tsEntityAt(text, i)
		case r == '<' && tsTagAt(text, i) > 0:
			i += tsTagAt(text, i)
		case r == '/' && tsFileAt(text, i) > 0:
			n := tsFileAt(text, i)
			toks = append(toks, tsToken{kind: tsFile, start: i, end: i + n})
			i += n
		case (r == '-' || r == '+') && i+1 < len(text) && isDigit(text[i+1]) && (i == 0 || !tsHyphenEnded(toks, i)):
			n := tsNumberAt(text, i+1)
			if n > 0 && !tsWordRuneAt(text, i+1+n) {
				toks = append(toks, tsToken{kind: tsNumber, start: i, end: i + 1 + n})
				i += 1 + n
				continue
			}
			i += size
		default:
			i += size
		}
	}
	return toks
}

// tsHyphenEnded reports whether the hyphen at i follows a compound word
// (PostgreSQL reads its - as a separator, not a sign).
func tsHyphenEnded(toks []tsToken, i int) bool {
	return len(toks) > 0 && toks[len(toks)-1].end == i && toks[len(toks)-1].kind == tsHyphenPart
}

// tsWordRuneAt reports whether a letter starts at byte i.
func tsWordRuneAt(text string, i int) bool {
	if i >= len(text) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(text[i:])
	return isTSLetter(r)
}

// tsNumberAt is the length of the number at i (digits, a fraction, an
// exponent, or a version 1.2.3), 0 if none.
func tsNumberAt(text string, i int) int {
	j := i
	for j < len(text) && isDigit(text[j]) {
		j++
	}
	if j == i {
		return 0
	}
	dots := 0
	for j+1 < len(text) && text[j] == '.' && isDigit(text[j+1]) {
		j++
		for j < len(text) && isDigit(text[j]) {
			j++
		}
		dots++
	}
	if dots <= 1 && j+1 < len(text) && (text[j] == 'e' || text[j] == 'E') {
		k := j + 1
		if k < len(text) && (text[k] == '+' || text[k] == '-') {
			k++
		}
		if k < len(text) && isDigit(text[k]) {
			for k < len(text) && isDigit(text[k]) {
				k++
			}
			j = k
		}
	}
	return j - i
}

// tsWordAt reads the word or hyphenated compound at i, appending its
// tokens, and returns where it ends.
func tsWordAt(text string, i int, toks *[]tsToken) int {
	part := func(k int) (end int, letters, ascii bool) {
		letters, ascii = true, true
		end = k
		for end < len(text) {
			r, size := utf8.DecodeRuneInString(text[end:])
			if isDigit(text[end]) {
				letters = false
			} else if !isTSLetter(r) {
				break
			} else if r >= utf8.RuneSelf {
				ascii = false
			}
			end += size
		}
		return end, letters, ascii
	}
	type span struct {
		start, end     int
		letters, ascii bool
	}
	end, letters, ascii := part(i)
	parts := []span{{i, end, letters, ascii}}
	for end+1 < len(text) && text[end] == '-' {
		e, l, a := part(end + 1)
		if e == end+1 || !tsHasLetter(text[end+1:e]) || !tsHasLetter(text[i:end]) {
			break
		}
		parts = append(parts, span{end + 1, e, l, a})
		end = e
	}
	if len(parts) == 1 {
		kind := tsAsciiWord
		switch {
		case !letters:
			kind = tsNumWord
			if !tsHasLetter(text[i:end]) {
				kind = tsNumber
			}
		case !ascii:
			kind = tsWord
		}
		*toks = append(*toks, tsToken{kind: kind, start: i, end: end, letters: letters})
		return end
	}
	whole := tsToken{kind: tsHyphenated, start: i, end: end, letters: true}
	for _, p := range parts {
		whole.letters = whole.letters && p.letters
	}
	*toks = append(*toks, whole)
	for _, p := range parts {
		*toks = append(*toks, tsToken{kind: tsHyphenPart, start: p.start, end: p.end, letters: p.letters})
	}
	return end
}

func tsHasLetter(s string) bool {
	for _, r := range s {
		if isTSLetter(r) {
			return true
		}
	}
	return false
}

// tsHostAt is the length of a host name at i (labels of letters, digits
// and inner hyphens, joined by dots, the last of two or more letters), 0
// if none.
func tsHostAt(text string, i int) int {
	j, labels, lastEnd, lastLetters := i, 0, 0, false
	for {
		k := j
		letters := true
		for k < len(text) && (isASCIIAlnum(text[k]) || text[k] == '-' && k > j && k+1 < len(text) && isASCIIAlnum(text[k+1])) {
			if !(text[k] >= 'a' && text[k] <= 'z' || text[k] >= 'A' && text[k] <= 'Z') {
				letters = false
			}
			k++
		}
		if k == j {
			break
		}
		labels++
		lastEnd, lastLetters = k, letters && k-j >= 2
		if k+1 < len(text) && text[k] == '.' && isASCIIAlnum(text[k+1]) {
			j = k + 1
			continue
		}
		break
	}
	if labels < 2 || !lastLetters || tsWordRuneAt(text, lastEnd) || lastEnd < len(text) && (isDigit(text[lastEnd]) || text[lastEnd] == '@') {
		return 0
	}
	if !isTSLetter(rune(text[i])) && !isDigit(text[i]) {
		return 0
	}
	return lastEnd - i
}

// tsFileAt is the length of a file name or path at i: a letter or a /,
// then letters, digits, _, - and ., with a / or a dot between letters
// or digits (x.1, a.b, docs/a.md, /usr/lib); 0 if none. URLs are not
// read as PostgreSQL reads them (its url, url_path and protocol tokens).
func tsFileAt(text string, i int) int {
	if !(text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] == '/' && i+1 < len(text) && isASCIIAlnum(text[i+1])) {
		return 0
	}
	j, marks := i, 0
	for j < len(text) {
		switch {
		case text[j] == '/' && j+1 < len(text) && isASCIIAlnum(text[j+1]):
			marks++
		case text[j] == '.' && j+1 < len(text) && (isASCIIAlnum(text[j+1]) || text[j+1] == '_'):
			marks++
		case text[j] == '-' && j+1 < len(text) && isASCIIAlnum(text[j+1]):
		case isASCIIAlnum(text[j]) || text[j] == '_':
		default:
			goto done
		}
		j++
	}
done:
	if marks == 0 || tsWordRuneAt(text, j) || !strings.ContainsAny(text[i:j], "/.") {
		return 0
	}
	return j - i
}

// tsTagAt is the length of an XML or HTML tag at i (<b>, </p>, <a
// href="x">, <!-- comment -->), which separates words; 0 if none.
func tsTagAt(text string, i int) int {
	j := i + 1
	if j < len(text) && (text[j] == '/' || text[j] == '!' || text[j] == '?') {
		j++ // </p>, <!-- comment -->, <?xml …?>
	}
	if j >= len(text) || !(text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j-1] == '!' && text[j] == '-') {
		return 0
	}
	end := strings.IndexAny(text[j:], "<>")
	if end < 0 || text[j+end] != '>' {
		return 0
	}
	return j + end + 1 - i
}

// tsEntityAt is the length of an HTML entity at i (&amp;, &#38;), which
// separates words; 0 if none.
func tsEntityAt(text string, i int) int {
	j := i + 1
	if j < len(text) && text[j] == '#' {
		j++
	}
	k := j
	for k < len(text) && isASCIIAlnum(text[k]) {
		k++
	}
	if k == j || k >= len(text) || text[k] != ';' {
		return 0
	}
	return k + 1 - i
}

func isASCIIAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || isDigit(b)
}

// tsEmailAt is the length of an e-mail address at i, 0 if none.
func tsEmailAt(text string, i int) int {
	j := i
	for j < len(text) && (isASCIIAlnum(text[j]) || text[j] == '.' || text[j] == '_' || text[j] == '-' || text[j] == '+') {
		j++
	}
	if j == i || j >= len(text) || text[j] != '@' || text[j-1] == '.' {
		return 0
	}
	n := tsHostAt(text, j+1)
	if n == 0 {
		return 0
	}
	return j + 1 + n - i
}

// tsConfig is a text search configuration: it turns a token into its
// lexeme, or "" for a stop word.
type tsConfig struct {
	name string
	stem bool // english: stop words dropped, words of letters stemmed
}

var tsConfigs = map[string]*tsConfig{
	"simple":  {name: "simple"},
	"english": {name: "english", stem: true},
}

// defaultTSConfig is default_text_search_config (PostgreSQL's initdb
// default for an English locale).
const defaultTSConfig = "pg_catalog.english"

// tsConfigNamed is the configuration a regconfig names (simple, english,
// pg_catalog.english, any case; "" is the default); an unknown name is
// PostgreSQL's 42704.
func tsConfigNamed(name string) (*tsConfig, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if n == "" {
		n = defaultTSConfig
	}
	n = strings.TrimPrefix(strings.Trim(strings.TrimPrefix(n, `pg_catalog.`), `"`), `pg_catalog.`)
	if c, ok := tsConfigs[n]; ok {
		return c, nil
	}
	return nil, vsqlerr.New(vsqlerr.UndefinedObject, "text search configuration %q does not exist", strings.TrimSpace(name))
}

// lexeme is the lexeme of token t of text ("" for a stop word).
func (c *tsConfig) lexeme(text string, t tsToken) string {
	word := strings.ToLower(text[t.start:t.end])
	if !c.stem {
		return word
	}
	switch t.kind {
	case tsAsciiWord, tsWord:
	case tsHyphenated, tsHyphenPart:
		if !t.letters {
			return word
		}
	default:
		return word
	}
	if english.IsStopWord(word) {
		return ""
	}
	return english.Stem(word, true)
}

// tsWords are the lexemes of text in order, each with its position
// (from pos+1; a stop word takes a position but gives no lexeme); it
// returns the last position used.
func (c *tsConfig) words(text string, pos int, emit func(lexeme string, pos int)) int {
	for _, t := range tsParse(text) {
		pos++
		if lx := c.lexeme(text, t); lx != "" {
			emit(lx, pos)
		}
	}
	return pos
}
