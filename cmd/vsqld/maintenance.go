package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/vsql/vsql/branches"
	"github.com/vsql/vsql/catalog"
	"github.com/vsql/vsql/s3sync"
	"github.com/vsql/vsql/server"
)

// errProblems makes vsqld verify exit with status 1.
var errProblems = errors.New("problems found")

func (m *Main) dataFlag(name string, args []string, extra func(fs *flag.FlagSet)) (string, error) {
	fs := flag.NewFlagSet("vsqld "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	def := server.DefaultDataDir
	if v := m.env("data"); v != "" {
		def = v
	}
	data := fs.String("data", def, "repository directory [VSQL_DATA]")
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(m.Stdout, "Usage: vsqld %s [flags]\n", name)
			fs.SetOutput(m.Stdout)
			fs.PrintDefaults()
			return "", flag.ErrHelp
		}
		fmt.Fprintf(m.Stderr, "vsqld %s: %v\n", name, err)
		return "", errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(m.Stderr, "vsqld %s: unexpected argument %q\n", name, fs.Arg(0))
		return "", errUsage
	}
	return *data, nil
}

// gc removes unreferenced blocks, chunk maps, images and live files. It
// takes the repository lock, so it refuses to run beside a serving vsqld.
func (m *Main) gc(ctx context.Context, args []string) error {
	grace := branches.DefaultGCGrace
	data, err := m.dataFlag("gc", args, func(fs *flag.FlagSet) {
		fs.DurationVar(&grace, "grace", branches.DefaultGCGrace, "keep unreferenced blocks younger than this")
	})
	if err != nil {
		return ignoreHelp(err)
	}
	return offline(ctx, data, func(cat *catalog.Catalog) error {
		rep, err := branches.GC(ctx, data, cat, grace)
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "gc: removed %d blocks (%d bytes), %d chunk maps, %d snapshot images, %d live files, %d temporary files; kept %d blocks\n",
			rep.BlocksRemoved, rep.BytesRemoved, rep.ChunkMapsRemoved, rep.ImagesRemoved, rep.LiveFilesRemoved, rep.TempFilesRemoved, rep.BlocksKept)
		return nil
	})
}

// offline runs fn on the repository's catalog while holding the
// repository lock (vsqld must not be serving it).
func offline(ctx context.Context, data string, fn func(cat *catalog.Catalog) error) error {
	lock, err := branches.LockRepository(data)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	cat, err := catalog.Open(ctx, filepath.Join(data, "catalog.db"))
	if err != nil {
		return err
	}
	defer cat.Close()
	return fn(cat)
}

// verify re-hashes every block and checks every chunk map. It only reads,
// so it may run beside a serving vsqld.
func (m *Main) verify(ctx context.Context, args []string) error {
	data, err := m.dataFlag("verify", args, nil)
	if err != nil {
		return ignoreHelp(err)
	}
	cat, err := catalog.Open(ctx, filepath.Join(data, "catalog.db"))
	if err != nil {
		return err
	}
	defer cat.Close()
	remotes, err := openRemotes(data)
	if err != nil {
		return err
	}
	rep, err := branches.Verify(ctx, data, cat, remotes.ExportedRoots())
	if err != nil {
		return err
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(m.Stdout, "verify:", p)
	}
	fmt.Fprintf(m.Stdout, "verify: %d blocks (%d bytes on disk, %d bytes of content), %d chunk maps, %d snapshots checked, %d blocks only in S3, %d problems\n",
		rep.Blocks, rep.StoredBytes, rep.ContentBytes, rep.ChunkMaps, rep.Snapshots, rep.RemoteBlocks, len(rep.Problems))
	if len(rep.Problems) > 0 {
		return errProblems
	}
	return nil
}

// evict removes local snapshot images and the blocks only exported
// snapshots use (S3 holds them); vsqld must not be serving the repository.
func (m *Main) evict(ctx context.Context, args []string) error {
	data, err := m.dataFlag("evict", args, nil)
	if err != nil {
		return ignoreHelp(err)
	}
	return offline(ctx, data, func(cat *catalog.Catalog) error {
		remotes, err := openRemotes(data)
		if err != nil {
			return err
		}
		rep, err := branches.Evict(ctx, data, cat, remotes.ExportedRoots())
		if err != nil {
			return err
		}
		fmt.Fprintf(m.Stdout, "evict: %d blocks and %d images removed, %d bytes freed\n", rep.Blocks, rep.Images, rep.Bytes)
		return nil
	})
}

func openRemotes(data string) (*s3sync.Remotes, error) {
	return s3sync.OpenRemotes(data, func(ctx context.Context, bucket string) (s3sync.ObjectStore, error) {
		return s3sync.NewAWSStore(ctx, bucket, s3sync.AWSOptions{})
	})
}

func ignoreHelp(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}
