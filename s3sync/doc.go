// Package s3sync replicates snapshots through S3-compatible object storage:
// a database with a remote exports every snapshot (and every merge) there;
// other hosts read its branch heads, follow them, or clone them.
//
// # The seam
//
// ObjectStore is the one interface to object storage: Get, GetRange, Put
// (unconditional, for content-addressed keys) and PutIf (If-Match /
// If-None-Match, for the small head objects only). AWSStore implements it
// with aws-sdk-go-v2: credentials, region and endpoint come from the SDK's
// default chain (AWS_ACCESS_KEY_ID, AWS_REGION, AWS_ENDPOINT_URL_S3,
// profiles) or vsqld's --s3-endpoint; path-style addressing is on whenever
// an endpoint is set. Tests run the real versitygw server; a fault-
// injecting HTTP transport covers what it cannot produce.
//
// # Object layout under s3://bucket/prefix/
//
//	packs/<sha256>.pack                  blocks a snapshot added, each one zstd
//	                                     frame, concatenated; named by the
//	                                     pack's hash, written once
//	snapshots/<db>/<root>-<sum>.json     a snapshot descriptor: content root,
//	                                     file size, and per chunk its hash,
//	                                     byte range in a pack and encoding
//	                                     (the index page)
//	commits/<db>/<branch>/<token>.json   a commit record: the head to be written,
//	                                     with its unique token
//	heads/<db>/<branch>                  the branch's head: descriptor, content
//	                                     root, token and writer (small; the only
//	                                     object written conditionally)
//
// Large objects are content-addressed and written unconditionally (with
// Content-MD5, so a damaged upload is refused); a descriptor only names
// packs that exist. Export uploads the chunks the remote lacks — those not
// named by the descriptors of the heads this writer knows — then the
// descriptor and the commit record, and last moves the head with If-Match
// on the ETag this writer last saw (If-None-Match: * for a new branch). A
// lost race is head_conflict and nothing is recorded locally. A write whose
// outcome is unknown (a lost response, a crash) is settled by reading the
// head back and looking for the write's token; a head this writer wrote
// before a crash (same writer id, same content) is adopted.
//
// Readers fetch the head, its descriptor, and every block they lack with a
// ranged read of its pack, decompressed and verified against the SHA-256
// of its content before it is stored (a mismatch, a frame that does not
// decode or an unknown encoding is storage_corrupt naming the pack and
// offset, and the block is never used). A verified compressed block is
// stored as it came, without compressing it again.
//
// # Compressed blocks and older remotes
//
// Packs hold blocks in the block store's compressed form (package zblock;
// the choice is measured in package branches' doc.go), taken from the
// store as they are on disk, so an export compresses nothing except blocks
// an older repository still holds raw. Descriptors of format 2 record
// "encoding": "zstd" per chunk; format 1 (older versions) has no encoding
// field, and a chunk without one is raw. Readers take both, and a
// descriptor of a later format is refused (feature_not_supported: upgrade
// vsqld). A writer
// continuing a remote that older versions wrote reuses their raw chunks
// (a descriptor may mix both) and packs only new blocks, compressed.
//
// # Remote gc
//
// Collect (called by the server's online gc, after the local one) removes
// the descriptors this writer exported for content roots the catalog no
// longer keeps (deleted snapshots, once deleted for longer than the
// grace), then every pack that no remaining descriptor at the location
// names and that is older than the grace. It lists heads/<db>/, snapshots/
// and packs/ (the Collector interface: ListObjectsV2 and DeleteObject),
// reads every descriptor at the location (packs are shared between the
// databases exporting there), and keeps branch heads' descriptors and
// other writers' descriptors whatever their age. Descriptors are deleted
// before packs, so a descriptor never names a missing pack. It holds the
// remotes' lock (no export runs meanwhile) and forgets the chunk locations
// it had learned, which the next export relearns from the heads. Packs are
// never rewritten: one that a kept snapshot uses in part stays whole.
// Commit records are not collected.
//
// # State
//
// remotes.json in the repository holds this writer's random id, each
// database's remote URL and, per branch, the last head ETag, descriptor and
// token this writer saw; it is replaced atomically and durably
// (internal/atomicfile, mode 0600) on every change. Merge requests record their publication steps in
// the catalog (see package merge, s3merge.go).
package s3sync
