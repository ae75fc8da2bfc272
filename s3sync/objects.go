package s3sync

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/vsql/vsql/vsqlerr"
)

// ObjectStore is the seam to object storage: whole-object reads and
// writes, ranged reads, and conditional writes for small objects.
type ObjectStore interface {
	// Get reads a whole object and its ETag (ErrNotFound if missing).
	Get(ctx context.Context, key string) (data []byte, etag string, err error)
	// GetRange reads length bytes at offset.
	GetRange(ctx context.Context, key string, offset, length int64) ([]byte, error)
	// Put writes an object unconditionally (content-addressed keys only).
	Put(ctx context.Context, key string, data []byte) (etag string, err error)
	// PutIf writes a small object only if its current ETag is ifMatch, or,
	// with ifMatch "", only if it does not exist. A failed condition is
	// ErrPrecondition.
	PutIf(ctx context.Context, key string, data []byte, ifMatch string) (etag string, err error)
}

// ObjectInfo is one listed object.
type ObjectInfo struct {
	Key          string
	Size         int64
	LastModified time.Time
}

// Collector is what remote gc needs of an ObjectStore besides reads and
// writes (AWSStore has it; a store without it is not collected).
type Collector interface {
	// List returns every object whose key starts with prefix.
	List(ctx context.Context, prefix string) ([]ObjectInfo, error)
	// Delete removes an object (a missing one is no error).
	Delete(ctx context.Context, key string) error
}

// Errors of ObjectStore implementations.
var (
	ErrNotFound     = errors.New("object not found")
	ErrPrecondition = errors.New("precondition failed")
	// ErrConditionalConflict is S3's 409 ConditionalRequestConflict: another
	// conditional write to the key is in flight; retry.
	ErrConditionalConflict = errors.New("conditional request conflict")
)

// Location is a bucket and a key prefix ("" or ending in "/").
type Location struct {
	Bucket, Prefix string
}

func (l Location) String() string { return "s3://" + l.Bucket + "/" + l.Prefix }

// Key is the full key of a path under the location.
func (l Location) Key(path string) string { return l.Prefix + path }

// ParseLocation reads s3://bucket/prefix/ (the prefix may be empty).
func ParseLocation(raw string) (Location, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "s3" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return Location{}, vsqlerr.New(vsqlerr.InvalidArgument, "%q is not an S3 location (s3://bucket/prefix/)", raw)
	}
	prefix := strings.TrimPrefix(u.Path, "/")
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return Location{Bucket: u.Host, Prefix: prefix}, nil
}

// HeadURL is a parsed s3://bucket/prefix/heads/<db>/<branch>.
type HeadURL struct {
	Location
	DB, Branch string
}

func (h HeadURL) String() string { return h.Location.String() + "heads/" + h.DB + "/" + h.Branch }

// ParseHeadURL reads s3://bucket/prefix/heads/<db>/<branch>.
func ParseHeadURL(raw string) (HeadURL, error) {
	bad := vsqlerr.New(vsqlerr.InvalidArgument, "%q is not a remote head (s3://bucket/prefix/heads/<db>/<branch>)", raw)
	i := strings.LastIndex(raw, "/heads/")
	if i < 0 {
		return HeadURL{}, bad
	}
	loc, err := ParseLocation(raw[:i+1])
	if err != nil {
		return HeadURL{}, bad
	}
	parts := strings.Split(raw[i+len("/heads/"):], "/")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return HeadURL{}, bad
	}
	return HeadURL{Location: loc, DB: parts[0], Branch: parts[1]}, nil
}

// Object keys under a location (see doc.go).
func packKey(hash string) string { return "packs/" + hash + ".pack" }
func descriptorKey(db, root, sum string) string {
	return fmt.Sprintf("snapshots/%s/%s-%s.json", db, root, sum)
}
func commitKey(db, branch, token string) string {
	return fmt.Sprintf("commits/%s/%s/%s.json", db, branch, token)
}
func headKey(db, branch string) string { return "heads/" + db + "/" + branch }
