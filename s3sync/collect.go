package s3sync

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/vsql/vsql/vsqlerr"
)

// CollectReport says what a remote gc removed.
type CollectReport struct {
	DescriptorsRemoved, PacksRemoved int
	BytesRemoved                     int64
	DescriptorsKept, PacksKept       int
}

// Collect removes from db's remote the snapshot descriptors this writer
// exported for content roots that keep does not name, and then every pack
// that no remaining descriptor at the location names (packs are shared by
// the databases exporting to one location). It keeps the descriptors of
// every branch head, those other writers wrote, and any object modified
// within grace (an upload in progress; a reader that fetched an older head
// a moment ago). Descriptors go before packs, so a descriptor never names
// a missing pack; a crash in between leaves packs for the next pass.
// Collect holds the remotes' lock, so no export runs meanwhile, and it
// forgets what it knew of stored chunks (the next export relearns them
// from the heads). A database without a remote, or a store that cannot
// list, is not collected (a zero report).
func (r *Remotes) Collect(ctx context.Context, db string, keep map[string]bool, grace time.Duration) (CollectReport, error) {
	var rep CollectReport
	r.mu.Lock()
	defer r.mu.Unlock()
	d, loc, s, err := r.remoteOf(ctx, db)
	if d == nil || err != nil {
		return rep, err
	}
	c, ok := s.(Collector)
	if !ok {
		return rep, nil
	}
	fail := func(err error) (CollectReport, error) {
		return rep, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "remote gc of %q at %s: %v", db, loc, err)
	}
	cutoff := time.Now().Add(-grace)
	heads, err := c.List(ctx, loc.Key("heads/"+db+"/"))
	if err != nil {
		return fail(err)
	}
	headDescriptors := map[string]bool{}
	for _, h := range heads {
		body, _, err := s.Get(ctx, h.Key)
		if err != nil {
			return fail(err)
		}
		var head Head
		if err := json.Unmarshal(body, &head); err != nil {
			return fail(err)
		}
		headDescriptors[head.Descriptor] = true
	}
	descriptors, err := c.List(ctx, loc.Key("snapshots/"))
	if err != nil {
		return fail(err)
	}
	ours := loc.Key("snapshots/" + db + "/")
	var drop []ObjectInfo
	referenced := map[string]bool{} // pack keys, relative to the location
	for _, o := range descriptors {
		rel := strings.TrimPrefix(o.Key, loc.Prefix)
		body, _, err := s.Get(ctx, o.Key)
		if err != nil {
			return fail(err)
		}
		var desc Descriptor
		if err := json.Unmarshal(body, &desc); err != nil {
			return fail(err)
		}
		if strings.HasPrefix(o.Key, ours) && desc.Writer == r.state.Writer && !keep[desc.Root] &&
			!headDescriptors[rel] && o.LastModified.Before(cutoff) {
			drop = append(drop, o)
			continue
		}
		rep.DescriptorsKept++
		for _, ch := range desc.Chunks {
			referenced[ch.Pack] = true
		}
	}
	dropped := map[string]bool{}
	for _, o := range drop {
		if err := c.Delete(ctx, o.Key); err != nil {
			return fail(err)
		}
		dropped[strings.TrimPrefix(o.Key, loc.Prefix)] = true
		rep.DescriptorsRemoved++
		rep.BytesRemoved += o.Size
	}
	delete(r.known, loc.String())
	for root, key := range d.Exported {
		if dropped[key] {
			delete(d.Exported, root)
		}
	}
	if rep.DescriptorsRemoved > 0 {
		if err := r.save(); err != nil {
			return rep, err
		}
	}
	packs, err := c.List(ctx, loc.Key("packs/"))
	if err != nil {
		return fail(err)
	}
	for _, o := range packs {
		if referenced[strings.TrimPrefix(o.Key, loc.Prefix)] || !o.LastModified.Before(cutoff) {
			rep.PacksKept++
			continue
		}
		if err := c.Delete(ctx, o.Key); err != nil {
			return fail(err)
		}
		rep.PacksRemoved++
		rep.BytesRemoved += o.Size
	}
	return rep, nil
}
