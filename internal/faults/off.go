//go:build !vsqlfaults

package faults

// Point is a no-op without the vsqlfaults build tag.
func Point(string) {}

// Enabled reports whether fault points are compiled in.
const Enabled = false
