package server

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"net"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/pgcatalog"
	"github.com/vsql/vsql/vsqlerr"
)

// activity is what pg_stat_activity shows of one session. The session's
// own goroutine writes it (pgwire.ActivityObserver); other sessions read
// it under mu.
type activity struct {
	mu           sync.Mutex
	backendStart time.Time
	xactStart    time.Time // zero: no transaction
	queryStart   time.Time
	stateChange  time.Time
	state        string // active, idle, idle in transaction, idle in transaction (aborted)
	query        string
	application  string
	clientAddr   string
	clientPort   int // -1 on a Unix-domain socket (clientAddr "")
	// token identifies the session to the engine's activity functions:
	// "<pid>:<random hex>", in a DuckDB variable only this session's
	// connection sees (pgcatalog.SessionVariable).
	token     string
	terminate func() // ends the connection (pgwire.Terminable)
	phase     string // what a running merge does (sqlfuncs.PhaseReporter)
}

// Phase implements sqlfuncs.PhaseReporter.
func (s *Session) Phase(message string) {
	s.activity.mu.Lock()
	s.activity.phase = message
	s.activity.mu.Unlock()
}

func newActivity(token string, remote net.Addr) *activity {
	now := time.Now()
	a := &activity{backendStart: now, stateChange: now, state: "idle", token: token}
	switch r := remote.(type) {
	case *net.TCPAddr:
		a.clientAddr, a.clientPort = r.IP.String(), r.Port
	case *net.UnixAddr:
		a.clientPort = -1 // as PostgreSQL shows a Unix-domain socket's client
	}
	return a
}

// sessionToken makes the token of the session with process id pid.
func sessionToken(pid uint32) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return strconv.FormatUint(uint64(pid), 10) + ":" + hex.EncodeToString(b)
}

// Active implements pgwire.ActivityObserver.
func (s *Session) Active(query string) {
	s.answering(true)
	app := s.settingValue("application_name")
	now := time.Now()
	a := s.activity
	a.mu.Lock()
	defer a.mu.Unlock()
	a.state, a.query, a.queryStart, a.stateChange, a.application = "active", query, now, now, app
	if a.xactStart.IsZero() {
		a.xactStart = now
	}
}

// Idle implements pgwire.ActivityObserver.
func (s *Session) Idle() {
	s.answering(false)
	state := "idle"
	switch s.txStatus() {
	case txOpen:
		state = "idle in transaction"
	case txFailed:
		state = "idle in transaction (aborted)"
	}
	a := s.activity
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.state != state {
		a.state, a.stateChange = state, time.Now()
	}
	if state == "idle" {
		a.xactStart = time.Time{}
	}
}

// SetTerminate implements pgwire.Terminable.
func (s *Session) SetTerminate(terminate func()) {
	s.activity.mu.Lock()
	s.activity.terminate = terminate
	s.activity.mu.Unlock()
}

// activityColumns are pg_stat_activity's columns as vsql fills them, in
// PostgreSQL 15's order. datname is the dbname the client connected to
// (database, database/branch or database@snapshot); client_addr is text.
var activityColumns = []catalogColumn{
	{"datid", duckdb.TYPE_BIGINT}, {"datname", duckdb.TYPE_VARCHAR}, {"pid", duckdb.TYPE_INTEGER},
	{"leader_pid", duckdb.TYPE_INTEGER}, {"usesysid", duckdb.TYPE_BIGINT}, {"usename", duckdb.TYPE_VARCHAR},
	{"application_name", duckdb.TYPE_VARCHAR}, {"client_addr", duckdb.TYPE_VARCHAR},
	{"client_hostname", duckdb.TYPE_VARCHAR}, {"client_port", duckdb.TYPE_INTEGER},
	{"backend_start", duckdb.TYPE_TIMESTAMP_TZ}, {"xact_start", duckdb.TYPE_TIMESTAMP_TZ},
	{"query_start", duckdb.TYPE_TIMESTAMP_TZ}, {"state_change", duckdb.TYPE_TIMESTAMP_TZ},
	{"wait_event_type", duckdb.TYPE_VARCHAR}, {"wait_event", duckdb.TYPE_VARCHAR}, {"state", duckdb.TYPE_VARCHAR},
	{"backend_xid", duckdb.TYPE_VARCHAR}, {"backend_xmin", duckdb.TYPE_VARCHAR}, {"query_id", duckdb.TYPE_BIGINT},
	{"query", duckdb.TYPE_VARCHAR}, {"backend_type", duckdb.TYPE_VARCHAR},
}

