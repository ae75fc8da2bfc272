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
  vsqld user add NAME [--role admin|write|read] [--password-stdin] [--data dir] [--users file]
  vsqld user add NAME --replace [--role admin|write|read] [--password-stdin]
  vsqld user remove NAME [--data dir] [--users file]
  vsqld user list [--data dir] [--users file]

add creates a user with the role given by --role (default write): admin
may do everything (PostgreSQL's superuser), write may read and write the
databases it was granted, read may only read them. The password is the
first line of standard input with --password-stdin, else the VSQL_PASSWORD
environment variable; add never prompts.

add --replace changes an existing user: with a password it sets a new one
(and keeps the role unless --role is given); with --role and no password
(neither --password-stdin nor VSQL_PASSWORD) it changes only the role and
keeps the password.

list prints "name role" per user; a line written before roles existed is
an admin and is marked "(legacy line without a role: admin)" until the
user is next changed.

The users file keeps only a SCRAM-SHA-256 verifier (salt, iteration count,
StoredKey, ServerKey) and the role, never the password; it is replaced
atomically with mode 0600, and a running vsqld uses the change on the next
connection.

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
	replace := fs.Bool("replace", false, "add: change the password and/or role of an existing user")
	roleFlag := fs.String("role", "", "add: the user's `role`, admin, write or read (default write; with --replace, the user's current role)")
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
	roleSet := false
	fs.Visit(func(f *flag.Flag) { roleSet = roleSet || f.Name == "role" })
	var role auth.Role
	if roleSet {
		if action != "add" {
			return usage("--role applies to user add only")
		}
		r, err := auth.ParseRole(*roleFlag)
		if err != nil {
			return usage("--role %q: the valid roles are admin, write and read", *roleFlag)
		}
		role = r
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
			if u[n].Legacy {
				fmt.Fprintf(m.Stdout, "%s %s (legacy line without a role: %s)\n", n, u[n].Role, auth.LegacyRole)
			} else {
				fmt.Fprintf(m.Stdout, "%s %s\n", n, u[n].Role)
			}
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
	// --replace --role without any password changes the role alone.
	roleOnly := *replace && roleSet && !*stdin && m.env("password") == ""
	var v auth.Verifier
	if !roleOnly {
		password, err := m.readPassword(*stdin)
		if err != nil {
			return err
		}
		if v, err = auth.NewVerifier(password, auth.DefaultIterations); err != nil {
			return err
		}
	}
	var old auth.User
	existed := false
	err := auth.UpdateUsers(path, func(u auth.Users) error {
		old, existed = u[name]
		switch {
		case existed && !*replace:
			return vsqlerr.New(vsqlerr.UserExists, "user %q already exists in %s", name, path).
				WithHint("Use vsqld user add --replace to change its password or role.")
		case !existed && roleOnly:
			return vsqlerr.New(vsqlerr.UserNotFound, "user %q does not exist in %s", name, path).
				WithHint("Adding a user needs a password: --password-stdin or VSQL_PASSWORD.")
		}
		nu := auth.User{Verifier: v, Role: auth.DefaultRole}
		if existed {
			nu.Role = old.Role // a legacy line keeps its admin role, now written out
		}
		if roleOnly {
			nu.Verifier = old.Verifier
		}
		if roleSet {
			nu.Role = role
		}
		u[name] = nu
		role = nu.Role
		return nil
	})
	if err != nil {
		return fileErr(err)
	}
	switch {
	case !existed:
		fmt.Fprintf(m.Stdout, "user %s added to %s with role %s\n", name, path, role)
	case roleOnly:
		fmt.Fprintf(m.Stdout, "role of user %s changed from %s to %s in %s (password kept)\n", name, old.Role, role, path)
	case roleSet && role != old.Role:
		fmt.Fprintf(m.Stdout, "password of user %s changed and role changed from %s to %s in %s\n", name, old.Role, role, path)
	default:
		fmt.Fprintf(m.Stdout, "password of user %s changed in %s (role %s)\n", name, path, role)
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
		fmt.Fprintln(m.Stderr, "vsqld user add: give the password on standard input with --password-stdin, or in VSQL_PASSWORD (to change only an existing user's role: --replace --role admin|write|read)")
		return "", errUsage
	}
	if pw == "" {
		fmt.Fprintln(m.Stderr, "vsqld user add: the password is empty")
		return "", errUsage
	}
	return pw, nil
}
