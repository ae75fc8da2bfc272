package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vsql/vsql/server"
)

// TestBlockMemory: DuckDB keeps DefaultBlockMemory for its blocks unless
// the configuration says otherwise ("0" keeps none), and a size DuckDB
// cannot read stops the server from opening, naming the setting.
func TestBlockMemory(t *testing.T) {
	for _, c := range []struct{ config, want string }{
		{"", "512.0 MiB"},
		{"64MiB", "64.0 MiB"},
		{"0", "0 bytes"},
	} {
		addr := startServer(t, func(cfg *server.Config) { cfg.BlockMemory = c.config })
		if got := duckSetting(t, connectPgx(t, addr), "block_allocator_memory"); got != c.want {
			t.Errorf("BlockMemory %q: block_allocator_memory = %q, want %q", c.config, got, c.want)
		}
	}
	_, err := server.Open(context.Background(), server.Config{DataDir: t.TempDir(), Listen: "127.0.0.1:0", BlockMemory: "lots"})
	if err == nil || !strings.Contains(err.Error(), "block_allocator_memory") {
		t.Errorf("BlockMemory \"lots\": Open returned %v, want an error naming block_allocator_memory", err)
	}
}
