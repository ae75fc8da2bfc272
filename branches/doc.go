// Package branches owns the repository's files: the content-addressed block
// store, chunk maps, snapshot creation, snapshot images, branch live files
// (materialize, attach, gate, swap), restore and delete, gc and verify.
//
// # Layout of a repository
//
//	catalog.db                    metadata (package catalog)
//	vsqld.lock                    one vsqld (or offline gc) per repository
//	blocks/ab/cd/abcd….zst        one file per block, named by the SHA-256 of
//	                              its content, zstd-compressed
//	blocks/ab/cd/abcd…            the same, raw (written by older versions;
//	                              read alike, never written any more)
//	live/<db>/main.duckdb         a database's first main live file
//	live/<db>/<branch>-<n>.duckdb later live files (a new name per materialization)
//	live/<db>/….duckdb.applying   marker: an in-place merge is changing that file
//	cache/<db>/<id>.duckdb        snapshot images, rebuilt from blocks on demand
//	cache/<db>/<id>@<name>.duckdb hard links for images attached by name
//
// # Blocks and chunk maps
//
// A DuckDB file is a 12 KiB header followed by 256 KiB blocks; a chunk map
// cuts the file at exactly those boundaries (the header is chunk 0), so a
// DuckDB block that did not change is a chunk that is already stored.
// Chunks are addressed by SHA-256: collision-resistant, in the standard
// library, and fast enough that reading the file, not hashing it, is the
// cost (the measured alternatives were BLAKE3 at 2.6 GB/s and xxh3, which
// is not collision-resistant; xxh3 serves as the pre-check that decides
// which blocks are SHA-256-hashed at all, see "Hashing only what changed").
//
// Blocks live one per file in a two-level fan-out (65,536 directories), so
// millions of blocks mean a few dozen files per directory and a block's
// existence is a stat or two (the compressed name, then the raw one). A
// block is written through internal/atomicfile
// (a temporary file beside it, fsynced, renamed into place, its directory
// fsynced) before any catalog row can reference it, and so is every file
// materialized from a chunk map; a block that exists is therefore whole,
// and a crash leaves at most unreferenced blocks and temporary files
// (atomicfile.IsTemp names), which gc removes.
//
// # Compression
//
// Blocks are stored as one zstd frame each (internal/zblock, level
// SpeedDefault, one encoder and one decoder shared by every goroutine) and
// still addressed and verified by the SHA-256 of their uncompressed
// content: Get decompresses and checks the hash, so dedup, chunk maps,
// verify and gc are unchanged. Measured on real DuckDB blocks (two runs on
// a shared 2-core machine; per-block EncodeAll/DecodeAll):
//
//	                       1M-row orders (13 MB, 51 chunks)       3-row table (780 KiB, 4 chunks)
//	zstd SpeedFastest      9.7×,  250–340 MB/s in, 470–910 out    833 B (959×)
//	zstd SpeedDefault      10.7×, 220–260 MB/s in, 700–830 out    750 B (1065×)
//	zstd SpeedBetter       10.7×, 160–180 MB/s in, 490–850 out    708 B (1128×)
//	s2 (default / better)  2.8×,  1100–1500 / 480–540 MB/s in     907 / 836 B
//
// DuckDB blocks are mostly runs of zeros and lightly compressed column
// segments, so zstd's entropy stage matters (s2 stores 3.5× more) while
// its higher levels buy nothing more. SpeedDefault stores 10% less than
// SpeedFastest at about the same speed here. A snapshot compresses only the
// blocks it adds (in the bench, side by side with the raw store: 100
// scattered UPDATEs of the 1M-row table 780 KiB → 6 KiB stored at the same
// 149 ms; 100 scattered DELETEs 8.0 MiB → 798 KiB, 82 → 115 ms, the cost
// of compressing 32 new blocks; one changed row of a 3-row table 524 KiB →
// 767 B; the whole store 12.4× smaller than its content). Decompression
// is fast enough that a verified Get costs little more than the hash.
//
// A compressed block is <hash>.zst; a raw one (older repositories) is the
// bare <hash>, which no DuckDB content could be confused with, since the
// form is told by the name, never by the bytes. Has, Get, Walk and Remove
// handle both; Put writes only the compressed form and writes nothing when
// the block exists in either. There is no migration: raw blocks stay until
// gc removes them, and an S3 upload compresses them on the way. A damaged
// compressed block (a flipped byte, a truncated frame) is ErrCorrupt, as a
// hash mismatch is; the decoder never produces more than one block
// (zblock.MaxSize).
//
// Materializing a file (images, live files) decodes up to three blocks
// ahead of the one being written, each on its own goroutine, in four
// reused buffers, so decompression overlaps the writes; the file is
// still written through a temporary file and fsynced before it replaces
// dst, and every block's hash and size are checked.
//
// # Snapshots
//
// CreateSnapshot takes the branch's gate exclusively (running statements
// finish, new ones wait), runs CHECKPOINT, requires the write-ahead log to
// be empty, chunks the live file (SHA-256-hashing only the blocks whose
// xxh3 changed) storing the blocks the store lacks (compressed), and then publishes in one catalog transaction: chunk map, snapshot
// row, parent edge, branch head. A snapshot of an unchanged file stores no
// block. Its new_bytes is what it added to the block store: compressed
// bytes on disk (one changed row of a 3-row table: under 1 KiB), not the
// blocks' sizes. A branch that was never attached is snapshotted from its head's
// chunk map without touching any file.
//
// # Hashing only what changed
//
// chunkFile (snapshots, publication, dirty detection) keeps in memory, per
// file path and identity (device, inode), its last chunking: for each
// block its length, a seeded xxh3-128 and its SHA-256, both computed from
// the same bytes in one pass. The next chunking of that file still reads
// every block, computes its xxh3 (about 15 GB/s here, next to SHA-256's
// 1.35 GB/s), and computes SHA-256 only where length or xxh3 differ from
// the memo's at that position; a reused hash that the store no longer has
// (gc after retention, or a memo taken by dirty detection, which stores
// nothing) is computed again and the block stored.
//
// Why this cannot miss a change: a hash is reused only when the block's
// current bytes have the same xxh3-128 as bytes whose SHA-256 was computed
// with them; nothing else is trusted — not sizes, times, names or the
// absence of writers. A rename, truncation, growth or a concurrent writer
// can only make a position's xxh3 differ (a full hash of that block) or
// drop the memo (another inode, a restart: every block hashed). What
// remains is an xxh3-128 collision between a block's old and new content:
// for content not chosen against the hash, about 2^-128 per changed block.
// The seed is random per process and never leaves it, so content cannot be
// crafted against it, though xxh3 makes no cryptographic promise; SHA-256
// stays the content address. DuckDB's own checksum in the first 8 bytes of
// each block would let chunkFile skip reading unchanged blocks, but it is
// 64 bits and an XOR of per-word hashes: swapping two aligned 8-byte words,
// or writing the same value into two zero words, leaves it unchanged
// (TestChunkFilePreCheck makes both changes), so it cannot serve.
//
// Two goroutines read the file (pread, every other block) and compute the
// pre-check; blocks that need their SHA-256 go to four workers that hash,
// compress and store them, so that the fsyncs of new blocks overlap and
// hashing uses both cores.
//
// Measured (BenchmarkChunkFile, a 64 MiB file in the page cache): reading
// with xxh3 on one goroutine 6.4–9.9 ms, reading with SHA-256 55 ms, the
// old chunking (SHA-256 and a stat per block) 48–60 ms; with the two
// readers, the pre-check with nothing changed 4.7–6.5 ms (a stat per
// block included), with 3 blocks changed 4.6–4.8 ms (10 ms on one
// reader); a first chunking, every block hashed, 29 ms (SHA-256 on four
// workers). What stays proportional to the file's size is the read and a
// stat per block; the chunk map (32 bytes per block) and the content root
// are computed from it; the WAL check is a stat. The bench separates
// DuckDB's CHECKPOINT from vsql's part (docs/BENCHMARKS.md, "Snapshot time
// and the file's size"): vsql's part of a snapshot of an unchanged branch
// is 4.1 ms at 1M rows (14 MiB) and 18.3 ms at 10M rows (129 MiB); after
// 100 clustered UPDATEs the whole snapshot takes 24.2 vs 40.2 ms (1.56×).
// CHECKPOINT rewrites the column segments of each changed row group, so
// 100 rows scattered over all 82 row groups of the 10M-row table take
// 606 ms of CHECKPOINT against 71 ms over the 9 of 1M rows: that cost is
// DuckDB's and follows the row groups changed; vsql's part of the same
// snapshots is 28.6 vs 7.5 ms.
//
// # Where a DELETE's new blocks come from
//
// Measured by comparing the file block by block around CHECKPOINT (the
// bench's 1M-row orders table, BIGINT PRIMARY KEY; pragma_storage_info
// names the column segments' blocks): 100 scattered DELETEs change no
// column segment (deletes are recorded as row-group delete info in a
// metadata block) and 32 blocks that are the PK's ART index: the whole
// index (8 MiB). DuckDB keeps ART nodes in fixed-size allocators whose
// 256 KiB buffers are written at checkpoint only when dirty; over dense
// BIGINT keys the last level is one Node256 (2 KiB: 256 child pointers)
// per 256 keys, 3,907 nodes in 32 buffers, and keys 10,000 apart dirty
// about 3 nodes in every buffer, so every buffer is rewritten (to new
// blocks: the file grows by 32 blocks and shrinks back at the next such
// checkpoint). Without the primary key the same DELETE changes 2 blocks;
// 100 deletes within the first quarter of the keys change 9; 100
// consecutive keys (one node) 2–3; UPDATEs of non-key columns and INSERTs
// of new (ascending) keys touch one or no index buffer. The storage
// version does not change it (32 blocks with the default, v1.2.0 and
// latest). vsql cannot choose which buffers DuckDB rewrites; what it
// controls is how it stores them: compressed, the 8 MiB are 798 KiB.
// Within the 32 blocks only 159 of their 2,048 4 KiB pieces are new
// content (636 KiB raw), so chunking index blocks more finely, or storing
// a block as a delta against the one it replaces, would store about 10×
// less again; both change the chunk map format and are not done.
//
// Snapshot images are materialized from blocks into cache/ the first time a
// session reads the snapshot (each block verified against its hash), and
// attached READ_ONLY under the name the user wrote ("db@4",
// "db@baseline"). They are disposable: gc deletes them unless pinned.
//
// # Databases and names
//
// DuckDB compares catalog names without case, and every database, branch
// and snapshot image is attached under a catalog name ("db", "db/branch",
// "db@name"). So the catalog refuses a new database, branch or snapshot
// name that differs from an existing one only in case (catalog.NameTaken,
// reported naming the existing one), and ValidDatabaseName refuses names
// DuckDB or vsql use themselves (memory, system, temp, main,
// information_schema, pg_catalog, public, __vsql…). CreateDatabase attaches
// the new file inside the catalog transaction that records it: a failed
// attach rolls the row back and removes the directory. NewManager attaches
// every main branch but skips (and logs) one that fails, so one damaged
// file does not keep the others from being served; attach errors are
// database_unavailable, with the repository's path left out of the
// message.
//
// # Branches
//
// CreateBranch writes one catalog row and nothing else. The first session
// that attaches the branch materializes its live file from the head's
// blocks. Restore builds a new live file from the snapshot beside the old
// one and swaps the attachment (DETACH, ATTACH under the same name; idle
// sessions see the new state on their next statement), then records a new
// snapshot whose parent is the old head. Dirty detection compares the live
// file (and its WAL) with the head's content root, caching the file's root
// by size and modification time.
//
// # Reading versions (diff.go, rows.go)
//
// Diff (vsql_diff) and Rows (the web console's table pages) attach what
// they name — a snapshot id or name as a shared image, a branch as its
// live file — and read it with one query: Diff a FULL OUTER JOIN on the
// primary key with one IS DISTINCT FROM per common column (packing each
// row into a struct to compare it was 20% slower on 1M rows), Rows a page
// ordered by the primary key with LIMIT and OFFSET. When both versions of
// a table hold as many rows and KeysMoved finds every key where it was
// (an UPDATE-only change: DuckDB updates in place), Diff compares them row
// by row with a POSITIONAL JOIN instead, as the lakehouse export does. A
// merge updates rows in place too; deletes and inserts move keys, and
// such a diff joins.
//
// # Column signatures (signature.go)
//
// ColumnSignatures lists a column's storage segments with the content
// hash of the block holding each (from the snapshot's chunk map): equal
// signatures of a column and of the key mean equal values at every key
// both versions hold. Merges and the lakehouse export leave such columns
// out of their comparisons. SignatureCache keeps the signatures of
// snapshot images by chunk map and table (an image's bytes are its chunk
// map's, so they never change); merges read their images' through one, and
// a live file's are always read again. Signatures reads what the cache
// lacks for several tables of several versions in one statement (a UNION
// ALL of their pragma_storage_info, which DuckDB runs on all its
// threads): a merge of ten tables read thirty.
//
// # In-place merges and recycled images (inplace.go, recycle.go)
//
// A merge into ours' own branch writes into the branch's live file instead
// of a copy (package merge has the protocol). OpenInPlace holds the gate
// exclusively until Close, so the file is exactly the head until the merge
// writes and exactly its result after; MarkApplying writes
// "<live>.applying" (atomically, fsynced) before the first write;
// InPlace.Publish chunks the live file (the pre-check hashes only blocks
// that changed) and records the snapshot and head without moving any file.
// Close after a failure compares the file with the head and, if the bytes
// differ, gives the branch a new live file rebuilt from its head
// (resetLive). RecoverInPlace, at start-up before anything is attached,
// does the same for every marker left by a crash: resetting is right
// whether or not the merge was published, because the head is then either
// the old state or the result. gc keeps a live file's marker with it.
//
// A snapshot image that is not in the cache is patched, when it can be,
// from another image that nothing has attached, no name links to (one
// inode link) and that shares at least half of the new image's chunks at
// the same places: the old image is renamed to a temporary name, the
// differing chunks are written into it from the block store, and it is
// truncated, fsynced and renamed into place. A merge's base and theirs are
// typically the previous merge's base and theirs plus a few changed blocks,
// so in the bench's repeated merges an image costs what changed, not the
// file. A crash mid-patch leaves only a temporary file (gc removes it); the
// old snapshot's image is rebuilt on demand. Blocks not held locally (to
// be fetched from a remote) fall back to plain materialization.
//
// # The gate
//
// Every statement a session runs holds shared the gates of its own branch
// and of the branches it names in quotes ("db/dev".t), taken in one sorted
// order; snapshot, restore, delete and merge publication hold a gate
// exclusively, and an in-place merge holds its destination's from the
// comparison to publication. Statements that
// call vsql_* functions do not take the gate (the functions take it), so a
// session can snapshot its own branch. Gate.ExclusiveHolds counts the
// exclusive holds taken: the server's savepoint emulation refuses to run a
// transaction block again when vsql changed its branch since BEGIN.
//
// # Remotes
//
// Exporter (s3sync) runs under the branch's exclusive gate after a
// snapshot's blocks are stored and before the catalog records it, and in
// Publish before the catalog transaction (a merge passes its own durable
// steps as Publication.Remote); an export error leaves nothing recorded.
// AttachImage attaches remote heads read-only and swaps them when they
// move. Evict (offline) removes images and the blocks only exported
// snapshots use; materializing one calls Fetcher to bring them back.
//
// # Deleting snapshots, retention and gc
//
// DeleteSnapshot and retention (SetRetention, ApplyRetention, applied
// after every recorded snapshot) never remove a snapshot's row: its
// content root becomes catalog.DeletedRoot (an empty chunk map that
// ChunkMap refuses), its name is freed, and its parent edges stay, so
// ancestry and merge-base selection see the same graph as before and a
// merge whose base was deleted says so (merge_base_deleted) instead of
// falling back to an older ancestor, which would resurrect deleted rows.
// Kept whatever force says: branch heads, snapshots unfinished merge
// requests name, pinned ones, and images a session or a merge reads
// (sessions and users of the attachment). Kept unless forced: named
// snapshots and the best common ancestors of every pair of branch heads
// (catalog.BestCommonAncestors, linear in the history). Deleting takes
// the gates of the snapshot's attached images exclusively (statements
// naming "db@N" hold them shared), so a read in progress finishes, then
// under the manager's lock re-reads the history and deletes in one
// catalog transaction what is still deletable, detaches the images and
// removes their files.
//
// gc marks every block of the chunk maps kept snapshots (and the results
// of unfinished merge requests) reference and sweeps the rest. Offline
// (GC, vsqld gc) it holds the repository lock. Online (Manager.GC,
// vsql_gc, the background pass) it holds storeMu exclusively: snapshot
// creation and publication hold it shared from their first stored block
// to the catalog commit that references it, so a block that a snapshot in
// flight found already stored (and did not write again) cannot be swept
// between the two. Online gc also leaves every attached file, and temporary
// and unnamed live files younger than OnlineFileGrace.
//
// # Caveats
//
//   - verify may run beside a serving vsqld; vsqld gc only while it is
//     stopped (the online gc is Manager.GC).
//   - S3 remotes are collected by the server after the local gc
//     (s3sync.Remotes.Collect); packs partly in use are kept whole.
//   - Statements take the gates of branches they name in quotes
//     ("db/dev".t) besides their own; a main branch named plainly from
//     another database's session (retail.main.t) is not gated.
//   - A branch whose main was never snapshotted counts as dirty.
package branches
