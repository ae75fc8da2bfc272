package s3sync

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/atomicfile"
	"github.com/vsql/vsql/internal/zblock"
	"github.com/vsql/vsql/vsqlerr"
)

// Blocks is the local block store as s3sync needs it. Packs hold blocks
// in the store's compressed form (package zblock).
type Blocks interface {
	Has(h [32]byte) bool
	// Put stores a block's content (fetched raw from an older remote).
	Put(h [32]byte, data []byte) (int64, error)
	// GetCompressed returns a block compressed, checked against its hash.
	GetCompressed(h [32]byte) ([]byte, error)
	// PutCompressed stores a compressed block the caller has verified.
	PutCompressed(h [32]byte, z []byte) (int64, error)
}

// Descriptor describes one exported snapshot: its chunk map and where
// every chunk is stored (the snapshot's index page). Format 1 is what
// versions before compressed blocks wrote (every chunk raw); format 2 adds
// ChunkLocation.Encoding.
type Descriptor struct {
	Format     int             `json:"format"`
	DB         string          `json:"db"`
	Branch     string          `json:"branch"`
	Root       string          `json:"content_root"`
	FileSize   int64           `json:"file_size"`
	Chunks     []ChunkLocation `json:"chunks"`
	Writer     string          `json:"writer"`
	ExportedAt time.Time       `json:"exported_at"`
}

// ChunkLocation is where one chunk of a snapshot is: a byte range of a
// pack, holding the chunk compressed with Encoding ("zstd") or, when it is
// empty (packs of older versions), raw.
type ChunkLocation struct {
	Hash     string `json:"hash"`
	Pack     string `json:"pack"`
	Offset   int64  `json:"offset"`
	Length   int64  `json:"length"`
	Encoding string `json:"encoding,omitempty"`
}

// descriptorFormat is the format this version writes; readers take it and
// every older one.
const descriptorFormat = 2

// Head is the small object heads/<db>/<branch>: the branch's current
// snapshot descriptor and the unique token of the write that put it there.
type Head struct {
	DB         string `json:"db"`
	Branch     string `json:"branch"`
	Descriptor string `json:"descriptor"`
	Root       string `json:"content_root"`
	Token      string `json:"token"`
	Writer     string `json:"writer"`
}

// maxPack bounds one pack object.
const maxPack = 64 << 20

// Remotes holds the repository's S3 remotes: which database exports where,
// the last head ETag this writer saw per branch, and what is known about
// stored chunks. Its state is the file remotes.json in the repository.
type Remotes struct {
	mu     sync.Mutex
	path   string
	state  remotesFile
	open   func(ctx context.Context, bucket string) (ObjectStore, error)
	stores map[string]ObjectStore
	// known maps a location to the chunks stored there (hash → location).
	known map[string]map[string]ChunkLocation
}

type remotesFile struct {
	Writer    string               `json:"writer"`
	Databases map[string]*dbRemote `json:"databases"`
}

type dbRemote struct {
	URL   string                `json:"url"`
	Heads map[string]*headState `json:"heads"`
	// Exported maps the content roots this writer published to their
	// descriptors: their blocks may be evicted locally and fetched back.
	Exported map[string]string `json:"exported,omitempty"`
}

func (d *dbRemote) exported(root, descriptor string) {
	if d.Exported == nil {
		d.Exported = map[string]string{}
	}
	d.Exported[root] = descriptor
}

type headState struct {
	ETag       string `json:"etag"`
	Descriptor string `json:"descriptor"`
	Root       string `json:"content_root"`
	Token      string `json:"token"`
}

// remoteOf returns db's remote, its location and its bucket's store; a
// nil remote (and no error) when db has none. r.mu must be held.
func (r *Remotes) remoteOf(ctx context.Context, db string) (*dbRemote, Location, ObjectStore, error) {
	d := r.state.Databases[db]
	if d == nil {
		return nil, Location{}, nil, nil
	}
	loc, err := ParseLocation(d.URL)
	if err != nil {
		return nil, loc, nil, err
	}
	s, err := r.store(ctx, loc.Bucket)
	if err != nil {
		return nil, loc, nil, err
	}
	return d, loc, s, nil
}

