package zblock

import (
	"bytes"
	"errors"
	"testing"
)

func TestRoundTripAndLimits(t *testing.T) {
	block := make([]byte, MaxSize)
	copy(block, "a DuckDB block is mostly zeros")
	z := Compress(nil, block)
	if len(z) > 1<<10 {
		t.Errorf("a mostly empty block compressed to %d bytes", len(z))
	}
	got, err := Decompress(make([]byte, 0, MaxSize), z)
	if err != nil || !bytes.Equal(got, block) {
		t.Fatalf("round trip: %v", err)
	}
	if got, err := Decompress(nil, Compress(nil, []byte("x"))); err != nil || string(got) != "x" {
		t.Errorf("small block with no buffer: %q %v", got, err)
	}
	// A frame that decodes to more than one block is refused, not allocated.
	if _, err := Decompress(nil, Compress(nil, make([]byte, MaxSize+1))); !errors.Is(err, ErrMalformed) {
		t.Errorf("oversized frame: %v, want ErrMalformed", err)
	}
	for name, bad := range map[string][]byte{"empty": nil, "garbage": []byte("not zstd at all"), "truncated": z[:len(z)-4]} {
		if _, err := Decompress(nil, bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v, want ErrMalformed", name, err)
		}
	}
}
