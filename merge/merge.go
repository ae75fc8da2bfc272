package merge

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/sqltext"
	"github.com/vsql/vsql/vsqlerr"
)

// Merge actions.
const (
	ActionMerged        = "merged"
	ActionFastForward   = "fast_forward"
	ActionUpToDate      = "already_up_to_date"
	ActionCreatedBranch = "created_branch"
)

// Algorithm names the merge rules recorded in a merge snapshot's provenance.
const Algorithm = "vsql-three-way-cell/1"

// Merger runs merges. It reads published snapshots only (attached
// read-only), builds results in staging, and publishes through
// branches.Publish.
type Merger struct {
	db       *sql.DB
	versions *branches.Manager
	cat      *catalog.Catalog
	log      *slog.Logger
	limit    concurrency
	progress progress
	async    sync.WaitGroup
	// Remote publishes merges into databases with an S3 remote.
	Remote Remote
	// Working, if set, is called when a merge (or a preview) starts, with
	// the context the merge runs in, and the function it returns when it
	// ends: vsqld gives DuckDB its helper threads while work runs
	// (duckstream.Workers.TrackContext).
	Working func(ctx context.Context) (context.Context, func())

	signatures *branches.SignatureCache // of the inputs' snapshot images
}

// signatureCacheTables bounds the Merger's signature cache (one table's
// signatures in one image: 2.2 KiB for 300,000 rows of three columns,
// growing with the row groups and columns).
const signatureCacheTables = 512

// MaxConcurrent is the default number of merges that may run at once.
const MaxConcurrent = 2

// New returns a Merger on the engine's connection pool. Requests left
// running by a previous process (a crash) become pending, to be retried.
func New(ctx context.Context, db *sql.DB, versions *branches.Manager, cat *catalog.Catalog, log *slog.Logger) (*Merger, error) {
	err := cat.Tx(ctx, func(tx *catalog.Tx) error { return tx.InterruptRunningRequests(ctx) })
	m := &Merger{db: db, versions: versions, cat: cat, log: log, signatures: branches.NewSignatureCache(signatureCacheTables)}
	m.limit.max = MaxConcurrent
	return m, err
}

// Options are a merge call's named arguments.
type Options struct {
	RequestID                                  string
	ExpectedBase, ExpectedOurs, ExpectedTheirs int64
	SnapshotTarget                             bool
	// CopyTarget builds the result in a copy of ours even when it could be
	// written into the destination's live file (in_place => false): the
	// destination stays readable and writable during the merge, at the cost
	// of copying its whole file.
	CopyTarget  bool
	Validate    bool
	SchemaMode  string
	LockTimeout time.Duration
	Timeout     time.Duration
	Resolutions Resolutions
	// Limits (0 = the default): rows and bytes read from the inputs, bytes
	// written to staging.
	MaxRows, MaxInputBytes, MaxStagingBytes int64
	// Details pages conflict_details in previews (DetailsLimit 0 = 1000).
	DetailsOffset, DetailsLimit int64
	// Progress, if set, is told what the merge is doing as it goes.
	Progress func(message string)
	// Notice, if set, is told what the caller should know at once (a
	// branch merged from has writes that are not in a snapshot).
	Notice func(message string)
}

// Defaults for Options left zero.
const (
	DefaultLockTimeout     = 5 * time.Second
	DefaultTimeout         = 10 * time.Minute
	DefaultMaxRows         = 10_000_000
	DefaultMaxInputBytes   = 1 << 30
	DefaultMaxStagingBytes = 1 << 30
)

func (o *Options) setDefaults() {
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxRows <= 0 {
		o.MaxRows = DefaultMaxRows
	}
	if o.MaxInputBytes <= 0 {
		o.MaxInputBytes = DefaultMaxInputBytes
	}
	if o.MaxStagingBytes <= 0 {
		o.MaxStagingBytes = DefaultMaxStagingBytes
	}
	if o.DetailsLimit <= 0 {
		o.DetailsLimit = maxConflictDetails
	}
}

// Counts are per-side changes since the base, summed over tables.
type Counts struct {
	OursInserts, OursUpdates, OursDeletes       int64
	TheirsInserts, TheirsUpdates, TheirsDeletes int64
	Conflicts                                   int64
}

func (c *Counts) add(r *TableResult) {
	c.OursInserts += r.OursInserts
	c.OursUpdates += r.OursUpdates
	c.OursDeletes += r.OursDeletes
	c.TheirsInserts += r.TheirsInserts
	c.TheirsUpdates += r.TheirsUpdates
	c.TheirsDeletes += r.TheirsDeletes
	c.Conflicts += r.Conflicts
}

// Result is the outcome of a merge call.
type Result struct {
	Branch      string
	Snapshot    int64
	Action      string
	Base        int64
	Ours        int64
	Theirs      int64
	RequestID   string
	OperationID string
	Counts
	SelectionMS, TargetCheckMS, ComparisonMS, ApplicationMS, PublicationMS float64
	// Methods counts the compared tables by how their rows were paired;
	// nil when no comparison ran.
	Methods  map[Method]int
	Replayed bool
	// State is complete for a finished call, running for an async one.
	State string

	// started: the merge got past selection and the target check (a
	// failure before that is a refusal, which binds no request_id).
	started bool
}

