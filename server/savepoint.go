package server

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Savepoints are emulated: DuckDB has none. SAVEPOINT and RELEASE only
// name a point of the transaction block. ROLLBACK TO undoes what ran
// after the point by running the block again up to it: the DuckDB
// transaction is rolled back, a new one begun, and the statements the
// block ran before the savepoint (txLog: every statement but plain
// queries, with its parameters) are run again in order, with the
// settings the block started with; the settings are then those the
// savepoint saw. When nothing but plain queries ran since the savepoint,
// only the settings are restored.
//
// Running a statement again gives the same result only when nothing it
// reads changed and it calls nothing that answers differently each time.
// So ROLLBACK TO refuses (feature_not_supported, and the whole block is
// aborted: nothing of it is ever committed by mistake) when, before the
// savepoint, the block
//   - called a function whose value changes (nextval and setval, random,
//     gen_random_uuid, now and the other clocks, a vsql_* function), or
//     one of the database's SQL functions or views that does;
//   - inserted into a table whose column defaults do (a serial column
//     takes the next value of a sequence that existed before the
//     block), set a column to DEFAULT in an UPDATE, ran COPY FROM,
//     MERGE or a data-modifying WITH;
//   - has a cursor open, or ran more than maxTxLog statements;
//
// or when another session committed changes to the branch (or vsql
// changed it) since the block began. Such statements are marked in txLog as they run
// (statementEffects); the rest is checked when the block runs again.
type savepointStatement struct {
	noRowsStatement
	sess *Session
	st   sqltext.Statement
}

type savepoint struct {
	name     string
	logLen   int               // len(txLog) when it was set
	settings map[string]string // the session's settings then
}

// txLogEntry is a statement the open transaction block ran.
type txLogEntry struct {
	st        sqltext.Statement
	paramOIDs []uint32
	args      []any
	why       string // set when running it again would not give the same result
}

// maxTxLog bounds the statements (and bytes of their text and
// parameters) kept to run again; a longer block cannot roll back to a
// savepoint set after them.
const (
	maxTxLog      = 10000
	maxTxLogBytes = 64 << 20
)

// volatileCall matches what gives another value when run again.
var volatileCall = regexp.MustCompile(`(?i)nextval|setval|random|uuid|\bnow\s*\(|current_(timestamp|time|date)|localtime|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday|\btoday\s*\(|get_current_|vsql_`)

// statementEffects classifies a statement the block ran: whether it
// must be kept to run again (logged) and, if it cannot run again the
// same way, why.
func statementEffects(st sqltext.Statement) (logged bool, why string) {
	kind := st.Kind()
	switch kind {
	case sqltext.KindBegin, sqltext.KindCommit, sqltext.KindRollback, sqltext.KindSavepoint:
		return false, ""
	}
	first := st.Keyword(0)
	volatile := volatileCall.MatchString(st.SQL)
	switch {
	case first == "SHOW" || first == "EXPLAIN" && st.Keyword(1) != "ANALYZE":
		return false, ""
	case first == "PREPARE" || first == "DEALLOCATE":
		return false, "" // the session's, kept by ROLLBACK as in PostgreSQL
	case kind == sqltext.KindQuery && !volatile && first != "CALL" && first != "PRAGMA" && !strings.Contains(strings.ToLower(st.SQL), "into"):
		return false, "" // a plain query changes nothing (SELECT … INTO creates a table)
	case volatile:
		return true, "a function whose value changes from call to call (nextval, random, now, a vsql_* function, …)"
	case first == "COPY":
		return true, "COPY FROM"
	case first == "DECLARE":
		return true, "DECLARE of a cursor"
	case (kind == sqltext.KindUpdate || kind == sqltext.KindDelete) && isCurrentOf(st):
		return true, "UPDATE or DELETE … WHERE CURRENT OF a cursor"
	case first == "MERGE":
		return true, "MERGE"
	case kind != sqltext.KindInsert && strings.Contains(strings.ToLower(st.SQL), "insert"):
		return true, "a data-modifying WITH"
	case kind == sqltext.KindUpdate && strings.Contains(strings.ToLower(st.SQL), "default"):
		return true, "an UPDATE … SET c = DEFAULT (a default may change from call to call)"
	}
	return true, ""
}

