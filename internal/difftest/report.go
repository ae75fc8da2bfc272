package difftest

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Meta describes a run for the report's header.
type Meta struct {
	Date      time.Time
	PGVersion string
	Commit    string
	Command   string
	Timeout   time.Duration
	Elapsed   time.Duration
}

// Totals sums file results.
type Totals struct {
	Files, Run, Agree, Skipped, Hung, Crashed int
}

// Sum adds up the results of one corpus ("" = all).
func Sum(results []FileResult, corpus string) Totals {
	var t Totals
	for _, r := range results {
		if corpus != "" && r.Corpus != corpus {
			continue
		}
		t.Files++
		t.Run += r.Run
		t.Agree += r.Agree
		t.Skipped += r.Skipped
		t.Hung += r.Hung
		t.Crashed += r.Crashed
	}
	return t
}

// Pct is the agreement in percent.
func (t Totals) Pct() float64 { return pct(t.Agree, t.Run) }

// groupText explains each group in the report.
var groupText = map[string]string{
	gMissingFunc:    "PostgreSQL has a function (or operator function) DuckDB and vsqld's macros lack. Most can be written as macros over DuckDB functions.",
	gFuncArgs:       "The function exists in DuckDB but not for PostgreSQL's argument types (often an untyped literal PostgreSQL resolves, or a type DuckDB lacks an overload for).",
	gMissingType:    "A PostgreSQL type with no DuckDB counterpart yet: name, money, geometric types, ranges, pg_lsn, … Some (name, money, oid aliases) map onto DuckDB types; geometric and range types would need an extension.",
	gNumericSpecial: "PostgreSQL's numeric holds NaN, Infinity and -Infinity ('NaN'::numeric, a float's infinity cast to numeric); DuckDB's DECIMAL, which vsql stores numeric as, has neither, so the value is refused (and a transaction block that inserts one is aborted: numeric.sql's expected results are inserted so, which is most of that file's divergences).",
	gInputFormat:    "PostgreSQL accepts the literal ('on'::bool, 'January 8, 1999'::date, '{1,2}'::int[], ' 12 '::int, zone names), DuckDB's cast refuses it.",
	gSyntax:         "DuckDB's parser refuses PostgreSQL syntax (operators like ~~ or !~, USING in ORDER BY, ROWS FROM, typed literals of missing types, …). A rewrite or PostgreSQL's own grammar would cover most.",
	gCascade:        "A table, view, column or sequence is missing on vsqld because the statement that made it failed earlier (often a type or a PostgreSQL-only clause in CREATE TABLE); these fall away with their cause.",
	gSetting:        "SET, SHOW or RESET of a PostgreSQL setting vsqld does not know (DateStyle, extra_float_digits, enable_* planner switches, IntervalStyle, …).",
	gPgDDL:          "DDL PostgreSQL has and DuckDB cannot express: PL/pgSQL or SQL functions with bodies, triggers, rules, domains, operators, aggregates, roles and grants, table inheritance, COMMENT ON.",
	gUnsupportedCmd: "PostgreSQL commands with no DuckDB engine counterpart: EXPLAIN (plans differ by nature), PREPARE/EXECUTE options, LISTEN/NOTIFY, LOCK, VACUUM/ANALYZE/CLUSTER options; of cursors, which vsql provides (DECLARE, FETCH, MOVE, CLOSE, UPDATE/DELETE … WHERE CURRENT OF), what remains: backward moves of more than 1,024 rows without SCROLL, a FOR UPDATE cursor skipping the rows its block changed, WHERE CURRENT OF through a view.",
	gNotImpl:        "DuckDB says the feature is not implemented.",
	gBinder:         "DuckDB's binder refuses what PostgreSQL binds: ambiguous or unresolved names, GROUP BY rules, implicit casts between text and numbers PostgreSQL makes for unknown literals.",
	gVsqlOnlyError:  "Other errors vsqld raises where PostgreSQL answers.",
	gPGOnlyError:    "PostgreSQL raises an error (invalid input, out of range, division by zero, a constraint, a type mismatch) and vsqld answers instead: the answer a client gets is a silent different value. The key is PostgreSQL's SQLSTATE and message.",
	gErrClass:       "Both refuse the statement, with SQLSTATEs of different classes.",
	gTag:            "Both succeed, but the command tag's row count differs (e.g. SELECT n of CREATE TABLE AS, rows affected).",
	gShape:          "One side returns a result set where the other returns only a command tag.",
	gNullOrder:      "Same rows, ordered differently where NULLs are: PostgreSQL sorts NULLs last ascending and first descending; DuckDB's default puts them last both ways.",
	gOrder:          "Same rows in another order under ORDER BY: an ORDER BY by expressions whose ties the runner cannot see ordered differently, or text collation (PostgreSQL's C collation here vs DuckDB's binary order agree; differences come from case or ties).",
	gRowCount:       "Different number of rows.",
	gColumns:        "Different number of columns.",
	gBool:           "Booleans printed as true/false instead of PostgreSQL's t/f.",
	gNumFormat:      "Same number, printed differently: numeric scale (1.50 vs 1.5), float digits (shortest round-trip vs DuckDB's), exponent notation.",
	gNumValue:       "A different number: integer vs numeric arithmetic, rounding, float precision.",
	gDateTime:       "Dates, times and timestamps differ in value or text (time zone shown, BC years, infinity, precision).",
	gInterval:       "Intervals printed differently (PostgreSQL: 1 day 02:00:00, mixed signs, @ style).",
	gArray:          "Arrays printed as DuckDB lists [1, 2] instead of {1,2}.",
	gJSON:           "JSON printed as stored, not normalized as jsonb ({\"a\":1} vs {\"a\": 1}), or a different JSON value.",
	gFloatSpecial:   "Infinity and NaN spelled or produced differently.",
	gValues:         "Different values not covered by a more specific group.",
	gCatalog:        "Queries of PostgreSQL's system catalogs (pg_*, information_schema, regclass/oid) answer differently: vsqld's catalog views are partial.",
	gTxn:            "Transaction state differs: mostly statements inside a transaction block after an earlier statement failed on vsqld and not on PostgreSQL (vsqld's block is aborted, 25P02); each is listed under the statement that failed first (\"after file:line, its group: its key\"), which is where the cause is; also savepoints.",
}