// OpenRemotes reads dataDir/remotes.json (created on first use). open
// returns the object store of a bucket (NewAWSStore in production).
func OpenRemotes(dataDir string, open func(ctx context.Context, bucket string) (ObjectStore, error)) (*Remotes, error) {
	r := &Remotes{path: filepath.Join(dataDir, "remotes.json"), open: open, stores: map[string]ObjectStore{}, known: map[string]map[string]ChunkLocation{}}
	data, err := os.ReadFile(r.path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		r.state = remotesFile{Writer: randomToken(), Databases: map[string]*dbRemote{}}
	case err != nil:
		return nil, err
	default:
		if err := json.Unmarshal(data, &r.state); err != nil {
			return nil, fmt.Errorf("read %s: %w", r.path, err)
		}
		if r.state.Databases == nil {
			r.state.Databases = map[string]*dbRemote{}
		}
	}
	return r, nil
}

// save replaces remotes.json atomically and durably (mode 0600).
func (r *Remotes) save() error {
	data, err := json.MarshalIndent(r.state, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(r.path, data, 0o600)
}

func randomToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (r *Remotes) store(ctx context.Context, bucket string) (ObjectStore, error) {
	if s := r.stores[bucket]; s != nil {
		return s, nil
	}
	s, err := r.open(ctx, bucket)
	if err != nil {
		return nil, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "open bucket %s: %v", bucket, err)
	}
	r.stores[bucket] = s
	return s, nil
}

// Remote is a database's remote location ("" when it has none).
func (r *Remotes) Remote(db string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d := r.state.Databases[db]; d != nil {
		return d.URL
	}
	return ""
}

// URLs lists every database's remote location (s3://bucket/prefix/).
func (r *Remotes) URLs() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.state.Databases))
	for _, d := range r.state.Databases {
		out = append(out, d.URL)
	}
	return out
}

// SetRemote makes db export every later snapshot to url, after checking
// that the bucket answers.
func (r *Remotes) SetRemote(ctx context.Context, db, rawURL string) error {
	loc, err := ParseLocation(rawURL)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.store(ctx, loc.Bucket)
	if err != nil {
		return err
	}
	if _, _, err := s.Get(ctx, loc.Key(headKey(db, "main"))); err != nil && !errors.Is(err, ErrNotFound) {
		return vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "reach %s: %v", loc, err)
	}
	if d := r.state.Databases[db]; d != nil && d.URL == loc.String() {
		return nil
	}
	r.state.Databases[db] = &dbRemote{URL: loc.String(), Heads: map[string]*headState{}}
	return r.save()
}

// ExportSnapshot exports a snapshot of db's branch before it is recorded
// locally (branches calls it under the branch's exclusive gate): Upload,
// then PublishHead. A database without a remote exports nothing.
func (r *Remotes) ExportSnapshot(ctx context.Context, db, branch string, cm catalog.ChunkMap, blocks Blocks) error {
	p, err := r.Upload(ctx, db, branch, cm, blocks)
	if err != nil || p == nil {
		return err
	}
	_, err = r.PublishHead(ctx, p)
	return err
}

// Pending is an uploaded snapshot whose head write has not happened yet.
type Pending struct {
	DB, Branch, Descriptor, Root, Token string
	body                                []byte
}

