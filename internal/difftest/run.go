package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// Corpus names the two corpora in reports.
const (
	CorpusPG  = "pgregress"
	CorpusSLT = "sqllogictest"
)

// File is one corpus file to run.
type File struct {
	Corpus string // CorpusPG or CorpusSLT
	Name   string // as reported: "strings.sql", "random/expr/slt_good_1.test"
	Path   string
	// Setup says the file runs after test_setup.sql in its database.
	Setup bool
	// Limit runs only the first Limit statements (0 = all).
	Limit int
}

// Config says what Run runs and where.
type Config struct {
	// Corpus is the corpus directory (/work/shared/corpus).
	Corpus string
	// PG is a connection string of PostgreSQL 15's database postgres as a
	// superuser; Run makes a database per file there.
	PG string
	// Vsqld is the running vsqld (a child process, so that a crash is
	// seen and survived); Run restarts it when it dies.
	Vsqld *Vsqld
	Files []File
	// Timeout bounds each statement (default 5 s).
	Timeout time.Duration
	// Progress, if set, gets a line per file.
	Progress io.Writer
}

// Outcome of one statement.
type Outcome int

// Outcomes.
const (
	Agree Outcome = iota
	Diverge
	Skipped
	Hung
	Crashed
)

// Divergence is one statement whose answers differ.
type Divergence struct {
	Corpus, File string
	Line         int
	SQL          string
	Group        string // the reason group (see classify)
	Key          string // detail inside the group: a function, a type, a SQLSTATE
	PG, Vsqld    string // the two answers, shortened
	Outcome      Outcome
}

// FileResult counts one file's statements.
type FileResult struct {
	File
	Run, Agree, Skipped, Hung, Crashed int
	SkipReasons                        map[string]int
	Divergences                        []Divergence
	Duration                           time.Duration
	Error                              string // the file could not be run to its end
}

// answer is what one server said to one statement.
type answer struct {
	code, msg string // SQLSTATE and message of an error
	fields    []string
	rows      [][]*string
	tag       string
	timeout   bool // the statement ran past the timeout
	lost      bool // the connection broke (or could not be made)
	other     string
}

func (a *answer) isErr() bool { return a.code != "" }
func (a *answer) failed() bool {
	return a.timeout || a.lost || a.other != ""
}

func (a *answer) String() string {
	switch {
	case a.timeout:
		return "timed out"
	case a.lost:
		return "connection lost: " + a.other
	case a.other != "":
		return "client error: " + a.other
	case a.code != "":
		return "ERROR " + a.code + ": " + a.msg
	}
	if a.fields == nil {
		return a.tag
	}
	var b strings.Builder
	for i, r := range a.rows {
		if i == 3 {
			fmt.Fprintf(&b, " … (%d rows)", len(a.rows))
			break
		}
		if i > 0 {
			b.WriteString(" | ")
		}
		for j, v := range r {
			if j > 0 {
				b.WriteString(",")
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				b.WriteString(*v)
			}
		}
	}
	if len(a.rows) == 0 {
		b.WriteString("(0 rows)")
	}
	return b.String()
}

// session is one side's connection to the file's database.
type session struct {
	dsn  string
	conn *pgconn.PgConn
}

func connect(ctx context.Context, dsn string) (*pgconn.PgConn, error) {
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	cfg.ConnectTimeout = 15 * time.Second
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 3 * time.Second}
	}
	return pgconn.ConnectConfig(ctx, cfg)
}

func (s *session) close() {
	if s.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		s.conn.Close(ctx)
		cancel()
		s.conn = nil
	}
}

func (s *session) reconnect() error {
	s.close()
	c, err := connect(context.Background(), s.dsn)
	if err != nil {
		return err
	}
	s.conn = c
	return nil
}