// Executed implements pgwire.ExecutionLog: the statements of a
// transaction block are kept to run again (ROLLBACK TO); outside one, a
// statement that may have written counts as a commit for other sessions'
// blocks.
func (s *Session) Executed(st sqltext.Statement, paramOIDs []uint32, args []any) {
	if s.replaying {
		return
	}
	if !s.InTransaction() {
		// Outside a block only the count of commits matters: a query
		// that writes through a function (nextval, a vsql_* merge) changes
		// what a block refuses to run again anyway (a sequence, a gate).
		switch first := st.Keyword(0); {
		case st.Kind() == sqltext.KindQuery, first == "SET", first == "RESET", first == "BEGIN", first == "START", first == "COMMIT", first == "END", first == "ROLLBACK", first == "ABORT":
		default:
			s.srv.commitCount(s.alias).Add(1)
		}
		return
	}
	logged, why := statementEffects(st)
	if st.Keyword(0) == "EXECUTE" {
		// what it runs again is the prepared statement (sqlprepare.go)
		if name, ok := statementName(st, 1); ok && s.prepared[name] != nil {
			logged, why = statementEffects(sqltext.Parse(s.prepared[name].body))
			logged = true // (its arguments may call a function too)
			if why == "" && volatileCall.MatchString(st.SQL) {
				why = "a function whose value changes from call to call (nextval, random, now, a vsql_* function, …)"
			}
		}
	}
	if !logged {
		return
	}
	if why == "" && len(sqltext.ScanStatement(st).Catalogs) > 0 {
		why = "a statement naming another database or branch, whose commits are not followed"
	}
	size := len(st.SQL)
	kept := make([]any, len(args))
	for i, a := range args {
		if b, ok := a.([]byte); ok {
			a = append([]byte(nil), b...) // pgwire's buffer is reused
			size += len(b)
		}
		kept[i] = a
	}
	if len(s.txLog) >= maxTxLog || s.txLogBytes+size > maxTxLogBytes {
		why = fmt.Sprintf("more than %d statements (or %d MiB of them)", maxTxLog, maxTxLogBytes>>20)
	}
	s.txLogBytes += size
	s.txLog = append(s.txLog, txLogEntry{st: st, paramOIDs: append([]uint32(nil), paramOIDs...), args: kept, why: why})
}

// copiedIn records a COPY FROM STDIN into table: its rows cannot be read
// again, so a block cannot roll back to a savepoint set after it.
func (s *Session) copiedIn(table string) {
	if !s.InTransaction() {
		s.srv.commitCount(s.alias).Add(1)
		return
	}
	s.txLog = append(s.txLog, txLogEntry{st: sqltext.Parse("COPY " + table + " FROM STDIN"), why: "COPY FROM"})
}

// beginTxLog starts the log of a transaction block.
func (s *Session) beginTxLog() {
	s.txLog, s.txLogBytes = nil, 0
	s.txStartChanges = s.changes()
	s.txStartSettings = s.settingsSnapshot()
}

// endTxLog is the end of a transaction block: committed with statements
// that may have written, it counts as a commit for other blocks.
func (s *Session) endTxLog(committed bool) {
	if committed && len(s.txLog) > 0 {
		s.srv.commitCount(s.alias).Add(1)
	}
	s.txLog, s.txLogBytes = nil, 0
}

// commitCount is the count of commits on branch alias.
func (srv *Server) commitCount(alias string) *atomic.Int64 {
	c, _ := srv.commits.LoadOrStore(alias, new(atomic.Int64))
	return c.(*atomic.Int64)
}

// changes counts the commits of every session on the session's branch and
// vsql's own changes of it (snapshots, merges in place, restores, pulls):
// a block whose count moved since it began cannot run again the same way.
func (s *Session) changes() int64 {
	return s.srv.commitCount(s.alias).Load() + s.srv.versions.Gate(s.alias).ExclusiveHolds()
}

func (s *Session) settingsSnapshot() map[string]string {
	out := make(map[string]string, len(s.settings))
	for name := range s.settings {
		out[name] = s.settingValue(name)
	}
	return out
}