// sessionByToken finds the session whose activity token is token (the
// caller of an activity function), nil if none.
func (s *Server) sessionByToken(token string) *Session {
	pidText, _, _ := strings.Cut(token, ":")
	pid, err := strconv.ParseUint(pidText, 10, 32)
	if err != nil {
		return nil
	}
	s.sessMu.Lock()
	sess := s.sessions[uint32(pid)]
	s.sessMu.Unlock()
	if sess == nil || sess.activity.token != token {
		return nil
	}
	return sess
}

// activityRows is pg_stat_activity as caller may see it: every session,
// with what it runs only for sessions of the caller's own login unless the
// caller is an admin (PostgreSQL's rule for roles without
// pg_read_all_stats: other roles' sessions show their identity and
// '<insufficient privilege>' as the query).
func (s *Server) activityRows(caller *Session) [][]any {
	return s.activityAs(caller.user, caller.admin(), caller)
}

// activityAs is pg_stat_activity as user (an admin or not) sees it; self,
// if not nil, is the reading session (no wait event of its own).
func (s *Server) activityAs(user string, admin bool, self *Session) [][]any {
	s.sessMu.Lock()
	sessions := make([]*Session, 0, len(s.sessions))
	for _, sess := range s.sessions {
		sessions = append(sessions, sess)
	}
	works := make([]*backgroundWork, 0, len(s.background))
	for _, w := range s.background {
		works = append(works, w)
	}
	s.sessMu.Unlock()
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].pid < sessions[j].pid })
	sort.Slice(works, func(i, j int) bool { return works[i].pid < works[j].pid })
	ts := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return t
	}
	var rows [][]any
	for _, sess := range sessions {
		a := sess.activity
		a.mu.Lock()
		row := []any{nil, sess.dbname(), int32(sess.pid), nil, nil, sess.user, a.application, nil, nil, nil,
			nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, "<insufficient privilege>", "client backend"}
		if admin || user == sess.user {
			if a.clientAddr != "" {
				row[7] = a.clientAddr
			}
			if a.clientPort != 0 {
				row[9] = int32(a.clientPort)
			}
			row[10], row[11], row[12], row[13] = ts(a.backendStart), ts(a.xactStart), ts(a.queryStart), ts(a.stateChange)
			row[16], row[20] = a.state, a.query
			switch {
			case a.state != "active" || sess == self:
			case a.phase != "":
				row[14], row[15] = "vsql", a.phase
			default:
				row[14], row[15] = sess.waitEvent()
			}
		}
		a.mu.Unlock()
		rows = append(rows, row)
	}
	for _, w := range works {
		row := []any{nil, nil, int32(w.pid), nil, nil, nil, "vsqld", nil, nil, nil,
			nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, "<insufficient privilege>", "vsql background"}
		if admin {
			w.mu.Lock()
			row[10], row[12], row[13] = w.start, w.start, w.phaseAt
			row[14], row[15], row[16], row[20] = "vsql", w.phase, "active", w.what
			w.mu.Unlock()
		}
		rows = append(rows, row)
	}
	return rows
}

// backgroundWork is a row of pg_stat_activity for what vsqld runs on its
// own (the background gc pass), as PostgreSQL lists its background
// workers: backend_type "vsql background", the work as the query, its
// phase as the wait event.
type backgroundWork struct {
	pid     uint32
	what    string
	start   time.Time
	mu      sync.Mutex
	phase   string
	phaseAt time.Time
}

