package s3sync

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"
)

// AWSStore is the ObjectStore of one bucket through aws-sdk-go-v2.
// Credentials, region and endpoint come from the SDK's default chain
// (AWS_ACCESS_KEY_ID, AWS_REGION, AWS_ENDPOINT_URL_S3, profiles, …).
type AWSStore struct {
	client *s3.Client
	bucket string
}

// AWSOptions adjust the client (all optional).
type AWSOptions struct {
	// HTTPClient replaces the transport (fault-injection tests).
	HTTPClient *http.Client
	// PathStyle forces path-style addressing; it is on whenever an
	// endpoint is configured (S3-compatible servers).
	PathStyle bool
	// MaxAttempts bounds the SDK's retries (0 = its default).
	MaxAttempts int
	// Endpoint overrides the SDK's endpoint (AWS_ENDPOINT_URL_S3).
	Endpoint string
}

// NewAWSStore opens a bucket.
func NewAWSStore(ctx context.Context, bucket string, opt AWSOptions) (*AWSStore, error) {
	var loaders []func(*config.LoadOptions) error
	if opt.MaxAttempts > 0 {
		loaders = append(loaders, config.WithRetryMaxAttempts(opt.MaxAttempts))
	}
	cfg, err := config.LoadDefaultConfig(ctx, loaders...)
	if err != nil {
		return nil, fmt.Errorf("load AWS configuration: %w", err)
	}
	if cfg.Region == "" {
		cfg.Region = "us-east-1"
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		if opt.Endpoint != "" {
			o.BaseEndpoint = aws.String(opt.Endpoint)
		}
		o.UsePathStyle = opt.PathStyle || o.BaseEndpoint != nil || cfg.BaseEndpoint != nil
		if opt.HTTPClient != nil {
			o.HTTPClient = opt.HTTPClient
		}
		// Integrity is checked by this package (Content-MD5 on upload,
		// SHA-256 of every block read), not by optional response checksums.
		o.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		o.DisableLogOutputChecksumValidationSkipped = true
	})
	return &AWSStore{client: client, bucket: bucket}, nil
}

// CreateBucket creates the store's bucket if it does not exist (tests).
func (s *AWSStore) CreateBucket(ctx context.Context) error {
	_, err := s.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(s.bucket)})
	var owned interface{ ErrorCode() string }
	if errors.As(err, &owned) && (owned.ErrorCode() == "BucketAlreadyOwnedByYou" || owned.ErrorCode() == "BucketAlreadyExists") {
		return nil
	}
	return err
}

func (s *AWSStore) Get(ctx context.Context, key string) ([]byte, string, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil {
		return nil, "", mapError(err)
	}
	defer out.Body.Close()
	data, err := io.ReadAll(out.Body)
	return data, aws.ToString(out.ETag), err
}

func (s *AWSStore) GetRange(ctx context.Context, key string, offset, length int64) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key),
		Range: aws.String(fmt.Sprintf("bytes=%d-%d", offset, offset+length-1))})
	if err != nil {
		return nil, mapError(err)
	}
	defer out.Body.Close()
	return io.ReadAll(out.Body)
}

// Put writes with a Content-MD5, so the server rejects a body damaged on
// the way, and checks that a plain ETag is the body's MD5.
func (s *AWSStore) Put(ctx context.Context, key string, data []byte) (string, error) {
	sum := md5.Sum(data)
	out, err := s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key),
		Body: bytes.NewReader(data), ContentMD5: aws.String(base64.StdEncoding.EncodeToString(sum[:]))})
	if err != nil {
		return "", mapError(err)
	}
	etag := strings.Trim(aws.ToString(out.ETag), `"`)
	if len(etag) == 32 && etag != hex.EncodeToString(sum[:]) {
		return "", fmt.Errorf("s3 stored %s with ETag %s, not the MD5 of what was sent", key, etag)
	}
	return aws.ToString(out.ETag), nil
}

func (s *AWSStore) PutIf(ctx context.Context, key string, data []byte, ifMatch string) (string, error) {
	in := &s3.PutObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key), Body: bytes.NewReader(data)}
	if ifMatch == "" {
		in.IfNoneMatch = aws.String("*")
	} else {
		in.IfMatch = aws.String(ifMatch)
	}
	out, err := s.client.PutObject(ctx, in)
	if err != nil {
		return "", mapError(err)
	}
	return aws.ToString(out.ETag), nil
}

// List pages through ListObjectsV2.
func (s *AWSStore) List(ctx context.Context, prefix string) ([]ObjectInfo, error) {
	var out []ObjectInfo
	p := s3.NewListObjectsV2Paginator(s.client, &s3.ListObjectsV2Input{Bucket: aws.String(s.bucket), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, mapError(err)
		}
		for _, o := range page.Contents {
			out = append(out, ObjectInfo{Key: aws.ToString(o.Key), Size: aws.ToInt64(o.Size), LastModified: aws.ToTime(o.LastModified)})
		}
	}
	return out, nil
}

// Delete removes one object.
func (s *AWSStore) Delete(ctx context.Context, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(s.bucket), Key: aws.String(key)})
	if err != nil && !errors.Is(mapError(err), ErrNotFound) {
		return mapError(err)
	}
	return nil
}

// mapError turns S3's answers into this package's errors.
func mapError(err error) error {
	var api smithy.APIError
	if errors.As(err, &api) {
		switch api.ErrorCode() {
		case "NoSuchKey", "NotFound":
			return fmt.Errorf("%w: %v", ErrNotFound, err)
		case "PreconditionFailed":
			return fmt.Errorf("%w: %v", ErrPrecondition, err)
		case "ConditionalRequestConflict":
			return fmt.Errorf("%w: %v", ErrConditionalConflict, err)
		}
	}
	return err
}