// restoreSettings gives every setting its value in snapshot (its default
// when snapshot has none).
func (s *Session) restoreSettings(snapshot map[string]string) {
	names := make([]string, 0, len(s.settings))
	for name := range s.settings {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		want, ok := snapshot[name]
		if !ok {
			want = settings[name].def
		}
		if s.settingValue(name) != want {
			_ = s.applySetting(name, want)
		}
	}
}

func (p *savepointStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := p.sess
	words := p.st.Keywords
	name := savepointName(p.st.SQL)
	if s.txStatus() == txIdle {
		e := vsqlerr.New(vsqlerr.TransactionBlock, "%s can only be used in transaction blocks", words[0]).WithHint("Start a transaction with BEGIN first.")
		e.SQLState = "25P01"
		return nil, e
	}
	switch words[0] {
	case "SAVEPOINT":
		if s.txStatus() == txFailed {
			return nil, vsqlerr.New(vsqlerr.InFailedTransaction, "current transaction is aborted, commands ignored until end of transaction block")
		}
		s.savepoints = append(s.savepoints, savepoint{name: name, logLen: len(s.txLog), settings: s.settingsSnapshot()})
		return &tagRows{tag: "SAVEPOINT"}, nil
	case "RELEASE":
		i := s.findSavepoint(name)
		if i < 0 {
			return nil, s.failed(noSavepoint(name))
		}
		s.savepoints = s.savepoints[:i]
		return &tagRows{tag: "RELEASE"}, nil
	default: // ROLLBACK TO [SAVEPOINT] name
		i := s.findSavepoint(name)
		if i < 0 {
			return nil, s.failed(noSavepoint(name))
		}
		if err := s.rollbackTo(ctx, i); err != nil {
			return nil, err
		}
		return &tagRows{tag: "ROLLBACK"}, nil
	}
}

// rollbackTo undoes what the block ran after savepoint i (see above).
func (s *Session) rollbackTo(ctx context.Context, i int) error {
	sp := s.savepoints[i]
	s.savepoints = s.savepoints[:i+1]
	if s.txStatus() == txOpen && len(s.txLog) == sp.logLen {
		s.restoreSettings(sp.settings) // nothing to undo in DuckDB
		return nil
	}
	prefix := s.txLog[:sp.logLen]
	refuse := func(why string) error {
		s.setTx(txFailed)
		return vsqlerr.New(vsqlerr.FeatureNotSupported, "cannot roll back to savepoint %q: before it, the transaction ran %s; DuckDB cannot undo part of a transaction, and vsql would have to run the statements before the savepoint again, which would not give the same result. The whole transaction is aborted", sp.name, why).
			WithHint("Roll back the whole transaction (ROLLBACK) and retry it. ROLLBACK TO works when the statements before the savepoint give the same result when run again: see docs/sql.md, Transactions.")
	}
	for _, e := range prefix {
		if e.why != "" {
			return refuse(e.why)
		}
	}
	if len(s.cursors) > 0 {
		return refuse("DECLARE of a cursor that is still open")
	}
	if s.changes() != s.txStartChanges {
		return refuse("its statements while another session committed changes (or vsql changed a branch)")
	}
	_ = s.exec(ctx, "ROLLBACK")
	if err := s.exec(ctx, "BEGIN TRANSACTION"); err != nil {
		s.setTx(txFailed)
		return err
	}
	s.setTx(txOpen)
	s.catalogChanged() // what the rolled-back part created is gone
	s.replaying = true
	defer func() { s.replaying = false }()
	notices := s.notices
	defer func() { s.notices = notices }()
	s.restoreSettings(s.txStartSettings)
	volatile, err := s.volatileObjects(ctx)
	if err != nil {
		s.setTx(txFailed)
		return err
	}
	for n, e := range prefix {
		if why := s.replayBlocked(ctx, e, volatile); why != "" {
			return refuse(why)
		}
		if err := s.runLogged(ctx, e); err != nil {
			s.setTx(txFailed)
			return vsqlerr.Wrap(err, vsqlerr.FeatureNotSupported, "cannot roll back to savepoint %q: statement %d of the transaction, run again, failed: %v; the whole transaction is aborted", sp.name, n+1, err).
				WithHint("Roll back the whole transaction (ROLLBACK) and retry it.")
		}
	}
	s.txLog = s.txLog[:sp.logLen]
	s.txLogBytes = 0
	for _, e := range s.txLog {
		s.txLogBytes += len(e.st.SQL)
	}
	return nil
}

