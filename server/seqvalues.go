package server

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/pgcompat"
	"github.com/vsql/vsql/pgwire"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// PostgreSQL's currval and lastval are the session's: currval(s) is what
// nextval(s) last returned in this session (an error until it was called
// here, whatever other sessions did), lastval() what the session's last
// nextval returned. DuckDB's currval is the database's and it has no
// lastval, so the server keeps them: every nextval a client's statement
// runs, the ones of column defaults too, goes through an engine function
// that records the value for the caller (sqltext.TrackedNextval; the
// caller is named by its token in a DuckDB variable that only its
// connection holds), and currval and lastval read the record.
//
// Work is done only where a nextval runs: a statement that calls none,
// and an INSERT into a table without a sequence default, pay nothing.
//
// setval(s, v) makes v the session's currval of s (not with is_called
// false); ALTER SEQUENCE and TRUNCATE … RESTART IDENTITY leave the
// record alone; DISCARD SEQUENCES and DISCARD ALL clear it; DROP SEQUENCE
// removes the sequence from it. Sequences are named by their name, with
// their schema unless it is main (public): a sequence dropped and created
// again by another session keeps this session's currval.

// seqValues is a session's record of what nextval returned.
type seqValues struct {
	mu     sync.Mutex
	values map[string]int64 // by seqKey
	last   string           // the key of the last nextval's sequence
	temps  map[string]bool  // the session's temporary sequences, by seqKey
	// name and key: the last name recorded and its key (a statement's
	// rows name one sequence)
	name, key string
}

// seqKey is the record's key of a sequence named as PostgreSQL reads it
// (schema public or main left out, case folded: DuckDB's names are
// case-insensitive).
func seqKey(name string) (key, bare string) {
	parts := pgcompat.SplitQualified(pgcompat.PublicToMain(strings.TrimSpace(name)))
	for i, p := range parts {
		if strings.HasPrefix(p, `"`) {
			parts[i] = sqltext.UnquoteIdent(p)
		} else {
			parts[i] = strings.ToLower(strings.TrimSpace(p))
		}
	}
	n := len(parts)
	bare = parts[n-1]
	if n >= 2 && parts[n-2] != "main" && parts[n-2] != "pg_temp" && parts[n-2] != "temp" {
		return strings.ToLower(parts[n-2] + "." + bare), bare
	}
	return strings.ToLower(bare), bare
}

func (v *seqValues) record(name string, value int64, last bool) {
	v.mu.Lock()
	if name != v.name || v.key == "" {
		v.name = name
		v.key, _ = seqKey(name)
	}
	key := v.key
	if v.values == nil {
		v.values = map[string]int64{}
	}
	v.values[key] = value
	if last {
		v.last = key
	}
	v.mu.Unlock()
}

func (v *seqValues) currval(name string) (int64, error) {
	key, bare := seqKey(name)
	v.mu.Lock()
	got, ok := v.values[key]
	v.mu.Unlock()
	if !ok {
		return 0, vsqlerr.New(vsqlerr.SequenceValueUndefined, "currval of sequence %q is not yet defined in this session", bare)
	}
	return got, nil
}

func (v *seqValues) lastval() (int64, error) {
	v.mu.Lock()
	got, ok := v.values[v.last]
	ok = ok && v.last != ""
	v.mu.Unlock()
	if !ok {
		return 0, vsqlerr.New(vsqlerr.SequenceValueUndefined, "lastval is not yet defined in this session")
	}
	return got, nil
}

// forget removes a dropped sequence.
func (v *seqValues) forget(name string) {
	key, _ := seqKey(name)
	v.mu.Lock()
	delete(v.values, key)
	delete(v.temps, key)
	v.mu.Unlock()
}

// noteTemporary records a temporary sequence the session created: a
// read-only transaction may call nextval and setval of those alone, as
// in PostgreSQL.
func (v *seqValues) noteTemporary(name string) {
	key, _ := seqKey(name)
	v.mu.Lock()
	if v.temps == nil {
		v.temps = map[string]bool{}
	}
	v.temps[key] = true
	v.mu.Unlock()
}