// inputs are the three snapshots of a merge and where the result goes.
type inputs struct {
	lineage            bool // base selected from recorded parent edges
	db                 string
	base, ours, theirs int64
	oursBranch         string // "" for snapshot merges
	destination        string
	newBranch          bool
	action             string
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func (m *Merger) snapshots(ctx context.Context, db string) (catalog.Database, []catalog.Snapshot, map[string]catalog.Branch, error) {
	var d catalog.Database
	var snaps []catalog.Snapshot
	brs := map[string]catalog.Branch{}
	err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		var err error
		d, err = tx.Database(ctx, db)
		if errors.Is(err, catalog.ErrNotFound) {
			return vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", db)
		}
		if err != nil {
			return err
		}
		if snaps, err = tx.Snapshots(ctx, d.ID); err != nil {
			return err
		}
		list, err := tx.Branches(ctx, d.ID)
		for _, b := range list {
			brs[b.Name] = b
		}
		return err
	})
	return d, snaps, brs, err
}

func branchHead(brs map[string]catalog.Branch, db, name string) (int64, error) {
	if err := sqltext.ValidName("branch", name); err != nil {
		return 0, vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	b, ok := brs[name]
	if !ok {
		return 0, vsqlerr.New(vsqlerr.BranchNotFound, "branch %q of database %q does not exist", name, db)
	}
	if b.Head == 0 {
		return 0, vsqlerr.New(vsqlerr.NoSnapshot, "branch %q of database %q has no snapshot; merges read published snapshots only", name, db)
	}
	return b.Head, nil
}

func snapshotRef(snaps []catalog.Snapshot, db, ref string) (int64, error) {
	for _, s := range snaps {
		if strconv.FormatInt(s.ID, 10) == ref || (s.Name != "" && s.Name == ref) || (s.Deleted && s.DeletedName == ref) {
			if s.Deleted {
				return 0, vsqlerr.New(vsqlerr.SnapshotDeleted, "snapshot %d of database %q was deleted (by %s at %s); a merge cannot read it",
					s.ID, db, s.DeletedBy, s.DeletedAt.Format(time.RFC3339))
			}
			return s.ID, nil
		}
	}
	return 0, vsqlerr.New(vsqlerr.SnapshotNotFound, "snapshot %q of database %q does not exist", ref, db)
}

// snapshotRefs resolves the three refs of a snapshot merge.
func snapshotRefs(snaps []catalog.Snapshot, db, base, ours, theirs string) (b, o, t int64, err error) {
	if b, err = snapshotRef(snaps, db, base); err != nil {
		return
	}
	if o, err = snapshotRef(snaps, db, ours); err != nil {
		return
	}
	t, err = snapshotRef(snaps, db, theirs)
	return
}

// selectBranchInputs resolves a branch merge: heads, base, action.
func (m *Merger) selectBranchInputs(ctx context.Context, db, ours, theirs, destination string, opt Options) (inputs, Ancestry, error) {
	in := inputs{db: db, oursBranch: ours, destination: destination}
	if in.destination == "" {
		in.destination = ours
	}
	_, snaps, brs, err := m.snapshots(ctx, db)
	if err != nil {
		return in, Ancestry{}, err
	}
	if in.ours, err = branchHead(brs, db, ours); err != nil {
		return in, Ancestry{}, err
	}
	if in.theirs, err = branchHead(brs, db, theirs); err != nil {
		return in, Ancestry{}, err
	}
	m.noticeUnsnapshotted(ctx, db, theirs, in.theirs, opt)
	if err := sqltext.ValidName("branch", in.destination); err != nil {
		return in, Ancestry{}, vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	if _, exists := brs[in.destination]; exists && in.destination != ours {
		return in, Ancestry{}, vsqlerr.New(vsqlerr.InvalidArgument, "destination %q is an existing branch other than ours (%q): merge into ours or into a new branch", in.destination, ours)
	} else if !exists {
		in.newBranch = true
	}
	anc := SelectBase(snaps, in.ours, in.theirs)
	in.lineage = true
	switch anc.State {
	case SelectionAmbiguous:
		return in, anc, vsqlerr.New(vsqlerr.MergeBaseAmbiguous, "snapshots %d and %d have several best common ancestors %v", in.ours, in.theirs, anc.Candidates)
	case SelectionUnavailable:
		return in, anc, vsqlerr.New(vsqlerr.MergeBaseUnavailable, "no common ancestor of snapshots %d and %d is recorded", in.ours, in.theirs)
	}
	in.base = anc.Base
	if in.base != in.ours && in.base != in.theirs {
		for _, s := range snaps {
			if s.ID == in.base && s.Deleted {
				return in, anc, vsqlerr.New(vsqlerr.MergeBaseDeleted, "snapshot %d, the common ancestor of snapshots %d and %d, was deleted (by %s at %s)",
					s.ID, in.ours, in.theirs, s.DeletedBy, s.DeletedAt.Format(time.RFC3339))
			}
		}
	}
	switch {
	case in.base == in.theirs:
		in.action = ActionUpToDate
	case in.base == in.ours:
		in.action = ActionFastForward
	default:
		in.action = ActionMerged
	}
	return in, anc, checkExpected(in, opt)
}

func checkExpected(in inputs, opt Options) error {
	for _, g := range []struct {
		name          string
		want, current int64
	}{{"base", opt.ExpectedBase, in.base}, {"ours", opt.ExpectedOurs, in.ours}, {"theirs", opt.ExpectedTheirs, in.theirs}} {
		if g.want != 0 && g.want != g.current {
			return vsqlerr.New(vsqlerr.MergeInputsChanged, "expected %s snapshot %d, but it is now %d", g.name, g.want, g.current)
		}
	}
	return nil
}

// session is one merge's DuckDB connection and attached inputs.
type session struct {
	conn               *sql.Conn
	base, ours, theirs *catalogShape
	plan               *schemaPlan
	home               string // the connection's default database
	oursPath           string
	inputBytes         int64
	temps              []string
	opt                Options
	status             *Status
	progress           *progress
	chunks             [][][32]byte // of base, ours, theirs
	signatures         *branches.SignatureCache
	oursLive           bool // ours is read from its live file, not an image
	// lineage: base was selected from recorded parents (a common ancestor
	// of ours and theirs), not given by the caller.
	lineage bool
	// releases give the input images back (see branches.SnapshotImage).
	releases []func()
}

// open attaches the three inputs. With live set, ours is read from the
// destination's live file, which live holds at ours (see InPlace).
func (m *Merger) open(ctx context.Context, in inputs, opt Options, live *branches.InPlace) (*session, error) {
	conn, err := m.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	// Results never depend on the caller's settings: every merge renders
	// times in UTC with the Gregorian calendar, first attempt and retries.
	for _, q := range []string{"SET TimeZone = 'UTC'", "SET Calendar = 'gregorian'"} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			conn.Close()
			return nil, err
		}
	}
	opt.setDefaults()
	s := &session{conn: conn, opt: opt, progress: &m.progress, lineage: in.lineage, signatures: m.signatures, oursLive: live != nil}
	var aliases []string
	for i, id := range []int64{in.base, in.ours, in.theirs} {
		if i == 1 && live != nil {
			aliases = append(aliases, live.Alias())
			s.oursPath = live.Path()
			s.inputBytes += live.Size()
			continue
		}
		alias, path, release, err := m.versions.SnapshotImage(ctx, in.db, id)
		if err != nil {
			s.close()
			return nil, err
		}
		s.releases = append(s.releases, release)
		aliases = append(aliases, alias)
		if i == 1 {
			s.oursPath = path
		}
		if info, err := os.Stat(path); err == nil {
			s.inputBytes += info.Size()
		}
	}
	if s.chunks, err = m.chunkMaps(ctx, in.db, in.base, in.ours, in.theirs); err != nil {
		s.close()
		return nil, err
	}
	if s.inputBytes > opt.MaxInputBytes {
		s.close()
		return nil, vsqlerr.New(vsqlerr.MergeLimitExceeded, "the inputs are %d bytes, more than max_input_bytes (%d)", s.inputBytes, opt.MaxInputBytes)
	}
	names := []string{branches.SnapshotAlias(in.db, strconv.FormatInt(in.base, 10)),
		branches.SnapshotAlias(in.db, strconv.FormatInt(in.ours, 10)), branches.SnapshotAlias(in.db, strconv.FormatInt(in.theirs, 10))}
	shapes, err := inspectAll(ctx, conn, aliases, names, []string{"base", "ours", "theirs"})
	if err != nil {
		s.close()
		return nil, err
	}
	s.base, s.ours, s.theirs = shapes[0], shapes[1], shapes[2]
	var rows int64
	for _, sh := range []*catalogShape{s.base, s.ours, s.theirs} {
		for _, t := range sh.tables {
			rows += t.rows
		}
	}
	if rows > opt.MaxRows {
		s.close()
		return nil, vsqlerr.New(vsqlerr.MergeLimitExceeded, "the inputs hold %d rows, more than max_rows (%d)", rows, opt.MaxRows)
	}
	if s.home, err = currentDatabase(ctx, conn); err != nil {
		s.close()
		return nil, err
	}
	if s.plan, err = planSchema(ctx, conn, opt.SchemaMode, s.base, s.ours, s.theirs); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

func (s *session) close() {
	for _, t := range s.temps {
		_, _ = s.conn.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+sqltext.QuoteIdent(t))
	}
	s.conn.Close()
	for _, r := range s.releases {
		r()
	}
}