// runLogged runs a statement of the log again, its rows discarded.
func (s *Session) runLogged(ctx context.Context, e txLogEntry) error {
	return s.runStatement(ctx, e.st, e.paramOIDs, e.args)
}

// volatileObjects are the database's SQL functions (macros) and views
// whose definitions call what changes from call to call, and the
// sequences that exist (at the start of the block's new run: a serial
// column's sequence made before the block gives other values when run
// again), lower case.
type volatileSet struct {
	names     []string
	sequences map[string]bool
}

func (s *Session) volatileObjects(ctx context.Context) (volatileSet, error) {
	v := volatileSet{sequences: map[string]bool{}}
	err := s.queryRows(ctx, `SELECT lower(function_name), coalesce(macro_definition, '') FROM duckdb_functions()
		WHERE database_name = current_database() AND macro_definition IS NOT NULL
		UNION ALL SELECT lower(view_name), sql FROM duckdb_views() WHERE database_name = current_database() AND NOT internal`, func(row []any) {
		name, _ := row[0].(string)
		def, _ := row[1].(string)
		if volatileCall.MatchString(def) {
			v.names = append(v.names, name)
		}
	})
	if err != nil {
		return v, err
	}
	err = s.queryRows(ctx, `SELECT lower(sequence_name) FROM duckdb_sequences() WHERE database_name IN (current_database(), 'temp')`, func(row []any) {
		name, _ := row[0].(string)
		v.sequences[name] = true
	})
	return v, err
}

// sequenceDefault matches nextval('name') in a column's default.
var sequenceDefault = regexp.MustCompile(`(?i)nextval\('(?:[^'.]*\.)*([^'.]*)'`)

// replayBlocked tells why statement e of the log cannot run again the
// same way ("" when it can): it names a volatile function or view, or it
// inserts into a table whose defaults call what changes (a serial column
// whose sequence existed before the block).
func (s *Session) replayBlocked(ctx context.Context, e txLogEntry, v volatileSet) string {
	t := newTokenText(e.st)
	for i := range t.toks {
		if t.kind(i) != sqltext.Word && t.kind(i) != sqltext.Quoted {
			continue
		}
		if name := strings.ToLower(t.text(i)); slices.Contains(v.names, name) {
			return fmt.Sprintf("a statement naming %s, whose definition calls a function whose value changes", name)
		}
	}
	if e.st.Kind() != sqltext.KindInsert {
		return ""
	}
	at := 2
	if t.word(at, "only") {
		at++
	}
	parts, _ := t.name(at)
	if parts == nil {
		return "an INSERT whose target vsql could not read"
	}
	table := parts[len(parts)-1]
	why := ""
	err := s.queryRows(ctx, `SELECT coalesce(column_default, '') FROM duckdb_columns()
		WHERE database_name IN (current_database(), 'temp') AND table_name = `+sqltext.QuoteString(table), func(row []any) {
		def, _ := row[0].(string)
		if m := sequenceDefault.FindStringSubmatch(def); m != nil {
			if v.sequences[strings.ToLower(m[1])] {
				why = "an INSERT into " + table + ", whose column takes the next value of sequence " + m[1]
			}
			return
		}
		if volatileCall.MatchString(def) {
			why = "an INSERT into " + table + ", whose column default (" + def + ") changes from call to call"
		}
	})
	if err != nil {
		return "an INSERT whose target vsql could not read: " + err.Error()
	}
	return why
}

func (s *Session) findSavepoint(name string) int {
	for i := len(s.savepoints) - 1; i >= 0; i-- {
		if s.savepoints[i].name == name {
			return i
		}
	}
	return -1
}

// savepointName is the last word of SAVEPOINT x, RELEASE [SAVEPOINT] x,
// ROLLBACK TO [SAVEPOINT] x (unquoted names fold to lower case).
func savepointName(sql string) string {
	f := strings.Fields(strings.TrimRight(strings.TrimSpace(sql), ";"))
	if len(f) == 0 {
		return ""
	}
	return foldName(f[len(f)-1])
}

// foldName reads a name as PostgreSQL does: quoted as written, unquoted
// folded to lower case.
func foldName(s string) string {
	if strings.HasPrefix(s, `"`) {
		return sqltext.UnquoteIdent(s)
	}
	return strings.ToLower(s)
}