func (v *seqValues) temporary(name string) bool {
	key, _ := seqKey(name)
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.temps[key]
}

// noteCreated records the temporary sequence of CREATE {TEMP |
// TEMPORARY} SEQUENCE [IF NOT EXISTS] name … (other statements are
// left alone).
func (s *Session) noteCreated(sql string) {
	st := sqltext.Parse(sql)
	if st.Keyword(0) != "CREATE" || st.Keyword(1) != "TEMP" && st.Keyword(1) != "TEMPORARY" || st.Keyword(2) != "SEQUENCE" {
		return
	}
	toks := st.Tokens()
	i := 3
	if st.Keyword(3) == "IF" && st.Keyword(4) == "NOT" && st.Keyword(5) == "EXISTS" {
		i = 6
	}
	start := i
	for i < len(toks) && (toks[i].Kind == sqltext.Word || toks[i].Kind == sqltext.Quoted) {
		i++
		if i < len(toks) && sql[toks[i].Start:toks[i].End] == "." {
			i++
			continue
		}
		break
	}
	if i > start {
		s.seqs.noteTemporary(sql[toks[start].Start:toks[i-1].End])
	}
}

// readOnlySequence is PostgreSQL's refusal of nextval or setval (what) of
// a sequence that is not temporary in a read-only transaction; nil when
// it may run.
func (s *Session) readOnlySequence(what, name string) error {
	if !s.readOnlyTransaction() || s.seqs.temporary(name) {
		return nil
	}
	return vsqlerr.New(vsqlerr.ReadOnlyTransaction, "cannot execute %s() in a read-only transaction", what)
}

// rename moves a renamed sequence's value to its new name.
func (v *seqValues) rename(from, to string) {
	key, _ := seqKey(from)
	v.mu.Lock()
	defer v.mu.Unlock()
	x, ok := v.values[key]
	if !ok {
		return
	}
	delete(v.values, key)
	newKey := strings.ToLower(to)
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		newKey = key[:i+1] + newKey
	}
	v.values[newKey] = x
	if v.last == key {
		v.last = newKey
	}
}

// discard empties the record (DISCARD SEQUENCES).
func (v *seqValues) discard() {
	v.mu.Lock()
	v.values, v.last = nil, ""
	v.mu.Unlock()
}

// save and restore keep the record as it is across nextval calls vsql
// makes itself (setval moving a sequence forward, a sequence made anew).
func (v *seqValues) save() (map[string]int64, string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	saved := make(map[string]int64, len(v.values))
	for k, x := range v.values {
		saved[k] = x
	}
	return saved, v.last
}

func (v *seqValues) restore(values map[string]int64, last string) {
	v.mu.Lock()
	v.values, v.last = values, last
	v.mu.Unlock()
}

// untracked runs fn, whose nextval calls are vsql's own, leaving the
// session's record as it was.
func (s *Session) untracked(fn func() error) error {
	values, last := s.seqs.save()
	defer s.seqs.restore(values, last)
	return fn()
}

