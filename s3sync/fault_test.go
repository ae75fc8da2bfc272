package s3sync

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/internal/s3test"
	"github.com/vsql/vsql/internal/zblock"
	"github.com/vsql/vsql/vsqlerr"
)

// faultTransport injects failures into requests to the real S3 server
// (versitygw). It is a fake only for faults the real server cannot be made
// to produce: 500s, stalls, 409 ConditionalRequestConflict (real AWS only)
// and a lost response to a write that landed.
type faultTransport struct {
	mu     sync.Mutex
	faults []string // applied one per matching request, in order
	landed int      // head writes the server accepted
}

func (f *faultTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	isHead := req.Method == http.MethodPut && strings.Contains(req.URL.Path, "/heads/")
	f.mu.Lock()
	fault := ""
	if isHead && len(f.faults) > 0 {
		fault, f.faults = f.faults[0], f.faults[1:]
	}
	f.mu.Unlock()
	reply := func(code int, body string) (*http.Response, error) {
		if req.Body != nil {
			io.Copy(io.Discard, req.Body)
			req.Body.Close()
		}
		return &http.Response{StatusCode: code, Status: http.StatusText(code), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
			Header: http.Header{"Content-Type": {"application/xml"}}, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	}
	switch fault {
	case "500":
		return reply(500, "<Error><Code>InternalError</Code><Message>injected</Message></Error>")
	case "409":
		return reply(409, "<Error><Code>ConditionalRequestConflict</Code><Message>injected</Message></Error>")
	case "stall":
		select {
		case <-req.Context().Done():
			return nil, req.Context().Err()
		case <-time.After(10 * time.Second):
			return nil, errors.New("injected stall")
		}
	}
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil && isHead && resp.StatusCode == 200 {
		f.mu.Lock()
		f.landed++
		f.mu.Unlock()
	}
	if fault == "lose" && err == nil {
		resp.Body.Close()
		return nil, errors.New("injected: connection reset after the server answered")
	}
	return resp, err
}

// memBlocks keeps block contents in memory, compressing on the way out as
// the block store does.
type memBlocks map[[32]byte][]byte

func (m memBlocks) Has(h [32]byte) bool { _, ok := m[h]; return ok }
func (m memBlocks) GetCompressed(h [32]byte) ([]byte, error) {
	return zblock.Compress(nil, m[h]), nil
}
func (m memBlocks) Put(h [32]byte, d []byte) (int64, error) {
	m[h] = d
	return int64(len(d)), nil
}
func (m memBlocks) PutCompressed(h [32]byte, z []byte) (int64, error) {
	d, err := zblock.Decompress(nil, z)
	m[h] = d
	return int64(len(z)), err
}

func fakeSnapshot(blocks memBlocks, texts ...string) catalog.ChunkMap {
	cm := catalog.ChunkMap{}
	for _, s := range texts {
		h := sha256.Sum256([]byte(s))
		blocks[h] = []byte(s)
		cm.Chunks = append(cm.Chunks, h)
		cm.FileSize += int64(len(s))
	}
	cm.Root = fmt.Sprintf("%x", sha256.Sum256([]byte(strings.Join(texts, "|"))))
	return cm
}

func TestHeadWritesUnderFaults(t *testing.T) {
	s3test.Start(t)
	ctx := context.Background()
	plain, err := NewAWSStore(ctx, "faults", AWSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.CreateBucket(ctx); err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		name   string
		faults []string
	}{
		{"500s are retried", []string{"500", "500"}},
		{"a stalled request times out and is retried", []string{"stall"}},
		{"409 ConditionalRequestConflict is retried", []string{"409", "409"}},
		{"a lost response to a write that landed is settled by reading the head", []string{"lose"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ft := &faultTransport{}
			r, err := OpenRemotes(t.TempDir(), func(ctx context.Context, bucket string) (ObjectStore, error) {
				return NewAWSStore(ctx, bucket, AWSOptions{HTTPClient: &http.Client{Transport: ft, Timeout: 2 * time.Second}})
			})
			if err != nil {
				t.Fatal(err)
			}
			db := fmt.Sprintf("db%d", i)
			if err := r.SetRemote(ctx, db, "s3://faults/p/"); err != nil {
				t.Fatal(err)
			}
			blocks := memBlocks{}
			first := fakeSnapshot(blocks, "header", "block one", "block two")
			if err := r.ExportSnapshot(ctx, db, "main", first, blocks); err != nil {
				t.Fatalf("first export: %v", err)
			}
			// The faults hit the second head write (If-Match).
			ft.mu.Lock()
			ft.faults, ft.landed = append([]string{}, c.faults...), 0
			ft.mu.Unlock()
			second := fakeSnapshot(blocks, "header", "block one", "block three")
			if err := r.ExportSnapshot(ctx, db, "main", second, blocks); err != nil {
				t.Fatalf("export under faults %v: %v", c.faults, err)
			}
			if ft.landed != 1 {
				t.Errorf("%d head writes landed, want exactly 1", ft.landed)
			}
			data, _, err := plain.Get(ctx, "p/heads/"+db+"/main")
			if err != nil {
				t.Fatal(err)
			}
			var h Head
			if err := json.Unmarshal(data, &h); err != nil || h.Root != second.Root {
				t.Errorf("the head holds %s (%v), want %s", h.Root, err, second.Root)
			}
			// A reader gets the second snapshot's blocks, verified.
			fresh := memBlocks{}
			hu, _ := ParseHeadURL("s3://faults/p/heads/" + db + "/main")
			_, cm, err := r.FetchHead(ctx, hu, fresh)
			if err != nil || cm.Root != second.Root || string(fresh[cm.Chunks[2]]) != "block three" {
				t.Errorf("fetch: %v %s", err, cm.Root)
			}
		})
	}
	t.Run("another writer's head is head_conflict", func(t *testing.T) {
		open := func(ctx context.Context, bucket string) (ObjectStore, error) {
			return NewAWSStore(ctx, bucket, AWSOptions{})
		}
		a, _ := OpenRemotes(t.TempDir(), open)
		b, _ := OpenRemotes(t.TempDir(), open)
		for _, r := range []*Remotes{a, b} {
			if err := r.SetRemote(ctx, "shared", "s3://faults/q/"); err != nil {
				t.Fatal(err)
			}
		}
		blocks := memBlocks{}
		if err := a.ExportSnapshot(ctx, "shared", "main", fakeSnapshot(blocks, "a1"), blocks); err != nil {
			t.Fatal(err)
		}
		err := b.ExportSnapshot(ctx, "shared", "main", fakeSnapshot(blocks, "b1"), blocks)
		if !vsqlerr.IsCode(err, vsqlerr.HeadConflict) {
			t.Fatalf("second writer: %v, want head_conflict", err)
		}
		if err := a.ExportSnapshot(ctx, "shared", "main", fakeSnapshot(blocks, "a2"), blocks); err != nil {
			t.Fatalf("the winner continues: %v", err)
		}
	})
}