// build writes the merged result into a staging copy of ours and returns
// its path. DuckDB validates every native constraint while applying.
func (m *Merger) build(ctx context.Context, s *session, results []*TableResult, op string) (string, error) {
	staging := m.versions.StagingPath("merge-" + op + ".duckdb")
	if err := copyFile(s.oursPath, staging); err != nil {
		return "", err
	}
	alias := "__vsql_staging_" + op
	if _, err := s.conn.ExecContext(ctx, "ATTACH "+sqltext.QuoteString(staging)+" AS "+sqltext.QuoteIdent(alias)); err != nil {
		os.Remove(staging)
		return "", err
	}
	fail := func(err error) (string, error) {
		_, _ = s.conn.ExecContext(context.Background(), "DETACH "+sqltext.QuoteIdent(alias))
		os.Remove(staging)
		os.Remove(staging + ".wal")
		return "", err
	}
	if err := s.applyAll(ctx, results, alias, op); err != nil {
		return fail(err)
	}
	if _, err := s.conn.ExecContext(ctx, "CHECKPOINT "+sqltext.QuoteIdent(alias)); err != nil {
		return fail(err)
	}
	if _, err := s.conn.ExecContext(ctx, "DETACH "+sqltext.QuoteIdent(alias)); err != nil {
		os.Remove(staging)
		return "", err
	}
	if info, err := os.Stat(staging); err == nil && info.Size() > s.opt.MaxStagingBytes {
		os.Remove(staging)
		return "", vsqlerr.New(vsqlerr.MergeLimitExceeded, "the merged result is %d bytes, more than max_staging_bytes (%d)", info.Size(), s.opt.MaxStagingBytes)
	}
	return staging, nil
}

