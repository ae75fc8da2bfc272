// Package faults holds crash points for tests. In normal builds Point does
// nothing and costs nothing. Built with -tags vsqlfaults, Point(name) kills
// the process with SIGKILL when the environment variable VSQL_FAULT equals
// name, so a test can stop vsqld at an exact step of a multi-step operation
// and check what survives a restart. It is a fake for fault injection only:
// no real component can crash on cue.
package faults
