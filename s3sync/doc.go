// Package s3sync will export and import snapshots to S3-compatible storage
// (packs, index pages, descriptors, commit records, conditional head
// writes), attach remote heads read-only and resume interrupted
// publications, behind one small storage interface.
//
// Status: planned (issue "S3"); nothing is implemented yet.
package s3sync
