//go:build vsqlfaults

package faults

import (
	"os"
	"syscall"
)

// Enabled reports whether fault points are compiled in.
const Enabled = true

// Point kills the process when VSQL_FAULT names it.
func Point(name string) {
	if os.Getenv("VSQL_FAULT") == name {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // never returns
	}
}
