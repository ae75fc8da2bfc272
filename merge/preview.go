package merge

import (
	"context"
	"errors"
	"os"

	"github.com/vsql/vsql/vsqlerr"
)

// Validation states of previews and preflights.
const (
	ValidationNotChecked = "not_checked"
	ValidationValid      = "valid"
	ValidationInvalid    = "invalid"
)

// PreviewRow is one table (or view) of a merge preview.
type PreviewRow struct {
	ObjectType, ObjectName, TableName string
	Base, Ours, Theirs                int64
	Counts
	ResolvedConflicts int64
	Details           []ConflictDetail
	// TableAction, relative to the base: add (a new table), drop (removed),
	// merge (rows change) or unchanged; "" for views.
	TableAction     string
	SchemaChanges   []SchemaChange
	ViewChange      *ViewChange // views only
	SchemaConflicts []SchemaConflict
	ValidationState string
}

// PreviewBranch compares what merging theirs into ours would do, writing
// nothing. With Validate, it also builds the result in disposable staging
// and checks every constraint.
func (m *Merger) PreviewBranch(ctx context.Context, db, ours, theirs string, opt Options) ([]PreviewRow, error) {
	in, _, err := m.selectBranchInputs(ctx, db, ours, theirs, ours, opt)
	if err != nil {
		return nil, err
	}
	return m.preview(ctx, in, opt)
}

// PreviewSnapshots is PreviewBranch for three explicit snapshots.
func (m *Merger) PreviewSnapshots(ctx context.Context, db, base, ours, theirs string, opt Options) ([]PreviewRow, error) {
	in := inputs{db: db, action: ActionMerged}
	_, snaps, _, err := m.snapshots(ctx, db)
	if err != nil {
		return nil, err
	}
	if in.base, in.ours, in.theirs, err = snapshotRefs(snaps, db, base, ours, theirs); err != nil {
		return nil, err
	}
	return m.preview(ctx, in, opt)
}

func (m *Merger) preview(ctx context.Context, in inputs, opt Options) ([]PreviewRow, error) {
	ctx, release, err := m.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	s, err := m.open(ctx, in, opt, nil)
	if err != nil {
		return nil, err
	}
	defer s.close()
	op := newOperationID()
	results, err := s.compareAll(ctx, op)
	if err != nil {
		return nil, err
	}
	if _, err := m.resolveAll(ctx, s, results, opt.Resolutions, "", false, op); err != nil {
		return nil, err
	}
	validation := ValidationNotChecked
	if opt.Validate && s.plan.conflictError() == nil {
		validation, err = m.validate(ctx, s, results, op)
		if err != nil {
			return nil, err
		}
	}
	byTable := map[string]*TableResult{}
	for _, r := range results {
		byTable[r.Table] = r
	}
	var rows []PreviewRow
	for _, tp := range s.plan.tables {
		row := PreviewRow{ObjectType: "table", ObjectName: tp.name, TableName: tp.name, Base: in.base, Ours: in.ours, Theirs: in.theirs,
			TableAction: "unchanged", SchemaChanges: tp.changes, SchemaConflicts: tp.conflicts, ValidationState: validation}
		if r := byTable[tp.name]; r != nil {
			row.Details, row.ResolvedConflicts = r.Details, r.Resolved
			row.Counts.add(r)
			if r.Compared > 0 {
				row.TableAction = "merge"
			}
		}
		if tp.action != "" {
			row.TableAction = tp.action
		}
		rows = append(rows, row)
	}
	for _, v := range s.plan.views {
		change := v.change
		rows = append(rows, PreviewRow{ObjectType: "view", ObjectName: v.name, Base: in.base, Ours: in.ours, Theirs: in.theirs,
			ViewChange: &change, SchemaConflicts: v.conflicts, ValidationState: validation})
	}
	return rows, nil
}

// validate builds the result in staging and throws it away: valid, or
// invalid when a constraint breaks; not_checked when conflicts stop the
// build.
func (m *Merger) validate(ctx context.Context, s *session, results []*TableResult, op string) (string, error) {
	for _, r := range results {
		if r.Conflicts > 0 {
			return ValidationNotChecked, nil
		}
	}
	staging, err := m.build(ctx, s, results, op)
	if vsqlerr.IsCode(err, vsqlerr.MergeValidationFailed) {
		return ValidationInvalid, nil
	}
	if err != nil {
		return "", err
	}
	os.Remove(staging)
	return ValidationValid, nil
}