// Upload stores what a snapshot of db's branch needs in the bucket: the
// chunks the remote lacks go into new packs (content-addressed, written
// unconditionally, Content-MD5 checked), then the descriptor and a commit
// record carrying this publication's unique token. Nothing is visible to
// readers until PublishHead. It returns nil when db has no remote.
func (r *Remotes) Upload(ctx context.Context, db, branch string, cm catalog.ChunkMap, blocks Blocks) (*Pending, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, loc, s, err := r.remoteOf(ctx, db)
	if d == nil || err != nil {
		return nil, err
	}
	known := r.known[loc.String()]
	if known == nil {
		known = map[string]ChunkLocation{}
		r.known[loc.String()] = known
		// Learn what the heads this writer knows already store.
		for _, h := range d.Heads {
			if desc, err := readDescriptor(ctx, s, loc, h.Descriptor); err == nil && readable(h.Descriptor, desc) == nil {
				for _, c := range desc.Chunks {
					known[c.Hash] = c
				}
			}
		}
	}
	desc := Descriptor{Format: descriptorFormat, DB: db, Branch: branch, Root: cm.Root, FileSize: cm.FileSize, Writer: r.state.Writer, ExportedAt: time.Now().UTC()}
	var pack bytes.Buffer
	var pending []int // indexes into desc.Chunks waiting for the current pack
	flush := func() error {
		if pack.Len() == 0 {
			return nil
		}
		sum := sha256.Sum256(pack.Bytes())
		key := packKey(hex.EncodeToString(sum[:]))
		if _, err := s.Put(ctx, loc.Key(key), pack.Bytes()); err != nil {
			return vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "upload %s: %v", key, err)
		}
		for _, i := range pending {
			desc.Chunks[i].Pack = key
			known[desc.Chunks[i].Hash] = desc.Chunks[i]
		}
		pack.Reset()
		pending = pending[:0]
		return nil
	}
	inThisExport := map[string]int{}
	for _, h := range cm.Chunks {
		hash := hex.EncodeToString(h[:])
		if c, ok := known[hash]; ok {
			desc.Chunks = append(desc.Chunks, c)
			continue
		}
		if i, ok := inThisExport[hash]; ok { // the same block twice in one file
			desc.Chunks = append(desc.Chunks, desc.Chunks[i])
			pending = append(pending, len(desc.Chunks)-1)
			continue
		}
		data, err := blocks.GetCompressed(h)
		if err != nil {
			return nil, err
		}
		if pack.Len()+len(data) > maxPack {
			if err := flush(); err != nil {
				return nil, err
			}
		}
		inThisExport[hash] = len(desc.Chunks)
		desc.Chunks = append(desc.Chunks, ChunkLocation{Hash: hash, Offset: int64(pack.Len()), Length: int64(len(data)), Encoding: zblock.Zstd})
		pending = append(pending, len(desc.Chunks)-1)
		pack.Write(data)
	}
	if err := flush(); err != nil {
		return nil, err
	}
	body, _ := json.Marshal(desc)
	sum := sha256.Sum256(body)
	dkey := descriptorKey(db, cm.Root, hex.EncodeToString(sum[:8]))
	if _, err := s.Put(ctx, loc.Key(dkey), body); err != nil {
		return nil, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "upload %s: %v", dkey, err)
	}
	head := Head{DB: db, Branch: branch, Descriptor: dkey, Root: cm.Root, Token: randomToken(), Writer: r.state.Writer}
	hbody, _ := json.Marshal(head)
	if _, err := s.Put(ctx, loc.Key(commitKey(db, branch, head.Token)), hbody); err != nil {
		return nil, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "upload commit record: %v", err)
	}
	return &Pending{DB: db, Branch: branch, Descriptor: dkey, Root: cm.Root, Token: head.Token, body: hbody}, nil
}

// PublishHead moves the branch's head to an uploaded snapshot with a
// conditional write — If-Match on the ETag this writer last saw,
// If-None-Match for a new branch — the publication point. A lost race is
// head_conflict. An error that leaves it unknown whether the write landed
// has uncertain set: Settle decides it later by the token.
func (r *Remotes) PublishHead(ctx context.Context, p *Pending) (uncertain bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.state.Databases[p.DB]
	if d == nil {
		return false, vsqlerr.New(vsqlerr.InvalidArgument, "database %q has no remote", p.DB)
	}
	loc, err := ParseLocation(d.URL)
	if err != nil {
		return false, err
	}
	s, err := r.store(ctx, loc.Bucket)
	if err != nil {
		return false, err
	}
	head := Head{DB: p.DB, Branch: p.Branch, Descriptor: p.Descriptor, Root: p.Root, Token: p.Token, Writer: r.state.Writer}
	etag, err := r.writeHead(ctx, s, loc, head, p.body, d.Heads[p.Branch])
	if err != nil {
		return !vsqlerr.IsCode(err, vsqlerr.HeadConflict), err
	}
	d.Heads[p.Branch] = &headState{ETag: etag, Descriptor: p.Descriptor, Root: p.Root, Token: p.Token}
	d.exported(p.Root, p.Descriptor)
	return false, r.save()
}

// Settle reads a branch's remote head and reports whether it holds the
// publication with token; if so, this writer adopts it as the head it last
// saw. It is how a retry learns whether a head write whose outcome was
// lost (a crash, a dropped response) landed.
func (r *Remotes) Settle(ctx context.Context, db, branch, token string) (landed bool, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d := r.state.Databases[db]
	if d == nil {
		return false, vsqlerr.New(vsqlerr.InvalidArgument, "database %q has no remote", db)
	}
	loc, err := ParseLocation(d.URL)
	if err != nil {
		return false, err
	}
	s, err := r.store(ctx, loc.Bucket)
	if err != nil {
		return false, err
	}
	data, etag, err := s.Get(ctx, loc.Key(headKey(db, branch)))
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "read the head of %s/%s: %v", db, branch, err)
	}
	var h Head
	if err := json.Unmarshal(data, &h); err != nil || h.Token != token {
		return false, nil
	}
	d.Heads[branch] = &headState{ETag: etag, Descriptor: h.Descriptor, Root: h.Root, Token: h.Token}
	d.exported(h.Root, h.Descriptor)
	return true, r.save()
}