// buildInPlace writes the merged result into the destination's live file,
// held at ours by live: only the changed rows are written, and only the
// blocks they touch change. Until publication the file's marker says it
// may differ from the branch's head (a crash rebuilds the branch from its
// head); a failure before COMMIT is rolled back, one after it leaves the
// rebuilding to live.Close.
func (m *Merger) buildInPlace(ctx context.Context, s *session, results []*TableResult, op string, live *branches.InPlace) error {
	before := live.Size()
	if err := live.MarkApplying(); err != nil {
		return err
	}
	faults.Point("merge.inplace_after_mark")
	if err := s.applyAll(ctx, results, live.Alias(), op); err != nil {
		return err
	}
	faults.Point("merge.inplace_after_commit")
	if _, err := s.conn.ExecContext(ctx, "CHECKPOINT "+sqltext.QuoteIdent(live.Alias())); err != nil {
		return err
	}
	if grown := live.Size() - before; grown > s.opt.MaxStagingBytes {
		return vsqlerr.New(vsqlerr.MergeLimitExceeded, "the merge grew the file of %q by %d bytes, more than max_staging_bytes (%d)", s.ours.alias, grown, s.opt.MaxStagingBytes)
	}
	return nil
}

// applyAll applies the schema plan and the merged rows of every table to
// the database alias in one transaction: all of it or, on any error
// (rolled back), none. DuckDB validates every native constraint.
func (s *session) applyAll(ctx context.Context, results []*TableResult, alias, op string) error {
	fail := func(err error) error {
		_, _ = s.conn.ExecContext(context.Background(), "ROLLBACK")
		_, _ = s.conn.ExecContext(context.Background(), "USE "+sqltext.QuoteIdent(s.home))
		return err
	}
	if _, err := s.conn.ExecContext(ctx, "BEGIN TRANSACTION"); err != nil {
		return fail(err)
	}
	if err := s.applySchema(ctx, alias, op); err != nil {
		return fail(err)
	}
	for _, r := range results {
		s.progress.update(s.status, func(st *Status) { st.Phase, st.Table = PhaseApplication, r.Table })
		if err := apply(ctx, s.conn, r, alias); err != nil {
			if ve := vsqlerr.From(err); strings.HasPrefix(ve.SQLState, "23") {
				return fail(vsqlerr.Wrap(err, vsqlerr.MergeValidationFailed, "the merged table %s breaks a constraint: %s", r.Table, ve.Message))
			}
			return fail(err)
		}
	}
	if err := s.createViews(ctx, alias); err != nil {
		return fail(err)
	}
	if _, err := s.conn.ExecContext(ctx, "COMMIT"); err != nil {
		if ve := vsqlerr.From(err); strings.HasPrefix(ve.SQLState, "23") {
			return fail(vsqlerr.Wrap(err, vsqlerr.MergeValidationFailed, "the merged result breaks a constraint: %s", ve.Message))
		}
		return fail(err)
	}
	for _, r := range results {
		s.progress.update(s.status, func(st *Status) { st.RowsApplied += r.Changes })
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(dst)
		return err
	}
	return out.Close()
}

func newOperationID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (m *Merger) acquire(ctx context.Context) (context.Context, func(), error) {
	release, err := m.limit.acquire(ctx)
	if err != nil || m.Working == nil {
		return ctx, release, err
	}
	ctx, done := m.Working(ctx)
	return ctx, func() { done(); release() }, nil
}

// SetMaxConcurrent changes how many merges may run at once in this process
// (SET vsql_merge_max_concurrent = n); running merges are not affected.
func (m *Merger) SetMaxConcurrent(n int) error {
	if n < 1 || n > 64 {
		return vsqlerr.New(vsqlerr.InvalidArgument, "vsql_merge_max_concurrent must be between 1 and 64, not %d", n)
	}
	m.limit.mu.Lock()
	m.limit.max = n
	m.limit.mu.Unlock()
	return nil
}

// MaxConcurrentNow reports the current limit.
func (m *Merger) MaxConcurrentNow() int {
	m.limit.mu.Lock()
	defer m.limit.mu.Unlock()
	return m.limit.max
}

// concurrency is a counting limit whose size can change.
type concurrency struct {
	mu      sync.Mutex
	max     int
	running int
}

