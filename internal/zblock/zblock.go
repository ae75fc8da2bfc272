// Package zblock compresses and decompresses the blocks of the block store
// and of S3 packs: one zstd frame per block (SpeedDefault, no frame
// checksum: a block is verified by the SHA-256 of its content anyway). The
// encoder and decoder are shared by every goroutine (EncodeAll and
// DecodeAll are safe for concurrent use); nothing is allocated per block
// but the output. Package branches' doc.go has the measurements behind the
// choice.
package zblock

import (
	"errors"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// Zstd is the encoding name S3 descriptors record for a compressed chunk
// (an absent encoding means raw bytes, as older versions wrote them).
const Zstd = "zstd"

// MaxSize is the largest block content there is (a DuckDB block,
// branches.BlockSize); Decompress refuses frames that decode to more.
const MaxSize = 256 << 10

// ErrMalformed is returned for data that is not one zstd frame of at most
// the allowed size.
var ErrMalformed = errors.New("malformed compressed block")

var (
	encoder = mustEncoder()
	decoder = mustDecoder()
)

func mustEncoder() *zstd.Encoder {
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithEncoderCRC(false))
	if err != nil {
		panic(err)
	}
	return e
}

func mustDecoder() *zstd.Decoder {
	// DecodeAllCapLimit bounds the output by dst's capacity, so a damaged
	// or hostile frame cannot make us allocate more than one block.
	d, err := zstd.NewReader(nil, zstd.WithDecodeAllCapLimit(true), zstd.WithDecoderConcurrency(0))
	if err != nil {
		panic(err)
	}
	return d
}

// Compress appends the compressed form of src to dst.
func Compress(dst, src []byte) []byte { return encoder.EncodeAll(src, dst) }

// Decompress decodes z into dst[:0] (allocated when its capacity is less
// than MaxSize): a frame that decodes to more than MaxSize, a truncated
// frame or any other damage is ErrMalformed.
func Decompress(dst, z []byte) ([]byte, error) {
	if cap(dst) < MaxSize {
		dst = make([]byte, 0, MaxSize)
	}
	if len(z) == 0 {
		return nil, fmt.Errorf("%w: no data", ErrMalformed)
	}
	out, err := decoder.DecodeAll(z, dst[:0:MaxSize])
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return out, nil
}