// writeHead moves the head with a conditional write and settles the
// ambiguous cases by reading the head back: a lost response to a write
// that landed shows this write's token; a head this writer wrote before a
// crash (same writer, same content root) is adopted.
func (r *Remotes) writeHead(ctx context.Context, s ObjectStore, loc Location, head Head, body []byte, prev *headState) (string, error) {
	key := loc.Key(headKey(head.DB, head.Branch))
	ifMatch := ""
	if prev != nil {
		ifMatch = prev.ETag
	}
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		etag, err := s.PutIf(ctx, key, body, ifMatch)
		if err == nil {
			return etag, nil
		}
		lastErr = err
		if errors.Is(err, ErrConditionalConflict) {
			time.Sleep(time.Duration(50<<attempt) * time.Millisecond)
			continue
		}
		// Read the head back: did this write land after all, or who holds it?
		data, cur, gerr := s.Get(ctx, key)
		if gerr != nil && !errors.Is(gerr, ErrNotFound) {
			return "", vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "write %s: %v (and reading it back: %v)", key, err, gerr)
		}
		var other Head
		if gerr == nil {
			_ = json.Unmarshal(data, &other)
			if other.Token == head.Token {
				return cur, nil // the write landed; its response was lost
			}
		}
		if !errors.Is(err, ErrPrecondition) && !errors.Is(err, ErrNotFound) {
			return "", vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "write %s: %v", key, err)
		}
		if gerr == nil && other.Writer == r.state.Writer && (prev == nil || other.Root == head.Root || other.Token == prev.Token) {
			// This writer's own earlier head (a crash after the write, before
			// the local record): continue from it.
			ifMatch = cur
			continue
		}
		holder := "another writer"
		if gerr == nil {
			holder = fmt.Sprintf("writer %s (content root %.12s…)", other.Writer, other.Root)
		}
		return "", vsqlerr.New(vsqlerr.HeadConflict, "the head %s moved: %s holds it; this snapshot was not recorded", loc.String()+headKey(head.DB, head.Branch), holder)
	}
	return "", vsqlerr.Wrap(lastErr, vsqlerr.RemoteUnavailable, "write %s: %v", key, lastErr)
}

func readDescriptor(ctx context.Context, s ObjectStore, loc Location, key string) (Descriptor, error) {
	var d Descriptor
	data, _, err := s.Get(ctx, loc.Key(key))
	if err != nil {
		return d, err
	}
	err = json.Unmarshal(data, &d)
	return d, err
}

// readable refuses a descriptor of a format later than this version knows.
func readable(key string, d Descriptor) error {
	if d.Format > descriptorFormat {
		return vsqlerr.New(vsqlerr.FeatureNotSupported, "descriptor %s has format %d; this vsqld reads formats up to %d", key, d.Format, descriptorFormat).
			WithHint("A newer vsqld wrote this remote; upgrade vsqld to read it.")
	}
	return nil
}

// FetchHead reads a remote head and makes every chunk of its snapshot
// local: missing blocks are read from their packs, verified against their
// hashes (a mismatch is storage_corrupt naming the object, and the block is
// never stored) and stored. It returns the head's ETag and chunk map.
func (r *Remotes) FetchHead(ctx context.Context, h HeadURL, blocks Blocks) (etag string, cm catalog.ChunkMap, err error) {
	r.mu.Lock()
	s, err := r.store(ctx, h.Bucket)
	r.mu.Unlock()
	if err != nil {
		return "", cm, err
	}
	data, etag, err := s.Get(ctx, h.Key(headKey(h.DB, h.Branch)))
	if errors.Is(err, ErrNotFound) {
		return "", cm, vsqlerr.New(vsqlerr.BranchNotFound, "no remote head at %s", h)
	}
	if err != nil {
		return "", cm, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "read %s: %v", h, err)
	}
	var head Head
	if err := json.Unmarshal(data, &head); err != nil {
		return "", cm, vsqlerr.New(vsqlerr.StorageCorrupt, "the head %s is not a vsql head: %v", h, err)
	}
	desc, err := readDescriptor(ctx, s, h.Location, head.Descriptor)
	if err != nil {
		return "", cm, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "read descriptor %s: %v", head.Descriptor, err)
	}
	if err := readable(head.Descriptor, desc); err != nil {
		return "", cm, err
	}
	cm, err = fetchBlocks(ctx, s, h.Location, desc, blocks)
	return etag, cm, err
}