// Preflight is the one-row answer of vsql_merge_branch_preflight.
type Preflight struct {
	Ready                           bool
	Action, TargetState, Validation string
	Base, Ours, Theirs              int64
	Issues                          []string
}

// PreflightBranch runs every check a merge would run, without writing:
// base selection, the target's state, supported objects, conflicts and
// (always) validation. Problems are reported as issues ("code: message").
func (m *Merger) PreflightBranch(ctx context.Context, db, ours, theirs, destination string, opt Options) (Preflight, error) {
	p := Preflight{Validation: ValidationNotChecked}
	issue := func(err error) {
		ve := vsqlerr.From(err)
		code := string(ve.Code)
		if code == "" {
			code = ve.SQLState
		}
		p.Issues = append(p.Issues, code+": "+ve.Message)
	}
	in, _, err := m.selectBranchInputs(ctx, db, ours, theirs, destination, opt)
	p.Base, p.Ours, p.Theirs, p.Action = in.base, in.ours, in.theirs, in.action
	if in.newBranch && in.action != "" {
		p.Action = ActionCreatedBranch
	}
	if err != nil {
		var ve *vsqlerr.Error
		if errors.As(err, &ve) && (ve.Code == vsqlerr.DatabaseNotFound || ve.Code == vsqlerr.BranchNotFound || ve.Code == vsqlerr.InvalidName) {
			return p, err
		}
		issue(err)
		return p, nil
	}
	p.TargetState = "new"
	if !in.newBranch {
		state, _, err := m.versions.TargetState(ctx, db, in.destination)
		if err != nil {
			return p, err
		}
		p.TargetState = state
		switch state {
		case "dirty":
			if !opt.SnapshotTarget {
				issue(vsqlerr.New(vsqlerr.MergeTargetDirty, "branch %q has writes that are not in a snapshot", in.destination))
			}
		case "busy":
			issue(vsqlerr.New(vsqlerr.ActiveTransaction, "a session attached to branch %q has an open transaction", in.destination))
		}
	}
	ctx, release, err := m.acquire(ctx)
	if err != nil {
		return p, err
	}
	defer release()
	s, err := m.open(ctx, in, opt, nil)
	if err != nil {
		issue(err)
		return p, nil
	}
	defer s.close()
	if in.action == ActionMerged {
		op := newOperationID()
		results, err := s.compareAll(ctx, op)
		if err != nil {
			return p, err
		}
		if err := s.plan.conflictError(); err != nil {
			issue(err)
			return p, nil
		}
		if _, err := m.resolveAll(ctx, s, results, opt.Resolutions, "", false, op); err != nil {
			issue(err)
			return p, nil
		}
		for _, r := range results {
			if r.Conflicts > 0 {
				issue(conflictError(results))
				break
			}
		}
		if p.Validation, err = m.validate(ctx, s, results, op); err != nil {
			return p, err
		}
		if p.Validation == ValidationInvalid {
			issue(vsqlerr.New(vsqlerr.MergeValidationFailed, "the merged result breaks a constraint"))
		}
	} else {
		p.Validation = ValidationValid // nothing to build: an existing snapshot
	}
	p.Ready = len(p.Issues) == 0
	return p, nil
}

// AncestryOf resolves two snapshot refs (ids, names, or branch names for
// their heads) and returns their ancestry.
func (m *Merger) AncestryOf(ctx context.Context, db, a, b string) (Ancestry, error) {
	_, snaps, brs, err := m.snapshots(ctx, db)
	if err != nil {
		return Ancestry{}, err
	}
	resolve := func(ref string) (int64, error) {
		if br, ok := brs[ref]; ok && br.Head > 0 {
			return br.Head, nil
		}
		return snapshotRef(snaps, db, ref)
	}
	ia, err := resolve(a)
	if err != nil {
		return Ancestry{}, err
	}
	ib, err := resolve(b)
	if err != nil {
		return Ancestry{}, err
	}
	return SelectBase(snaps, ia, ib), nil
}
