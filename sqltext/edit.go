package sqltext

// Edit replaces the bytes [Start, End) of a statement's SQL with Text
// (Start == End: an insertion).
type Edit struct {
	Start, End int
	Text       string
}

// Edit returns the statement with edits applied: edits in order of Start,
// not overlapping (an insertion may share its offset with the edit after
// it, and comes first). The result keeps s's Offset and has its tokens
// without a new lexing pass: tokens no edit touches are s's own, moved;
// only the text an edit wrote, with the tokens it touched, is lexed. The
// rewrites that use this write whole tokens (names, calls, parentheses,
// operators), so the result's tokens are those a pass over its text would
// find (TestEditTokens checks this on every rewrite the tests make).
func (s Statement) Edit(edits []Edit) Statement {
	if len(edits) == 0 {
		return s
	}
	src, toks := s.SQL, s.Tokens()
	if s.open {
		// Text written after an unclosed quote or comment joins it: the
		// new text is lexed whole.
		var b []byte
		pos := 0
		for _, e := range edits {
			b = append(append(b, src[pos:e.Start]...), e.Text...)
			pos = e.End
		}
		st := Parse(string(append(b, src[pos:]...)))
		st.Offset = s.Offset
		return st
	}
	out := make([]byte, 0, len(src)+64)
	outToks := make([]Token, 0, len(toks)+8)
	pos, ti := 0, 0
	// dirty is where, in out, text starts that has to be lexed (-1: none):
	// what edits wrote and the rest of tokens they cut.
	dirty := -1
	open := false
	lexDirty := func() {
		if dirty < 0 {
			return
		}
		l := lexer{src: string(out[dirty:])}
		for {
			t, ok := l.nextToken()
			if !ok {
				break
			}
			outToks = append(outToks, Token{t.Kind, t.Start + dirty, t.End + dirty})
		}
		open = open || l.open
		dirty = -1
	}
	// keep copies token ti as it is, with the text before it.
	keep := func() {
		if dirty >= 0 {
			if pos == toks[ti].Start {
				// Touching the dirty text, the token may join it: it is
				// lexed with it.
				out = append(out, src[pos:toks[ti].End]...)
				pos = toks[ti].End
				return
			}
			out = append(out, src[pos:toks[ti].Start]...)
			pos = toks[ti].Start
			lexDirty()
		}
		shift := len(out) - pos
		out = append(out, src[pos:toks[ti].End]...)
		pos = toks[ti].End
		outToks = append(outToks, Token{toks[ti].Kind, toks[ti].Start + shift, toks[ti].End + shift})
	}
	for _, e := range edits {
		for ; ti < len(toks) && toks[ti].End <= e.Start; ti++ {
			if toks[ti].Start >= pos {
				keep()
			}
		}
		if dirty < 0 {
			dirty = len(out)
			if n := len(outToks); n > 0 && outToks[n-1].End == dirty && pos == e.Start {
				// The token before touches the edit: lexed with it.
				dirty = outToks[n-1].Start
				outToks = outToks[:n-1]
			}
		}
		out = append(out, src[pos:e.Start]...) // with the head of a token the edit cuts
		out = append(out, e.Text...)
		pos = e.End
		// Tokens the edit covers are gone; one it cuts stays at ti: its
		// tail is copied as dirty text with what follows.
		for ti < len(toks) && toks[ti].Start < e.End && toks[ti].End <= e.End {
			ti++
		}
	}
	for ; ti < len(toks); ti++ {
		if toks[ti].Start >= pos {
			keep()
		}
	}
	out = append(out, src[pos:]...)
	lexDirty()
	if open {
		// An edit wrote an unclosed quote: what follows is inside it.
		st := Parse(string(out))
		st.Offset = s.Offset
		return st
	}
	st := fromTokens(string(out), outToks)
	st.Offset = s.Offset
	return st
}
