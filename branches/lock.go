package branches

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/vsql/vsql/vsqlerr"
)

// RepoLock is an exclusive lock on a repository: one vsqld (or one offline
// vsqld gc) at a time.
type RepoLock struct{ f *os.File }

// LockRepository takes the lock file <dir>/vsqld.lock without waiting.
func LockRepository(dir string) (*RepoLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create repository: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "vsqld.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open repository lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, vsqlerr.New(vsqlerr.RepositoryInUse, "repository %s is in use by another vsqld process", dir)
	}
	return &RepoLock{f: f}, nil
}

// Unlock releases the lock.
func (l *RepoLock) Unlock() {
	if l != nil && l.f != nil {
		_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
		l.f.Close()
	}
}
