package auth

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/vsql/vsql/internal/atomicfile"
)

// Users maps user names to their verifiers and roles.
type Users map[string]User

// Names lists the users in sorted order.
func (u Users) Names() []string {
	names := make([]string, 0, len(u))
	for n := range u {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// MaxUserNameLen is the longest user name (PostgreSQL's identifier limit).
const MaxUserNameLen = 63

// ValidUserName checks a user name: 1 to 63 letters, digits, '_', '-', '.'
// or '@'.
func ValidUserName(name string) error {
	if name == "" {
		return errors.New("user name must not be empty")
	}
	if len(name) > MaxUserNameLen {
		return fmt.Errorf("user name %q is longer than %d characters", name, MaxUserNameLen)
	}
	for _, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '-', c == '.', c == '@':
		default:
			return fmt.Errorf("user name %q may contain only letters, digits, '_', '-', '.' and '@'", name)
		}
	}
	return nil
}

const fileHeader = `# vsql users: written by "vsqld user add/remove"; one user per line:
# name SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey> role
# (role: admin, write or read; a line without a role is an admin)
`

// ParseUsers reads a users file's contents; name is used in errors.
func ParseUsers(name string, data []byte) (Users, error) {
	users := Users{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 && len(fields) != 3 {
			return nil, fmt.Errorf("%s:%d: expected \"name verifier role\"", name, n)
		}
		if err := ValidUserName(fields[0]); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		if _, dup := users[fields[0]]; dup {
			return nil, fmt.Errorf("%s:%d: user %q appears twice", name, n, fields[0])
		}
		v, err := ParseVerifier(fields[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, n, err)
		}
		u := User{Verifier: v, Role: LegacyRole, Legacy: true}
		if len(fields) == 3 {
			if u.Role, err = ParseRole(fields[2]); err != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, n, err)
			}
			u.Legacy = false
		}
		users[fields[0]] = u
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return users, nil
}

// LoadUsers reads the users file at path; a missing file holds no users.
func LoadUsers(path string) (Users, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Users{}, nil
	}
	if err != nil {
		return nil, err
	}
	return ParseUsers(path, data)
}

// Format renders users as a users file.
func (u Users) Format() []byte {
	var b bytes.Buffer
	b.WriteString(fileHeader)
	for _, n := range u.Names() {
		fmt.Fprintf(&b, "%s %s %s\n", n, u[n].Verifier, u[n].Role)
	}
	return b.Bytes()
}

// SaveUsers replaces the users file atomically and durably with mode 0600
// (internal/atomicfile: a temporary file beside it, fsync, rename, fsync of
// the directory), so a crash leaves the old file or the new one, whole.
func SaveUsers(path string, u Users) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, u.Format(), 0o600)
}

// UpdateUsers loads the users file, applies fn and saves the result, holding
// an exclusive lock (path + ".lock") so that concurrent updates do not lose
// each other's changes. Nothing is written if fn fails.
func UpdateUsers(path string, fn func(Users) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	lf, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer func() { _ = syscall.Flock(int(lf.Fd()), syscall.LOCK_UN) }()
	users, err := LoadUsers(path)
	if err != nil {
		return err
	}
	if err := fn(users); err != nil {
		return err
	}
	return SaveUsers(path, users)
}

// Store gives the server the current users, re-reading the file only when
// it has changed (another inode after a rename, or another size or
// modification time).
type Store struct {
	path   string
	secret []byte

	mu    sync.Mutex
	info  os.FileInfo // nil: not loaded or missing
	mtime time.Time
	users Users
}

// NewStore reads users from path on demand.
func NewStore(path string) *Store {
	return &Store{path: path, secret: newSecret()}
}

// Path is the users file's path.
func (s *Store) Path() string { return s.path }

// Users returns the users in the file now. A missing file holds no users;
// an unreadable or malformed file is an error.
func (s *Store) Users() (Users, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fi, err := os.Stat(s.path)
	if errors.Is(err, os.ErrNotExist) {
		s.info, s.users = nil, Users{}
		return s.users, nil
	}
	if err != nil {
		return nil, err
	}
	if s.info != nil && s.users != nil && os.SameFile(s.info, fi) && fi.Size() == s.info.Size() && fi.ModTime().Equal(s.mtime) {
		return s.users, nil
	}
	users, err := LoadUsers(s.path)
	if err != nil {
		s.info, s.users = nil, nil
		return nil, err
	}
	s.info, s.mtime, s.users = fi, fi.ModTime(), users
	return users, nil
}

// Lookup returns the verifier of user, or, for an unknown user, a mock
// verifier (stable for the name within this process) with known false.
// Both take the same path through an Exchange.
func (s *Store) Lookup(users Users, user string) (v Verifier, known bool) {
	if u, ok := users[user]; ok {
		return u.Verifier, true
	}
	return s.mock(user), false
}
