package pgcompat

import (
	"strings"
	"testing"
)

// The expected values below are PostgreSQL 15's answers (to_tsvector,
// ts_debug, the types' input and output), copied from psql.

func TestTSParseTokens(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		// ts_debug('simple', …) without its blanks
		{"foo-bar baz's", "foo-bar foo bar baz s"},
		{"123 -45 3.14 -2.5 1.2.3 abc123 1e5 5e-3", "123 -45 3.14 -2.5 1.2.3 abc123 1e5 5e-3"},
		{"a1-b2 über-cool café", "a1-b2 a1 b2 über-cool über cool café"},
		{"x@y.com www.example.com a.b x.1", "x@y.com www.example.com a.b x.1"},
		{"foo-123 abc-def-1 ab-c- -abc foo--bar 3-4", "foo -123 abc-def abc def 1 ab-c ab c abc foo bar 3 -4"},
		{"<b>tag</b> &amp; o'neill foo_bar", "tag o neill foo bar"},
		{"/usr/bin docs/a.md", "/usr/bin docs/a.md"},
	} {
		var got []string
		for _, tok := range tsParse(tc.text) {
			got = append(got, tc.text[tok.start:tok.end])
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: %q, want %q", tc.text, strings.Join(got, " "), tc.want)
		}
	}
}

func TestToTSVector(t *testing.T) {
	for _, tc := range []struct{ config, text, want string }{
		{"english", "The foo-bar baz's", "'bar':4 'baz':5 'foo':3 'foo-bar':2"},
		{"english", "Generously, the organizations' nationalization policies were considered hopeful",
			"'consid':7 'generous':1 'hope':8 'nation':4 'organ':3 'polici':5"},
		{"simple", "The Quick FOXES", "'foxes':3 'quick':2 'the':1"},
		{"english", "naïve skies dying news", "'die':3 'naïv':1 'news':4 'sky':2"},
	} {
		v, err := toTSVector(tc.config, tc.text)
		if err != nil || v.String() != tc.want {
			t.Errorf("to_tsvector(%s, %q) = %s, %v; want %s", tc.config, tc.text, v, err, tc.want)
		}
	}
	if _, err := toTSVector("german", "x"); err == nil || !strings.Contains(err.Error(), `text search configuration "german" does not exist`) {
		t.Errorf("german: %v", err)
	}
}

func TestTSVectorInput(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a:1 b:2A a:3,1B", "'a':1B,3 'b':2A"},
		{`'a b' c:3 'it''s' x\\y`, `'a b' 'c':3 'it''s' 'x\\y'`},
		{"b a b:5", "'a' 'b':5"},
		{"", ""},
	} {
		v, err := parseTSVector(tc.in)
		if err != nil || v.String() != tc.want {
			t.Errorf("%q::tsvector = %s, %v; want %s", tc.in, v, err, tc.want)
		}
	}
	for _, bad := range []string{"a:", "'a", "a:0", "a:1x"} {
		if _, err := parseTSVector(bad); err == nil {
			t.Errorf("%q::tsvector: no error", bad)
		}
	}
}

func TestTSQueryInput(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a & (b | c) & !d", "'a' & ( 'b' | 'c' ) & !'d'"},
		{"!(a & b)", "!( 'a' & 'b' )"},
		{"a & b | c & d", "'a' & 'b' | 'c' & 'd'"},
		{"(a | b) <-> c", "( 'a' | 'b' ) <-> 'c'"},
		{"a <-> (b <-> c)", "'a' <-> ( 'b' <-> 'c' )"},
		{"(a <-> b) <-> c", "'a' <-> 'b' <-> 'c'"},
		{"!a <-> b", "!'a' <-> 'b'"},
		{"a:*BA", "'a':*AB"},
		{"a <0> b", "'a' <0> 'b'"},
		{"!!a", "!!'a'"},
	} {
		q, err := parseTSQuery(tc.in)
		if err != nil || q.String() != tc.want {
			t.Errorf("%q::tsquery = %s, %v; want %s", tc.in, q, err, tc.want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"(fat | rat) & !cats <-> dog:* & cat:AB", "( 'fat' | 'rat' ) & !'cat' <-> 'dog':* & 'cat':AB"},
		{"foo-bar & baz", "'foo-bar' <-> 'foo' <-> 'bar' & 'baz'"},
		{"(a | b) & c", "'b' & 'c'"},
		{"supernovae <-> the <-> stars", "'supernova' <2> 'star'"},
	} {
		q, err := toTSQuery("english", tc.in)
		if err != nil || q.String() != tc.want {
			t.Errorf("to_tsquery(%q) = %s, %v; want %s", tc.in, q, err, tc.want)
		}
	}
}

func TestTSRank(t *testing.T) {
	v, _ := toTSVector("english", "fat cats ate fat rats")
	q, _ := toTSQuery("english", "rat")
	if got := tsRank(tsDefaultWeights, v, q, 0); got != 0.06079271 {
		t.Errorf("ts_rank = %v, want 0.06079271", got)
	}
}

// TestTSRewrite: the rules leave statements without text search alone
// and write the operators of visible tsvector and tsquery operands as
// calls.
func TestTSRewrite(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT a || b, length(s), x && y", "SELECT a || b, length(s), x && y"},
		{"SELECT to_tsvector(a) || to_tsvector(b)", "SELECT " + schema + ".pg_tsvector_concat(to_tsvector(a) , to_tsvector(b))"},
		{"SELECT length(to_tsvector(a))", "SELECT " + schema + ".pg_tsvector_length(to_tsvector(a))"},
		{"SELECT 'a b'::tsvector", "SELECT " + schema + ".pg_tsvector_in('a b'::VARCHAR)"},
		{"CREATE TABLE t (v tsvector, q tsquery)", "CREATE TABLE t (v VARCHAR, q VARCHAR)"},
		{"SELECT v @@ q FROM t", "SELECT " + schema + ".pg_match_op(v , q) FROM t"},
		{"SELECT !!to_tsquery('a')", "SELECT " + schema + ".pg_tsquery_not(to_tsquery('a'))"},
	} {
		if got, _ := Rewrite(tc.in); got != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

// FuzzTSearch: no input makes the text search functions panic (they run
// inside the engine, where a panic would end the server).
func FuzzTSearch(f *testing.F) {
	for _, s := range []string{"", "a:1 b:2A", "'a b':1,2", "fat & !(rat <-> cat:*)", "a <2> b", `"x y" or -z`,
		"foo-bar x@y.com a.b /usr 1.2.3 <b>&amp;", "a:", "'", "!", "(", "a <", "<->", "a:*AB", "-", "or or"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, text, query string) {
		v, _ := toTSVector("english", text)
		pv, _ := parseTSVector(text)
		q, _ := parseTSQuery(query)
		tq, _ := toTSQuery("english", query)
		wq, _ := websearchToTSQuery("english", query)
		for _, qq := range []*tsqNode{q, tq, wq} {
			for _, vv := range []tsvector{v, pv} {
				tsMatch(vv, qq)
				tsRank(tsDefaultWeights, vv, qq, 63)
				tsRankCD(tsDefaultWeights, vv, qq, 63)
			}
			_ = qq.String()
			queryTree(qq)
			for _, opts := range []string{"", "MaxFragments=2, MaxWords=5, MinWords=1", "HighlightAll=true"} {
				o, err := parseHLOptions(opts)
				if err == nil {
					headline(tsConfigs["english"], text, qq, o)
				}
			}
		}
		_ = v.String()
		_, _ = jsonToTSVector("simple", text, jsonFlagAll)
	})
}
