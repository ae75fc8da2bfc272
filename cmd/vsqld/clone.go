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

// clone copies a remote S3 head into the repository as a new database
// whose history starts at that snapshot. Like gc it takes the repository
// lock, so it runs while vsqld is stopped.
func (m *Main) clone(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("vsqld clone", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	def := server.DefaultDataDir
	if v := m.env("data"); v != "" {
		def = v
	}
	data := fs.String("data", def, "repository directory [VSQL_DATA]")
	as := fs.String("as", "", "name of the new database (default: the remote database's name)")
	// Flags may come before or after the URL.
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprintln(m.Stdout, "Usage: vsqld clone s3://bucket/prefix/heads/<db>/<branch> [--as name] [--data dir]")
				fs.SetOutput(m.Stdout)
				fs.PrintDefaults()
				return nil
			}
			fmt.Fprintf(m.Stderr, "vsqld clone: %v\n", err)
			return errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(rest) != 1 {
		fmt.Fprintln(m.Stderr, "vsqld clone: give one remote head: s3://bucket/prefix/heads/<db>/<branch>")
		return errUsage
	}
	head, err := s3sync.ParseHeadURL(rest[0])
	if err != nil {
		return err
	}
	name := *as
	if name == "" {
		name = head.DB
	}
	var id int64
	var cm catalog.ChunkMap
	if err := offline(ctx, *data, func(cat *catalog.Catalog) error {
		store, err := branches.OpenBlockStore(filepath.Join(*data, "blocks"))
		if err != nil {
			return err
		}
		remotes, err := openRemotes(*data)
		if err != nil {
			return err
		}
		if _, cm, err = remotes.FetchHead(ctx, head, store); err != nil {
			return err
		}
		id, err = branches.ImportDatabase(ctx, cat, name, cm, map[string]any{"operation": "clone", "from": head.String(), "content_root": cm.Root})
		return err
	}); err != nil {
		return err
	}
	fmt.Fprintf(m.Stdout, "vsqld clone: database %s, snapshot %d (content root %s) from %s\n", name, id, cm.Root, head)
	return nil
}