// fetchBlocks makes a descriptor's chunks local: each block the store
// lacks is read from its pack, decompressed if it is compressed, and
// verified against its hash before it is stored (compressed as it came, or
// compressed by the store when the pack held it raw).
func fetchBlocks(ctx context.Context, s ObjectStore, loc Location, desc Descriptor, blocks Blocks) (catalog.ChunkMap, error) {
	cm := catalog.ChunkMap{Root: desc.Root, FileSize: desc.FileSize}
	buf := make([]byte, 0, zblock.MaxSize)
	for _, c := range desc.Chunks {
		var hash [32]byte
		b, err := hex.DecodeString(c.Hash)
		if err != nil || len(b) != 32 {
			return cm, vsqlerr.New(vsqlerr.StorageCorrupt, "descriptor of %s names an invalid hash %q", desc.Root, c.Hash)
		}
		copy(hash[:], b)
		cm.Chunks = append(cm.Chunks, hash)
		if blocks.Has(hash) {
			continue
		}
		data, err := s.GetRange(ctx, loc.Key(c.Pack), c.Offset, c.Length)
		if err != nil {
			return cm, vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "read %s: %v", loc.String()+c.Pack, err)
		}
		content, err := decodeFetched(c.Encoding, data, buf)
		if err == nil && sha256.Sum256(content) != hash {
			err = errors.New("does not match its hash")
		}
		if err != nil {
			return cm, vsqlerr.New(vsqlerr.StorageCorrupt, "block %s read from %s at offset %d %v; it was not used",
				c.Hash, loc.String()+c.Pack, c.Offset, err)
		}
		if c.Encoding == "" {
			_, err = blocks.Put(hash, content)
		} else {
			_, err = blocks.PutCompressed(hash, data)
		}
		if err != nil {
			return cm, err
		}
	}
	return cm, nil
}

// decodeFetched returns the content of a chunk fetched in the given
// encoding (buf is scratch space for decompressing).
func decodeFetched(encoding string, data, buf []byte) ([]byte, error) {
	switch encoding {
	case "":
		return data, nil
	case zblock.Zstd:
		content, err := zblock.Decompress(buf, data)
		if err != nil {
			return nil, fmt.Errorf("does not decode (%v)", err)
		}
		return content, nil
	}
	return nil, fmt.Errorf("has the unknown encoding %q", encoding)
}

// ExportedRoots lists the content roots this repository exported, whose
// blocks S3 holds.
func (r *Remotes) ExportedRoots() map[string]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]bool{}
	for _, d := range r.state.Databases {
		for root := range d.Exported {
			out[root] = true
		}
	}
	return out
}

// FetchExported brings back the evicted blocks of a snapshot db exported,
// each verified, so it can be materialized again.
func (r *Remotes) FetchExported(ctx context.Context, db string, want catalog.ChunkMap, blocks Blocks) error {
	r.mu.Lock()
	d := r.state.Databases[db]
	var key, url string
	if d != nil {
		key, url = d.Exported[want.Root], d.URL
	}
	r.mu.Unlock()
	if key == "" {
		return vsqlerr.New(vsqlerr.StorageCorrupt, "blocks of snapshot %s of %q are missing and it was never exported", want.Root, db)
	}
	loc, err := ParseLocation(url)
	if err != nil {
		return err
	}
	r.mu.Lock()
	s, err := r.store(ctx, loc.Bucket)
	r.mu.Unlock()
	if err != nil {
		return err
	}
	desc, err := readDescriptor(ctx, s, loc, key)
	if err != nil {
		return vsqlerr.Wrap(err, vsqlerr.RemoteUnavailable, "read descriptor %s: %v", key, err)
	}
	if err := readable(key, desc); err != nil {
		return err
	}
	if desc.Root != want.Root {
		return vsqlerr.New(vsqlerr.StorageCorrupt, "descriptor %s describes %s, not %s", key, desc.Root, want.Root)
	}
	_, err = fetchBlocks(ctx, s, loc, desc, blocks)
	return err
}

// HeadETag reads only whether a remote head moved (for followers).
func (r *Remotes) HeadETag(ctx context.Context, h HeadURL) (string, error) {
	r.mu.Lock()
	s, err := r.store(ctx, h.Bucket)
	r.mu.Unlock()
	if err != nil {
		return "", err
	}
	_, etag, err := s.Get(ctx, h.Key(headKey(h.DB, h.Branch)))
	return etag, err
}