// registerSequenceFunctions installs sqltext's NextvalFunction,
// CurrvalFunction and LastvalFunction.
func (s *Server) registerSequenceFunctions(conn *sql.Conn) error {
	str, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	bigint, _ := duckdb.NewTypeInfo(duckdb.TYPE_BIGINT)
	for _, f := range []struct {
		name string
		in   []duckdb.TypeInfo
		run  func(caller *Session, values []driver.Value) (any, error)
	}{
		{sqltext.NextvalFunction, []duckdb.TypeInfo{str, str, bigint}, func(caller *Session, values []driver.Value) (any, error) {
			name, _ := values[1].(string)
			v, ok := values[2].(int64)
			if caller != nil && ok && values[1] != nil {
				if err := caller.readOnlySequence("nextval", name); err != nil {
					return nil, vsqlerr.ForEngine(err)
				}
				caller.seqs.record(name, v, true)
			}
			return values[2], nil
		}},
		{sqltext.CurrvalFunction, []duckdb.TypeInfo{str, str, bigint}, func(caller *Session, values []driver.Value) (any, error) {
			name, ok := values[1].(string)
			if !ok {
				return nil, nil // currval(NULL) is NULL
			}
			if caller == nil {
				return nil, vsqlerr.ForEngine(vsqlerr.New(vsqlerr.SequenceValueUndefined, "currval called outside a vsql session"))
			}
			v, err := caller.seqs.currval(name)
			if err != nil {
				return nil, vsqlerr.ForEngine(err)
			}
			return v, nil
		}},
		{sqltext.LastvalFunction, []duckdb.TypeInfo{str}, func(caller *Session, _ []driver.Value) (any, error) {
			if caller == nil {
				return nil, vsqlerr.ForEngine(vsqlerr.New(vsqlerr.SequenceValueUndefined, "lastval called outside a vsql session"))
			}
			v, err := caller.seqs.lastval()
			if err != nil {
				return nil, vsqlerr.ForEngine(err)
			}
			return v, nil
		}},
	} {
		if err := duckdb.RegisterScalarUDF(conn, f.name, &sessionUDF{srv: s, in: f.in, out: bigint, run: f.run}); err != nil {
			return fmt.Errorf("register %s: %w", f.name, err)
		}
	}
	return nil
}

// sessionUDF is an engine function whose first argument is the caller's
// token (NULL outside a session: a connection of vsql's own).
type sessionUDF struct {
	srv *Server
	in  []duckdb.TypeInfo
	out duckdb.TypeInfo
	run func(caller *Session, values []driver.Value) (any, error)
	// last is the caller last found: a statement's rows (an INSERT of
	// many rows with a serial column) find it without the server's lock
	last atomic.Pointer[Session]
}

func (f *sessionUDF) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: f.in, ResultTypeInfo: f.out, Volatile: true, SpecialNullHandling: true}
}

func (f *sessionUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(values []driver.Value) (any, error) {
		var caller *Session
		if token, ok := values[0].(string); ok {
			if last := f.last.Load(); last != nil && last.activity.token == token {
				caller = last
			} else if caller = f.srv.sessionByToken(token); caller != nil {
				f.last.Store(caller)
			}
		}
		return f.run(caller, values)
	}}
}

// prepareDiscardSequences answers DISCARD SEQUENCES.
func (s *Session) prepareDiscardSequences(st sqltext.Statement) (pgwire.Statement, bool) {
	if st.Keyword(0) != "DISCARD" || st.Keyword(1) != "SEQUENCES" {
		return nil, false
	}
	toks := st.Tokens()
	if n := len(toks); n > 3 || n == 3 && toks[2].Kind != sqltext.Semi {
		return nil, false
	}
	return &settingStatement{apply: func() error { s.seqs.discard(); return nil }, tag: "DISCARD SEQUENCES"}, true
}

// forgetDropped removes the sequences a DROP SEQUENCE names from the
// session's record (before it runs: a DROP that fails loses them too).
func (s *Session) forgetDropped(st sqltext.Statement) {
	toks, sql := st.Tokens(), st.SQL
	word := func(i int, w string) bool {
		return i < len(toks) && toks[i].Kind == sqltext.Word && strings.EqualFold(sql[toks[i].Start:toks[i].End], w)
	}
	if !word(0, "drop") || !word(1, "sequence") {
		return
	}
	i := 2
	if word(2, "if") && word(3, "exists") {
		i = 4
	}
	start := i
	for ; i <= len(toks); i++ {
		end := i == len(toks) || toks[i].Kind == sqltext.Semi || word(i, "cascade") || word(i, "restrict")
		if comma := !end && toks[i].Kind == sqltext.Op && sql[toks[i].Start:toks[i].End] == ","; !comma && !end {
			continue
		}
		if i > start {
			s.seqs.forget(sql[toks[start].Start:toks[i-1].End])
		}
		if end {
			return
		}
		start = i + 1
	}
}
