// Package atomicfile replaces files atomically and durably: the one helper
// behind every file vsql rewrites in place (the users file, remotes.json,
// stored blocks and the database files materialized from chunk maps).
//
// A write goes to a temporary file in the destination's own directory,
// which is fsynced, renamed over the destination and followed by an fsync
// of the directory, so after a crash the destination holds either its old
// contents or the new ones, whole, and never a prefix; once WriteFile or
// Commit returns, the new contents survive a power loss. The temporary
// file, the fsync and the rename are github.com/google/renameio/v2's
// (PendingFile); this package adds the directory fsync, which renameio
// leaves to its callers, keeps the temporary file beside the destination
// (renameio would otherwise probe and possibly use $TMPDIR), and sets the
// mode exactly, whatever the umask.
//
// # Temporary names
//
// renameio names a temporary file "." + the destination's name + a random
// non-negative decimal number (".users8674665223082153551"). A crash
// between creating and renaming it leaves such a file behind, never a
// partial file under the destination's name. IsTemp recognizes these names
// so that a cleaner (vsqld gc) can remove the leftovers; it must only do so
// while nothing writes into the directory.
package atomicfile