func (c *concurrency) acquire(ctx context.Context) (func(), error) {
	for {
		c.mu.Lock()
		if c.running < c.max {
			c.running++
			c.mu.Unlock()
			var once sync.Once
			return func() {
				once.Do(func() {
					c.mu.Lock()
					c.running--
					c.mu.Unlock()
				})
			}, nil
		}
		c.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// MergeBranch merges branch theirs into ours (destination "" or ours) or
// into a new branch destination.
func (m *Merger) MergeBranch(ctx context.Context, db, ours, theirs, destination string, opt Options) (Result, error) {
	args := map[string]any{"function": "vsql_merge_branch", "db": db, "ours": ours, "theirs": theirs, "destination": destination,
		"expected_base": opt.ExpectedBase, "expected_ours": opt.ExpectedOurs, "expected_theirs": opt.ExpectedTheirs,
		"schema_mode": opt.SchemaMode, "snapshot_target": opt.SnapshotTarget,
		"resolution_tables": opt.Resolutions.Tables, "conflict_strategy": opt.Resolutions.Strategy}
	return m.run(ctx, db, args, opt, func(ctx context.Context, req *catalog.Request) (inputs, float64, error) {
		start := time.Now()
		in, _, err := m.selectBranchInputs(ctx, db, ours, theirs, destination, opt)
		if err != nil {
			return in, 0, err
		}
		if req != nil && req.Ours != 0 {
			// A retried request merges the inputs frozen at its first attempt.
			in.base, in.ours, in.theirs = req.Base, req.Ours, req.Theirs
			in.action = actionFor(in)
		}
		return in, ms(time.Since(start)), nil
	})
}

// noticeUnsnapshotted tells the caller (opt.Notice) that branch theirs
// has writes no snapshot holds: merges read published snapshots only, so
// they are not merged (a merge that finds nothing else to do answers
// already_up_to_date).
func (m *Merger) noticeUnsnapshotted(ctx context.Context, db, theirs string, head int64, opt Options) {
	if opt.Notice == nil {
		return
	}
	if state, _, err := m.versions.TargetState(ctx, db, theirs); err == nil && state == branches.TargetDirty {
		opt.Notice(fmt.Sprintf("branch %q of %q has writes that are not in a snapshot; the merge reads its head, snapshot %d, without them (SELECT * FROM vsql_create_snapshot(%s, branch => %s) first to merge them)",
			theirs, db, head, sqltext.QuoteString(db), sqltext.QuoteString(theirs)))
	}
}

func actionFor(in inputs) string {
	switch {
	case in.base == in.theirs:
		return ActionUpToDate
	case in.base == in.ours:
		return ActionFastForward
	}
	return ActionMerged
}

// MergeSnapshots merges three explicitly chosen snapshots into a new
// branch. The base is trusted as given.
func (m *Merger) MergeSnapshots(ctx context.Context, db, base, ours, theirs, destination string, opt Options) (Result, error) {
	args := map[string]any{"function": "vsql_merge_snapshots", "db": db, "base": base, "ours": ours, "theirs": theirs, "destination": destination,
		"expected_base": opt.ExpectedBase, "expected_ours": opt.ExpectedOurs, "expected_theirs": opt.ExpectedTheirs, "schema_mode": opt.SchemaMode,
		"resolution_tables": opt.Resolutions.Tables, "conflict_strategy": opt.Resolutions.Strategy}
	return m.run(ctx, db, args, opt, func(ctx context.Context, req *catalog.Request) (inputs, float64, error) {
		start := time.Now()
		in, err := m.snapshotInputs(ctx, db, base, ours, theirs, destination)
		if err != nil {
			return in, 0, err
		}
		return in, ms(time.Since(start)), checkExpected(in, opt)
	})
}

func (m *Merger) snapshotInputs(ctx context.Context, db, base, ours, theirs, destination string) (inputs, error) {
	in := inputs{db: db, destination: destination, newBranch: true, action: ActionMerged}
	_, snaps, brs, err := m.snapshots(ctx, db)
	if err != nil {
		return in, err
	}
	if in.base, in.ours, in.theirs, err = snapshotRefs(snaps, db, base, ours, theirs); err != nil {
		return in, err
	}
	if destination == "" {
		return in, vsqlerr.New(vsqlerr.InvalidArgument, "vsql_merge_snapshots needs a destination: the name of a new branch")
	}
	if err := sqltext.ValidName("branch", destination); err != nil {
		return in, vsqlerr.New(vsqlerr.InvalidName, "%v", err)
	}
	if _, exists := brs[destination]; exists {
		return in, vsqlerr.New(vsqlerr.BranchExists, "branch %q of database %q already exists; vsql_merge_snapshots writes a new branch", destination, db)
	}
	return in, nil
}

// run is the common path of a merge: request bookkeeping, selection,
// target check, comparison, application, publication.
func (m *Merger) run(ctx context.Context, db string, args map[string]any, opt Options, selectInputs func(context.Context, *catalog.Request) (inputs, float64, error)) (Result, error) {
	opt.setDefaults()
	if err := m.checkRequestRequired(db, opt); err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	ctx, release, err := m.acquire(ctx)
	if err != nil {
		return Result{}, err
	}
	defer release()

	var res Result
	op := newOperationID()
	var req *catalog.Request
	fresh := false
	if opt.RequestID != "" {
		r, replay, isNew, err := m.beginRequest(ctx, db, opt.RequestID, args, op)
		fresh = isNew
		if err != nil || replay != nil {
			if replay != nil {
				replay.Replayed = true
				return *replay, nil
			}
			return res, err
		}
		req = r
		op = r.OperationID
	}
	var decided []catalog.Resolution
	status := m.progress.start(op, opt.RequestID, db, opt.Progress)
	defer m.progress.finish(op)
	res, err = m.execute(ctx, req, op, opt, &decided, status, selectInputs)
	if err != nil {
		if ctx.Err() == context.DeadlineExceeded {
			err = vsqlerr.Wrap(err, vsqlerr.MergeLimitExceeded, "the merge ran longer than its timeout (%v)", opt.Timeout)
		}
		switch {
		case req != nil && fresh && !res.started:
			// Refused before it started (selection, expected_* guards, the
			// target check): the request_id stays free for the retry.
			err = m.forgetRequest(req, err)
		case req != nil:
			m.recordFailure(req, err, decided)
		}
		return res, err
	}
	res.RequestID, res.OperationID, res.State = opt.RequestID, op, "complete"
	return res, nil
}

// Async runs merge in the background and returns at once with the request
// and operation ids and state running; vsql_merge_requests and
// vsql_merge_status() follow it. Without a request_id, one is made up.
func (m *Merger) Async(ctx context.Context, db string, opt Options, merge func(context.Context, Options) (Result, error)) (Result, error) {
	if opt.RequestID == "" {
		opt.RequestID = "async-" + newOperationID()
	}
	probe := opt
	started := make(chan Result, 1)
	failed := make(chan error, 1)
	m.async.Add(1)
	go func() {
		defer m.async.Done()
		// The merge outlives the statement that started it.
		res, err := merge(context.WithoutCancel(ctx), probe)
		if err != nil {
			m.log.Warn("async merge failed", "request_id", opt.RequestID, "err", err)
			failed <- err
			return
		}
		started <- res
	}()
	// Wait until the request is recorded (or the merge has ended).
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case res := <-started:
			return res, nil
		case err := <-failed:
			return Result{}, err
		default:
		}
		reqs, err := m.Requests(ctx, db, opt.RequestID)
		if err == nil && len(reqs) == 1 {
			r := reqs[0]
			return Result{RequestID: r.RequestID, OperationID: r.OperationID, State: r.State, Branch: r.Destination}, nil
		}
		time.Sleep(5 * time.Millisecond)
	}
	return Result{RequestID: opt.RequestID, State: "running"}, nil
}

