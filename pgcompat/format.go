package pgcompat

import (
	"strings"

	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's formatting templates (to_char, to_timestamp, to_date,
// to_number), parsed as PostgreSQL parses them: keywords matched longest
// first and case-sensitively, the prefixes FM (fill mode: no padding) and
// TM, the suffix TH/th (ordinal), "…" literal text with \ escaping inside
// it, and \" outside quotes for a literal quote.

type nodeKind int

const (
	nodeKey   nodeKind = iota
	nodeChar           // a literal character (or text in quotes)
	nodeSpace          // whitespace (datetime templates)
	nodeSep            // a separator: printable ASCII, not a letter or digit (datetime templates)
)

type fmtNode struct {
	kind nodeKind
	key  string // the keyword as written (nodeKey)
	text string // the character(s) (other kinds)
	fm   bool   // FM prefix
	th   int    // TH suffix: 0 none, 1 "TH", 2 "th"
}

// dateKeys are the datetime template keywords; parseTemplate tries the
// longest first.
var dateKeys = strings.Fields(`A.D. A.M. AD AM B.C. BC CC DAY DDD DD DY Day Dy D FF1 FF2 FF3 FF4 FF5 FF6 FX
	HH24 HH12 HH IDDD ID IW IYYY IYY IY I J MI MM MONTH MON MS Month Mon OF P.M. PM Q RM SSSSS SSSS SS
	TZH TZM TZ US WW W Y,YYY YYYY YYY YY Y
	a.d. a.m. ad am b.c. bc cc day ddd dd dy d ff1 ff2 ff3 ff4 ff5 ff6 fx hh24 hh12 hh iddd id iw iyyy iyy iy i j
	mi mm month mon ms of p.m. pm q rm sssss ssss ss tzh tzm tz us ww w y,yyy yyyy yyy yy y`)

// numKeys are the numeric template keywords.
var numKeys = strings.Fields(`, . 0 9 B C D EEEE E FM G L MI PL PR RN SG SP S TH V b c d eeee e fm g l mi pl pr rn sg sp s th v`)

func byLength(keys []string) []string {
	out := append([]string(nil), keys...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

var dateKeysByLength, numKeysByLength = byLength(dateKeys), byLength(numKeys)

// parseTemplate splits a template into nodes; numeric selects the
// keywords of to_char(number)/to_number.
func parseTemplate(f string, numeric bool) []fmtNode {
	keys := dateKeysByLength
	if numeric {
		keys = numKeysByLength
	}
	var out []fmtNode
	for i := 0; i < len(f); {
		var n fmtNode
		j := i
		if !numeric {
			for {
				switch {
				case strings.HasPrefix(f[j:], "FM") || strings.HasPrefix(f[j:], "fm"):
					n.fm = true
					j += 2
					continue
				case strings.HasPrefix(f[j:], "TM") || strings.HasPrefix(f[j:], "tm"):
					j += 2
					continue
				}
				break
			}
		}
		key := ""
		for _, k := range keys {
			if strings.HasPrefix(f[j:], k) {
				key = k
				break
			}
		}
		if key != "" {
			n.kind, n.key = nodeKey, key
			j += len(key)
			if !numeric {
				switch {
				case strings.HasPrefix(f[j:], "TH"):
					n.th, j = 1, j+2
				case strings.HasPrefix(f[j:], "th"):
					n.th, j = 2, j+2
				}
			}
			out = append(out, n)
			i = j
			continue
		}
		if n.fm && !numeric { // FM before no keyword: nothing
			i = j
			if j < len(f) {
				continue
			}
			break
		}
		c := f[i]
		switch {
		case c == '"':
			i++
			for i < len(f) && f[i] != '"' {
				if f[i] == '\\' && i+1 < len(f) {
					i++
				}
				l := runeLen(f, i)
				out = append(out, fmtNode{kind: nodeChar, text: f[i : i+l]})
				i += l
			}
			i++
			continue
		case c == '\\' && i+1 < len(f) && f[i+1] == '"':
			out = append(out, fmtNode{kind: nodeChar, text: `"`})
			i += 2
			continue
		}
		l := runeLen(f, i)
		n = fmtNode{kind: nodeChar, text: f[i : i+l]}
		if !numeric {
			switch {
			case isSpace(c):
				n.kind = nodeSpace
			case isSeparator(c):
				n.kind = nodeSep
			}
		}
		out = append(out, n)
		i += l
	}
	return out
}

func runeLen(s string, i int) int {
	c := s[i]
	switch {
	case c < 0x80:
		return 1
	case c >= 0xF0 && i+4 <= len(s):
		return 4
	case c >= 0xE0 && i+3 <= len(s):
		return 3
	case c >= 0xC0 && i+2 <= len(s):
		return 2
	}
	return 1
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// isSeparator: printable ASCII that is not a letter or digit.
func isSeparator(c byte) bool {
	return c > 0x20 && c < 0x7f && !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9')
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ordinal is the English ordinal suffix of n (upper case for TH).
func ordinal(n int64, upper bool) string {
	if n < 0 {
		n = -n
	}
	s := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			s = "st"
		case 2:
			s = "nd"
		case 3:
			s = "rd"
		}
	}
	if upper {
		return strings.ToUpper(s)
	}
	return s
}

func datetimeFormatError(format string, args ...any) *vsqlerr.Error {
	return vsqlerr.New(vsqlerr.InvalidDatetimeFormat, format, args...)
}
