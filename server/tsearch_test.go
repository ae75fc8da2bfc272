package server_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/vsql/vsql/internal/pgtest"
)

// TestTextSearch: PostgreSQL's full-text search (tsvector, tsquery, @@,
// ranking, headlines, the simple and english configurations), each
// statement answered as PostgreSQL 15 answers it.
func TestTextSearch(t *testing.T) {
	pg := pgtest.Connect(t).PgConn()
	vs := connectPgx(t, startServer(t, nil)).PgConn()
	compareSteps(t, pg, vs, []string{
		// parsing and the english configuration: stop words, stemming,
		// positions, hyphenated words, numbers, e-mail and host names
		"SELECT to_tsvector('english', 'The quick brown foxes jumped over the lazy dogs'' backs, running happily')",
		"SELECT to_tsvector('english', 'Generously, the organizations'' nationalization policies: studies, flies, dying, agreed, skies, news')",
		"SELECT to_tsvector('simple', 'The Quick brown FOXES jumped')",
		"SELECT to_tsvector('english', 'foo-bar self-esteem state-of-the-art a1-b2 über-cool café naïve')",
		"SELECT to_tsvector('english', '123 -45 3.14 -2.5 1.2.3 abc123 1e5 000 12:30')",
		"SELECT to_tsvector('english', 'write to john.doe@example.com or see www.example.com, a.b and /usr/lib')",
		"SELECT to_tsvector('english', '<b>bold</b> &amp; o''neill don''t it''s')",
		"SELECT to_tsvector('The quick brown foxes')",
		"SELECT to_tsvector('pg_catalog.english', 'Cats'), to_tsvector('English', 'Cats')",
		"SELECT to_tsvector('english', '')",
		"SELECT to_tsvector('english', NULL)",
		"SELECT to_tsvector('nosuch', 'Katzen')", // 42704
		"SELECT get_current_ts_config()",
		"SHOW default_text_search_config",
		// the types' input: normalized as PostgreSQL normalizes
		"SELECT 'b:2 a:1 a:3,1B c'::tsvector",
		`SELECT $$'a b' c:3 'it''s' x\\y$$::tsvector`,
		"SELECT CAST('z y x:5A' AS tsvector), tsvector 'q:1 p:2'",
		"SELECT 'a:0'::tsvector", // 42601
		"SELECT 'fat & (rat | cat) & !dog'::tsquery, 'a <-> (b <-> c)'::tsquery, '(a <-> b) <-> c'::tsquery",
		"SELECT 'a:*BA & b <2> c'::tsquery, '!(a & b)'::tsquery, 'a & b | c & d'::tsquery, '!!a'::tsquery",
		"SELECT 'a & '::tsquery", // 42601
		"SELECT 'a <16384> b'::tsquery",
		"SELECT 'a <16385> b'::tsquery", // 22023
		"SELECT 'english'::regconfig, 'simple'::regconfig",
		"SELECT 'nosuch'::regconfig", // 42704
		// queries
		"SELECT to_tsquery('english', 'The & cats'), to_tsquery('english', 'fat <2> (cat | rat)')",
		"SELECT to_tsquery('english', '(fat | rat) & !cats <-> dog:* & cat:AB'), to_tsquery('english', 'foo-bar & baz')",
		"SELECT to_tsquery('english', 'supernovae <-> the <-> stars'), to_tsquery('english', 'the')",
		"SELECT to_tsquery('english', 'fat & (')", // 42601
		"SELECT plainto_tsquery('english', 'The fat cats ate foo-bar'), plainto_tsquery('The Fat Rats'), plainto_tsquery('english', 'the')",
		"SELECT phraseto_tsquery('english', 'The fat cats ate the rat'), phraseto_tsquery('foo-bar cats')",
		`SELECT websearch_to_tsquery('english', '"fat rat" or cat -dog'), websearch_to_tsquery('english', 'signal -"segmentation fault"')`,
		"SELECT websearch_to_tsquery('english', 'foo-bar baz'), websearch_to_tsquery('english', 'cat or or dog'), websearch_to_tsquery('the or cat')",
		"SELECT websearch_to_tsquery('simple', 'I have a fat:*ABCD cat'), websearch_to_tsquery('simple', 'abc:def'), websearch_to_tsquery('simple', 'fat or(rat'), websearch_to_tsquery('simple', 'fat or ')",
		"SELECT websearch_to_tsquery('simple', 'or OR or'), websearch_to_tsquery('simple', 'cat or or dog'), websearch_to_tsquery('simple', 'cat -or dog'), websearch_to_tsquery('english', 'this is ----fine')",
		`SELECT websearch_to_tsquery('simple', 'fat*rat orange:**AABB'), websearch_to_tsquery('simple', 'foo_bar a,b c.d'), websearch_to_tsquery('simple', '"a b"or c'), websearch_to_tsquery('simple', 'x@y.com foo-bar')`,
		"SELECT tsquery('bbb & ddd & hhh'), numnode('a & b | !c'::tsquery), numnode(plainto_tsquery('the'))",
		"SELECT querytree(to_tsquery('english', '!a & the & b')), querytree('!a | b'::tsquery), querytree('!cat'::tsquery)",
		// tsquery operators, as Django's SearchQuery combines queries
		"SELECT plainto_tsquery('a b') && plainto_tsquery('c'), (to_tsquery('x') || to_tsquery('y')) && !!(plainto_tsquery('z'))",
		"SELECT 1 WHERE (plainto_tsquery('cat') && plainto_tsquery('dog')) IS NOT NULL AND (to_tsquery('a') || to_tsquery('b')) IS NOT NULL",
		"SELECT !!plainto_tsquery('the'), plainto_tsquery('the') && to_tsquery('cats'), to_tsquery('a|b') && to_tsquery('c|d') && to_tsquery('e')",
		// matching
		"SELECT to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', 'cat & rat')",
		"SELECT to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', 'cat & !rat')",
		"SELECT to_tsquery('english', 'cats') @@ to_tsvector('english', 'fat cats')",
		"SELECT to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', 'fat <-> cat'), to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', 'cat <-> fat')",
		"SELECT to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', 'fat <3> rat'), to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', 'fat <2> rat')",
		"SELECT to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', '!fat <-> ate'), to_tsvector('english', 'fat cats ate rats') @@ to_tsquery('english', 'fat <-> (cat | rat) <-> ate')",
		"SELECT to_tsvector('english', 'supernovae stars') @@ to_tsquery('english', 'super:*'), 'a:1A b:2'::tsvector @@ 'a:B'::tsquery, 'a:1A b:2'::tsvector @@ 'a:A'::tsquery",
		"SELECT strip(to_tsvector('english', 'fat cats ate rats')) @@ to_tsquery('english', 'fat <-> cat'), strip(to_tsvector('english', 'fat cats')) @@ to_tsquery('english', 'fat & cat')",
		"SELECT 'a b'::tsvector @@ '!(a <-> b)'::tsquery, 'a:1 b'::tsvector @@ 'a <-> b'::tsquery",
		"SELECT 'fat cats ate rats' @@ to_tsquery('english', 'cat'), 'fat cats ate rats' @@ 'cats rats', 'fat cats' @@ 'dogs'",
		"SELECT to_tsvector('english', 'cats') @@ to_tsquery('english', 'the')",
		// beside a tsvector an untyped literal is a tsquery's input
		"SELECT 'a b:89 ca:23A,64b d:34c'::tsvector @@ 'd:AC & ca:B', 'a b:89 ca:23A,64c cb:80b d:34c'::tsvector @@ 'd:AC & c:*B'",
		"SELECT to_tsvector('simple', '1 2 3 1') @@ '1 <2> 2', to_tsvector('simple', '1 2 1 2') @@ '1 <3> 2', to_tsvector('simple', '1 2 3 4') @@ '1 <2> (2 <-> 3)'",
		"SELECT to_tsvector('simple', 'q x') @@ 'q <-> (x | y <-> z)', to_tsvector('simple', 'y y q') @@ '(!x | y <-> z) <-> q', to_tsvector('simple', 'x y q') @@ '(!x | y) <-> y <-> q'",
		"SELECT to_tsvector('simple', 'x y q y') @@ '!(x <-> y)', to_tsvector('simple', 'x y q y') @@ '!(x <2> y)', to_tsvector('simple', '') @@ '!foo'",
		"SELECT strip(to_tsvector('simple', 'x y q y')) @@ '!x <-> y', strip(to_tsvector('simple', 'x y q y')) @@ '!(x <2> y)', strip(to_tsvector('simple', 'x y q y')) @@ '!x <-> !y'",
		"SELECT to_tsvector('simple', 'x q') @@ '(x | y <-> z) <-> q', to_tsvector('simple', 'x y q') @@ '(x | y <-> z) <-> q', to_tsvector('simple', 'q y z') @@ 'q <-> (x | y <-> z)'",
		"SELECT to_tsvector('simple', 'x y q') @@ '(!x | y <-> z) <-> q', to_tsvector('simple', 'x q') @@ '(x | y <-> !z) <-> q', to_tsvector('simple', 'x q') @@ '(!x | y <-> z) <-> q'",
		"SELECT to_tsvector('simple', 'q x q y') @@ 'q <-> (x & y)', to_tsvector('simple', 'x y q') @@ '(x | !!z) <-> y <-> q'",
		"SELECT 'a' <-> 'b & d'::tsquery, 'a & g' <-> 'b <-> d'::tsquery, to_tsquery('fat') <-> to_tsquery('cat | rat')",
		"SELECT '{\"a\": 1}'::jsonb @@ '$.a == 1', '{\"a\": 2}'::jsonb @@ '$.a == 1'",
		// tsvector functions
		"SELECT setweight(to_tsvector('english', 'fat cats'), 'A'), setweight('a:1 b:2C c'::tsvector, 'b', '{a,c}')",
		"SELECT setweight(to_tsvector('english', 'fat'), 'x')", // 22023
		"SELECT strip('a:1,2 b:3A'::tsvector), length(to_tsvector('english', 'the fat cats ate fat rats')), length(strip('a:1 b:2'::tsvector))",
		"SELECT to_tsvector('english', 'fat cats') || to_tsvector('english', 'rats ate cats')",
		"SELECT setweight(to_tsvector('english', 'title words'), 'A') || setweight(to_tsvector('english', 'body words here'), 'B') || to_tsvector('english', 'tail')",
		"SELECT 'a:1 b:2'::tsvector || 'b:1 c'::tsvector, strip('a:1'::tsvector) || 'a:3'::tsvector",
		"SELECT tsvector_to_array('b:1 a:2A c'::tsvector), array_to_tsvector('{c,a,b,a}'), array_to_tsvector(ARRAY['x', 'y'])",
		"SELECT array_to_tsvector('{a,NULL}')", // 22004
		`SELECT array_to_tsvector('{a,""}')`,   // 2200F
		"SELECT ts_delete('a:1 b:2 c:3'::tsvector, 'b'), ts_delete('a:1 b:2 c:3'::tsvector, ARRAY['a', 'c', 'x']), ts_delete('a:1 b:2'::tsvector, '{a,NULL}'::text[])",
		"SELECT ts_filter('a:1A b:2B c:3 d:4A,5'::tsvector, '{a}'), ts_filter('a:1A b:2B c:3'::tsvector, '{a,d}')",
		"SELECT ts_filter('a:1A'::tsvector, '{x}')",      // 22023
		"SELECT ts_filter('a:1A'::tsvector, '{a,NULL}')", // 22004
		`SELECT setweight('a:1 b:2'::tsvector, 'A', '{a,NULL,""}')`,
		"SELECT tsquery_phrase(to_tsquery('fat'), to_tsquery('cat')), tsquery_phrase(to_tsquery('fat | rat'), to_tsquery('cat'), 3)",
		"SELECT to_tsvector('english', 'fat cats') @@ tsquery_phrase(to_tsquery('fat'), to_tsquery('cat')), ts_delete(to_tsvector('english', 'fat cats'), 'fat') || 'x'::tsvector",
		// ranking
		"SELECT ts_rank(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'cat'))",
		"SELECT ts_rank(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'fat & rat')), ts_rank(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'fat | rat | dog'))",
		"SELECT ts_rank(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'fat & rat'), 1), ts_rank(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'fat & rat'), 32)",
		"SELECT ts_rank(setweight(to_tsvector('english', 'fat cats'), 'A') || to_tsvector('english', 'ate fat rats'), to_tsquery('english', 'fat'))",
		"SELECT ts_rank('{0.1, 0.2, 0.4, 1.0}', to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'rat'))",
		"SELECT ts_rank(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'dog'))",
		"SELECT ts_rank(ARRAY[0.1, 0.2, 0.4, 1.0], to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'rat'), 1)",
		"SELECT ts_rank_cd('{0.2, 0.4, 0.6, 0.9}'::float4[], to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'fat & rat'))",
		"SELECT ts_rank('{0.1, 0.2}', 'a'::tsvector, 'a'::tsquery)",         // 2202E
		"SELECT ts_rank('{0.1, 0.2, 0.3, 2}', 'a'::tsvector, 'a'::tsquery)", // 22023
		"SELECT ts_rank_cd(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'fat & rat')), ts_rank_cd(to_tsvector('english', 'fat cats ate fat rats'), to_tsquery('english', 'cat'))",
		"SELECT ts_rank_cd(to_tsvector('english', 'fat cats ate fat rats and fat dogs ate rats'), to_tsquery('english', 'fat & rat'), 2|4), ts_rank_cd(to_tsvector('english', 'a fat cat'), to_tsquery('english', 'fat | dog'), 32)",
		"SELECT ts_rank_cd(' a:1 sa:2A sb:2D g'::tsvector, 'a <-> s:*'), ts_rank_cd(' a:1 sa:2A sb:2D g'::tsvector, 'a <-> s:* <-> sa:A')",
		// headlines
		"SELECT ts_headline('english', 'The cat and the dog', to_tsquery('english', 'cat'))",
		"SELECT ts_headline('english', 'The cat and the dog', to_tsquery('english', 'cat & !dog')), ts_headline('english', 'The cat and the dog', to_tsquery('english', 'bird'))",
		"SELECT ts_headline('The foo-bar cat', to_tsquery('english', 'foo-bar')), ts_headline('english', 'The cat and the dog', to_tsquery('english', 'cat'), 'HighlightAll=true, StartSel=[, StopSel=]')",
		"SELECT ts_headline('english', 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident.', to_tsquery('english', 'pariatur'))",
		"SELECT ts_headline('english', 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.', to_tsquery('english', 'nothing'))",
		"SELECT ts_headline('english', 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.', to_tsquery('english', 'dolor'), 'MaxWords=10, MinWords=5')",
		"SELECT ts_headline('english', 'The cat', to_tsquery('english', 'cat'), 'MinWords=40')", // 22023
		"SELECT ts_headline('english', 'The cat', to_tsquery('english', 'cat'), 'Colour=red')",  // 22023
		// json and jsonb
		`SELECT to_tsvector('english', '{"a": "aaa in bbb ddd ccc", "b": ["the eee fff ggg"], "c": {"d": "hhh. iii"}}'::jsonb)`,
		`SELECT jsonb_to_tsvector('english', '{"a": "aaa in bbb", "b": 123, "c": 456, "d": true, "f": false, "g": null}'::jsonb, '["string", "numeric"]')`,
		`SELECT jsonb_to_tsvector('english', '{"a": "aaa in bbb", "b": 123, "d": true}'::jsonb, '"all"'), json_to_tsvector('{"a": "the cats"}'::json, '"key"')`,
		`SELECT jsonb_to_tsvector('english', '{"a": "aaa"}'::jsonb, '"stringy"')`, // 22023
		`SELECT jsonb_to_tsvector('english', '{"a": "aaa"}'::jsonb, '{}')`,        // 22023
		`SELECT jsonb_to_tsvector('english', '{"a": "aaa"}'::jsonb, '[1]')`,       // 22023
		`SELECT ts_headline('{"a": "aaa bbb", "b": {"c": "ccc ddd fff"}, "d": ["ggg hhh", "iii jjj"]}'::jsonb, tsquery('bbb & ddd & hhh'), 'StartSel = <, StopSel = >')`,
		// a table, as Django's SearchVector, SearchQuery and SearchRank use it
		"CREATE TABLE ts_docs (id int PRIMARY KEY, title text, body text, search tsvector)",
		"INSERT INTO ts_docs VALUES (1, 'Fat cats', 'The fat cats ate the rats', NULL), (2, 'Dogs', 'Dogs chase cats and bark', NULL), (3, 'Birds', NULL, NULL)",
		"UPDATE ts_docs SET search = setweight(to_tsvector('english'::regconfig, COALESCE(title, '')), 'A') || setweight(to_tsvector('english'::regconfig, COALESCE(body, '')), 'B')",
		"SELECT id, search FROM ts_docs ORDER BY id",
		`SELECT "ts_docs"."id" FROM "ts_docs" WHERE to_tsvector(COALESCE("ts_docs"."body", '')) @@ plainto_tsquery('english'::regconfig, 'cat') ORDER BY 1`,
		`SELECT "ts_docs"."id" FROM "ts_docs" WHERE to_tsvector('english'::regconfig, COALESCE("ts_docs"."title", '') || ' ' || COALESCE("ts_docs"."body", '')) @@ websearch_to_tsquery('english'::regconfig, 'cat -dog') ORDER BY 1`,
		`SELECT "ts_docs"."id", ts_rank(to_tsvector(COALESCE("ts_docs"."body", '')), plainto_tsquery('english'::regconfig, 'cats')) AS "rank" FROM "ts_docs" ORDER BY "rank" DESC, 1`,
		`SELECT id, ts_rank("search", to_tsquery('english'::regconfig, 'cat')) AS rank FROM ts_docs WHERE "search" @@ to_tsquery('english'::regconfig, 'cat') ORDER BY rank DESC`,
		`SELECT id, ts_rank_cd(search, phraseto_tsquery('english'::regconfig, 'fat cats')) FROM ts_docs ORDER BY id`,
		`SELECT id, ts_headline('english'::regconfig, body, plainto_tsquery('english'::regconfig, 'cats'), 'StartSel=<mark>, StopSel=</mark>') FROM ts_docs ORDER BY id`,
		"SELECT count(*) FROM ts_docs WHERE search @@ 'dog'::tsquery",
		`SELECT "ts_docs"."id" FROM "ts_docs" WHERE "ts_docs"."search" @@ (plainto_tsquery('english'::regconfig, 'cat') && !!(plainto_tsquery('english'::regconfig, 'dog'))) ORDER BY 1`,
		`SELECT "ts_docs"."id" FROM "ts_docs" WHERE "ts_docs"."search" @@ (plainto_tsquery('english'::regconfig, 'bird') || to_tsquery('english'::regconfig, 'bark')) ORDER BY 1`,
		"SELECT id FROM ts_docs WHERE search @@ to_tsquery('english', 'fat:*') ORDER BY id",
		"INSERT INTO ts_docs (id, search) VALUES (4, to_tsvector('simple', 'Hello world'))",
		"SELECT search, length(search::tsvector) FROM ts_docs WHERE id = 4",
	})
}