func noSavepoint(name string) error {
	e := vsqlerr.New(vsqlerr.InvalidArgument, "savepoint %q does not exist", name).WithHint("Name a savepoint set earlier in this transaction (SAVEPOINT name).")
	e.SQLState = "3B001"
	return e
}

// serialStatement is a CREATE TABLE with serial or identity columns,
// rewritten for DuckDB (sqltext.RewriteSerial): it creates the columns'
// sequences, then the table, under the branch's gate like any write.
type serialStatement struct {
	noRowsStatement
	sess      *Session
	sequences []string
	create    string
}

func (st *serialStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	s := st.sess
	for _, q := range append(append([]string{}, st.sequences...), st.create) {
		if err := s.gatedExec(ctx, q); err != nil {
			return nil, s.failed(err)
		}
		s.noteCreated(q) // a temporary table's sequences
	}
	return &tagRows{tag: "CREATE TABLE"}, nil
}

// warningStatement does nothing but warn: a statement vsql accepts for
// compatibility although DuckDB cannot carry it out.
type warningStatement struct {
	noRowsStatement
	sess    *Session
	tag     string
	warning string
	notice  string // a NOTICE instead (DROP … IF EXISTS of what does not exist)
}

func (st *warningStatement) Execute(context.Context, []any) (pgwire.Rows, error) {
	if st.warning != "" {
		st.sess.notices = append(st.sess.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "01000", Message: st.warning})
	}
	if st.notice != "" {
		st.sess.notices = append(st.sess.notices, &vsqlerr.Error{Severity: "NOTICE", SQLState: "00000", Message: st.notice})
	}
	return &tagRows{tag: st.tag}, nil
}

// splitStatement runs one PostgreSQL statement that DuckDB takes only in
// parts as those parts, each through Prepare like any statement, in the
// client's transaction block or in one of its own: all of them or none.
// ALTER TABLE with several actions (one ALTER TABLE per action,
// sqltext.AlterActions), DROP of several objects (one DROP per object,
// sqltext.DropList) and CREATE SCHEMA with elements (the schema, then each
// table, sequence or index in it, sqltext.SchemaElements).
type splitStatement struct {
	noRowsStatement
	sess    *Session
	actions []string
	tag     string
	warning string // sent once every action succeeded
}

func (a *splitStatement) Execute(ctx context.Context, _ []any) (pgwire.Rows, error) {
	err := a.sess.inTransaction(ctx, func() error {
		for _, q := range a.actions {
			if err := a.sess.runText(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if a.warning != "" {
		a.sess.notices = append(a.sess.notices, &vsqlerr.Error{Severity: "WARNING", SQLState: "01000", Message: a.warning})
	}
	return &tagRows{tag: a.tag}, nil
}

// inTransaction runs fn in the client's transaction block, or in one of
// its own (committed when fn succeeds, rolled back when it fails).
func (s *Session) inTransaction(ctx context.Context, fn func() error) error {
	own := !s.InTransaction()
	if own {
		if err := s.runText(ctx, "BEGIN"); err != nil {
			return err
		}
	}
	if err := fn(); err != nil {
		if own {
			_ = s.runText(ctx, "ROLLBACK")
		}
		return err
	}
	if own {
		return s.runText(ctx, "COMMIT")
	}
	return nil
}

// runText prepares and runs one statement vsql wrote as if the client had
// sent it, its rows (if any) discarded.
func (s *Session) runText(ctx context.Context, query string) error {
	return s.runStatement(ctx, sqltext.Parse(query), nil, nil)
}

// runStatement prepares and runs st with args as if the client had sent
// it, its rows (if any) discarded.
func (s *Session) runStatement(ctx context.Context, st sqltext.Statement, paramOIDs []uint32, args []any) error {
	stmt, err := s.Prepare(ctx, st, paramOIDs)
	if err != nil {
		return err
	}
	defer stmt.Close()
	rows, err := stmt.Execute(ctx, args)
	if err != nil {
		return err
	}
	defer rows.Close()
	var vals []any
	if cols := stmt.Columns(); cols != nil {
		vals = make([]any, len(cols))
	}
	for rows.Next(vals) {
	}
	return rows.Err()
}
