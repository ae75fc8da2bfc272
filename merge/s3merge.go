package merge

import (
	"context"
	"encoding/json"
	"os"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/faults"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/vsqlerr"
)

// Remote publishes the merges of databases that have an S3 remote
// (server wires s3sync.Remotes in; nil: no database has one).
type Remote interface {
	HasRemote(db string) bool
	Upload(ctx context.Context, db, branch string, cm catalog.ChunkMap) (*s3sync.Pending, error)
	PublishHead(ctx context.Context, p *s3sync.Pending) (uncertain bool, err error)
	Settle(ctx context.Context, db, branch, token string) (landed bool, err error)
}

// Request states of a merge published through S3, between running and
// complete: prepared (the result is final and its chunk map recorded),
// uploaded (its packs, descriptor and commit record are in the bucket, the
// head not yet written), publication_uncertain (the head write's outcome
// was lost). A retry of the same request_id settles the last two by
// reading the head back and looking for the request's token.
const (
	StatePrepared             = "prepared"
	StateUploaded             = "uploaded"
	StatePublicationUncertain = "publication_uncertain"
)

// s3Publication is what a request records of its S3 steps (JSON in the
// request's publication column).
type s3Publication struct {
	Step       string `json:"step"`
	Branch     string `json:"branch"`
	Root       string `json:"content_root"`
	Token      string `json:"token,omitempty"`
	Descriptor string `json:"descriptor,omitempty"`
	Result     Result `json:"result"`
}

func (m *Merger) remoteMerge(db string) bool { return m.Remote != nil && m.Remote.HasRemote(db) }

// saveStep records a request's state and publication in one catalog
// transaction.
func (m *Merger) saveStep(ctx context.Context, req *catalog.Request, state string, pub *s3Publication) error {
	req.State = state
	req.Publication = ""
	if pub != nil {
		b, _ := json.Marshal(pub)
		req.Publication = string(b)
	}
	return m.cat.Tx(context.WithoutCancel(ctx), func(tx *catalog.Tx) error { return tx.PutRequest(ctx, *req) })
}

// s3Steps returns the publication callback of an S3 merge: prepared →
// export → conditional head write (the publication point); the local
// catalog transaction that follows completes the request.
func (m *Merger) s3Steps(req *catalog.Request, in inputs, res *Result) func(ctx context.Context, cm catalog.ChunkMap) error {
	return func(ctx context.Context, cm catalog.ChunkMap) error {
		pub := &s3Publication{Step: StatePrepared, Branch: in.destination, Root: cm.Root, Result: *res}
		if err := m.cat.Tx(context.WithoutCancel(ctx), func(tx *catalog.Tx) error { return tx.PutChunkMap(ctx, cm) }); err != nil {
			return err
		}
		if err := m.saveStep(ctx, req, StatePrepared, pub); err != nil {
			return err
		}
		faults.Point("s3merge.after_prepared")
		p, err := m.Remote.Upload(ctx, in.db, in.destination, cm)
		if err != nil {
			_ = m.saveStep(ctx, req, "pending", nil)
			return err
		}
		pub.Step, pub.Token, pub.Descriptor = StateUploaded, p.Token, p.Descriptor
		if err := m.saveStep(ctx, req, StateUploaded, pub); err != nil {
			return err
		}
		faults.Point("s3merge.after_upload")
		uncertain, err := m.Remote.PublishHead(ctx, p)
		if err != nil {
			if uncertain {
				pub.Step = StatePublicationUncertain
				_ = m.saveStep(ctx, req, StatePublicationUncertain, pub)
			} else {
				_ = m.saveStep(ctx, req, "pending", nil)
			}
			return err
		}
		faults.Point("s3merge.after_head_write")
		return nil
	}
}

// settle finishes a request whose head write may have landed: if the
// remote head carries the request's token, the merge is published, and
// only the local completion is left — from the recorded result, never by
// merging again (a second run could write different bytes). done is false
// when the head write did not land: the merge runs again.
func (m *Merger) settle(ctx context.Context, req *catalog.Request, in inputs, opt Options, decided *[]catalog.Resolution) (res Result, done bool, err error) {
	var pub s3Publication
	if req.Publication == "" || json.Unmarshal([]byte(req.Publication), &pub) != nil || pub.Token == "" {
		return res, false, nil
	}
	landed, err := m.Remote.Settle(ctx, in.db, pub.Branch, pub.Token)
	if err != nil {
		return res, false, err
	}
	if !landed {
		return res, false, m.saveStep(ctx, req, "running", nil)
	}
	res = pub.Result
	staging := m.versions.StagingPath("settle-" + req.OperationID + ".duckdb")
	if err := m.versions.MaterializeTo(ctx, in.db, pub.Root, staging); err != nil {
		return res, false, err
	}
	defer os.Remove(staging)
	p := branches.Publication{DB: in.db, Branch: pub.Branch, NewBranch: in.newBranch, ExpectHead: in.ours, LockTimeout: opt.LockTimeout,
		File: staging, Kind: "merge", Parents: []int64{in.ours, in.theirs}, Provenance: m.provenance(ctx, in, opt), NoExport: true,
		Commit: m.completeRequest(req, &res, decided)}
	if in.newBranch {
		p.CreatedFrom = "merge of " + in.oursBranch
	}
	out, err := m.versions.Publish(ctx, p)
	if err != nil {
		return res, false, err
	}
	res.Snapshot = out.Snapshot
	return res, true, nil
}

// checkRequestRequired refuses merges into S3 databases without a
// request_id: their publication spans several durable steps, and only a
// retry of the same request can finish an interrupted one.
func (m *Merger) checkRequestRequired(db string, opt Options) error {
	if m.remoteMerge(db) && opt.RequestID == "" {
		return vsqlerr.New(vsqlerr.MergeRequestRequired, "database %q has an S3 remote: merges into it need request_id =>", db)
	}
	return nil
}