// TestTextSearchParameters: the calls with their text bound as
// parameters of the extended protocol (psycopg 3 and pgx bind them so),
// read as text on both sides.
func TestTextSearchParameters(t *testing.T) {
	ctx := context.Background()
	queries := []struct {
		sql  string
		args []any
	}{
		{"SELECT to_tsvector('english'::regconfig, COALESCE($1, ''))::text", []any{"The fat cats"}},
		{"SELECT to_tsvector($1::regconfig, $2)::text", []any{"simple", "The Fat Cats"}},
		{"SELECT (to_tsvector('english'::regconfig, $1) @@ plainto_tsquery('english'::regconfig, $2))::text", []any{"fat cats ate rats", "rat"}},
		{"SELECT websearch_to_tsquery('english'::regconfig, $1)::text", []any{`"fat rats" -dog`}},
		{"SELECT ts_rank(to_tsvector($1), to_tsquery($2))::text", []any{"fat cats ate fat rats", "fat & rat"}},
		{"SELECT ts_headline('english', $1, plainto_tsquery($2), $3)", []any{"The cat and the dog", "dog", "StartSel=*, StopSel=*"}},
	}
	answers := map[string][]string{}
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		for _, q := range queries {
			var s string
			if err := c.QueryRow(ctx, q.sql, q.args...).Scan(&s); err != nil {
				t.Errorf("%s: %s: %v", name, q.sql, err)
			}
			answers[name] = append(answers[name], s)
		}
	}
	for i, q := range queries {
		if want, got := answers["PostgreSQL"][i], answers["vsqld"][i]; want != got {
			t.Errorf("%s\n  PostgreSQL: %s\n  vsqld:      %s", q.sql, want, got)
		}
	}
}

// TestTextSearchColumnNames: result columns are named as PostgreSQL names
// them, though the casts and operators became calls.
func TestTextSearchColumnNames(t *testing.T) {
	ctx := context.Background()
	q := "SELECT to_tsvector('a'), 'a'::tsvector, to_tsquery('a') && to_tsquery('b'), length(to_tsvector('a')), " +
		"'english'::regconfig, x::tsquery, CAST('b' AS tsquery), tsvector 'c', to_tsvector('a') @@ 'a', ts_rank(to_tsvector('a'), 'a') " +
		"FROM (SELECT 'q' AS x) s"
	names := map[string][]string{}
	for name, c := range map[string]*pgx.Conn{"PostgreSQL": pgtest.Connect(t), "vsqld": connectPgx(t, startServer(t, nil))} {
		rows, err := c.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, f := range rows.FieldDescriptions() {
			names[name] = append(names[name], f.Name)
		}
		rows.Close()
	}
	if !reflect.DeepEqual(names["PostgreSQL"], names["vsqld"]) {
		t.Errorf("column names\n  PostgreSQL: %v\n  vsqld:      %v", names["PostgreSQL"], names["vsqld"])
	}
}
