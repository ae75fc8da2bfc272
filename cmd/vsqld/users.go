package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/vsql/vsql/auth"
	"github.com/vsql/vsql/server"
	"github.com/vsql/vsql/vsqlerr"
)

const userUsage = `Usage:
  vsqld user add NAME [--password-stdin] [--replace] [--data dir] [--users file]
  vsqld user remove NAME [--data dir] [--users file]
  vsqld user list [--data dir] [--users file]

add reads the password from the first line of standard input with
--password-stdin, else from the VSQL_PASSWORD environment variable. The
users file keeps only a SCRAM-SHA-256 verifier (salt, iteration count,
StoredKey, ServerKey), never the password; it is replaced atomically with
mode 0600, and a running vsqld uses the change on the next connection.

Flags:
`

// user runs vsqld user add|remove|list.
func (m *Main) user(_ context.Context, args []string) error {
	var action string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		action, args = args[0], args[1:]
	}
	fs := flag.NewFlagSet("vsqld user", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	data := server.DefaultDataDir
	if v := m.env("data"); v != "" {
		data = v
	}
	fs.StringVar(&data, "data", data, "repository `directory` whose users file is meant [VSQL_DATA]")
	users := fs.String("users", m.env("users"), "users `file` (default <data>/users) [VSQL_USERS]")
	stdin := fs.Bool("password-stdin", false, "add: read the password from the first line of standard input (else VSQL_PASSWORD)")
	replace := fs.Bool("replace", false, "add: change the password of an existing user")
	// Flags may come before or after NAME.
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fmt.Fprint(m.Stdout, userUsage)
				fs.SetOutput(m.Stdout)
				fs.PrintDefaults()
				return nil
			}
			fmt.Fprintf(m.Stderr, "vsqld user: %v (try vsqld user --help)\n", err)
			return errUsage
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	path := server.UsersPath(data, *users)
	usage := func(format string, a ...any) error {
		fmt.Fprintf(m.Stderr, "vsqld user: "+format+" (try vsqld user --help)\n", a...)
		return errUsage
	}
	switch action {
	case "list":
		if len(pos) > 0 {
			return usage("unexpected argument %q", pos[0])
		}
		u, err := auth.LoadUsers(path)
		if err != nil {
			return vsqlerr.Wrap(err, vsqlerr.UsersFileInvalid, "%v", err)
		}
		for _, n := range u.Names() {
			fmt.Fprintln(m.Stdout, n)
		}
		return nil
	case "add", "remove":
	case "":
		return usage("name an action: add, remove or list")
	default:
		return usage("unknown action %q", action)
	}
	if len(pos) != 1 {
		return usage("%s takes one user NAME", action)
	}
	name := pos[0]
	if err := auth.ValidUserName(name); err != nil {
		return vsqlerr.New(vsqlerr.InvalidName, "%v", err).WithHint("User names are 1 to 63 letters, digits, '_', '-', '.' or '@'.")
	}
	if action == "remove" {
		err := auth.UpdateUsers(path, func(u auth.Users) error {
			if _, ok := u[name]; !ok {
				return vsqlerr.New(vsqlerr.UserNotFound, "user %q does not exist in %s", name, path)
			}
			delete(u, name)
			return nil
		})
		if err != nil {
			return fileErr(err)
		}
		fmt.Fprintf(m.Stdout, "user %s removed from %s\n", name, path)
		return nil
	}
	password, err := m.readPassword(*stdin)
	if err != nil {
		return err
	}
	v, err := auth.NewVerifier(password, auth.DefaultIterations)
	if err != nil {
		return err
	}
	changed := false
	err = auth.UpdateUsers(path, func(u auth.Users) error {
		if _, ok := u[name]; ok {
			if !*replace {
				return vsqlerr.New(vsqlerr.UserExists, "user %q already exists in %s", name, path)
			}
			changed = true
		}
		u[name] = auth.User{Verifier: v, Role: auth.DefaultRole}
		return nil
	})
	if err != nil {
		return fileErr(err)
	}
	if changed {
		fmt.Fprintf(m.Stdout, "password of user %s changed in %s\n", name, path)
	} else {
		fmt.Fprintf(m.Stdout, "user %s added to %s\n", name, path)
	}
	return nil
}

// fileErr passes vsql errors through and reports the rest as a users file
// problem.
func fileErr(err error) error {
	var ve *vsqlerr.Error
	if errors.As(err, &ve) {
		return err
	}
	return vsqlerr.Wrap(err, vsqlerr.UsersFileInvalid, "%v", err)
}

// readPassword takes the first line of standard input (--password-stdin)
// or VSQL_PASSWORD. It never prompts, so scripts cannot hang on it.
func (m *Main) readPassword(fromStdin bool) (string, error) {
	var pw string
	switch {
	case fromStdin:
		if m.Stdin == nil {
			return "", errors.New("--password-stdin: no standard input")
		}
		line, err := bufio.NewReader(m.Stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return "", fmt.Errorf("read the password from standard input: %w", err)
		}
		pw = strings.TrimRight(line, "\r\n")
	case m.env("password") != "":
		pw = m.env("password")
	default:
		fmt.Fprintln(m.Stderr, "vsqld user add: give the password on standard input with --password-stdin, or in VSQL_PASSWORD")
		return "", errUsage
	}
	if pw == "" {
		fmt.Fprintln(m.Stderr, "vsqld user add: the password is empty")
		return "", errUsage
	}
	return pw, nil
}