// Wait blocks until background merges have ended.
func (m *Merger) Wait() { m.async.Wait() }

func (m *Merger) execute(ctx context.Context, req *catalog.Request, op string, opt Options, decided *[]catalog.Resolution, status *Status, selectInputs func(context.Context, *catalog.Request) (inputs, float64, error)) (Result, error) {
	var res Result
	in, selMS, err := selectInputs(ctx, req)
	res.SelectionMS = selMS
	res.Base, res.Ours, res.Theirs, res.Action, res.Branch = in.base, in.ours, in.theirs, in.action, in.destination
	if req != nil {
		req.Base, req.Ours, req.Theirs, req.MergeAction, req.Destination = in.base, in.ours, in.theirs, in.action, in.destination
	}
	if err != nil {
		return res, err
	}

	m.progress.update(status, func(st *Status) { st.Destination, st.Phase = in.destination, PhaseTargetCheck })
	// The target: clean (its live file is its head), or snapshotted first.
	start := time.Now()
	if !in.newBranch {
		state, head, err := m.versions.TargetState(ctx, in.db, in.destination)
		if err != nil {
			return res, err
		}
		if head != in.ours {
			return res, vsqlerr.New(vsqlerr.MergeInputsChanged, "branch %q moved from snapshot %d to %d", in.destination, in.ours, head)
		}
		if state == branches.TargetDirty {
			if !opt.SnapshotTarget {
				return res, vsqlerr.New(vsqlerr.MergeTargetDirty, "branch %q of %q has writes that are not in a snapshot", in.destination, in.db)
			}
			snap, err := m.versions.CreateSnapshot(ctx, in.db, in.destination, "")
			if err != nil {
				return res, err
			}
			// Merge the snapshot just taken: select again from the new head.
			in.ours = snap.ID
			_, snaps, _, err := m.snapshots(ctx, in.db)
			if err != nil {
				return res, err
			}
			anc := SelectBase(snaps, in.ours, in.theirs)
			if anc.State != SelectionUnique {
				return res, vsqlerr.New(vsqlerr.MergeBaseAmbiguous, "after snapshotting the target, snapshots %d and %d have no unique best common ancestor", in.ours, in.theirs)
			}
			in.base = anc.Base
			in.action = actionFor(in)
			res.Base, res.Ours, res.Action = in.base, in.ours, in.action
			if req != nil {
				req.Base, req.Ours, req.MergeAction = in.base, in.ours, in.action
			}
		}
	}
	res.TargetCheckMS = ms(time.Since(start))
	res.started = true
	if req != nil && m.remoteMerge(in.db) {
		if settled, done, err := m.settle(ctx, req, in, opt, decided); err != nil || done {
			settled.Replayed = done
			return settled, err
		}
	}

	// A merge into ours' own branch writes its result into the branch's
	// live file, which it holds from here to publication (see InPlace).
	var live *branches.InPlace
	if !in.newBranch && !opt.CopyTarget && in.action != ActionUpToDate && in.action != ActionFastForward {
		start := time.Now()
		if live, err = m.versions.OpenInPlace(ctx, in.db, in.destination, in.ours, opt.LockTimeout); err != nil {
			return res, err
		}
		if live != nil {
			defer live.Close()
		}
		res.TargetCheckMS += ms(time.Since(start))
	}

	// Every check a merge runs, fast-forwards and no-ops included.
	s, err := m.open(ctx, in, opt, live)
	if err != nil {
		return res, err
	}
	defer s.close()
	s.status = status
	if err := s.plan.conflictError(); err != nil {
		return res, err
	}

	publication := branches.Publication{DB: in.db, Branch: in.destination, NewBranch: in.newBranch, ExpectHead: in.ours,
		LockTimeout: opt.LockTimeout, Commit: m.completeRequest(req, &res, decided)}
	if req != nil && m.remoteMerge(in.db) {
		publication.Remote = m.s3Steps(req, in, &res)
	}
	if in.newBranch {
		publication.CreatedFrom = fmt.Sprintf("merge of %d and %d", in.ours, in.theirs)
		if in.oursBranch != "" {
			publication.CreatedFrom = fmt.Sprintf("merge of %s@%d and %d", in.oursBranch, in.ours, in.theirs)
		}
	}
	if in.newBranch {
		res.Action = ActionCreatedBranch
	}
	switch in.action {
	case ActionUpToDate, ActionFastForward:
		target := in.ours
		if in.action == ActionFastForward {
			target = in.theirs
		}
		res.Snapshot = target
		start = time.Now()
		if in.action == ActionUpToDate && !in.newBranch {
			err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
				d, err := tx.Database(ctx, in.db)
				if err != nil {
					return err
				}
				return publication.Commit(ctx, tx, d, target)
			})
			res.PublicationMS = ms(time.Since(start))
			return res, err
		}
		publication.Existing = target
		_, err := m.versions.Publish(ctx, publication)
		res.PublicationMS = ms(time.Since(start))
		return res, err
	}

	start = time.Now()
	results, err := s.compareAll(ctx, op)
	if err != nil {
		return res, err
	}
	frozen := ""
	if req != nil {
		frozen = m.frozenPath(in.db, req.OperationID)
	}
	audit, err := m.resolveAll(ctx, s, results, opt.Resolutions, frozen, req != nil, op)
	if err != nil {
		return res, err
	}
	*decided = audit
	res.Methods = map[Method]int{}
	for _, r := range results {
		res.Counts.add(r)
		res.Methods[r.Method]++
	}
	res.ComparisonMS = ms(time.Since(start))
	if res.Conflicts > 0 {
		return res, conflictError(results)
	}
	faults.Point("merge.after_comparison")

	start = time.Now()
	staging := ""
	if live != nil {
		err = m.buildInPlace(ctx, s, results, op, live)
	} else {
		staging, err = m.build(ctx, s, results, op)
	}
	if err != nil {
		return res, err
	}
	if staging != "" {
		defer os.Remove(staging)
	}
	res.ApplicationMS = ms(time.Since(start))
	faults.Point("merge.after_application")

	start = time.Now()
	m.progress.update(status, func(st *Status) { st.Phase, st.Table = PhasePublication, "" })
	publication.File = staging
	publication.Kind = "merge"
	publication.Parents = []int64{in.ours, in.theirs}
	publication.Provenance = m.provenance(ctx, in, opt)
	var pub branches.PublishResult
	if live != nil {
		pub, err = live.Publish(ctx, publication)
	} else {
		pub, err = m.versions.Publish(ctx, publication)
	}
	if err != nil {
		return res, err
	}
	res.Snapshot = pub.Snapshot
	res.PublicationMS = ms(time.Since(start))
	return res, nil
}