// startBackground lists a background work, in its first phase, until
// endBackground.
func (s *Server) startBackground(what, phase string) *backgroundWork {
	pid, _ := s.newKey()
	now := time.Now()
	w := &backgroundWork{pid: pid, what: what, start: now, phase: phase, phaseAt: now}
	s.sessMu.Lock()
	if s.background == nil {
		s.background = map[uint32]*backgroundWork{}
	}
	s.background[pid] = w
	s.sessMu.Unlock()
	return w
}

func (s *Server) endBackground(w *backgroundWork) {
	s.sessMu.Lock()
	delete(s.background, w.pid)
	s.sessMu.Unlock()
}

func (w *backgroundWork) setPhase(phase string) {
	w.mu.Lock()
	w.phase, w.phaseAt = phase, time.Now()
	w.mu.Unlock()
}

// waitEvent is what an active session waits for, as pg_stat_activity's
// wait_event_type and wait_event: a branch's gate, while a snapshot,
// merge or restore holds it, or nothing known (NULL).
func (s *Session) waitEvent() (any, any) {
	if s.waitingGate.Load() {
		return "Lock", "vsql_branch_gate"
	}
	return nil, nil
}

// dbname is the name the session connected with.
func (s *Session) dbname() string {
	name := s.target.Database
	switch {
	case s.target.Snapshot != "":
		name += "@" + s.target.Snapshot
	case s.target.Branch != "" && s.target.Branch != "main":
		name += "/" + s.target.Branch
	}
	return name
}

// signalBackend cancels the running statement of session pid (terminate:
// also ends its connection), as pg_cancel_backend and
// pg_terminate_backend do: admins may signal any session, other logins
// only their own login's sessions. false, with a WARNING, when no session
// has that pid.
func (s *Server) signalBackend(caller *Session, pid int64, terminate bool) (bool, error) {
	s.sessMu.Lock()
	target := s.sessions[uint32(pid)]
	if pid <= 0 || pid > int64(^uint32(0)) {
		target = nil
	}
	s.sessMu.Unlock()
	if target == nil {
		caller.Warning(fmt.Sprintf("PID %d is not a vsqld backend process", pid))
		return false, nil
	}
	what := "cancel query"
	if terminate {
		what = "terminate backend process"
	}
	if !caller.admin() && (target.user != caller.user || target.role == auth.RoleAdmin) {
		return false, vsqlerr.New(vsqlerr.PermissionDenied, "permission denied to %s", what).
			WithHint("Only an admin, or the same login, may signal a session; admins' sessions only an admin.")
	}
	target.cancelRunning()
	if terminate {
		target.activity.mu.Lock()
		end := target.activity.terminate
		target.activity.mu.Unlock()
		if end != nil {
			go end() // after the statement it runs, which the cancel ends
		}
	}
	return true, nil
}

// registerActivity installs the engine functions behind pg_stat_activity,
// pg_cursors, pg_cancel_backend and pg_terminate_backend (pgcatalog
// defines those names over them). Each takes the caller's token, which only the
// caller's connection holds.
func (s *Server) registerActivity(conn *sql.Conn) error {
	strType, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	if err := s.registerSessionTable(conn, pgcatalog.ActivityFunction, "pg_stat_activity", activityColumns, s.activityRows); err != nil {
		return err
	}
	if err := s.registerSessionTable(conn, pgcatalog.CursorsFunction, "pg_cursors", cursorColumns, (*Session).cursorRows); err != nil {
		return err
	}
	if err := s.registerSessionTable(conn, pgcatalog.PreparedFunction, "pg_prepared_statements", preparedColumns, (*Session).preparedRows); err != nil {
		return err
	}
	bigint, _ := duckdb.NewTypeInfo(duckdb.TYPE_BIGINT)
	boolean, _ := duckdb.NewTypeInfo(duckdb.TYPE_BOOLEAN)
	err := duckdb.RegisterScalarUDF(conn, pgcatalog.SignalFunction, &signalUDF{srv: s, in: []duckdb.TypeInfo{bigint, strType, boolean}, out: boolean})
	if err != nil {
		return fmt.Errorf("register %s: %w", pgcatalog.SignalFunction, err)
	}
	tstz, _ := duckdb.NewTypeInfo(duckdb.TYPE_TIMESTAMP_TZ)
	if err := duckdb.RegisterScalarUDF(conn, pgcatalog.ClockFunction, clockUDF{out: tstz}); err != nil {
		return fmt.Errorf("register %s: %w", pgcatalog.ClockFunction, err)
	}
	return nil
}