// exec runs one statement and reads its answer as text.
func (s *session) exec(timeout time.Duration, sql string, copyData []byte, hasCopy bool) *answer {
	a := &answer{}
	if s.conn == nil || s.conn.IsClosed() {
		a.lost, a.other = true, "not connected"
		return a
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var err error
	switch {
	case hasCopy || copyFromStdin.MatchString(sql):
		var tag pgconn.CommandTag
		tag, err = s.conn.CopyFrom(ctx, bytes.NewReader(copyData), sql)
		a.tag = tag.String()
	case copyToStdout.MatchString(sql):
		var buf bytes.Buffer
		var tag pgconn.CommandTag
		tag, err = s.conn.CopyTo(ctx, &buf, sql)
		a.tag = tag.String()
		a.fields = []string{"copy"}
		for _, l := range strings.SplitAfter(buf.String(), "\n") {
			if l != "" {
				l := l
				a.rows = append(a.rows, []*string{&l})
			}
		}
	default:
		var res []*pgconn.Result
		res, err = s.conn.Exec(ctx, sql).ReadAll()
		for _, r := range res {
			if r.Err != nil {
				err = r.Err
				break
			}
			a.tag = r.CommandTag.String()
			if r.FieldDescriptions != nil {
				a.fields = a.fields[:0]
				for _, f := range r.FieldDescriptions {
					a.fields = append(a.fields, f.Name)
				}
				a.rows = a.rows[:0]
				for _, row := range r.Rows {
					out := make([]*string, len(row))
					for i, v := range row {
						if v != nil {
							s := string(v)
							out[i] = &s
						}
					}
					a.rows = append(a.rows, out)
				}
			}
		}
	}
	if err != nil {
		var pe *pgconn.PgError
		switch {
		case errors.As(err, &pe):
			a.code, a.msg = pe.Code, pe.Message
			a.fields, a.rows = nil, nil
		case ctx.Err() != nil:
			a.timeout = true
		case s.conn.IsClosed():
			a.lost, a.other = true, err.Error()
		default:
			a.other = err.Error()
		}
	}
	return a
}

// Run runs every file of cfg and returns their results.
func Run(cfg Config) []FileResult {
	if cfg.Timeout == 0 {
		cfg.Timeout = 5 * time.Second
	}
	var setup []Stmt
	var results []FileResult
	for i, f := range cfg.Files {
		if f.Setup && setup == nil {
			st, err := ReadPsqlFile(filepath.Join(cfg.Corpus, "pgregress", "sql", "test_setup.sql"))
			if err != nil {
				results = append(results, FileResult{File: f, Error: err.Error()})
				continue
			}
			setup = st
		}
		t0 := time.Now()
		r := runFile(cfg, i, f, setup)
		r.Duration = time.Since(t0)
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "%-12s %-45s run %5d agree %5d (%5.1f%%) skipped %4d hung %d crashed %d  %s %s\n",
				f.Corpus, f.Name, r.Run, r.Agree, pct(r.Agree, r.Run), r.Skipped, r.Hung, r.Crashed, r.Duration.Round(time.Millisecond), r.Error)
		}
		results = append(results, r)
	}
	return results
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

var nonName = regexp.MustCompile(`[^a-z0-9]+`)

// runFile runs one file in a fresh database on both servers.
func runFile(cfg Config, idx int, f File, setup []Stmt) FileResult {
	start := time.Now()
	res := FileResult{File: f, SkipReasons: map[string]int{}}
	defer func() { res.Duration = time.Since(start) }()
	var stmts []Stmt
	var err error
	if f.Corpus == CorpusSLT {
		stmts, err = ReadSLTFile(f.Path, f.Name)
	} else {
		stmts, err = ReadPsqlFile(f.Path)
	}
	if err != nil {
		res.Error = err.Error()
		return res
	}
	db := fmt.Sprintf("d%03d_%s", idx, strings.Trim(nonName.ReplaceAllString(strings.ToLower(f.Name), "_"), "_"))
	if len(db) > 50 {
		db = db[:50]
	}
	pgAdmin, err := connect(context.Background(), cfg.PG)
	if err != nil {
		res.Error = "PostgreSQL: " + err.Error()
		return res
	}
	defer pgAdmin.Close(context.Background())
	adminExec := func(c *pgconn.PgConn, sql string) error {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, err := c.Exec(ctx, sql).ReadAll()
		return err
	}
	if err := adminExec(pgAdmin, `CREATE DATABASE "`+db+`"`); err != nil {
		res.Error = "PostgreSQL CREATE DATABASE: " + err.Error()
		return res
	}
	defer adminExec(pgAdmin, `DROP DATABASE IF EXISTS "`+db+`" WITH (FORCE)`)
	if !cfg.Vsqld.Alive() {
		if err := restart(cfg.Vsqld); err != nil {
			res.Error = "vsqld: " + err.Error()
			return res
		}
	}
	vAdmin, err := connect(context.Background(), cfg.Vsqld.DSN("postgres"))
	if err != nil {
		res.Error = "vsqld: " + err.Error()
		return res
	}
	if err := adminExec(vAdmin, `CREATE DATABASE `+db); err != nil {
		vAdmin.Close(context.Background())
		res.Error = "vsqld CREATE DATABASE: " + err.Error()
		return res
	}
	vAdmin.Close(context.Background())
	defer func() {
		if c, err := connect(context.Background(), cfg.Vsqld.DSN("postgres")); err == nil {
			adminExec(c, `DROP DATABASE `+db)
			c.Close(context.Background())
		}
	}()

	pgDSN := withDB(cfg.PG, db)
	pg := &session{dsn: pgDSN}
	v := &session{dsn: cfg.Vsqld.DSN(db)}
	defer pg.close()
	defer v.close()
	if err := pg.reconnect(); err != nil {
		res.Error = "PostgreSQL: " + err.Error()
		return res
	}
	if err := v.reconnect(); err != nil {
		res.Error = "vsqld: " + err.Error()
		return res
	}
	r := &fileRun{cfg: cfg, pg: pg, v: v, vars: map[string]string{}, res: &res}
	if f.Setup {
		r.quiet = true
		for _, st := range setup {
			r.one(st)
		}
		r.quiet = false
		r.vars = map[string]string{}
	}
	n := 0
	for _, st := range stmts {
		if f.Limit > 0 && n >= f.Limit {
			break
		}
		n++
		if r.one(st) {
			break
		}
	}
	return res
}