func conflictError(results []*TableResult) error {
	var parts []string
	var n int64
	for _, r := range results {
		if r.Conflicts > 0 {
			n += r.Conflicts
			parts = append(parts, fmt.Sprintf("%s: %d", r.Table, r.Conflicts))
		}
	}
	return vsqlerr.New(vsqlerr.MergeConflict, "%d conflicting rows (%s); nothing was published", n, strings.Join(parts, ", "))
}

func (m *Merger) provenance(ctx context.Context, in inputs, opt Options) map[string]any {
	roots := map[string]string{}
	_ = m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, in.db)
		if err != nil {
			return err
		}
		for label, id := range map[string]int64{"base": in.base, "ours": in.ours, "theirs": in.theirs} {
			if s, err := tx.Snapshot(ctx, d.ID, strconv.FormatInt(id, 10)); err == nil {
				roots[label] = s.ContentRoot
			}
		}
		return nil
	})
	mode := opt.SchemaMode
	if mode == "" {
		mode = "strict"
	}
	return map[string]any{
		"operation": "merge", "algorithm": Algorithm, "schema_mode": mode, "request_id": opt.RequestID,
		"inputs": map[string]any{
			"base":   map[string]any{"snapshot_id": in.base, "content_root": roots["base"]},
			"ours":   map[string]any{"snapshot_id": in.ours, "content_root": roots["ours"], "branch": in.oursBranch},
			"theirs": map[string]any{"snapshot_id": in.theirs, "content_root": roots["theirs"]},
		},
	}
}