// clockUDF is clock_timestamp(): the wall clock's time at each call
// (volatile: every row reads it again).
type clockUDF struct{ out duckdb.TypeInfo }

func (f clockUDF) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{ResultTypeInfo: f.out, Volatile: true}
}

func (f clockUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func([]driver.Value) (any, error) { return time.Now(), nil }}
}

// catalogColumn is a column of a catalog an engine table function fills.
type catalogColumn struct {
	name string
	typ  duckdb.Type
}

// registerSessionTable installs the engine table function name(token),
// whose rows read returns for the session the token names (what is the
// catalog's name, for errors).
func (s *Server) registerSessionTable(conn *sql.Conn, name, what string, columns []catalogColumn, read func(caller *Session) [][]any) error {
	strType, _ := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	err := duckdb.RegisterTableUDF(conn, name, duckdb.RowTableFunction{
		Config: duckdb.TableFunctionConfig{Arguments: []duckdb.TypeInfo{strType}},
		BindArguments: func(_ map[string]any, in ...any) (duckdb.RowTableSource, error) {
			token, _ := in[0].(string)
			// nil when the view is created (bound without a session); Init
			// then refuses to run.
			caller := s.sessionByToken(token)
			cols := make([]duckdb.ColumnInfo, len(columns))
			for i, c := range columns {
				t, _ := duckdb.NewTypeInfo(c.typ)
				cols[i] = duckdb.ColumnInfo{Name: c.name, T: t}
			}
			return &activitySource{srv: s, caller: caller, cols: cols, what: what, read: read}, nil
		},
	})
	if err != nil {
		return fmt.Errorf("register %s: %w", name, err)
	}
	return nil
}

// activitySource hands out the rows of a catalog of the caller's server
// or session (pg_stat_activity, pg_cursors), read at each execution.
type activitySource struct {
	srv    *Server
	caller *Session
	cols   []duckdb.ColumnInfo
	what   string                        // the catalog's name, for errors
	read   func(caller *Session) [][]any // the rows
	rows   [][]any
	next   int
}

func (a *activitySource) ColumnInfos() []duckdb.ColumnInfo { return a.cols }
func (a *activitySource) Cardinality() *duckdb.CardinalityInfo {
	return nil
}
func (a *activitySource) Init() {
	a.rows, a.next = nil, 0
	if a.caller != nil {
		a.rows = a.read(a.caller)
	}
}
func (a *activitySource) FillRow(row duckdb.Row) (bool, error) {
	if a.caller == nil {
		return false, vsqlerr.ForEngine(vsqlerr.New(vsqlerr.Internal, "%s read outside a vsql session", a.what))
	}
	if a.next >= len(a.rows) {
		return false, nil
	}
	for i, v := range a.rows[a.next] {
		if err := duckdb.SetRowValue(row, i, v); err != nil {
			return false, err
		}
	}
	a.next++
	return true, nil
}

// signalUDF is the scalar function (pid, token, terminate) → boolean.
type signalUDF struct {
	srv *Server
	in  []duckdb.TypeInfo
	out duckdb.TypeInfo
}

func (f *signalUDF) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: f.in, ResultTypeInfo: f.out, Volatile: true}
}

func (f *signalUDF) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowContextExecutor: func(_ context.Context, values []driver.Value) (any, error) {
		pid, _ := values[0].(int64)
		token, _ := values[1].(string)
		terminate, _ := values[2].(bool)
		caller := f.srv.sessionByToken(token)
		if caller == nil {
			return nil, vsqlerr.ForEngine(vsqlerr.New(vsqlerr.Internal, "pg_cancel_backend called outside a vsql session"))
		}
		ok, err := f.srv.signalBackend(caller, pid, terminate)
		return ok, vsqlerr.ForEngine(err)
	}}
}