type group struct {
	name  string
	count int
	keys  map[string]int
	ex    []Divergence
}

func groupsOf(results []FileResult, corpus string) []*group {
	m := map[string]*group{}
	for _, r := range results {
		if r.Corpus != corpus {
			continue
		}
		for _, d := range r.Divergences {
			if d.Outcome != Diverge {
				continue
			}
			g := m[d.Group]
			if g == nil {
				g = &group{name: d.Group, keys: map[string]int{}}
				m[d.Group] = g
			}
			g.count++
			if d.Key != "" {
				g.keys[d.Key]++
			}
			// examples from different files where possible
			if len(g.ex) < 2 && (len(g.ex) == 0 || g.ex[0].File != d.File || g.count > 50) {
				g.ex = append(g.ex, d)
			}
		}
	}
	var out []*group
	for _, g := range m {
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].count != out[j].count {
			return out[i].count > out[j].count
		}
		return out[i].name < out[j].name
	})
	return out
}

func topKeys(keys map[string]int, n int) string {
	type kv struct {
		k string
		v int
	}
	var l []kv
	for k, v := range keys {
		l = append(l, kv{k, v})
	}
	sort.Slice(l, func(i, j int) bool {
		if l[i].v != l[j].v {
			return l[i].v > l[j].v
		}
		return l[i].k < l[j].k
	})
	var parts []string
	for i, e := range l {
		if i == n {
			parts = append(parts, fmt.Sprintf("… %d more", len(l)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%d)", cellText(e.k), e.v))
	}
	return strings.Join(parts, ", ")
}

// cellText makes s safe inside a Markdown table cell.
func cellText(s string) string {
	s = strings.ReplaceAll(s, "\x00NULL", "NULL")
	s = strings.ReplaceAll(s, "\x1f", ",")
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "`", "'")
	s = strings.ReplaceAll(s, "<", "&lt;")
	return s
}

func code(s string) string {
	s = strings.ReplaceAll(cellText(s), "&lt;", "<")
	return "`` " + s + " ``"
}

// WriteReport writes docs/COMPATIBILITY.md.
func WriteReport(w io.Writer, meta Meta, results []FileResult) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	pg, slt, all := Sum(results, CorpusPG), Sum(results, CorpusSLT), Sum(results, "")
	p("# vsqld's compatibility with PostgreSQL 15\n\n")
	p("This file is written by the differential runner (package `internal/difftest`); do not edit it by hand.\n\n")
	p("- Date: %s\n", meta.Date.UTC().Format("2006-01-02 15:04 UTC"))
	p("- PostgreSQL: %s (started by `internal/pgtest`: initdb, `fsync=off`, `TimeZone=UTC`, C locale, UTF8)\n", meta.PGVersion)
	p("- vsqld: commit %s (a child process of the runner on a fresh repository)\n", meta.Commit)
	p("- Command: `%s` (took %s; statement timeout %s)\n\n", meta.Command, meta.Elapsed.Round(time.Second), meta.Timeout)
	p("## Summary\n\n")
	p("| corpus | files | statements compared | agree | agreement | skipped | hung | crashed |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, t Totals) {
		p("| %s | %d | %d | %d | **%.2f%%** | %d | %d | %d |\n", name, t.Files, t.Run, t.Agree, t.Pct(), t.Skipped, t.Hung, t.Crashed)
	}
	row("PostgreSQL regression files", pg)
	row("sqllogictest", slt)
	row("all", all)
	p("\n")
	p(`## How the comparison works

Each file runs in a database of its own, created for it on both servers
(PostgreSQL: CREATE DATABASE; vsqld: CREATE DATABASE, a new DuckDB file).
PostgreSQL regression files run after PostgreSQL's own `+"`test_setup.sql`"+` in
that database, as pg_regress runs them (the setup's statements are not
counted again; `+"`test_setup.sql`"+` is reported once as a file of its own). Then
the file's statements run in order on both servers, one statement at a
time; statement k is compared after both servers ran statements 1…k-1,
whatever those answered. Both servers are asked through the simple query
protocol, so each formats its values as text itself. Two answers agree
when:

- both succeed and return the same rows as text, cell by cell (NULL
  distinct from every string). A statement whose result has no ORDER BY
  (one inside OVER (…), an aggregate's arguments or a subquery does not
  order the result) may return its rows in any order. Under ORDER BY,
  rows whose sort keys are equal may come in any order among themselves
  when every ORDER BY item is a result column (by position or by name):
  the runs of equal keys must be the same, in the same order. So may a
  sqllogictest query with rowsort or
  valuesort, which the runner sorts on both sides as the record says; a
  sqllogictest column of type R is compared rounded to three decimals as
  sqllogictest itself does. Without a result set, the command tags agree
  when their row counts do (INSERT 0 5, UPDATE 3, SELECT 7 of CREATE TABLE
  AS);
- or both fail with a SQLSTATE of the same class (the first two
  characters).

Everything else is a divergence. PostgreSQL's answer is the reference,
not SQLite's expected results nor pg_regress's expected output, which
assume other session settings (pg_regress sets DateStyle Postgres, MDY and
TimeZone PST8PDT; here both servers keep their defaults, ISO and UTC).

Skipped, and not counted: psql meta-commands (`+"`\\set`, `\\d`, `\\pset`"+`, …; `+"`\\set`"+`
and `+"`\\getenv`"+` are emulated for the variables the scripts use, and a query
ended by `+"`\\gset`"+` runs and sets its variables from PostgreSQL's answer),
statements that use a psql variable no one set, sqllogictest records for
other databases (`+"`skipif postgresql`, `onlyif mysql`"+`, …) and the rare
statement PostgreSQL itself does not answer within the timeout. `+"`COPY … FROM\n:'filename'`"+` of the corpus's data files is sent as COPY FROM STDIN with the
file's contents.

Each statement has %s: vsqld's connection then sends a cancel request
and, if the statement still runs, is dropped and reopened (the
statement is reported as hung). vsqld runs as a child process; if it dies, the
statement is reported as a crash, vsqld is restarted on the same repository
and the file goes on.

The reason column says whether closing a group needs a change DuckDB would
have to make (**%s**) or work on vsqld's PostgreSQL layer that is
possible today (**%s**).

`, meta.Timeout, EngineLimit, NotDone)

	writeHangs(w, results)
	for _, c := range []struct{ corpus, title string }{{CorpusPG, "PostgreSQL regression files"}, {CorpusSLT, "sqllogictest"}} {
		groups := groupsOf(results, c.corpus)
		p("## Divergences by reason: %s\n\n", c.title)
		if len(groups) == 0 {
			p("None.\n\n")
			continue
		}
		total := 0
		for _, g := range groups {
			total += g.count
		}
		p("%d divergences (hangs and crashes are listed above).\n\n", total)
		p("| group | count | reason | most frequent (count) |\n|---|---:|---|---|\n")
		for _, g := range groups {
			p("| %s | %d | %s | %s |\n", cellText(g.name), g.count, GroupReason(g.name), topKeys(g.keys, 12))
		}
		p("\n")
		for _, g := range groups {
			p("### %s — %d (%s)\n\n%s\n\n", g.name, g.count, GroupReason(g.name), groupText[g.name])
			for _, d := range g.ex {
				p("- %s:%d %s\n  - PostgreSQL: %s\n  - vsqld: %s\n", d.File, d.Line, code(d.SQL), code(d.PG), code(d.Vsqld))
			}
			p("\n")
		}
	}
	p("## Per file\n\n")
	for _, c := range []struct{ corpus, title string }{{CorpusPG, "PostgreSQL regression files"}, {CorpusSLT, "sqllogictest"}} {
		p("### %s\n\n", c.title)
		p("| file | compared | agree | agreement | skipped | hung | crashed | top divergence groups |\n|---|---:|---:|---:|---:|---:|---:|---|\n")
		for _, r := range results {
			if r.Corpus != c.corpus {
				continue
			}
			g := map[string]int{}
			for _, d := range r.Divergences {
				if d.Outcome == Diverge {
					g[d.Group]++
				}
			}
			top := topKeys(g, 3)
			if r.Error != "" {
				top = "stopped: " + cellText(shorten(r.Error, 120)) + "; " + top
			}
			limit := ""
			if r.Limit > 0 {
				limit = fmt.Sprintf(" (first %d)", r.Limit)
			}
			p("| %s%s | %d | %d | %.1f%% | %d | %d | %d | %s |\n", r.Name, limit, r.Run, r.Agree, pct(r.Agree, r.Run), r.Skipped, r.Hung, r.Crashed, top)
		}
		p("\n")
	}
	skips := map[string]int{}
	for _, r := range results {
		for k, v := range r.SkipReasons {
			skips[k] += v
		}
	}
	p("### Skipped statements by reason\n\n| reason | count |\n|---|---:|\n")
	keys := make([]string, 0, len(skips))
	for k := range skips {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return skips[keys[i]] > skips[keys[j]] })
	for _, k := range keys {
		p("| %s | %d |\n", cellText(k), skips[k])
	}
}

func writeHangs(w io.Writer, results []FileResult) {
	var l []Divergence
	for _, r := range results {
		for _, d := range r.Divergences {
			if d.Outcome == Hung || d.Outcome == Crashed {
				l = append(l, d)
			}
		}
	}
	fmt.Fprintf(w, "## Statements that hung or crashed vsqld\n\n")
	if len(l) == 0 {
		fmt.Fprintf(w, "None.\n\n")
		return
	}
	fmt.Fprintf(w, "| file:line | what | statement | PostgreSQL | vsqld |\n|---|---|---|---|---|\n")
	for _, d := range l {
		fmt.Fprintf(w, "| %s:%d | %s | %s | %s | %s |\n", d.File, d.Line, cellText(d.Group), code(d.SQL), code(shorten(d.PG, 120)), code(d.Vsqld))
	}
	fmt.Fprintf(w, "\n")
}