// beginRequest records a new request or finds the existing one: a
// complete request replays its result; other arguments are refused.
func (m *Merger) beginRequest(ctx context.Context, db, requestID string, args map[string]any, op string) (*catalog.Request, *Result, bool, error) {
	if requestID == "" || len(requestID) > 200 {
		return nil, nil, false, vsqlerr.New(vsqlerr.InvalidArgument, "request_id must be 1 to 200 characters")
	}
	fresh := false
	canon, _ := json.Marshal(args) // map keys are sorted: canonical
	var req catalog.Request
	var replay *Result
	err := m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		d, err := tx.Database(ctx, db)
		if errors.Is(err, catalog.ErrNotFound) {
			return vsqlerr.New(vsqlerr.DatabaseNotFound, "database %q does not exist", db)
		}
		if err != nil {
			return err
		}
		existing, err := tx.Request(ctx, d.ID, requestID)
		switch {
		case errors.Is(err, catalog.ErrNotFound):
			req = catalog.Request{DatabaseID: d.ID, RequestID: requestID, OperationID: op, Arguments: string(canon), State: "running"}
			fresh = true
			return tx.PutRequest(ctx, req)
		case err != nil:
			return err
		}
		if existing.Arguments != string(canon) {
			return vsqlerr.New(vsqlerr.RequestIDReused, "request_id %q was used for a different merge", requestID)
		}
		if existing.State == "aborted" {
			return vsqlerr.New(vsqlerr.MergeAborted, "merge request %q was aborted", requestID)
		}
		req = existing
		if existing.State == "running" {
			return vsqlerr.New(vsqlerr.ActiveTransaction, "merge request %q is running now", requestID).
				WithHint("Wait for it: vsql_merge_status() and vsql_merge_requests show its progress.")
		}
		switch existing.State {
		case "pending", StatePrepared, StateUploaded, StatePublicationUncertain:
			// A retry: the recorded publication (if any) is settled first.
			req.State = "running"
			if err := tx.PutRequest(ctx, req); err != nil {
				return err
			}
		}
		if existing.State == "complete" {
			var r Result
			if err := json.Unmarshal([]byte(existing.ResultRow), &r); err != nil {
				return fmt.Errorf("replay request %q: %w", requestID, err)
			}
			replay = &r
		}
		return nil
	})
	if err != nil {
		return nil, nil, false, err
	}
	return &req, replay, fresh, nil
}

// forgetRequest removes the record of a request whose first attempt was
// refused before it started, so that a retry with the same request_id
// after fixing the cause runs as a first attempt; the error's hint says
// so. If the record cannot be removed, the failure is recorded instead.
func (m *Merger) forgetRequest(req *catalog.Request, cause error) error {
	ctx := context.Background()
	if err := m.cat.Tx(ctx, func(tx *catalog.Tx) error { return tx.DeleteRequest(ctx, req.DatabaseID, req.RequestID) }); err != nil {
		m.recordFailure(req, cause, nil)
		return cause
	}
	ve := vsqlerr.From(cause)
	if ve.Code == "" {
		return cause
	}
	hint := ve.Hint
	if hint != "" {
		hint += " "
	}
	out := *ve
	out.Hint = hint + fmt.Sprintf("The merge did not start, so request_id %q is not bound to it: once the cause is fixed, retry with the same id.", req.RequestID)
	return &out
}

// completeRequest returns the hook that marks the request complete inside
// the publishing transaction.
func (m *Merger) completeRequest(req *catalog.Request, res *Result, decided *[]catalog.Resolution) func(context.Context, *catalog.Tx, catalog.Database, int64) error {
	return func(ctx context.Context, tx *catalog.Tx, d catalog.Database, head int64) error {
		if req == nil {
			return nil
		}
		if err := tx.PutResolutions(ctx, d.ID, req.RequestID, *decided); err != nil {
			return err
		}
		r := *res
		r.Snapshot = head
		r.RequestID, r.OperationID = req.RequestID, req.OperationID
		row, _ := json.Marshal(r)
		req.State, req.Result, req.ResultRow, req.ErrorCode, req.ErrorHint = "complete", head, string(row), "", ""
		req.MergeAction = r.Action
		return tx.PutRequest(ctx, *req)
	}
}

// recordFailure keeps a failed request pending with its error and hint.
func (m *Merger) recordFailure(req *catalog.Request, err error, decided []catalog.Resolution) {
	ve := vsqlerr.From(err)
	req.State, req.ErrorCode, req.ErrorHint = "pending", string(ve.Code), ve.Hint
	if ve.Code == "" {
		req.ErrorCode = ve.SQLState
	}
	ctx := context.Background()
	_ = m.cat.Tx(ctx, func(tx *catalog.Tx) error {
		cur, err := tx.Request(ctx, req.DatabaseID, req.RequestID)
		if err == nil && cur.State != "pending" && cur.State != "running" {
			return nil
		}
		if len(decided) > 0 {
			if err := tx.PutResolutions(ctx, req.DatabaseID, req.RequestID, decided); err != nil {
				return err
			}
		}
		return tx.PutRequest(ctx, *req)
	})
}
