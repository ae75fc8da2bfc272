// Package merge will hold three-way, cell-level merges: base selection from
// recorded parent edges, schema planning, comparison SQL, conflicts,
// resolutions, staging, validation and publication through branches and
// catalog, and durable requests. It never speaks pgwire.
//
// Status: planned (issues "Merge" and "Conflicts"); nothing is implemented yet.
package merge
