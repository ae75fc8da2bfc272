package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// File is a pending replacement of a file: write to it, then Commit to put
// it in place or Cleanup to drop it. Cleanup after Commit does nothing, so
// the usual pattern is
//
//	f, err := atomicfile.Create(path, 0o600)
//	if err != nil { … }
//	defer f.Cleanup()
//	… f.Write …
//	return f.Commit()
type File struct {
	*renameio.PendingFile
	path string
}

// Create starts replacing path with a file of mode perm (exactly perm, not
// reduced by the umask). The directory of path must exist.
func Create(path string, perm os.FileMode) (*File, error) {
	pf, err := renameio.NewPendingFile(path,
		renameio.WithTempDir(filepath.Dir(path)),
		renameio.WithStaticPermissions(perm.Perm()))
	if err != nil {
		return nil, err
	}
	return &File{PendingFile: pf, path: path}, nil
}

// Commit fsyncs and closes the file, renames it over the destination and
// fsyncs the destination's directory. On error the destination is either
// untouched or (if only the directory fsync failed) replaced but maybe not
// yet durable; call Cleanup either way.
func (f *File) Commit() error {
	if err := f.CloseAtomicallyReplace(); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(f.path))
}

// Cleanup closes and removes the temporary file unless Commit renamed it.
func (f *File) Cleanup() error { return f.PendingFile.Cleanup() }

// WriteFile replaces path with data atomically and durably, with mode perm.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// SyncDir fsyncs a directory, making the creation, removal or renaming of
// the names in it durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync %s: %w", dir, err)
	}
	return nil
}

// minTempDigits is how many trailing digits IsTemp requires. renameio's
// random part is a non-negative int64 in decimal: fewer than 10 digits
// happens once in about a billion files (and such a leftover is merely not
// recognized), while a file of vsql's own is never named that way.
const minTempDigits = 10

// IsTemp reports whether a file name (not a path) has the shape of the
// temporary files Create makes: ".", the destination's name, then at least
// ten decimal digits.
func IsTemp(name string) bool {
	if len(name) < 2+minTempDigits || name[0] != '.' {
		return false
	}
	digits := 0
	for i := len(name) - 1; i > 0 && name[i] >= '0' && name[i] <= '9'; i-- {
		digits++
	}
	return digits >= minTempDigits
}