func withDB(dsn, db string) string {
	if strings.Contains(dsn, "dbname=") {
		return regexp.MustCompile(`dbname=\S+`).ReplaceAllString(dsn, "dbname="+db)
	}
	return dsn + " dbname=" + db
}

func restart(v *Vsqld) error {
	v.Stop()
	nv, err := StartVsqld(v.Data)
	if err != nil {
		return err
	}
	*v = *nv
	return nil
}

type fileRun struct {
	cfg   Config
	pg, v *session
	vars  map[string]string
	res   *FileResult
	quiet bool // running the shared setup: nothing is counted
	// vAbort names the statement that failed vsqld's transaction block
	// while PostgreSQL's went on ("" when vsqld's is not failed): the
	// cause of the transaction-state divergences that follow it.
	vAbort string
}

// txStatus is a session's transaction status after its last statement
// (0 when it has no connection).
func txStatus(s *session) byte {
	if s.conn == nil {
		return 0
	}
	return s.conn.TxStatus()
}

var copyFromFile = regexp.MustCompile(`(?is)^(\s*copy\s.*?\bfrom\s+)'([^']*)'(.*)$`)

func (r *fileRun) skip(reason string) {
	if !r.quiet {
		r.res.Skipped++
		r.res.SkipReasons[reason]++
	}
}

// one runs a statement on both sides and records the comparison. It
// returns true when the file cannot go on.
func (r *fileRun) one(st Stmt) bool {
	if st.Meta != "" && st.SQL == "" {
		r.meta(st.Meta)
		return false
	}
	if st.SkipReason != "" {
		r.skip(st.SkipReason)
		return false
	}
	sql, missing := Substitute(st.SQL, r.vars)
	if len(missing) > 0 {
		r.skip("uses a psql variable that is not set")
		return false
	}
	data, hasCopy := st.CopyData, st.HasCopy
	if m := copyFromFile.FindStringSubmatch(sql); m != nil && strings.HasPrefix(m[2], r.cfg.Corpus) {
		b, err := os.ReadFile(m[2])
		if err != nil {
			r.skip("COPY of a data file that is missing")
			return false
		}
		sql, data, hasCopy = m[1]+"STDIN"+m[3], b, true
	}
	var pa, va *answer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); pa = r.pg.exec(r.cfg.Timeout, sql, data, hasCopy) }()
	go func() { defer wg.Done(); va = r.v.exec(r.cfg.Timeout, sql, data, hasCopy) }()
	wg.Wait()
	if st.Gset && !pa.isErr() && len(pa.rows) > 0 {
		for i, name := range pa.fields {
			if v := pa.rows[0][i]; v != nil {
				r.vars[st.Prefix+name] = *v
			}
		}
	}
	if pa.failed() {
		// PostgreSQL itself did not answer in time: nothing to compare.
		if pa.lost {
			if err := r.pg.reconnect(); err != nil {
				r.res.Error = "PostgreSQL: " + err.Error()
				return true
			}
		}
		r.skip("PostgreSQL did not answer within the timeout")
		return false
	}
	if r.quiet {
		if va.timeout || va.lost {
			return r.recover(st, sql, pa, va)
		}
		return false
	}
	r.res.Run++
	if va.timeout || va.lost {
		return r.recover(st, sql, pa, va)
	}
	group, key := compare(st, sql, pa, va)
	if group == gTxn && r.vAbort != "" {
		key = "after " + r.vAbort
	}
	switch vTx := txStatus(r.v); {
	case vTx != 'E':
		r.vAbort = ""
	case r.vAbort == "" && txStatus(r.pg) != 'E' && group != "":
		r.vAbort = fmt.Sprintf("%s:%d, %s: %s", st.File, st.Line, group, key)
	}
	if group == "" {
		r.res.Agree++
		return false
	}
	r.res.Divergences = append(r.res.Divergences, Divergence{
		Corpus: r.res.Corpus, File: st.File, Line: st.Line, SQL: shorten(sql, 400),
		Group: group, Key: key, PG: shorten(pa.String(), 300), Vsqld: shorten(va.String(), 300), Outcome: Diverge,
	})
	return false
}

// recover handles a vsqld that did not answer: a crash (the child died;
// restart it) or a hang (reconnect).
func (r *fileRun) recover(st Stmt, sql string, pa, va *answer) bool {
	time.Sleep(200 * time.Millisecond)
	out := Hung
	group := "statement ran past the timeout (hang)"
	detail := va.String()
	if !r.cfg.Vsqld.Alive() {
		out = Crashed
		group = "vsqld died (crash)"
		detail = r.cfg.Vsqld.Exit + ": " + lastLines(r.cfg.Vsqld.LogTail(4000), 6)
		if err := restart(r.cfg.Vsqld); err != nil {
			r.res.Error = "vsqld did not restart: " + err.Error()
		}
		r.v.dsn = r.cfg.Vsqld.DSN(dbOf(r.v.dsn))
	}
	if out == Hung {
		r.res.Hung++
	} else {
		r.res.Crashed++
	}
	if r.quiet {
		group += " (in test_setup.sql)"
	}
	r.res.Divergences = append(r.res.Divergences, Divergence{
		Corpus: r.res.Corpus, File: st.File, Line: st.Line, SQL: shorten(sql, 400), Group: group,
		PG: shorten(pa.String(), 300), Vsqld: shorten(detail, 600), Outcome: out,
	})
	if err := r.v.reconnect(); err != nil {
		r.res.Error = "vsqld: cannot reconnect: " + err.Error()
		return true
	}
	return r.res.Error != ""
}

func dbOf(dsn string) string {
	m := regexp.MustCompile(`dbname=(\S+)`).FindStringSubmatch(dsn)
	if m == nil {
		return "postgres"
	}
	return m[1]
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, " ⏎ ")
}

// meta emulates the psql meta-commands that set variables; every
// meta-command counts as skipped.
func (r *fileRun) meta(cmd string) {
	name, args, _ := strings.Cut(cmd, " ")
	args = strings.TrimSpace(args)
	switch name {
	case "set":
		v, val, _ := strings.Cut(args, " ")
		if v != "" {
			r.vars[v] = metaSet(val, r.vars)
		}
	case "unset":
		delete(r.vars, args)
	case "getenv":
		f := strings.Fields(args)
		if len(f) == 2 && f[1] == "PG_ABS_SRCDIR" {
			r.vars[f[0]] = filepath.Join(r.cfg.Corpus, "pgregress")
		}
	}
	r.skip(`psql meta-command (\` + name + `)`)
}

func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && (s[cut]&0xC0) == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// rowsText renders rows for comparison; sqllogictest records apply their
// result types (R: three decimals) and sort mode.
func rowsText(st Stmt, rows [][]*string) []string {
	var out []string
	if st.Query && st.Sort == "valuesort" {
		for _, r := range rows {
			for j, v := range r {
				out = append(out, cell(st, j, v))
			}
		}
		sort.Strings(out)
		return out
	}
	for _, r := range rows {
		var b strings.Builder
		for j, v := range r {
			if j > 0 {
				b.WriteByte('\x1f')
			}
			b.WriteString(cell(st, j, v))
		}
		out = append(out, b.String())
	}
	if st.Query && st.Sort == "rowsort" {
		sort.Strings(out)
	}
	return out
}

func cell(st Stmt, j int, v *string) string {
	if v == nil {
		return "\x00NULL"
	}
	if st.Query && j < len(st.Types) && st.Types[j] == 'R' {
		if f, err := strconv.ParseFloat(*v, 64); err == nil {
			return strconv.FormatFloat(f, 'f', 3, 64)
		}
	}
	return *v
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
